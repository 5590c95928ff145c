/* icoll_check.c - non-blocking collectives: several started at once on
 * MPI_COMM_WORLD and on a dup, point-to-point traffic while they are
 * pending, completion by MPI_Waitall and by MPI_Test loops, a blocking
 * collective issued while non-blocking ones are pending (it runs after
 * them), and every MPI_I* collective's result checked. In one client and
 * across clients. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;
#include "check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const int n = 5000; /* long messages across clients */
  int *bc = malloc(n * sizeof(int)), *sum = malloc(n * sizeof(int)),
      *mine = malloc(n * sizeof(int));
  int *all = malloc((size_t)size * sizeof(int)), *a2a_s = malloc((size_t)size * sizeof(int));
  int *a2a_r = malloc((size_t)size * sizeof(int)), scan = -1, exscan = -1, gath[64], one = -1;
  int *scat = malloc((size_t)size * sizeof(int));
  for (int i = 0; i < n; ++i) {
    bc[i] = rank == size - 1 ? i * 3 : -1;
    mine[i] = rank + i;
  }
  for (int j = 0; j < size; ++j) {
    a2a_s[j] = rank * 100 + j;
    scat[j] = 700 + j;
  }
  int v = rank + 1;
  MPI_Request rq[12];
  MPI_Ibcast(bc, n, MPI_INT, size - 1, MPI_COMM_WORLD, &rq[0]);
  MPI_Iallreduce(mine, sum, n, MPI_INT, MPI_SUM, dup, &rq[1]);
  MPI_Iallgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &rq[2]);
  MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, dup, &rq[3]);
  MPI_Iscan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[4]);
  MPI_Iexscan(&v, &exscan, 1, MPI_INT, MPI_SUM, dup, &rq[5]);
  MPI_Igather(&v, 1, MPI_INT, gath, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq[6]);
  MPI_Iscatter(scat, 1, MPI_INT, &one, 1, MPI_INT, size - 1, dup, &rq[7]);
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[8]);
  /* point-to-point while they are pending */
  int token = rank, got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 9, &got, 1, MPI_INT, (rank + size - 1) % size,
               9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(got == (rank + size - 1) % size, "point-to-point while collectives are pending: %d", got);
  /* half by Test loops, the rest by Waitall */
  for (int i = 0; i < 4; ++i) {
    int flag = 0;
    while (!flag) MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(5, &rq[4], MPI_STATUSES_IGNORE);
  for (int i = 0; i < n; ++i)
    if (bc[i] != i * 3) {
      CHECK(0, "Ibcast [%d] = %d", i, bc[i]);
      break;
    }
  for (int i = 0; i < n; ++i)
    if (sum[i] != size * (size - 1) / 2 + size * i) {
      CHECK(0, "Iallreduce [%d] = %d", i, sum[i]);
      break;
    }
  for (int j = 0; j < size; ++j) CHECK(all[j] == j, "Iallgather [%d] = %d", j, all[j]);
  for (int j = 0; j < size; ++j)
    CHECK(a2a_r[j] == j * 100 + rank, "Ialltoall [%d] = %d", j, a2a_r[j]);
  CHECK(scan == (rank + 1) * (rank + 2) / 2, "Iscan %d", scan);
  if (rank > 0) CHECK(exscan == rank * (rank + 1) / 2, "Iexscan %d", exscan);
  if (rank == 0)
    for (int j = 0; j < size; ++j) CHECK(gath[j] == j + 1, "Igather [%d] = %d", j, gath[j]);
  CHECK(one == 700 + rank, "Iscatter %d", one);
  /* a blocking collective while non-blocking ones are queued: it runs after them */
  int x = rank, y = -1, z = -1;
  MPI_Ireduce(&x, &y, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Iallreduce(&x, &z, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq[1]);
  int b = -1;
  MPI_Allreduce(&x, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(b == size * (size - 1) / 2, "blocking Allreduce after queued ones: %d", b);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  if (rank == 0) CHECK(y == size - 1, "Ireduce %d", y);
  CHECK(z == 0, "Iallreduce min %d", z);
  /* many in a row, completed in reverse order */
  enum { kMany = 50 };
  MPI_Request many[kMany];
  int vals[kMany];
  for (int i = 0; i < kMany; ++i) {
    vals[i] = rank == 0 ? i : -1;
    MPI_Ibcast(&vals[i], 1, MPI_INT, 0, dup, &many[i]);
  }
  for (int i = kMany - 1; i >= 0; --i) MPI_Wait(&many[i], MPI_STATUS_IGNORE);
  for (int i = 0; i < kMany; ++i) CHECK(vals[i] == i, "Ibcast #%d: %d", i, vals[i]);
  MPI_Comm_free(&dup);
  free(bc);
  free(sum);
  free(mine);
  free(all);
  free(a2a_s);
  free(a2a_r);
  free(scat);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
