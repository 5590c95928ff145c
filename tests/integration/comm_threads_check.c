/* comm_threads_check.c - communicators created while other constructions
 * are in flight: from several threads at once (MPI_THREAD_MULTIPLE), and
 * by MPI_Comm_idup's left pending in one thread.
 *
 * 1. NT threads, each on a parent of its own (a dup of MPI_COMM_WORLD),
 *    build communicators ITER times with every constructor in turn
 *    (MPI_Comm_dup, _split, _create, _create_group, _idup, and
 *    MPI_Intercomm_create + MPI_Intercomm_merge) and use each at once: a
 *    ring of point-to-point messages on tag 0 carrying (thread, round),
 *    and an Allreduce whose sum depends on the thread. Two communicators
 *    that shared a context would take each other's messages: a wrong
 *    payload or sum, or a hang (the test's time limit).
 * 2. One thread: MPI_Comm_idup on two communicators started in opposite
 *    orders by neighbouring ranks, completed by one MPI_Waitall; then
 *    several MPI_Comm_idup's on one communicator and an MPI_Comm_dup on it
 *    before they complete.
 * Prints "rank r of n ok" on success. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 4
#define ITER 12
#define NKINDS 6

static int rank, size;
static int failures;
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;
static MPI_Comm parents[NT];

static void fail(const char *what, int t, long a, long b) {
  pthread_mutex_lock(&fail_mu);
  ++failures;
  fprintf(stderr, "rank %d thread %d: %s (%ld, expected %ld)\n", rank, t, what, a, b);
  pthread_mutex_unlock(&fail_mu);
}

/* Uses `comm` (an intracommunicator or MPI_COMM_NULL) as thread t's round i. */
static void exercise(MPI_Comm comm, int t, int i) {
  if (comm == MPI_COMM_NULL) return;
  int r, n;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &n);
  int out[2] = {t, i}, in[2] = {-1, -1};
  MPI_Sendrecv(out, 2, MPI_INT, (r + 1) % n, 0, in, 2, MPI_INT, (r + n - 1) % n, 0, comm,
               MPI_STATUS_IGNORE);
  if (in[0] != t) fail("ring message from another thread's communicator", t, in[0], t);
  if (in[1] != i) fail("ring message from another round", t, in[1], i);
  long mine = (long)(t + 1) * 1000 + i, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm);
  if (sum != mine * n) fail("Allreduce sum", t, sum, mine * n);
}

static void *worker(void *arg) {
  int t = (int)(long)arg;
  MPI_Comm parent = parents[t];
  MPI_Group world_group, evens;
  MPI_Comm_group(parent, &world_group);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world_group, 1, range, &evens);
  for (int i = 0; i < ITER; ++i) {
    MPI_Comm c = MPI_COMM_NULL, c2 = MPI_COMM_NULL;
    switch ((i + t) % NKINDS) {
      case 0:
        MPI_Comm_dup(parent, &c);
        break;
      case 1:
        MPI_Comm_split(parent, rank % 2, -rank, &c);
        break;
      case 2:
        MPI_Comm_create(parent, evens, &c);
        if ((c != MPI_COMM_NULL) != (rank % 2 == 0))
          fail("MPI_Comm_create membership", t, c != MPI_COMM_NULL, 1);
        break;
      case 3:
        if (rank % 2 == 0) MPI_Comm_create_group(parent, evens, t, &c);
        break;
      case 4: {
        MPI_Request req;
        MPI_Comm_idup(parent, &c, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
      }
      default:
        if (size < 2) {
          MPI_Comm_dup(parent, &c);
          break;
        }
        /* Two halves, an intercommunicator between them, merged. */
        MPI_Comm_split(parent, rank < size / 2, rank, &c2);
        MPI_Comm inter;
        MPI_Intercomm_create(c2, 0, parent, rank < size / 2 ? size / 2 : 0, 77 + t, &inter);
        MPI_Intercomm_merge(inter, rank < size / 2, &c);
        int rsize;
        MPI_Comm_remote_size(inter, &rsize);
        if (rsize != (rank < size / 2 ? size - size / 2 : size / 2))
          fail("remote group size", t, rsize, -1);
        MPI_Comm_free(&inter);
        break;
    }
    exercise(c, t, i);
    exercise(c2, t, i);
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (c2 != MPI_COMM_NULL) MPI_Comm_free(&c2);
  }
  MPI_Group_free(&evens);
  MPI_Group_free(&world_group);
  return NULL;
}

/* Part 2: idups left pending, in opposite orders on neighbouring ranks. */
static void pending_idups(void) {
  if (size >= 2) {
    /* pair[k] holds ranks k and k+1 (mod size): each rank is in pair[rank]
     * and pair[rank - 1], and starts the idups in opposite orders to its
     * neighbours. */
    MPI_Comm lo = MPI_COMM_NULL, hi = MPI_COMM_NULL;
    for (int k = 0; k < size; ++k) {
      int in_pair = rank == k || rank == (k + 1) % size;
      MPI_Comm c;
      MPI_Comm_split(MPI_COMM_WORLD, in_pair ? 0 : MPI_UNDEFINED, rank == k ? 0 : 1, &c);
      if (rank == k)
        lo = c;
      else if (in_pair && hi == MPI_COMM_NULL)
        hi = c;
      else if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    }
    /* Everyone starts lo's idup first: pair k's is first at rank k and
     * second at rank k + 1. */
    MPI_Comm d[2] = {MPI_COMM_NULL, MPI_COMM_NULL}; /* dups of lo (pair rank), hi (pair rank - 1) */
    MPI_Request req[2];
    MPI_Comm_idup(lo, &d[0], &req[0]);
    MPI_Comm_idup(hi, &d[1], &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    /* Used and freed in pair order, the same order everywhere (between IMPI
     * clients MPI_Comm_free is a barrier, IMPI 4.5). */
    int lo_k = rank, hi_k = (rank + size - 1) % size;
    int a = lo_k < hi_k ? 0 : 1;
    exercise(d[a], 100, a == 0 ? lo_k : hi_k);
    exercise(d[1 - a], 100, a == 0 ? hi_k : lo_k);
    MPI_Comm_free(&d[a]);
    MPI_Comm_free(&d[1 - a]);
    MPI_Comm_free(a == 0 ? &lo : &hi);
    MPI_Comm_free(a == 0 ? &hi : &lo);
  }
  /* Several idups pending on one communicator, then a blocking dup on it. */
  MPI_Comm base, dups[3], blocking;
  MPI_Request req[3];
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  for (int k = 0; k < 3; ++k) MPI_Comm_idup(base, &dups[k], &req[k]);
  MPI_Comm_dup(base, &blocking);
  MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  for (int k = 0; k < 3; ++k) exercise(dups[k], 200 + k, 0);
  exercise(blocking, 300, 0);
  for (int k = 0; k < 3; ++k) MPI_Comm_free(&dups[k]);
  MPI_Comm_free(&blocking);
  MPI_Comm_free(&base);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "rank %d: MPI_THREAD_MULTIPLE not provided (%d)\n", rank, provided);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int t = 0; t < NT; ++t) MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
  pthread_t th[NT];
  for (int t = 0; t < NT; ++t) pthread_create(&th[t], NULL, worker, (void *)(long)t);
  for (int t = 0; t < NT; ++t) pthread_join(th[t], NULL);
  for (int t = 0; t < NT; ++t) MPI_Comm_free(&parents[t]);
  pending_idups();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (all == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return all != 0;
}
