#!/usr/bin/env bash
# run_mixed.sh - one IMPI job of a LAM/MPI 7.1.4 client and an impi client,
# meeting at impi's server on 127.0.0.1, running lam_interop with the given
# phases. Exits 0 when every rank of both clients passed every phase.
#
# Usage: run_mixed.sh LAM_PREFIX IMPI_BUILD ORDER LAM_NP IMPI_NP PHASE...
#   ORDER      lam-first (LAM is client 0) or impi-first
#   LAM_PREFIX a LAM install from build_lam.sh (its bin/ and the user that
#              owns it; LAM refuses to run as root, so as root the LAM side
#              runs as that user)
# Environment: IMPI_LAM_TIMEOUT (s, default 120) bounds the whole job;
# IMPI_LAM_WRAP runs each LAM proc under a command (strace, gdb);
# anything else (IMPI_*) reaches the impi side as usual.
set -uo pipefail
lam=$1 impi=$2 order=$3 lam_np=$4 impi_np=$5
shift 5
phases="$*"
timeout_s=${IMPI_LAM_TIMEOUT:-120}
here=$(cd "$(dirname "$0")" && pwd)

[ -x "$lam/bin/lamboot" ] || { echo "run_mixed: no LAM at $lam (tests/interop/lam/build_lam.sh)"; exit 77; }
lam_user=$(stat -c %U "$lam/bin/lamboot")
work=$(mktemp -d /tmp/impi-lam.XXXXXX)
chmod 755 "$work"
[ "$(id -u)" = 0 ] && chown "$lam_user" "$work"
cleanup() {
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null
  as_lam "lamhalt >/dev/null 2>&1 || lamwipe >/dev/null 2>&1" </dev/null >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
suffix="impi$$"

as_lam() {  # runs a shell line as the LAM user, with LAM's environment
  local envs="export PATH=$lam/bin:\$PATH LAM_MPI_SESSION_SUFFIX=$suffix IMPI_AUTH_NONE=1 LAMHOME=$lam;"
  if [ "$(id -un)" = "$lam_user" ]; then bash -c "$envs $1"; else su "$lam_user" -s /bin/bash -c "$envs $1"; fi
}

# Both builds of the one program.
cp "$here/lam_interop.c" "$work/"
as_lam "cd $work && mpicc -O1 -o lam_interop_lam lam_interop.c" || { echo "run_mixed: LAM's mpicc failed"; exit 1; }
"$impi/bin/mpicc" -O1 -o "$work/lam_interop_impi" "$work/lam_interop.c" || exit 1
chmod 755 "$work"/lam_interop_*

echo localhost >"$work/bhost"
as_lam "cd $work && lamboot $work/bhost" </dev/null >"$work/lamboot.log" 2>&1 ||
  { cat "$work/lamboot.log"; echo "run_mixed: lamboot failed"; exit 1; }

export IMPI_AUTH_NONE=1
"$impi/bin/impirun" -server 2 --address 127.0.0.1 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 50); do grep -q "127.0.0.1:" "$work/server.out" && break; sleep 0.1; done
hp=$(grep -o "127.0.0.1:[0-9]*" "$work/server.out" | head -1)
[ -n "$hp" ] || { echo "run_mixed: the server printed no address"; cat "$work/server.err"; exit 1; }

if [ "$order" = lam-first ]; then lam_rank=0 impi_rank=1; else lam_rank=1 impi_rank=0; fi
as_lam "cd $work && timeout -k 5 $timeout_s mpirun -client $lam_rank $hp -np $lam_np ${IMPI_LAM_WRAP:-} ./lam_interop_lam $phases" \
  </dev/null >"$work/lam.out" 2>"$work/lam.err" &
lam_pid=$!
timeout -k 5 "$timeout_s" "$impi/bin/impirun" -client "$impi_rank" "$hp" --address 127.0.0.2 -np "$impi_np" \
  "$work/lam_interop_impi" $phases </dev/null >"$work/impi.out" 2>"$work/impi.err"
impi_rc=$?
wait "$lam_pid"
lam_rc=$?
for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill "$server_pid" 2>/dev/null && server_rc=timeout || { wait "$server_pid"; server_rc=$?; }
server_pid=

for f in lam.out lam.err impi.out impi.err server.err; do
  [ -s "$work/$f" ] && sed "s/^/[$f] /" "$work/$f"
done
echo "run_mixed: $order lam=${lam_np} impi=${impi_np}: lam rc $lam_rc, impi rc $impi_rc, server rc $server_rc"
# Every rank of both sides must report every phase and its finalization.
nranks=$((lam_np + impi_np))
fail=0
for p in $phases finalized; do
  n=$(cat "$work/lam.out" "$work/impi.out" | grep -c ": phase $p ok\|: $p ok")
  if [ "$n" -ne "$nranks" ]; then echo "run_mixed: '$p' ok on $n of $nranks ranks"; fail=1; fi
done
[ "$lam_rc" = 0 ] && [ "$impi_rc" = 0 ] && [ "$server_rc" = 0 ] && [ "$fail" = 0 ]
