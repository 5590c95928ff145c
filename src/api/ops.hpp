// ops.hpp - MPI_Op handles: the predefined operators and user functions.
#pragma once

#include <optional>

#include "mpi.h"
#include "pack/reduce.hpp"

namespace impi::api {

struct OpRef {
  std::optional<pack::Op> predefined;     // set for MPI_MAX ... MPI_NO_OP
  MPI_User_function *user = nullptr;      // set for MPI_Op_create'd ones
  MPI_User_function_c *user_c = nullptr;  // set for MPI_Op_create_c'd ones
  bool commutative = true;
};

std::optional<OpRef> lookup_op(MPI_Op op);

// inout = in op inout for `count` of `datatype`; returns an MPI error class.
// An int user function gets a count above INT_MAX in pieces.
int apply_op(const OpRef &op, MPI_Datatype datatype, const pack::TypePtr &type, MPI_Count count,
             const void *in, void *inout, const char *fn, MPI_Comm comm);

}  // namespace impi::api
