/* rma_acc_bench.c - large MPI_Accumulate throughput (MPICH's
 * rma/large_acc_flush_local shape): every rank but 0 adds `ops` times
 * `bytes` of MPI_INT (MPI_SUM) into rank 0's window under
 * MPI_Win_lock_all, each accumulate followed by MPI_Win_flush_local, then
 * MPI_Win_flush; a repetition is timed from a barrier to the slowest
 * origin's MPI_Win_unlock_all. Prints, per size, one line:
 *   acc_bw BYTES MB/s (the origins' bytes together per second, median of
 *   the repetitions) and acc_lat BYTES us (per accumulate + flush_local,
 *   median). Plain MPI-3: built by each implementation's own mpicc.
 * Options: -r reps (5), -o ops per repetition (10), -S max bytes (4 MiB;
 * sizes from 64 KiB by 4), -c: MPI_Win_create over malloc'd memory (as
 * MPICH's test; default MPI_Win_allocate). Needs np >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int reps = 5, ops = 10, create = 0;
  long max = 4194304;
  MPI_Init(&argc, &argv);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-r") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      ops = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-S") && i + 1 < argc)
      max = atol(argv[++i]);
    else if (!strcmp(argv[i], "-c"))
      create = 1;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "rma_acc_bench needs at least 2 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const long n_max = max / (long)sizeof(int);
  int *orig = malloc((size_t)max);
  for (long i = 0; i < n_max; ++i) orig[i] = (int)(i & 1023);
  int *mem = NULL, *mine = NULL;
  MPI_Win win;
  if (create) {
    mine = calloc((size_t)max, 1);
    MPI_Win_create(mine, rank == 0 ? max : 0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  } else {
    MPI_Win_allocate(rank == 0 ? max : 0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  }
  double *t = malloc(sizeof(double) * (size_t)reps);
  for (long bytes = 65536; bytes <= max; bytes *= 4) {
    const int n = (int)(bytes / (long)sizeof(int));
    for (int r = -1; r < reps; ++r) { /* (r = -1: a warm-up) */
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      MPI_Win_lock_all(0, win);
      if (rank != 0) {
        for (int k = 0; k < ops; ++k) {
          MPI_Accumulate(orig, n, MPI_INT, 0, 0, n, MPI_INT, MPI_SUM, win);
          MPI_Win_flush_local(0, win);
        }
        MPI_Win_flush(0, win);
      }
      MPI_Win_unlock_all(win);
      double dt = MPI_Wtime() - t0, worst = 0;
      MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (r >= 0) t[r] = worst;
    }
    if (rank == 0) {
      qsort(t, (size_t)reps, sizeof(double), cmp_double);
      double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
      printf("acc_bw %ld %.1f\n", bytes, (double)bytes * ops * (size - 1) / med / 1e6);
      printf("acc_lat %ld %.2f\n", bytes, med / ops * 1e6);
      fflush(stdout);
    }
  }
  MPI_Win_free(&win);
  free(mine);
  free(orig);
  free(t);
  MPI_Finalize();
  return 0;
}
