#!/usr/bin/env bash
# io_trace.sh - the kernel's side of io_bench's contiguous cases (n1, nn),
# side by side: impi (one client, and 2 IMPI clients), Open MPI and MPICH
# each run bench/io_bench.c under `perf record`, which takes the entry and
# exit of every pread64/pwrite64 system call of the job (tracepoints into
# a buffer: the job's own rates stay within their spread, where `perf
# trace`, formatting each event as it comes, halved the 1 MiB rates on 2
# cores). For each case, size and
# library: the median time of one call, and for a phase's calls made
# together by all procs (the collective's N-1 calls, the N-N calls) the
# median span from the first call's start to the last one's end. Those
# cases make one system call per proc and phase in every library, so
# what io.sh measures beyond these spans is the library's own cost around
# them; these figures say whether the kernel did the same work for each.
# Sizes of 1 MiB and up.
# Usage: bench/io_trace.sh [build-dir] [rounds] [np]   (needs perf: Debian's linux-perf; root)
# Writes bench/results/io_trace_npNP.txt (IMPI_BENCH_RESULTS=FILE: there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-4}
np=${3:-2}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/io_trace_np$np.txt}
events=syscalls:sys_enter_pread64,syscalls:sys_exit_pread64,syscalls:sys_enter_pwrite64
events+=,syscalls:sys_exit_pwrite64
if ! perf record -q -o /dev/null -e "$events" -- true >/dev/null 2>&1; then
  echo "io_trace.sh: 'perf record' of syscall tracepoints does not work here (install linux-perf; run as root)" >&2
  exit 1
fi
work=$(mktemp -d)
shm=$(mktemp -d /dev/shm/impi-io-trace.XXXXXX)
disk=$(mktemp -d "${TMPDIR:-/tmp}/impi-io-trace.XXXXXX")
trap 'rm -rf "$work" "$shm" "$disk"' EXIT
src=$here/bench/io_bench.c
"$build/bin/mpicc" -O2 -o "$work/impi" "$src"
# (perf runs each launcher itself: commands, not shell functions)
libs=(impi impi2c)
cmd_impi=("$build/bin/impirun" -np "$np" "$work/impi")
cmd_impi2c=("$build/bin/impirun" -np "$np" --clients 2 "$work/impi")
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/ompi" "$src" 2>/dev/null; libs+=(ompi)
fi
cmd_ompi=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np "$np"
  --oversubscribe -x IO_BENCH_ONLY --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo
  "$work/ompi")
if command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" "$src" 2>/dev/null; libs+=(mpich)
fi
cmd_mpich=(env UCX_NET_DEVICES=lo mpiexec.mpich -n "$np" "$work/mpich")
bench_header "$cmdline" "${libs[@]}" >"$out"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, $np procs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
for r in $(seq "$rounds"); do
  for where in shm disk; do
    d=$shm
    [ $where = disk ] && d=$disk
    for case in n1 nn; do
      for i in $(bench_order "$r" ${#libs[@]}); do
        l=${libs[i]}
        t=$work/trace.$l.$where.$case.$r
        declare -n cmd=cmd_$l
        IO_BENCH_ONLY=$case perf record -q -o "$t.data" -e "$events" -- "${cmd[@]}" "$d" 16777216 \
          >/dev/null 2>&1
        perf script -i "$t.data" --ns -F tid,time,event,trace >"$t" 2>/dev/null
        rm -f "$t.data"
        unset -n cmd
      done
    done
  done
done
python3 - "$work" "$np" "${libs[@]}" <<'PY' | tee -a "$out"
import glob, os, re, statistics, sys
work, np, libs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
line = re.compile(r"\s*(\d+)\s+([0-9.]+):\s+syscalls:sys_(enter|exit)_(pread64|pwrite64):(.*)")
count = re.compile(r"count: (0x[0-9a-f]+)")
calls = {}  # (lib, where, case, size, call) -> [(round, start ms, duration ms, tid)]
for path in glob.glob(os.path.join(work, "trace.*")):
    if path.endswith(".data"):
        continue
    _, lib, where, case, rnd = os.path.basename(path).split(".")
    pending = {}  # tid -> (start s, call, size)
    for l in open(path, errors="replace"):
        m = line.match(l)
        if not m:
            continue
        tid, t, edge, call, rest = m.groups()
        if edge == "enter":
            c = count.search(rest)
            if c:
                pending[tid] = (float(t), call, int(c.group(1), 16))
        elif tid in pending:
            s0, call0, n0 = pending.pop(tid)
            calls.setdefault((lib, where, case, n0, call0), []).append(
                (int(rnd), s0 * 1e3, (float(t) - s0) * 1e3, tid))
def spans(cs):
    """calls of all procs begun together (within 2 ms, each proc once): first start to last end"""
    out, cs = [], sorted(cs, key=lambda c: (c[0], c[1]))
    i = 0
    while i < len(cs):
        group = [cs[i]]
        j = i + 1
        while j < len(cs) and cs[j][0] == cs[i][0] and cs[j][1] - cs[i][1] < 2 and \
                cs[j][3] not in {g[3] for g in group}:
            group.append(cs[j])
            j += 1
        if len(group) == np:
            out.append(max(g[1] + g[2] for g in group) - min(g[1] for g in group))
        i = j
    return out
print("per system call of SIZE bytes (us, median over all procs' calls of the rounds);")
print("span: all procs' calls of one phase step, first start to last end (us, median)")
peers = [l for l in libs if l in ("ompi", "mpich")]
mine = [l for l in ("impi", "impi2c") if l in libs]
print("vs best: the better peer's span over impi's (>1: the kernel took less time for impi's calls)")
print(f"{'where':5} {'case':4} {'call':8} {'size':>9}  " +
      "  ".join(f"{l:>15}" for l in libs) + "  " + "  ".join(f"{'vs best ' + m:>14}" for m in mine))
keys = sorted({(w, c, n, k) for (_, w, c, n, k) in calls if n >= 1 << 20})
for w, c, n, k in keys:
    cells, span_of = [], {}
    for l in libs:
        cs = calls.get((l, w, c, n, k), [])
        if not cs:
            cells.append(f"{'-':>15}")
            continue
        sp = spans(cs)
        one = statistics.median(x[2] for x in cs) * 1000
        if sp:
            span_of[l] = statistics.median(sp) * 1000
        cells.append(f"{one:7.0f}/{span_of.get(l, 0):7.0f}")
    best = min((span_of[p] for p in peers if p in span_of), default=None)
    ratios = [f"{best / span_of[m]:13.2f}x" if best and m in span_of else f"{'-':>14}"
              for m in mine]
    print(f"{w:5} {c:4} {k:8} {n:9d}  " + "  ".join(cells) + "  " + "  ".join(ratios))
PY
