#!/usr/bin/env bash
# lam_pingpong.sh - 8-byte ping-pong between world rank 0 and the last
# rank, with LAM/MPI 7.1.4 and impi on this machine, in one run:
#   impi  <-> impi   two impi clients (1+1) at impi's server
#   LAM   <-> impi   a LAM client and an impi client (stock and patched LAM)
#   LAM   <-> LAM    two procs of one LAM client (LAM's own transport: two
#                    LAM clients on one machine cannot meet: docs/lam-interop.md)
#   impi  <-> impi   two procs of one impi client (shared memory)
# Each line is the median one-way time of 9 rounds (min..max).
#
# Usage: bench/lam_pingpong.sh [BUILD] [LAM_PREFIX] [ROUNDS]
#   BUILD defaults to build, LAM_PREFIX to BUILD/lam (build it with
#   tests/interop/lam/build_lam.sh), ROUNDS (default 3) repeats the set.
# Writes bench/results/lam_pingpong.txt (and prints it).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
lam=$(cd "${2:-$build/lam}" && pwd)
rounds=${3:-3}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
run=$here/tests/interop/lam/run_mixed.sh
out=$here/bench/results/lam_pingpong.txt
mkdir -p "$here/bench/results"
[ -x "$lam/stock/bin/lamboot" ] || { echo "lam_pingpong: no LAM in $lam (tests/interop/lam/build_lam.sh)"; exit 1; }

pp() {  # label, then run_mixed arguments; prints the pingpong line's figures
  local label=$1 line
  shift
  line=$(IMPI_LAM_TIMEOUT=300 bash "$run" "$@" 2>&1 | grep -o "one way .*" | head -1 || true)
  printf '%-44s %s\n' "$label" "${line:-FAILED}"
}

lam_native() {  # two procs of one LAM client, LAM's own transport
  local lam_user work line
  lam_user=$(stat -c %U "$lam/stock/bin/lamboot")
  work=$(mktemp -d /tmp/impi-lampp.XXXXXX)
  chmod 755 "$work"
  [ "$(id -u)" = 0 ] && chown "$lam_user" "$work"
  cp "$here/tests/interop/lam/lam_interop.c" "$here/tests/integration/check.h" "$work/"
  echo localhost >"$work/bhost"
  local envs="export PATH=$lam/stock/bin:\$PATH LAM_MPI_SESSION_SUFFIX=pp$$ LAMHOME=$lam/stock; cd $work;"
  local cmd="$envs mpicc -O2 -o pp lam_interop.c && lamboot bhost >/dev/null 2>&1 </dev/null &&
    mpirun -np 2 ./pp pingpong=20000 </dev/null; lamhalt >/dev/null 2>&1; true"
  if [ "$(id -un)" = "$lam_user" ]; then line=$(bash -c "$cmd" 2>&1 || true); else line=$(su "$lam_user" -s /bin/bash -c "$cmd" 2>&1 || true); fi
  rm -rf "$work"
  if grep -q "one way" <<<"$line"; then
    printf '%-44s %s\n' "LAM<->LAM, one LAM client (2 procs)" "$(grep -o "one way .*" <<<"$line")"
  else
    printf '%-44s FAILED\n' "LAM<->LAM, one LAM client (2 procs)"
    echo "$line" | tail -5 >&2
  fi
}

impi_native() {
  local work
  work=$(mktemp -d /tmp/impi-pp.XXXXXX)
  "$build/bin/mpicc" -O2 -I"$here/tests/integration" -o "$work/pp" "$here/tests/interop/lam/lam_interop.c"
  printf '%-44s %s\n' "impi<->impi, one impi client (2 procs)" \
    "$("$build/bin/impirun" -np 2 "$work/pp" pingpong=20000 | grep -o "one way .*" || echo FAILED)"
  rm -rf "$work"
}

{
  echo "$(bench_header "$cmdline" lam); 8 B one way, median of 9 rounds (min, max)"
  for r in $(seq "$rounds"); do
    echo "## round $r"
    pp "impi<->impi, two impi clients (1+1)" "$lam/stock" "$build" impi:1 impi:1 pingpong=2000
    pp "LAM<->impi, stock LAM (lam:1 impi:1)" "$lam/stock" "$build" lam:1 impi:1 pingpong=10
    pp "LAM<->impi, stock LAM (impi:1 lam:1)" "$lam/stock" "$build" impi:1 lam:1 pingpong=10
    if [ -x "$lam/patched/bin/lamboot" ]; then
      pp "LAM<->impi, patched LAM (lam:1 impi:1)" "$lam/patched" "$build" lam:1 impi:1 pingpong=10
      pp "LAM<->impi, patched LAM (impi:1 lam:1)" "$lam/patched" "$build" impi:1 lam:1 pingpong=10
    fi
    lam_native
    impi_native
  done
} | tee "$out"
