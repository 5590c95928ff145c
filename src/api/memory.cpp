// memory.cpp - MPI_Alloc_mem/Free_mem and address arithmetic.
#include <cstdlib>

#include "api/errors.hpp"
#include "mpi.h"

using impi::api::report;

extern "C" {

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr) {
  (void)info;  // no allocation hints are understood yet
  if (size < 0) return report(MPI_COMM_NULL, MPI_ERR_SIZE, "MPI_Alloc_mem", "negative size");
  if (!baseptr) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr is NULL");
  void *p = std::malloc(size > 0 ? static_cast<size_t>(size) : 1);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem");
  *static_cast<void **>(baseptr) = p;
  return MPI_SUCCESS;
}

int PMPI_Free_mem(void *base) {
  std::free(base);
  return MPI_SUCCESS;
}

int PMPI_Get_address(const void *location, MPI_Aint *address) {
  if (!address) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Get_address", "address is NULL");
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::size_t>(base) + static_cast<std::size_t>(disp));
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::size_t>(addr1) - static_cast<std::size_t>(addr2));
}

// ---- predefined attribute copy/delete callbacks (MPI_COMM_DUP_FN and friends)
int impi_comm_null_copy_fn(MPI_Comm, int, void *, void *, void *, int *flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int impi_comm_dup_fn(MPI_Comm, int, void *, void *in, void *out, int *flag) {
  *static_cast<void **>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int impi_comm_null_delete_fn(MPI_Comm, int, void *, void *) {
  return MPI_SUCCESS;
}
int impi_type_null_copy_fn(MPI_Datatype, int, void *, void *, void *, int *flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int impi_type_dup_fn(MPI_Datatype, int, void *, void *in, void *out, int *flag) {
  *static_cast<void **>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int impi_type_null_delete_fn(MPI_Datatype, int, void *, void *) {
  return MPI_SUCCESS;
}
int impi_win_null_copy_fn(MPI_Win, int, void *, void *, void *, int *flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int impi_win_dup_fn(MPI_Win, int, void *, void *in, void *out, int *flag) {
  *static_cast<void **>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int impi_win_null_delete_fn(MPI_Win, int, void *, void *) {
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/memory_aliases.inc"
