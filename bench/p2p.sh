#!/usr/bin/env bash
# p2p.sh - latency and bandwidth between 2 processes on this machine,
# side by side: impi, Open MPI, MPICH (when installed), each running the
# same bench/p2p_bench.c built by its own wrapper. Rounds are interleaved;
# medians per size, and ratios (latency: theirs/ours, >1 = impi faster;
# bandwidth: ours/theirs, >1 = impi faster); "vs best" compares with the
# better of Open MPI and MPICH at each size.
# Usage: bench/p2p.sh [build-dir] [rounds] [max_bytes] [modes]
#   modes: a space-separated list of latency bw bibw (default: all three)
#   IMPI_BENCH_MULTIPLE=1: also impi with MPI_THREAD_MULTIPLE ("impi-mt"),
#   to show what thread safety costs a single-threaded program.
#   IMPI_BENCH_CLIENTS=2: inter-client mode: the 2 ranks in 2 IMPI clients
#   (through both host agents), Open MPI and MPICH forced onto TCP loopback.
#   Open MPI: --mca btl tcp,self; MPICH: MPIR_CVAR_NOLOCAL=1.
# Also writes the tables to bench/results/p2p.txt (p2p_2clients.txt with
# IMPI_BENCH_CLIENTS=2; IMPI_BENCH_RESULTS=FILE: there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
max=${3:-4194304}
modes=${4:-latency bw bibw}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/bench/p2p_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
clients=${IMPI_BENCH_CLIENTS:-1}
suffix=""
[ "$clients" -gt 1 ] && suffix=_${clients}clients
out=${IMPI_BENCH_RESULTS:-$here/bench/results/p2p$suffix.txt}
res=$work/results.txt
impi_clients=() ompi_tcp=() mpich_tcp=()
if [ "$clients" -gt 1 ]; then
  impi_clients=(--clients "$clients")
  ompi_tcp=(--mca btl tcp,self)
  mpich_tcp=(MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self)
fi
run_impi() { "$build/bin/impirun" -np 2 "${impi_clients[@]}" "$work/impi" "$@"; }
run_impimt() { "$build/bin/impirun" -np 2 "${impi_clients[@]}" "$work/impi" "$@" multiple; }
libs=(impi)
[ "${IMPI_BENCH_MULTIPLE:-0}" = 1 ] && libs+=(impimt)
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/ompi" "$src"; libs+=(ompi)
fi
run_ompi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np 2 "${ompi_tcp[@]}" \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$work/ompi" "$@"
}
if command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src" 2>/dev/null; libs+=(mpich)
fi
run_mpich() { env "${mpich_tcp[@]}" UCX_NET_DEVICES=lo mpiexec.mpich -n 2 "$work/mpich" "$@"; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $clients client(s); cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
probe_start=$(bench_probe "$work/impi")
# Rounds outermost: this VM's speed drifts over minutes, so every round
# runs each mode with each library back to back. Each such block is
# classed by the VM's speed probed before and after it (fast: both below
# 0.15 us; slow: both above 0.2 us; else mixed): the paired ratio is
# also given over the fast blocks and over the slow ones alone.
probe=$probe_start
for r in $(seq "$rounds"); do
  for mode in $modes; do
    # in an order that changes from round to round (bench_order)
    for i in $(bench_order "$r" ${#libs[@]}); do
      l=${libs[i]}
      "run_$l" "$mode" "$max" | sed "s/^/$l $mode $r /" >> "$work/all"
    done
    after=$(bench_probe "$work/impi")
    echo "$mode $r ${probe:-nan} ${after:-nan}" >> "$work/speed"
    probe=$after
  done
done
python3 - "$work/all" "$work/speed" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[3:]
# value[(lib, mode, size)][round]
value = {}
for lib, mode, rnd, size, v in rows:
    value.setdefault((lib, mode, int(size)), {})[rnd] = float(v)
# speed[(mode, round)]: "fast", "slow" or "mixed"
speed = {}
for line in open(sys.argv[2]):
    mode, rnd, a, b = line.split()
    a, b = float(a), float(b)
    speed[(mode, rnd)] = "fast" if max(a, b) < 0.15 else "slow" if min(a, b) > 0.2 else "mixed"
for mode, unit in (("latency", "us"), ("bw", "MB/s"), ("bibw", "MB/s")):
    if not any(r[1] == mode for r in rows): continue
    sizes = sorted({int(r[3]) for r in rows if r[1] == mode})
    kinds = [speed.get((mode, r)) for r in sorted({r[2] for r in rows if r[1] == mode})]
    count = lambda k: sum(1 for x in kinds if x == k)
    print(f"\n{mode} ({unit}), median of rounds; paired: median of each round's ratio to the best peer (by median) in that round"
          f"\n(rounds: {count('fast')} fast, {count('slow')} slow, {count('mixed')} mixed; "
          "fast / slow: the paired ratio over those rounds alone)")
    peers = [l for l in libs if l in ("ompi", "mpich")]
    head = f"{'bytes':>9}" + "".join(f"{l:>11}" for l in libs) + "".join(f"{'vs '+l:>10}" for l in libs[1:])
    print(head + (f"{'vs best':>10}{'paired':>10}{'fast':>8}{'slow':>8}" if peers else ""))
    lat = mode == "latency"
    for s in sizes:
        got = {l: value.get((l, mode, s), {}) for l in libs}
        med = {l: statistics.median(got[l].values()) for l in libs}
        ratio = lambda x, us: (x / us) if lat else (us / x)
        line = f"{s:>9}" + "".join(f"{med[l]:>11.2f}" for l in libs) + "".join(f"{ratio(med[l], med['impi']):>9.2f}x" for l in libs[1:])
        if peers:
            pick = min if lat else max
            best = pick(peers, key=lambda l: med[l])  # (by median: see paired)
            line += f"{ratio(med[best], med['impi']):>9.2f}x"
            both = [r for r in got["impi"] if r in got[best]]
            # Against that one peer's same round: each round's better of two
            # noisy peers would beat an equally fast impi in 2 rounds of 3.
            paired = lambda rs: statistics.median(ratio(got[best][r], got['impi'][r]) for r in rs)
            line += f"{paired(both):>9.2f}x"
            for k in ("fast", "slow"):
                rs = [r for r in both if speed.get((mode, r)) == k]
                line += f"{paired(rs):>7.2f}x" if rs else f"{'-':>8}"
        print(line)
PY
echo "# 8 B shared-memory latency of impi (the VM's speed): ${probe_start:-?} us before the run, $(bench_probe "$work/impi") us after" | tee -a "$res"
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
