// traffic.hpp - what this proc sent, per transport.
#pragma once

#include <atomic>
#include <cstdint>

namespace impi::core {

// Messages and bytes this proc sent, per transport: the tool interface's
// performance variables (MPI_T_pvar_*). Relaxed atomics: read from any thread.
struct TrafficCounters {
  std::atomic<std::uint64_t> shm_messages{0}, shm_bytes{0};    // to procs of this client
  std::atomic<std::uint64_t> impi_messages{0}, impi_bytes{0};  // to other IMPI clients
  std::atomic<std::uint64_t> dyn_messages{0}, dyn_bytes{0};    // to other jobs (dynamic processes)
  // Every writer holds the engine lock, so a plain load and store will do
  // (no locked read-modify-write on the send path); readers see whole values.
  static void add(std::atomic<std::uint64_t> &msgs, std::atomic<std::uint64_t> &bytes,
                  std::int64_t n) {
    msgs.store(msgs.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    bytes.store(bytes.load(std::memory_order_relaxed) + static_cast<std::uint64_t>(n),
                std::memory_order_relaxed);
  }
};

}  // namespace impi::core
