#!/usr/bin/env bash
# fortran.sh - the Fortran binding's cost, side by side: impi, Open MPI and
# MPICH (when installed) each build bench/fortran_bench.f90 (`use mpi`) with
# their mpifort and bench/fortran_bench_c.c with their mpicc; 2 processes of
# one machine (shared memory). Rounds are interleaved; medians of the
# per-call times (us) of an 8-byte ping-pong (half round trip) and a
# 1-double MPI_Allreduce, in Fortran and C, and the difference (Fortran's
# overhead per call).
# Usage: bench/fortran.sh [build-dir] [rounds]
# Writes the table to bench/results/fortran.txt (IMPI_BENCH_RESULTS=FILE: there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-5}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${IMPI_BENCH_RESULTS:-$here/bench/results/fortran.txt}
f=$here/bench/fortran_bench.f90 c=$here/bench/fortran_bench_c.c
libs=(impi)
"$build/bin/mpifort" -O2 -J "$work" -o "$work/impi_f" "$f"
"$build/bin/mpicc" -O2 -o "$work/impi_c" "$c"
run_impi() { "$build/bin/impirun" -np 2 "$@"; }
if command -v mpifort.openmpi >/dev/null; then
  mkdir -p "$work/o" && mpifort.openmpi -O2 -J "$work/o" -o "$work/ompi_f" "$f" &&
    mpicc.openmpi -O2 -o "$work/ompi_c" "$c" && libs+=(ompi)
fi
run_ompi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np 2 \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$@"
}
if command -v mpifort.mpich >/dev/null; then
  mkdir -p "$work/m" && mpifort.mpich -O2 -J "$work/m" -o "$work/mpich_f" "$f" 2>/dev/null &&
    mpicc.mpich -O2 -o "$work/mpich_c" "$c" 2>/dev/null && libs+=(mpich)
fi
run_mpich() { UCX_NET_DEVICES=lo mpiexec.mpich -n 2 "$@"; }
res=$work/results.txt
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores; cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
for r in $(seq "$rounds"); do
  for i in $(bench_order "$r" ${#libs[@]}); do  # (a balanced order: header.sh)
    l=${libs[i]}
    for lang in f c; do "run_$l" "$work/${l}_$lang" | sed "s/^/$l $lang $r /" >>"$work/all"; done
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
v = {}
for line in open(sys.argv[1]):
    lib, lang, rnd, what, us = line.split()
    v.setdefault((lib, lang, what), []).append(float(us))
libs = sys.argv[2:]
print(f"{'us per call (median)':24}" + "".join(f"{l:>12}" for l in libs))
for what in ("pingpong", "allreduce"):
    for lang, label in (("f", "Fortran"), ("c", "C")):
        print(f"{what + ' ' + label:24}" + "".join(f"{statistics.median(v[(l, lang, what)]):12.3f}" for l in libs))
    print(f"{what + ' Fortran - C':24}" + "".join(
        f"{statistics.median(v[(l, 'f', what)]) - statistics.median(v[(l, 'c', what)]):12.3f}" for l in libs))
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
echo "results in $out" >&2
