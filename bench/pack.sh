#!/usr/bin/env bash
# pack.sh - MPI_Pack throughput side by side: impi, Open MPI, MPICH (when
# installed), the same bench/pack_bench.c built by each one's wrapper and
# run as one process. Rounds are interleaved; the table shows each
# library's median over the rounds and its ratio to impi (>1: impi faster).
# Usage: bench/pack.sh [build-dir] [rounds]
# Also writes the table to bench/results/pack.txt (IMPI_BENCH_RESULTS=FILE:
# there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-5}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/pack.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/bench/pack_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
libs=(impi)
if command -v mpicc.openmpi >/dev/null; then mpicc.openmpi -O2 -o "$work/ompi" "$src"; libs+=(ompi); fi
if command -v mpicc.mpich >/dev/null; then mpicc.mpich -O2 -o "$work/mpich" "$src"; libs+=(mpich); fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_oob_tcp_if_include=lo UCX_NET_DEVICES=lo
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores; cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
for r in $(seq "$rounds"); do
  for i in $(bench_order "$r" ${#libs[@]}); do  # (a balanced order: header.sh)
    l=${libs[i]}
    "$work/$l" | sed "s/^/$l /" >> "$work/all"
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
layouts = ["contiguous", "vector", "struct"]
med = {(l, k): statistics.median(float(r[2]) for r in rows if r[0] == l and r[1] == k)
       for l in libs for k in layouts}
print(f"{'layout':<12}" + "".join(f"{l+' GB/s':>14}" for l in libs) +
      "".join(f"{'impi/'+l:>12}" for l in libs[1:]))
for k in layouts:
    print(f"{k:<12}" + "".join(f"{med[(l,k)]:>14.2f}" for l in libs) +
          "".join(f"{med[('impi',k)]/med[(l,k)]:>11.2f}x" for l in libs[1:]))
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
