/* part_check.c - partitioned communication (MPI-4.0 4.2): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
 *
 * 1. A ring (each rank sends to the next, receives from the previous), 16
 *    partitions readied by 4 threads in random order, several rounds; the
 *    main thread polls MPI_Parrived and checks each partition's payload as
 *    soon as it is reported arrived.
 * 2. Data moves before the last MPI_Pready: rank 0 readies partition 0 only,
 *    then waits for a message rank 1 sends once MPI_Parrived(0) said yes.
 * 3. MPI_Pready_range and MPI_Pready_list, and receive partitionings unlike
 *    the send's (coarser and finer).
 * 4. MPI_PROC_NULL peers; MPI_Cancel of a receive round nothing matched;
 *    MPI_Parrived on a null or inactive request.
 * 5. A send larger than the receive: MPI_ERR_TRUNCATE.
 * 6. A pair's setup collected while another receive from the same source
 *    looked for its own (which never comes): the pair still connects.
 * 7. A truncated round leaves none of its messages behind: a pair that
 *    reuses its pair id (they wrap) gets its own data.
 * Needs MPI_THREAD_MULTIPLE; any number of ranks from 2. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, failures;

enum { kParts = 16, kThreads = 4, kPerPart = 1000, kRounds = 4 };

static int value(int from, int round, int i) {
  return from * 1000000 + round * 10000 + i;
}

struct Worker {
  MPI_Request req;
  int *buf;
  int round;
  int parts[kParts / kThreads];
};

static void *ready_some(void *arg) {
  struct Worker *w = arg;
  for (int k = 0; k < kParts / kThreads; ++k) {
    int p = w->parts[k];
    for (int j = 0; j < kPerPart; ++j)
      w->buf[p * kPerPart + j] = value(rank, w->round, p * kPerPart + j);
    int rc = MPI_Pready(p, w->req);
    CHECK(rc == MPI_SUCCESS, "MPI_Pready(%d) returned %d", p, rc);
  }
  return NULL;
}

static void ring(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int *sbuf = calloc(kParts * kPerPart, sizeof(int));
  int *rbuf = malloc(sizeof(int) * kParts * kPerPart);
  MPI_Request reqs[2];
  MPI_Psend_init(sbuf, kParts, kPerPart, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                 &reqs[0]);
  MPI_Precv_init(rbuf, kParts, kPerPart, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
  unsigned seed = 1234u + (unsigned)rank;
  for (int round = 0; round < kRounds; ++round) {
    memset(rbuf, 0xff, sizeof(int) * kParts * kPerPart);
    MPI_Startall(2, reqs);
    int order[kParts];
    for (int i = 0; i < kParts; ++i) order[i] = i;
    for (int i = kParts - 1; i > 0; --i) {
      int j = (int)(rand_r(&seed) % (unsigned)(i + 1)), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    struct Worker w[kThreads];
    pthread_t th[kThreads];
    for (int t = 0; t < kThreads; ++t) {
      w[t].req = reqs[0];
      w[t].buf = sbuf;
      w[t].round = round;
      for (int k = 0; k < kParts / kThreads; ++k)
        w[t].parts[k] = order[t * (kParts / kThreads) + k];
      pthread_create(&th[t], NULL, ready_some, &w[t]);
    }
    int seen[kParts] = {0}, nseen = 0;
    while (nseen < kParts) {
      for (int p = 0; p < kParts; ++p) {
        if (seen[p]) continue;
        int flag = 0;
        int rc = MPI_Parrived(reqs[1], p, &flag);
        CHECK(rc == MPI_SUCCESS, "MPI_Parrived returned %d", rc);
        if (!flag) continue;
        seen[p] = 1;
        ++nseen;
        int bad = 0;
        for (int j = 0; j < kPerPart; ++j)
          bad += rbuf[p * kPerPart + j] != value(left, round, p * kPerPart + j);
        CHECK(bad == 0, "round %d: partition %d reported arrived with %d wrong values", round, p,
              bad);
      }
    }
    for (int t = 0; t < kThreads; ++t) pthread_join(th[t], NULL);
    MPI_Status st[2];
    int rc = MPI_Waitall(2, reqs, st);
    CHECK(rc == MPI_SUCCESS, "round %d: MPI_Waitall returned %d", round, rc);
    int n = -1;
    MPI_Get_count(&st[1], MPI_INT, &n);
    CHECK(st[1].MPI_SOURCE == left && st[1].MPI_TAG == 5 && n == kParts * kPerPart,
          "round %d: status source %d tag %d count %d", round, st[1].MPI_SOURCE, st[1].MPI_TAG, n);
    int bad = 0;
    for (int i = 0; i < kParts * kPerPart; ++i) bad += rbuf[i] != value(left, round, i);
    CHECK(bad == 0, "round %d: %d wrong values", round, bad);
  }
  /* Waited (inactive): MPI_Parrived says yes, MPI_Wait returns at once. */
  int flag = 0;
  MPI_Parrived(reqs[1], 0, &flag);
  CHECK(flag, "MPI_Parrived on an inactive request: flag false");
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  CHECK(reqs[0] == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
  free(sbuf);
  free(rbuf);
}

/* Rank 0 readies partition 0, then waits for rank 1, which answers once it
 * saw partition 0 arrive: data moved before the last MPI_Pready. */
static void early(void) {
  enum { n = 4, per = 20000 };
  static double buf[n * per];
  MPI_Request req;
  if (rank == 0) {
    MPI_Psend_init(buf, n, per, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int round = 0; round < 2; ++round) {
      MPI_Start(&req);
      for (int j = 0; j < per; ++j) buf[j] = round + j * 0.5;
      MPI_Pready(0, req);
      int go = 0;
      MPI_Recv(&go, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(go == 1 + round, "round %d: go %d", round, go);
      for (int j = per; j < n * per; ++j) buf[j] = round + j * 0.5;
      MPI_Pready_range(1, n - 1, req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req);
  } else if (rank == 1) {
    MPI_Precv_init(buf, n, per, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int round = 0; round < 2; ++round) {
      memset(buf, 0, sizeof buf);
      MPI_Start(&req);
      int flag = 0;
      while (!flag) MPI_Parrived(req, 0, &flag);
      int bad = 0;
      for (int j = 0; j < per; ++j) bad += buf[j] != round + j * 0.5;
      CHECK(bad == 0, "round %d: partition 0 arrived with %d wrong values", round, bad);
      for (int p = 1; p < n; ++p) {
        MPI_Parrived(req, p, &flag);
        CHECK(!flag, "round %d: partition %d arrived before the sender readied it", round, p);
      }
      int test = 1;
      MPI_Test(&req, &test, MPI_STATUS_IGNORE);
      CHECK(!test, "round %d: MPI_Test completed a receive with partitions missing", round);
      int go = 1 + round;
      MPI_Send(&go, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      bad = 0;
      for (int j = 0; j < n * per; ++j) bad += buf[j] != round + j * 0.5;
      CHECK(bad == 0, "round %d: %d wrong values", round, bad);
    }
    MPI_Request_free(&req);
  }
}

/* 8 send partitions of 6 ints; received as 3 of 16 (coarser) and as 12 of
 * 4 (finer), two pairs with the same tag matched in the order of their init
 * calls. */
static void shapes(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int s1[48] = {0}, s2[48] = {0}, r1[48] = {0}, r2[48] = {0};
  MPI_Request req[4];
  MPI_Psend_init(s1, 8, 6, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Psend_init(s2, 8, 6, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
  MPI_Precv_init(r1, 3, 16, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
  MPI_Precv_init(r2, 12, 4, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 48; ++i) {
      s1[i] = value(rank, round, i);
      s2[i] = -value(rank, round, i);
      r1[i] = r2[i] = 0;
    }
    /* The second pair starts first: matching follows the init calls. */
    MPI_Start(&req[3]);
    MPI_Start(&req[1]);
    MPI_Start(&req[2]);
    MPI_Start(&req[0]);
    MPI_Pready_range(0, 3, req[0]);
    const int list[4] = {7, 5, 4, 6};
    MPI_Pready_list(4, list, req[0]);
    MPI_Pready_list(4, list, req[1]);
    MPI_Pready_range(0, 3, req[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Pready(2, req[1]);
    CHECK(rc != MPI_SUCCESS, "MPI_Pready of a partition readied twice succeeded");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    /* Coarse partition 1 = ints 16..31 = send partitions 2..5. */
    int flag = 0;
    while (!flag) MPI_Parrived(req[2], 1, &flag);
    int bad = 0;
    for (int i = 16; i < 32; ++i) bad += r1[i] != value(left, round, i);
    CHECK(bad == 0, "round %d: coarse partition 1 arrived with %d wrong values", round, bad);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    int bad1 = 0, bad2 = 0;
    for (int i = 0; i < 48; ++i) {
      bad1 += r1[i] != value(left, round, i);
      bad2 += r2[i] != -value(left, round, i);
    }
    CHECK(bad1 == 0 && bad2 == 0, "round %d: %d and %d wrong values", round, bad1, bad2);
  }
  for (int i = 0; i < 4; ++i) MPI_Request_free(&req[i]);
}

static void edges(void) {
  int buf[8] = {0};
  MPI_Request req;
  MPI_Status st;
  /* MPI_PROC_NULL. */
  MPI_Psend_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  MPI_Start(&req);
  CHECK(MPI_Pready_range(0, 1, req) == MPI_SUCCESS, "MPI_Pready_range to MPI_PROC_NULL failed");
  CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS, "MPI_Wait to MPI_PROC_NULL failed");
  MPI_Request_free(&req);
  MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  MPI_Start(&req);
  MPI_Wait(&req, &st);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "receive from MPI_PROC_NULL: source %d", st.MPI_SOURCE);
  MPI_Request_free(&req);
  /* MPI_Parrived on MPI_REQUEST_NULL. */
  int flag = 0;
  MPI_Parrived(MPI_REQUEST_NULL, 0, &flag);
  CHECK(flag, "MPI_Parrived(MPI_REQUEST_NULL) flag false");
  /* Wildcards are refused. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int rc =
      MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  CHECK(rc != MPI_SUCCESS, "MPI_Precv_init from MPI_ANY_SOURCE succeeded");
  /* Cancel a receive round nothing matched (tag 77: nobody sends it). */
  MPI_Precv_init(buf, 2, 4, MPI_INT, (rank + 1) % size, 77, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  MPI_Start(&req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled, "the cancelled partitioned receive was not cancelled");
  MPI_Request_free(&req);
  /* A send larger than the receive: MPI_ERR_TRUNCATE at the receiver. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int big[16], small[8];
  for (int i = 0; i < 16; ++i) big[i] = i;
  MPI_Request r2[2];
  MPI_Psend_init(big, 4, 4, MPI_INT, right, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &r2[0]);
  MPI_Precv_init(small, 2, 4, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &r2[1]);
  MPI_Startall(2, r2);
  MPI_Pready_range(0, 3, r2[0]);
  rc = MPI_Wait(&r2[1], &st);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE, "oversized partitioned send: class %d, not MPI_ERR_TRUNCATE", cls);
  MPI_Wait(&r2[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&r2[0]);
  MPI_Request_free(&r2[1]);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

/* Rank 0 starts a send (its setup message goes out), then tells rank 1,
 * which only then starts a receive nobody sends (tag 33: its look for a setup
 * collects tag 31's) and after it the receive of tag 31. */
static void setup_elsewhere(void) {
  int buf[8];
  MPI_Request req;
  if (rank == 0) {
    for (int i = 0; i < 8; ++i) buf[i] = 100 + i;
    MPI_Psend_init(buf, 2, 4, MPI_INT, 1, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    int go = 1;
    MPI_Send(&go, 1, MPI_INT, 1, 32, MPI_COMM_WORLD);
    MPI_Pready_range(0, 1, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
  } else if (rank == 1) {
    int go = 0, other[8];
    MPI_Recv(&go, 1, MPI_INT, 0, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request none;
    MPI_Precv_init(other, 2, 4, MPI_INT, 0, 33, MPI_COMM_WORLD, MPI_INFO_NULL, &none);
    MPI_Start(&none);
    memset(buf, 0, sizeof buf);
    MPI_Precv_init(buf, 2, 4, MPI_INT, 0, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Status st;
    MPI_Wait(&req, &st);
    int bad = 0;
    for (int i = 0; i < 8; ++i) bad += buf[i] != 100 + i;
    CHECK(bad == 0 && st.MPI_SOURCE == 0 && st.MPI_TAG == 31,
          "setup taken by another receive's look: %d wrong values, source %d tag %d", bad,
          st.MPI_SOURCE, st.MPI_TAG);
    MPI_Request_free(&req);
    MPI_Cancel(&none);
    MPI_Wait(&none, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled, "the unmatched partitioned receive was not cancelled");
    MPI_Request_free(&none);
  }
}

/* Rank 0 sends 4 x 4 ints to a receive of 8 (MPI_ERR_TRUNCATE), then inits
 * and frees kWrap - 1 sends to rank 1 so that the next one gets the same pair
 * id (impi's 14 bits), and sends other values through it. */
static void orphans(void) {
  enum { kWrap = 1 << 14 };
  int big[16], got[16];
  MPI_Request req;
  if (rank == 0) {
    for (int i = 0; i < 16; ++i) big[i] = -1 - i;
    MPI_Psend_init(big, 4, 4, MPI_INT, 1, 41, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Pready_range(0, 3, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
    for (int k = 0; k < kWrap - 1; ++k) {
      MPI_Psend_init(big, 4, 4, MPI_INT, 1, 42, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
      MPI_Request_free(&req);
    }
    for (int i = 0; i < 16; ++i) big[i] = 500 + i;
    MPI_Psend_init(big, 4, 4, MPI_INT, 1, 43, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Pready_range(0, 3, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
  } else if (rank == 1) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Precv_init(got, 2, 4, MPI_INT, 0, 41, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    int cls = -1, rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "oversized partitioned send: class %d", cls);
    MPI_Request_free(&req);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    memset(got, 0, sizeof got);
    MPI_Precv_init(got, 4, 4, MPI_INT, 0, 43, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
    int bad = 0;
    for (int i = 0; i < 16; ++i) bad += got[i] != 500 + i;
    CHECK(bad == 0, "after a truncated round: %d wrong values (first %d)", bad, got[0]);
  }
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE || size < 2) {
    fprintf(stderr, "rank %d: needs MPI_THREAD_MULTIPLE and 2 ranks\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  ring();
  MPI_Barrier(MPI_COMM_WORLD);
  early();
  MPI_Barrier(MPI_COMM_WORLD);
  shapes();
  MPI_Barrier(MPI_COMM_WORLD);
  edges();
  MPI_Barrier(MPI_COMM_WORLD);
  setup_elsewhere();
  MPI_Barrier(MPI_COMM_WORLD);
  orphans();
  MPI_Barrier(MPI_COMM_WORLD);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return total > 0;
}
