// session.hpp - who keeps the runtime up: the world model (MPI_Init ..
// MPI_Finalize) and the sessions (MPI_Session_init .. MPI_Session_finalize,
// MPI-4.0 11.3), in any order and any number of sessions (session.cpp).
#pragma once

#include "mpi.h"

namespace impi::api {

// MPI_Init / MPI_Init_thread: starts the runtime unless a session already
// did (then `provided` is the level it runs at). An MPI error code.
int world_init(int required, int *provided, const char *fn);
// MPI_Finalize: ends the world model; the runtime ends with it unless a
// session is still open (then with the last MPI_Session_finalize).
int world_finalize();
// MPI_Initialized / MPI_Finalized: the world model's state only (MPI-4.0 11.2.1).
bool world_initialized();
bool world_finalized();

}  // namespace impi::api
