// context_id.cpp - see context_id.hpp. The MAX travels as an IMPI_UINT8
// (8-byte unsigned, big-endian between clients: MPI_UINT64_T). Ids only
// grow, so none is ever reused.
#include "collectives/context_id.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "pack/predefined.hpp"
#include "pack/reduce.hpp"

namespace impi::collectives {

namespace {

// Which pools are lent, and the constructions waiting for the high pool.
struct Registry {
  struct Entry {
    int parent, tag;
    std::uint64_t seq;
    auto key() const { return std::tie(parent, tag, seq); }
  };
  std::mutex mu;
  bool low_lent = false, high_lent = false;
  std::vector<Entry> waiting;  // for the high pool: first round over
  std::uint64_t next_seq = 0;
  std::uint64_t high = ContextClaim::kHighPool + 1;  // the high pool's IMPI_max_cid
};

Registry &registry() {
  static Registry r;
  return r;
}

}  // namespace

Reduction max_u64() {
  return {[](const void *in, void *inout) {
            pack::reduce(pack::Op::max, pack::Datatype::predefined(pack::dt::uint64), 1, in, inout);
          },
          true,
          {}};
}

ContextClaim::ContextClaim(int parent, int tag) : parent_(parent), tag_(tag) {
  auto &r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  seq_ = r.next_seq++;
}

ContextClaim::~ContextClaim() {
  auto &r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  if (holding_ == Pool::low) r.low_lent = false;
  if (holding_ == Pool::high) r.high_lent = false;
  std::erase_if(r.waiting, [&](const Registry::Entry &e) { return e.seq == seq_; });
}

std::uint64_t ContextClaim::offer() {
  auto &r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  if (first_) {
    if (r.low_lent) return kRetry;
    r.low_lent = true;
    holding_ = Pool::low;
    auto &low = core::Runtime::instance().max_cid();
    if (low % 2 == 0) low += 1;
    return low;
  }
  if (r.high_lent) return kRetry;
  auto best = std::min_element(r.waiting.begin(), r.waiting.end(),
                               [](const auto &a, const auto &b) { return a.key() < b.key(); });
  if (best == r.waiting.end() || best->seq != seq_) return kRetry;
  r.high_lent = true;
  holding_ = Pool::high;
  return r.high;  // (always odd)
}

std::optional<base::Result<int>> ContextClaim::settle(std::uint64_t agreed) {
  auto &r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  const Pool pool = std::exchange(holding_, Pool::none);
  if (pool == Pool::low) r.low_lent = false;
  if (pool == Pool::high) r.high_lent = false;
  if (agreed >= kRetry) {
    if (std::exchange(first_, false)) r.waiting.push_back({parent_, tag_, seq_});
    return std::nullopt;
  }
  // Nobody asked for another round, so every process offered from the same
  // pool, this one included.
  if (pool == Pool::none)
    return base::Result<int>{
        base::Errc::protocol_error,
        "a process agreed on a context id in a round this one asked to repeat"};
  std::erase_if(r.waiting, [&](const Registry::Entry &e) { return e.seq == seq_; });
  const std::uint64_t end = pool == Pool::low ? kHighPool : core::kMaxContextId;
  if (agreed + 2 >= end)
    return base::Result<int>{
        base::Errc::not_found,
        fmt::format("out of contexts (the highest context id in use is {})", agreed)};
  auto &next = pool == Pool::low ? core::Runtime::instance().max_cid() : r.high;
  next = std::max(next, agreed + 2);
  return base::Result<int>{static_cast<int>(agreed + 1)};
}

void ContextClaim::between_rounds(core::P2P &p2p) {
  p2p.progress();
  std::this_thread::yield();
}

base::Result<int> agree_context(const CommView &parent) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  return agree_in_rounds(*parent.p2p, parent.context, parent.tag_override,
                         [&](std::uint64_t offer, std::uint64_t &agreed) {
                           return allreduce(parent, &offer, &agreed, 1, u8, max_u64());
                         });
}

base::Result<int> agree_context(const core::Communicator &parent) {
  drain(&parent, core::Runtime::instance().p2p());
  return agree_context(view_of(parent));
}

Task agree_context_task(CommView parent, int *cid) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  auto round = [&parent, &u8](std::uint64_t offer, std::uint64_t *agreed) -> Task {
    co_return co_await allreduce_task(parent, &offer, agreed, 1, u8, max_u64());
  };
  co_return co_await agree_in_rounds_task(parent.context, parent.tag_override, round, cid);
}

}  // namespace impi::collectives
