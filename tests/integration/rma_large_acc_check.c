/* rma_large_acc_check.c - large accumulates, each followed by
 * MPI_Win_flush_local (issue 46, item 6; MPICH's
 * rma/large_acc_flush_local): every rank but 0 adds kOps times each of
 * 256 KiB .. 2 MiB of ints into rank 0's window (MPI_Win_create, then
 * MPI_Win_allocate), flushing locally after each and fully after each size,
 * under MPI_Win_lock_all; the sums must be exact. Then MPICH's shape
 * (chars(): MPI_CHAR, 10 per size) argv[1] times (default 1): 2 MiB of
 * MPI_CHAR through cross-memory attach once took 2M steps per access.
 * At any np >= 2, in one client or over several. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int rank, size, failures;

enum { kMin = 65536, kMax = 8 * 65536, kOps = 4, kLoops = 2 };

static void run(int flavor) {
  int *orig = malloc(kMax * sizeof(int));
  for (int i = 0; i < kMax; ++i) orig[i] = rank * 3 + (i & 1023);
  for (int loop = 0; loop < kLoops; ++loop) {
    int *mem = NULL;
    MPI_Win win;
    if (flavor == 0) {
      mem = calloc(kMax, sizeof(int));
      MPI_Win_create(mem, kMax * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
      MPI_Win_allocate(kMax * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
      for (int i = 0; i < kMax; ++i) mem[i] = 0;
      MPI_Win_unlock(rank, win);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_lock_all(0, win);
    if (rank != 0)
      for (int n = kMin; n <= kMax; n *= 2) {
        for (int k = 0; k < kOps; ++k) {
          int rc = MPI_Accumulate(orig, n, MPI_INT, 0, 0, n, MPI_INT, MPI_SUM, win);
          CHECK(rc == MPI_SUCCESS, "MPI_Accumulate of %d ints returned %d", n, rc);
          rc = MPI_Win_flush_local(0, win);
          CHECK(rc == MPI_SUCCESS, "MPI_Win_flush_local returned %d", rc);
        }
        MPI_Win_flush(0, win);
      }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      long long others = 0; /* sum over ranks 1.. of rank * 3 */
      for (int r = 1; r < size; ++r) others += r * 3;
      int bad = 0;
      for (int i = 0; i < kMax && bad < 5; ++i) {
        /* element i is in the sizes n > i: as many as n runs from the first n > i */
        int times = 0;
        for (int n = kMin; n <= kMax; n *= 2)
          if (i < n) times += kOps;
        long long want = (long long)times * (others + (long long)(size - 1) * (i & 1023));
        if (mem[i] != (int)want) {
          CHECK(0, "%s: element %d is %d, not %lld", flavor ? "allocate" : "create", i, mem[i],
                want);
          ++bad;
        }
      }
      MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    if (flavor == 0) free(mem);
  }
  free(orig);
}

/* MPICH's shape: MPI_CHAR sums of 256 KiB .. 2 MiB, 10 each, flush_local
 * after each, into rank 0's MPI_Win_create memory, `loops` times (a window
 * each). Every element of the origin is 1: element i ends at the number of
 * accumulates that covered it, mod 256. */
static void chars(int loops) {
  enum { kCMin = 262144, kCMax = 8 * 262144, kCOps = 10 };
  char *orig = malloc(kCMax), *mem = calloc(kCMax, 1);
  for (int i = 0; i < kCMax; ++i) orig[i] = 1;
  MPI_Win win;
  MPI_Win_create(mem, kCMax, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  for (int loop = 0; loop < loops; ++loop) {
    MPI_Win_lock_all(0, win);
    if (rank != 0)
      for (int n = kCMin; n <= kCMax; n *= 2) {
        for (int k = 0; k < kCOps; ++k) {
          MPI_Accumulate(orig, n, MPI_CHAR, 0, 0, n, MPI_CHAR, MPI_SUM, win);
          MPI_Win_flush_local(0, win);
        }
        MPI_Win_flush(0, win);
      }
    MPI_Win_unlock_all(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int bad = 0;
    for (int i = 0; i < kCMax && bad < 5; i += 4093) {
      unsigned times = 0;
      for (int n = kCMin; n <= kCMax; n *= 2)
        if (i < n) times += kCOps;
      unsigned want = (times * (unsigned)(size - 1) * (unsigned)loops) & 255u;
      if ((unsigned char)mem[i] != want) {
        CHECK(0, "chars: element %d is %u, not %u", i, (unsigned char)mem[i], want);
        ++bad;
      }
    }
  }
  MPI_Win_free(&win);
  free(orig);
  free(mem);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  run(0);
  run(1);
  chars(argc > 1 ? atoi(argv[1]) : 1);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
