#!/usr/bin/env bash
# ring.sh - NP processes (default 4, on this 2-core machine: oversubscribed)
# in a ring exchange, side by side with Open MPI (--oversubscribe) and MPICH.
# Prints microseconds per exchange step, median of ROUNDS runs.
# Usage: bench/ring.sh [build-dir] [rounds] [np] [iterations]   (IMPI_BENCH_NO_MPICH=1: without MPICH)
# Also writes the table to bench/results/ring_npNP.txt (IMPI_BENCH_RESULTS=FILE:
# there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3} np=${3:-4} iters=${4:-2000}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/ring_np$np.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/bench/ring_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
libs=(impi)
if command -v mpicc.openmpi >/dev/null; then mpicc.openmpi -O2 -o "$work/ompi" "$src"; libs+=(ompi); fi
# IMPI_BENCH_NO_MPICH=1 leaves MPICH out (it busy-polls when oversubscribed:
# milliseconds per step, minutes per run).
if [ "${IMPI_BENCH_NO_MPICH:-0}" != 1 ] && command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src"; libs+=(mpich)
fi
run_impi() { timeout 300 "$build/bin/impirun" -np "$np" "$work/impi" "$iters"; }
run_ompi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun.openmpi --oversubscribe \
    -np "$np" --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$work/ompi" "$iters"
}
run_mpich() { UCX_NET_DEVICES=lo timeout 300 mpiexec.mpich -n "$np" "$work/mpich" "$iters" || echo nan; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $np processes; cpu pressure: $(head -1 /proc/pressure/cpu)" | tee -a "$res"
for r in $(seq "$rounds"); do
  for i in $(bench_order "$r" ${#libs[@]}); do  # (a balanced order: header.sh)
    l=${libs[i]}
    echo "$l $("run_$l") $r" >> "$work/all"
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys, math
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
got = {l: {r[2]: float(r[1]) for r in rows if r[0] == l and r[1] != "nan"} for l in libs}
for l in libs:
    vals = list(got[l].values())
    line = f"{l:<6} {statistics.median(vals):10.2f} us per step" if vals else f"{l:<6} failed"
    if vals and l != "impi" and got["impi"]:
        both = [r for r in got["impi"] if r in got[l]]
        if both:  # paired: each round's ratio, this VM's speed drifting between rounds
            line += f"   theirs/ours: median {statistics.median(vals) / statistics.median(got['impi'].values()):.2f}x, paired {statistics.median(got[l][r] / got['impi'][r] for r in both):.2f}x"
    print(line)
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
