// context_id.hpp - agreeing on a new communicator's context id (IMPI 4.3),
// safely when several constructions run at once in one process.
//
// IMPI 4.3's rule: every process offers IMPI_max_cid made odd, they take
// the MAX, newcid = max + 1 (point-to-point) and max + 2 (collectives), and
// IMPI_max_cid becomes max + 2. Two constructions in flight in one process
// (threads under MPI_THREAD_MULTIPLE, or MPI_Comm_idup) would read the same
// IMPI_max_cid and could agree on the same id. So, as MPICH does with its
// context-id masks, a process lends each of two id pools to one
// construction at a time and offers kRetry (above every id, so it wins the
// MAX) for the others; every process of a round that yields kRetry tries
// again:
// - a construction's first round uses the low pool, IMPI_max_cid itself;
// - later rounds use the high pool (ids from kHighPool up), lent only to
//   constructions whose first round is over, so all their processes have
//   called them and every round of theirs completes; among those, the one
//   whose parent context (then tag) is lowest goes first, so the same
//   construction wins in every process and rounds cannot fail forever.
// The first-round holder may wait for late processes; it never keeps the
// high pool from the others.
//
// One construction at a time (every single-threaded program without an
// MPI_Comm_idup in flight) never offers kRetry: the wire is exactly IMPI
// 4.3's, one MAX round.
#pragma once

#include <cstdint>
#include <optional>

#include "base/errc.hpp"
#include "collectives/collectives.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

class ContextClaim {
 public:
  // A value above every real context id: "another round, please".
  static constexpr std::uint64_t kRetry = std::uint64_t{1} << 63;
  // The high pool's first id; the low pool ends below it.
  static constexpr std::uint64_t kHighPool = std::uint64_t{1} << 30;

  // `parent`: the context the construction runs on (its collective
  // context); `tag` tells apart constructions on one parent (for
  // MPI_Comm_create_group, the user's tag).
  explicit ContextClaim(int parent, int tag = 0);
  ~ContextClaim();
  ContextClaim(const ContextClaim &) = delete;
  ContextClaim &operator=(const ContextClaim &) = delete;

  // This process's value for the next round's MAX.
  std::uint64_t offer();
  // The round's MAX: the new context id, or std::nullopt when the round
  // must be repeated. Error "out of contexts" when none is left.
  std::optional<base::Result<int>> settle(std::uint64_t agreed);
  // Between two rounds of a blocking agreement: lets the construction that
  // holds the slot move (in this thread's progress and in other threads).
  static void between_rounds(core::P2P &p2p);

 private:
  enum class Pool { none, low, high };
  int parent_, tag_;
  std::uint64_t seq_;
  bool first_ = true;  // the first round is not over
  Pool holding_ = Pool::none;
};

// The agreement itself, for every construction: rounds of `round` until
// one settles. `round(offer, agreed)` takes this process's offer and gives
// the MAX over every process of the construction (a base::Status); the
// construction is told apart by its parent's collective context and `tag`.
template <typename Round>
base::Result<int> agree_in_rounds(core::P2P &p2p, int parent, int tag, Round &&round) {
  ContextClaim claim(parent, tag);
  for (;;) {
    std::uint64_t agreed = 0;
    if (auto s = round(claim.offer(), agreed); !s.ok()) return {s.error(), s.message()};
    if (auto cid = claim.settle(agreed)) return std::move(*cid);
    ContextClaim::between_rounds(p2p);
  }
}

// The same as a task: `round(offer, &agreed)` is a Task; *cid is set on success.
template <typename Round>
Task agree_in_rounds_task(int parent, int tag, Round round, int *cid) {
  ContextClaim claim(parent, tag);
  for (;;) {
    std::uint64_t agreed = 0;
    if (auto s = co_await round(claim.offer(), &agreed); !s.ok()) co_return s;
    if (auto got = claim.settle(agreed)) {
      if (!*got) co_return base::Status{got->error(), got->message()};
      *cid = **got;
      co_return base::Status{};
    }
    co_await Yield{};
  }
}

// MAX on one IMPI_UINT8 (MPI_UINT64_T): how the offers combine.
Reduction max_u64();

// The context id of a new communicator made from `parent`: every rank of
// the view calls it (an Allreduce MAX a round).
base::Result<int> agree_context(const CommView &parent);
// The same on intracommunicator `parent` itself, blocking: after the
// collectives queued on it (such as an MPI_Comm_idup), as on every process.
base::Result<int> agree_context(const core::Communicator &parent);
// The same as a task (MPI_Comm_idup); *cid is set on success.
Task agree_context_task(CommView parent, int *cid);

}  // namespace impi::collectives
