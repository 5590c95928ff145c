#!/bin/sh
# pin_core.sh blocks|pairs PROG [ARGS...] - runs PROG bound to one core
# chosen from its rank, for bench/multiproc.sh's fixed placements of 4
# procs on the machine's cores (PMIX_RANK: the rank in an impi client, the
# world rank under Open MPI):
#   pairs:  core = rank mod cores. impi -np 4 --clients 2 (ranks 0,1 | 2,3)
#           and Open MPI -np 4 both put ranks r and r + 2 on one core.
#   blocks: core = rank * cores / size (Open MPI: OMPI_COMM_WORLD_SIZE),
#           ranks 0,1 | 2,3 on two cores, as impirun --clients binds.
mode=$1
shift
cores=$(nproc --all)
rank=${PMIX_RANK:-0}
case $mode in
  pairs) core=$((rank % cores)) ;;
  blocks) core=$((rank * cores / ${OMPI_COMM_WORLD_SIZE:-4})) ;;
  *) echo "pin_core.sh: blocks or pairs, not '$mode'" >&2; exit 2 ;;
esac
exec taskset -c "$core" "$@"
