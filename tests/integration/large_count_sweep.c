/* large_count_sweep.c - the MPI-4 large-count (_c) calls with small counts
 * behave as the int calls: each is run next to its int form on the same
 * data and the results compared (and checked against the expected values).
 * Any np >= 2. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int g_rank, g_size, g_errors;

#define CHECK(cond, ...)                                       \
  do {                                                         \
    if (!(cond)) {                                             \
      ++g_errors;                                              \
      fprintf(stderr, "rank %d: line %d: ", g_rank, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                            \
      fprintf(stderr, "\n");                                   \
    }                                                          \
  } while (0)
#define MPI_OK(call) CHECK((call) == MPI_SUCCESS, "%s failed", #call)
#define SAME(a, b, n, what) CHECK(memcmp((a), (b), (n)) == 0, "%s: _c and int forms differ", what)

enum { N = 5, MAXP = 16 };

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t) {
  int i;
  (void)t;
  for (i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}
static void user_sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *t) {
  MPI_Count i;
  (void)t;
  for (i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

static void p2p(void) {
  int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size, i, k;
  int out[N], in[N], in2[N];
  MPI_Status st;
  MPI_Request r[2];
  MPI_Count c;
  for (i = 0; i < N; ++i) out[i] = g_rank * 100 + i;
  for (k = 0; k < 4; ++k) { /* Send_c, Ssend_c, Rsend_c (a receive is posted), Bsend_c */
    memset(in, 0, sizeof in);
    MPI_OK(MPI_Irecv_c(in, N, MPI_INT, prev, 10 + k, MPI_COMM_WORLD, &r[0]));
    MPI_Barrier(MPI_COMM_WORLD);
    if (k == 0) MPI_OK(MPI_Send_c(out, N, MPI_INT, next, 10, MPI_COMM_WORLD));
    if (k == 1) MPI_OK(MPI_Ssend_c(out, N, MPI_INT, next, 11, MPI_COMM_WORLD));
    if (k == 2) MPI_OK(MPI_Rsend_c(out, N, MPI_INT, next, 12, MPI_COMM_WORLD));
    if (k == 3) {
      MPI_Count bsize = 0;
      void *b = malloc(4096), *back = NULL;
      MPI_OK(MPI_Buffer_attach_c(b, 4096));
      MPI_OK(MPI_Bsend_c(out, N, MPI_INT, next, 13, MPI_COMM_WORLD));
      MPI_OK(MPI_Wait(&r[0], &st));
      MPI_OK(MPI_Buffer_detach_c(&back, &bsize));
      CHECK(back == b && bsize == 4096, "MPI_Buffer_detach_c: %lld", (long long)bsize);
      free(b);
    } else {
      MPI_OK(MPI_Wait(&r[0], &st));
    }
    for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "send form %d: %d", k, in[i]);
    MPI_OK(MPI_Get_count_c(&st, MPI_INT, &c));
    CHECK(c == N, "MPI_Get_count_c %lld", (long long)c);
  }
  for (k = 0; k < 4; ++k) { /* Isend_c, Issend_c, Irsend_c, Ibsend_c with Recv_c */
    void *b = malloc(4096), *back;
    MPI_Count bsize;
    memset(in, 0, sizeof in);
    if (k == 3) MPI_OK(MPI_Buffer_attach_c(b, 4096));
    MPI_OK(MPI_Irecv(in2, N, MPI_INT, prev, 20 + k, MPI_COMM_WORLD, &r[1]));
    MPI_Barrier(MPI_COMM_WORLD);
    if (k == 0) MPI_OK(MPI_Isend_c(out, N, MPI_INT, next, 20, MPI_COMM_WORLD, &r[0]));
    if (k == 1) MPI_OK(MPI_Issend_c(out, N, MPI_INT, next, 21, MPI_COMM_WORLD, &r[0]));
    if (k == 2) MPI_OK(MPI_Irsend_c(out, N, MPI_INT, next, 22, MPI_COMM_WORLD, &r[0]));
    if (k == 3) MPI_OK(MPI_Ibsend_c(out, N, MPI_INT, next, 23, MPI_COMM_WORLD, &r[0]));
    MPI_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    if (k == 3) MPI_OK(MPI_Buffer_detach_c(&back, &bsize));
    free(b);
    for (i = 0; i < N; ++i) CHECK(in2[i] == prev * 100 + i, "isend form %d: %d", k, in2[i]);
  }
  /* persistent */
  {
    MPI_Request pr[2];
    void *b = malloc(4096), *back;
    MPI_Count bsize;
    MPI_OK(MPI_Buffer_attach_c(b, 4096));
    for (k = 0; k < 4; ++k) {
      memset(in, 0, sizeof in);
      MPI_OK(MPI_Recv_init_c(in, N, MPI_INT, prev, 30 + k, MPI_COMM_WORLD, &pr[1]));
      if (k == 0) MPI_OK(MPI_Send_init_c(out, N, MPI_INT, next, 30, MPI_COMM_WORLD, &pr[0]));
      if (k == 1) MPI_OK(MPI_Ssend_init_c(out, N, MPI_INT, next, 31, MPI_COMM_WORLD, &pr[0]));
      if (k == 2) MPI_OK(MPI_Rsend_init_c(out, N, MPI_INT, next, 32, MPI_COMM_WORLD, &pr[0]));
      if (k == 3) MPI_OK(MPI_Bsend_init_c(out, N, MPI_INT, next, 33, MPI_COMM_WORLD, &pr[0]));
      MPI_OK(MPI_Start(&pr[1]));
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_OK(MPI_Start(&pr[0]));
      MPI_OK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
      for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "persistent form %d", k);
      MPI_Request_free(&pr[0]);
      MPI_Request_free(&pr[1]);
    }
    MPI_OK(MPI_Buffer_detach_c(&back, &bsize));
    free(b);
  }
  /* sendrecv and friends */
  memset(in, 0, sizeof in);
  MPI_OK(MPI_Sendrecv_c(out, N, MPI_INT, next, 40, in, N, MPI_INT, prev, 40, MPI_COMM_WORLD, &st));
  for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Sendrecv_c");
  memcpy(in, out, sizeof in);
  MPI_OK(MPI_Sendrecv_replace_c(in, N, MPI_INT, next, 41, prev, 41, MPI_COMM_WORLD, &st));
  for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Sendrecv_replace_c");
  memset(in, 0, sizeof in);
  MPI_OK(
      MPI_Isendrecv_c(out, N, MPI_INT, next, 42, in, N, MPI_INT, prev, 42, MPI_COMM_WORLD, &r[0]));
  MPI_OK(MPI_Wait(&r[0], &st));
  for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Isendrecv_c");
  memcpy(in, out, sizeof in);
  MPI_OK(MPI_Isendrecv_replace_c(in, N, MPI_INT, next, 43, prev, 43, MPI_COMM_WORLD, &r[0]));
  MPI_OK(MPI_Wait(&r[0], &st));
  for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Isendrecv_replace_c");
  /* matched probe */
  {
    MPI_Message m;
    int flag = 0;
    MPI_OK(MPI_Isend(out, N, MPI_INT, next, 44, MPI_COMM_WORLD, &r[0]));
    MPI_OK(MPI_Mprobe(prev, 44, MPI_COMM_WORLD, &m, &st));
    memset(in, 0, sizeof in);
    MPI_OK(MPI_Mrecv_c(in, N, MPI_INT, &m, &st));
    MPI_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Mrecv_c");
    MPI_OK(MPI_Isend(out, N, MPI_INT, next, 45, MPI_COMM_WORLD, &r[0]));
    while (!flag) MPI_OK(MPI_Improbe(prev, 45, MPI_COMM_WORLD, &flag, &m, &st));
    memset(in, 0, sizeof in);
    MPI_OK(MPI_Imrecv_c(in, N, MPI_INT, &m, &r[1]));
    MPI_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    for (i = 0; i < N; ++i) CHECK(in[i] == prev * 100 + i, "MPI_Imrecv_c");
  }
  {
    MPI_Status s2;
    MPI_OK(MPI_Status_set_elements_c(&s2, MPI_INT, 7));
    MPI_OK(MPI_Get_elements_c(&s2, MPI_INT, &c));
    CHECK(c == 7, "MPI_Status_set_elements_c / MPI_Get_elements_c: %lld", (long long)c);
  }
}

/* Runs a collective in its int form (a) and its _c form (b), blocking,
 * nonblocking and persistent; compares. */
static void colls(void) {
  int p = g_size, i, j, root = p - 1;
  int sb[MAXP * N], a[MAXP * N], b[MAXP * N];
  int cnt[MAXP], dsp[MAXP], sym[MAXP];
  MPI_Count ccnt[MAXP], csym[MAXP];
  MPI_Aint cdsp[MAXP], bdsp[MAXP];
  int ibdsp[MAXP];
  MPI_Datatype types[MAXP];
  MPI_Request r;
  MPI_Op op, op_c;
  for (i = 0; i < MAXP * N; ++i) sb[i] = g_rank * 1000 + i;
  for (i = 0; i < p; ++i) {
    cnt[i] = ccnt[i] = 1 + i % 3;
    sym[i] = csym[i] = 1 + (g_rank + i) % 3; /* what i and this rank exchange both ways */
    dsp[i] = cdsp[i] = i * N;
    ibdsp[i] = i * N * (int)sizeof(int);
    bdsp[i] = ibdsp[i];
    types[i] = MPI_INT;
  }
#define RUN3(what, intcall, ccall, icall, initcall) \
  do {                                              \
    int form;                                       \
    memset(a, 0, sizeof a);                         \
    MPI_OK(intcall);                                \
    for (form = 0; form < 3; ++form) {              \
      memset(b, 0, sizeof b);                       \
      if (form == 0) MPI_OK(ccall);                 \
      if (form == 1) {                              \
        MPI_OK(icall);                              \
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));    \
      }                                             \
      if (form == 2) {                              \
        MPI_OK(initcall);                           \
        MPI_OK(MPI_Start(&r));                      \
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));    \
        MPI_OK(MPI_Request_free(&r));               \
      }                                             \
      SAME(a, b, sizeof a, what);                   \
    }                                               \
  } while (0)
  memcpy(a, sb, sizeof a);
  memcpy(b, sb, sizeof b);
  MPI_OK(MPI_Bcast(a, N, MPI_INT, root, MPI_COMM_WORLD));
  MPI_OK(MPI_Bcast_c(b, N, MPI_INT, root, MPI_COMM_WORLD));
  SAME(a, b, sizeof a, "MPI_Bcast_c");
  for (i = 0; i < N; ++i) CHECK(b[i] == root * 1000 + i, "MPI_Bcast_c value");
  memcpy(b, sb, sizeof b);
  MPI_OK(MPI_Ibcast_c(b, N, MPI_INT, root, MPI_COMM_WORLD, &r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  SAME(a, b, N * sizeof(int), "MPI_Ibcast_c");
  memcpy(b, sb, sizeof b);
  MPI_OK(MPI_Bcast_init_c(b, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  MPI_OK(MPI_Start(&r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_OK(MPI_Request_free(&r));
  SAME(a, b, N * sizeof(int), "MPI_Bcast_init_c");

  RUN3("MPI_Reduce_c", MPI_Reduce(sb, a, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
       MPI_Reduce_c(sb, b, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
       MPI_Ireduce_c(sb, b, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &r),
       MPI_Reduce_init_c(sb, b, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Allreduce_c", MPI_Allreduce(sb, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Allreduce_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Iallreduce_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
       MPI_Allreduce_init_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (i = 0; i < N; ++i)
    CHECK(b[i] == 1000 * p * (p - 1) / 2 + p * i, "MPI_Allreduce_c value %d", b[i]);
  RUN3("MPI_Scan_c", MPI_Scan(sb, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Scan_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Iscan_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
       MPI_Scan_init_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Exscan_c", MPI_Exscan(sb, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Exscan_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Iexscan_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
       MPI_Exscan_init_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Reduce_scatter_c", MPI_Reduce_scatter(sb, a, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Reduce_scatter_c(sb, b, ccnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Ireduce_scatter_c(sb, b, ccnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
       MPI_Reduce_scatter_init_c(sb, b, ccnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Reduce_scatter_block_c",
       MPI_Reduce_scatter_block(sb, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Reduce_scatter_block_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
       MPI_Ireduce_scatter_block_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
       MPI_Reduce_scatter_block_init_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                       &r));
  RUN3("MPI_Gather_c", MPI_Gather(sb, N, MPI_INT, a, N, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Gather_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Igather_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_Gather_init_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Gatherv_c",
       MPI_Gatherv(sb, cnt[g_rank], MPI_INT, a, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Gatherv_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Igatherv_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_Gatherv_init_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, root, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r));
  RUN3("MPI_Allgather_c", MPI_Allgather(sb, N, MPI_INT, a, N, MPI_INT, MPI_COMM_WORLD),
       MPI_Allgather_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD),
       MPI_Iallgather_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD, &r),
       MPI_Allgather_init_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (i = 0; i < p; ++i)
    for (j = 0; j < N; ++j) CHECK(b[i * N + j] == i * 1000 + j, "MPI_Allgather_c value");
  RUN3("MPI_Allgatherv_c",
       MPI_Allgatherv(sb, cnt[g_rank], MPI_INT, a, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
       MPI_Allgatherv_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD),
       MPI_Iallgatherv_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD, &r),
       MPI_Allgatherv_init_c(sb, ccnt[g_rank], MPI_INT, b, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
  RUN3("MPI_Scatter_c", MPI_Scatter(sb, N, MPI_INT, a, N, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Scatter_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD),
       MPI_Iscatter_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_Scatter_init_c(sb, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  RUN3("MPI_Scatterv_c",
       MPI_Scatterv(sb, cnt, dsp, MPI_INT, a, cnt[g_rank], MPI_INT, root, MPI_COMM_WORLD),
       MPI_Scatterv_c(sb, ccnt, cdsp, MPI_INT, b, ccnt[g_rank], MPI_INT, root, MPI_COMM_WORLD),
       MPI_Iscatterv_c(sb, ccnt, cdsp, MPI_INT, b, ccnt[g_rank], MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_Scatterv_init_c(sb, ccnt, cdsp, MPI_INT, b, ccnt[g_rank], MPI_INT, root, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &r));
  RUN3("MPI_Alltoall_c", MPI_Alltoall(sb, N, MPI_INT, a, N, MPI_INT, MPI_COMM_WORLD),
       MPI_Alltoall_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD),
       MPI_Ialltoall_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD, &r),
       MPI_Alltoall_init_c(sb, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (i = 0; i < p; ++i)
    for (j = 0; j < N; ++j)
      CHECK(b[i * N + j] == i * 1000 + g_rank * N + j, "MPI_Alltoall_c value");
  RUN3("MPI_Alltoallv_c",
       MPI_Alltoallv(sb, sym, dsp, MPI_INT, a, sym, dsp, MPI_INT, MPI_COMM_WORLD),
       MPI_Alltoallv_c(sb, csym, cdsp, MPI_INT, b, csym, cdsp, MPI_INT, MPI_COMM_WORLD),
       MPI_Ialltoallv_c(sb, csym, cdsp, MPI_INT, b, csym, cdsp, MPI_INT, MPI_COMM_WORLD, &r),
       MPI_Alltoallv_init_c(sb, csym, cdsp, MPI_INT, b, csym, cdsp, MPI_INT, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &r));
  RUN3("MPI_Alltoallw_c",
       MPI_Alltoallw(sb, sym, ibdsp, types, a, sym, ibdsp, types, MPI_COMM_WORLD),
       MPI_Alltoallw_c(sb, csym, bdsp, types, b, csym, bdsp, types, MPI_COMM_WORLD),
       MPI_Ialltoallw_c(sb, csym, bdsp, types, b, csym, bdsp, types, MPI_COMM_WORLD, &r),
       MPI_Alltoallw_init_c(sb, csym, bdsp, types, b, csym, bdsp, types, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &r));
  /* user operations, int and MPI_Count */
  MPI_OK(MPI_Op_create(user_sum, 1, &op));
  MPI_OK(MPI_Op_create_c(user_sum_c, 1, &op_c));
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  MPI_OK(MPI_Allreduce(sb, a, N, MPI_INT, op, MPI_COMM_WORLD));
  MPI_OK(MPI_Allreduce_c(sb, b, N, MPI_INT, op_c, MPI_COMM_WORLD));
  SAME(a, b, sizeof a, "MPI_Op_create_c");
  memset(b, 0, sizeof b);
  MPI_OK(MPI_Allreduce_c(sb, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  SAME(a, b, sizeof a, "MPI_Op_create vs MPI_SUM");
  memcpy(a, sb, sizeof a);
  memcpy(b, sb, sizeof b);
  MPI_OK(MPI_Reduce_local(sb, a, N, MPI_INT, op));
  MPI_OK(MPI_Reduce_local_c(sb, b, N, MPI_INT, op_c));
  SAME(a, b, sizeof a, "MPI_Reduce_local_c");
  CHECK(b[1] == 2 * sb[1], "MPI_Reduce_local_c value");
  MPI_Op_free(&op);
  MPI_Op_free(&op_c);
}

static void neighbours(void) {
  int dims[1] = {g_size}, periods[1] = {1}, i;
  int sb[2 * N], a[2 * N], b[2 * N], cnt[2] = {N, N}, dsp[2] = {0, N};
  MPI_Count ccnt[2] = {N, N};
  MPI_Aint cdsp[2] = {0, N}, bdsp[2] = {0, N * sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Comm cart;
  MPI_Request r;
  MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
  for (i = 0; i < 2 * N; ++i) sb[i] = g_rank * 100 + i;
  RUN3("MPI_Neighbor_allgather_c", MPI_Neighbor_allgather(sb, N, MPI_INT, a, N, MPI_INT, cart),
       MPI_Neighbor_allgather_c(sb, N, MPI_INT, b, N, MPI_INT, cart),
       MPI_Ineighbor_allgather_c(sb, N, MPI_INT, b, N, MPI_INT, cart, &r),
       MPI_Neighbor_allgather_init_c(sb, N, MPI_INT, b, N, MPI_INT, cart, MPI_INFO_NULL, &r));
  RUN3("MPI_Neighbor_allgatherv_c",
       MPI_Neighbor_allgatherv(sb, N, MPI_INT, a, cnt, dsp, MPI_INT, cart),
       MPI_Neighbor_allgatherv_c(sb, N, MPI_INT, b, ccnt, cdsp, MPI_INT, cart),
       MPI_Ineighbor_allgatherv_c(sb, N, MPI_INT, b, ccnt, cdsp, MPI_INT, cart, &r),
       MPI_Neighbor_allgatherv_init_c(sb, N, MPI_INT, b, ccnt, cdsp, MPI_INT, cart, MPI_INFO_NULL,
                                      &r));
  RUN3("MPI_Neighbor_alltoall_c", MPI_Neighbor_alltoall(sb, N, MPI_INT, a, N, MPI_INT, cart),
       MPI_Neighbor_alltoall_c(sb, N, MPI_INT, b, N, MPI_INT, cart),
       MPI_Ineighbor_alltoall_c(sb, N, MPI_INT, b, N, MPI_INT, cart, &r),
       MPI_Neighbor_alltoall_init_c(sb, N, MPI_INT, b, N, MPI_INT, cart, MPI_INFO_NULL, &r));
  RUN3("MPI_Neighbor_alltoallv_c",
       MPI_Neighbor_alltoallv(sb, cnt, dsp, MPI_INT, a, cnt, dsp, MPI_INT, cart),
       MPI_Neighbor_alltoallv_c(sb, ccnt, cdsp, MPI_INT, b, ccnt, cdsp, MPI_INT, cart),
       MPI_Ineighbor_alltoallv_c(sb, ccnt, cdsp, MPI_INT, b, ccnt, cdsp, MPI_INT, cart, &r),
       MPI_Neighbor_alltoallv_init_c(sb, ccnt, cdsp, MPI_INT, b, ccnt, cdsp, MPI_INT, cart,
                                     MPI_INFO_NULL, &r));
  RUN3("MPI_Neighbor_alltoallw_c",
       MPI_Neighbor_alltoallw(sb, cnt, bdsp, types, a, cnt, bdsp, types, cart),
       MPI_Neighbor_alltoallw_c(sb, ccnt, bdsp, types, b, ccnt, bdsp, types, cart),
       MPI_Ineighbor_alltoallw_c(sb, ccnt, bdsp, types, b, ccnt, bdsp, types, cart, &r),
       MPI_Neighbor_alltoallw_init_c(sb, ccnt, bdsp, types, b, ccnt, bdsp, types, cart,
                                     MPI_INFO_NULL, &r));
  MPI_Comm_free(&cart);
}

/* Each constructor's _c form makes the same type: same size, extent and packed bytes. */
static void same_type(MPI_Datatype t1, MPI_Datatype t2, const char *what) {
  int data[256], i, pos1 = 0, s1;
  char p1[2048], p2[2048];
  MPI_Count pos2 = 0, s2, l2, e2;
  MPI_Aint l1, e1;
  for (i = 0; i < 256; ++i) data[i] = i;
  MPI_OK(MPI_Type_commit(&t1));
  MPI_OK(MPI_Type_commit(&t2));
  MPI_OK(MPI_Type_size(t1, &s1));
  MPI_OK(MPI_Type_size_c(t2, &s2));
  CHECK(s1 == s2, "%s: sizes %d %lld", what, s1, (long long)s2);
  MPI_OK(MPI_Type_get_extent(t1, &l1, &e1));
  MPI_OK(MPI_Type_get_extent_c(t2, &l2, &e2));
  CHECK(l1 == l2 && e1 == e2, "%s: extents", what);
  MPI_OK(MPI_Pack(data, 1, t1, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
  MPI_OK(MPI_Pack_c(data, 1, t2, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
  CHECK(pos1 == pos2 && memcmp(p1, p2, (size_t)pos1) == 0, "%s: packed forms differ", what);
  MPI_Type_free(&t1);
  MPI_Type_free(&t2);
}

static void datatypes(void) {
  MPI_Datatype t1, t2;
  int bl[3] = {2, 1, 3}, di[3] = {0, 5, 9}, sz[2] = {6, 8}, sub[2] = {2, 3}, st[2] = {1, 2};
  int distrib[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
      darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psz[2] = {1, 1};
  MPI_Count cbl[3] = {2, 1, 3}, cdi[3] = {0, 5, 9}, csz[2] = {6, 8}, csub[2] = {2, 3},
            cst[2] = {1, 2}, cbd[3] = {0, 20, 36};
  MPI_Aint bd[3] = {0, 20, 36};
  MPI_Datatype ty[3] = {MPI_INT, MPI_SHORT, MPI_INT};
  MPI_Count ni, na, nl, nd, large[16];
  int comb, ints[16];
  MPI_Aint addrs[16];
  MPI_Datatype inner[4];
  MPI_Type_contiguous(7, MPI_INT, &t1);
  MPI_Type_contiguous_c(7, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_contiguous_c");
  MPI_Type_vector(3, 2, 4, MPI_INT, &t1);
  MPI_Type_vector_c(3, 2, 4, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_vector_c");
  MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t1);
  MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_hvector_c");
  MPI_Type_indexed(3, bl, di, MPI_INT, &t1);
  MPI_Type_indexed_c(3, cbl, cdi, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_indexed_c");
  MPI_Type_create_hindexed(3, bl, bd, MPI_INT, &t1);
  MPI_Type_create_hindexed_c(3, cbl, cbd, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_hindexed_c");
  MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &t1);
  MPI_Type_create_indexed_block_c(3, 2, cdi, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_indexed_block_c");
  MPI_Type_create_hindexed_block(3, 2, bd, MPI_INT, &t1);
  MPI_Type_create_hindexed_block_c(3, 2, cbd, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_hindexed_block_c");
  MPI_Type_create_struct(3, bl, bd, ty, &t1);
  MPI_Type_create_struct_c(3, cbl, cbd, ty, &t2);
  same_type(t1, t2, "MPI_Type_create_struct_c");
  MPI_Type_create_resized(MPI_INT, -4, 12, &t1);
  MPI_Type_create_resized_c(MPI_INT, -4, 12, &t2);
  same_type(t1, t2, "MPI_Type_create_resized_c");
  MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t1);
  MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_subarray_c");
  MPI_Type_create_darray(1, 0, 2, sz, distrib, darg, psz, MPI_ORDER_C, MPI_INT, &t1);
  MPI_Type_create_darray_c(1, 0, 2, csz, distrib, darg, psz, MPI_ORDER_C, MPI_INT, &t2);
  same_type(t1, t2, "MPI_Type_create_darray_c");
  /* envelopes: an int constructor's, then a _c constructor's (MPI-4.0 5.1.13) */
  MPI_Type_vector(3, 2, 4, MPI_INT, &t1);
  MPI_OK(MPI_Type_get_envelope_c(t1, &ni, &na, &nl, &nd, &comb));
  CHECK(ni == 3 && na == 0 && nl == 0 && nd == 1 && comb == MPI_COMBINER_VECTOR,
        "envelope of MPI_Type_vector");
  MPI_Type_free(&t1);
  MPI_Type_vector_c(3, 2, 4, MPI_INT, &t2);
  MPI_OK(MPI_Type_get_envelope_c(t2, &ni, &na, &nl, &nd, &comb));
  CHECK(ni == 0 && na == 0 && nl == 3 && nd == 1 && comb == MPI_COMBINER_VECTOR,
        "envelope of MPI_Type_vector_c: %lld %lld %lld", (long long)ni, (long long)na,
        (long long)nl);
  MPI_OK(MPI_Type_get_contents_c(t2, 0, 0, 3, 1, ints, addrs, large, inner));
  CHECK(large[0] == 3 && large[1] == 2 && large[2] == 4 && inner[0] == MPI_INT,
        "contents of MPI_Type_vector_c");
  MPI_Type_free(&t2);
  MPI_Type_create_struct_c(3, cbl, cbd, ty, &t2);
  MPI_OK(MPI_Type_get_envelope_c(t2, &ni, &na, &nl, &nd, &comb));
  CHECK(ni == 0 && na == 0 && nl == 7 && nd == 3 && comb == MPI_COMBINER_STRUCT,
        "envelope of MPI_Type_create_struct_c");
  MPI_OK(MPI_Type_get_contents_c(t2, 0, 0, 7, 3, ints, addrs, large, inner));
  CHECK(large[0] == 3 && large[1] == 2 && large[4] == 0 && large[6] == 36 && inner[1] == MPI_SHORT,
        "contents of MPI_Type_create_struct_c");
  MPI_Type_free(&t2);
  MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT, &t2);
  MPI_OK(MPI_Type_get_envelope_c(t2, &ni, &na, &nl, &nd, &comb));
  CHECK(ni == 2 && nl == 6 && comb == MPI_COMBINER_SUBARRAY, "envelope of subarray_c");
  MPI_OK(MPI_Type_get_contents_c(t2, 2, 0, 6, 1, ints, addrs, large, inner));
  CHECK(ints[0] == 2 && ints[1] == MPI_ORDER_C && large[0] == 6 && large[3] == 3 && large[5] == 2,
        "contents of subarray_c");
  MPI_Type_free(&t2);
  /* pack / unpack / external32 */
  {
    int in[N] = {1, -2, 3, -4, 5}, out[N];
    char ext1[64], ext2[64];
    MPI_Aint s1, p1 = 0, q1 = 0;
    MPI_Count s2, p2 = 0, q2 = 0;
    int is1, ip1 = 0;
    MPI_OK(MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &is1));
    MPI_OK(MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &s2));
    CHECK(is1 == s2, "MPI_Pack_size_c");
    MPI_OK(MPI_Pack(in, N, MPI_INT, ext1, sizeof ext1, &ip1, MPI_COMM_WORLD));
    memset(out, 0, sizeof out);
    MPI_OK(MPI_Unpack_c(ext1, ip1, &q2, out, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(q2 == ip1 && memcmp(in, out, sizeof in) == 0, "MPI_Unpack_c");
    MPI_OK(MPI_Pack_external_size("external32", N, MPI_INT, &s1));
    MPI_OK(MPI_Pack_external_size_c("external32", N, MPI_INT, &s2));
    CHECK(s1 == s2 && s2 == 4 * N, "MPI_Pack_external_size_c");
    MPI_OK(MPI_Pack_external("external32", in, N, MPI_INT, ext1, sizeof ext1, &p1));
    MPI_OK(MPI_Pack_external_c("external32", in, N, MPI_INT, ext2, sizeof ext2, &p2));
    CHECK(p1 == p2 && memcmp(ext1, ext2, (size_t)p1) == 0, "MPI_Pack_external_c");
    memset(out, 0, sizeof out);
    q2 = 0;
    MPI_OK(MPI_Unpack_external_c("external32", ext2, p2, &q2, out, N, MPI_INT));
    CHECK(q2 == p2 && memcmp(in, out, sizeof in) == 0, "MPI_Unpack_external_c");
    (void)q1;
  }
}

static void one_sided(void) {
  int *base, *sbase, i, next = (g_rank + 1) % g_size, v[N], res[N], res2[N];
  MPI_Win win, swin;
  MPI_Comm node;
  MPI_Request r;
  MPI_Aint ssize, sdisp;
  MPI_OK(MPI_Win_allocate_c(4 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                            &win));
  for (i = 0; i < 4 * N; ++i) base[i] = 0;
  for (i = 0; i < N; ++i) v[i] = g_rank * 10 + i;
  MPI_OK(MPI_Win_fence(0, win));
  MPI_OK(MPI_Put_c(v, N, MPI_INT, next, 0, N, MPI_INT, win));
  MPI_OK(MPI_Accumulate_c(v, N, MPI_INT, next, 2 * N, N, MPI_INT, MPI_SUM, win));
  MPI_OK(MPI_Win_fence(0, win));
  /* the request forms in a passive-target epoch */
  MPI_OK(MPI_Win_lock_all(0, win));
  MPI_OK(MPI_Rput_c(v, N, MPI_INT, next, N, N, MPI_INT, win, &r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_OK(MPI_Raccumulate_c(v, N, MPI_INT, next, 2 * N, N, MPI_INT, MPI_SUM, win, &r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_OK(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_OK(MPI_Win_fence(0, win));
  {
    int prev = (g_rank + g_size - 1) % g_size;
    for (i = 0; i < N; ++i) {
      CHECK(base[i] == prev * 10 + i && base[N + i] == prev * 10 + i, "MPI_Put_c / MPI_Rput_c");
      CHECK(base[2 * N + i] == 2 * (prev * 10 + i), "MPI_Accumulate_c / MPI_Raccumulate_c");
    }
  }
  MPI_OK(MPI_Win_fence(0, win));
  memset(res, 0, sizeof res);
  MPI_OK(MPI_Get_c(res, N, MPI_INT, next, 0, N, MPI_INT, win));
  MPI_OK(
      MPI_Get_accumulate_c(v, N, MPI_INT, res2, N, MPI_INT, next, 3 * N, N, MPI_INT, MPI_SUM, win));
  MPI_OK(MPI_Win_fence(0, win));
  for (i = 0; i < N; ++i) CHECK(res[i] == g_rank * 10 + i, "MPI_Get_c");
  for (i = 0; i < N; ++i) CHECK(res2[i] == 0, "MPI_Get_accumulate_c's result");
  MPI_OK(MPI_Win_fence(0, win));
  MPI_OK(MPI_Win_lock_all(0, win));
  memset(res, 0, sizeof res);
  MPI_OK(MPI_Rget_c(res, N, MPI_INT, next, N, N, MPI_INT, win, &r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_OK(MPI_Rget_accumulate_c(v, N, MPI_INT, res2, N, MPI_INT, next, 3 * N, N, MPI_INT, MPI_SUM,
                               win, &r));
  MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_OK(MPI_Win_unlock_all(win));
  for (i = 0; i < N; ++i) CHECK(res[i] == g_rank * 10 + i, "MPI_Rget_c");
  for (i = 0; i < N; ++i) CHECK(res2[i] == g_rank * 10 + i, "MPI_Rget_accumulate_c's result");
  MPI_OK(MPI_Win_fence(0, win));
  MPI_OK(MPI_Win_free(&win));
  /* shared memory among the procs of this client */
  MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPI_OK(
      MPI_Win_allocate_shared_c(N * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &sbase, &swin));
  MPI_OK(MPI_Win_shared_query_c(swin, 0, &ssize, &sdisp, &base));
  CHECK(ssize == N * sizeof(int) && sdisp == sizeof(int), "MPI_Win_shared_query_c: %ld %ld",
        (long)ssize, (long)sdisp);
  MPI_OK(MPI_Win_free(&swin));
  MPI_Comm_free(&node);
}

static void file_io(void) {
  char path[256];
  MPI_File fh;
  MPI_Status st;
  MPI_Request r;
  MPI_Count c;
  int v[N], w[N], i;
  MPI_Offset off = (MPI_Offset)g_rank * 8 * N * sizeof(int);
  snprintf(path, sizeof path, "/tmp/impi_large_count_sweep_%d.dat", (int)getppid());
  if (g_rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  /* (the launcher's pid is the same for every proc of a client, not across
   * clients: every rank uses rank 0's name) */
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  for (i = 0; i < N; ++i) v[i] = g_rank * 100 + i;
  MPI_OK(MPI_File_write_at_c(fh, off, v, N, MPI_INT, &st));
  MPI_OK(MPI_Get_count_c(&st, MPI_INT, &c));
  CHECK(c == N, "MPI_File_write_at_c count %lld", (long long)c);
  MPI_OK(MPI_File_write_at_all_c(fh, off + N * sizeof(int), v, N, MPI_INT, &st));
  MPI_OK(MPI_File_iwrite_at_c(fh, off + 2 * N * sizeof(int), v, N, MPI_INT, &r));
  MPI_OK(MPI_Wait(&r, &st));
  MPI_OK(MPI_File_iwrite_at_all_c(fh, off + 3 * N * sizeof(int), v, N, MPI_INT, &r));
  MPI_OK(MPI_Wait(&r, &st));
  MPI_OK(MPI_File_write_at_all_begin_c(fh, off + 4 * N * sizeof(int), v, N, MPI_INT));
  MPI_OK(MPI_File_write_at_all_end(fh, v, &st));
  MPI_OK(MPI_File_seek(fh, off + 5 * N * sizeof(int), MPI_SEEK_SET));
  MPI_OK(MPI_File_write_c(fh, v, N, MPI_INT, &st));
  MPI_OK(MPI_File_iwrite_c(fh, v, N, MPI_INT, &r));
  MPI_OK(MPI_Wait(&r, &st));
  MPI_OK(MPI_File_sync(fh));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_OK(MPI_File_sync(fh));
  for (i = 0; i < 7; ++i) {
    memset(w, 0, sizeof w);
    if (i == 0) MPI_OK(MPI_File_read_at_c(fh, off, w, N, MPI_INT, &st));
    if (i == 1) MPI_OK(MPI_File_read_at_all_c(fh, off + N * sizeof(int), w, N, MPI_INT, &st));
    if (i == 2) {
      MPI_OK(MPI_File_iread_at_c(fh, off + 2 * N * sizeof(int), w, N, MPI_INT, &r));
      MPI_OK(MPI_Wait(&r, &st));
    }
    if (i == 3) {
      MPI_OK(MPI_File_iread_at_all_c(fh, off + 3 * N * sizeof(int), w, N, MPI_INT, &r));
      MPI_OK(MPI_Wait(&r, &st));
    }
    if (i == 4) {
      MPI_OK(MPI_File_read_at_all_begin_c(fh, off + 4 * N * sizeof(int), w, N, MPI_INT));
      MPI_OK(MPI_File_read_at_all_end(fh, w, &st));
    }
    if (i == 5) {
      MPI_OK(MPI_File_seek(fh, off + 5 * N * sizeof(int), MPI_SEEK_SET));
      MPI_OK(MPI_File_read_c(fh, w, N, MPI_INT, &st));
    }
    if (i == 6) {
      MPI_OK(MPI_File_iread_c(fh, w, N, MPI_INT, &r));
      MPI_OK(MPI_Wait(&r, &st));
    }
    CHECK(memcmp(v, w, sizeof v) == 0, "file read form %d", i);
  }
  /* collective individual-pointer forms */
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  MPI_OK(MPI_File_write_all_c(fh, v, N, MPI_INT, &st));
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  memset(w, 0, sizeof w);
  MPI_OK(MPI_File_read_all_c(fh, w, N, MPI_INT, &st));
  CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_read_all_c");
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  MPI_OK(MPI_File_iwrite_all_c(fh, v, N, MPI_INT, &r));
  MPI_OK(MPI_Wait(&r, &st));
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  MPI_OK(MPI_File_write_all_begin_c(fh, v, N, MPI_INT));
  MPI_OK(MPI_File_write_all_end(fh, v, &st));
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  MPI_OK(MPI_File_read_all_begin_c(fh, w, N, MPI_INT));
  MPI_OK(MPI_File_read_all_end(fh, w, &st));
  MPI_OK(MPI_File_seek(fh, off + 7 * N * sizeof(int), MPI_SEEK_SET));
  memset(w, 0, sizeof w);
  MPI_OK(MPI_File_iread_all_c(fh, w, N, MPI_INT, &r));
  MPI_OK(MPI_Wait(&r, &st));
  CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_iread_all_c");
  MPI_OK(MPI_File_close(&fh));
  /* shared and ordered: a fresh file, rank order */
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  MPI_OK(MPI_File_write_ordered_c(fh, v, N, MPI_INT, &st));
  MPI_OK(MPI_File_write_ordered_begin_c(fh, v, N, MPI_INT));
  MPI_OK(MPI_File_write_ordered_end(fh, v, &st));
  MPI_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  memset(w, 0, sizeof w);
  MPI_OK(MPI_File_read_ordered_c(fh, w, N, MPI_INT, &st));
  CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_read_ordered_c");
  memset(w, 0, sizeof w);
  MPI_OK(MPI_File_read_ordered_begin_c(fh, w, N, MPI_INT));
  MPI_OK(MPI_File_read_ordered_end(fh, w, &st));
  CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_read_ordered_begin_c");
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) {
    MPI_OK(MPI_File_write_shared_c(fh, v, N, MPI_INT, &st));
    MPI_OK(MPI_File_iwrite_shared_c(fh, v, N, MPI_INT, &r));
    MPI_OK(MPI_Wait(&r, &st));
  }
  MPI_OK(MPI_File_seek_shared(fh, 2 * g_size * N * sizeof(int), MPI_SEEK_SET)); /* collective */
  if (g_rank == 0) {
    memset(w, 0, sizeof w);
    MPI_OK(MPI_File_read_shared_c(fh, w, N, MPI_INT, &st));
    CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_read_shared_c");
    memset(w, 0, sizeof w);
    MPI_OK(MPI_File_iread_shared_c(fh, w, N, MPI_INT, &r));
    MPI_OK(MPI_Wait(&r, &st));
    CHECK(memcmp(v, w, sizeof v) == 0, "MPI_File_iread_shared_c");
  }
  {
    MPI_Count ext;
    MPI_OK(MPI_File_get_type_extent_c(fh, MPI_INT, &ext));
    CHECK(ext == sizeof(int), "MPI_File_get_type_extent_c");
  }
  MPI_OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (g_size < 2 || g_size > MAXP) {
    if (g_rank == 0) fprintf(stderr, "large_count_sweep runs at np 2..%d\n", MAXP);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
#define STEP(f)                                                              \
  do {                                                                       \
    if (getenv("SWEEP_TRACE")) fprintf(stderr, "rank %d: %s\n", g_rank, #f); \
    f();                                                                     \
  } while (0)
  STEP(p2p);
  STEP(colls);
  STEP(neighbours);
  STEP(datatypes);
  STEP(one_sided);
  STEP(file_io);
  if (g_errors == 0) printf("rank %d of %d ok\n", g_rank, g_size);
  fflush(stdout);
  MPI_Finalize();
  return g_errors ? 1 : 0;
}
