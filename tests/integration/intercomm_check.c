/* intercomm_check.c - intercommunicators: MPI_Intercomm_create between
 * two groups (even/odd world ranks, then client 0 against the other
 * clients), point-to-point across them, MPI_Comm_dup of an
 * intercommunicator, MPI_Intercomm_merge with both "high" orders and with
 * equal ones, MPI_Comm_free, and the collectives on an intercommunicator
 * (blocking and non-blocking). Needs at least 2 procs (and 2 clients for
 * the second grouping to differ). Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;
#include "check.h"

/* The world ranks of a communicator's (local or remote) group. */
static void world_ranks(MPI_Group g, int n, int *out) {
  MPI_Group wg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  for (int i = 0; i < n; ++i) MPI_Group_translate_ranks(g, 1, &i, wg, &out[i]);
  MPI_Group_free(&wg);
}

static void exercise(MPI_Comm inter, int in_a, const int *a, int na, const int *b, int nb,
                     const char *what) {
  int flag = 0, rsize = -1, lrank;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Comm_rank(inter, &lrank);
  CHECK(flag && rsize == (in_a ? nb : na), "%s: inter %d remote size %d", what, flag, rsize);
  MPI_Group rg;
  MPI_Comm_remote_group(inter, &rg);
  int w[64];
  world_ranks(rg, rsize, w);
  const int *expect = in_a ? b : a;
  for (int i = 0; i < rsize; ++i)
    CHECK(w[i] == expect[i], "%s: remote rank %d is world %d, expected %d", what, i, w[i],
          expect[i]);
  MPI_Group_free(&rg);
  /* every rank sends its world rank to remote rank (lrank % rsize); each
   * remote rank receives from every local rank that targets it */
  int dest = lrank % rsize, v = rank;
  MPI_Request rq;
  MPI_Isend(&v, 1, MPI_INT, dest, 5, inter, &rq);
  int nsrc = in_a ? nb : na; /* remote group size = senders toward us */
  for (int s = 0; s < nsrc; ++s) {
    if (s % (in_a ? na : nb) != lrank) continue;
    int got = -1;
    MPI_Status st;
    MPI_Recv(&got, 1, MPI_INT, s, 5, inter, &st);
    CHECK(st.MPI_SOURCE == s && got == expect[s],
          "%s: from remote %d got %d (source %d), expected %d", what, s, got, st.MPI_SOURCE,
          expect[s]);
  }
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

static void merged_check(MPI_Comm inter, int high, int a_first, int in_a, const int *a, int na,
                         const int *b, int nb, const char *what) {
  MPI_Comm m;
  MPI_Intercomm_merge(inter, high, &m);
  int n, r, w[64];
  MPI_Comm_size(m, &n);
  MPI_Comm_rank(m, &r);
  MPI_Group g;
  MPI_Comm_group(m, &g);
  world_ranks(g, n, w);
  CHECK(n == na + nb, "%s: merged size %d", what, n);
  for (int i = 0; i < n; ++i) {
    int want = a_first ? (i < na ? a[i] : b[i - na]) : (i < nb ? b[i] : a[i - nb]);
    CHECK(w[i] == want, "%s: merged rank %d is world %d, expected %d", what, i, w[i], want);
  }
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, m);
  CHECK(sum == size * (size - 1) / 2, "%s: Allreduce on the merged communicator: %d", what, sum);
  (void)in_a;
  MPI_Group_free(&g);
  MPI_Comm_free(&m);
}

static void run(int in_a, const char *what) {
  int a[64], b[64], na = 0, nb = 0;
  int flags[64];
  MPI_Allgather(&in_a, 1, MPI_INT, flags, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; ++i) {
    if (flags[i])
      a[na++] = i;
    else
      b[nb++] = i;
  }
  if (na == 0 || nb == 0) return;
  MPI_Comm local, inter, dup;
  MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? b[0] : a[0], 77, &inter);
  exercise(inter, in_a, a, na, b, nb, what);
  MPI_Comm_dup(inter, &dup);
  exercise(dup, in_a, a, na, b, nb, what);
  merged_check(inter, in_a ? 0 : 1, 1, in_a, a, na, b, nb, what); /* A low: A first */
  merged_check(inter, in_a ? 1 : 0, 0, in_a, a, na, b, nb, what); /* A high: B first */
  merged_check(inter, 0, a[0] < b[0], in_a, a, na, b, nb, what);  /* equal: lower leader first */
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  CHECK(inter == MPI_COMM_NULL, "%s: Comm_free", what);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  run(rank % 2 == 0, "even/odd");
  int *color, flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, IMPI_CLIENT_COLOR, &color, &flag);
  run(*color == 0, "client 0 / the others");
  /* collectives on an intercommunicator (MPI-3.1 5.2.2): even ranks (A)
   * against odd ranks (B); A's local rank 0 is the root of the rooted ones */
  if (size >= 2) {
    MPI_Comm local, inter;
    int in_a = rank % 2 == 0, lrank, lsize, rsize;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 78, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(MPI_Barrier(inter) == MPI_SUCCESS, "Barrier on an intercommunicator");
    /* Bcast from A's rank 0 to all of B */
    int v = -1, root = in_a ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (in_a && lrank == 0) v = 4711;
    CHECK(MPI_Bcast(&v, 1, MPI_INT, root, inter) == MPI_SUCCESS, "Bcast on an intercommunicator");
    if (!in_a) CHECK(v == 4711, "intercommunicator Bcast: %d", v);
    /* Reduce of B's world ranks to A's rank 0 */
    int sum = -1, mine = rank;
    MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root, inter);
    int b_sum = 0, a_sum = 0;
    for (int q = 0; q < size; ++q) {
      if (q % 2)
        b_sum += q;
      else
        a_sum += q;
    }
    if (in_a && lrank == 0)
      CHECK(sum == b_sum, "intercommunicator Reduce: %d, expected %d", sum, b_sum);
    /* Allreduce: each group gets the other's sum */
    sum = -1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
    CHECK(sum == (in_a ? b_sum : a_sum), "intercommunicator Allreduce: %d", sum);
    /* Gather B's world ranks at A's rank 0; Scatter back lrank*10 */
    int got[64], one = -1, out[64];
    for (int i = 0; i < 64; ++i) out[i] = i * 10;
    MPI_Gather(&mine, 1, MPI_INT, got, 1, MPI_INT, root, inter);
    if (in_a && lrank == 0)
      for (int i = 0; i < rsize; ++i)
        CHECK(got[i] == 2 * i + 1, "intercommunicator Gather [%d] = %d", i, got[i]);
    MPI_Scatter(out, 1, MPI_INT, &one, 1, MPI_INT, root, inter);
    if (!in_a) CHECK(one == lrank * 10, "intercommunicator Scatter: %d", one);
    /* Allgather: each rank gets the remote group's world ranks; Alltoall */
    MPI_Allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, inter);
    for (int i = 0; i < rsize; ++i)
      CHECK(got[i] == 2 * i + (in_a ? 1 : 0), "intercommunicator Allgather [%d] = %d", i, got[i]);
    for (int i = 0; i < rsize; ++i) out[i] = rank * 100 + i;
    MPI_Alltoall(out, 1, MPI_INT, got, 1, MPI_INT, inter);
    for (int i = 0; i < rsize; ++i) {
      int from = 2 * i + (in_a ? 1 : 0);
      CHECK(got[i] == from * 100 + lrank, "intercommunicator Alltoall [%d] = %d", i, got[i]);
    }
    /* v- and w-forms: remote rank i's block has i+1 ints (a gap of one
     * int between blocks on the receiving side) */
    int vc[64], vd[64], big[4096], gotv[4096];
    for (int i = 0, at = 0; i < rsize; ++i) {
      vc[i] = i + 1;
      vd[i] = at;
      at += i + 2;
    }
    for (int k = 0; k < 64; ++k) big[k] = rank;
    for (int k = 0; k < 4096; ++k) gotv[k] = -1;
    MPI_Gatherv(big, lrank + 1, MPI_INT, gotv, vc, vd, MPI_INT, root, inter);
    if (in_a && lrank == 0)
      for (int i = 0; i < rsize; ++i)
        for (int k = 0; k <= i; ++k)
          CHECK(gotv[vd[i] + k] == 2 * i + 1, "intercommunicator Gatherv [%d][%d] = %d", i, k,
                gotv[vd[i] + k]);
    for (int i = 0; i < rsize; ++i)
      for (int k = 0; k <= i; ++k) big[vd[i] + k] = 1000 + i * 10 + k;
    MPI_Scatterv(big, vc, vd, MPI_INT, gotv, lrank + 1, MPI_INT, root, inter);
    if (!in_a)
      for (int k = 0; k <= lrank; ++k)
        CHECK(gotv[k] == 1000 + lrank * 10 + k, "intercommunicator Scatterv [%d] = %d", k, gotv[k]);
    for (int k = 0; k <= lrank; ++k) big[k] = rank * 10 + k;
    MPI_Allgatherv(big, lrank + 1, MPI_INT, gotv, vc, vd, MPI_INT, inter);
    for (int i = 0; i < rsize; ++i)
      for (int k = 0; k <= i; ++k)
        CHECK(gotv[vd[i] + k] == (2 * i + (in_a ? 1 : 0)) * 10 + k,
              "intercommunicator Allgatherv [%d][%d] = %d", i, k, gotv[vd[i] + k]);
    /* Alltoallv: to remote i, i+1 ints; from remote i, lrank+1 ints */
    int sc[64], sd[64], rc[64], rd[64], sdb[64], rdb[64];
    MPI_Datatype ty[64];
    for (int i = 0, at = 0, rat = 0; i < rsize; ++i) {
      sc[i] = i + 1;
      sd[i] = at;
      sdb[i] = at * (int)sizeof(int);
      for (int k = 0; k <= i; ++k) big[at + k] = rank * 1000 + i * 10 + k;
      at += i + 1;
      rc[i] = lrank + 1;
      rd[i] = rat;
      rdb[i] = rat * (int)sizeof(int);
      rat += lrank + 2;
      ty[i] = MPI_INT;
    }
    MPI_Alltoallv(big, sc, sd, MPI_INT, gotv, rc, rd, MPI_INT, inter);
    for (int i = 0; i < rsize; ++i)
      for (int k = 0; k <= lrank; ++k) {
        int from = 2 * i + (in_a ? 1 : 0);
        CHECK(gotv[rd[i] + k] == from * 1000 + lrank * 10 + k,
              "intercommunicator Alltoallv [%d][%d] = %d", i, k, gotv[rd[i] + k]);
      }
    for (int k = 0; k < 4096; ++k) gotv[k] = -1;
    MPI_Alltoallw(big, sc, sdb, ty, gotv, rc, rdb, ty, inter);
    for (int i = 0; i < rsize; ++i)
      for (int k = 0; k <= lrank; ++k) {
        int from = 2 * i + (in_a ? 1 : 0);
        CHECK(gotv[rd[i] + k] == from * 1000 + lrank * 10 + k,
              "intercommunicator Alltoallw [%d][%d] = %d", i, k, gotv[rd[i] + k]);
      }
    /* Reduce_scatter: each group's counts add up to 12 (MPI: both groups'
     * vectors have that length); the remote group's reduction is cut by ours */
    int lc[64], remote_sum = in_a ? b_sum : a_sum, lsz, off = 0;
    MPI_Comm_size(inter, &lsz);
    for (int i = 0; i < lsz; ++i) lc[i] = 12 / lsz + (i < 12 % lsz);
    for (int i = 0; i < lrank; ++i) off += lc[i];
    for (int e = 0; e < 12; ++e) big[e] = rank + e;
    MPI_Reduce_scatter(big, gotv, lc, MPI_INT, MPI_SUM, inter);
    for (int e = 0; e < lc[lrank]; ++e)
      CHECK(gotv[e] == remote_sum + rsize * (off + e),
            "intercommunicator Reduce_scatter [%d] = %d, expected %d", e, gotv[e],
            remote_sum + rsize * (off + e));
    if (12 % lsz == 0 && 12 % rsize == 0) { /* _block: n * recvcount = 12 in both groups */
      int per = 12 / lsz;
      MPI_Reduce_scatter_block(big, gotv, per, MPI_INT, MPI_SUM, inter);
      for (int e = 0; e < per; ++e)
        CHECK(gotv[e] == remote_sum + rsize * (per * lrank + e),
              "intercommunicator Reduce_scatter_block [%d] = %d", e, gotv[e]);
    }
    /* non-blocking forms */
    MPI_Request rq[2];
    {
      for (int k = 0; k < 64; ++k) big[k] = rank;
      MPI_Request g;
      MPI_Igatherv(big, lrank + 1, MPI_INT, gotv, vc, vd, MPI_INT, root, inter, &g);
      MPI_Wait(&g, MPI_STATUS_IGNORE);
      if (in_a && lrank == 0)
        for (int i = 0; i < rsize; ++i)
          CHECK(gotv[vd[i] + i] == 2 * i + 1, "intercommunicator Igatherv [%d] = %d", i,
                gotv[vd[i] + i]);
    }
    v = in_a && lrank == 0 ? 99 : -1;
    MPI_Ibcast(&v, 1, MPI_INT, root, inter, &rq[0]);
    MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_MAX, inter, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    if (!in_a) CHECK(v == 99, "intercommunicator Ibcast: %d", v);
    int a_max = size % 2 ? size - 1 : size - 2, b_max = size % 2 ? size - 2 : size - 1;
    CHECK(sum == (in_a ? b_max : a_max), "intercommunicator Iallreduce max: %d", sum);
    int cls = -1;
    MPI_Error_class(MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, inter), &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "Scan on an intercommunicator: class %d", cls);
    (void)lsize;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
