/* barrier_check.c - MPI_Barrier and the barrier inside MPI_Finalize, in one
 * client (dissemination) and across IMPI clients (the spec's master-based
 * barrier: linear or hypercube among the clients' masters).
 *  1. 12 rounds: in round i, rank i % size sleeps 20 ms, then notes when it
 *     entered; every rank notes when it left. Nobody may leave a round
 *     before the sleeper entered it (CLOCK_MONOTONIC: one machine).
 *  2. MPI_Barrier on MPI_COMM_SELF returns at once.
 *  3. argv[1], when given, names a file: rank 0 sleeps 300 ms, creates it,
 *     then calls MPI_Finalize; every other rank calls MPI_Finalize at once
 *     and checks the file exists when it returns.
 * Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int rank, size, failures;

#include "check.h"

static void nap(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
  enum { kRounds = 12 };
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0 && argc > 1) unlink(argv[1]); /* (from an earlier run) before the first barrier */
  double entered[kRounds], left[kRounds];
  for (int i = 0; i < kRounds; ++i) {
    if (rank == i % size) nap(20);
    entered[i] = MPI_Wtime();
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    left[i] = MPI_Wtime();
    CHECK(rc == MPI_SUCCESS, "MPI_Barrier returned %d", rc);
  }
  /* the sleepers' entry times go to everyone (point-to-point) */
  for (int i = 0; i < kRounds; ++i) {
    int sleeper = i % size;
    double t = entered[i];
    if (rank == sleeper) {
      for (int p = 0; p < size; ++p)
        if (p != rank) MPI_Send(&t, 1, MPI_DOUBLE, p, i, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&t, 1, MPI_DOUBLE, sleeper, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    CHECK(left[i] >= t, "round %d: left the barrier %.6f s before rank %d entered it", i,
          t - left[i], sleeper);
  }
  double t0 = MPI_Wtime();
  CHECK(MPI_Barrier(MPI_COMM_SELF) == MPI_SUCCESS && MPI_Wtime() - t0 < 0.5,
        "barrier on MPI_COMM_SELF");

  if (argc > 1) {
    if (rank == 0) {
      nap(300);
      FILE *f = fopen(argv[1], "w");
      CHECK(f != NULL, "cannot create %s", argv[1]);
      if (f) fclose(f);
    }
    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    if (rank != 0)
      CHECK(access(argv[1], F_OK) == 0, "MPI_Finalize returned before rank 0 entered it");
  } else {
    MPI_Finalize();
  }
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
