#!/usr/bin/env bash
# shm_footprint.sh - many procs on one host: the shared memory a job holds
# (the growth of Shmem in /proc/meminfo while every proc waits between two
# barriers: segments count even once unlinked) and the wall time of a job
# that initializes, barriers and finalizes, for impi, Open MPI and MPICH
# side by side in one run.
# Usage: bench/shm_footprint.sh [build-dir] [nps]   (default nps: "2 16 64 256")
# Writes bench/results/shm_footprint.txt (IMPI_BENCH_RESULTS=FILE: there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
nps=${2:-2 16 64 256}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/shm_footprint.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/prog.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  if (argc > 1) sleep((unsigned)atoi(argv[1]));  /* hold the segments while they are measured */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
C
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$build/bin/mpicc" -O2 -o "$work/impi" "$work/prog.c"
libs=(impi)
if command -v mpicc.openmpi > /dev/null; then mpicc.openmpi -O2 -o "$work/ompi" "$work/prog.c" && libs+=(ompi); fi
if command -v mpicc.mpich > /dev/null; then mpicc.mpich -O2 -o "$work/mpich" "$work/prog.c" && libs+=(mpich); fi
run() {  # run LIB NP ARGS...
  local lib=$1 np=$2
  shift 2
  case $lib in
    impi) "$build/bin/impirun" -np "$np" "$work/impi" "$@" ;;
    ompi) mpirun.openmpi --oversubscribe --mca btl self,vader -np "$np" "$work/ompi" "$@" ;;
    mpich) mpiexec.mpich -n "$np" "$work/mpich" "$@" ;;
  esac
}
shm_now() { awk '/^Shmem:/ {print $2 * 1024}' /proc/meminfo; }
table=$work/table.txt
printf '%-6s %5s %12s %10s\n' library np "shm MiB" "wall s" > "$table"
for np in $nps; do
  for lib in "${libs[@]}"; do
    t0=$(date +%s.%N)
    if ! timeout 300 bash -c "$(declare -f run); build=$build work=$work; run $lib $np" > /dev/null 2>&1; then
      printf '%-6s %5s %12s %10s\n' "$lib" "$np" "-" "failed" >> "$table"
      continue
    fi
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')
    before=$(shm_now)
    run "$lib" "$np" 4 > /dev/null 2>&1 &
    pid=$!
    peak=0
    for _ in $(seq 16); do  # the job's shared memory, at its largest
      sleep 0.5
      now=$(( $(shm_now) - before ))
      [ "$now" -gt "$peak" ] && peak=$now
    done
    wait $pid || true
    printf '%-6s %5s %12.1f %10s\n' "$lib" "$np" "$(awk -v b="$peak" 'BEGIN{print b / 1048576}')" "$wall" >> "$table"
  done
done
cat "$table"
{ bench_header "$cmdline" "${libs[@]}"; cat "$table"; } > "$out.tmp" && mv "$out.tmp" "$out"
