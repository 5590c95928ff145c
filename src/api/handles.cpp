#include "api/handles.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "core/runtime.hpp"

namespace impi::api {

namespace {
// User communicators, by handle index - kFirstUserComm (null: free slot).
// Shared: a persistent collective's own handle names the same communicator
// (share_comm_handle), which lives until its last handle is freed.
constexpr std::uint32_t kFirstUserComm = 3;
std::mutex g_mu;
std::vector<std::shared_ptr<core::Communicator>> g_comms;

MPI_Comm add_comm_locked(std::shared_ptr<core::Communicator> c) {
  std::size_t i = 0;
  while (i < g_comms.size() && g_comms[i]) ++i;
  if (i == g_comms.size()) g_comms.emplace_back();
  g_comms[i] = std::move(c);
  return make_handle<MPI_Comm>(IMPI_KIND_COMM, static_cast<std::uint32_t>(i + kFirstUserComm));
}
}  // namespace

core::Communicator *lookup_user_comm(MPI_Comm comm) {
  if (handle_kind(comm) != IMPI_KIND_COMM) return nullptr;
  auto &rt = core::Runtime::instance();
  if (rt.state() != core::State::initialized) return nullptr;
  std::uint32_t i = handle_index(comm);
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserComm || i - kFirstUserComm >= g_comms.size()) return nullptr;
  return g_comms[i - kFirstUserComm].get();
}

MPI_Comm new_comm_handle(std::unique_ptr<core::Communicator> c) {
  std::lock_guard<std::mutex> lk(g_mu);
  return add_comm_locked(std::move(c));
}

MPI_Comm share_comm_handle(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) return comm;
  if (handle_kind(comm) != IMPI_KIND_COMM) return MPI_COMM_NULL;
  std::uint32_t i = handle_index(comm);
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserComm || i - kFirstUserComm >= g_comms.size() || !g_comms[i - kFirstUserComm])
    return MPI_COMM_NULL;
  return add_comm_locked(g_comms[i - kFirstUserComm]);
}

bool comm_handle_shared(MPI_Comm comm) {
  if (handle_kind(comm) != IMPI_KIND_COMM) return false;
  std::uint32_t i = handle_index(comm);
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserComm || i - kFirstUserComm >= g_comms.size() || !g_comms[i - kFirstUserComm])
    return false;
  return g_comms[i - kFirstUserComm].use_count() > 1;
}

bool free_comm_handle(MPI_Comm comm) {
  if (handle_kind(comm) != IMPI_KIND_COMM) return false;
  std::uint32_t i = handle_index(comm);
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserComm || i - kFirstUserComm >= g_comms.size() || !g_comms[i - kFirstUserComm])
    return false;
  g_comms[i - kFirstUserComm].reset();
  return true;
}

}  // namespace impi::api
