/* threads_check.c - MPI_THREAD_MULTIPLE: several threads of every rank send,
 * receive, probe and wait at the same time.
 *
 * Each of NT threads of rank r exchanges messages with thread t of every
 * other rank, on tags of its own (so threads never take each other's
 * messages): nonblocking (Waitall or Waitany), blocking after a Probe, and
 * MPI_ANY_SOURCE receives of one message from every other rank; sizes from
 * 0 bytes to past the single-copy threshold, contents and statuses checked.
 * Prints "rank r of n ok" on success. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 4
#define ROUNDS 30

static int rank, size;
static int failures;
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int t, long detail) {
  pthread_mutex_lock(&fail_mu);
  ++failures;
  fprintf(stderr, "rank %d thread %d: %s (%ld)\n", rank, t, what, detail);
  pthread_mutex_unlock(&fail_mu);
}

static unsigned char pattern(int src, int t, int round, long i) {
  return (unsigned char)(src * 31 + t * 7 + round * 3 + i);
}

static const long sizes[] = {0, 1, 8, 100, 4096, 20000, 70000};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static void *worker(void *arg) {
  int t = (int)(long)arg;
  long maxb = sizes[NSIZES - 1];
  unsigned char *sbuf = malloc((size_t)maxb * (size_t)size);
  unsigned char *rbuf = malloc((size_t)maxb * (size_t)size);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
  for (int round = 0; round < ROUNDS; ++round) {
    long n = sizes[round % NSIZES];
    int k = 0;
    /* nonblocking to and from everyone */
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      unsigned char *s = sbuf + (size_t)maxb * (size_t)p;
      for (long i = 0; i < n; ++i) s[i] = pattern(rank, t, round, i);
      MPI_Irecv(rbuf + (size_t)maxb * (size_t)p, (int)n, MPI_BYTE, p, t, MPI_COMM_WORLD,
                &reqs[k++]);
      MPI_Isend(s, (int)n, MPI_BYTE, p, t, MPI_COMM_WORLD, &reqs[k++]);
    }
    if (round % 2)
      MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
    else
      for (int done = 0; done < k;) {
        int idx;
        MPI_Waitany(k, reqs, &idx, MPI_STATUS_IGNORE);
        ++done;
      }
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      unsigned char *r = rbuf + (size_t)maxb * (size_t)p;
      for (long i = 0; i < n; ++i)
        if (r[i] != pattern(p, t, round, i)) {
          fail("nonblocking payload differs", t, i);
          break;
        }
    }
    /* blocking: even ranks send first; probe then receive */
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      unsigned char *s = sbuf + (size_t)maxb * (size_t)p;
      unsigned char *r = rbuf + (size_t)maxb * (size_t)p;
      MPI_Status st;
      int count = -1;
      for (long i = 0; i < n; ++i) s[i] = pattern(rank, t, round + 1000, i);
      if (rank < p) MPI_Send(s, (int)n, MPI_BYTE, p, NT + t, MPI_COMM_WORLD);
      MPI_Probe(p, NT + t, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      if (st.MPI_SOURCE != p || count != n) fail("probe status", t, count);
      MPI_Recv(r, (int)n, MPI_BYTE, st.MPI_SOURCE, NT + t, MPI_COMM_WORLD, &st);
      if (rank > p) MPI_Send(s, (int)n, MPI_BYTE, p, NT + t, MPI_COMM_WORLD);
      r = rbuf + (size_t)maxb * (size_t)st.MPI_SOURCE;
      for (long i = 0; i < n; ++i)
        if (r[i] != pattern(st.MPI_SOURCE, t, round + 1000, i)) {
          fail("blocking payload differs", t, i);
          break;
        }
    }
    /* wildcard receives: one message from every other rank, any order */
    {
      int k2 = 0, seen = 0;
      for (int p = 0; p < size; ++p) {
        if (p == rank) continue;
        unsigned char *s = sbuf + (size_t)maxb * (size_t)p;
        for (long i = 0; i < n; ++i) s[i] = pattern(rank, t, round + 2000, i);
        MPI_Isend(s, (int)n, MPI_BYTE, p, 2 * NT + t, MPI_COMM_WORLD, &reqs[k2++]);
      }
      for (int m = 0; m < size - 1; ++m) {
        MPI_Status st;
        MPI_Recv(rbuf, (int)maxb, MPI_BYTE, MPI_ANY_SOURCE, 2 * NT + t, MPI_COMM_WORLD, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count != n || st.MPI_SOURCE == rank || (seen & (1 << st.MPI_SOURCE)))
          fail("wildcard status", t, count);
        seen |= 1 << st.MPI_SOURCE;
        for (long i = 0; i < n; ++i)
          if (rbuf[i] != pattern(st.MPI_SOURCE, t, round + 2000, i)) {
            fail("wildcard payload differs", t, i);
            break;
          }
      }
      MPI_Waitall(k2, reqs, MPI_STATUSES_IGNORE);
    }
  }
  free(sbuf);
  free(rbuf);
  free(reqs);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = -1;
  pthread_t th[NT];
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "provided thread level %d, not MPI_THREAD_MULTIPLE\n", provided);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int main_flag = 0;
  MPI_Is_thread_main(&main_flag);
  if (!main_flag) fail("MPI_Is_thread_main is false in the main thread", -1, 0);
  for (long t = 0; t < NT; ++t) pthread_create(&th[t], NULL, worker, (void *)t);
  for (int t = 0; t < NT; ++t) pthread_join(th[t], NULL);
  /* nobody leaves while a peer may still send to it */
  int token = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank)
      MPI_Sendrecv(&token, 1, MPI_INT, p, 999, &token, 1, MPI_INT, p, 999, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
