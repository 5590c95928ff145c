#!/usr/bin/env bash
# partitioned.sh - partitioned ping-pong (bench/partitioned_bench.c: 16
# partitions, 4 threads per side marking them ready, 1 KiB..MAX total),
# impi beside MPICH (the peer installed here with MPI_Psend_init), each
# built by its own wrapper; rounds interleaved, medians per size; ratio
# mpich/impi (>1: impi faster). One client (shared memory), then impi
# across 2 clients (TCP between them).
# Usage: bench/partitioned.sh [build-dir] [rounds] [max_bytes]
# Writes bench/results/partitioned.txt (IMPI_BENCH_RESULTS=FILE: there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
max=${3:-16777216}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/partitioned.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/bench/partitioned_bench.c
"$build/bin/mpicc" -O2 -pthread -o "$work/impi" "$src"
libs=(impi impi2c)
run_impi() { "$build/bin/impirun" -np 2 "$work/impi" "$max"; }
run_impi2c() { "$build/bin/impirun" -np 2 --clients 2 "$work/impi" "$max"; }
if command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -pthread -o "$work/mpich" "$src" 2>/dev/null && libs+=(mpich)
fi
# (MPICH's own launcher on this machine's loopback only.)
run_mpich() { UCX_NET_DEVICES=lo mpiexec.mpich -n 2 -host 127.0.0.1 "$work/mpich" "$max"; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, 2 procs; impi: 1 client (shm) and 2 clients (impi2c, TCP); cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
for r in $(seq "$rounds"); do
  for i in $(bench_order "$r" ${#libs[@]}); do  # (a balanced order: header.sh)
    l=${libs[i]}
    "run_$l" | sed "s/^/$l $r /" >> "$work/all"
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
value = {}
for lib, rnd, size, v in rows:
    value.setdefault((lib, int(size)), []).append(float(v))
sizes = sorted({int(r[2]) for r in rows})
print("\npartitioned ping-pong, one-way us (half a round trip), median of rounds")
print(f"{'bytes':>9}" + "".join(f"{l:>11}" for l in libs) + ("   mpich/impi" if "mpich" in libs else ""))
for s in sizes:
    med = {l: statistics.median(value[(l, s)]) if (l, s) in value else float('nan') for l in libs}
    line = f"{s:>9}" + "".join(f"{med[l]:>11.2f}" for l in libs)
    if "mpich" in libs:
        line += f"{med['mpich'] / med['impi']:>12.2f}x"
    print(line)
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
