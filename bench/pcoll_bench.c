/* pcoll_bench.c - MPI_Allreduce against its persistent form
 * (MPI_Allreduce_init once, then MPI_Start + MPI_Wait per call): the same
 * loop as coll_bench.c (a warm-up whose time per call sets the count, about
 * 0.2 s of calls, the time per call averaged on each rank, the maximum over
 * ranks reported in microseconds), MPI_INT/MPI_SUM, 8 bytes to max_bytes.
 * An ordinary MPI-4 program: the same source measures any MPI library.
 * World carries MPI-4.1's strict persistent ordering assertion, except
 * in mode unasserted (the persistent loop without it: what a program that
 * does not know MPI-4.1 gets).
 * Usage: pcoll_bench [half-|dup-]allreduce|persistent|unasserted|iallreduce [max_bytes]
 * (iallreduce: MPI_Iallreduce + MPI_Wait, what a persistent start replaces;
 * half-: on halves of the world, split by rank parity, instead of world;
 * dup-: on a duplicate of it, as libraries use)
 * Prints "<bytes> <microseconds>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Comm comm;

static double run(int persistent, int *a, int *b, int n, int iters) {
  /* persistent: 1 Allreduce_init + Start/Wait, 2 Iallreduce + Wait, 0 Allreduce */
  MPI_Request req = MPI_REQUEST_NULL;
  if (persistent == 1) MPI_Allreduce_init(a, b, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) {
    if (persistent == 1) {
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (persistent == 2) {
      MPI_Iallreduce(a, b, n, MPI_INT, MPI_SUM, comm, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, comm);
    }
  }
  double mine = (MPI_Wtime() - t0) / iters * 1e6, worst = 0;
  if (persistent == 1) MPI_Request_free(&req);
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* MPI-4.1's assertion that persistent collectives start in the same
   * order on every rank (as here), which lets a library match them in
   * start order; a library that does not know it ignores it. */
  const char *mode = argc > 1 ? argv[1] : "allreduce";
  comm = MPI_COMM_WORLD;
  if (!strncmp(mode, "half-", 5)) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comm);
    mode += 5;
  } else if (!strncmp(mode, "dup-", 4)) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    mode += 4;
  }
  const int unasserted = !strcmp(mode, "unasserted");
  if (!unasserted) {
    MPI_Info strict;
    MPI_Info_create(&strict);
    MPI_Info_set(strict, "mpi_assert_strict_persistent_collective_ordering", "true");
    MPI_Comm_set_info(comm, strict);
    MPI_Info_free(&strict);
  }
  const int persistent = !strcmp(mode, "persistent") || unasserted ? 1
                         : !strcmp(mode, "iallreduce")             ? 2
                                                                   : 0;
  int csize = 0, want0 = 0; /* (the sum of the members' ranks: a[0]'s) */
  MPI_Comm_size(comm, &csize);
  MPI_Allreduce(&rank, &want0, 1, MPI_INT, MPI_SUM, comm);
  long max = argc > 2 ? atol(argv[2]) : 1 << 20;
  int *a = malloc((size_t)max + 8), *b = malloc((size_t)max + 8);
  for (long i = 0; i < max / 4 + 2; ++i) a[i] = rank + (int)i;
  memset(b, 0, (size_t)max + 8);
  for (long bytes = 8; bytes <= max; bytes = bytes * 4 > max && bytes < max ? max : bytes * 4) {
    int n = (int)(bytes / 4), iters = bytes <= 4096 ? 2000 : bytes <= 65536 ? 300 : 40;
    double warm = run(persistent, a, b, n, iters / 10 + 1);
    double want = 0.2e6 / (warm > 0.01 ? warm : 0.01);
    iters = want < 10 ? 10 : want > 200000 ? 200000 : (int)want;
    double us = run(persistent, a, b, n, iters);
    /* the result, checked: a wrong sum is no benchmark */
    if (b[0] != want0 || b[n - 1] != want0 + csize * (n - 1)) {
      fprintf(stderr, "pcoll_bench: wrong sum at %ld bytes\n", bytes);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) printf("%ld %.2f\n", bytes, us);
  }
  free(a);
  free(b);
  if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
