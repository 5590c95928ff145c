/* coll_bench.c - OSU-style collective latency: each operation repeated
 * after a warm-up, as many times as fill about 0.2 s (at least 10; the
 * warm-up's time per call decides, the same count on every rank), the
 * time per call averaged on each rank,
 * the maximum over ranks reported (microseconds), for message sizes from 8
 * bytes (or 0 for barrier) up to max_bytes, in MPI_INT/MPI_BYTE elements.
 * An ordinary MPI program: the same source measures any MPI library.
 * Usage: coll_bench barrier|bcast|reduce|allreduce|allgather|alltoall [max_bytes]
 * Prints "<bytes> <microseconds>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double run(const char *op, char *a, char *b, long bytes, int size, int iters) {
  int n = (int)(bytes / 4);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) {
    if (!strcmp(op, "barrier"))
      MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(op, "bcast"))
      MPI_Bcast(a, (int)bytes, MPI_BYTE, i % size, MPI_COMM_WORLD);
    else if (!strcmp(op, "reduce"))
      MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, i % size, MPI_COMM_WORLD);
    else if (!strcmp(op, "allreduce"))
      MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(op, "allgather"))
      MPI_Allgather(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
    else if (!strcmp(op, "alltoall"))
      MPI_Alltoall(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  }
  double mine = (MPI_Wtime() - t0) / iters * 1e6, worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *op = argc > 1 ? argv[1] : "allreduce";
  long max = argc > 2 ? atol(argv[2]) : 1 << 20;
  char *a = malloc((size_t)max * size + 8), *b = malloc((size_t)max * size + 8);
  memset(a, 1, (size_t)max * size + 8);
  memset(b, 0, (size_t)max * size + 8);
  for (long bytes = strcmp(op, "barrier") ? 8 : 0; bytes <= max;
       bytes = !bytes                           ? 8
               : bytes * 4 > max && bytes < max ? max
                                                : bytes * 4) {
    int iters = bytes <= 4096 ? 2000 : bytes <= 65536 ? 300 : 40;
    /* warm-up; its time per call (the maximum over ranks, so the same
     * everywhere) sets the count: a few milliseconds of calls measure the
     * scheduler's moods more than the library when procs share cores */
    double warm = run(op, a, b, bytes, size, iters / 10 + 1);
    double want = 0.2e6 / (warm > 0.01 ? warm : 0.01);
    iters = want < 10 ? 10 : want > 200000 ? 200000 : (int)want;
    double us = run(op, a, b, bytes, size, iters);
    if (rank == 0) printf("%ld %.2f\n", bytes, us);
    if (!strcmp(op, "barrier")) break;
  }
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
