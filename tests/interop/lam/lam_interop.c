/* lam_interop.c - one MPI program, built twice: with LAM/MPI 7.1.4's mpicc
 * for the LAM client and with impi's for the impi client, run as one IMPI
 * job. Each phase named on the command line runs in order; every rank
 * checks payloads, counts, sources and tags, and prints "phase NAME ok" or
 * "rank R: ..." lines; the exit status is the number of failures (capped).
 *
 * The pair is world rank 0 (first client) and the last world rank (last
 * client), so it crosses clients in every layout (1+1, 2+1, 2+2).
 * Plain C89 plus // comments avoided: LAM's headers and flags are old. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h" /* copied beside this file by run_mixed.sh */

static int rank, size, failures; /* (check.h reports the first 10 failures) */
static int peer_of_first, first; /* first = rank 0 */

#define LONG_BYTES 300000 /* well above any datalen: the long protocol */
#define SHORT_BYTES 100

static unsigned char pattern(int seed, int i) {
  return (unsigned char)((seed * 131 + i * 7) & 0xff);
}

static void fill(unsigned char *b, int n, int seed) {
  int i;
  for (i = 0; i < n; ++i) b[i] = pattern(seed, i);
}

static int bad_at(const unsigned char *b, int n, int seed) {
  int i;
  for (i = 0; i < n; ++i)
    if (b[i] != pattern(seed, i)) return i;
  return -1;
}

/* One message first -> last, then last -> first, with mode `how`:
 * 's' MPI_Send, 'y' MPI_Ssend, 'p' MPI_Probe before the receive. */
static void exchange(int n, MPI_Datatype type, int tag, char how) {
  unsigned char *b = (unsigned char *)malloc((size_t)n + 16);
  int dir, count, at;
  MPI_Status st;
  for (dir = 0; dir < 2; ++dir) {
    int sender = dir == 0 ? 0 : size - 1;
    int receiver = dir == 0 ? size - 1 : 0;
    int seed = tag * 2 + dir;
    if (rank == sender) {
      fill(b, n, seed);
      if (how == 'y')
        MPI_Ssend(b, n, type, receiver, tag, MPI_COMM_WORLD);
      else
        MPI_Send(b, n, type, receiver, tag, MPI_COMM_WORLD);
    } else if (rank == receiver) {
      memset(b, 0, (size_t)n + 16);
      if (how == 'p') {
        MPI_Probe(sender, tag, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, type, &count);
        CHECK(count == n && st.MPI_SOURCE == sender && st.MPI_TAG == tag,
              "probe tag %d: count %d source %d tag %d, expected %d %d %d", tag, count,
              st.MPI_SOURCE, st.MPI_TAG, n, sender, tag);
      }
      MPI_Recv(b, n + 16, type, sender, tag, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, type, &count);
      CHECK(count == n, "tag %d: received count %d, expected %d", tag, count, n);
      CHECK(st.MPI_SOURCE == sender && st.MPI_TAG == tag, "tag %d: status source %d tag %d", tag,
            st.MPI_SOURCE, st.MPI_TAG);
      at = bad_at(b, n, seed);
      CHECK(at < 0, "tag %d (%d bytes, mode %c): byte %d is %d, expected %d", tag, n, how, at,
            at < 0 ? 0 : b[at], at < 0 ? 0 : pattern(seed, at));
    }
  }
  free(b);
}

/* Several short messages in a row from every rank of the other side, so
 * that flow control (ackmark/hiwater) turns over many times. */
static void stream(void) {
  int i, k, n = 200;
  unsigned char b[64];
  MPI_Status st;
  for (k = 0; k < 2; ++k) {
    int sender = k == 0 ? 0 : size - 1, receiver = k == 0 ? size - 1 : 0;
    for (i = 0; i < n; ++i) {
      if (rank == sender) {
        fill(b, 64, i);
        MPI_Send(b, 64, MPI_BYTE, receiver, 100 + i % 7, MPI_COMM_WORLD);
      } else if (rank == receiver) {
        MPI_Recv(b, 64, MPI_BYTE, sender, 100 + i % 7, MPI_COMM_WORLD, &st);
        CHECK(bad_at(b, 64, i) < 0, "stream message %d out of order or corrupt", i);
      }
    }
  }
}

static void all_pairs(void) {
  /* every rank sends one short message to every other rank */
  int i;
  int mine[64], got[64];
  MPI_Request req[128];
  MPI_Status st[128];
  int nreq = 0;
  if (size > 64) return;
  for (i = 0; i < size; ++i) {
    if (i == rank) continue;
    mine[i] = rank * 1000 + i;
    MPI_Irecv(&got[i], 4, MPI_BYTE, i, 7, MPI_COMM_WORLD, &req[nreq++]);
  }
  for (i = 0; i < size; ++i) {
    if (i == rank) continue;
    MPI_Isend(&mine[i], 4, MPI_BYTE, i, 7, MPI_COMM_WORLD, &req[nreq++]);
  }
  MPI_Waitall(nreq, req, st);
  for (i = 0; i < size; ++i)
    if (i != rank) CHECK(got[i] == i * 1000 + rank, "all_pairs: from %d got %d", i, got[i]);
}

static void bcast(int root, int n) {
  unsigned char *b = (unsigned char *)malloc((size_t)n);
  int at;
  if (rank == root)
    fill(b, n, root + n);
  else
    memset(b, 0, (size_t)n);
  MPI_Bcast(b, n, MPI_CHAR, root, MPI_COMM_WORLD);
  at = bad_at(b, n, root + n);
  CHECK(at < 0, "bcast root %d, %d bytes: byte %d wrong", root, n, at);
  free(b);
}

static void typed(void) {
  /* MPI_INT and MPI_DOUBLE both ways: external32 on the wire (IMPI 4.1) */
  int iv[5], k, dir;
  double dv[3];
  MPI_Status st;
  for (dir = 0; dir < 2; ++dir) {
    int sender = dir == 0 ? 0 : size - 1, receiver = dir == 0 ? size - 1 : 0;
    if (rank == sender) {
      for (k = 0; k < 5; ++k) iv[k] = 0x01020304 * (k + 1) + dir;
      for (k = 0; k < 3; ++k) dv[k] = 1.5 * (k + 1) + dir;
      MPI_Send(iv, 5, MPI_INT, receiver, 40, MPI_COMM_WORLD);
      MPI_Send(dv, 3, MPI_DOUBLE, receiver, 41, MPI_COMM_WORLD);
    } else if (rank == receiver) {
      MPI_Recv(iv, 5, MPI_INT, sender, 40, MPI_COMM_WORLD, &st);
      MPI_Recv(dv, 3, MPI_DOUBLE, sender, 41, MPI_COMM_WORLD, &st);
      for (k = 0; k < 5; ++k)
        CHECK(iv[k] == 0x01020304 * (k + 1) + dir, "typed: int %d is 0x%08x, expected 0x%08x", k,
              (unsigned)iv[k], (unsigned)(0x01020304 * (k + 1) + dir));
      for (k = 0; k < 3; ++k)
        CHECK(dv[k] == 1.5 * (k + 1) + dir, "typed: double %d is %g, expected %g", k, dv[k],
              1.5 * (k + 1) + dir);
    }
  }
}

static void reduce(int root) {
  int v[4], out[4], k, expect;
  for (k = 0; k < 4; ++k) v[k] = (rank + 1) * (k + 1);
  memset(out, 0, sizeof out);
  MPI_Reduce(v, out, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  if (rank == root)
    for (k = 0; k < 4; ++k) {
      expect = size * (size + 1) / 2 * (k + 1);
      CHECK(out[k] == expect, "reduce root %d: element %d is %d, expected %d", root, k, out[k],
            expect);
    }
}

/* Bitwise reductions of MPI_BYTE: no byte order involved (a LAM client
 * in a single-node universe sends typed data in its native order). */
static void reduce_bytes(int root, int all) {
  unsigned char v[6], out[6];
  int k;
  for (k = 0; k < 6; ++k) v[k] = (unsigned char)(1u << ((rank + k) % 8));
  memset(out, 0, sizeof out);
  if (all)
    MPI_Allreduce(v, out, 6, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  else
    MPI_Reduce(v, out, 6, MPI_BYTE, MPI_BOR, root, MPI_COMM_WORLD);
  if (all || rank == root)
    for (k = 0; k < 6; ++k) {
      unsigned expect = 0;
      int r;
      for (r = 0; r < size; ++r) expect |= 1u << ((r + k) % 8);
      CHECK(out[k] == expect, "%s root %d: byte %d is 0x%02x, expected 0x%02x",
            all ? "allreduce_bytes" : "reduce_bytes", root, k, out[k], expect);
    }
}

static void allreduce(void) {
  int v[4], out[4], k, expect;
  for (k = 0; k < 4; ++k) v[k] = (rank + 1) * (k + 1);
  MPI_Allreduce(v, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (k = 0; k < 4; ++k) {
    expect = size * (size + 1) / 2 * (k + 1);
    CHECK(out[k] == expect, "allreduce: element %d is %d, expected %d", k, out[k], expect);
  }
}

/* Ping-pong timing between rank 0 and the last rank (8 bytes). Prints
 * "pingpong N us" (one-way, median of rounds) on rank 0. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void pingpong(int iters) {
  char b[8];
  double t[9];
  int r, i;
  MPI_Status st;
  memset(b, 1, sizeof b);
  for (r = 0; r < 9; ++r) {
    double t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (i = 0; i < iters; ++i) {
      if (rank == 0) {
        MPI_Send(b, 8, MPI_BYTE, size - 1, 9, MPI_COMM_WORLD);
        MPI_Recv(b, 8, MPI_BYTE, size - 1, 9, MPI_COMM_WORLD, &st);
      } else if (rank == size - 1) {
        MPI_Recv(b, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st);
        MPI_Send(b, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
      }
    }
    t[r] = (MPI_Wtime() - t0) / iters / 2 * 1e6;
  }
  qsort(t, 9, sizeof t[0], cmp_double);
  if (rank == 0)
    printf("pingpong %d iterations: one way %.2f us (min %.2f, max %.2f)\n", iters, t[4], t[0],
           t[8]);
}

/* impi -> LAM: an MPI_LONG that external32's 4 bytes cannot hold fails at
 * impi's sender with MPI_ERR_CONVERSION and nothing of it reaches LAM; the
 * byte message after it arrives intact. (On the impi side only: LAM
 * truncates silently.) */
static void long_overflow(void) {
  int impi_end = -1, lam_end = -1, flag = 1, at;
  unsigned char b[SHORT_BYTES];
  MPI_Status st;
#ifdef LAM_MPI
  int me_lam = 1;
#else
  int me_lam = 0;
#endif
  int mine[2], all_lam[2];
  mine[0] = rank == 0 ? me_lam : 0;
  mine[1] = rank == size - 1 ? me_lam : 0;
  MPI_Allreduce(mine, all_lam, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (all_lam[0] == all_lam[1]) return; /* (both ends in one implementation) */
  impi_end = all_lam[0] ? size - 1 : 0;
  lam_end = all_lam[0] ? 0 : size - 1;
  if (rank == impi_end) {
#ifndef LAM_MPI /* (LAM may lack MPI_ERR_CONVERSION: built without ROMIO) */
    long big = 0x123456789aL;
    int rc, cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    text[0] = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&big, 1, MPI_LONG, lam_end, 50, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
      MPI_Error_class(rc, &cls);
      MPI_Error_string(rc, text, &len);
    }
    CHECK(cls == MPI_ERR_CONVERSION, "long_overflow: MPI_Send returned class %d", cls);
    CHECK(strstr(text, "MPI_LONG") && strstr(text, "0x123456789a"),
          "long_overflow: error string '%s'", text);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
    fill(b, SHORT_BYTES, 51);
    MPI_Send(b, SHORT_BYTES, MPI_BYTE, lam_end, 51, MPI_COMM_WORLD);
  } else if (rank == lam_end) {
    memset(b, 0, sizeof b);
    MPI_Recv(b, SHORT_BYTES, MPI_BYTE, impi_end, 51, MPI_COMM_WORLD, &st);
    at = bad_at(b, SHORT_BYTES, 51);
    CHECK(at < 0, "long_overflow: the byte message after it differs at %d", at);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Iprobe(MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &flag, &st);
  CHECK(!flag, "long_overflow: the failed MPI_LONG message arrived");
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  first = rank == 0;
  peer_of_first = size - 1;
  for (i = 1; i < argc; ++i) {
    const char *p = argv[i];
    int before = failures;
    if (!strcmp(p, "short")) {
      exchange(SHORT_BYTES, MPI_BYTE, 1, 's');
      exchange(SHORT_BYTES, MPI_CHAR, 2, 's');
      exchange(0, MPI_BYTE, 3, 's');
    } else if (!strcmp(p, "long")) {
      exchange(LONG_BYTES, MPI_BYTE, 4, 's');
      exchange(LONG_BYTES, MPI_CHAR, 5, 's');
    } else if (!strcmp(p, "sync")) {
      exchange(SHORT_BYTES, MPI_BYTE, 6, 'y');
      exchange(LONG_BYTES, MPI_BYTE, 7, 'y');
    } else if (!strcmp(p, "probe")) {
      exchange(SHORT_BYTES, MPI_BYTE, 8, 'p');
    } else if (!strcmp(p, "probe_long")) {
      exchange(LONG_BYTES, MPI_BYTE, 9, 'p');
    } else if (!strcmp(p, "stream")) {
      stream();
    } else if (!strcmp(p, "pairs")) {
      all_pairs();
    } else if (!strcmp(p, "barrier")) {
      int k;
      for (k = 0; k < 5; ++k) MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(p, "bcast")) {
      bcast(0, SHORT_BYTES);
      bcast(size - 1, SHORT_BYTES);
      bcast(size - 1, 5000);
    } else if (!strcmp(p, "bcast_long")) {
      bcast(0, LONG_BYTES);
      bcast(size - 1, LONG_BYTES);
    } else if (!strcmp(p, "typed")) {
      typed();
    } else if (!strcmp(p, "reduce")) {
      reduce(0);
      reduce(size - 1);
    } else if (!strcmp(p, "reduce_bytes")) {
      reduce_bytes(0, 0);
      reduce_bytes(size - 1, 0);
    } else if (!strcmp(p, "allreduce_bytes")) {
      reduce_bytes(0, 1);
    } else if (!strcmp(p, "allreduce")) {
      allreduce();
    } else if (!strcmp(p, "long_overflow")) {
      long_overflow();
    } else if (!strncmp(p, "pingpong=", 9)) {
      pingpong(atoi(p + 9));
    } else {
      CHECK(0, "unknown phase '%s'", p);
    }
    if (failures == before) printf("rank %d: phase %s ok\n", rank, p);
    fflush(stdout);
  }
  MPI_Finalize();
  if (failures == 0) printf("rank %d: finalized ok\n", rank);
  return failures > 100 ? 100 : failures;
}
