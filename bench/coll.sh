#!/usr/bin/env bash
# coll.sh - collective latency on this machine, side by side: impi, Open
# MPI, MPICH (when installed), each running bench/coll_bench.c built by its
# own wrapper; rounds interleaved, medians per size, ratios theirs/ours
# (>1: impi faster), "vs best" against the better peer.
# Usage: bench/coll.sh [build-dir] [rounds] [np] [max_bytes] [ops]   (IMPI_BENCH_NO_MPICH=1: without MPICH)
#   ops: space-separated (default: barrier bcast reduce allreduce allgather alltoall)
# Also writes the tables to bench/results/coll_npNP.txt (IMPI_BENCH_RESULTS=FILE:
# there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
np=${3:-4}
max=${4:-1048576}
ops=${5:-barrier bcast reduce allreduce allgather alltoall}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/coll_np$np.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/bench/coll_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
libs=(impi)
run_impi() { "$build/bin/impirun" -np "$np" "$work/impi" "$@"; }
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/ompi" "$src" 2>/dev/null; libs+=(ompi)
fi
run_ompi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np "$np" --oversubscribe \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$work/ompi" "$@"
}
# IMPI_BENCH_NO_MPICH=1 leaves MPICH out (here it busy-polls when
# oversubscribed: milliseconds per call, and most of the script's time).
if [ "${IMPI_BENCH_NO_MPICH:-0}" != 1 ] && command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src" 2>/dev/null; libs+=(mpich)
fi
run_mpich() { UCX_NET_DEVICES=lo mpiexec.mpich -n "$np" "$work/mpich" "$@"; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $np procs, 1 client" | tee -a "$res"
# Rounds outermost: this VM's speed drifts over minutes, so every round
# runs each operation with each library back to back.
for r in $(seq "$rounds"); do
  for op in $ops; do
    # in an order that changes from round to round (bench_order)
    for i in $(bench_order "$r" ${#libs[@]}); do
      l=${libs[i]}
      "run_$l" "$op" "$max" | sed "s/^/$l $op $r /" >> "$work/all"
    done
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
# value[(lib, op, size)][round]
value = {}
for lib, op, rnd, size, v in rows:
    value.setdefault((lib, op, int(size)), {})[rnd] = float(v)
for op in dict.fromkeys(r[1] for r in rows):
    sizes = sorted({int(r[3]) for r in rows if r[1] == op})
    peers = [l for l in libs if l in ("ompi", "mpich")]
    print(f"\n{op} (us per call, max over ranks), median of rounds; paired: median of each round's best/impi, best by median")
    print(f"{'bytes':>9}" + "".join(f"{l:>11}" for l in libs) + "".join(f"{'vs '+l:>10}" for l in libs[1:]) +
          (f"{'vs best':>10}{'paired':>10}" if peers else ""))
    for s in sizes:
        got = {l: value.get((l, op, s), {}) for l in libs}
        med = {l: statistics.median(got[l].values()) for l in libs}
        line = f"{s:>9}" + "".join(f"{med[l]:>11.2f}" for l in libs) + "".join(f"{med[l] / med['impi']:>9.2f}x" for l in libs[1:])
        if peers:
            best = min(peers, key=lambda l: med[l])
            line += f"{med[best] / med['impi']:>9.2f}x"
            # (against that peer's same round: each round's better of two noisy
            # peers would beat an equally fast impi in 2 rounds of 3)
            both = [r for r in got["impi"] if r in got[best]]
            line += f"{statistics.median(got[best][r] / got['impi'][r] for r in both):>9.2f}x"
        print(line)
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
