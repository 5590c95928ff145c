/* Persistent collectives (MPI-4.0 6.12): every MPI_*_init started several
 * times with changing inputs, each result checked; MPI_Startall over a mix
 * of persistent collectives and point-to-point requests; completion by
 * Wait, Test, Waitall, Testall, Waitany, Waitsome; MPI_Request_get_status
 * of an active and an inactive request; MPI_Cancel refused; derived types
 * and argument arrays freed/overwritten after init; MPI_Request_free; the
 * communicator, a derived type and a user operation freed right after init,
 * then the requests started several times (the request keeps them); argument
 * errors reported by the init call itself. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, rank, size;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

/* Completes `req` by one of several calls (by iteration), checks it is
 * inactive (not freed) after. */
static void complete(MPI_Request *req, int how) {
  MPI_Request keep = *req;
  int flag = 0, idx = -1, out = 0;
  MPI_Status st;
  switch (how % 6) {
    case 0:
      MPI_Wait(req, &st);
      break;
    case 1:
      while (!flag) MPI_Test(req, &flag, &st);
      break;
    case 2:
      MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
      break;
    case 3:
      while (!flag) MPI_Testall(1, req, &flag, MPI_STATUSES_IGNORE);
      break;
    case 4:
      MPI_Waitany(1, req, &idx, &st);
      CHECK(idx == 0, "Waitany index %d", idx);
      break;
    default:
      MPI_Waitsome(1, req, &out, &idx, MPI_STATUSES_IGNORE);
      CHECK(out == 1 && idx == 0, "Waitsome %d %d", out, idx);
  }
  CHECK(*req == keep && *req != MPI_REQUEST_NULL, "a persistent request was freed by completion");
  /* Inactive now: a wait returns at once with an empty status. */
  MPI_Wait(req, &st);
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "inactive status %d/%d",
        st.MPI_SOURCE, st.MPI_TAG);
}

/* A user operation on pairs of ints: sum of the first, max of the second. */
static void pair_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < *len; ++i) {
    b[2 * i] += a[2 * i];
    if (a[2 * i + 1] > b[2 * i + 1]) b[2 * i + 1] = a[2 * i + 1];
  }
}

/* Init with the communicator, type and operation freed at once after it. */
static void freed_after_init(void) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(pair_op, 1, &op);
  const int n = size, root = size - 1;
  int sb[4], rb[4], red[4], bb[3], *ag = malloc(sizeof(int) * 2 * (size_t)n);
  MPI_Request r[5];
  int rc = MPI_Allreduce_init(sb, rb, 2, pair, op, dup, MPI_INFO_NULL, &r[0]);
  CHECK(rc == MPI_SUCCESS, "Allreduce_init: %d", rc);
  MPI_Bcast_init(bb, 3, MPI_INT, root, dup, MPI_INFO_NULL, &r[1]);
  MPI_Reduce_init(sb, red, 2, pair, op, root, dup, MPI_INFO_NULL, &r[2]);
  MPI_Barrier_init(dup, MPI_INFO_NULL, &r[3]);
  MPI_Allgather_init(sb, 1, pair, ag, 2, MPI_INT, dup, MPI_INFO_NULL, &r[4]);
  /* Argument errors come from the init call (and leave no request). */
  MPI_Request bad = MPI_REQUEST_NULL;
  int cls = -1;
  rc = MPI_Allreduce_init(sb, rb, -1, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT && bad == MPI_REQUEST_NULL, "Allreduce_init(count -1): class %d", cls);
  rc = MPI_Bcast_init(bb, 1, MPI_INT, n, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ROOT && bad == MPI_REQUEST_NULL, "Bcast_init(root %d): class %d", n, cls);
  rc = MPI_Reduce_init(sb, red, 1, MPI_INT, MPI_OP_NULL, 0, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP && bad == MPI_REQUEST_NULL, "Reduce_init(MPI_OP_NULL): class %d", cls);
  rc = MPI_Allreduce_init(sb, rb, 1, MPI_DATATYPE_NULL, MPI_SUM, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE && bad == MPI_REQUEST_NULL, "Allreduce_init(type NULL): class %d", cls);
  /* The calls that start their nonblocking form at each MPI_Start check
   * too (and the _c forms). */
  rc = MPI_Gather_init(sb, 1, MPI_INT, ag, 1, MPI_INT, n, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ROOT && bad == MPI_REQUEST_NULL, "Gather_init(root %d): class %d", n, cls);
  rc = MPI_Scan_init(sb, rb, 1, MPI_INT, MPI_OP_NULL, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP && bad == MPI_REQUEST_NULL, "Scan_init(MPI_OP_NULL): class %d", cls);
  rc = MPI_Alltoall_init(sb, 1, MPI_INT, ag, -1, MPI_INT, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT && bad == MPI_REQUEST_NULL, "Alltoall_init(count -1): class %d", cls);
  rc = MPI_Reduce_scatter_block_init(sb, rb, 1, MPI_DATATYPE_NULL, MPI_SUM, dup, MPI_INFO_NULL,
                                     &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE && bad == MPI_REQUEST_NULL, "Reduce_scatter_block_init: class %d", cls);
  rc = MPI_Allgather_init_c(sb, -1, MPI_INT, ag, 1, MPI_INT, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT && bad == MPI_REQUEST_NULL, "Allgather_init_c(count -1): class %d",
        cls);
  rc = MPI_Bcast_init_c(bb, 1, MPI_INT, n, dup, MPI_INFO_NULL, &bad);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ROOT && bad == MPI_REQUEST_NULL, "Bcast_init_c(root %d): class %d", n, cls);

  MPI_Comm_free(&dup);
  MPI_Type_free(&pair);
  MPI_Op_free(&op);
  for (int it = 0; it < 5; ++it) {
    for (int k = 0; k < 2; ++k) {
      sb[2 * k] = rank + it + k;
      sb[2 * k + 1] = (rank * 3 + it + k) % n;
    }
    memset(rb, 0xff, sizeof rb);
    memset(red, 0xff, sizeof red);
    for (int k = 0; k < 3; ++k) bb[k] = rank == root ? 100 * it + k : -1;
    for (int k = 0; k < 2 * n; ++k) ag[k] = -1;
    MPI_Startall(5, r);
    if (it % 2)
      MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
    else
      for (int k = 4; k >= 0; --k) complete(&r[k], it + k);
    for (int k = 0; k < 2; ++k) {
      const int sum = n * (n - 1) / 2 + n * (it + k);
      int mx = 0;
      for (int q = 0; q < n; ++q)
        if ((q * 3 + it + k) % n > mx) mx = (q * 3 + it + k) % n;
      CHECK(rb[2 * k] == sum && rb[2 * k + 1] == mx, "freed: Allreduce %d[%d]: %d %d (want %d %d)",
            it, k, rb[2 * k], rb[2 * k + 1], sum, mx);
      if (rank == root)
        CHECK(red[2 * k] == sum && red[2 * k + 1] == mx, "freed: Reduce %d[%d]: %d %d", it, k,
              red[2 * k], red[2 * k + 1]);
    }
    for (int k = 0; k < 3; ++k)
      CHECK(bb[k] == 100 * it + k, "freed: Bcast %d[%d]: %d", it, k, bb[k]);
    for (int q = 0; q < n; ++q)
      CHECK(ag[2 * q] == q + it && ag[2 * q + 1] == (q * 3 + it) % n,
            "freed: Allgather %d[%d]: %d %d", it, q, ag[2 * q], ag[2 * q + 1]);
  }
  for (int k = 0; k < 5; ++k) MPI_Request_free(&r[k]);
  free(ag);
}

/* The same on an intercommunicator (two halves of the world), freed after
 * init: Allreduce, Bcast from one side, Reduce to the other, Barrier. */
static void inter_freed_after_init(void) {
  if (size < 2) return;
  const int half = size / 2, color = rank < half ? 0 : 1;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : half, 11, &inter);
  int lrank;
  MPI_Comm_rank(local, &lrank);
  int sb = 0, rb = 0, bb[2] = {0, 0}, red = 0;
  const int broot = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  const int rroot = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Request r[4];
  MPI_Allreduce_init(&sb, &rb, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r[0]);
  MPI_Bcast_init(bb, 2, MPI_INT, broot, inter, MPI_INFO_NULL, &r[1]);
  MPI_Reduce_init(&sb, &red, 1, MPI_INT, MPI_SUM, rroot, inter, MPI_INFO_NULL, &r[2]);
  MPI_Barrier_init(inter, MPI_INFO_NULL, &r[3]);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  for (int it = 0; it < 3; ++it) {
    sb = rank + it;
    rb = red = -1;
    bb[0] = bb[1] = color == 0 && lrank == 0 ? 1000 * it : -1;
    if (color == 0 && lrank == 0) bb[1] = 1000 * it + 1;
    MPI_Startall(4, r);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    /* the other group's sum: world ranks [lo, hi) */
    const int lo = color ? 0 : half, hi = color ? half : size;
    const int other = (hi - lo) * (lo + hi - 1) / 2 + (hi - lo) * it;
    CHECK(rb == other, "inter Allreduce %d: %d (want %d)", it, rb, other);
    if (color == 1)
      CHECK(bb[0] == 1000 * it && bb[1] == 1000 * it + 1, "inter Bcast %d: %d %d", it, bb[0],
            bb[1]);
    if (color == 1 && lrank == 0) {
      const int g0 = half * (half - 1) / 2 + half * it;
      CHECK(red == g0, "inter Reduce %d: %d (want %d)", it, red, g0);
    }
  }
  for (int k = 0; k < 4; ++k) MPI_Request_free(&r[k]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int n = size, root = size - 1;
  MPI_Request req;

  /* Allreduce, 10 starts with changing inputs, two sizes (ring / small). */
  for (int big = 0; big < 2; ++big) {
    int cnt = big ? 50000 : 3;
    int *in = malloc(sizeof(int) * (size_t)cnt), *out = malloc(sizeof(int) * (size_t)cnt);
    MPI_Allreduce_init(in, out, cnt, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req);
    int flag = 0;
    MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "an inactive request's status: flag %d", flag);
    for (int it = 0; it < 10; ++it) {
      for (int i = 0; i < cnt; ++i) in[i] = (rank + 1) * (it + 1) + i;
      MPI_Start(&req);
      complete(&req, it);
      int bad = 0;
      for (int i = 0; i < cnt; ++i) bad += out[i] != (it + 1) * n * (n + 1) / 2 + n * i;
      CHECK(bad == 0, "Allreduce_init cnt %d start %d: %d wrong", cnt, it, bad);
    }
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "Request_free left the handle");
    free(in);
    free(out);
  }

  /* Barrier, Bcast (root changes between requests), Reduce. */
  {
    MPI_Barrier_init(comm, MPI_INFO_NULL, &req);
    for (int it = 0; it < 3; ++it) {
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req);
    int v[4];
    MPI_Bcast_init(v, 4, MPI_INT, root, comm, MPI_INFO_NULL, &req);
    for (int it = 0; it < 4; ++it) {
      for (int i = 0; i < 4; ++i) v[i] = rank == root ? it * 10 + i : -1;
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (int i = 0; i < 4; ++i)
        CHECK(v[i] == it * 10 + i, "Bcast_init %d: v[%d]=%d", it, i, v[i]);
    }
    MPI_Request_free(&req);
    double d, sum;
    MPI_Reduce_init(&d, &sum, 1, MPI_DOUBLE, MPI_MAX, 0, comm, MPI_INFO_NULL, &req);
    for (int it = 0; it < 3; ++it) {
      d = rank * 2.0 + it;
      sum = -1;
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      if (rank == 0) CHECK(sum == (n - 1) * 2.0 + it, "Reduce_init %d: %g", it, sum);
    }
    MPI_Request_free(&req);
  }

  /* Gather / Gatherv / Scatter / Scatterv / Allgather / Allgatherv. */
  {
    int *all = malloc(sizeof(int) * (size_t)(3 * n)), mine[3], counts[64], displs[64];
    for (int r = 0; r < n; ++r) {
      counts[r] = 1 + r % 3;
      displs[r] = 3 * r;
    }
    MPI_Request g, gv, s, sv, ag, agv;
    MPI_Gather_init(mine, 3, MPI_INT, all, 3, MPI_INT, root, comm, MPI_INFO_NULL, &g);
    MPI_Gatherv_init(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, comm,
                     MPI_INFO_NULL, &gv);
    MPI_Scatter_init(all, 3, MPI_INT, mine, 3, MPI_INT, root, comm, MPI_INFO_NULL, &s);
    MPI_Scatterv_init(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root, comm,
                      MPI_INFO_NULL, &sv);
    MPI_Allgather_init(mine, 3, MPI_INT, all, 3, MPI_INT, comm, MPI_INFO_NULL, &ag);
    MPI_Allgatherv_init(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, comm,
                        MPI_INFO_NULL, &agv);
    /* The arrays may change after init: the requests copied them. */
    for (int r = 0; r < n; ++r) counts[r] = displs[r] = -99;
    for (int it = 0; it < 2; ++it) {
      int bad = 0;
      /* gather */
      for (int i = 0; i < 3; ++i) mine[i] = rank * 100 + i + it;
      for (int i = 0; i < 3 * n; ++i) all[i] = -1;
      MPI_Start(&g);
      MPI_Wait(&g, MPI_STATUS_IGNORE);
      if (rank == root)
        for (int i = 0; i < 3 * n; ++i) bad += all[i] != (i / 3) * 100 + i % 3 + it;
      CHECK(bad == 0, "Gather_init %d: %d wrong", it, bad);
      /* gatherv */
      for (int i = 0; i < 3 * n; ++i) all[i] = -1;
      MPI_Start(&gv);
      MPI_Wait(&gv, MPI_STATUS_IGNORE);
      bad = 0;
      if (rank == root)
        for (int i = 0; i < 3 * n; ++i)
          bad += all[i] != (i % 3 < 1 + (i / 3) % 3 ? (i / 3) * 100 + i % 3 + it : -1);
      CHECK(bad == 0, "Gatherv_init %d: %d wrong", it, bad);
      /* scatter */
      for (int i = 0; i < 3 * n; ++i) all[i] = rank == root ? 7 * i + it : -1;
      mine[0] = mine[1] = mine[2] = -1;
      MPI_Start(&s);
      MPI_Wait(&s, MPI_STATUS_IGNORE);
      for (int i = 0; i < 3; ++i)
        CHECK(mine[i] == 7 * (3 * rank + i) + it, "Scatter_init %d: %d", it, mine[i]);
      /* scatterv */
      mine[0] = mine[1] = mine[2] = -1;
      MPI_Start(&sv);
      MPI_Wait(&sv, MPI_STATUS_IGNORE);
      for (int i = 0; i < 3; ++i)
        CHECK(mine[i] == (i < 1 + rank % 3 ? 7 * (3 * rank + i) + it : -1), "Scatterv_init %d: %d",
              it, mine[i]);
      /* allgather, then allgatherv */
      for (int i = 0; i < 3; ++i) mine[i] = rank * 10 + i - it;
      for (int i = 0; i < 3 * n; ++i) all[i] = -1;
      MPI_Start(&ag);
      MPI_Wait(&ag, MPI_STATUS_IGNORE);
      bad = 0;
      for (int i = 0; i < 3 * n; ++i) bad += all[i] != (i / 3) * 10 + i % 3 - it;
      CHECK(bad == 0, "Allgather_init %d: %d wrong", it, bad);
      for (int i = 0; i < 3 * n; ++i) all[i] = -1;
      MPI_Start(&agv);
      MPI_Wait(&agv, MPI_STATUS_IGNORE);
      bad = 0;
      for (int i = 0; i < 3 * n; ++i)
        bad += all[i] != (i % 3 < 1 + (i / 3) % 3 ? (i / 3) * 10 + i % 3 - it : -1);
      CHECK(bad == 0, "Allgatherv_init %d: %d wrong", it, bad);
    }
    MPI_Request_free(&g);
    MPI_Request_free(&gv);
    MPI_Request_free(&s);
    MPI_Request_free(&sv);
    MPI_Request_free(&ag);
    MPI_Request_free(&agv);
    free(all);
  }

  /* Alltoall / Alltoallv / Alltoallw (a derived type freed after init). */
  {
    int *sb = malloc(sizeof(int) * (size_t)(2 * n)), *rb = malloc(sizeof(int) * (size_t)(2 * n));
    int sc[64], sd[64], rc[64], rd[64], wsd[64], wrd[64];
    MPI_Datatype pair, wt[64];
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int r = 0; r < n; ++r) {
      sc[r] = rc[r] = 2;
      sd[r] = rd[r] = 2 * r;
      wsd[r] = wrd[r] = 2 * r * (int)sizeof(int);
      wt[r] = pair;
    }
    int one[64];
    for (int r = 0; r < n; ++r) one[r] = 1;
    MPI_Request a, av, aw;
    MPI_Alltoall_init(sb, 2, MPI_INT, rb, 1, pair, comm, MPI_INFO_NULL, &a);
    MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm, MPI_INFO_NULL, &av);
    MPI_Alltoallw_init(sb, one, wsd, wt, rb, one, wrd, wt, comm, MPI_INFO_NULL, &aw);
    MPI_Type_free(&pair);
    for (int r = 0; r < n; ++r) sc[r] = rc[r] = sd[r] = rd[r] = wsd[r] = wrd[r] = one[r] = -5;
    MPI_Request three[3] = {a, av, aw};
    for (int k = 0; k < 3; ++k)
      for (int it = 0; it < 2; ++it) {
        for (int i = 0; i < 2 * n; ++i) {
          sb[i] = 1000 * rank + 10 * (i / 2) + i % 2 + it + 100000 * k;
          rb[i] = -1;
        }
        MPI_Start(&three[k]);
        complete(&three[k], it + k);
        int bad = 0;
        for (int i = 0; i < 2 * n; ++i)
          bad += rb[i] != 1000 * (i / 2) + 10 * rank + i % 2 + it + 100000 * k;
        CHECK(bad == 0, "Alltoall%s_init %d: %d wrong", k == 0 ? "" : k == 1 ? "v" : "w", it, bad);
      }
    for (int k = 0; k < 3; ++k) MPI_Request_free(&three[k]);
    free(sb);
    free(rb);
  }

  /* Reduce_scatter, Reduce_scatter_block, Scan, Exscan (MPI_IN_PLACE too). */
  {
    int *in = malloc(sizeof(int) * (size_t)(2 * n)), out[2], counts[64];
    for (int r = 0; r < n; ++r) counts[r] = 2;
    MPI_Request rs, rsb, sc, ex, ipr;
    MPI_Reduce_scatter_init(in, out, counts, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rs);
    MPI_Reduce_scatter_block_init(in, out, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rsb);
    counts[0] = -3;
    int x, scan, exscan = -77, ip = 0;
    MPI_Scan_init(&x, &scan, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &sc);
    MPI_Exscan_init(&x, &exscan, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &ex);
    MPI_Allreduce_init(MPI_IN_PLACE, &ip, 1, MPI_INT, MPI_PROD, comm, MPI_INFO_NULL, &ipr);
    for (int it = 0; it < 3; ++it) {
      for (int i = 0; i < 2 * n; ++i) in[i] = i * (rank + it);
      MPI_Start(&rs);
      MPI_Wait(&rs, MPI_STATUS_IGNORE);
      /* sum over ranks of i*(r+it) = i*(n(n-1)/2 + n*it) */
      int f = n * (n - 1) / 2 + n * it;
      CHECK(out[0] == 2 * rank * f && out[1] == (2 * rank + 1) * f, "Reduce_scatter_init %d", it);
      out[0] = out[1] = -1;
      MPI_Start(&rsb);
      MPI_Wait(&rsb, MPI_STATUS_IGNORE);
      CHECK(out[0] == 2 * rank * f && out[1] == (2 * rank + 1) * f, "Reduce_scatter_block_init %d",
            it);
      x = rank + it;
      MPI_Request two[2] = {sc, ex};
      MPI_Startall(2, two);
      MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
      CHECK(two[0] == sc && two[1] == ex, "Startall/Waitall changed the handles");
      CHECK(scan == rank * (rank + 1) / 2 + (rank + 1) * it, "Scan_init %d: %d", it, scan);
      if (rank > 0)
        CHECK(exscan == (rank - 1) * rank / 2 + rank * it, "Exscan_init %d: %d", it, exscan);
      ip = rank + 1 + it;
      MPI_Start(&ipr);
      MPI_Wait(&ipr, MPI_STATUS_IGNORE);
      int prod = 1;
      for (int r = 0; r < n; ++r) prod *= r + 1 + it;
      CHECK(ip == prod, "Allreduce_init in place %d: %d != %d", it, ip, prod);
    }
    MPI_Request_free(&rs);
    MPI_Request_free(&rsb);
    MPI_Request_free(&sc);
    MPI_Request_free(&ex);
    MPI_Request_free(&ipr);
    free(in);
  }

  /* Neighbourhood collectives on a periodic ring (cartesian, 1-D). */
  {
    MPI_Comm ring;
    int dims[1] = {n}, periods[1] = {1};
    MPI_Cart_create(comm, 1, dims, periods, 0, &ring);
    int left, right;
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    int s2[2], r2[2], one2[2] = {1, 1}, d2[2] = {0, 1};
    MPI_Aint ad2[2] = {0, sizeof(int)};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT};
    int me;
    MPI_Request nb[5];
    MPI_Neighbor_allgather_init(&me, 1, MPI_INT, r2, 1, MPI_INT, ring, MPI_INFO_NULL, &nb[0]);
    MPI_Neighbor_allgatherv_init(&me, 1, MPI_INT, r2, one2, d2, MPI_INT, ring, MPI_INFO_NULL,
                                 &nb[1]);
    MPI_Neighbor_alltoall_init(s2, 1, MPI_INT, r2, 1, MPI_INT, ring, MPI_INFO_NULL, &nb[2]);
    MPI_Neighbor_alltoallv_init(s2, one2, d2, MPI_INT, r2, one2, d2, MPI_INT, ring, MPI_INFO_NULL,
                                &nb[3]);
    MPI_Neighbor_alltoallw_init(s2, one2, ad2, t2, r2, one2, ad2, t2, ring, MPI_INFO_NULL, &nb[4]);
    one2[0] = d2[1] = -8;
    for (int k = 0; k < 5; ++k)
      for (int it = 0; it < 2; ++it) {
        me = rank * 3 + it;
        s2[0] = rank * 10 + it;     /* to the left neighbour */
        s2[1] = rank * 10 + 5 + it; /* to the right */
        r2[0] = r2[1] = -1;
        MPI_Start(&nb[k]);
        MPI_Wait(&nb[k], MPI_STATUS_IGNORE);
        if (k < 2)
          CHECK(r2[0] == left * 3 + it && r2[1] == right * 3 + it,
                "Neighbor_allgather%s_init: %d %d", k ? "v" : "", r2[0], r2[1]);
        else
          CHECK(r2[0] == left * 10 + 5 + it && r2[1] == right * 10 + it,
                "Neighbor_alltoall%d_init: %d %d", k, r2[0], r2[1]);
      }
    for (int k = 0; k < 5; ++k) MPI_Request_free(&nb[k]);
    MPI_Comm_free(&ring);
  }

  /* MPI_Startall over persistent collectives and point-to-point requests;
   * MPI_Request_get_status; MPI_Cancel refused; Testall/Waitsome over them. */
  {
    int a = 0, b = 0, sendv, recvv = -1;
    const int right = (rank + 1) % n, left = (rank + n - 1) % n;
    MPI_Request mix[4];
    MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &mix[0]);
    MPI_Recv_init(&recvv, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &mix[1]);
    MPI_Barrier_init(comm, MPI_INFO_NULL, &mix[2]);
    MPI_Send_init(&sendv, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &mix[3]);
    for (int it = 0; it < 4; ++it) {
      a = rank + it;
      sendv = rank * 7 + it;
      MPI_Startall(4, mix);
      if (it == 0) {
        int rc = MPI_Cancel(&mix[0]), cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_REQUEST, "MPI_Cancel of a persistent collective: class %d", cls);
      }
      if (it % 2) {
        int flag = 0;
        while (!flag) MPI_Testall(4, mix, &flag, MPI_STATUSES_IGNORE);
      } else {
        int done = 0;
        while (done < 4) {
          int out, idx[4];
          MPI_Waitsome(4, mix, &out, idx, MPI_STATUSES_IGNORE);
          CHECK(out != MPI_UNDEFINED, "Waitsome: nothing active with %d left", 4 - done);
          if (out == MPI_UNDEFINED) break;
          done += out;
          for (int k = 0; k < out; ++k) {
            int flag = 0;
            MPI_Request_get_status(mix[idx[k]], &flag, MPI_STATUS_IGNORE);
            CHECK(flag, "completed request %d not inactive", idx[k]);
          }
        }
      }
      CHECK(b == n * (n - 1) / 2 + n * it, "mixed Allreduce %d: %d", it, b);
      CHECK(recvv == left * 7 + it, "mixed recv %d: %d", it, recvv);
    }
    /* Request_get_status leaves an active request active. */
    a = 1;
    MPI_Start(&mix[0]);
    int flag = 0;
    MPI_Status st;
    while (!flag) MPI_Request_get_status(mix[0], &flag, &st);
    MPI_Wait(&mix[0], MPI_STATUS_IGNORE);
    CHECK(b == n, "Allreduce after get_status: %d", b);
    for (int k = 0; k < 4; ++k) MPI_Request_free(&mix[k]);
    /* Starting an active request is an error. */
    MPI_Request bar;
    MPI_Barrier_init(comm, MPI_INFO_NULL, &bar);
    MPI_Start(&bar);
    int rc = MPI_Start(&bar), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_REQUEST, "MPI_Start of an active request: class %d", cls);
    MPI_Wait(&bar, MPI_STATUS_IGNORE);
    MPI_Request_free(&bar);
    /* Init argument errors. */
    rc = MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &bar);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Barrier_init(MPI_COMM_NULL): class %d", cls);
  }

  freed_after_init();
  inter_freed_after_init();
  MPI_Comm_free(&comm);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
