/* pack_bench.c - MPI_Pack throughput for three layouts, an ordinary MPI
 * program so the same source measures any MPI library.
 *   contiguous: 1 MiB of doubles
 *   vector:     every other double (blocklen 1, stride 2), 1 MiB packed
 *   struct:     {int, double, char} records, about 1 MiB packed
 * Prints "<layout> <GB/s>" with the median of 15 timed repetitions. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 15
#define INNER 20

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double run(const char *name, const void *src, int count, MPI_Datatype t, void *out,
                  int outsize) {
  double times[REPS];
  int r, i, pos, size;
  MPI_Pack_size(count, t, MPI_COMM_SELF, &size);
  for (r = 0; r < REPS; ++r) {
    double t0 = MPI_Wtime();
    for (i = 0; i < INNER; ++i) {
      pos = 0;
      MPI_Pack((void *)src, count, t, out, outsize, &pos, MPI_COMM_SELF);
    }
    times[r] = (MPI_Wtime() - t0) / INNER;
  }
  qsort(times, REPS, sizeof times[0], cmp);
  printf("%-10s %8.2f GB/s  (%d bytes per MPI_Pack)\n", name, size / times[REPS / 2] / 1e9, size);
  return times[REPS / 2];
}

struct rec {
  int i;
  double d;
  char c;
};

int main(int argc, char **argv) {
  const int n = (1 << 20) / 8; /* doubles in 1 MiB */
  double *src = malloc(2 * n * sizeof(double));
  struct rec *recs = malloc(n * sizeof(struct rec));
  char *out = malloc(4 << 20);
  MPI_Datatype vec, rec, rec_resized;
  int lens[3] = {1, 1, 1}, k;
  MPI_Aint disps[3], lb, ext;
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};

  MPI_Init(&argc, &argv);
  for (k = 0; k < 2 * n; ++k) src[k] = k;
  memset(recs, 1, n * sizeof(struct rec));
  MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  disps[0] = offsetof(struct rec, i);
  disps[1] = offsetof(struct rec, d);
  disps[2] = offsetof(struct rec, c);
  MPI_Type_create_struct(3, lens, disps, types, &rec);
  MPI_Type_get_extent(rec, &lb, &ext);
  MPI_Type_create_resized(rec, 0, sizeof(struct rec), &rec_resized);
  MPI_Type_commit(&rec_resized);
  run("contiguous", src, n, MPI_DOUBLE, out, 4 << 20);
  run("vector", src, 1, vec, out, 4 << 20);
  run("struct", recs, (1 << 20) / 13, rec_resized, out, 4 << 20);
  MPI_Type_free(&vec);
  MPI_Type_free(&rec);
  MPI_Type_free(&rec_resized);
  MPI_Finalize();
  free(src);
  free(recs);
  free(out);
  return 0;
}
