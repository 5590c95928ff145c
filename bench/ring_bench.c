/* ring_bench.c - every rank exchanges 8 bytes with both neighbours of a
 * ring (MPI_Sendrecv right, then left), many times; rank 0 prints the time
 * per exchange step in microseconds. Meant for more ranks than cores, where
 * waiting well (yielding the core) decides the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, i, iters = argc > 1 ? atoi(argv[1]) : 2000;
  double v = 1.0, got, t0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < iters + 100; ++i) {
    if (i == 100) t0 = MPI_Wtime();
    MPI_Sendrecv(&v, 1, MPI_DOUBLE, (rank + 1) % size, 1, &got, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&v, 1, MPI_DOUBLE, (rank + size - 1) % size, 2, &got, 1, MPI_DOUBLE,
                 (rank + 1) % size, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) printf("%.2f\n", (MPI_Wtime() - t0) * 1e6 / iters);
  MPI_Finalize();
  return 0;
}
