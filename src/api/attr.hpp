// attr.hpp - attribute caching hooks for the constructors and destructors
// of communicators and datatypes (attr.cpp). They return MPI error codes.
#pragma once

#include "mpi.h"

namespace impi::api {

// Runs every copy callback of `from`'s attributes; those that say so are set on `to`.
int copy_comm_attrs(MPI_Comm from, MPI_Comm to);
// Runs every delete callback (before the communicator goes away).
int delete_comm_attrs(MPI_Comm comm);
int copy_type_attrs(MPI_Datatype from, MPI_Datatype to);
int delete_type_attrs(MPI_Datatype type);

}  // namespace impi::api
