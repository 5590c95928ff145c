#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_library_version(lib, &len);
  printf("c rank %d of %d: %s\n", rank, size, lib);
  MPI_Finalize();
  return 0;
}
