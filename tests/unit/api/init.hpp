// init.hpp - each API test case runs in its own process: initialize MPI
// once, with errors returned as codes.
#pragma once

#include <mpi.h>

#include <catch2/catch.hpp>

namespace impi::test {

inline void init_mpi() {
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) {
    REQUIRE(MPI_Init(nullptr, nullptr) == MPI_SUCCESS);
    REQUIRE(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
  }
}

}  // namespace impi::test
