#!/usr/bin/env bash
# spawn.sh - MPI_Comm_spawn of 2 procs, usable intercommunicator, side by
# side: impi (impirun) and Open MPI (mpirun.openmpi), the same program built
# by each wrapper; ROUNDS spawns per job, median per job; the jobs are
# interleaved JOBS times. MPICH 4.0.2 is left out: on this machine its
# MPI_Comm_spawn fails ("MPID_Comm_spawn_multiple: Error in spawn call")
# under mpiexec.mpich, with or without -usize 4 / -hosts localhost:4.
# With "path", each job also measures 8 B latency and 1 MiB bandwidth
# between the parent and a spawned child (the path between two jobs).
# Usage: bench/spawn.sh [build-dir] [rounds] [jobs]   (default: build, 5, 3)
# Also writes its lines to bench/results/spawn.txt (IMPI_BENCH_RESULTS=FILE:
# there instead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-5}
jobs=${3:-3}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/spawn.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.txt
"$build/bin/mpicc" -O2 -o "$work/spawn_impi" "$here/bench/spawn_bench.c"
have_ompi=0
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/spawn_ompi" "$here/bench/spawn_bench.c"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  have_ompi=1
fi
peers=()
[ $have_ompi = 1 ] && peers+=(ompi)
bench_header "$cmdline" "${peers[@]}" >"$res"
echo "# $(date -u +%F) $(uname -n), $(nproc) cores; cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo n/a)" | tee -a "$res"
for j in $(seq "$jobs"); do
  echo "impi     job $j: $("$build/bin/impirun" -np 1 "$work/spawn_impi" "$rounds" 2 path | tail -2 | tr '\n' ' ')" | tee -a "$res"
  if [ $have_ompi = 1 ]; then
    echo "Open MPI job $j: $(mpirun.openmpi --oversubscribe -np 1 --mca btl_tcp_if_include lo \
      --mca oob_tcp_if_include lo "$work/spawn_ompi" "$rounds" 2 path 2>/dev/null | tail -2 | tr '\n' ' ')" | tee -a "$res"
  fi
done
mkdir -p "$(dirname "$out")"
cp "$res" "$out"
