/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 3.10): one request for
 * both halves, the receive half's status, a ring exchange with values
 * checked, derived types, large messages (rendezvous paths), MPI_PROC_NULL
 * peers, MPI_ANY_SOURCE / MPI_ANY_TAG, and completion by every Wait/Test. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Ring exchange, small and large (1 MiB of ints). */
  const int counts[] = {1, 100, 1 << 18};
  for (int k = 0; k < 3; ++k) {
    int n = counts[k];
    int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) {
      s[i] = rank * 1000003 + i + k;
      r[i] = -1;
    }
    MPI_Request req;
    MPI_Status st;
    int rc = MPI_Isendrecv(s, n, MPI_INT, right, 10 + k, r, n, MPI_INT, left, 10 + k,
                           MPI_COMM_WORLD, &req);
    CHECK(rc == MPI_SUCCESS, "MPI_Isendrecv returned %d", rc);
    if (k == 1) { /* completion by MPI_Test */
      int flag = 0;
      while (!flag) MPI_Test(&req, &flag, &st);
    } else {
      MPI_Wait(&req, &st);
    }
    CHECK(req == MPI_REQUEST_NULL, "request not freed");
    CHECK(st.MPI_SOURCE == left, "source %d, expected %d", st.MPI_SOURCE, left);
    CHECK(st.MPI_TAG == 10 + k, "tag %d", st.MPI_TAG);
    int got;
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(got == n, "count %d, expected %d", got, n);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += r[i] != left * 1000003 + i + k;
    CHECK(bad == 0, "Isendrecv n=%d: %d wrong values", n, bad);
    free(s);
    free(r);
  }

  /* Replace, ring, small and large; the send half must carry the old values. */
  for (int k = 0; k < 3; ++k) {
    int n = counts[k];
    double *b = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i) b[i] = rank + 0.5 * i;
    MPI_Request req;
    MPI_Status st;
    MPI_Isendrecv_replace(b, n, MPI_DOUBLE, right, 20, left, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    int idx = -1;
    MPI_Waitany(1, &req, &idx, &st);
    CHECK(idx == 0, "Waitany index %d", idx);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 20, "replace status %d/%d", st.MPI_SOURCE,
          st.MPI_TAG);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += b[i] != left + 0.5 * i;
    CHECK(bad == 0, "Isendrecv_replace n=%d: %d wrong values", n, bad);
    free(b);
  }

  /* A derived (strided) type on both halves; replace with it as well. */
  {
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int s[12], r[12];
    for (int i = 0; i < 12; ++i) {
      s[i] = rank * 100 + i;
      r[i] = -7;
    }
    MPI_Request reqs[2];
    MPI_Status sts[2];
    MPI_Isendrecv(s, 1, vec, right, 30, r, 1, vec, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &reqs[0]);
    int b[12];
    for (int i = 0; i < 12; ++i) b[i] = rank * 100 + i;
    MPI_Isendrecv_replace(b, 1, vec, left, 31, right, 31, MPI_COMM_WORLD, &reqs[1]);
    MPI_Type_free(&vec); /* the requests keep what they need */
    MPI_Waitall(2, reqs, sts);
    CHECK(sts[0].MPI_SOURCE == left, "vector source %d", sts[0].MPI_SOURCE);
    CHECK(sts[1].MPI_SOURCE == right, "vector replace source %d", sts[1].MPI_SOURCE);
    int bad = 0;
    for (int i = 0; i < 12; ++i) {
      bad += r[i] != (i % 3 == 0 ? left * 100 + i : -7);
      bad += b[i] != (i % 3 == 0 ? right * 100 + i : rank * 100 + i);
    }
    CHECK(bad == 0, "vector Isendrecv: %d wrong values", bad);
  }

  /* MPI_PROC_NULL peers: the receive half's status is MPI_PROC_NULL's. */
  {
    int x = 5, y = 9;
    MPI_Request req;
    MPI_Status st;
    MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0,
                  MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    int got = -1;
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && got == 0 && y == 9,
          "PROC_NULL status %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, got);
    /* Send to the right, receive from nobody; then the right's extra message. */
    MPI_Isendrecv(&x, 1, MPI_INT, right, 40, &y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                  &req);
    int z = -1;
    MPI_Recv(&z, 1, MPI_INT, left, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, &st);
    CHECK(z == 5 && st.MPI_SOURCE == MPI_PROC_NULL, "half PROC_NULL: %d %d", z, st.MPI_SOURCE);
  }

  /* Pending until the peer sends: the request stays incomplete (Test and
   * Request_get_status say so) until rank `left` posts its message. */
  {
    int got = -1, mine = rank;
    MPI_Request req;
    MPI_Isendrecv(&mine, 1, MPI_INT, right, 50, &got, 1, MPI_INT, left, 51, MPI_COMM_WORLD, &req);
    int flag = 1;
    MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag || size == 1, "complete before the tag-51 message was sent");
    int in = -1;
    MPI_Recv(&in, 1, MPI_INT, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&mine, 1, MPI_INT, right, 51, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Wait(&req, &st);
    CHECK(in == left && got == left && st.MPI_TAG == 51, "pending exchange %d %d %d", in, got,
          st.MPI_TAG);
  }

  /* Truncation: the receive half's error. */
  {
    int s[4] = {1, 2, 3, 4}, r[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request req;
    MPI_Status st;
    MPI_Isendrecv(s, 4, MPI_INT, right, 60, r, 2, MPI_INT, left, 60, MPI_COMM_WORLD, &req);
    int rc = MPI_Wait(&req, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncation: class %d", cls);
    /* Bad arguments: nothing is started. */
    rc = MPI_Isendrecv(s, 1, MPI_INT, size + 3, 0, r, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "bad dest: class %d", cls);
    rc = MPI_Isendrecv_replace(s, 1, MPI_INT, right, -4, left, 0, MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TAG, "bad tag: class %d", cls);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
