#include "api/handles.hpp"

#include "core/runtime.hpp"

namespace impi::api {

core::Communicator *lookup_comm(MPI_Comm comm) {
  if (handle_kind(comm) != IMPI_KIND_COMM) return nullptr;
  auto &rt = core::Runtime::instance();
  if (rt.state() != core::State::initialized) return nullptr;
  if (comm == MPI_COMM_WORLD) return &rt.world();
  if (comm == MPI_COMM_SELF) return &rt.self();
  return nullptr;  // user communicators arrive with the communicators issue
}

}  // namespace impi::api
