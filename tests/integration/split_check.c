/* split_check.c - large single-copy messages that both sides copy (the
 * receiver offers half of the copy to the sender) must arrive intact, and
 * a receive must complete while its sender is busy outside MPI.
 *
 * Usage: split_check <flag-file> [bytes]. Rank 0 sends to rank 1 (messages
 * of `bytes`, default 8 MiB):
 *  1. three blocking sends of 8 MiB with different contents (the sender is
 *     inside MPI: it takes the offered half);
 *  2. one MPI_Isend of 8 MiB, after which rank 0 makes no MPI call until
 *     <flag-file> exists, which rank 1 creates only once its receive has
 *     completed. If the receive waited for the sender, the job would hang
 *     (the test's timeout fails it).
 * Prints "rank r of 2 ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long N = 8L << 20;

/* A barrier of two (collectives are another issue). */
static void pair_barrier(int rank) {
  int t = 0;
  MPI_Sendrecv(&t, 1, MPI_INT, 1 - rank, 99, &t, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

static unsigned char pat(int round, long i) {
  return (unsigned char)(i * 131 + round * 17 + (i >> 12));
}

int main(int argc, char **argv) {
  int rank, size, failures = 0;
  const char *flag = argc > 1 ? argv[1] : "split_check.flag";
  if (argc > 2) N = atol(argv[2]);
  if (N < 1 || N > (1L << 30)) return 2;
  unsigned char *buf = malloc(N);
  if (!buf) return 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) MPI_Abort(MPI_COMM_WORLD, 3);
  if (rank == 0) unlink(flag);
  pair_barrier(rank);
  for (int round = 0; round < 4; ++round) {
    if (rank == 0) {
      for (long i = 0; i < N; ++i) buf[i] = pat(round, i);
      if (round < 3) {
        MPI_Send(buf, (int)N, MPI_BYTE, 1, round, MPI_COMM_WORLD);
      } else {
        MPI_Request req;
        MPI_Isend(buf, (int)N, MPI_BYTE, 1, round, MPI_COMM_WORLD, &req);
        for (int waited = 0; access(flag, F_OK) != 0; ++waited) {
          if (waited > 60000) {
            fprintf(stderr, "rank 0: no flag file after 60 s\n");
            MPI_Abort(MPI_COMM_WORLD, 4);
          }
          usleep(1000); /* busy outside MPI */
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      }
    } else {
      MPI_Status st;
      int count = -1;
      memset(buf, 0, N);
      MPI_Recv(buf, (int)N, MPI_BYTE, 0, round, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      if (count != N) {
        fprintf(stderr, "round %d: count %d\n", round, count);
        ++failures;
      }
      for (long i = 0; i < N; ++i)
        if (buf[i] != pat(round, i)) {
          fprintf(stderr, "round %d: byte %ld is %d, expected %d\n", round, i, buf[i],
                  pat(round, i));
          ++failures;
          break;
        }
      if (round == 3) {
        FILE *f = fopen(flag, "w");
        if (f) fclose(f);
      }
    }
  }
  pair_barrier(rank);
  if (rank == 0) unlink(flag);
  MPI_Finalize();
  free(buf);
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
