// dynamic.hpp - the part of dynamic processes that MPI_Init runs.
#pragma once

namespace impi::api {

// In a proc started by MPI_Comm_spawn (IMPI_PARENT_PORT set by its
// parents): connects MPI_COMM_WORLD to the parents' port, which makes the
// intercommunicator MPI_Comm_get_parent returns. MPI_SUCCESS otherwise.
int connect_to_parent();

}  // namespace impi::api
