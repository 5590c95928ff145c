/* MPI-4.1 3.6's buffers for buffered sends: a communicator's
 * (MPI_Comm_attach/detach_buffer), a session's (MPI_Session_*_buffer) and
 * the process's (MPI_Buffer_attach), which Bsend, Ibsend and Bsend_init use
 * in that order; MPI_Buffer_flush/iflush and their communicator and session
 * forms; MPI_BUFFER_AUTOMATIC; the _c forms; the error classes. Every rank
 * sends to its right neighbour and receives from its left one (np >= 2). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, rank, size, to, from;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

static int eclass(int rc) {
  int c = -1;
  MPI_Error_class(rc, &c);
  return c;
}

/* n ints from `from`, each seed*1000 + i + from: checked. */
static void recv_check(MPI_Comm comm, int n, int seed, int tag, const char *what) {
  int *b = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  MPI_Status st;
  int rc = MPI_Recv(b, n, MPI_INT, from, tag, comm, &st), bad = 0, got = -1;
  MPI_Get_count(&st, MPI_INT, &got);
  for (int i = 0; i < n; ++i)
    if (b[i] != seed * 1000 + i + from) ++bad;
  CHECK(rc == MPI_SUCCESS && got == n && bad == 0, "%s: rc %d, %d ints, %d wrong", what, rc, got,
        bad);
  free(b);
}
static int *payload(int n, int seed) {
  int *b = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; ++i) b[i] = seed * 1000 + i + rank;
  return b;
}
static int bsend(MPI_Comm comm, int n, int seed, int tag) {
  int *b = payload(n, seed);
  int rc = MPI_Bsend(b, n, MPI_INT, to, tag, comm);
  free(b); /* (the message is the library's now) */
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  to = (rank + 1) % size;
  from = (rank + size - 1) % size;
  const int small = 100, big = 1 << 18; /* ints: 400 B and 1 MiB (rendezvous everywhere) */
  const int small_need = small * 4 + MPI_BSEND_OVERHEAD, big_need = big * 4 + MPI_BSEND_OVERHEAD;

  /* No buffer anywhere: MPI_ERR_BUFFER; detach of none gives NULL and 0. */
  {
    CHECK(eclass(bsend(MPI_COMM_WORLD, small, 1, 1)) == MPI_ERR_BUFFER, "Bsend without buffer");
    void *p = &p;
    int sz = -1;
    CHECK(MPI_Buffer_detach(&p, &sz) == MPI_SUCCESS && p == NULL && sz == 0,
          "detach of none: %p %d", p, sz);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    p = &p;
    sz = -1;
    CHECK(MPI_Comm_detach_buffer(c, &p, &sz) == MPI_SUCCESS && p == NULL && sz == 0,
          "comm detach of none: %p %d", p, sz);
    MPI_Comm_free(&c);
  }

  /* The process buffer; attaching twice is MPI_ERR_BUFFER; detach returns it. */
  char *pbuf = malloc((size_t)small_need);
  MPI_Buffer_attach(pbuf, small_need);
  CHECK(eclass(MPI_Buffer_attach(pbuf, small_need)) == MPI_ERR_BUFFER, "double Buffer_attach");

  /* A communicator's buffer comes first; MPI_COMM_WORLD still uses the process's. */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  char *cbuf = malloc((size_t)big_need);
  CHECK(MPI_Comm_attach_buffer(comm, cbuf, big_need) == MPI_SUCCESS, "Comm_attach_buffer");
  CHECK(eclass(MPI_Comm_attach_buffer(comm, cbuf, big_need)) == MPI_ERR_BUFFER,
        "double Comm_attach_buffer");
  CHECK(eclass(MPI_Comm_attach_buffer(MPI_COMM_NULL, cbuf, big_need)) == MPI_ERR_COMM,
        "Comm_attach_buffer(MPI_COMM_NULL)");
  CHECK(eclass(MPI_Comm_attach_buffer(comm, cbuf, -1)) == MPI_ERR_BUFFER, "negative size");
  CHECK(bsend(comm, big, 2, 2) == MPI_SUCCESS, "big Bsend on comm (its buffer)");
  CHECK(eclass(bsend(MPI_COMM_WORLD, big, 3, 3)) == MPI_ERR_BUFFER,
        "big Bsend on world (process buffer too small)");
  CHECK(bsend(MPI_COMM_WORLD, small, 4, 4) == MPI_SUCCESS, "small Bsend on world");
  /* The comm's buffer is full until its message has gone: then flush frees it. */
  recv_check(comm, big, 2, 2, "big from comm's buffer");
  recv_check(MPI_COMM_WORLD, small, 4, 4, "small from process buffer");
  CHECK(MPI_Comm_flush_buffer(comm) == MPI_SUCCESS, "Comm_flush_buffer");
  CHECK(bsend(comm, big, 5, 5) == MPI_SUCCESS, "big Bsend after the flush");
  CHECK(MPI_Buffer_flush() == MPI_SUCCESS, "Buffer_flush");
  CHECK(bsend(MPI_COMM_WORLD, small, 6, 6) == MPI_SUCCESS, "small Bsend after Buffer_flush");
  recv_check(comm, big, 5, 5, "big after flush");
  recv_check(MPI_COMM_WORLD, small, 6, 6, "small after Buffer_flush");

  /* Nonblocking flushes complete once the messages have gone; Ibsend and
   * Bsend_init take the communicator's buffer too. */
  {
    MPI_Request fl, rr, ps;
    int *b = payload(big, 7);
    int *r = malloc(sizeof(int) * (size_t)big);
    MPI_Request ib = MPI_REQUEST_NULL;
    MPI_Comm_flush_buffer(comm); /* (message 5 may still hold it: its send's end) */
    CHECK(MPI_Ibsend(b, big, MPI_INT, to, 7, comm, &ib) == MPI_SUCCESS, "Ibsend on comm");
    MPI_Wait(&ib, MPI_STATUS_IGNORE);
    MPI_Irecv(r, big, MPI_INT, from, 7, comm, &rr);
    CHECK(MPI_Comm_iflush_buffer(comm, &fl) == MPI_SUCCESS, "Comm_iflush_buffer");
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Wait(&fl, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < big; ++i)
      if (r[i] != 7 * 1000 + i + from) ++bad;
    CHECK(bad == 0, "Ibsend payload: %d wrong", bad);
    CHECK(MPI_Bsend_init(b, big, MPI_INT, to, 8, comm, &ps) == MPI_SUCCESS, "Bsend_init");
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < big; ++i) b[i] = 8 * 1000 + i + rank + round;
      CHECK(MPI_Start(&ps) == MPI_SUCCESS, "Start %d (the buffer is free again)", round);
      MPI_Wait(&ps, MPI_STATUS_IGNORE);
      MPI_Recv(r, big, MPI_INT, from, 8, comm, MPI_STATUS_IGNORE);
      bad = 0;
      for (int i = 0; i < big; ++i)
        if (r[i] != 8 * 1000 + i + from + round) ++bad;
      CHECK(bad == 0, "Bsend_init round %d: %d wrong", round, bad);
      MPI_Comm_iflush_buffer(comm, &fl);
      MPI_Wait(&fl, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&ps);
    MPI_Buffer_iflush(&fl);
    MPI_Wait(&fl, MPI_STATUS_IGNORE);
    free(b);
    free(r);
  }

  /* Detach returns what was attached (the _c form too). */
  {
    void *p = NULL;
    int sz = 0;
    CHECK(MPI_Comm_detach_buffer(comm, &p, &sz) == MPI_SUCCESS && p == cbuf && sz == big_need,
          "Comm_detach_buffer: %p %d", p, sz);
    CHECK(MPI_Comm_attach_buffer_c(comm, cbuf, (MPI_Count)small_need) == MPI_SUCCESS,
          "Comm_attach_buffer_c");
    CHECK(eclass(bsend(comm, big, 9, 9)) == MPI_ERR_BUFFER, "big Bsend, small comm buffer");
    MPI_Count csz = 0;
    CHECK(MPI_Comm_detach_buffer_c(comm, &p, &csz) == MPI_SUCCESS && p == cbuf && csz == small_need,
          "Comm_detach_buffer_c: %p %lld", p, (long long)csz);
    /* Without its own, the communicator uses the process's again. */
    CHECK(eclass(bsend(comm, big, 9, 9)) == MPI_ERR_BUFFER, "big Bsend, process buffer");
  }

  /* MPI_BUFFER_AUTOMATIC: the library takes what it needs (8 MiB here). */
  {
    const int huge = 1 << 21;
    CHECK(MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS,
          "attach MPI_BUFFER_AUTOMATIC");
    for (int k = 0; k < 3; ++k)
      CHECK(bsend(comm, huge, 10 + k, 10 + k) == MPI_SUCCESS, "huge %d", k);
    for (int k = 0; k < 3; ++k) recv_check(comm, huge, 10 + k, 10 + k, "huge automatic");
    void *p = NULL;
    int sz = -1;
    CHECK(MPI_Comm_detach_buffer(comm, &p, &sz) == MPI_SUCCESS && p == MPI_BUFFER_AUTOMATIC,
          "detach MPI_BUFFER_AUTOMATIC: %p %d", p, sz);
    void *q = NULL;
    MPI_Buffer_detach(&q, &sz);
    CHECK(q == pbuf && sz == small_need, "Buffer_detach: %p %d", q, sz);
    CHECK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS, "Buffer_attach(AUTOMATIC)");
    CHECK(bsend(MPI_COMM_WORLD, huge, 13, 13) == MPI_SUCCESS, "huge on process AUTOMATIC");
    recv_check(MPI_COMM_WORLD, huge, 13, 13, "huge on process AUTOMATIC");
    MPI_Buffer_detach(&q, &sz);
    CHECK(q == MPI_BUFFER_AUTOMATIC, "Buffer_detach(AUTOMATIC): %p", q);
  }
  MPI_Comm_free(&comm);

  /* A session's buffer serves the communicators derived from it. */
  {
    MPI_Session s;
    MPI_Group g;
    MPI_Comm sc, sdup;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "bsend41", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc);
    MPI_Group_free(&g);
    MPI_Comm_dup(sc, &sdup); /* derived from the session too */
    char *sbuf = malloc((size_t)big_need);
    CHECK(MPI_Buffer_attach(pbuf, small_need) == MPI_SUCCESS, "Buffer_attach again");
    CHECK(MPI_Session_attach_buffer(s, sbuf, big_need) == MPI_SUCCESS, "Session_attach_buffer");
    CHECK(eclass(MPI_Session_attach_buffer(s, sbuf, big_need)) == MPI_ERR_BUFFER,
          "double Session_attach_buffer");
    CHECK(eclass(MPI_Session_attach_buffer(MPI_SESSION_NULL, sbuf, big_need)) == MPI_ERR_SESSION,
          "Session_attach_buffer(MPI_SESSION_NULL)");
    CHECK(bsend(sdup, big, 20, 20) == MPI_SUCCESS, "big Bsend on a session's comm");
    CHECK(eclass(bsend(MPI_COMM_WORLD, big, 21, 21)) == MPI_ERR_BUFFER,
          "big Bsend on world (not the session's buffer)");
    recv_check(sdup, big, 20, 20, "big from the session's buffer");
    CHECK(MPI_Session_flush_buffer(s) == MPI_SUCCESS, "Session_flush_buffer");
    CHECK(bsend(sc, big, 22, 22) == MPI_SUCCESS, "big Bsend after Session_flush_buffer");
    recv_check(sc, big, 22, 22, "after Session_flush_buffer");
    MPI_Request fl;
    CHECK(MPI_Session_iflush_buffer(s, &fl) == MPI_SUCCESS, "Session_iflush_buffer");
    MPI_Wait(&fl, MPI_STATUS_IGNORE);
    /* The communicator's own buffer before the session's. */
    char *own = malloc((size_t)small_need);
    MPI_Comm_attach_buffer(sc, own, small_need);
    CHECK(eclass(bsend(sc, big, 23, 23)) == MPI_ERR_BUFFER, "big Bsend, comm's small buffer");
    CHECK(bsend(sdup, big, 24, 24) == MPI_SUCCESS, "big Bsend on the dup (session's)");
    recv_check(sdup, big, 24, 24, "dup via the session's buffer");
    void *p = NULL;
    int sz = 0;
    MPI_Comm_detach_buffer(sc, &p, &sz);
    CHECK(p == own && sz == small_need, "Comm_detach_buffer (session comm): %p %d", p, sz);
    CHECK(MPI_Session_detach_buffer(s, &p, &sz) == MPI_SUCCESS && p == sbuf && sz == big_need,
          "Session_detach_buffer: %p %d", p, sz);
    MPI_Count csz = 0;
    CHECK(MPI_Session_attach_buffer_c(s, sbuf, (MPI_Count)big_need) == MPI_SUCCESS,
          "Session_attach_buffer_c");
    CHECK(MPI_Session_detach_buffer_c(s, &p, &csz) == MPI_SUCCESS && p == sbuf && csz == big_need,
          "Session_detach_buffer_c: %p %lld", p, (long long)csz);
    /* No session buffer now: the process's (small) one. */
    CHECK(eclass(bsend(sc, big, 25, 25)) == MPI_ERR_BUFFER, "big Bsend, no session buffer");
    MPI_Comm_free(&sdup);
    MPI_Comm_free(&sc);
    MPI_Session_finalize(&s);
    void *q;
    MPI_Buffer_detach(&q, &sz);
    free(own);
    free(sbuf);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  free(cbuf);
  free(pbuf);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
