#!/usr/bin/env bash
# rma.sh - one-sided communication (MPI_Win_*) between 2 processes on this
# machine, side by side: impi, Open MPI, MPICH (when installed), each running
# the same bench/rma_bench.c built by its own wrapper: put/get latency and
# bandwidth, accumulate, fetch-and-op and compare-and-swap latency, in fence,
# lock and lock_all epochs (see the program's header). Two tables:
#   one client:  impi -np 2 in one client, against Open MPI on shared memory
#                (--mca btl self,vader) and MPICH on shared memory
#   two clients: impi -np 2 --clients 2 (one proc per client), against Open
#                MPI over TCP (--mca btl tcp,self --mca osc pt2pt) and MPICH
#                over TCP (MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self)
# all on loopback. Open MPI over TCP needs osc pt2pt: Debian's
# /etc/openmpi/openmpi-mca-params.conf sets osc = ^ucx,pt2pt, and the osc it
# leaves (sm, rdma) map a window on the same machine through shared memory
# whatever the btl; pt2pt carries RMA over ob1 and the TCP btl. Open MPI
# 4.1.4 on shared memory (osc rdma over vader) dies in MPI_Compare_and_swap
# on 64-bit types in MPI_Win_allocate windows (open-mpi/ompi#7967, #11349):
# its cas_lat cells are n/a.
# Rounds interleaved (each configuration back to back in every round); each
# run prints the median of 5 repetitions per point; the tables give the
# median over rounds, and ratios against the better peer (latency:
# theirs/ours, bandwidth: ours/theirs; >1 = impi faster; "paired": the
# median of each round's own ratio against the same round of that peer).
# Usage: bench/rma.sh [build-dir] [rounds] [max_bytes] [tests] [epochs]
#   tests: comma-separated put_lat,get_lat,put_bw,get_bw,acc_lat,fop_lat,cas_lat
#   (default all); epochs: comma-separated fence,lock,lock_all (default all)
#   IMPI_BENCH_NO_MPICH=1: without MPICH. IMPI_BENCH_RMA_CREATE=1: windows from
#   MPI_Win_create over malloc'd memory instead of MPI_Win_allocate.
#   Every run is cut at IMPI_BENCH_RUN_TIMEOUT seconds (120). A round after
#   the first starts only if the script would still end within
#   IMPI_BENCH_RMA_BUDGET seconds (270; judged by the first round's time): on
#   a quiet 2-core machine a round of the four peer runs takes about 40 s,
#   while something else compiles 2-4 min (and its figures are worth little).
# impi missing (no build dir with bin/mpicc and bin/impirun, or rma_bench.c
# does not build with it) or failing (MPI_Win_* unsupported: a run dies) is
# reported, and its cells are "n/a"; the peers' columns are filled all the
# same. A run that dies or hangs in one (test, epoch) is restarted after it,
# that pair marked failed (n/a) for the configuration; after 2 timeouts, or
# a death before the first test, the configuration is given up.
# Writes bench/results/rma.txt (IMPI_BENCH_RESULTS=FILE: there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_arg=${1:-$here/build}
rounds=${2:-2}
max=${3:-4194304}
tests=${4:-all}
epochs=${5:-all}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/rma.txt}
tmo=${IMPI_BENCH_RUN_TIMEOUT:-120}
budget=${IMPI_BENCH_RMA_BUDGET:-270}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/bench/rma_bench.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
prog_args=(-t "$tests" -e "$epochs" -S "$max")
[ "${IMPI_BENCH_RMA_CREATE:-0}" = 1 ] && prog_args+=(-c)
notes=$work/notes
: > "$notes"
note() { echo "rma.sh: $*" >&2; echo "# $*" >> "$notes"; }

cfgs=() libs=()
build=""
if [ -d "$build_arg" ]; then build=$(cd "$build_arg" && pwd); fi
if [ -n "$build" ] && [ -x "$build/bin/mpicc" ] && [ -x "$build/bin/impirun" ]; then
  if "$build/bin/mpicc" -O2 -o "$work/rma.impi" "$src" 2> "$work/cc.err"; then
    cfgs+=(impi1 impi2)
    libs+=(impi)
  else
    note "impi: $build/bin/mpicc could not build rma_bench.c ($(head -c 300 "$work/cc.err" | tr '\n' ' ')); impi columns n/a"
  fi
else
  note "impi: no build at $build_arg (bin/mpicc and bin/impirun); impi columns n/a"
fi
if command -v mpicc.openmpi > /dev/null; then
  mpicc.openmpi -O2 -o "$work/rma.ompi" "$src"
  cfgs+=(ompi_shm ompi_tcp)
  libs+=(ompi)
fi
if [ "${IMPI_BENCH_NO_MPICH:-0}" != 1 ] && command -v mpicc.mpich > /dev/null; then
  mpicc.mpich -O2 -o "$work/rma.mpich" "$src" 2> /dev/null
  cfgs+=(mpich_shm mpich_tcp)
  libs+=(mpich)
fi

run_cfg() {  # run_cfg CONFIG ARGS...: one run of rma_bench
  local cfg=$1 lo=(--mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)
  shift
  case $cfg in
    impi1) "$build/bin/impirun" -np 2 "$work/rma.impi" "$@" ;;
    impi2) "$build/bin/impirun" -np 2 --clients 2 "$work/rma.impi" "$@" ;;
    ompi_shm) mpirun.openmpi -np 2 --mca btl self,vader "${lo[@]}" "$work/rma.ompi" "$@" ;;
    ompi_tcp) mpirun.openmpi -np 2 --mca btl tcp,self --mca osc pt2pt "${lo[@]}" "$work/rma.ompi" "$@" ;;
    mpich_shm) UCX_NET_DEVICES=lo mpiexec.mpich -n 2 "$work/rma.mpich" "$@" ;;
    mpich_tcp) MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self UCX_NET_DEVICES=lo mpiexec.mpich -n 2 "$work/rma.mpich" "$@" ;;
  esac
}
declare -A label=([impi1]="impi, 1 client" [impi2]="impi, 2 clients" [ompi_shm]="Open MPI shm"
  [ompi_tcp]="Open MPI tcp" [mpich_shm]="MPICH shm" [mpich_tcp]="MPICH tcp")

# measure CONFIG ROUND: runs until every selected pair is done or failed;
# data lines "CONFIG ROUND test epoch bytes median min max" go to $work/all.
measure() {
  local cfg=$1 r=$2 rc last skip pairs timeouts=0
  local failed=$work/failed.$cfg done=$work/done.$cfg.$r
  touch "$failed" "$done"
  [ -e "$work/dead.$cfg" ] && return 0
  while :; do
    skip=$(cat "$failed" "$done" | paste -sd, -)
    rc=0
    timeout -k 10 "$tmo" bash -c "$(declare -f run_cfg); build=\$1 work=\$2; shift 2; run_cfg \"\$@\"" \
      _ "$build" "$work" "$cfg" "${prog_args[@]}" ${skip:+-x "$skip"} > "$work/out" 2> "$work/err" &
    # a run whose points are all done gets 5 s more to exit: MPICH 4.0.2
    # over TCP now and then hangs in MPI_Finalize after RMA (a run in 10-20)
    local pid=$! waited=0
    while kill -0 "$pid" 2> /dev/null; do
      sleep 0.2
      grep -aq '^# done' "$work/out" && waited=$((waited + 1))
      if [ "$waited" -ge 25 ]; then
        kill -TERM "$pid" 2> /dev/null || true  # timeout passes it on to the whole job
        note "${label[$cfg]}: round $r did not exit within 5 s after its last point (hung in MPI_Win_free or MPI_Finalize); stopped, its figures kept"
        break
      fi
    done
    wait "$pid" || rc=$?
    grep -aq '^# done' "$work/out" && rc=0
    grep -av '^#' "$work/out" | grep -aE '^[a-z_]+ [a-z_]+ [0-9]+ ' | sed "s/^/$cfg $r /" >> "$work/all" || true
    pairs=$(awk '$1 == "#" && NF == 3 {print $2 ":" $3}' "$work/out")
    [ "$rc" = 0 ] && { printf '%s\n' "$pairs" >> "$done"; sed -i '/^$/d' "$done"; return 0; }
    last=$(printf '%s\n' "$pairs" | tail -n 1)
    printf '%s\n' "$pairs" | sed '$d' >> "$done"
    sed -i '/^$/d' "$done"
    local why="exit $rc"
    [ "$rc" = 124 ] && why="timed out after ${tmo}s"
    local err
    err=$(grep -v -E '^\s*$|^-+$' "$work/err" | head -n 3 | cut -c1-200 | paste -sd'|' -) || true
    if [ -z "$last" ]; then
      note "${label[$cfg]}: run failed before the first test ($why): ${err:-no message}; its cells are n/a"
      touch "$work/dead.$cfg"
      return 0
    fi
    note "${label[$cfg]}: ${last/:/ } failed ($why): ${err:-no message}; that pair is n/a, going on after it"
    echo "$last" >> "$failed"
    if [ "$rc" = 124 ]; then
      timeouts=$((timeouts + 1))
      if [ "$timeouts" -ge 2 ]; then
        note "${label[$cfg]}: 2 runs timed out; giving it up"
        touch "$work/dead.$cfg"
        return 0
      fi
    fi
  done
}

: > "$work/all"
start=$(date +%s)
echo "# rma.sh: configurations: ${cfgs[*]}; $rounds round(s); cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" >&2
done_rounds=0 round1=0
for r in $(seq "$rounds"); do
  if [ "$r" -gt 1 ] && [ $(($(date +%s) - start + round1)) -gt "$budget" ]; then
    note "stopped after $done_rounds round(s) of $rounds: one more (${round1} s) would pass the ${budget} s budget (IMPI_BENCH_RMA_BUDGET)"
    break
  fi
  # in an order that changes from round to round (bench_order)
  for i in $(bench_order "$r" ${#cfgs[@]}); do
    cfg=${cfgs[i]}
    t0=$(date +%s)
    measure "$cfg" "$r"
    echo "# round $r ${label[$cfg]}: $(($(date +%s) - t0)) s" >&2
  done
  done_rounds=$r
  [ "$r" = 1 ] && round1=$(($(date +%s) - start))
done
res=$work/res.txt
bench_header "$cmdline" "${libs[@]}" > "$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores, 2 procs, $done_rounds round(s) of 5 repetitions, windows from MPI_Win_$([ "${IMPI_BENCH_RMA_CREATE:-0}" = 1 ] && echo create || echo allocate); $(( $(date +%s) - start )) s; cpu pressure at the end: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" >> "$res"
cat "$notes" >> "$res"
python3 - "$work/all" <<'PY' | tee -a "$res"
import statistics, sys
tests = ["put_lat", "get_lat", "put_bw", "get_bw", "acc_lat", "fop_lat", "cas_lat"]
epochs = ["fence", "lock", "lock_all"]
# value[(cfg, test, epoch, size)][round] = median of the run's repetitions
value = {}
for line in open(sys.argv[1]):
    cfg, rnd, t, e, size, med = line.split()[:6]
    value.setdefault((cfg, t, e, int(size)), {})[rnd] = float(med)
points = sorted({k[1:] for k in value}, key=lambda k: (tests.index(k[0]), epochs.index(k[1]), k[2]))
tables = [("one client (shared memory)", "impi1", ["ompi_shm", "mpich_shm"],
           ["impi-1client", "OMPI-shm", "MPICH-shm"]),
          ("two clients (impi: one proc per client; peers over TCP)", "impi2", ["ompi_tcp", "mpich_tcp"],
           ["impi-2clients", "OMPI-tcp", "MPICH-tcp"])]
for title, ours, peers, names in tables:
    print(f"\n{title}: latencies (_lat) in us, lower is better; bandwidths (_bw) in MB/s, higher is better")
    print("median over rounds; vs best: the better peer against impi (>1: impi faster); paired: median of each round's ratio against that peer's same round")
    print(f"{'test':<8} {'epoch':<8} {'bytes':>8}" + "".join(f"{n:>14}" for n in names) + f"{'vs best':>9}{'paired':>9}")
    for t, e, s in points:
        lat = t.endswith("_lat")
        got = {c: value.get((c, t, e, s), {}) for c in [ours] + peers}
        med = {c: statistics.median(v.values()) for c, v in got.items() if v}
        fmt = (lambda x: f"{x:>14.2f}") if lat else (lambda x: f"{x:>14.1f}")
        line = f"{t:<8} {e:<8} {s:>8}" + "".join(fmt(med[c]) if c in med else f"{'n/a':>14}" for c in [ours] + peers)
        have = [c for c in peers if c in med]
        if ours in med and have:
            pick = min if lat else max
            ratio = (lambda best, us: best / us) if lat else (lambda best, us: us / best)
            best = pick(have, key=lambda c: med[c])
            line += f"{ratio(med[best], med[ours]):>8.2f}x"
            # (against that one peer's same round: each round's better of two
            # noisy figures would favour the peers even where all are equal)
            rs = [ratio(got[best][r], got[ours][r]) for r in got[ours] if r in got[best]]
            line += f"{statistics.median(rs):>8.2f}x" if rs else f"{'n/a':>9}"
        else:
            line += f"{'n/a':>9}{'n/a':>9}"
        print(line)
PY
echo "# rma.sh: $(( $(date +%s) - start )) s in all" >&2
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
