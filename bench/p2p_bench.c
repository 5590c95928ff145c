/* p2p_bench.c - OSU-style point-to-point benchmarks between ranks 0 and 1,
 * an ordinary MPI program so the same source measures any MPI library.
 *   latency: ping-pong, half the round trip, in microseconds
 *   bw:      64 nonblocking sends in flight, then a 1-byte ack, in MB/s
 *   bibw:    both ranks send 64 and receive 64 at once, total MB/s
 * Usage: p2p_bench latency|bw|bibw [max_bytes] [multiple]. Prints
 * "<bytes> <value>". With "multiple", MPI_Init_thread(MPI_THREAD_MULTIPLE)
 * (still one thread: the cost of thread safety). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

int main(int argc, char **argv) {
  int rank, i, w, iters, warm;
  long size, max = 1 << 22;
  const char *mode = argc > 1 ? argv[1] : "latency";
  char *sbuf, *rbuf;
  MPI_Request req[2 * WINDOW];
  if (argc > 3 && !strcmp(argv[3], "multiple")) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
      fprintf(stderr, "MPI_THREAD_MULTIPLE is not provided\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 2) max = atol(argv[2]);
  sbuf = malloc(max + 1);
  rbuf = malloc(max + 1);
  memset(sbuf, 'a', max + 1);
  memset(rbuf, 'b', max + 1);
  for (size = 0; size <= max; size = size ? size * 2 : 1) {
    if (!strcmp(mode, "latency")) {
      double t0 = 0;
      iters = size <= 8192 ? 10000 : 1000;
      warm = iters / 10;
      for (i = 0; i < iters + warm; ++i) {
        if (i == warm) t0 = MPI_Wtime();
        if (rank == 0) {
          MPI_Send(sbuf, (int)size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
          MPI_Recv(rbuf, (int)size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
          MPI_Recv(rbuf, (int)size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(sbuf, (int)size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
      }
      if (rank == 0) printf("%ld %.3f\n", size, (MPI_Wtime() - t0) * 1e6 / (2.0 * iters));
    } else if (!strcmp(mode, "bibw")) {
      double t0 = 0;
      int peer = 1 - rank;
      if (size == 0) continue;
      iters = size <= 8192 ? 200 : 20;
      warm = 5;
      for (i = 0; i < iters + warm; ++i) {
        if (i == warm) t0 = MPI_Wtime();
        if (rank > 1) continue;
        for (w = 0; w < WINDOW; ++w) MPI_Irecv(rbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[w]);
        for (w = 0; w < WINDOW; ++w)
          MPI_Isend(sbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[WINDOW + w]);
        MPI_Waitall(2 * WINDOW, req, MPI_STATUSES_IGNORE);
      }
      if (rank == 0) printf("%ld %.1f\n", size, 2.0 * size * WINDOW * iters / (MPI_Wtime() - t0) / 1e6);
    } else {
      double t0 = 0;
      if (size == 0) continue;
      iters = size <= 8192 ? 200 : 20;
      warm = 5;
      for (i = 0; i < iters + warm; ++i) {
        if (i == warm) t0 = MPI_Wtime();
        if (rank == 0) {
          for (w = 0; w < WINDOW; ++w) MPI_Isend(sbuf, (int)size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &req[w]);
          MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
          MPI_Recv(rbuf, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
          for (w = 0; w < WINDOW; ++w) MPI_Irecv(rbuf, (int)size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &req[w]);
          MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
          MPI_Send(sbuf, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
        }
      }
      if (rank == 0) printf("%ld %.1f\n", size, size * (double)WINDOW * iters / (MPI_Wtime() - t0) / 1e6);
    }
    fflush(stdout);
  }
  MPI_Finalize();
  free(sbuf);
  free(rbuf);
  return 0;
}
