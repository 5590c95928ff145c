/* spawn_bench.c - time of MPI_Comm_spawn of NCHILD copies of this program
 * (default 2), measured at the parent from the call to the moment the
 * intercommunicator is usable (a 1-int round trip with child 0 included),
 * repeated ROUNDS times (argv[1], default 5), each round's children
 * disconnecting before the next. Prints one line per round and the median.
 * Then, with one more spawn, the latency (half round trip, 8 B) and the
 * bandwidth (1 MiB messages, 16 in flight) between the parent and child 0:
 * the path between two jobs.
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
      if (v == 1) { /* the measuring round */
        char b[8];
        for (int i = 0; i < 11000; ++i) {
          MPI_Recv(b, 8, MPI_CHAR, 0, 1, parent, MPI_STATUS_IGNORE);
          MPI_Send(b, 8, MPI_CHAR, 0, 1, parent);
        }
        char *big = malloc(1 << 20);
        for (int it = 0; it < 22; ++it) {
          MPI_Request rq[16];
          for (int k = 0; k < 16; ++k) MPI_Irecv(big, 1 << 20, MPI_CHAR, 0, 2, parent, &rq[k]);
          MPI_Waitall(16, rq, MPI_STATUSES_IGNORE);
          MPI_Send(&v, 1, MPI_INT, 0, 3, parent);
        }
        free(big);
      }
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
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, nchild, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                   MPI_ERRCODES_IGNORE);
    int v = 42;
    MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
    MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    t[r] = (MPI_Wtime() - t0) * 1e3;
    MPI_Comm_disconnect(&inter);
    printf("round %d: spawn of %d procs usable after %.1f ms\n", r, nchild, t[r]);
  }
  qsort(t, (size_t)rounds, sizeof t[0], cmp);
  printf("median %.1f ms (min %.1f, max %.1f)\n", t[rounds / 2], t[0], t[rounds - 1]);
  if (argc > 3 && strcmp(argv[3], "path") == 0) {
    MPI_Comm inter;
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                   MPI_ERRCODES_IGNORE);
    int v = 1;
    MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
    MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    char b[8] = {0};
    double t0 = 0;
    for (int i = 0; i < 11000; ++i) {
      if (i == 1000) t0 = MPI_Wtime();
      MPI_Send(b, 8, MPI_CHAR, 0, 1, inter);
      MPI_Recv(b, 8, MPI_CHAR, 0, 1, inter, MPI_STATUS_IGNORE);
    }
    double lat = (MPI_Wtime() - t0) / 10000 / 2 * 1e6;
    char *big = calloc(1, 1 << 20);
    for (int it = 0; it < 22; ++it) {
      if (it == 2) t0 = MPI_Wtime();
      MPI_Request rq[16];
      for (int k = 0; k < 16; ++k) MPI_Isend(big, 1 << 20, MPI_CHAR, 0, 2, inter, &rq[k]);
      MPI_Waitall(16, rq, MPI_STATUSES_IGNORE);
      MPI_Recv(&v, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE);
    }
    double bw = 20.0 * 16 * (1 << 20) / (MPI_Wtime() - t0) / 1e9;
    free(big);
    printf("between jobs: latency %.2f us, bandwidth %.2f GB/s\n", lat, bw);
    MPI_Comm_disconnect(&inter);
  }
  MPI_Finalize();
  return 0;
}
