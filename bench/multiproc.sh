#!/usr/bin/env bash
# multiproc.sh - hosts with several procs on the IMPI path, side by side
# with the one-proc-per-host path and with Open MPI and MPICH over TCP
# (Open MPI: --mca btl tcp,self; MPICH: MPIR_CVAR_NOLOCAL=1), rounds
# interleaved, medians:
#   lat8       8 B one-way latency, world rank 0 to rank 2 (2x2: another client)
#   bw1M/bw4M  streaming bandwidth rank 0 -> rank 2, MB/s
#   aggbw1M    all procs streaming at once (rank r to r + np/2), MB/s summed
#   aggbibw1M  all procs exchanging at once, both ways (rank r with r + np/2)
#   aggbw1M_blocks / aggbw1M_pairs   the same with both libraries' procs bound
#              alike (bench/pin_core.sh): each client's procs on one core (as
#              impirun binds them by default), or each pair on one core (where
#              Open MPI's unbound procs often settle)
#   aggbw1M_unbound   the same with neither library binding (impirun
#              --bind-to none): placement is the scheduler's, run by run
#   (the aggregates also get their lowest and highest round: unbound, a run
#   lands at about 5-6 or about 12-15 GB/s, as Linux happens to place them)
#   barrier / allreduce8   collective latency, us
#   lat8_4x1   8 B latency, 4 procs in 4 clients, pairs (0,2) and (1,3) at once
# impi-2x2: -np 4 --clients 2; impi-2x1: -np 2 --clients 2 (rank 1 as the peer).
# Usage: bench/multiproc.sh [build-dir] [rounds]   (IMPI_BENCH_NO_MPICH=1: without
# MPICH, whose busy-polling idle ranks can take minutes per run with 4 procs on 2 cores;
# every run is cut at IMPI_BENCH_RUN_TIMEOUT seconds, 120, and then counts as missing)
# Writes bench/results/multiproc.txt (IMPI_BENCH_RESULTS=FILE: there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/multiproc.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
libs=(impi)
"$build/bin/mpicc" -O2 -o "$work/p2p.impi" "$here/bench/p2p_bench.c"
"$build/bin/mpicc" -O2 -o "$work/coll.impi" "$here/bench/coll_bench.c"
peers=(ompi mpich)
[ "${IMPI_BENCH_NO_MPICH:-0}" = 1 ] && peers=(ompi)
for l in "${peers[@]}"; do
  cc=mpicc.openmpi
  [ $l = mpich ] && cc=mpicc.mpich
  command -v $cc > /dev/null || continue
  $cc -O2 -o "$work/p2p.$l" "$here/bench/p2p_bench.c" 2>/dev/null
  $cc -O2 -o "$work/coll.$l" "$here/bench/coll_bench.c" 2>/dev/null
  libs+=($l)
done
# launch CONFIG PROG ARGS...: impi-2x2 (-np 4 --clients 2), impi-2x1
# (-np 2 --clients 2), impi-4x1 (-np 4 --clients 4), ompi, mpich (-np 4).
launch() {
  local cfg=$1 prog=$2
  shift 2
  timeout "${IMPI_BENCH_RUN_TIMEOUT:-120}" bash -c "$(declare -f run_cfg); build=$build work=$work here=$here; run_cfg \"\$@\"" _ "$cfg" "$prog" "$@"
}
run_cfg() {
  local cfg=$1 prog=$2
  shift 2
  case $cfg in
    impi-2x2)
      if [ "${PIN:-}" = none ]; then
        "$build/bin/impirun" --bind-to none -np 4 --clients 2 "$work/$prog.impi" "$@"
      elif [ "${PIN:-}" = pairs ]; then
        "$build/bin/impirun" --bind-to none -np 4 --clients 2 "$here/bench/pin_core.sh" pairs \
          "$work/$prog.impi" "$@"
      else
        "$build/bin/impirun" -np 4 --clients 2 "$work/$prog.impi" "$@"
      fi ;;
    impi-2x1) "$build/bin/impirun" -np 2 --clients 2 "$work/$prog.impi" "$@" ;;
    impi-4x1) "$build/bin/impirun" -np 4 --clients 4 "$work/$prog.impi" "$@" ;;
    ompi) mpirun.openmpi --oversubscribe --mca btl tcp,self -x P2P_BENCH_PEER -x P2P_BENCH_ALL \
            --bind-to none -np 4 ${PIN:+"$here/bench/pin_core.sh" "$PIN"} "$work/$prog.ompi" "$@" ;;
    mpich) MPIR_CVAR_NOLOCAL=1 mpiexec.mpich -n 4 "$work/$prog.mpich" "$@" ;;
  esac
}
value() {  # value SIZE: the second column of the line for SIZE
  awk -v s="$1" '$1 == s {print $2}'
}
res=$work/res.txt
: > "$res"
measure() {  # measure METRIC CONFIG
  local m=$1 cfg=$2 v=""
  export P2P_BENCH_PEER=2 P2P_BENCH_ALL=""
  [ "$cfg" = impi-2x1 ] && P2P_BENCH_PEER=1
  case $m in
    lat8) v=$(launch "$cfg" p2p latency 8 | value 8) ;;
    bw1M) v=$(launch "$cfg" p2p bw 1048576 | value 1048576) ;;
    bw4M) v=$(launch "$cfg" p2p bw 4194304 | value 4194304) ;;
    aggbw1M) v=$(P2P_BENCH_ALL=1 launch "$cfg" p2p bw 1048576 | value 1048576) ;;
    aggbibw1M) v=$(P2P_BENCH_ALL=1 launch "$cfg" p2p bibw 1048576 | value 1048576) ;;
    aggbw1M_blocks) v=$( ([ "$cfg" = ompi ] && export PIN=blocks; P2P_BENCH_ALL=1 launch "$cfg" p2p bw 1048576) | value 1048576) ;;
    aggbw1M_pairs) v=$(PIN=pairs P2P_BENCH_ALL=1 launch "$cfg" p2p bw 1048576 | value 1048576) ;;
    aggbw1M_unbound) v=$( ([ "$cfg" = impi-2x2 ] && export PIN=none; P2P_BENCH_ALL=1 launch "$cfg" p2p bw 1048576) | value 1048576) ;;
    barrier) v=$(launch "$cfg" coll barrier 8 | value 0) ;;
    allreduce8) v=$(launch "$cfg" coll allreduce 8 | value 8) ;;
    lat8_4x1) v=$(P2P_BENCH_ALL=1 launch "$cfg" p2p latency 8 | value 8) ;;
  esac
  echo "$m $cfg ${v:-nan}" >> "$res"
}
probe_start=$(bench_probe "$work/p2p.impi")
for r in $(seq "$rounds"); do
  for m in lat8 bw1M bw4M aggbw1M aggbibw1M barrier allreduce8; do
    cfgs=(impi-2x2 impi-2x1 "${libs[@]:1}")
    for i in $(bench_order "$r" ${#cfgs[@]}); do  # (a balanced order: header.sh)
      cfg=${cfgs[i]}
      [[ "$m" = agg* ]] && [ "$cfg" = impi-2x1 ] && continue
      measure "$m" "$cfg" || echo "$m $cfg nan" >> "$res"
    done
  done
  for cfg in impi-4x1 "${libs[@]:1}"; do measure lat8_4x1 "$cfg" || echo "lat8_4x1 $cfg nan" >> "$res"; done
  for m in aggbw1M_blocks aggbw1M_pairs aggbw1M_unbound; do
    for cfg in impi-2x2 ompi; do
      [ "$cfg" = ompi ] && [[ " ${libs[*]} " != *" ompi "* ]] && continue
      measure "$m" "$cfg" || echo "$m $cfg nan" >> "$res"
    done
  done
done
table=$work/table.txt
python3 - "$res" > "$table" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    m, cfg, v = line.split()
    try:
        rows.setdefault(m, {}).setdefault(cfg, []).append(float(v))
    except ValueError:
        pass
cfgs = ["impi-2x2", "impi-2x1", "impi-4x1", "ompi", "mpich"]
print(f"{'metric':<15}" + "".join(f"{c:>11}" for c in cfgs) + "   2x2/2x1   2x2/ompi")
for m in ["lat8", "bw1M", "bw4M", "aggbw1M", "aggbibw1M", "aggbw1M_blocks", "aggbw1M_pairs",
          "aggbw1M_unbound", "barrier", "allreduce8", "lat8_4x1"]:
    med = {c: statistics.median(v) for c, v in rows.get(m, {}).items() if v}
    line = f"{m:<15}" + "".join(f"{med[c]:>11.2f}" if c in med else f"{'-':>11}" for c in cfgs)
    a = med.get("impi-2x2", med.get("impi-4x1"))
    b, o = med.get("impi-2x1"), med.get("ompi")
    line += f"   {a / b:>7.2f}" if a and b else "         -"
    line += f"   {a / o:>8.2f}" if a and o else "          -"
    print(line)
print("(latencies in us, lower is better; bandwidths in MB/s, higher is better)")
print("aggregates, lowest and highest round (MB/s):")
for m in ["aggbw1M", "aggbibw1M", "aggbw1M_blocks", "aggbw1M_pairs", "aggbw1M_unbound"]:
    r = rows.get(m, {})
    print(f"  {m:<16}" + "".join(f"  {c} {min(v):.0f}-{max(v):.0f}" for c, v in r.items() if v))
PY
cat "$table"
probe="# 8 B shared-memory latency of impi (the VM's speed): ${probe_start:-?} us before the run, $(bench_probe "$work/p2p.impi") us after"
echo "$probe"
{ bench_header "$cmdline" "${libs[@]}"; echo "$probe"; cat "$table"; } > "$out.tmp" && mv "$out.tmp" "$out"
