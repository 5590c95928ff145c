/* partitioned_bench.c - partitioned ping-pong (MPI-4.0 4.2): ranks 0 and 1
 * exchange a message of `bytes` in 16 partitions, each side's 4 threads
 * marking 4 partitions ready (MPI_Pready) per turn. Prints
 * "bytes one-way-us" per size: half the round trip, median of 5 batches.
 * Usage: partitioned_bench [max_bytes] */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kParts = 16, kThreads = 4 };

static pthread_barrier_t g_go, g_done;
static MPI_Request g_send;
static char *g_buf;
static long g_part_bytes;
static volatile int g_quit;

static void *worker(void *arg) {
  const int t = (int)(long)arg;
  for (;;) {
    pthread_barrier_wait(&g_go);
    if (g_quit) return NULL;
    for (int k = 0; k < kParts / kThreads; ++k) {
      int p = t * (kParts / kThreads) + k;
      g_buf[(long)p * g_part_bytes] = (char)p; /* (touch the partition) */
      MPI_Pready(p, g_send);
    }
    pthread_barrier_wait(&g_done);
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "needs MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  long max = argc > 1 ? atol(argv[1]) : 16L << 20;
  const int peer = 1 - rank;
  pthread_barrier_init(&g_go, NULL, kThreads + 1);
  pthread_barrier_init(&g_done, NULL, kThreads + 1);
  pthread_t th[kThreads];
  for (long t = 0; t < kThreads; ++t) pthread_create(&th[t], NULL, worker, (void *)t);
  char *sbuf = malloc((size_t)max), *rbuf = malloc((size_t)max);
  memset(sbuf, 1, (size_t)max);
  memset(rbuf, 0, (size_t)max);
  for (long bytes = 1024; bytes <= max; bytes *= 4) {
    g_part_bytes = bytes / kParts;
    g_buf = sbuf;
    MPI_Request recv;
    MPI_Psend_init(sbuf, kParts, g_part_bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &g_send);
    MPI_Precv_init(rbuf, kParts, g_part_bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &recv);
    long iters = (64L << 20) / bytes;
    if (iters > 1000) iters = 1000;
    if (iters < 5) iters = 5;
    double batch[5];
    for (int b = -1; b < 5; ++b) { /* (batch -1: warm-up) */
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
          MPI_Start(&recv);
          MPI_Start(&g_send);
          pthread_barrier_wait(&g_go);
          pthread_barrier_wait(&g_done);
          MPI_Wait(&g_send, MPI_STATUS_IGNORE);
          MPI_Wait(&recv, MPI_STATUS_IGNORE);
        } else {
          MPI_Start(&recv);
          MPI_Wait(&recv, MPI_STATUS_IGNORE);
          MPI_Start(&g_send);
          pthread_barrier_wait(&g_go);
          pthread_barrier_wait(&g_done);
          MPI_Wait(&g_send, MPI_STATUS_IGNORE);
        }
      }
      if (b >= 0) batch[b] = (MPI_Wtime() - t0) / (2.0 * (double)iters) * 1e6;
    }
    qsort(batch, 5, sizeof batch[0], cmp);
    if (rank == 0) printf("%ld %.2f\n", bytes, batch[2]);
    fflush(stdout);
    MPI_Request_free(&g_send);
    MPI_Request_free(&recv);
  }
  g_quit = 1;
  pthread_barrier_wait(&g_go);
  for (int t = 0; t < kThreads; ++t) pthread_join(th[t], NULL);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
