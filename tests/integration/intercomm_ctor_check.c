/* intercomm_ctor_check.c - communicators made from intercommunicators
 * (MPI-3.1 6.4.2): MPI_Comm_split (colors, reversed keys, MPI_UNDEFINED,
 * a color only one side has), MPI_Comm_create (a subset on each side, an
 * empty group on one), and overlapping MPI_Comm_idup; then point-to-point
 * and collectives on every result. The two groups are the even and the
 * odd world ranks, so with several clients both sides span clients.
 * Needs at least 4 procs. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;
#include "check.h"

/* The world ranks of a group. */
static void world_ranks(MPI_Group g, int *out, int *n) {
  MPI_Group wg;
  MPI_Group_size(g, n);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  for (int i = 0; i < *n; ++i) MPI_Group_translate_ranks(g, 1, &i, wg, &out[i]);
  MPI_Group_free(&wg);
}

/* World ranks of side `side` (0 even, 1 odd) whose local rank has color
 * (local % 2 == c), in descending local rank (key = -local); side 0's
 * local rank 0 opted out. */
static int expected(int side, int c, int *out) {
  int n = 0;
  for (int w = size - 1; w >= 0; --w) {
    int local = w / 2;
    if (w % 2 != side || local % 2 != c) continue;
    if (side == 0 && local == 0) continue;
    out[n++] = w;
  }
  return n;
}

static void check_groups(MPI_Comm ic, const int *lw, int ln, const int *rw, int rn,
                         const char *what) {
  int got[64], n, i;
  MPI_Group g;
  MPI_Comm_group(ic, &g);
  world_ranks(g, got, &n);
  MPI_Group_free(&g);
  CHECK(n == ln, "%s: local size %d, want %d", what, n, ln);
  for (i = 0; i < n && i < ln; ++i)
    CHECK(got[i] == lw[i], "%s: local rank %d is world %d, want %d", what, i, got[i], lw[i]);
  MPI_Comm_remote_group(ic, &g);
  world_ranks(g, got, &n);
  MPI_Group_free(&g);
  CHECK(n == rn, "%s: remote size %d, want %d", what, n, rn);
  for (i = 0; i < n && i < rn; ++i)
    CHECK(got[i] == rw[i], "%s: remote rank %d is world %d, want %d", what, i, got[i], rw[i]);
}

/* Point-to-point and collectives across `ic`: each group sums the other's world ranks. */
static void exercise(MPI_Comm ic, const int *rw, int rn, const char *what) {
  int lrank, lsize, want = 0, sum = -1, v = rank, i, root_val = -1;
  MPI_Comm_rank(ic, &lrank);
  MPI_Comm_size(ic, &lsize);
  for (i = 0; i < rn; ++i) want += rw[i];
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
  CHECK(sum == want, "%s: Allreduce %d, want %d", what, sum, want);
  MPI_Barrier(ic);
  /* Bcast from the even side's rank 0 */
  if (rank % 2 == 0) {
    root_val = rank;
    MPI_Bcast(&root_val, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
  } else {
    MPI_Bcast(&root_val, 1, MPI_INT, 0, ic);
    CHECK(root_val == rw[0], "%s: Bcast %d, want %d", what, root_val, rw[0]);
  }
  {
    int *sb = malloc(sizeof(int) * (size_t)rn), *rb = malloc(sizeof(int) * (size_t)rn);
    for (i = 0; i < rn; ++i) sb[i] = rank * 1000 + i;
    MPI_Alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, ic);
    for (i = 0; i < rn; ++i)
      CHECK(rb[i] == rw[i] * 1000 + lrank, "%s: Alltoall from %d: %d", what, i, rb[i]);
    free(sb);
    free(rb);
  }
  {
    /* every rank sends its world rank to remote rank lrank % rn; so
     * remote rank j's message comes to local rank j % lsize */
    MPI_Request r;
    int got, n = 0;
    MPI_Isend(&v, 1, MPI_INT, lrank % rn, 3, ic, &r);
    for (i = 0; i < rn; ++i)
      if (i % lsize == lrank) ++n;
    for (i = 0; i < n; ++i) {
      MPI_Status st;
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, ic, &st);
      CHECK(got == rw[st.MPI_SOURCE], "%s: point-to-point from %d: %d", what, st.MPI_SOURCE, got);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  int side, local_rank, ln, rn, lw[64], rw[64];
  MPI_Comm half, ic, sub;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4 || size > 64) {
    fprintf(stderr, "needs 4 to 64 procs\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  side = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, side, rank, &half);
  MPI_Comm_rank(half, &local_rank);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - side, 77, &ic);

  /* split: color = local rank % 2, reversed keys, the even side's rank 0 out */
  {
    int color = local_rank % 2;
    if (side == 0 && local_rank == 0) color = MPI_UNDEFINED;
    MPI_Comm_split(ic, color, -local_rank, &sub);
    if (color == MPI_UNDEFINED) {
      CHECK(sub == MPI_COMM_NULL, "split: MPI_UNDEFINED gave a communicator");
    } else {
      ln = expected(side, color, lw);
      rn = expected(1 - side, color, rw);
      CHECK((sub == MPI_COMM_NULL) == (rn == 0), "split: color %d, %d remote, null %d", color, rn,
            sub == MPI_COMM_NULL);
      if (sub != MPI_COMM_NULL) {
        int flag;
        MPI_Comm_test_inter(sub, &flag);
        CHECK(flag, "split of an intercommunicator is not one");
        check_groups(sub, lw, ln, rw, rn, "split");
        exercise(sub, rw, rn, "split");
        MPI_Comm_free(&sub);
      }
    }
  }
  /* create: each side keeps all but its local rank 0; then one side empty */
  {
    MPI_Group g, part;
    int zero = 0, i;
    MPI_Comm_group(ic, &g);
    MPI_Group_excl(g, 1, &zero, &part);
    MPI_Comm_create(ic, part, &sub);
    CHECK((sub == MPI_COMM_NULL) == (local_rank == 0), "create: null %d at local rank %d",
          sub == MPI_COMM_NULL, local_rank);
    if (sub != MPI_COMM_NULL) {
      ln = rn = 0;
      for (i = 0; i < size; ++i)
        if (i / 2 != 0) {
          if (i % 2 == side)
            lw[ln++] = i;
          else
            rw[rn++] = i;
        }
      check_groups(sub, lw, ln, rw, rn, "create");
      exercise(sub, rw, rn, "create");
      MPI_Comm_free(&sub);
    }
    MPI_Group_free(&part);
    MPI_Comm_create(ic, side == 0 ? g : MPI_GROUP_EMPTY, &sub);
    CHECK(sub == MPI_COMM_NULL, "create with an empty remote side gave a communicator");
    MPI_Group_free(&g);
  }
  /* two overlapping idups */
  {
    MPI_Comm d1, d2;
    MPI_Request rq[2];
    int res;
    MPI_Comm_idup(ic, &d1, &rq[0]);
    MPI_Comm_idup(ic, &d2, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Comm_compare(ic, d1, &res);
    CHECK(res == MPI_CONGRUENT, "idup compare %d", res);
    MPI_Comm_compare(d1, d2, &res);
    CHECK(res == MPI_CONGRUENT, "idup compare d1 d2 %d", res);
    ln = rn = 0;
    for (int i = 0; i < size; ++i) {
      if (i % 2 == side)
        lw[ln++] = i;
      else
        rw[rn++] = i;
    }
    check_groups(d2, lw, ln, rw, rn, "idup");
    exercise(d1, rw, rn, "idup 1");
    exercise(d2, rw, rn, "idup 2");
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
  }
  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
