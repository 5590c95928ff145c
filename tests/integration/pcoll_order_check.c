/* Persistent collectives on MPI_COMM_WORLD in every interleaving the
 * standard allows (MPI-4.0 6.13): two started in different orders on
 * different ranks; then, with the communicator's assertion that starts
 * come in the same order (MPI-4.1), several persistent requests started
 * in the same order on all ranks and completed in any order (Wait in
 * reverse, MPI_Test polling, Waitall, Testall); blocking and nonblocking
 * collectives on the same communicator between a start and its
 * completion; several starts outstanding at once; a Bcast whose root uses
 * a derived type of the others' signature; in-place Allreduce and Reduce.
 * In one client the asserted ones take MPI_COMM_WORLD's shared-memory
 * slots without blocking (fast_native.hpp), next to the blocking calls'
 * slots; without it, each takes a pair of slots of its own (own slots,
 * while 16 pairs last; the others the nonblocking tasks), so the same
 * phases run once without the assertion and once with it; requests freed
 * and made again in different orders on different ranks reuse the pairs.
 * The same on sub-communicators (a split in halves and two overlapping
 * ones), whose pairs pass between requests of different members; and a
 * member of a sub-communicator that reads its peer's contribution late,
 * after the peer freed its request and made one with a third rank (the
 * pair must not be reused under the late reader).
 * Across clients the IMPI tasks. A request freed while active still
 * completes. Every result is checked.
 *   pcoll_order_check [multiple]
 * multiple: MPI_THREAD_MULTIPLE, with a second thread exchanging messages
 * on a duplicate of MPI_COMM_WORLD throughout (its progress passes run the
 * slots' hook too), and making persistent Allreduces of its own there. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures, rank, size;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

enum { NA = 3, ND = 200, NB = 64, NR = 5, NM = 3000, NREQ = 8 };

/* The persistent requests' buffers. */
static int a_in[NA], a_out[NA];  /* Allreduce sum of ints */
static double d_io[ND];          /* Allreduce max of doubles, in place */
static int b0[NB], bl[2 * NB];   /* Bcast from 0 (contiguous); from size-1 (strided at root) */
static long r_in[NR], r_out[NR]; /* Reduce sum to size-1 */
static int ri_io[NR];            /* Reduce in place at root 0 (min) */
static int m_in[NM], m_out[NM];  /* Allreduce sum larger than a slot (12 KB: messages) */

/* Fills the inputs of iteration k. */
static void fill(int k) {
  for (int i = 0; i < NA; ++i) a_in[i] = rank * 10 + i + k;
  for (int i = 0; i < ND; ++i) d_io[i] = (double)((rank * 7 + i + k) % (size + 3));
  for (int i = 0; i < NB; ++i) b0[i] = rank == 0 ? k * 1000 + i : -1;
  for (int i = 0; i < 2 * NB; ++i) bl[i] = rank == size - 1 ? (i % 2 ? -7 : k * 100 + i / 2) : -1;
  for (int i = 0; i < NR; ++i) r_in[i] = (long)rank * i + k;
  for (int i = 0; i < NR; ++i) r_out[i] = -1;
  for (int i = 0; i < NR; ++i) ri_io[i] = 100 + rank - i + k;
  for (int i = 0; i < NM; ++i) m_in[i] = rank * 3 + i + k, m_out[i] = -1;
}

/* Checks the results of iteration k. */
static void check(int k) {
  for (int i = 0; i < NA; ++i) {
    int want = 10 * size * (size - 1) / 2 + size * (i + k);
    CHECK(a_out[i] == want, "iter %d allreduce[%d] %d want %d", k, i, a_out[i], want);
  }
  for (int i = 0; i < ND; ++i) {
    double want = 0;
    for (int r = 0; r < size; ++r) {
      double v = (double)((r * 7 + i + k) % (size + 3));
      if (v > want) want = v;
    }
    CHECK(d_io[i] == want, "iter %d max[%d] %g want %g", k, i, d_io[i], want);
  }
  for (int i = 0; i < NB; ++i) CHECK(b0[i] == k * 1000 + i, "iter %d bcast0[%d] %d", k, i, b0[i]);
  if (rank == size - 1) {
    for (int i = 0; i < 2 * NB; ++i)
      CHECK(bl[i] == (i % 2 ? -7 : k * 100 + i / 2), "iter %d root bcast[%d] %d", k, i, bl[i]);
  } else {
    for (int i = 0; i < NB; ++i) CHECK(bl[i] == k * 100 + i, "iter %d bcast[%d] %d", k, i, bl[i]);
    for (int i = NB; i < 2 * NB; ++i) CHECK(bl[i] == -1, "iter %d bcast wrote [%d]", k, i);
  }
  for (int i = 0; i < NR; ++i) {
    long want = rank == size - 1 ? (long)i * size * (size - 1) / 2 + (long)size * k : -1;
    CHECK(r_out[i] == want, "iter %d reduce[%d] %ld want %ld", k, i, r_out[i], want);
  }
  if (rank == 0)
    for (int i = 0; i < NR; ++i)
      CHECK(ri_io[i] == 100 - i + k, "iter %d reduce in place[%d] %d", k, i, ri_io[i]);
  for (int i = 0; i < NM; ++i) {
    int want = 3 * size * (size - 1) / 2 + size * (i + k);
    if (m_out[i] != want) {
      CHECK(0, "iter %d large allreduce[%d] %d want %d", k, i, m_out[i], want);
      break;
    }
  }
}

/* Plain collectives on the same communicator, checked. */
static void plain_colls(int k) {
  int x = rank + k, sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == size * (size - 1) / 2 + size * k, "iter %d plain allreduce %d", k, sum);
  MPI_Barrier(MPI_COMM_WORLD);
  int v = rank == 0 ? k + 5 : -1;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CHECK(v == k + 5, "iter %d plain bcast %d", k, v);
  double big[600], bigsum[600]; /* above the slots' size: the messages' Allreduce */
  for (int i = 0; i < 600; ++i) big[i] = rank + i;
  MPI_Allreduce(big, bigsum, 600, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  CHECK(bigsum[599] == size * (size - 1) / 2.0 + size * 599.0, "iter %d big allreduce", k);
}

/* The second thread (multiple): a ring exchange on its own communicator
 * until the main thread is done, every message checked. */
static MPI_Comm side;
static atomic_int side_stop;
static int side_failures;
static void phases(int strict);
static void sub_comms(void);
static void late_reader(void);

static void *side_loop(void *arg) {
  (void)arg;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int n = 0;; ++n) {
    int out[2] = {rank, n}, in[2] = {-1, -1}, go = !atomic_load(&side_stop), all = 0;
    MPI_Sendrecv(out, 2, MPI_INT, right, 5, in, 2, MPI_INT, left, 5, side, MPI_STATUS_IGNORE);
    if (in[0] != left || in[1] != n) ++side_failures;
    if (n % 16 == 0) {
      /* A persistent Allreduce of this thread's own, made while the main
       * thread makes and starts its own (their init calls' agreements on
       * slot pairs at the same time). */
      int a = rank + n, sum = -1;
      MPI_Request pr;
      MPI_Allreduce_init(&a, &sum, 1, MPI_INT, MPI_SUM, side, MPI_INFO_NULL, &pr);
      for (int i = 0; i < 3; ++i) {
        sum = -1;
        MPI_Start(&pr);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
        if (sum != size * (size - 1) / 2 + size * n) ++side_failures;
      }
      MPI_Request_free(&pr);
    }
    /* (all ranks stop at the same round) */
    MPI_Allreduce(&go, &all, 1, MPI_INT, MPI_LAND, side);
    if (!all) return NULL;
  }
}

int main(int argc, char **argv) {
  const int multiple = argc > 1 && strcmp(argv[1], "multiple") == 0;
  pthread_t th;
  if (multiple) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
      fprintf(stderr, "MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
      return 1;
    }
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (multiple) {
    MPI_Comm_dup(MPI_COMM_WORLD, &side);
    pthread_create(&th, NULL, side_loop, NULL);
  }

  /* Without the ordering assertion, persistent collectives may be started
   * in different orders on different ranks (MPI-4.0 6.13: only the init
   * calls are ordered; they match as initialized), as MPICH's coll/p_order
   * does. Two Allreduces (sum and max: one's values in the other would
   * show) that each rank needs the others for, a Bcast and a Barrier:
   * even ranks start them in one order, odd ranks in the reverse one, by
   * MPI_Start and by MPI_Startall of a permuted array. */
  {
    int x = -1, s_in = 0, s_out = -1, m_in = 0, m_out = -1;
    MPI_Request pr[4];
    MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[0]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &pr[1]);
    MPI_Allreduce_init(&s_in, &s_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[2]);
    MPI_Allreduce_init(&m_in, &m_out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[3]);
    for (int k = 0; k < 6; ++k) {
      if (rank == 0) x = 42 + k;
      s_in = rank + k;
      m_in = 100 * (rank + 1) + k;
      if (k % 2 == 0) {
        for (int i = 0; i < 4; ++i) MPI_Start(&pr[rank % 2 ? 3 - i : i]);
      } else {
        MPI_Request perm[4];
        for (int i = 0; i < 4; ++i) perm[i] = pr[rank % 2 ? 3 - i : i];
        MPI_Startall(4, perm);
      }
      MPI_Waitall(4, pr, MPI_STATUSES_IGNORE);
      CHECK(x == 42 + k, "out-of-order starts, Bcast: %d", x);
      CHECK(s_out == size * (size - 1) / 2 + size * k, "out-of-order starts, sum: %d", s_out);
      CHECK(m_out == 100 * size + k, "out-of-order starts, max: %d", m_out);
    }
    for (int i = 0; i < 4; ++i) MPI_Request_free(&pr[i]);
  }
  /* Requests made, started in different orders, and freed in different
   * orders, round after round: more of them than own slot pairs (the rest
   * take the tasks), so pairs are freed on some ranks while others still
   * hold them, then taken again by later requests, which must count on
   * from the numbers the pairs hold (stale contributions would show in
   * the sums, which change every round). */
  {
    enum { M = 20 };
    int in[M], out[M];
    MPI_Request r[M];
    for (int round = 0; round < 6; ++round) {
      for (int j = 0; j < M; ++j)
        if (j % 3 == 2)
          MPI_Bcast_init(&out[j], 1, MPI_INT, j % size, MPI_COMM_WORLD, MPI_INFO_NULL, &r[j]);
        else
          MPI_Allreduce_init(&in[j], &out[j], 1, MPI_INT, j % 3 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r[j]);
      for (int k = 0; k < round + 1; ++k) {
        for (int j = 0; j < M; ++j) {
          in[j] = rank * (j + 1) + k + 1000 * round;
          out[j] = rank == j % size ? 7 * j + k + round : -1;
        }
        for (int j = 0; j < M; ++j) MPI_Start(&r[(rank + round) % 2 ? M - 1 - j : j]);
        MPI_Waitall(M, r, MPI_STATUSES_IGNORE);
        for (int j = 0; j < M; ++j) {
          int want = j % 3 == 2   ? 7 * j + k + round
                     : j % 3 == 0 ? (j + 1) * size * (size - 1) / 2 + size * (k + 1000 * round)
                                  : (size - 1) * (j + 1) + k + 1000 * round;
          CHECK(out[j] == want, "reuse round %d start %d, request %d: %d want %d", round, k, j,
                out[j], want);
        }
      }
      for (int j = 0; j < M; ++j) MPI_Request_free(&r[(rank + round) % 2 ? j : M - 1 - j]);
      if (round % 2) MPI_Barrier(MPI_COMM_WORLD); /* (else some ranks free while others init) */
    }
  }

  sub_comms();
  late_reader();
  phases(0);

  /* From here on the program asserts the same order on every rank
   * (MPI-4.1's mpi_assert_strict_persistent_collective_ordering): in one
   * client these requests take the world slots. */
  MPI_Info strict;
  MPI_Info_create(&strict);
  MPI_Info_set(strict, "mpi_assert_strict_persistent_collective_ordering", "true");
  MPI_Comm_set_info(MPI_COMM_WORLD, strict);
  MPI_Info_free(&strict);

  phases(1);

  if (multiple) {
    atomic_store(&side_stop, 1);
    pthread_join(th, NULL);
    CHECK(side_failures == 0, "%d messages of the second thread wrong", side_failures);
    MPI_Comm_free(&side);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}

/* The phases run without the ordering assertion and with it (`strict`). */
static void phases(int strict) {
  /* The root of bl's Bcast sends every other int (a vector type), the
   * others receive NB contiguous ints: the same signature. */
  MPI_Datatype every_other;
  MPI_Type_vector(NB, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);

  MPI_Request req[NREQ];
  MPI_Allreduce_init(a_in, a_out, NA, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Allreduce_init(MPI_IN_PLACE, d_io, ND, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &req[1]);
  MPI_Bcast_init(b0, NB, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
  if (rank == size - 1)
    MPI_Bcast_init(bl, 1, every_other, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]);
  else
    MPI_Bcast_init(bl, NB, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]);
  MPI_Type_free(&every_other); /* the request keeps its own */
  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[4]);
  MPI_Reduce_init(r_in, r_out, NR, MPI_LONG, MPI_SUM, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                  &req[5]);
  MPI_Reduce_init(rank == 0 ? MPI_IN_PLACE : ri_io, ri_io, NR, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD,
                  MPI_INFO_NULL, &req[6]);
  MPI_Allreduce_init(m_in, m_out, NM, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[7]);

  for (int k = 0; k < 40; ++k) {
    fill(k);
    const int how = k % 5;
    if (how == 0) {
      /* All at once, completed in reverse order. */
      MPI_Startall(NREQ, req);
      for (int i = NREQ - 1; i >= 0; --i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    } else if (how == 1) {
      /* One by one, blocking collectives between the starts and the waits. */
      for (int i = 0; i < NREQ; ++i) {
        MPI_Start(&req[i]);
        if (i == 2) plain_colls(k);
      }
      plain_colls(k);
      MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE);
    } else if (how == 2) {
      /* MPI_Test polling, the last first, until all are done. */
      MPI_Startall(NREQ, req);
      int left = NREQ, done[NREQ] = {0};
      while (left > 0)
        for (int i = NREQ - 1; i >= 0; --i)
          if (!done[i]) {
            int flag = 0;
            MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
            if (flag) done[i] = 1, --left;
          }
    } else if (how == 3) {
      /* A nonblocking collective started between them, all waited together. */
      MPI_Request all[NREQ + 1];
      int x = rank, sum = -1;
      MPI_Start(&req[0]);
      MPI_Start(&req[1]);
      MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &all[NREQ]);
      for (int i = 2; i < NREQ; ++i) MPI_Start(&req[i]);
      memcpy(all, req, sizeof req);
      int flag = 0;
      while (!flag) MPI_Testall(NREQ + 1, all, &flag, MPI_STATUSES_IGNORE);
      CHECK(sum == size * (size - 1) / 2, "iter %d iallreduce %d", k, sum);
    } else {
      /* Each completed before the next starts, by Test, with a blocking
       * Allreduce after each start. */
      for (int i = 0; i < NREQ; ++i) {
        MPI_Start(&req[i]);
        int x = 1, n = 0, flag = 0;
        MPI_Allreduce(&x, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(n == size, "iter %d allreduce of ones %d", k, n);
        while (!flag) MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
      }
    }
    check(k);
  }

  /* Many outstanding starts of one kind: 8 Allreduce requests on distinct
   * buffers started back to back, completed in reverse order. */
  {
    enum { M = 8 };
    int in[M], out[M];
    MPI_Request r[M];
    for (int j = 0; j < M; ++j)
      MPI_Allreduce_init(&in[j], &out[j], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &r[j]);
    for (int k = 0; k < 10; ++k) {
      for (int j = 0; j < M; ++j) {
        in[j] = rank * (j + 1) + k;
        out[j] = -1;
        MPI_Start(&r[j]);
      }
      for (int j = M - 1; j >= 0; --j) MPI_Wait(&r[j], MPI_STATUS_IGNORE);
      for (int j = 0; j < M; ++j)
        CHECK(out[j] == (j + 1) * size * (size - 1) / 2 + size * k, "many %d/%d: %d", k, j, out[j]);
    }
    for (int j = 0; j < M; ++j) MPI_Request_free(&r[j]);
  }

  /* Freed while active: the operation still completes (with the
   * assertion before the blocking Allreduce after it, which comes after it
   * on every rank; without it nothing says when: its own slots complete it
   * in a later progress pass). */
  {
    static int in, out; /* (it may complete after this block) */
    int x = 1, n = 0;
    in = rank + 1;
    out = -1;
    MPI_Request r;
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL, "Request_free of an active request left the handle");
    MPI_Allreduce(&x, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(n == size, "allreduce after a freed active request: %d", n);
    if (strict) CHECK(out == size * (size + 1) / 2, "the freed request's allreduce: %d", out);
  }

  for (int i = 0; i < NREQ; ++i) MPI_Request_free(&req[i]);
}

/* Membership of the sub-communicators: the half of our parity, the ranks
 * but the last, the ranks but the first. */
typedef int (*member_fn)(int r);
static int in_half(int r) {
  return r % 2 == rank % 2;
}
static int in_lo(int r) {
  return r < size - 1;
}
static int in_hi(int r) {
  return r > 0;
}

/* Persistent Allreduces and Bcasts on sub-communicators (in one client:
 * own slot pairs), made, started in different orders and freed in
 * different orders round after round (without a barrier between every
 * round): pairs freed by requests of some members are taken by requests
 * of others. */
static void sub_comms(void) {
  enum { NC = 3 };
  member_fn member[NC] = {in_half, in_lo, in_hi};
  MPI_Comm c[NC];
  int crank[NC];
  for (int i = 0; i < NC; ++i) {
    MPI_Comm_split(MPI_COMM_WORLD, member[i](rank) ? (i == 0 ? rank % 2 : 0) : MPI_UNDEFINED, rank,
                   &c[i]);
    crank[i] = -1;
    if (c[i] != MPI_COMM_NULL) MPI_Comm_rank(c[i], &crank[i]);
  }
  for (int round = 0; round < 6; ++round) {
    int in[NC], sum[NC], b[NC], n = 0;
    MPI_Request r[2 * NC];
    for (int i = 0; i < NC; ++i) {
      if (c[i] == MPI_COMM_NULL) continue;
      MPI_Allreduce_init(&in[i], &sum[i], 1, MPI_INT, MPI_SUM, c[i], MPI_INFO_NULL, &r[n++]);
      MPI_Bcast_init(&b[i], 1, MPI_INT, 0, c[i], MPI_INFO_NULL, &r[n++]);
    }
    for (int k = 0; k <= round; ++k) {
      for (int i = 0; i < NC; ++i) {
        in[i] = rank + k + 100 * round;
        sum[i] = -1;
        b[i] = crank[i] == 0 ? 1000 * i + k + round : -1;
      }
      for (int j = 0; j < n; ++j) MPI_Start(&r[(rank + round) % 2 ? n - 1 - j : j]);
      MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
      for (int i = 0; i < NC; ++i) {
        if (c[i] == MPI_COMM_NULL) continue;
        int want = 0;
        for (int w = 0; w < size; ++w)
          if (member[i](w)) want += w + k + 100 * round;
        CHECK(sum[i] == want, "sub-communicator %d round %d start %d: sum %d want %d", i, round, k,
              sum[i], want);
        CHECK(b[i] == 1000 * i + k + round, "sub-communicator %d round %d start %d: bcast %d", i,
              round, k, b[i]);
      }
    }
    for (int j = 0; j < n; ++j) MPI_Request_free(&r[(rank + round) % 2 ? j : n - 1 - j]);
    if (round % 3 == 2) MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = 0; i < NC; ++i)
    if (c[i] != MPI_COMM_NULL) MPI_Comm_free(&c[i]);
}

/* Rank 1 starts an Allreduce on {0, 1} and stays out of MPI before its
 * wait; rank 0 completes its side, frees the request and runs several
 * Allreduces on {0, 2}: rank 1 must still find rank 0's contribution (in
 * one client: rank 0 may not reuse its pair for {0, 2} before rank 1 is
 * done with it). */
static void late_reader(void) {
  if (size < 3) return;
  MPI_Comm a, b;
  MPI_Comm_split(MPI_COMM_WORLD, rank <= 1 ? 0 : MPI_UNDEFINED, rank, &a);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank == 2 ? 0 : MPI_UNDEFINED, rank, &b);
  if (a != MPI_COMM_NULL) {
    int in = 10 + rank, out = -1, token = 0;
    MPI_Request r;
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, a, MPI_INFO_NULL, &r);
    if (rank == 1) {
      MPI_Start(&r);
      MPI_Send(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
      usleep(300000); /* (rank 0 goes on meanwhile) */
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
    CHECK(out == 21, "late reader: sum %d want 21", out);
    MPI_Comm_free(&a);
  }
  if (b != MPI_COMM_NULL) {
    int in = 0, out = -1;
    MPI_Request r;
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, b, MPI_INFO_NULL, &r);
    for (int k = 0; k < 4; ++k) {
      in = 1000 * (rank + 1) + k;
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      CHECK(out == 4000 + 2 * k, "after the late reader, start %d: sum %d", k, out);
    }
    MPI_Request_free(&r);
    MPI_Comm_free(&b);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}
