/* mpi.h must compile on its own in every C dialect we support. */
#include <mpi.h>

int impi_header_check(void);
int impi_header_check(void) {
  MPI_Status st;
  MPI_Comm c = MPI_COMM_WORLD;
  st.MPI_SOURCE = MPI_ANY_SOURCE;
  st.MPI_TAG = MPI_ANY_TAG;
  st.MPI_ERROR = MPI_SUCCESS;
  return (c != MPI_COMM_NULL) + st.MPI_SOURCE + (MPI_INT != MPI_DOUBLE);
}
