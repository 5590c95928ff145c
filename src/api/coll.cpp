// coll.cpp - collective operations: argument checks, then src/collectives.
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "collectives/collectives.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

extern "C" {

int PMPI_Barrier(MPI_Comm comm) {
  if (!impi::api::check_initialized("MPI_Barrier")) return MPI_ERR_OTHER;
  impi::core::Communicator *c = impi::api::lookup_comm(comm);
  if (!c) return impi::api::report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Barrier", "not a valid communicator");
  auto s = impi::collectives::barrier(impi::collectives::view_of(*c));
  if (!s.ok()) return impi::api::report(comm, impi::api::error_class_of(s.error()), "MPI_Barrier", s.message());
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/coll_aliases.inc"
