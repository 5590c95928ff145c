/* remote_check.c - point-to-point between procs of different IMPI clients
 * (short messages: one IMPI DATA packet each, external32 on the wire),
 * mixed with procs of the same client. Run with impirun --clients K.
 *  1. every ordered pair exchanges int arrays of 0, 1, 100 and 4000
 *     elements (Sendrecv), contents, source, tag and count checked;
 *  2. rank 0 receives 3 messages from every other rank with MPI_ANY_SOURCE:
 *     per sender in order (non-overtaking), local and remote mixed;
 *  3. Probe then Recv, Iprobe/Irecv/Waitall, MPI_LONG (4 bytes in external32,
 *     8 here) and a vector type;
 *  4. MPI_Issend/Ssend complete only once the receive matched (SYNCACK); a
 *     message longer than maxdatalen gives MPI_ERR_UNSUPPORTED_OPERATION.
 * Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond)) {                              \
      fprintf(stderr, "rank %d: ", rank);       \
      fprintf(stderr, __VA_ARGS__);             \
      fprintf(stderr, "\n");                    \
      ++failures;                               \
    }                                           \
  } while (0)

static void barrier(int tag) { /* (collectives are another issue) */
  int t = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank)
      MPI_Sendrecv(&t, 1, MPI_INT, p, tag, &t, 1, MPI_INT, p, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static int sbuf[4000], rbuf[4000];
  const int sizes[] = {0, 1, 100, 4000};

  /* 1. all pairs */
  for (int k = 0; k < 4; ++k)
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      int n = sizes[k], count = -1;
      MPI_Status st;
      for (int i = 0; i < n; ++i) sbuf[i] = rank * 100000 + p * 1000 + i;
      memset(rbuf, 0xff, sizeof rbuf);
      int rc = MPI_Sendrecv(sbuf, n, MPI_INT, p, 10 + k, rbuf, 4000, MPI_INT, p, 10 + k, MPI_COMM_WORLD, &st);
      CHECK(rc == MPI_SUCCESS, "Sendrecv with %d returned %d", p, rc);
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == n && st.MPI_SOURCE == p && st.MPI_TAG == 10 + k, "status from %d: count %d source %d tag %d",
            p, count, st.MPI_SOURCE, st.MPI_TAG);
      for (int i = 0; i < n; ++i)
        if (rbuf[i] != p * 100000 + rank * 1000 + i) {
          CHECK(0, "from %d, %d ints: element %d is %d", p, n, i, rbuf[i]);
          break;
        }
    }
  barrier(90);

  /* 2. wildcard receives at rank 0, three messages from everyone */
  if (rank == 0) {
    int next[64] = {0};
    for (int m = 0; m < 3 * (size - 1); ++m) {
      int v[2];
      MPI_Status st;
      MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &st);
      CHECK(v[0] == st.MPI_SOURCE && v[1] == next[st.MPI_SOURCE], "from %d: message %d, expected %d", st.MPI_SOURCE,
            v[1], next[st.MPI_SOURCE]);
      next[st.MPI_SOURCE]++;
    }
  } else {
    for (int m = 0; m < 3; ++m) {
      int v[2] = {rank, m};
      MPI_Send(v, 2, MPI_INT, 0, 20, MPI_COMM_WORLD);
    }
  }
  barrier(91);

  /* 3. probe, nonblocking, MPI_LONG, a vector type: between the first and the last rank */
  {
    int a = 0, b = size - 1;
    long lv[5];
    int vec[12];
    MPI_Datatype every_other;
    MPI_Type_vector(6, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    if (rank == a) {
      for (int i = 0; i < 5; ++i) lv[i] = 1000000 + i;
      MPI_Send(lv, 5, MPI_LONG, b, 30, MPI_COMM_WORLD);
      for (int i = 0; i < 12; ++i) vec[i] = i;
      MPI_Request rq;
      MPI_Isend(vec, 1, every_other, b, 31, MPI_COMM_WORLD, &rq);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (rank == b) {
      MPI_Status st;
      int count = -1, flag = 0;
      MPI_Probe(a, 30, MPI_COMM_WORLD, &st);
      CHECK(st.MPI_SOURCE == a && st.MPI_TAG == 30, "probe status");
      memset(lv, 0, sizeof lv);
      MPI_Recv(lv, 5, MPI_LONG, a, 30, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_LONG, &count);
      CHECK(count == 5, "MPI_LONG count %d", count);
      for (int i = 0; i < 5; ++i) CHECK(lv[i] == 1000000 + i, "long %d is %ld", i, lv[i]);
      while (!flag) MPI_Iprobe(a, 31, MPI_COMM_WORLD, &flag, &st);
      int got[6] = {0};
      MPI_Request rq;
      MPI_Irecv(got, 6, MPI_INT, a, 31, MPI_COMM_WORLD, &rq);
      MPI_Waitall(1, &rq, &st);
      for (int i = 0; i < 6; ++i) CHECK(got[i] == 2 * i, "vector element %d is %d", i, got[i]);
    }
    /* bytes (one copy each way) and a receive too small for the message */
    static char cb[3000];
    if (rank == a) {
      for (int i = 0; i < 3000; ++i) cb[i] = (char)(i * 7);
      MPI_Send(cb, 3000, MPI_CHAR, b, 32, MPI_COMM_WORLD);
      MPI_Send(cb, 100, MPI_BYTE, b, 33, MPI_COMM_WORLD);
    } else if (rank == b) {
      MPI_Status st;
      int count = -1, cls = -1;
      memset(cb, 0, sizeof cb);
      MPI_Recv(cb, 3000, MPI_CHAR, a, 32, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK(count == 3000, "char count %d", count);
      for (int i = 0; i < 3000; ++i)
        if (cb[i] != (char)(i * 7)) {
          CHECK(0, "char %d is %d", i, cb[i]);
          break;
        }
      int rc = MPI_Recv(cb, 10, MPI_BYTE, a, 33, MPI_COMM_WORLD, &st);
      MPI_Error_class(rc, &cls);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(cls == MPI_ERR_TRUNCATE && count == 10, "truncated receive: class %d count %d", cls, count);
    }
    MPI_Type_free(&every_other);
  }
  barrier(92);

  /* 4. synchronous sends complete only once matched; a message longer than
   * maxdatalen (the long protocol is not implemented yet) says so. */
  {
    int peer = size - 1, cls = -1, rc, v = 7, got = 0, flag = 1;
    static char big[100000];
    if (rank == 0) {
      MPI_Request rq;
      MPI_Issend(&v, 1, MPI_INT, peer, 40, MPI_COMM_WORLD, &rq);
      flag = 0;
      /* 50 ms of testing: long enough for a SYNCACK sent too early to arrive */
      for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 0.05;) {
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "Issend to another client completed before the receive was posted");
        if (flag) break;
      }
      int go = 1;
      MPI_Send(&go, 1, MPI_INT, peer, 42, MPI_COMM_WORLD);
      if (!flag) MPI_Wait(&rq, MPI_STATUS_IGNORE);
      rc = MPI_Ssend(&v, 1, MPI_INT, peer, 43, MPI_COMM_WORLD);
      CHECK(rc == MPI_SUCCESS, "Ssend to another client returned %d", rc);
      rc = MPI_Send(big, (int)sizeof big, MPI_BYTE, peer, 41, MPI_COMM_WORLD);
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "a long message to another client: class %d", cls);
    } else if (rank == peer) {
      int go = 0;
      MPI_Recv(&go, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&got, 1, MPI_INT, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(got == 7, "Issend payload %d", got);
      got = 0;
      MPI_Recv(&got, 1, MPI_INT, 0, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(got == 7, "Ssend payload %d", got);
    }
  }
  barrier(93);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
