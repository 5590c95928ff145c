/* spawn_bench.c - time of MPI_Comm_spawn of NCHILD copies of this program
 * (default 2), measured at the parent from the call to the moment the
 * intercommunicator is usable (a 1-int round trip with child 0 included),
 * repeated ROUNDS times (argv[1], default 5), each round's children
 * disconnecting before the next. Prints one line per round and the median.
 * Built by each MPI's own wrapper (bench/spawn.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
    }
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  int nchild = argc > 2 ? atoi(argv[2]) : 2;
  double t[64];
  if (rounds > 64) rounds = 64;
  for (int r = 0; r < rounds; ++r) {
    MPI_Comm inter;
    double t0 = MPI_Wtime();
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, nchild, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE);
    int v = 42;
    MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
    MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    t[r] = (MPI_Wtime() - t0) * 1e3;
    MPI_Comm_disconnect(&inter);
    printf("round %d: spawn of %d procs usable after %.1f ms\n", r, nchild, t[r]);
  }
  qsort(t, (size_t)rounds, sizeof t[0], cmp);
  printf("median %.1f ms (min %.1f, max %.1f)\n", t[rounds / 2], t[0], t[rounds - 1]);
  MPI_Finalize();
  return 0;
}
