/* Blocking Barrier and small Allreduce on communicators other than
 * MPI_COMM_WORLD: in one client, from the third such call a communicator
 * takes a pair of shared-memory slots of its own (fast_native.hpp: comm
 * slots; 16 pairs per proc, shared with persistent collectives), the
 * others keep to messages. Checked here: more communicators than pairs
 * (duplicates, splits in halves, overlapping ones, MPI_Comm_create_group
 * and MPI_Comm_idup ones), each with Allreduces of several types and
 * operators (in place too), Barriers, and nonblocking and persistent
 * collectives on the same communicator between them; communicators freed
 * in different orders on different ranks and made again with other
 * members, round after round, so pairs pass between communicators of
 * different members (a pair is taken again only after every member of its
 * last communicator released it); under MPI_THREAD_MULTIPLE, threads
 * running blocking Allreduces on communicators of their own at once
 * (their agreements too). Across clients the same program runs on
 * messages. Every result is checked.
 *   comm_slots_check [multiple] */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

enum { NCOMM = 24, NT = 2 };

/* The world ranks of `c`'s members (at most size of them); their number. */
static int members(MPI_Comm c, int *w) {
  MPI_Group g, wg;
  int n = 0;
  MPI_Comm_group(c, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_size(g, &n);
  int *r = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) r[i] = i;
  MPI_Group_translate_ranks(g, n, r, wg, w);
  free(r);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  return n;
}

/* `iters` rounds of blocking collectives on `c` (tag: varies the values),
 * with a nonblocking and a persistent Allreduce between them. */
static void exercise(MPI_Comm c, int iters, int tag) {
  int w[64], n = members(c, w), cr = 0;
  MPI_Comm_rank(c, &cr);
  long wsum = 0;
  for (int i = 0; i < n; ++i) wsum += w[i];
  int pin = rank, pout = -1;
  MPI_Request pr;
  MPI_Allreduce_init(&pin, &pout, 1, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &pr);
  for (int k = 0; k < iters; ++k) {
    int ia[3] = {rank + k, tag, 1}, io[3] = {-1, -1, -1};
    MPI_Allreduce(ia, io, 3, MPI_INT, MPI_SUM, c);
    CHECK(io[0] == wsum + (long)n * k && io[1] == n * tag && io[2] == n,
          "tag %d iter %d: int sum %d %d %d", tag, k, io[0], io[1], io[2]);
    double d[100];
    for (int j = 0; j < 100; ++j) d[j] = rank * 1000.0 + j + k;
    MPI_Allreduce(MPI_IN_PLACE, d, 100, MPI_DOUBLE, MPI_MAX, c);
    int maxw = 0;
    for (int i = 0; i < n; ++i)
      if (w[i] > maxw) maxw = w[i];
    for (int j = 0; j < 100; j += 33)
      CHECK(d[j] == maxw * 1000.0 + j + k, "tag %d iter %d: max[%d] %g", tag, k, j, d[j]);
    MPI_Barrier(c);
    /* Nonblocking and persistent on the same communicator, then another
     * blocking one before their completion. */
    int x = 1, xs = -1;
    MPI_Request r[2];
    MPI_Iallreduce(&x, &xs, 1, MPI_INT, MPI_SUM, c, &r[0]);
    MPI_Start(&pr);
    r[1] = pr;
    long l = (long)cr << 33, ls = -1;
    MPI_Allreduce(&l, &ls, 1, MPI_LONG, MPI_BOR, c);
    long want = 0;
    for (int i = 0; i < n; ++i) want |= (long)i << 33;
    CHECK(ls == want, "tag %d iter %d: long bor %lx want %lx", tag, k, ls, want);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(xs == n, "tag %d iter %d: iallreduce %d", tag, k, xs);
    CHECK(pout == wsum, "tag %d iter %d: persistent %d", tag, k, pout);
  }
  MPI_Request_free(&pr);
}

static MPI_Comm thread_comm[NT];
static int thread_failures[NT];
static void *thread_loop(void *arg) {
  const int t = (int)(long)arg;
  for (int k = 0; k < 2000; ++k) {
    int v[2] = {rank + t, k}, s[2] = {-1, -1};
    MPI_Allreduce(v, s, 2, MPI_INT, MPI_SUM, thread_comm[t]);
    if (s[0] != size * (size - 1) / 2 + size * t || s[1] != size * k) ++thread_failures[t];
    if (k % 100 == 0) MPI_Barrier(thread_comm[t]);
  }
  return NULL;
}

int main(int argc, char **argv) {
  const int multiple = argc > 1 && strcmp(argv[1], "multiple") == 0;
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
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);

  /* More communicators than pairs, of several kinds, all exercised, then
   * freed in an order that depends on the rank, round after round. */
  for (int round = 0; round < 4; ++round) {
    MPI_Comm c[NCOMM];
    for (int i = 0; i < NCOMM; ++i) {
      switch (i % 6) {
        case 0:
        case 1:
          MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
          break;
        case 2: /* halves by parity */
          MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c[i]);
          break;
        case 3: /* all but the last rank (reversed order of ranks) */
          MPI_Comm_split(MPI_COMM_WORLD, rank < size - 1 ? 0 : MPI_UNDEFINED, -rank, &c[i]);
          break;
        case 4: { /* all but rank (round % size), by MPI_Comm_create_group */
          MPI_Group wg, g;
          int ex = round % size;
          MPI_Comm_group(MPI_COMM_WORLD, &wg);
          MPI_Group_excl(wg, 1, &ex, &g);
          if (rank != ex)
            MPI_Comm_create_group(MPI_COMM_WORLD, g, 40 + i, &c[i]);
          else
            c[i] = MPI_COMM_NULL;
          MPI_Group_free(&g);
          MPI_Group_free(&wg);
          break;
        }
        default: {
          MPI_Request r;
          MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &r);
          MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
      }
    }
    for (int i = 0; i < NCOMM; ++i) {
      if (c[i] == MPI_COMM_NULL) continue;
      int cs = 0;
      MPI_Comm_size(c[i], &cs);
      if (cs > 1) exercise(c[i], 3 + (i + round) % 4, 100 * round + i);
    }
    for (int i = 0; i < NCOMM; ++i) {
      const int j = (rank + round) % 2 ? NCOMM - 1 - i : i;
      if (c[j] != MPI_COMM_NULL) MPI_Comm_free(&c[j]);
    }
  }

  /* Communicators of two members that change: {r, r+1} for every r, each
   * made by MPI_Comm_create_group right after the previous one's members
   * freed theirs (no barrier): the pairs pass from members to others. */
  for (int r = 0; r + 1 < size; ++r) {
    if (rank != r && rank != r + 1) continue;
    MPI_Group wg, g;
    int two[2] = {r, r + 1};
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, 2, two, &g);
    MPI_Comm c;
    MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c);
    exercise(c, 5, r);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  if (multiple) {
    pthread_t th[NT];
    for (int t = 0; t < NT; ++t) MPI_Comm_dup(MPI_COMM_WORLD, &thread_comm[t]);
    for (int t = 0; t < NT; ++t) pthread_create(&th[t], NULL, thread_loop, (void *)(long)t);
    for (int t = 0; t < NT; ++t) pthread_join(th[t], NULL);
    for (int t = 0; t < NT; ++t) {
      CHECK(thread_failures[t] == 0, "thread %d: %d wrong sums", t, thread_failures[t]);
      MPI_Comm_free(&thread_comm[t]);
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
