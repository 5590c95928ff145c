// mpi.h must compile as C++ and keep handle types distinct.
#include <mpi.h>

#include <type_traits>

static_assert(!std::is_same_v<MPI_Comm, MPI_Datatype>, "handle types are distinct");
static_assert(!std::is_same_v<MPI_Request, MPI_Op>, "handle types are distinct");
static_assert(sizeof(MPI_Aint) == sizeof(void *), "MPI_Aint holds an address");
int impi_header_check_cxx() {
  return MPI_COMM_WORLD != MPI_COMM_SELF;
}
