// criss_cross.hpp - the "criss-cross" exchange of an intercommunicator
// (IMPI 4.5, 4.6, 4.9), and MPI_Comm_free's barrier built on it.
//
// Every non-leader sends its value to the remote leader (remote rank 0);
// each leader gathers its remote non-leaders' values, folds them into its
// own, exchanges the result with the other leader, folds that too, and
// sends the final value to every remote non-leader, which takes it.
// Everything goes on the collective context with one tag.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"
#include "core/communicator.hpp"

namespace impi::collectives {

// Folds a received value into the accumulated one.
using CrissCrossFold =
    std::function<void(const std::vector<std::uint64_t> &in, std::vector<std::uint64_t> &acc)>;

// The exchange over `peers` (the remote group: remote_view_of), as the
// leader when `leader` (local rank 0). `value` (in: this rank's; out: the
// result) must outlive the task.
Task criss_cross(CommView peers, bool leader, int tag, std::vector<std::uint64_t> *value,
                 CrissCrossFold fold);

// A new context id for a communicator made from intercommunicator `c`
// (IMPI 4.6, 4.9): criss-cross exchanges whose value[0] is the MAX of
// IMPI_max_cid, in rounds (context_id.hpp); the rest of `value` (the same
// in every round) as `fold` makes it. Blocking: after the collectives
// queued on `c`, as on every process.
base::Result<int> criss_cross_context(const core::Communicator &c, int tag,
                                      std::vector<std::uint64_t> &value,
                                      const CrissCrossFold &fold);

// IMPI 4.5: MPI_Comm_free synchronizes. A Barrier on an intracommunicator;
// on an intercommunicator the criss-cross of one 0 with IMPI_COMM_FREE_TAG.
// `c` is copied: the task may outlive the communicator.
constexpr int kCommFreeTag = 230;
Task free_barrier(core::Communicator c);

}  // namespace impi::collectives
