// communicator.hpp - the core's view of a communicator.
//
// For now only the predefined MPI_COMM_WORLD and MPI_COMM_SELF exist; the
// communicators issue adds groups, context-id agreement and construction.
#pragma once

#include <cstdint>
#include <string>

namespace impi::core {

struct Communicator {
  int rank = 0;
  int size = 1;
  int context_id = 0;             // IMPI 4.3: WORLD = 0
  std::uintptr_t errhandler = 0;  // an MPI_Errhandler handle value, owned by src/api
  std::string name;
  // Spans procs of more than one IMPI client: MPI_Pack uses external32
  // (IMPI 4.1) and collectives the spec's global algorithms.
  bool spans_clients = false;
};

}  // namespace impi::core
