/* grequest_check.c - generalized requests (MPI-3.1 12.2) with every wait
 * and test call, cancellation, freeing before completion and completion
 * from another thread; and status.MPI_ERROR, which only the calls that
 * return several statuses may write (MPI-3.1 3.2.5). Needs
 * MPI_THREAD_MULTIPLE. Prints "rank r of n ok". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size, failures;

struct state {
  int queried, freed, cancelled_with, query_rc, tag;
};

static int query_fn(void *extra, MPI_Status *st) {
  struct state *s = extra;
  s->queried++;
  MPI_Status_set_elements(st, MPI_INT, 3);
  MPI_Status_set_cancelled(st, s->cancelled_with >= 0);
  st->MPI_SOURCE = MPI_UNDEFINED;
  st->MPI_TAG = s->tag;
  return s->query_rc;
}
static int free_fn(void *extra) {
  ((struct state *)extra)->freed++;
  return MPI_SUCCESS;
}
static int cancel_fn(void *extra, int complete) {
  ((struct state *)extra)->cancelled_with = complete;
  return MPI_SUCCESS;
}

static MPI_Request start(struct state *s, int tag) {
  MPI_Request r;
  memset(s, 0, sizeof *s);
  s->cancelled_with = -1;
  s->tag = tag;
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r);
  return r;
}

static void *complete_later(void *arg) {
  usleep(50000);
  MPI_Grequest_complete(*(MPI_Request *)arg);
  return NULL;
}

static void generalized(void) {
  struct state a, b, c;
  MPI_Request r, rs[3], copy;
  MPI_Status st, sts[3];
  int flag, n, idx, out, idxs[3];

  /* complete, then wait: the query's status, one free */
  r = start(&a, 11);
  MPI_Grequest_complete(r);
  st.MPI_ERROR = 4242;
  CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS && r == MPI_REQUEST_NULL, "Wait on a grequest");
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(st.MPI_TAG == 11 && n == 3 && a.queried == 1 && a.freed == 1,
        "Wait: tag %d count %d queried %d freed %d", st.MPI_TAG, n, a.queried, a.freed);
  CHECK(st.MPI_ERROR == 4242, "Wait wrote MPI_ERROR: %d", st.MPI_ERROR);

  /* test before and after completion; get_status does not free */
  r = start(&a, 12);
  MPI_Test(&r, &flag, &st);
  CHECK(!flag && a.queried == 0, "Test of an incomplete grequest");
  MPI_Grequest_complete(r);
  MPI_Request_get_status(r, &flag, &st);
  CHECK(flag && a.queried == 1 && a.freed == 0 && r != MPI_REQUEST_NULL, "Request_get_status");
  MPI_Test(&r, &flag, &st);
  CHECK(flag && a.queried == 2 && a.freed == 1 && r == MPI_REQUEST_NULL,
        "Test of a complete grequest");

  /* completed by another thread while this one waits */
  r = start(&a, 13);
  copy = r;
  {
    pthread_t t;
    pthread_create(&t, NULL, complete_later, &copy);
    MPI_Wait(&r, &st);
    pthread_join(t, NULL);
  }
  CHECK(st.MPI_TAG == 13 && a.freed == 1, "Wait for a completion from another thread");

  /* cancel: the callback learns whether it is complete */
  r = start(&a, 14);
  MPI_Cancel(&r);
  CHECK(a.cancelled_with == 0, "cancel_fn complete=%d", a.cancelled_with);
  MPI_Grequest_complete(r);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag, "Test_cancelled after the query said so");

  /* freed before completion: free_fn runs at completion */
  r = start(&a, 15);
  copy = r;
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL && a.freed == 0, "Request_free of an incomplete grequest");
  MPI_Grequest_complete(copy);
  CHECK(a.freed == 1 && a.queried == 0, "free_fn at completion after Request_free: %d", a.freed);

  /* the multiple-completion calls, mixed with a real receive from ourselves */
  {
    int v = 7 + rank, got = 0;
    rs[0] = start(&a, 21);
    rs[1] = start(&b, 22);
    MPI_Irecv(&got, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &rs[2]);
    MPI_Send(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD);
    MPI_Grequest_complete(rs[1]);
    MPI_Waitany(3, rs, &idx, &st);
    CHECK(idx == 1 || idx == 2, "Waitany index %d", idx);
    MPI_Testany(3, rs, &idx, &flag, &st);
    CHECK(flag && (idx == 1 || idx == 2), "Testany %d %d", flag, idx);
    MPI_Testsome(3, rs, &out, idxs, sts);
    CHECK(out == 0, "Testsome with only an incomplete grequest: %d", out);
    MPI_Grequest_complete(rs[0]);
    MPI_Waitsome(3, rs, &out, idxs, sts);
    CHECK(out == 1 && idxs[0] == 0 && sts[0].MPI_TAG == 21, "Waitsome %d %d", out, idxs[0]);
    CHECK(a.freed == 1 && b.freed == 1 && got == v, "mixed completion: freed %d %d, got %d",
          a.freed, b.freed, got);
  }
  {
    /* a failing query: the single call returns its error; Waitall says
     * MPI_ERR_IN_STATUS and writes each status's MPI_ERROR */
    int ec;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    r = start(&a, 31);
    a.query_rc = MPI_ERR_OTHER;
    MPI_Grequest_complete(r);
    CHECK(MPI_Wait(&r, &st) == MPI_ERR_OTHER, "Wait returns the query's error");
    rs[0] = start(&a, 32);
    rs[1] = start(&b, 33);
    rs[2] = start(&c, 34);
    b.query_rc = MPI_ERR_OTHER;
    for (int i = 0; i < 3; ++i) MPI_Grequest_complete(rs[i]);
    int rc = MPI_Waitall(3, rs, sts);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_IN_STATUS, "Waitall class %d", ec);
    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MPI_ERR_OTHER &&
              sts[2].MPI_ERROR == MPI_SUCCESS,
          "Waitall statuses %d %d %d", sts[0].MPI_ERROR, sts[1].MPI_ERROR, sts[2].MPI_ERROR);
    CHECK(a.freed == 1 && b.freed == 1 && c.freed == 1, "Waitall freed them all");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
}

/* single completions leave status.MPI_ERROR alone */
static void status_error_field(void) {
  int v = rank, got, flag;
  MPI_Status st;
  MPI_Request r;
  MPI_Message m;
  int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
  st.MPI_ERROR = 4242;
  MPI_Sendrecv(&v, 1, MPI_INT, next, 8, &got, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_ERROR == 4242 && got == prev, "Sendrecv wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Isend(&v, 1, MPI_INT, next, 9, MPI_COMM_WORLD, &r);
  st.MPI_ERROR = 4243;
  MPI_Probe(prev, 9, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_ERROR == 4243, "Probe wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Iprobe(prev, 9, MPI_COMM_WORLD, &flag, &st);
  CHECK(st.MPI_ERROR == 4243, "Iprobe wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Mprobe(prev, 9, MPI_COMM_WORLD, &m, &st);
  CHECK(st.MPI_ERROR == 4243, "Mprobe wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Mrecv(&got, 1, MPI_INT, &m, &st);
  CHECK(st.MPI_ERROR == 4243 && got == prev, "Mrecv wrote MPI_ERROR %d", st.MPI_ERROR);
  st.MPI_ERROR = 4244;
  MPI_Wait(&r, &st);
  CHECK(st.MPI_ERROR == 4244, "Wait wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Isend(&v, 1, MPI_INT, next, 10, MPI_COMM_WORLD, &r);
  MPI_Recv(&got, 1, MPI_INT, prev, 10, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_ERROR == 4244, "Recv wrote MPI_ERROR %d", st.MPI_ERROR);
  do MPI_Test(&r, &flag, &st);
  while (!flag);
  CHECK(st.MPI_ERROR == 4244, "Test wrote MPI_ERROR %d", st.MPI_ERROR);
}

/* Request_free racing MPI_Grequest_complete from another thread (what the
 * I/O threads do to a file request the program freed): free_fn runs exactly
 * once either way, never zero times (a leak) nor twice. */
struct race {
  MPI_Request r;
  volatile int go;
};
static void *complete_racing(void *arg) {
  struct race *x = arg;
  while (!x->go) {
  }
  MPI_Grequest_complete(x->r);
  return NULL;
}
static void free_racing_complete(void) {
  int wrong = 0, early = 0;
  for (int i = 0; i < 2000; ++i) {
    struct state a;
    struct race x;
    pthread_t t;
    x.r = start(&a, 21);
    x.go = 0;
    MPI_Request mine = x.r;
    pthread_create(&t, NULL, complete_racing, &x);
    x.go = 1;
    MPI_Request_free(&mine);
    pthread_join(t, NULL);
    if (a.freed != 1 || mine != MPI_REQUEST_NULL) ++wrong;
    if (a.queried != 0) ++early;
  }
  CHECK(wrong == 0 && early == 0, "free racing completion: %d of 2000 not freed once, %d queried",
        wrong, early);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
  generalized();
  status_error_field();
  free_racing_complete();
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
