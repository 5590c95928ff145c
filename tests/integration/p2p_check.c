/* p2p_check.c - point-to-point inside one client, checked in every process.
 * Prints "rank R of N ok" when every check passed. Needs N >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0, rank, size;
#define CHECK(cond)                                                                           \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", rank, __FILE__, __LINE__, #cond); \
      ++failures;                                                                             \
    }                                                                                         \
  } while (0)

static unsigned char pattern(long i, int seed) {
  return (unsigned char)(i * 131 + seed * 7 + 1);
}

/* Rank 0 sends `n` bytes to rank 1, which checks every byte and echoes. */
static void sizes(void) {
  long ns[] = {0,     1,     7,     8,      8191,   8192,   8193,
               65535, 65536, 65537, 262143, 262144, 262145, 3 * 1048576 + 5};
  unsigned i;
  long k;
  for (i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
    long n = ns[i];
    unsigned char *buf = malloc(n + 1);
    MPI_Status st;
    int count;
    if (rank == 0) {
      for (k = 0; k < n; ++k) buf[k] = pattern(k, (int)i);
      MPI_Send(buf, (int)n, MPI_BYTE, 1, 100 + (int)i, MPI_COMM_WORLD);
      memset(buf, 0, n + 1);
      MPI_Recv(buf, (int)n, MPI_BYTE, 1, 200 + (int)i, MPI_COMM_WORLD, &st);
      for (k = 0; k < n; ++k)
        if (buf[k] != pattern(k, (int)i)) break;
      CHECK(k == n);
    } else if (rank == 1) {
      memset(buf, 0, n + 1);
      MPI_Recv(buf, (int)n, MPI_BYTE, 0, 100 + (int)i, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == n);
      CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 100 + (int)i);
      for (k = 0; k < n; ++k)
        if (buf[k] != pattern(k, (int)i)) break;
      CHECK(k == n);
      MPI_Send(buf, (int)n, MPI_BYTE, 0, 200 + (int)i, MPI_COMM_WORLD);
    }
    free(buf);
  }
}

/* Everyone sends 50 numbered messages to rank 0 with two tags; rank 0 receives
 * with wildcards and checks each sender's sequence never overtakes itself. */
static void wildcards(void) {
  const int per = 50;
  int i;
  if (rank != 0) {
    for (i = 0; i < per; ++i) MPI_Send(&i, 1, MPI_INT, 0, i % 2 ? 7 : 8, MPI_COMM_WORLD);
  } else {
    int *next = calloc(size, sizeof(int)), v, got = 0;
    MPI_Status st;
    for (got = 0; got < per * (size - 1); ++got) {
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
      if (v != next[st.MPI_SOURCE])
        fprintf(stderr, "got v=%d tag=%d from %d, expected %d\n", v, st.MPI_TAG, st.MPI_SOURCE,
                next[st.MPI_SOURCE]);
      CHECK(v == next[st.MPI_SOURCE]); /* non-overtaking per sender */
      CHECK(st.MPI_TAG == (v % 2 ? 7 : 8));
      next[st.MPI_SOURCE] = v + 1;
    }
    free(next);
  }
}

/* Probe, then receive what the probe saw; truncation reports and fills status. */
static void probe_and_truncate(void) {
  if (rank == 1) {
    double d[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    MPI_Send(d, 10, MPI_DOUBLE, 0, 33, MPI_COMM_WORLD);
    MPI_Send(d, 10, MPI_DOUBLE, 0, 34, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status st;
    int count, flag = 0, rc;
    double d[10] = {0};
    MPI_Probe(1, 33, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 10 && st.MPI_TAG == 33);
    MPI_Recv(d, count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(d[9] == 9.0);
    while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, 34, MPI_COMM_WORLD, &flag, &st);
    memset(d, 0, sizeof d);
    st.MPI_ERROR = -5; /* a single completion leaves it (MPI-3.1 3.2.5) */
    rc = MPI_Recv(d, 4, MPI_DOUBLE, 1, 34, MPI_COMM_WORLD, &st);
    CHECK(rc == MPI_ERR_TRUNCATE);
    CHECK(st.MPI_ERROR == -5 && st.MPI_SOURCE == 1 && st.MPI_TAG == 34);
    CHECK(d[3] == 3.0 && d[4] == 0.0);
  }
}

/* Nonblocking all-to-all of many small messages, and Sendrecv in a ring. */
static void alltoall_nonblocking(void) {
  const int rounds = 20;
  int n = 2 * size * rounds, i, j, m, *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  MPI_Request *req = malloc(n * sizeof(MPI_Request));
  for (i = 0; i < rounds; ++i)
    for (j = 0; j < size; ++j) {
      m = i * size + j;
      out[m] = rank * 1000 + i;
      MPI_Irecv(&in[m], 1, MPI_INT, j, i, MPI_COMM_WORLD, &req[2 * m]);
      MPI_Isend(&out[m], 1, MPI_INT, j, i, MPI_COMM_WORLD, &req[2 * m + 1]);
    }
  CHECK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
  for (i = 0; i < rounds; ++i)
    for (j = 0; j < size; ++j) CHECK(in[i * size + j] == j * 1000 + i);
  {
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 9, &got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &st);
    CHECK(got == left && st.MPI_SOURCE == left);
  }
  free(in);
  free(out);
  free(req);
}

/* A strided datatype on the wire; PROC_NULL; argument errors. */
static void datatypes_and_errors(void) {
  MPI_Datatype col;
  MPI_Status st;
  int m[4][4], i, j, v = 0, rc;
  MPI_Type_vector(4, 1, 4, MPI_INT, &col);
  MPI_Type_commit(&col);
  if (rank == 0) {
    for (i = 0; i < 4; ++i)
      for (j = 0; j < 4; ++j) m[i][j] = i * 4 + j;
    MPI_Send(&m[0][2], 1, col, 1, 5, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int c[4];
    MPI_Recv(c, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
    CHECK(c[0] == 2 && c[1] == 6 && c[3] == 14);
  }
  MPI_Type_free(&col);
  /* Freeing a datatype while a request still uses it is safe (MPI 4.1.9). */
  {
    MPI_Datatype pair;
    MPI_Request rq;
    int src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0};
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
      MPI_Irecv(dst, 1, pair, 1, 6, MPI_COMM_WORLD, &rq);
      MPI_Type_free(&pair);
      MPI_Wait(&rq, &st);
      CHECK(dst[0] == 10 && dst[1] == 0 && dst[2] == 30);
    } else if (rank == 1) {
      src[0] = 10;
      src[2] = 30;
      MPI_Isend(src, 1, pair, 0, 6, MPI_COMM_WORLD, &rq);
      MPI_Type_free(&pair);
      MPI_Wait(&rq, &st);
    } else {
      MPI_Type_free(&pair);
    }
  }
  rc = MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  CHECK(rc == MPI_SUCCESS && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
  CHECK(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD) == MPI_ERR_RANK);
  CHECK(MPI_Send(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD) == MPI_ERR_TAG);
  CHECK(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT);
  CHECK(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE);
  /* No elements of MPI_DATATYPE_NULL: a valid empty message, as MPICH allows
   * (its part/nonblocking_pready synchronises so). */
  if (size > 1 && rank < 2) {
    MPI_Status zs;
    int zc = -1;
    if (rank == 0) {
      CHECK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 1, 77, MPI_COMM_WORLD) == MPI_SUCCESS);
    } else {
      CHECK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, 77, MPI_COMM_WORLD, &zs) == MPI_SUCCESS);
      MPI_Get_count(&zs, MPI_BYTE, &zc);
      CHECK(zc == 0 && zs.MPI_SOURCE == 0 && zs.MPI_TAG == 77);
    }
  }
  CHECK(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL) == MPI_ERR_COMM);
  CHECK(MPI_Wait(NULL, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
}

/* Synchronous, buffered and persistent sends; cancel; matched probe;
 * Waitsome/Testany; Sendrecv_replace. */
static void modes(void) {
  int v = 42, got = 0, flag = 1, i;
  MPI_Status st;
  MPI_Request req;
  if (rank == 0) {
    /* Issend cannot complete before rank 1 posts its receive (after "go"). */
    MPI_Issend(&v, 1, MPI_INT, 1, 60, MPI_COMM_WORLD, &req);
    for (i = 0; i < 100; ++i) MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 0);
    MPI_Send(&v, 1, MPI_INT, 1, 61, MPI_COMM_WORLD); /* go */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Ssend(&v, 1, MPI_INT, 1, 62, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&got, 1, MPI_INT, 0, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == 42);
    MPI_Recv(&got, 1, MPI_INT, 0, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  /* Buffered sends: enough room works, too little is MPI_ERR_BUFFER. */
  {
    char space[3 * (sizeof(int) + MPI_BSEND_OVERHEAD)];
    void *back;
    int bsize;
    MPI_Buffer_attach(space, sizeof space);
    if (rank == 0) {
      for (i = 0; i < 3; ++i)
        CHECK(MPI_Bsend(&i, 1, MPI_INT, 1, 70, MPI_COMM_WORLD) == MPI_SUCCESS);
      CHECK(MPI_Bsend(&i, 1000, MPI_INT, 1, 71, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    } else if (rank == 1) {
      for (i = 0; i < 3; ++i) {
        MPI_Recv(&got, 1, MPI_INT, 0, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(got == i);
      }
    }
    MPI_Buffer_detach(&back, &bsize);
    CHECK(back == space && bsize == (int)sizeof space);
  }
  /* Persistent requests reused many times. */
  {
    MPI_Request p;
    int x = 0;
    if (rank == 0) MPI_Send_init(&x, 1, MPI_INT, 1, 80, MPI_COMM_WORLD, &p);
    if (rank == 1) MPI_Recv_init(&x, 1, MPI_INT, 0, 80, MPI_COMM_WORLD, &p);
    if (rank <= 1) {
      for (i = 0; i < 200; ++i) {
        if (rank == 0) x = i;
        MPI_Start(&p);
        MPI_Wait(&p, &st);
        if (rank == 1) CHECK(x == i);
        CHECK(p != MPI_REQUEST_NULL); /* inactive, not freed */
      }
      MPI_Request_free(&p);
      CHECK(p == MPI_REQUEST_NULL);
    }
  }
  /* A derived type freed right after the persistent request is made: the
   * request keeps its own reference (MPI-3.1 4.1.9). */
  if (rank <= 1) {
    MPI_Request p;
    MPI_Datatype every_other;
    int v[6] = {0, 0, 0, 0, 0, 0};
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    if (rank == 0)
      MPI_Send_init(v, 1, every_other, 1, 81, MPI_COMM_WORLD, &p);
    else
      MPI_Recv_init(v, 1, every_other, 0, 81, MPI_COMM_WORLD, &p);
    MPI_Type_free(&every_other);
    for (i = 0; i < 3; ++i) {
      if (rank == 0) v[0] = v[2] = v[4] = i + 1;
      CHECK(MPI_Start(&p) == MPI_SUCCESS);
      MPI_Wait(&p, &st);
      if (rank == 1) CHECK(v[0] == i + 1 && v[2] == i + 1 && v[4] == i + 1 && v[1] == 0);
    }
    MPI_Request_free(&p);
  }
  /* Cancel an unmatched receive. */
  MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1);
  /* Matched probe, Waitsome, Testany, Sendrecv_replace. */
  if (rank == 1) {
    int two[2] = {7, 8};
    MPI_Send(two, 2, MPI_INT, 0, 90, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Message msg;
    int two[2] = {0, 0}, count;
    MPI_Mprobe(MPI_ANY_SOURCE, 90, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 2 && st.MPI_SOURCE == 1);
    MPI_Mrecv(two, 2, MPI_INT, &msg, &st);
    CHECK(two[1] == 8 && msg == MPI_MESSAGE_NULL);
  }
  {
    int right = (rank + 1) % size, left = (rank + size - 1) % size, val = rank, outcount, idx[2];
    MPI_Request rq[2];
    int a = -1, b = rank;
    MPI_Sendrecv_replace(&val, 1, MPI_INT, right, 91, left, 91, MPI_COMM_WORLD, &st);
    CHECK(val == left);
    MPI_Irecv(&a, 1, MPI_INT, left, 92, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&b, 1, MPI_INT, right, 92, MPI_COMM_WORLD, &rq[1]);
    for (i = 0; i < 2;) {
      MPI_Waitsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE);
      CHECK(outcount >= 1);
      i += outcount;
    }
    CHECK(a == left);
    MPI_Testany(2, rq, &idx[0], &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 1 && idx[0] == MPI_UNDEFINED);
  }
}

/* Nobody starts the next phase before everyone finished this one (a
 * barrier from point-to-point: MPI_Barrier belongs to the collectives). */
/* Rank 1 posts its receives, then stays out of MPI while rank 0 sends them
 * all: their records wait in its ring, and the single-copy ones (from 16
 * KiB) that matched in one pass are read together (p2p.cpp: flush_reads),
 * except the ones that cannot be: a strided receive, a message offered for
 * a split copy (64 KiB and more) and a truncated one in between. */
static void batched_reads(void) {
  enum { N = 40 };
  long len[N];
  unsigned char *buf[N];
  MPI_Request req[N];
  MPI_Status st[N];
  MPI_Datatype strided;
  int i, token = 0;
  long k;
  MPI_Type_vector(3 * 1024, 4, 8, MPI_BYTE, &strided);
  MPI_Type_commit(&strided);
  for (i = 0; i < N; ++i) {
    len[i] = i == 13 ? 100 * 1024 : 17 * 1024 + 997L * i;
    buf[i] = malloc(2 * len[i] + 64);
  }
  if (rank == 1) {
    for (i = 0; i < N; ++i) {
      memset(buf[i], 0, 2 * len[i] + 64);
      if (i == 7)
        MPI_Irecv(buf[i], 1, strided, 0, 300 + i, MPI_COMM_WORLD, &req[i]);
      else if (i == 21)
        MPI_Irecv(buf[i], (int)len[i] - 5, MPI_BYTE, 0, 300 + i, MPI_COMM_WORLD, &req[i]);
      else
        MPI_Irecv(buf[i], (int)len[i] + 64, MPI_BYTE, 0, 300 + i, MPI_COMM_WORLD, &req[i]);
    }
    MPI_Send(&token, 1, MPI_INT, 0, 299, MPI_COMM_WORLD);
    struct timespec nap = {0, 200 * 1000 * 1000};
    nanosleep(&nap, NULL);
    CHECK(MPI_Waitall(N, req, st) == MPI_ERR_IN_STATUS);
    for (i = 0; i < N; ++i) {
      int count;
      MPI_Get_count(&st[i], MPI_BYTE, &count);
      CHECK(st[i].MPI_SOURCE == 0 && st[i].MPI_TAG == 300 + i);
      if (i == 21) {
        CHECK(st[i].MPI_ERROR == MPI_ERR_TRUNCATE);
        continue;
      }
      CHECK(st[i].MPI_ERROR == MPI_SUCCESS);
      if (i == 7) { /* every other 4 bytes of the first 24 KiB */
        for (k = 0; k < 3 * 1024 * 4; ++k)
          if (buf[i][(k / 4) * 8 + k % 4] != pattern(k, i)) break;
        CHECK(k == 3 * 1024 * 4);
        continue;
      }
      CHECK(count == len[i]);
      for (k = 0; k < len[i]; ++k)
        if (buf[i][k] != pattern(k, i)) break;
      CHECK(k == len[i]);
      CHECK(buf[i][len[i]] == 0); /* nothing beyond the message */
    }
  } else if (rank == 0) {
    MPI_Recv(&token, 1, MPI_INT, 1, 299, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < N; ++i) {
      long n = i == 7 ? 3 * 1024 * 4 : len[i];
      for (k = 0; k < n; ++k) buf[i][k] = pattern(k, i);
      MPI_Isend(buf[i], (int)n, MPI_BYTE, 1, 300 + i, MPI_COMM_WORLD, &req[i]);
    }
    CHECK(MPI_Waitall(N, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
  }
  for (i = 0; i < N; ++i) free(buf[i]);
  MPI_Type_free(&strided);
}

/* Rank 0 sends large messages that wait at rank 1 before their receives
 * are posted (single copy from IMPI_SHM_CMA_THRESHOLD: read when the
 * receive's wait makes progress, not inside MPI_Irecv). Rank 1 takes them
 * with MPI_Irecv (contiguous, strided, truncated), MPI_Recv and
 * MPI_Mprobe + MPI_Imrecv, polls one with MPI_Test until it completes, and
 * checks every byte and status. */
static void matched_waiting(void) {
  enum { N = 6 };
  long len[N] = {300 * 1024, 1048576 + 3, 256 * 1024, 512 * 1024, 2 * 1048576 + 12288, 150 * 1024};
  unsigned char *buf[N];
  MPI_Request req[N];
  MPI_Status st[N];
  MPI_Datatype strided;
  int i, token = 0, flag = 0, count;
  long k;
  if (rank > 1) return;
  MPI_Type_vector(64 * 1024, 4, 8, MPI_BYTE, &strided); /* 256 KiB of data */
  MPI_Type_commit(&strided);
  for (i = 0; i < N; ++i) buf[i] = malloc(2 * len[i] + 64);
  if (rank == 0) {
    for (i = 0; i < N; ++i) {
      long n = len[i];
      for (k = 0; k < n; ++k) buf[i][k] = pattern(k, 60 + i);
      MPI_Isend(buf[i], (int)n, MPI_BYTE, 1, 500 + i, MPI_COMM_WORLD, &req[i]);
    }
    /* After them on the ring: when rank 1 has this, the rest waits there. */
    MPI_Send(&token, 1, MPI_INT, 1, 499, MPI_COMM_WORLD);
    CHECK(MPI_Waitall(N, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
  } else {
    MPI_Message msg;
    MPI_Recv(&token, 1, MPI_INT, 0, 499, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < N; ++i) memset(buf[i], 0, 2 * len[i] + 64);
    MPI_Irecv(buf[0], (int)len[0], MPI_BYTE, 0, 500, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(buf[1], (int)len[1], MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(buf[2], 1, strided, 0, 502, MPI_COMM_WORLD, &req[2]);
    MPI_Irecv(buf[3], (int)len[3] - 7, MPI_BYTE, 0, 503, MPI_COMM_WORLD, &req[3]);
    MPI_Mprobe(0, 505, MPI_COMM_WORLD, &msg, &st[5]);
    MPI_Get_count(&st[5], MPI_BYTE, &count);
    CHECK(count == len[5]);
    MPI_Imrecv(buf[5], (int)len[5], MPI_BYTE, &msg, &req[5]);
    for (k = 0; !flag && k < 100000000; ++k) MPI_Test(&req[0], &flag, &st[0]);
    CHECK(flag == 1 && st[0].MPI_TAG == 500);
    MPI_Recv(buf[4], (int)len[4], MPI_BYTE, 0, 504, MPI_COMM_WORLD, &st[4]);
    CHECK(MPI_Waitall(3, req + 1, st + 1) == MPI_ERR_IN_STATUS);
    CHECK(MPI_Wait(&req[5], &st[5]) == MPI_SUCCESS);
    /* (Single-completion calls leave MPI_ERROR alone: MPI-3.1 3.2.5.) */
    st[0].MPI_ERROR = st[4].MPI_ERROR = st[5].MPI_ERROR = MPI_SUCCESS;
    for (i = 0; i < N; ++i) {
      CHECK(st[i].MPI_SOURCE == 0 && st[i].MPI_TAG == 500 + i);
      CHECK(st[i].MPI_ERROR == (i == 3 ? MPI_ERR_TRUNCATE : MPI_SUCCESS));
      if (i == 3) { /* the buffer filled, and nothing written past it */
        for (k = 0; k < len[i] - 7; ++k)
          if (buf[i][k] != pattern(k, 60 + i)) break;
        CHECK(k == len[i] - 7);
        for (k = len[i] - 7; k < 2 * len[i] + 64; ++k)
          if (buf[i][k] != 0) break;
        CHECK(k == 2 * len[i] + 64);
        continue;
      }
      if (i == 2) { /* every other 4 bytes */
        for (k = 0; k < 256 * 1024; ++k)
          if (buf[i][(k / 4) * 8 + k % 4] != pattern(k, 60 + i)) break;
        CHECK(k == 256 * 1024);
        continue;
      }
      MPI_Get_count(&st[i], MPI_BYTE, &count);
      CHECK(count == len[i]);
      for (k = 0; k < len[i]; ++k)
        if (buf[i][k] != pattern(k, 60 + i)) break;
      CHECK(k == len[i]);
      CHECK(buf[i][len[i]] == 0); /* nothing beyond the message */
    }
  }
  for (i = 0; i < N; ++i) free(buf[i]);
  MPI_Type_free(&strided);
}

/* Ranks 0 and 1 exchange 2 MiB and then 4 MiB both ways at once (single
 * copy; a split copy is offered up to IMPI_SHM_SPLIT_TWO_WAY_MAX). */
static void two_way(void) {
  long ns[] = {2L << 20, 4L << 20};
  unsigned i;
  long k;
  if (rank > 1) return;
  for (i = 0; i < 2; ++i) {
    long n = ns[i];
    unsigned char *s = malloc(n), *r = malloc(n);
    MPI_Request req[2];
    MPI_Status st[2];
    int count;
    for (k = 0; k < n; ++k) s[k] = pattern(k, 40 + rank * 2 + (int)i);
    memset(r, 0, n);
    MPI_Irecv(r, (int)n, MPI_BYTE, 1 - rank, 400 + (int)i, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(s, (int)n, MPI_BYTE, 1 - rank, 400 + (int)i, MPI_COMM_WORLD, &req[1]);
    CHECK(MPI_Waitall(2, req, st) == MPI_SUCCESS);
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK(count == n);
    for (k = 0; k < n; ++k)
      if (r[k] != pattern(k, 40 + (1 - rank) * 2 + (int)i)) break;
    CHECK(k == n);
    free(s);
    free(r);
  }
}

static void phase_barrier(int tag) {
  /* Rank 0 (the only wildcard receiver) speaks first, so no token can
   * reach it while it still receives with MPI_ANY_SOURCE/MPI_ANY_TAG. */
  int i, token = 0;
  for (i = 1; i < size; ++i) {
    if (rank == 0) MPI_Send(&token, 1, MPI_INT, i, tag, MPI_COMM_WORLD);
    if (rank == i) MPI_Recv(&token, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  for (i = 1; i < size; ++i) {
    if (rank == 0) MPI_Recv(&token, 1, MPI_INT, i, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == i) MPI_Send(&token, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  sizes();
  phase_barrier(990);
  wildcards();
  phase_barrier(992);
  probe_and_truncate();
  phase_barrier(994);
  alltoall_nonblocking();
  phase_barrier(996);
  datatypes_and_errors();
  phase_barrier(1000);
  modes();
  phase_barrier(1002);
  batched_reads();
  phase_barrier(1004);
  matched_waiting();
  phase_barrier(1006);
  two_way();
  phase_barrier(998); /* nobody leaves while a peer may still send to it */
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
