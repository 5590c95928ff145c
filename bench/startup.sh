#!/usr/bin/env bash
# startup.sh - job start-to-exit wall time of a 2-process hello, side by side:
# impi's impirun, Open MPI's mpirun, MPICH's mpiexec (when installed), each
# running the same hello.c built by its own wrapper. Median of N runs
# (hyperfine), interleaved per round so machine noise hits all alike.
# Usage: bench/startup.sh [build-dir] [runs]   (default: build, 10)
# Also writes the table to bench/results/startup.txt (IMPI_BENCH_RESULTS=FILE:
# there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
runs=${2:-10}
np=${NP:-2}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
[ -n "${NP:-}" ] && cmdline="NP=$NP $cmdline"
out=${IMPI_BENCH_RESULTS:-$here/bench/results/startup.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
src=$here/examples/hello.c

cmds=() names=()
"$build/bin/mpicc" -O2 -o "$work/hello_impi" "$src"
names+=("impi impirun"); cmds+=("$build/bin/impirun -np $np $work/hello_impi")
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/hello_ompi" "$src"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  names+=("Open MPI mpirun")
  cmds+=("mpirun.openmpi --oversubscribe -np $np --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo $work/hello_ompi")
  # Our library under Open MPI's launcher: separates launcher cost from MPI_Init cost.
  names+=("impi hello, OMPI mpirun")
  cmds+=("mpirun.openmpi --oversubscribe -np $np --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo $work/hello_impi")
fi
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/hello_mpich" "$src"
  names+=("MPICH mpiexec")
  cmds+=("env UCX_NET_DEVICES=lo mpiexec.mpich -n $np $work/hello_mpich")
fi
args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
peers=()
[[ " ${names[*]} " == *" Open MPI mpirun "* ]] && peers+=(ompi)
[[ " ${names[*]} " == *" MPICH mpiexec "* ]] && peers+=(mpich)
bench_header "$cmdline" "${peers[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores; cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/r.json" "${args[@]}" >/dev/null
python3 - "$work/r.json" <<'PY' | tee -a "$res"
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
base = statistics.median(res[0]["times"])
print(f"{'launcher':<26}{'median ms':>10}{'min ms':>9}{'max ms':>9}{'vs impi':>9}")
for r in res:
    t = r["times"]
    m = statistics.median(t)
    print(f"{r['command']:<26}{m*1e3:>10.1f}{min(t)*1e3:>9.1f}{max(t)*1e3:>9.1f}{m/base:>8.2f}x")
PY
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
