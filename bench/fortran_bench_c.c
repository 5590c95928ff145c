/* fortran_bench_c.c - bench/fortran.sh: bench/fortran_bench.f90 in C, the
 * reference for the Fortran binding's cost. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  enum { iters = 20000, warm = 2000 };
  int rank;
  double buf = 0, res, t0 = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  buf = rank;
  for (int i = 0; i < warm + iters; ++i) {
    if (i == warm) t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("pingpong %10.3f\n", (MPI_Wtime() - t0) / iters / 2 * 1e6);
  for (int i = 0; i < warm + iters; ++i) {
    if (i == warm) t0 = MPI_Wtime();
    MPI_Allreduce(&buf, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("allreduce %10.3f\n", (MPI_Wtime() - t0) / iters * 1e6);
  MPI_Finalize();
  return 0;
}
