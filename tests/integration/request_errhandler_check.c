/* request_errhandler_check.c - an error that a completion call finds (a
 * truncated receive) goes through the error handler of the communicator
 * the operation was started on, not MPI_COMM_WORLD's, which stays
 * MPI_ERRORS_ARE_FATAL here (as Open MPI does; MPICH 4.0.2 aborts; the file
 * form is in file_check.c's test_thread_error). Ranks pair up (0-1, 2-3,
 * ...; an odd last rank only takes part in the barriers); the even one
 * sends, the odd one receives into a buffer too small. Every completion
 * call: MPI_Wait, MPI_Test, MPI_Waitall, MPI_Testall, MPI_Waitany,
 * MPI_Testany, MPI_Waitsome, MPI_Testsome; persistent and non-blocking
 * receives, a large message (the rendezvous path), a user handler (called
 * once, with the communicator) and MPI_Isendrecv. At any np, in one client
 * or across clients. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (!(cond)) {                                           \
      fprintf(stderr, "rank %d: line %d: ", rank, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                          \
      fprintf(stderr, "\n");                                 \
      MPI_Abort(MPI_COMM_WORLD, 1);                          \
    }                                                        \
  } while (0)

static int eclass(int rc) {
  int c;
  MPI_Error_class(rc, &c);
  return c;
}

static int handler_calls, handler_class;
static MPI_Comm handler_comm;
static void on_error(MPI_Comm *comm, int *code, ...) {
  ++handler_calls;
  handler_comm = *comm;
  handler_class = eclass(*code);
}

enum { BIG = 1 << 20 };

/* The sender's side: what the receiver's cases below expect, in order. */
static void send_all(MPI_Comm ret, MPI_Comm user, int peer) {
  int v[4] = {10, 11, 12, 13}, i;
  char *big = malloc(BIG);
  memset(big, 7, BIG);
  for (i = 0; i < 12; ++i) MPI_Send(v, 4, MPI_INT, peer, i, ret);
  MPI_Send(big, BIG, MPI_CHAR, peer, 20, ret);
  MPI_Send(v, 4, MPI_INT, peer, 21, user);
  MPI_Send(v, 4, MPI_INT, peer, 22, user);
  MPI_Send(v, 4, MPI_INT, peer, 23, ret);
  MPI_Send(v, 2, MPI_INT, peer, 24, ret);
  MPI_Send(v, 4, MPI_INT, peer, 25, ret);
  free(big);
}

static void receive_all(MPI_Comm ret, MPI_Comm user, int peer) {
  int small[2], full[4], idx, flag, n, ind[2], rc;
  MPI_Request r[2];
  MPI_Status st, sts[2];
  char *big = malloc(BIG / 2);
  /* MPI_Wait */
  MPI_Irecv(small, 2, MPI_INT, peer, 0, ret, &r[0]);
  rc = MPI_Wait(&r[0], &st);
  CHECK(eclass(rc) == MPI_ERR_TRUNCATE, "MPI_Wait: class %d", eclass(rc));
  CHECK(r[0] == MPI_REQUEST_NULL, "MPI_Wait frees the failed request");
  CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 0, "MPI_Wait's status: %d %d", st.MPI_SOURCE,
        st.MPI_TAG);
  /* MPI_Test */
  MPI_Irecv(small, 2, MPI_INT, peer, 1, ret, &r[0]);
  flag = 0;
  do {
    rc = MPI_Test(&r[0], &flag, &st);
  } while (!flag && rc == MPI_SUCCESS);
  CHECK(flag && eclass(rc) == MPI_ERR_TRUNCATE, "MPI_Test: flag %d class %d", flag, eclass(rc));
  /* MPI_Waitall: one good, one truncated */
  MPI_Irecv(full, 4, MPI_INT, peer, 2, ret, &r[0]);
  MPI_Irecv(small, 2, MPI_INT, peer, 3, ret, &r[1]);
  rc = MPI_Waitall(2, r, sts);
  CHECK(eclass(rc) == MPI_ERR_IN_STATUS, "MPI_Waitall: class %d", eclass(rc));
  CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && eclass(sts[1].MPI_ERROR) == MPI_ERR_TRUNCATE,
        "MPI_Waitall's statuses: %d %d", sts[0].MPI_ERROR, eclass(sts[1].MPI_ERROR));
  CHECK(full[0] == 10 && full[3] == 13, "MPI_Waitall's good receive: %d %d", full[0], full[3]);
  /* MPI_Testall */
  MPI_Irecv(full, 4, MPI_INT, peer, 4, ret, &r[0]);
  MPI_Irecv(small, 2, MPI_INT, peer, 5, ret, &r[1]);
  flag = 0;
  do {
    rc = MPI_Testall(2, r, &flag, sts);
  } while (!flag && rc == MPI_SUCCESS);
  CHECK(flag && eclass(rc) == MPI_ERR_IN_STATUS, "MPI_Testall: class %d", eclass(rc));
  CHECK(eclass(sts[1].MPI_ERROR) == MPI_ERR_TRUNCATE, "MPI_Testall's status");
  /* MPI_Waitany, MPI_Testany */
  MPI_Irecv(small, 2, MPI_INT, peer, 6, ret, &r[0]);
  rc = MPI_Waitany(1, r, &idx, &st);
  CHECK(idx == 0 && eclass(rc) == MPI_ERR_TRUNCATE, "MPI_Waitany: %d class %d", idx, eclass(rc));
  MPI_Irecv(small, 2, MPI_INT, peer, 7, ret, &r[0]);
  flag = 0;
  do {
    rc = MPI_Testany(1, r, &idx, &flag, &st);
  } while (!flag && rc == MPI_SUCCESS);
  CHECK(flag && idx == 0 && eclass(rc) == MPI_ERR_TRUNCATE, "MPI_Testany: class %d", eclass(rc));
  /* MPI_Waitsome, MPI_Testsome */
  MPI_Irecv(small, 2, MPI_INT, peer, 8, ret, &r[0]);
  rc = MPI_Waitsome(1, r, &n, ind, sts);
  CHECK(n == 1 && eclass(rc) == MPI_ERR_IN_STATUS && eclass(sts[0].MPI_ERROR) == MPI_ERR_TRUNCATE,
        "MPI_Waitsome: %d class %d", n, eclass(rc));
  MPI_Irecv(small, 2, MPI_INT, peer, 9, ret, &r[0]);
  n = 0;
  do {
    rc = MPI_Testsome(1, r, &n, ind, sts);
  } while (n == 0 && rc == MPI_SUCCESS);
  CHECK(n == 1 && eclass(rc) == MPI_ERR_IN_STATUS, "MPI_Testsome: %d class %d", n, eclass(rc));
  /* a persistent receive, started twice */
  MPI_Recv_init(small, 2, MPI_INT, peer, MPI_ANY_TAG, ret, &r[0]);
  for (n = 0; n < 2; ++n) {
    MPI_Start(&r[0]);
    rc = MPI_Wait(&r[0], &st);
    CHECK(eclass(rc) == MPI_ERR_TRUNCATE && st.MPI_TAG == 10 + n, "persistent %d: class %d tag %d",
          n, eclass(rc), st.MPI_TAG);
    CHECK(r[0] != MPI_REQUEST_NULL, "a persistent request stays");
  }
  MPI_Request_free(&r[0]);
  /* a large message */
  MPI_Irecv(big, BIG / 2, MPI_CHAR, peer, 20, ret, &r[0]);
  rc = MPI_Wait(&r[0], &st);
  CHECK(eclass(rc) == MPI_ERR_TRUNCATE, "large: class %d", eclass(rc));
  /* a user handler: called once, with its communicator */
  MPI_Irecv(small, 2, MPI_INT, peer, 21, user, &r[0]);
  rc = MPI_Wait(&r[0], &st);
  CHECK(handler_calls == 1 && handler_comm == user && handler_class == MPI_ERR_TRUNCATE,
        "the user handler: %d calls, class %d", handler_calls, handler_class);
  CHECK(eclass(rc) == MPI_ERR_TRUNCATE, "after the handler: class %d", eclass(rc));
  /* the first failed operation's communicator reports MPI_ERR_IN_STATUS: a
   * good one on `user` beside a failing one on `ret` calls no handler */
  MPI_Irecv(full, 4, MPI_INT, peer, 22, user, &r[0]);
  MPI_Irecv(small, 2, MPI_INT, peer, 23, ret, &r[1]);
  rc = MPI_Waitall(2, r, sts);
  CHECK(eclass(rc) == MPI_ERR_IN_STATUS && handler_calls == 1, "mixed: class %d, %d calls",
        eclass(rc), handler_calls);
  /* MPI_Isendrecv (MPI-4.0): its receive truncated */
#if MPI_VERSION >= 4
  rc = MPI_Isendrecv(full, 1, MPI_INT, peer, 30, small, 1, MPI_INT, peer, 24, ret, &r[0]);
#else
  rc = MPI_Irecv(small, 1, MPI_INT, peer, 24, ret, &r[0]);
  MPI_Send(full, 1, MPI_INT, peer, 30, ret);
#endif
  CHECK(rc == MPI_SUCCESS, "MPI_Isendrecv: %d", rc);
  rc = MPI_Wait(&r[0], &st);
  CHECK(eclass(rc) == MPI_ERR_TRUNCATE, "MPI_Isendrecv: class %d", eclass(rc));
  /* and a receive that fits still works afterwards */
  rc = MPI_Recv(full, 4, MPI_INT, peer, 25, ret, &st);
  CHECK(rc == MPI_SUCCESS && full[1] == 11, "a good receive: %d", rc);
  free(big);
}

int main(int argc, char **argv) {
  MPI_Comm ret, user;
  MPI_Errhandler eh;
  int peer, x;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &ret);
  MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN);
  MPI_Comm_dup(MPI_COMM_WORLD, &user);
  MPI_Comm_create_errhandler(on_error, &eh);
  MPI_Comm_set_errhandler(user, eh);
  peer = rank ^ 1;
  if (peer < size) {
    if (rank % 2 == 0) {
      send_all(ret, user, peer);
      MPI_Recv(&x, 1, MPI_INT, peer, 30, ret, MPI_STATUS_IGNORE);
    } else {
      receive_all(ret, user, peer);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&user);
  MPI_Comm_free(&ret);
  printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return 0;
}
