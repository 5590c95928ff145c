#!/usr/bin/env bash
# io.sh - MPI-IO on this machine, side by side: impi (one client, and split
# into 2 IMPI clients), Open MPI (OMPIO) and MPICH (ROMIO), each running
# bench/io_bench.c built by its own wrapper, on a tmpfs directory
# (/dev/shm) and on the disk ($TMPDIR or /tmp); rounds interleaved, medians
# of MB/s (open_close: us per MPI_File_open + MPI_File_close), ratios
# impi/theirs, in one client and across 2 (>1: impi faster; open_close:
# theirs/impi). n1 and nn: the
# aggregate rate (all procs' bytes from the first proc's start to the last
# proc's end, as IOR reports it), each phase at least 1 MiB per proc;
# n1_slowest and nn_slowest: the same bytes over the slowest proc's own
# time (see io_bench.c). Below the tables: the cells under 1.0x, with the
# range of their round-by-round ratios.
# Usage: bench/io.sh [build-dir] [rounds] [np] [max_bytes]   (IMPI_BENCH_NO_MPICH=1: without MPICH;
# IO_BENCH_ONLY=open,rows,...: those cases only, see io_bench.c, e.g. open_close at np 8;
# IO_BENCH_AB="VAR=VALUE ...": one more column, impiB, the same impi build in one client
# launched with those variables; IO_BENCH_AB= (set, empty) runs it unchanged, an A/A
# comparison that shows how far two columns of the same library fall apart on this machine)
# Writes the tables to bench/results/io_npNP.txt (IMPI_BENCH_RESULTS=FILE: there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
np=${3:-4}
max=${4:-16777216}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/io_np$np.txt}
work=$(mktemp -d)
shm=$(mktemp -d /dev/shm/impi-io-bench.XXXXXX)
disk=$(mktemp -d "${TMPDIR:-/tmp}/impi-io-bench.XXXXXX")
trap 'rm -rf "$work" "$shm" "$disk"' EXIT
res=$work/results.txt
src=$here/bench/io_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
libs=(impi impi2c)
run_impi() { "$build/bin/impirun" -np "$np" "$work/impi" "$@"; }
run_impi2c() { "$build/bin/impirun" -np "$np" --clients 2 "$work/impi" "$@"; }
if [ -n "${IO_BENCH_AB+set}" ]; then
  read -r -a ab_env <<<"$IO_BENCH_AB"
  for a in "${ab_env[@]}"; do
    [[ $a == [A-Za-z_]*=* ]] || { echo "io.sh: IO_BENCH_AB: '$a' is not VAR=VALUE" >&2; exit 2; }
  done
  libs+=(impiB)
fi
run_impiB() { env "${ab_env[@]}" "$build/bin/impirun" -np "$np" "$work/impi" "$@"; }
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/ompi" "$src" 2>/dev/null; libs+=(ompi)
fi
run_ompi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np "$np" --oversubscribe \
    ${IO_BENCH_ONLY:+-x IO_BENCH_ONLY} --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
    "$work/ompi" "$@"
}
if [ "${IMPI_BENCH_NO_MPICH:-0}" != 1 ] && command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src" 2>/dev/null; libs+=(mpich)
fi
run_mpich() { UCX_NET_DEVICES=lo mpiexec.mpich -n "$np" "$work/mpich" "$@"; }
bench_header "$cmdline" "${libs[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $np procs; impi2c: impi split into 2 clients;${IO_BENCH_AB+ impiB: impi in one client with '$IO_BENCH_AB';} load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$res"
for r in $(seq "$rounds"); do
  for where in shm disk; do
    d=$shm
    [ $where = disk ] && d=$disk
    # The order changes from round to round (bench_order): the one after a
    # writer of gigabytes may pay for the kernel's writeback of its pages.
    for i in $(bench_order "$r" ${#libs[@]}); do
      l=${libs[i]}
      "run_$l" "$d" "$max" | sed "s/^/$l $where $r /" >> "$work/all"
    done
  done
done
python3 - "$work/all" "${libs[@]}" <<'PY' | tee -a "$res"
import math, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
libs = sys.argv[2:]
val = {}
for lib, where, rnd, case, size, w, r in rows:
    val.setdefault((where, case, int(size), lib), []).append((float(w), float(r)))
peers = [l for l in libs if l in ("ompi", "mpich")]
mine = [l for l in ("impi", "impi2c", "impiB") if l in libs]
def ratio(med, lib, case):
    """lib's median over the better peer's: 'w/r', or one figure for open_close"""
    if case == "open_close":  # microseconds: lower is better
        return f"{min(med[p][0] for p in peers) / med[lib][0]:.2f}x"
    bw = max(med[p][0] for p in peers)
    br = max(med[p][1] for p in peers)
    fw = f"{med[lib][0] / bw:.2f}x" if bw > 0 else "-"
    fr = f"{med[lib][1] / br:.2f}x" if br > 0 else "-"
    return fw + "/" + fr
for where in ("shm", "disk"):
    print(f"\n{where}: MB/s (write / read), median of rounds; 'vs best': impi (1 client), "
          "then impi across 2 clients, over the better peer")
    print(f"{'case':<10}{'bytes':>10}" + "".join(f"{l:>19}" for l in libs) +
          ("".join(f"{'vs best ' + {'impi2c': '2c', 'impiB': 'B'}.get(l, '1c'):>16}" for l in mine)
           if peers else ""))
    order = ["n1", "n1_slowest", "n1_buf16", "nn", "nn_slowest"]
    keys = sorted({(c, s) for (w, c, s, l) in val if w == where},
                  key=lambda k: (order.index(k[0]) if k[0] in order else len(order), k[0], k[1]))
    for case, size in keys:
        med = {}
        for l in libs:
            got = val.get((where, case, size, l))
            if got:
                med[l] = (statistics.median(g[0] for g in got), statistics.median(g[1] for g in got))
        line = f"{case:<10}{size:>10}" + "".join(
            f"{med[l][0]:>9.1f}/{med[l][1]:<9.1f}" if l in med else f"{'-':>19}" for l in libs)
        if peers and all(p in med for p in peers):
            line += "".join(f"{ratio(med, l, case) if l in med else '-':>16}" for l in mine)
        print(line)
print("\nopen_close: the write column is us per open+close (the ratio: theirs/impi)")
# Cells below 1.0x in the tables: the ratio round by round (each round's impi over
# the same round's figure of the better peer, the one with the better median),
# to tell a library's difference from the VM's noise: the range, in how many
# rounds impi was ahead, and the sign test's two-sided p (how likely so few
# rounds ahead would be if neither library were faster: p < 0.05 at 0 or 1
# of 9). One peer per cell, not each round's better one: the better of two
# noisy figures beats a third from the same spread in 2 rounds of 3, so a
# per-round maximum would call an equal library behind. With ~100 cells, a
# few of them pass p < 0.05 by chance alone, on either side.
def sign_p(k, n):
    lo = min(k, n - k)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(lo + 1)) / 2 ** n)
if peers:
    for lib in mine:
        slow = []
        cells = behind = ahead_sig = behind_sig = 0
        for where in ("shm", "disk"):
            for (w, case, size, l) in sorted(val):
                if w != where or l != lib or case == "open_close":
                    continue
                for col, name in ((0, "write"), (1, "read")):
                    med = lambda l: statistics.median(g[col] for g in val[(w, case, size, l)])
                    there = [p for p in peers if (w, case, size, p) in val]
                    if not there:
                        continue
                    bp = max(there, key=med)
                    best = med(bp)
                    per = []
                    for rnd, got in enumerate(val[(w, case, size, lib)]):
                        theirs = val[(w, case, size, bp)]
                        if got[col] > 0 and len(theirs) > rnd and theirs[rnd][col] > 0:
                            per.append(got[col] / theirs[rnd][col])
                    if not per or best <= 0:
                        continue
                    ahead = sum(1 for r in per if r >= 1.0)
                    pv = sign_p(ahead, len(per))
                    cells += 1
                    if pv < 0.05:
                        ahead_sig += ahead * 2 > len(per)
                        behind_sig += ahead * 2 < len(per)
                    if med(lib) / best < 1.0:
                        behind += 1
                        slow.append(f"{where} {case} {size} {name}: {med(lib) / best:.2f}x of {bp}, "
                                    f"rounds {min(per):.2f}x-{max(per):.2f}x, {lib} ahead in {ahead} of {len(per)}"
                                    f" (sign test p {pv:.3f})")
        print(f"\nthe cells below 1.0x for {lib}, round by round ({lib} over the better peer's same round):")
        print("\n".join(slow) if slow else "none")
        print(f"{lib}: {cells} cells (write and read counted apart), {cells - behind} at or above the better "
              f"peer's median; by the sign test (p < 0.05) {ahead_sig} ahead and {behind_sig} behind")
# impiB against impi, cell by cell (IO_BENCH_AB): with IO_BENCH_AB= they are the
# same library, so the spread is what this machine alone does to a column.
if "impiB" in libs and "impi" in libs:
    ab = []
    for (w, case, size, l) in sorted(val):
        if l != "impiB" or (w, case, size, "impi") not in val:
            continue
        for col, name in ((0, "write"), (1, "read")):
            a = statistics.median(g[col] for g in val[(w, case, size, "impi")])
            b = statistics.median(g[col] for g in val[(w, case, size, "impiB")])
            if a > 0 and b > 0:
                ab.append((b / a, f"{w} {case} {size} {name}"))
    if ab:
        # and round by round, with the sign test as for the peers above: how
        # many cells an identical column passes as "ahead" or "behind"
        sig = [0, 0]
        for (w, case, size, l) in sorted(val):
            if l != "impiB" or (w, case, size, "impi") not in val:
                continue
            for col in (0, 1):
                pairs = [(b[col], a[col]) for a, b in zip(val[(w, case, size, "impi")], val[(w, case, size, "impiB")])
                         if a[col] > 0 and b[col] > 0]
                if pairs:
                    k = sum(1 for b, a in pairs if b >= a)
                    if sign_p(k, len(pairs)) < 0.05:
                        sig[k * 2 < len(pairs)] += 1
        dev = sorted(abs(r - 1) for r, _ in ab)
        lo, hi = min(ab), max(ab)
        print(f"\nimpiB over impi: {len(ab)} cells, median |ratio - 1| {100 * statistics.median(dev):.1f}%, "
              f"{sum(1 for d in dev if d > 0.05)} cells apart by more than 5%; lowest {lo[0]:.2f}x ({lo[1]}), "
              f"highest {hi[0]:.2f}x ({hi[1]}); by the sign test (p < 0.05) impiB ahead in {sig[0]} cells, "
              f"behind in {sig[1]}")
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
# IO_BENCH_RAW=FILE: every run's lines too (LIB WHERE ROUND CASE BYTES WRITE READ)
[ -z "${IO_BENCH_RAW:-}" ] || cp "$work/all" "$IO_BENCH_RAW"
