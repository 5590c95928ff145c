#!/usr/bin/env bash
# largecount.sh - a 4 GiB MPI_Send_c ping (MPI-4 large counts) between 2
# ranks of one client on this machine: impi (shared memory, with cross-memory
# attach, then with it off: IMPI_SHM_CMA_THRESHOLD=0) and MPICH 4.0.2 (the
# Debian package; Open MPI 4.1.4 has no _c calls) in the same run, each
# running bench/largecount_bench.c built by its own wrapper; and this
# machine's memcpy bandwidth on the same size (bench/memcpy_bench.c), the
# bound of a single-copy transfer. Each run holds 2 x 4 GiB (memcpy too).
# Usage: bench/largecount.sh [build-dir] [reps] [bytes]
# Writes bench/results/largecount.txt (IMPI_BENCH_RESULTS=FILE: there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
reps=${2:-3}
bytes=${3:-4294967296}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${IMPI_BENCH_RESULTS:-$here/bench/results/largecount.txt}
res=$work/results.txt
"$build/bin/mpicc" -O2 -o "$work/impi" "$here/bench/largecount_bench.c"
cc -O2 -o "$work/memcpy" "$here/bench/memcpy_bench.c"
libs=(impi)
if command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$here/bench/largecount_bench.c" 2>/dev/null && libs+=(mpich)
fi
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
echo "# $bytes bytes, MPI_Send_c/MPI_Recv_c of MPI_BYTE rank 0 -> 1 then a 0-byte reply; $reps timed messages after a warm-up; GB/s = 10^9 bytes/s" | tee -a "$res"
run() {
  local label=$1
  shift
  printf '%-24s ' "$label" | tee -a "$res"
  if out_line=$("$@" 2>&1 | tail -1); then echo "$out_line" | tee -a "$res"; else echo "failed: $out_line" | tee -a "$res"; fi
}
run "memcpy (1 process)" "$work/memcpy" "$bytes" "$reps"
run "impi (CMA)" "$build/bin/impirun" -np 2 "$work/impi" "$bytes" "$reps"
run "impi (no CMA)" env IMPI_SHM_CMA_THRESHOLD=0 "$build/bin/impirun" -np 2 "$work/impi" "$bytes" "$reps"
if [[ " ${libs[*]} " == *" mpich "* ]]; then
  run "MPICH 4.0.2" mpiexec.mpich -n 2 "$work/mpich" "$bytes" "$reps"
fi
cp "$res" "$out"
