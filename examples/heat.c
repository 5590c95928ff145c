/* heat.c - a 2-D heat equation on an N x N grid, split into horizontal
 * strips, one per rank: each step exchanges one halo row with each
 * neighbour (MPI_Sendrecv, MPI_PROC_NULL at the edges), updates the strip
 * with a 5-point stencil, and every 100 steps MPI_Allreduce finds the
 * largest change. The top edge is held at 100 degrees, the others at 0.
 * Usage: heat [N] [max_steps] (default 256 2000). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 256, steps = argc > 2 ? atoi(argv[2]) : 2000;
  if (n < size) n = size;
  /* rows [first, first + rows) of the interior, plus one halo row above and below */
  int rows = n / size + (rank < n % size),
      first = rank * (n / size) + (rank < n % size ? rank : n % size);
  int w = n + 2;
  double *u = calloc((size_t)(rows + 2) * w, sizeof *u),
         *v = calloc((size_t)(rows + 2) * w, sizeof *v);
  if (first == 0)
    for (int j = 0; j < w; ++j) u[j] = v[j] = 100.0; /* the hot top edge */
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double t0 = MPI_Wtime(), change = 0.0;
  int step;
  for (step = 1; step <= steps; ++step) {
    MPI_Sendrecv(&u[1 * w], w, MPI_DOUBLE, up, 0, &u[(rows + 1) * w], w, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[rows * w], w, MPI_DOUBLE, down, 1, &u[0], w, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double local = 0.0;
    for (int i = 1; i <= rows; ++i)
      for (int j = 1; j <= n; ++j) {
        double x =
            0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
        local = fmax(local, fabs(x - u[i * w + j]));
        v[i * w + j] = x;
      }
    double *t = u;
    u = v;
    v = t;
    if (step % 100 == 0) {
      MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (change < 1e-3) break;
    }
  }
  /* the mean temperature, to compare runs with different process counts */
  double sum = 0.0, total = 0.0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 1; j <= n; ++j) sum += u[i * w + j];
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf(
        "heat: %dx%d grid, %d procs, %d steps, mean temperature %.4f, last change %.2e (%.3f s)\n",
        n, n, size, step > steps ? steps : step, total / ((double)n * n), change, MPI_Wtime() - t0);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
