/* spawn_child2.c - the second program of spawn_check's "multiple" mode:
 * tells parent rank 0 its world rank, its MPI_APPNUM and "program 2". */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, *appnum = 0, flag = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent == MPI_COMM_NULL) return 2;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  int v[3] = {rank, flag ? *appnum : -1, 2};
  MPI_Send(v, 3, MPI_INT, 0, 5, parent);
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return 0;
}
