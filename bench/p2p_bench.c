/* p2p_bench.c - OSU-style point-to-point benchmarks between ranks 0 and 1,
 * an ordinary MPI program so the same source measures any MPI library.
 *   latency: ping-pong, half the round trip, in microseconds
 *   bw:      64 nonblocking sends in flight, then a 1-byte ack, in MB/s
 *   bibw:    both ranks send 64 and receive 64 at once, total MB/s
 * Each size runs a warm-up whose time decides the count of timed
 * iterations: as many as fill about 0.2 s (rank 0 decides, broadcasts), so
 * a small message is timed over a few hundred thousand round trips, not a
 * few milliseconds that measure the scheduler more than the library.
 * Usage: p2p_bench latency|bw|bibw [max_bytes] [multiple]. Prints
 * "<bytes> <value>". With "multiple", MPI_Init_thread(MPI_THREAD_MULTIPLE)
 * (still one thread: the cost of thread safety).
 * P2P_BENCH_PEER=R: rank 0 pairs with rank R (default 1; the others wait).
 * P2P_BENCH_ALL=1: every rank r below np/2 pairs with r + np/2, all at once;
 * each size is timed until the slowest pair is done: bandwidths are the
 * sum over the pairs, latencies the slowest pair's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define TARGET_S 0.2

static int rank;
static int partner = 1, active = 0, leader = 0, npairs = 1;
static char *sbuf, *rbuf;

/* `iters` iterations of `mode` at `size` bytes; seconds on rank 0. */
static double run(const char *mode, long size, int iters) {
  MPI_Request req[2 * WINDOW];
  int i, w, peer = partner;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (i = 0; i < iters && active; ++i) {
    if (!strcmp(mode, "latency")) {
      if (leader) {
        MPI_Send(sbuf, (int)size, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(rbuf, (int)size, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(rbuf, (int)size, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(sbuf, (int)size, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
      }
    } else if (!strcmp(mode, "bibw")) {
      for (w = 0; w < WINDOW; ++w)
        MPI_Irecv(rbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[w]);
      for (w = 0; w < WINDOW; ++w)
        MPI_Isend(sbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[WINDOW + w]);
      MPI_Waitall(2 * WINDOW, req, MPI_STATUSES_IGNORE);
    } else if (leader) {
      for (w = 0; w < WINDOW; ++w)
        MPI_Isend(sbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[w]);
      MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
      MPI_Recv(rbuf, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      for (w = 0; w < WINDOW; ++w)
        MPI_Irecv(rbuf, (int)size, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &req[w]);
      MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
      MPI_Send(sbuf, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  if (npairs > 1) {
    /* Aggregate: until the slowest pair is done (rank 0's own pair may
     * finish early when the pairs do not share the machine fairly). */
    double slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t = slowest;
  }
  return t;
}

int main(int argc, char **argv) {
  long size, max = 1 << 22;
  const char *mode = argc > 1 ? argv[1] : "latency";
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
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const char *all = getenv("P2P_BENCH_ALL");
  if (all && *all && strcmp(all, "0") != 0 && nprocs >= 2) {
    npairs = nprocs / 2;
    partner = rank < npairs ? rank + npairs : rank - npairs;
    active = rank < 2 * npairs;
    leader = rank < npairs;
  } else {
    int p = getenv("P2P_BENCH_PEER") ? atoi(getenv("P2P_BENCH_PEER")) : 1;
    if (p < 1 || p >= nprocs) p = 1;
    partner = rank == 0 ? p : 0;
    active = rank == 0 || rank == p;
    leader = rank == 0;
  }
  if (argc > 2) max = atol(argv[2]);
  sbuf = malloc(max + 1);
  rbuf = malloc(max + 1);
  memset(sbuf, 'a', max + 1);
  memset(rbuf, 'b', max + 1);
  for (size = 0; size <= max; size = size ? size * 2 : 1) {
    if (size == 0 && strcmp(mode, "latency")) continue;
    int warm = !strcmp(mode, "latency") ? (size <= 8192 ? 1000 : 100) : (size <= 8192 ? 20 : 2);
    double per = run(mode, size, warm) / warm;
    int iters = per > 0 ? (int)(TARGET_S / per) : 1000000;
    if (iters < 5) iters = 5;
    if (iters > 1000000) iters = 1000000;
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double t = run(mode, size, iters);
    if (rank == 0) {
      if (!strcmp(mode, "latency"))
        printf("%ld %.3f\n", size, t * 1e6 / (2.0 * iters));
      else
        printf("%ld %.1f\n", size,
               (!strcmp(mode, "bibw") ? 2.0 : 1.0) * npairs * size * WINDOW * iters / t / 1e6);
    }
    fflush(stdout);
  }
  MPI_Finalize();
  free(sbuf);
  free(rbuf);
  return 0;
}
