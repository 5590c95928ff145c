#!/usr/bin/env bash
# run_mixed.sh - one IMPI job of two clients, each LAM/MPI 7.1.4 or impi,
# meeting at impi's server on 127.0.0.1, running lam_interop with the given
# phases. Exits 0 when every rank of both clients passed every phase.
#
# Usage: run_mixed.sh LAM_PREFIX IMPI_BUILD KIND:NP KIND:NP PHASE...
#   KIND:NP    client 0, then client 1: lam or impi, and its proc count
#              (lam:2 impi:1 is a 2-proc LAM client 0 and a 1-proc impi
#              client 1; lam:1 lam:1 and impi:1 impi:1 work too)
#   LAM_PREFIX a LAM install from build_lam.sh. LAM refuses to run as
#              root: as root, the LAM side runs as the install's owner.
# Environment: IMPI_LAM_TIMEOUT (s, default 120) bounds the whole job;
# IMPI_LAM_WRAP runs each LAM proc under a command (strace, gdb);
# IMPI_RUN_ARGS: impirun options for the impi clients (default
# "--bind-to none": two launchers on one machine would each bind their
# first proc to cpu 0);
# anything else (IMPI_*) reaches the impi side as usual.
set -uo pipefail
lam=$(cd "$1" 2>/dev/null && pwd || echo "$1") impi=$(cd "$2" && pwd) spec0=$3 spec1=$4
shift 4
kind=("${spec0%%:*}" "${spec1%%:*}") np=("${spec0##*:}" "${spec1##*:}")
for k in 0 1; do
  case "${kind[$k]}:${np[$k]}" in
    lam:[1-9] | impi:[1-9]) ;;
    *) echo "run_mixed: '${kind[$k]}:${np[$k]}' is not lam:N or impi:N"; exit 2 ;;
  esac
done
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
  for k in 0 1; do
    [ "${kind[$k]}" = lam ] && suffix=impi$$c$k as_lam "lamhalt >/dev/null 2>&1 || lamwipe >/dev/null 2>&1" \
      </dev/null >/dev/null 2>&1
  done
  rm -rf "$work"
}
trap cleanup EXIT

as_lam() {  # runs a shell line as the LAM user, with LAM's environment (a universe per $suffix)
  local envs="export PATH=$lam/bin:\$PATH LAM_MPI_SESSION_SUFFIX=${suffix:-impi$$} IMPI_AUTH_NONE=1 LAMHOME=$lam;"
  if [ "$(id -un)" = "$lam_user" ]; then bash -c "$envs $1"; else su "$lam_user" -s /bin/bash -c "$envs $1"; fi
}

# Both builds of the one program.
cp "$here/lam_interop.c" "$here/../../integration/check.h" "$work/"
as_lam "cd $work && mpicc -O1 -o lam_interop_lam lam_interop.c" || { echo "run_mixed: LAM's mpicc failed"; exit 1; }
"$impi/bin/mpicc" -O1 -o "$work/lam_interop_impi" "$work/lam_interop.c" || exit 1
chmod 755 "$work"/lam_interop_*

echo localhost >"$work/bhost"
for k in 0 1; do
  [ "${kind[$k]}" = lam ] || continue
  suffix=impi$$c$k as_lam "cd $work && lamboot $work/bhost" </dev/null >"$work/lamboot.log" 2>&1 ||
    { cat "$work/lamboot.log"; echo "run_mixed: lamboot failed"; exit 1; }
done

export IMPI_AUTH_NONE=1
"$impi/bin/impirun" -server 2 --address 127.0.0.1 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 50); do grep -q "127.0.0.1:" "$work/server.out" && break; sleep 0.1; done
hp=$(grep -o "127.0.0.1:[0-9]*" "$work/server.out" | head -1)
[ -n "$hp" ] || { echo "run_mixed: the server printed no address"; cat "$work/server.err"; exit 1; }

pids=()
for k in 0 1; do
  if [ "${kind[$k]}" = lam ]; then
    suffix=impi$$c$k as_lam "cd $work && timeout -k 5 $timeout_s mpirun -client $k $hp -np ${np[$k]} \
      ${IMPI_LAM_WRAP:-} ./lam_interop_lam $phases" </dev/null >"$work/c$k.out" 2>"$work/c$k.err" &
  else
    timeout -k 5 "$timeout_s" "$impi/bin/impirun" -client "$k" "$hp" --address 127.0.0.$((2 + k)) \
      ${IMPI_RUN_ARGS---bind-to none} -np "${np[$k]}" "$work/lam_interop_impi" $phases </dev/null >"$work/c$k.out" 2>"$work/c$k.err" &
  fi
  pids+=($!)
done
wait "${pids[0]}"
rc0=$?
wait "${pids[1]}"
rc1=$?
for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill "$server_pid" 2>/dev/null && server_rc=timeout || { wait "$server_pid"; server_rc=$?; }
server_pid=

for k in 0 1; do
  for f in c$k.out c$k.err; do
    [ -s "$work/$f" ] && sed "s/^/[$f ${kind[$k]}] /" "$work/$f"
  done
done
[ -s "$work/server.err" ] && sed "s/^/[server] /" "$work/server.err"
echo "run_mixed: client 0 ${kind[0]}:${np[0]} rc $rc0, client 1 ${kind[1]}:${np[1]} rc $rc1, server rc $server_rc"
# Every rank of both clients must report every phase and its finalization.
nranks=$((np[0] + np[1]))
fail=0
for p in $phases finalized; do
  n=$(cat "$work/c0.out" "$work/c1.out" | grep -c ": phase $p ok\|: $p ok")
  if [ "$n" -ne "$nranks" ]; then echo "run_mixed: '$p' ok on $n of $nranks ranks"; fail=1; fi
done
[ "$rc0" = 0 ] && [ "$rc1" = 0 ] && [ "$server_rc" = 0 ] && [ "$fail" = 0 ]
