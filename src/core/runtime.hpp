// runtime.hpp - process-wide MPI state: init, finalize, abort, the world.
//
// Threading: init/finalize are called by one thread (the MPI standard
// requires it); the getters are safe to call concurrently after init.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "core/communicator.hpp"
#include "core/contact_card.hpp"
#include "core/p2p.hpp"
#include "startup/pm_client.hpp"

namespace impi::core {

enum class State { uninitialized, initialized, finalized };

// Thread support we provide. MPI_THREAD_* values, mirrored to keep
// mpi.h out of the core.
constexpr int kThreadSingle = 0;
constexpr int kThreadFunneled = 1;
constexpr int kThreadSerialized = 2;
constexpr int kThreadMultiple = 3;
constexpr int kThreadMaxProvided = kThreadMultiple;

class Runtime {
 public:
  // Inline, a load and a test: every MPI call asks.
  static Runtime &instance() {
    Runtime *rt = instance_.load(std::memory_order_acquire);
    return __builtin_expect(rt != nullptr, 1) ? *rt : create();
  }

  // MPI_Init_thread: returns the level provided.
  base::Result<int> init(int required_thread_level);
  base::Status finalize();
  // Ends the whole job with `code`; does not return. A `why` that starts
  // with "impi fatal: " is the library's own reason (the launcher prints
  // it as the failure); else it is MPI_Abort's.
  [[noreturn]] void abort(int code, std::string_view why);

  State state() const { return state_; }
  int thread_level() const { return thread_level_; }
  bool is_main_thread() const { return std::this_thread::get_id() == main_thread_; }
  const startup::JobInfo &job() const { return pm_->job(); }
  const std::string &processor_name() const { return processor_name_; }
  const std::vector<ContactCard> &peers() const { return peers_; }

  Communicator &world() { return world_; }
  Communicator &self() { return self_; }
  P2P &p2p() { return p2p_; }
  startup::ProcessManager &pm() { return *pm_; }
  // IMPI_max_cid (IMPI 4.3): the highest context id this proc has used.
  std::uint64_t &max_cid() { return max_cid_; }

 private:
  Runtime() = default;
  static Runtime &create();  // the first call (thread safe)
  static inline std::atomic<Runtime *> instance_{nullptr};
  base::Status exchange_cards();
  // Multi-client jobs: the local link to this host's agent (IMPI_AGENT_SOCKET).
  base::Status connect_agent(std::uint64_t my_index);
  base::Status attach_direct(const startup::ImpiJob &job);
  void wait_for_teardown();

  State state_ = State::uninitialized;
  int thread_level_ = kThreadSingle;
  std::thread::id main_thread_;
  std::unique_ptr<startup::ProcessManager> pm_;
  std::string processor_name_;
  std::vector<ContactCard> peers_;  // this client's procs, by local (PMIx) rank
  Communicator world_, self_;
  P2P p2p_;
  std::uint64_t max_cid_ = 3;  // WORLD uses 0 and 1, SELF 2 and 3
  base::Fd agent_;             // the local link to the host agent (multi-client jobs)
  // Direct channels: the host channels the agent handed over (host index, socket).
  std::vector<std::pair<std::uint32_t, base::Fd>> direct_;
};

}  // namespace impi::core
