// rounds.cpp - MPI-IO's rounds by memory (rounds.hpp).
#include "io/rounds.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/runtime.hpp"
#include "io/file.hpp"
#include "transport/shm/cma.hpp"

namespace impi::io {

std::uint64_t machine_key() {
  static const std::uint64_t key = [] {
    std::string id;
    if (FILE *fp = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
      char b[64] = {};
      if (std::fgets(b, sizeof b, fp)) id = b;
      std::fclose(fp);
    }
    char ns[64] = {};
    if (::readlink("/proc/self/ns/pid", ns, sizeof ns - 1) > 0) id += ns;
    if (id.empty()) return std::uint64_t{0};
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (unsigned char c : id) h = (h ^ c) * 1099511628211ULL;
    return h | 1;  // (never 0: unknown)
  }();
  return key;
}

MemoryRounds::MemoryRounds(int rank, int size, std::size_t words)
    : rank_(rank),
      size_(size),
      stride_(1 + words),
      slots_(new long long[2 * static_cast<std::size_t>(size) * (1 + words)]()) {}

void MemoryRounds::connect(std::vector<std::int64_t> pid, std::vector<std::uint64_t> addr) {
  pid_ = std::move(pid);
  addr_ = std::move(addr);
  round_ = 0;
}

long long MemoryRounds::post(const void *mine, std::size_t bytes, const std::string &what) {
  const long long k = ++round_;
  g_io_counters.memory_rounds.fetch_add(1, std::memory_order_relaxed);
  const std::size_t at = slot(k, rank_);
  bytes = std::min(bytes, (stride_ - 1) * sizeof(long long));  // (the slot's room)
  if (bytes > 0)  // (a barrier's round has no part: mine may be null)
    std::memcpy(&slots_[at + 1], mine, bytes);
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const std::uint64_t there = addr_[static_cast<std::size_t>(r)] + at * sizeof(long long);
    const std::int64_t p = pid_[static_cast<std::size_t>(r)];
    if (!transport::shm::cma_post(p, there + sizeof(long long), mine, bytes, there, k))
      core::Runtime::instance().abort(
          1, fmt::format("impi fatal: {}: rank {} cannot write into the memory of rank {} (pid "
                         "{}): {}; the collective call cannot go on",
                         what, rank_, r, p, std::strerror(errno)));
  }
  return k;
}

bool MemoryRounds::arrived(long long k) const {
  for (int r = 0; r < size_; ++r)
    if (r != rank_ &&
        std::atomic_ref<long long>(slots_[slot(k, r)]).load(std::memory_order_acquire) != k)
      return false;
  return true;
}

void MemoryRounds::wait(long long k) {
  if (arrived(k)) return;
  struct Pending {  // (polls rather than sleeps meanwhile: no descriptor wakes us)
    core::P2P &p2p = core::Runtime::instance().p2p();
    Pending() { p2p.memory_wait(+1); }
    ~Pending() { p2p.memory_wait(-1); }
  } pending;
  pending.p2p.wait_until([this, k] { return arrived(k); });
}

const void *MemoryRounds::part(long long k, int r) {
  long long *p = &slots_[slot(k, r) + 1];
  if (r != rank_)
    transport::shm::mark_defined(p, (stride_ - 1) * sizeof(long long));  // (another wrote it)
  return p;
}

}  // namespace impi::io
