/* largecount_bench.c - a ping of one large message between 2 ranks with
 * MPI_Send_c/MPI_Recv_c (MPI-4 large counts): rank 0 sends `bytes` of
 * MPI_BYTE to rank 1, `reps` times (one warm-up first); prints the median
 * and best time per message and the GB/s (10^9 bytes/s) they give. The
 * payload's first and last bytes are checked. Usage: largecount_bench
 * [bytes (default 4 GiB)] [reps (default 3)]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int rank, i, reps;
  MPI_Count bytes;
  unsigned char *buf;
  double t[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bytes = argc > 1 ? atoll(argv[1]) : (MPI_Count)4 << 30;
  reps = argc > 2 ? atoi(argv[2]) : 3;
  if (reps > 64) reps = 64;
  buf = malloc((size_t)bytes);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(buf, rank == 0 ? 0x5a : 0, (size_t)bytes); /* touch every page first */
  for (i = -1; i < reps; ++i) {
    double t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send_c(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* received */
    } else {
      MPI_Recv_c(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      if (buf[0] != 0x5a || buf[bytes - 1] != 0x5a) {
        fprintf(stderr, "wrong payload\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      memset(buf, 0, 4096);
      buf[bytes - 1] = 0;
    }
    if (i >= 0) t[i] = MPI_Wtime() - t0;
  }
  if (rank == 0) {
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    printf("%lld bytes: median %.3f s (%.2f GB/s), best %.3f s (%.2f GB/s)\n", (long long)bytes,
           t[reps / 2], (double)bytes / t[reps / 2] / 1e9, t[0], (double)bytes / t[0] / 1e9);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
