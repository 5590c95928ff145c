/* cancel_check.c - MPI_Cancel of sends (MPI-3.1 3.8.4), checked in every
 * process, to every peer (itself included) at once: peers of the same client
 * (shared memory) and, in multi-client jobs, of other clients (IMPI CANCEL).
 * Prints "rank R of N ok" when every check passed.
 *
 * Round d: each rank sends to rank+d and receives from rank-d (mod N).
 * - Not matched yet: Isend (small, eager, single-copy size, a long
 *   non-contiguous one in chunks), Issend, Ibsend, a persistent send, each
 *   cancelled before the receiver posts anything: the cancel must succeed,
 *   the receiver's Iprobe must then find nothing, and a later message with
 *   the same tag must arrive intact (not the cancelled one).
 * - Matched: the receiver posts first and says so; then the cancel must
 *   fail and the data arrive whole.
 * Argument: how many times to repeat the long unmatched case (its buffered
 * bytes must be released on each cancel: run with a low
 * IMPI_UNEXPECTED_LIMIT_BYTES to show it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int failures = 0, rank, size;

enum { kFlagTag = 1, kReadyTag = 2 };
enum { kStandard, kSync, kBuffered, kPersistent };
static const char *mode_name[] = {"Isend", "Issend", "Ibsend", "Send_init/Start"};

static unsigned char pattern(long i, int seed) {
  return (unsigned char)(i * 131 + seed * 7 + 1);
}

/* `n` bytes as MPI_BYTE, or (strided, n a multiple of 1024) as elements
 * of 1024 bytes taken from every other byte of 2048: not contiguous, so
 * never single-copy. */
struct msg {
  long n;
  int strided;
};

static void fill(unsigned char *buf, struct msg m, int seed) {
  long k;
  for (k = 0; k < m.n * (m.strided ? 2 : 1); ++k) buf[k] = pattern(k, seed);
}

static int same(const unsigned char *buf, struct msg m, int seed) {
  long k, step = m.strided ? 2 : 1;
  for (k = 0; k < m.n * step; k += step)
    if (buf[k] != pattern(k, seed)) return 0;
  return 1;
}

static MPI_Datatype type_of(struct msg m, int *count) {
  static MPI_Datatype strided = MPI_DATATYPE_NULL;
  if (!m.strided) {
    *count = (int)m.n;
    return MPI_BYTE;
  }
  if (strided == MPI_DATATYPE_NULL) {
    MPI_Datatype v;
    MPI_Type_vector(1024, 1, 2, MPI_BYTE, &v);
    MPI_Type_create_resized(v, 0, 2048, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_free(&v);
  }
  *count = (int)(m.n / 1024);
  return strided;
}

/* Starts a send of `m` in `mode` to `to`. */
static void start_send(int mode, unsigned char *buf, struct msg m, int to, int tag,
                       MPI_Request *req) {
  int count;
  MPI_Datatype t = type_of(m, &count);
  switch (mode) {
    case kStandard:
      MPI_Isend(buf, count, t, to, tag, MPI_COMM_WORLD, req);
      break;
    case kSync:
      MPI_Issend(buf, count, t, to, tag, MPI_COMM_WORLD, req);
      break;
    case kBuffered:
      MPI_Ibsend(buf, count, t, to, tag, MPI_COMM_WORLD, req);
      break;
    default:
      MPI_Send_init(buf, count, t, to, tag, MPI_COMM_WORLD, req);
      MPI_Start(req);
      break;
  }
}

/* Cancel before the receiver has posted anything: must succeed. */
static void unmatched(int mode, struct msg m, int d, int tag) {
  int to = (rank + d) % size, from = (rank - d + size) % size, flag = -1, got, count, marker[4];
  long bytes = m.n * (m.strided ? 2 : 1);
  unsigned char *buf = malloc(bytes + 1), *rbuf = malloc(bytes + 1);
  void *bsend = NULL;
  MPI_Request req;
  MPI_Status st;
  if (mode == kBuffered) {
    int packed;
    MPI_Datatype t = type_of(m, &count);
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &packed);
    bsend = malloc(packed + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(bsend, packed + MPI_BSEND_OVERHEAD);
  }
  /* As the sender. */
  fill(buf, m, tag);
  start_send(mode, buf, m, to, tag, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1, "round %d: %s of %ld bytes to rank %d: not cancelled", d, mode_name[mode], bytes,
        to);
  /* Inactive now, a persistent send starts again: this time the message
   * goes (it completes below, once the receiver has taken it). */
  if (mode == kPersistent) MPI_Start(&req);
  if (mode == kBuffered) {
    int size_back;
    void *back;
    MPI_Buffer_detach(&back, &size_back); /* nothing of the cancelled message is left to send */
    free(bsend);
  }
  MPI_Send(&flag, 1, MPI_INT, to, kFlagTag, MPI_COMM_WORLD);
  /* As the receiver. */
  MPI_Recv(&got, 1, MPI_INT, from, kFlagTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (mode == kPersistent) { /* the restarted send's message comes first */
    int rcount;
    MPI_Datatype t = type_of(m, &rcount);
    memset(rbuf, 0, bytes + 1);
    MPI_Recv(rbuf, rcount, t, from, tag, MPI_COMM_WORLD, &st);
    CHECK(same(rbuf, m, tag), "round %d: restarted persistent send from rank %d: wrong data", d,
          from);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &got);
    CHECK(!got, "round %d: restarted persistent send reports cancelled", d);
    MPI_Request_free(&req);
  } else if (got == 1) {
    int there = 1;
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &there, &st);
    if (there) MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(!there,
          "round %d: the cancelled %s of %ld bytes from rank %d can still be probed (tag %d, %d "
          "bytes)",
          d, mode_name[mode], bytes, from, st.MPI_TAG, count);
  } else { /* not cancelled (a failure reported by the sender): take it out of the way */
    int rcount;
    MPI_Datatype t = type_of(m, &rcount);
    MPI_Recv(rbuf, rcount, t, from, tag, MPI_COMM_WORLD, &st);
  }
  /* Then, once the receiver has looked, a message with the same tag: it must be the one received.
   */
  MPI_Send(&got, 1, MPI_INT, from, kReadyTag, MPI_COMM_WORLD);
  MPI_Recv(&got, 1, MPI_INT, to, kReadyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  marker[0] = rank, marker[1] = tag, marker[2] = d, marker[3] = 12345;
  MPI_Send(marker, 4, MPI_INT, to, tag, MPI_COMM_WORLD);
  memset(marker, 0, sizeof marker);
  MPI_Recv(marker, 4, MPI_INT, from, tag, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 4 && marker[0] == from && marker[1] == tag && marker[2] == d && marker[3] == 12345,
        "round %d: after a cancelled %s from rank %d, the next message with its tag came wrong "
        "(%d ints: %d %d %d %d)",
        d, mode_name[mode], from, count, marker[0], marker[1], marker[2], marker[3]);
  free(buf);
  free(rbuf);
}

/* Cancel once the receiver has matched: must fail, and the data arrive. */
static void matched(int mode, struct msg m, int d, int tag) {
  int to = (rank + d) % size, from = (rank - d + size) % size, flag = -1, count, rcount, ready = 0;
  long bytes = m.n * (m.strided ? 2 : 1);
  unsigned char *buf = malloc(bytes + 1), *rbuf = malloc(bytes + 1);
  MPI_Datatype t = type_of(m, &rcount);
  MPI_Request rreq, req;
  MPI_Status st;
  memset(rbuf, 0, bytes + 1);
  MPI_Irecv(rbuf, rcount, t, from, tag, MPI_COMM_WORLD, &rreq);
  MPI_Send(&ready, 1, MPI_INT, from, kReadyTag, MPI_COMM_WORLD);
  MPI_Recv(&ready, 1, MPI_INT, to, kReadyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fill(buf, m, tag);
  start_send(mode, buf, m, to, tag, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 0, "round %d: %s of %ld bytes to rank %d, matched already: cancelled", d,
        mode_name[mode], bytes, to);
  if (mode == kPersistent) MPI_Request_free(&req);
  MPI_Wait(&rreq, &st);
  MPI_Get_count(&st, t, &count);
  CHECK(count == rcount && same(rbuf, m, tag),
        "round %d: %s from rank %d, its cancel refused: %d of %d received%s", d, mode_name[mode],
        from, count, rcount, same(rbuf, m, tag) ? "" : ", wrong data");
  free(buf);
  free(rbuf);
}

int main(int argc, char **argv) {
  /* 8 and 4000: written into the ring at once; 100000: single-copy where
   * possible; 293 KiB strided: a first record and chunks (the ring is 1 MiB). */
  struct msg sizes[] = {{8, 0}, {4000, 0}, {100000, 0}, {293 * 1024, 1}};
  int nsizes = (int)(sizeof sizes / sizeof sizes[0]), repeat = argc > 1 ? atoi(argv[1]) : 1;
  int d, i, mode, tag = 100, r, all;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (d = 0; d < size; ++d) {
    for (mode = kStandard; mode <= kPersistent; ++mode)
      for (i = 0; i < nsizes; ++i) {
        for (r = 0; r < (sizes[i].strided ? repeat : 1); ++r) unmatched(mode, sizes[i], d, tag++);
        if (mode != kBuffered) matched(mode, sizes[i], d, tag++);
      }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
