// select.hpp - the collective operations as the API calls them, on a
// communicator: each chooses its algorithm (the shared-memory slots of
// MPI_COMM_WORLD on one node, the plain blocking calls of fast_native.cpp,
// the generic tasks, which pick the IMPI algorithms on communicators
// spanning clients, or an intercommunicator's) and runs it.
//
// `request` == nullptr: blocking; the operation runs after those already
// queued on the communicator and is over on return. Otherwise it is queued
// (nonblocking.hpp) and *request completes when it has. Arguments are
// checked and MPI_IN_PLACE resolved by the caller (sendbuf == recvbuf);
// an intercommunicator's root is a remote rank, kRootHere or kNotRoot.
#pragma once

#include <cstdint>
#include <optional>

#include "base/errc.hpp"
#include "collectives/collectives.hpp"
#include "collectives/task.hpp"
#include "core/communicator.hpp"
#include "core/p2p.hpp"
#include "pack/datatype.hpp"
#include "pack/reduce.hpp"

namespace impi::collectives {

// A reduction's operation: a predefined one, which the fast paths apply
// with pack::reduce (building a Reduction's std::functions costs more than
// a small Allreduce), or the caller's (a user function) as a Reduction,
// which an operation that runs as a task moves from. Trivially copyable:
// it travels in registers.
struct ReduceOp {
  std::optional<pack::Op> predefined;
  Reduction *user = nullptr;  // when !predefined
  bool commutative() const { return predefined || user->commutative; }
  // As the tasks take it, for `count` instances of `type`.
  Reduction take(const pack::TypePtr &type, std::int64_t count) const;
};

// Runs `task` on `c` as the header says (the generic path of every operation).
base::Status start(const core::Communicator &c, Task task, core::RequestPtr *request);

base::Status barrier(const core::Communicator &c, core::RequestPtr *request);
base::Status bcast(const core::Communicator &c, void *buf, std::int64_t count,
                   const pack::TypePtr &type, int root, core::RequestPtr *request);
base::Status reduce(const core::Communicator &c, const void *sendbuf, void *recvbuf,
                    std::int64_t count, const pack::TypePtr &type, ReduceOp op, int root,
                    core::RequestPtr *request);
base::Status allreduce(const core::Communicator &c, const void *sendbuf, void *recvbuf,
                       std::int64_t count, const pack::TypePtr &type, ReduceOp op,
                       core::RequestPtr *request);

}  // namespace impi::collectives
