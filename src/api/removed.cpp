// removed.cpp - the MPI-1 functions that MPI-3.0 removed (MPI_Address,
// MPI_Type_extent/lb/ub, MPI_Type_hvector/hindexed/struct and
// MPI_Errhandler_create/get/set). MPICH still declares them and Open MPI
// still exports them, so programs written against MPI-1 build there; here
// each is its MPI-2 replacement under the old name (the argument lists
// differ only in const and int-vs-MPI_Aint widths, which C converts).
#include "mpi.h"

extern "C" {

int PMPI_Address(void *location, MPI_Aint *address) {
  return PMPI_Get_address(location, address);
}

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent) {
  MPI_Aint lb = 0;
  return PMPI_Type_get_extent(datatype, &lb, extent);
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement) {
  MPI_Aint extent = 0;
  return PMPI_Type_get_extent(datatype, displacement, &extent);
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement) {
  MPI_Aint lb = 0, extent = 0;
  const int rc = PMPI_Type_get_extent(datatype, &lb, &extent);
  if (rc == MPI_SUCCESS && displacement) *displacement = lb + extent;
  return rc;
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype) {
  return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_hindexed(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                       MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                                   newtype);
}

int PMPI_Type_struct(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements,
                     MPI_Datatype *array_of_types, MPI_Datatype *newtype) {
  return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                 array_of_types, newtype);
}

int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler) {
  return PMPI_Comm_create_errhandler(function, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler) {
  return PMPI_Comm_get_errhandler(comm, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return PMPI_Comm_set_errhandler(comm, errhandler);
}

}  // extern "C"

#include "api/generated/removed_aliases.inc"
