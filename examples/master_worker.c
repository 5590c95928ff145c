/* master_worker.c - rank 0 hands out tasks (here: count the primes in a
 * range) to whichever worker asks first (MPI_ANY_SOURCE), collects the
 * answers, and tells every worker to stop with a tag. Workers are served
 * in the order they finish, not in rank order.
 * Usage: master_worker [tasks] (default 64). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kWork = 1, kStop = 2, kResult = 3 };

static long primes_in(long lo, long hi) {
  long count = 0;
  for (long x = lo < 2 ? 2 : lo; x < hi; ++x) {
    int prime = 1;
    for (long d = 2; d * d <= x; ++d)
      if (x % d == 0) {
        prime = 0;
        break;
      }
    count += prime;
  }
  return count;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long tasks = argc > 1 ? atol(argv[1]) : 64, chunk = 10000;
  if (size < 2) {
    printf("master_worker: run it with at least 2 processes\n");
    MPI_Finalize();
    return 0;
  }
  if (rank == 0) {
    long next = 0, done = 0, total = 0;
    int *served = calloc((size_t)size, sizeof *served);
    /* every worker starts by asking (a result of -1) */
    while (done < tasks) {
      long r;
      MPI_Status st;
      MPI_Recv(&r, 1, MPI_LONG, MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &st);
      if (r >= 0) {
        total += r;
        ++done;
        ++served[st.MPI_SOURCE];
      }
      if (next < tasks) {
        MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, kWork, MPI_COMM_WORLD);
        ++next;
      }
    }
    for (int w = 1; w < size; ++w) MPI_Send(&next, 1, MPI_LONG, w, kStop, MPI_COMM_WORLD);
    printf("master_worker: %ld primes below %ld, %ld tasks;", total, tasks * chunk, tasks);
    for (int w = 1; w < size; ++w) printf(" worker %d did %d", w, served[w]);
    printf("\n");
    free(served);
  } else {
    long r = -1, task;
    MPI_Status st;
    for (;;) {
      MPI_Send(&r, 1, MPI_LONG, 0, kResult, MPI_COMM_WORLD);
      MPI_Recv(&task, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == kStop) break;
      r = primes_in(task * chunk, (task + 1) * chunk);
    }
  }
  MPI_Finalize();
  return 0;
}
