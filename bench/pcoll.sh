#!/usr/bin/env bash
# pcoll.sh - persistent Allreduce (MPI_Allreduce_init, then MPI_Start +
# MPI_Wait per call) against the plain MPI_Allreduce, 8 B to 1 MiB of
# MPI_INT, at np 2 and np 4: impi in one client and split into 2 IMPI
# clients (--clients 2), beside MPICH (Debian's mpicc.mpich /
# mpiexec.mpich, loopback), each running bench/pcoll_bench.c built by its
# own wrapper; rounds interleaved, medians of the rounds per size.
# Usage: bench/pcoll.sh [build-dir] [rounds] [max_bytes] [nps]
#   (defaults: build 3 1048576 "2 4"; IMPI_BENCH_NO_MPICH=1: without MPICH)
# Writes bench/results/pcoll.txt (IMPI_BENCH_RESULTS=FILE: there instead).
# Columns: us per call (max over ranks); "p/b": persistent over plain (<1:
# persistent faster), with MPI-4.1's strict ordering assertion on world;
# "-u", "u/b": the persistent loop without it (MPICH 4.0.2 ignores it);
# "vs mpich-p": MPICH's persistent over impi's (>1: impi faster). A second
# table per np: the plain and the unasserted loops on a duplicate of
# MPI_COMM_WORLD ("dup", as libraries use one) and, from np 4, on halves
# of it split by rank parity ("half"), up to 32 KiB.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
max=${3:-1048576}
nps=${4:-2 4}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/pcoll.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/bench/pcoll_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
libs=(impi impi2c)
run_impi() { "$build/bin/impirun" -np "$np" "$work/impi" "$@"; }
run_impi2c() { "$build/bin/impirun" -np "$np" --clients 2 "$work/impi" "$@"; }
if [ "${IMPI_BENCH_NO_MPICH:-0}" != 1 ] && command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src" 2>/dev/null && libs+=(mpich)
fi
run_mpich() { UCX_NET_DEVICES=lo mpiexec.mpich -n "$np" "$work/mpich" "$@"; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores; impi2c: impi with --clients 2;" \
  "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$res"
# Rounds outermost: this VM's speed drifts over minutes.
for r in $(seq "$rounds"); do
  for np in $nps; do
    for i in $(bench_order "$r" ${#libs[@]}); do  # (a balanced order: header.sh)
      l=${libs[i]}
      for mode in allreduce persistent unasserted; do
        "run_$l" "$mode" "$max" | sed "s/^/$np $l $mode $r /" >>"$work/all"
      done
      subs=dup
      [ "$np" -ge 4 ] && subs="dup half"
      for sub in $subs; do
        for mode in allreduce unasserted; do
          "run_$l" "$sub-$mode" "$((max < 32768 ? max : 32768))" |
            sed "s/^/$np $l $sub-$mode $r /" >>"$work/all"
        done
      done
    done
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
value = {}
for np, lib, mode, rnd, size, v in rows:
    value.setdefault((int(np), lib, mode, int(size)), []).append(float(v))
med = {k: statistics.median(v) for k, v in value.items()}
for np in sorted({int(r[0]) for r in rows}):
    print(f"\nnp {np}: Allreduce (b: MPI_Allreduce) vs persistent (p: Allreduce_init + Start/Wait with MPI-4.1's strict ordering assertion; u: without it), us per call, median of rounds")
    head = f"{'bytes':>9}"
    for l in libs:
        head += f"{l + '-b':>11}{l + '-p':>11}{'p/b':>7}{l + '-u':>11}{'u/b':>7}"
    if "mpich" in libs:
        head += f"{'vs mpich-p':>11}{'2c vs mpich-p':>14}"
    print(head)
    for s in sorted({int(r[4]) for r in rows if int(r[0]) == np}):
        line = f"{s:>9}"
        for l in libs:
            b, p = med.get((np, l, "allreduce", s)), med.get((np, l, "persistent", s))
            u = med.get((np, l, "unasserted", s))
            line += f"{b:>11.2f}{p:>11.2f}{p / b:>7.2f}" if b and p else f"{'-':>11}{'-':>11}{'-':>7}"
            line += f"{u:>11.2f}{u / b:>7.2f}" if b and u else f"{'-':>11}{'-':>7}"
        if "mpich" in libs:
            mp = med.get((np, "mpich", "persistent", s))
            ip, ip2 = med.get((np, "impi", "persistent", s)), med.get((np, "impi2c", "persistent", s))
            line += f"{mp / ip:>10.2f}x" if mp and ip else f"{'-':>11}"
            line += f"{mp / ip2:>13.2f}x" if mp and ip2 else f"{'-':>14}"
        print(line)
    subs = [c for c in ("dup", "half") if any(k[0] == np and k[2] == c + "-allreduce" for k in med)]
    print(f"\nnp {np}: the same on " + " and on ".join({"dup": "a duplicate of MPI_COMM_WORLD (dup)", "half": "halves of it split by rank parity (half)"}[c] for c in subs) + "; b: MPI_Allreduce, u: Allreduce_init + Start/Wait without the assertion")
    head = f"{'bytes':>9}"
    for c in subs:
        for l in libs:
            head += f"{c + '-' + l + '-b':>17}{c + '-' + l + '-u':>17}{'u/b':>9}"
    print(head)
    for s in sorted({k[3] for k in med if k[0] == np and k[2] == subs[0] + "-allreduce"}):
        line = f"{s:>9}"
        for c in subs:
            for l in libs:
                b, u = med.get((np, l, c + "-allreduce", s)), med.get((np, l, c + "-unasserted", s))
                line += f"{b:>17.2f}{u:>17.2f}{u / b:>9.2f}" if b and u else f"{'-':>17}{'-':>17}{'-':>9}"
        print(line)
PY
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (above 2: other work shared the 2 cores)" |
  tee -a "$res"
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
