/* pi.c - pi by numerical integration of 4/(1+x^2) over [0,1]: rank 0
 * broadcasts the number of intervals, every rank sums its share, and
 * MPI_Reduce adds the shares up. The classic first MPI program.
 * Usage: pi [intervals] (default 10000000). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  long n = 10000000;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && argc > 1) n = atol(argv[1]);
  MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), h = 1.0 / (double)n, sum = 0.0, pi = 0.0;
  for (long i = rank; i < n; i += size) {
    double x = h * ((double)i + 0.5);
    sum += 4.0 / (1.0 + x * x);
  }
  double mine = h * sum;
  MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pi is approximately %.16f, error %.2e (%ld intervals, %d procs, %.3f s)\n", pi,
           fabs(pi - 3.141592653589793238462643), n, size, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
