// collectives.hpp - entry points the API calls: each picks the IMPI
// algorithm on a communicator spanning clients (docs/impi-collectives.md),
// a native one otherwise. Buffers are user buffers (instance 0's origin);
// MPI_IN_PLACE is resolved by the caller (sendbuf == recvbuf).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/errc.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

// inout = in op inout, for the operation's count and datatype (MPI's
// user-function convention: `in` is the earlier ranks' part when the
// operation is not commutative).
struct Reduction {
  std::function<void(const void *in, void *inout)> combine;
  bool commutative = true;
  // The same on `n` instances (any n): lets an algorithm reduce pieces.
  // Optional; algorithms that need it fall back when it is empty.
  std::function<void(const void *in, void *inout, std::int64_t n)> combine_n;
};

base::Status barrier(const CommView &c);
base::Status bcast(const CommView &c, void *buf, std::int64_t count, const pack::TypePtr &type,
                   int root);
base::Status reduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    const pack::TypePtr &type, const Reduction &op, int root);
base::Status allreduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                       const pack::TypePtr &type, const Reduction &op);
// recvbuf/rcount/rtype matter at the root only; sendbuf == nullptr at the
// root: its block is already in place (MPI_IN_PLACE).
base::Status gather(const CommView &c, const void *sendbuf, std::int64_t scount,
                    const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                    const pack::TypePtr &rtype, int root);
base::Status allgather(const CommView &c, const void *sendbuf, std::int64_t scount,
                       const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                       const pack::TypePtr &rtype);
// The v forms: counts and displacements (in extents of the type) per rank.
base::Status gatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                     const pack::TypePtr &stype, void *recvbuf,
                     const std::vector<std::int64_t> &rcounts,
                     const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype, int root);
base::Status allgatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                        const pack::TypePtr &stype, void *recvbuf,
                        const std::vector<std::int64_t> &rcounts,
                        const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype);
// recvbuf == nullptr at the root: MPI_IN_PLACE.
base::Status scatter(const CommView &c, const void *sendbuf, std::int64_t scount,
                     const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                     const pack::TypePtr &rtype, int root);
base::Status scatterv(const CommView &c, const void *sendbuf,
                      const std::vector<std::int64_t> &scounts,
                      const std::vector<std::int64_t> &displs, const pack::TypePtr &stype,
                      void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root);
// One block per peer: count instances of type at a byte displacement.
struct Block {
  std::int64_t count = 0;
  pack::TypePtr type;
  std::int64_t byte_disp = 0;
};
base::Status alltoallw(const CommView &c, const void *sendbuf, const std::vector<Block> &send,
                       void *recvbuf, const std::vector<Block> &recv, int tag);
// Reduce to rank 0, then Scatterv of the result (IMPI: no tag of its own).
base::Status reduce_scatter(const CommView &c, const void *sendbuf, void *recvbuf,
                            const std::vector<std::int64_t> &counts, const pack::TypePtr &type,
                            const Reduction &op);
base::Status scan(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                  const pack::TypePtr &type, const Reduction &op, bool exclusive);

// The operations as coroutines (arguments by value, so that a
// non-blocking call can keep them running): nonblocking.hpp starts them.
Task barrier_task(CommView c);
Task bcast_task(CommView c, void *buf, std::int64_t count, pack::TypePtr type, int root);
Task reduce_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
                 pack::TypePtr type, Reduction op, int root);
Task allreduce_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    pack::TypePtr type, Reduction op);
Task gather_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                 void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root);
Task allgather_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                    void *recvbuf, std::int64_t rcount, pack::TypePtr rtype);
Task gatherv_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::vector<std::int64_t> rcounts,
                  std::vector<std::int64_t> displs, pack::TypePtr rtype, int root);
Task allgatherv_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                     void *recvbuf, std::vector<std::int64_t> rcounts,
                     std::vector<std::int64_t> displs, pack::TypePtr rtype);
Task scatter_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root);
Task scatterv_task(CommView c, const void *sendbuf, std::vector<std::int64_t> scounts,
                   std::vector<std::int64_t> displs, pack::TypePtr stype, void *recvbuf,
                   std::int64_t rcount, pack::TypePtr rtype, int root);
Task alltoallw_task(CommView c, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                    std::vector<Block> recv, int tag, std::vector<std::byte> keep);
Task reduce_scatter_task(CommView c, const void *sendbuf, void *recvbuf,
                         std::vector<std::int64_t> counts, pack::TypePtr type, Reduction op,
                         std::vector<std::byte> keep);
Task scan_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
               pack::TypePtr type, Reduction op, bool exclusive);

}  // namespace impi::collectives
