/* remote_check.c - point-to-point between procs of different IMPI clients
 * (the IMPI short, synchronous and long protocols through the host agents,
 * external32 on the wire), mixed with procs of the same client. Run with
 * impirun --clients K; argv[1] is the job's --datalen (default 65536).
 *  1. every ordered pair exchanges int arrays of 0, 1, 100 and 4000
 *     elements (Sendrecv), contents, source, tag and count checked;
 *  2. rank 0 receives 3 messages from every other rank with MPI_ANY_SOURCE:
 *     per sender in order (non-overtaking), local and remote mixed;
 *  3. Probe then Recv, Iprobe/Irecv/Waitall, MPI_LONG (4 bytes in external32,
 *     8 here) and a vector type;
 *  4. Issend/Ssend and long sends complete only once the receive matched;
 *     probe of a long message gives its whole count;
 *  5. every pair: 0, 1, datalen-1, datalen, datalen+1, 7*datalen+5 bytes and
 *     3 MiB (bytes and ints), a long strided type, a truncated long message;
 *  6. MPI_Cancel: unmatched sends (short, synchronous, long, 32 KiB) are cancelled,
 *     a matched one is not, and cancel races agree with what arrives;
 *  7. Bsend/Ibsend/Rsend/Irsend, persistent sends, Sendrecv_replace,
 *     Mprobe/Mrecv, Improbe/Imrecv, long and short.
 * Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

#include "check.h"

static void barrier(int tag) { /* (collectives are another issue) */
  int t = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank)
      MPI_Sendrecv(&t, 1, MPI_INT, p, tag, &t, 1, MPI_INT, p, tag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static int sbuf[4000], rbuf[4000];
  const int datalen = argc > 1 ? atoi(argv[1]) : 65536; /* the job's maxdatalen (--datalen) */
  if (datalen < 4 || datalen > (1 << 24)) {
    fprintf(stderr, "remote_check: datalen %d out of range\n", datalen);
    return 2;
  }
  const int sizes[] = {0, 1, 100, 4000};

  /* 1. all pairs */
  for (int k = 0; k < 4; ++k)
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      int n = sizes[k], count = -1;
      MPI_Status st;
      for (int i = 0; i < n; ++i) sbuf[i] = rank * 100000 + p * 1000 + i;
      memset(rbuf, 0xff, sizeof rbuf);
      int rc = MPI_Sendrecv(sbuf, n, MPI_INT, p, 10 + k, rbuf, 4000, MPI_INT, p, 10 + k,
                            MPI_COMM_WORLD, &st);
      CHECK(rc == MPI_SUCCESS, "Sendrecv with %d returned %d", p, rc);
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == n && st.MPI_SOURCE == p && st.MPI_TAG == 10 + k,
            "status from %d: count %d source %d tag %d", p, count, st.MPI_SOURCE, st.MPI_TAG);
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
      CHECK(v[0] == st.MPI_SOURCE && v[1] == next[st.MPI_SOURCE],
            "from %d: message %d, expected %d", st.MPI_SOURCE, v[1], next[st.MPI_SOURCE]);
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
      CHECK(cls == MPI_ERR_TRUNCATE && count == 10, "truncated receive: class %d count %d", cls,
            count);
    }
    MPI_Type_free(&every_other);
  }
  barrier(92);

  /* 4. synchronous sends complete only once matched, short and long; so
   * does any long send (its first packet is a DATASYNC). */
  {
    int peer = size - 1, v = 7, got = 0, flag = 1;
    const int nbig = 3 * datalen + 5;
    char *big = malloc((size_t)nbig);
    if (rank == 0) {
      MPI_Request rq[2];
      for (int i = 0; i < nbig; ++i) big[i] = (char)(i * 13 + 1);
      MPI_Issend(&v, 1, MPI_INT, peer, 40, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(big, nbig, MPI_CHAR, peer, 41, MPI_COMM_WORLD, &rq[1]);
      /* 50 ms of testing: long enough for a SYNCACK sent too early to arrive */
      for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 0.05;) {
        MPI_Testany(2, rq, &got, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "send %d to another client completed before its receive was posted", got);
        if (flag) break;
      }
      int go = 1;
      MPI_Send(&go, 1, MPI_INT, peer, 42, MPI_COMM_WORLD);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      int rc = MPI_Ssend(&v, 1, MPI_INT, peer, 43, MPI_COMM_WORLD);
      CHECK(rc == MPI_SUCCESS, "Ssend to another client returned %d", rc);
      rc = MPI_Ssend(big, nbig, MPI_CHAR, peer, 44, MPI_COMM_WORLD);
      CHECK(rc == MPI_SUCCESS, "long Ssend to another client returned %d", rc);
    } else if (rank == peer) {
      int go = 0, count = -1;
      MPI_Status st;
      MPI_Recv(&go, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&got, 1, MPI_INT, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(got == 7, "Issend payload %d", got);
      /* a long message waiting unmatched: probe sees it whole */
      MPI_Probe(0, 41, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK(count == nbig, "probe of a long message: count %d, expected %d", count, nbig);
      memset(big, 0, (size_t)nbig);
      MPI_Recv(big, nbig, MPI_CHAR, 0, 41, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK(count == nbig, "long message: count %d", count);
      for (int i = 0; i < nbig; ++i)
        if (big[i] != (char)(i * 13 + 1)) {
          CHECK(0, "long message: byte %d is %d", i, big[i]);
          break;
        }
      got = 0;
      MPI_Recv(&got, 1, MPI_INT, 0, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(got == 7, "Ssend payload %d", got);
      MPI_Recv(big, nbig, MPI_CHAR, 0, 44, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(big[nbig - 1] == (char)((nbig - 1) * 13 + 1), "long Ssend: last byte %d",
            big[nbig - 1]);
    }
    free(big);
  }
  barrier(93);

  /* 5. sizes around the packet size, many packets and MiBs, between every
   * pair: bytes, ints (external32 elements split across packets when the
   * packet size is not a multiple of 4), a strided type; truncation. */
  {
    const int big = datalen >= 4096 ? (3 << 20) + 3 : 200 * datalen + 3;
    const int bytes[] = {0, 1, datalen - 1, datalen, datalen + 1, 7 * datalen + 5, big};
    char *sb = malloc((size_t)big), *rb = malloc((size_t)big + 8);
    for (int k = 0; k < (int)(sizeof bytes / sizeof bytes[0]); ++k)
      for (int p = 0; p < size; ++p) {
        if (p == rank) continue;
        int n = bytes[k], count = -1;
        MPI_Status st;
        for (int i = 0; i < n; ++i) sb[i] = (char)(rank * 31 + i * 7 + k);
        memset(rb, 0x55, (size_t)n + 8);
        MPI_Sendrecv(sb, n, MPI_CHAR, p, 60 + k, rb, n + 8, MPI_CHAR, p, 60 + k, MPI_COMM_WORLD,
                     &st);
        MPI_Get_count(&st, MPI_CHAR, &count);
        CHECK(count == n, "%d bytes from %d: count %d", n, p, count);
        for (int i = 0; i < n; ++i)
          if (rb[i] != (char)(p * 31 + i * 7 + k)) {
            CHECK(0, "%d bytes from %d: byte %d is %d", n, p, i, rb[i]);
            break;
          }
        CHECK(rb[n] == 0x55, "%d bytes from %d: wrote past the message", n, p);
        /* the same size in ints */
        int ni = n / 4;
        int *si = (int *)sb, *ri = (int *)rb;
        for (int i = 0; i < ni; ++i) si[i] = rank * 1000003 + i;
        MPI_Sendrecv(si, ni, MPI_INT, p, 70 + k, ri, ni, MPI_INT, p, 70 + k, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == ni, "%d ints from %d: count %d", ni, p, count);
        for (int i = 0; i < ni; ++i)
          if (ri[i] != p * 1000003 + i) {
            CHECK(0, "%d ints from %d: element %d is %d", ni, p, i, ri[i]);
            break;
          }
      }
    /* a long strided message: every other int of 2m */
    {
      int m = big / 8, a = 0, b = size - 1, count = -1;
      MPI_Datatype every_other;
      MPI_Type_vector(m, 1, 2, MPI_INT, &every_other);
      MPI_Type_commit(&every_other);
      int *si = (int *)sb, *ri = (int *)rb;
      MPI_Status st;
      if (rank == a) {
        for (int i = 0; i < 2 * m; ++i) si[i] = i;
        MPI_Send(si, 1, every_other, b, 80, MPI_COMM_WORLD);
        /* truncation of a long message: the receiver has room for half */
        MPI_Send(si, m, MPI_INT, b, 81, MPI_COMM_WORLD);
        MPI_Send(si, 1, MPI_INT, b, 82, MPI_COMM_WORLD); /* the channel still works after */
      } else if (rank == b) {
        MPI_Recv(ri, m, MPI_INT, a, 80, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == m, "strided: count %d of %d", count, m);
        for (int i = 0; i < m; ++i)
          if (ri[i] != 2 * i) {
            CHECK(0, "strided: element %d is %d", i, ri[i]);
            break;
          }
        int cls = -1, rc = MPI_Recv(ri, m / 2, MPI_INT, a, 81, MPI_COMM_WORLD, &st);
        MPI_Error_class(rc, &cls);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(cls == MPI_ERR_TRUNCATE && count == m / 2,
              "truncated long message: class %d count %d", cls, count);
        CHECK(ri[m / 2 - 1] == m / 2 - 1, "truncated long message: last element %d", ri[m / 2 - 1]);
        MPI_Recv(ri, 1, MPI_INT, a, 82, MPI_COMM_WORLD, &st);
        CHECK(ri[0] == 0, "after the truncated message: %d", ri[0]);
      }
      MPI_Type_free(&every_other);
    }
    free(sb);
    free(rb);
  }
  barrier(94);

  /* 6. cancel (IMPI 3.7.4): unmatched sends are cancelled (short standard,
   * short synchronous, long), matched ones are not, and in a race the
   * sender's verdict and what the receiver gets agree. */
  {
    int a = 0, b = size - 1, flag = -1;
    const int nlong = 2 * datalen + 1;
    char *lb = calloc((size_t)nlong, 1);
    if (rank == a) {
      int v1 = 1, v2 = 2, v3 = 3, v4 = 4, go = 1;
      MPI_Request rq[4];
      MPI_Status st;
      MPI_Isend(&v1, 1, MPI_INT, b, 100, MPI_COMM_WORLD, &rq[0]);
      MPI_Issend(&v2, 1, MPI_INT, b, 100, MPI_COMM_WORLD, &rq[1]);
      MPI_Isend(lb, nlong, MPI_CHAR, b, 100, MPI_COMM_WORLD, &rq[2]);
      /* 32 KiB: one packet at the default datalen, lent to a direct channel */
      MPI_Isend(lb, nlong < 32768 ? nlong : 32768, MPI_CHAR, b, 100, MPI_COMM_WORLD, &rq[3]);
      for (int i = 0; i < 4; ++i) {
        MPI_Cancel(&rq[i]);
        MPI_Wait(&rq[i], &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag == 1, "unmatched send %d to another client: cancelled %d", i, flag);
      }
      MPI_Send(&go, 1, MPI_INT, b, 99, MPI_COMM_WORLD);  /* b may receive now */
      MPI_Send(&v3, 1, MPI_INT, b, 100, MPI_COMM_WORLD); /* what b receives with tag 100 */
      /* matched, then cancelled: too late */
      MPI_Request r;
      MPI_Isend(&v4, 1, MPI_INT, b, 101, MPI_COMM_WORLD, &r);
      int ok = 0;
      MPI_Recv(&ok, 1, MPI_INT, b, 102, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Cancel(&r);
      MPI_Wait(&r, &st);
      MPI_Test_cancelled(&st, &flag);
      CHECK(flag == 0, "a matched send was cancelled");
      /* races: cancel at once while b has a receive posted */
      for (int i = 0; i < 20; ++i) {
        int v = 1000 + i, verdict = 0;
        MPI_Isend(&v, 1, MPI_INT, b, 103, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &verdict);
        if (verdict) {
          v = -1; /* b's receive is still posted: fill it */
          MPI_Send(&v, 1, MPI_INT, b, 103, MPI_COMM_WORLD);
        }
        MPI_Send(&verdict, 1, MPI_INT, b, 104, MPI_COMM_WORLD);
      }
    } else if (rank == b) {
      int v = 0, verdict = -1;
      MPI_Recv(&v, 1, MPI_INT, a, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&v, 1, MPI_INT, a, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(v == 3, "after four cancelled sends: received %d, expected 3", v);
      MPI_Recv(&v, 1, MPI_INT, a, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(v == 4, "matched send: %d", v);
      MPI_Send(&v, 1, MPI_INT, a, 102, MPI_COMM_WORLD);
      for (int i = 0; i < 20; ++i) {
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, a, 103, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Recv(&verdict, 1, MPI_INT, a, 104, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(verdict ? v == -1 : v == 1000 + i, "race %d: cancelled %d but received %d", i,
              verdict, v);
      }
      /* nothing left over with tag 100 */
      int any = 1;
      MPI_Iprobe(a, 100, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE);
      CHECK(!any, "a cancelled message is still there");
    }
    free(lb);
  }
  barrier(95);

  /* 7. the other send modes and calls, long and short */
  {
    int a = 0, b = size - 1;
    const int n = 2 * datalen + 3;
    char *x = malloc((size_t)n), *y = malloc((size_t)n);
    for (int i = 0; i < n; ++i) x[i] = (char)(i * 5 + 2);
    if (rank == a) {
      int bufsize = 2 * (n + MPI_BSEND_OVERHEAD) + 64;
      char *bb = malloc((size_t)bufsize);
      MPI_Buffer_attach(bb, bufsize);
      MPI_Bsend(x, n, MPI_CHAR, b, 110, MPI_COMM_WORLD);
      memset(x, 0, (size_t)n); /* the buffered copy went, not this */
      for (int i = 0; i < n; ++i) x[i] = (char)(i * 5 + 2);
      MPI_Request r[4];
      MPI_Ibsend(x, 10, MPI_CHAR, b, 111, MPI_COMM_WORLD, &r[0]);
      int ready = 0;
      MPI_Recv(&ready, 1, MPI_INT, b, 112, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Rsend(x, n, MPI_CHAR, b, 113, MPI_COMM_WORLD);
      MPI_Irsend(x, 1, MPI_CHAR, b, 114, MPI_COMM_WORLD, &r[1]);
      MPI_Send_init(x, n, MPI_CHAR, b, 115, MPI_COMM_WORLD, &r[2]);
      MPI_Ssend_init(x, 3, MPI_CHAR, b, 116, MPI_COMM_WORLD, &r[3]);
      for (int it = 0; it < 3; ++it) {
        MPI_Startall(2, &r[2]);
        MPI_Waitall(2, &r[2], MPI_STATUSES_IGNORE);
      }
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      MPI_Request_free(&r[2]);
      MPI_Request_free(&r[3]);
      void *det;
      int dsz;
      MPI_Buffer_detach(&det, &dsz);
      free(bb);
      /* Sendrecv_replace with a long message, Mprobe/Mrecv, Improbe/Imrecv */
      memcpy(y, x, (size_t)n);
      MPI_Sendrecv_replace(y, n, MPI_CHAR, b, 117, b, 118, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < n; ++i)
        if (y[i] != (char)(i * 3)) {
          CHECK(0, "Sendrecv_replace: byte %d is %d", i, y[i]);
          break;
        }
      MPI_Send(x, n, MPI_CHAR, b, 119, MPI_COMM_WORLD);
      MPI_Send(x, 5, MPI_CHAR, b, 120, MPI_COMM_WORLD);
    } else if (rank == b) {
      MPI_Status st;
      int count = -1, flag = 0;
      memset(y, 0, (size_t)n);
      MPI_Recv(y, n, MPI_CHAR, a, 110, MPI_COMM_WORLD, &st);
      CHECK(memcmp(x, y, (size_t)n) == 0, "Bsend of a long message: contents differ");
      MPI_Recv(y, 10, MPI_CHAR, a, 111, MPI_COMM_WORLD, &st);
      CHECK(memcmp(x, y, 10) == 0, "Ibsend: contents differ");
      MPI_Request r[2];
      char one = 0;
      MPI_Irecv(y, n, MPI_CHAR, a, 113, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(&one, 1, MPI_CHAR, a, 114, MPI_COMM_WORLD, &r[1]);
      int ready = 1;
      MPI_Send(&ready, 1, MPI_INT, a, 112, MPI_COMM_WORLD);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      CHECK(memcmp(x, y, (size_t)n) == 0 && one == x[0], "Rsend/Irsend: contents differ");
      for (int it = 0; it < 3; ++it) {
        memset(y, 0, (size_t)n);
        MPI_Recv(y, n, MPI_CHAR, a, 115, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_CHAR, &count);
        CHECK(count == n && memcmp(x, y, (size_t)n) == 0, "persistent send %d: count %d", it,
              count);
        MPI_Recv(y, 3, MPI_CHAR, a, 116, MPI_COMM_WORLD, &st);
        CHECK(memcmp(x, y, 3) == 0, "persistent Ssend %d: contents differ", it);
      }
      for (int i = 0; i < n; ++i) y[i] = (char)(i * 3);
      MPI_Sendrecv_replace(y, n, MPI_CHAR, a, 118, a, 117, MPI_COMM_WORLD, &st);
      CHECK(memcmp(x, y, (size_t)n) == 0, "Sendrecv_replace at %d: contents differ", rank);
      MPI_Message msg;
      MPI_Mprobe(a, 119, MPI_COMM_WORLD, &msg, &st);
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK(count == n, "Mprobe of a long message: count %d", count);
      memset(y, 0, (size_t)n);
      MPI_Mrecv(y, n, MPI_CHAR, &msg, &st);
      CHECK(memcmp(x, y, (size_t)n) == 0, "Mrecv of a long message: contents differ");
      do MPI_Improbe(a, 120, MPI_COMM_WORLD, &flag, &msg, &st);
      while (!flag);
      MPI_Request rq;
      MPI_Imrecv(y, 5, MPI_CHAR, &msg, &rq);
      MPI_Request_get_status(rq, &flag, &st);
      MPI_Wait(&rq, &st);
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK(count == 5 && memcmp(x, y, 5) == 0, "Imrecv: count %d", count);
    }
    free(x);
    free(y);
  }
  barrier(96);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
