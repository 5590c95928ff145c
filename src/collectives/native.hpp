// native.hpp - collective algorithms for ranks inside one client. They run
// on a list of ranks (a whole communicator, or one client's ranks in the
// local phase of an IMPI algorithm) and take the tag to use.
#pragma once

#include <vector>

#include "base/errc.hpp"
#include "collectives/collectives.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

Task barrier_dissemination(const CommView &c);
// Binomial tree broadcast from ranks[root_pos] over `ranks`.
Task bcast_binomial(const CommView &c, const std::vector<int> &ranks, std::size_t root_pos,
                    void *buf, std::int64_t count, const pack::TypePtr &type, int tag);
// Binomial tree reduction (commutative operations) to ranks[root_pos]; the
// result lands in `result` there (only).
Task reduce_binomial(const CommView &c, const std::vector<int> &ranks, std::size_t root_pos,
                     const void *sendbuf, void *result, std::int64_t count,
                     const pack::TypePtr &type, const Reduction &op, int tag);
// Every rank of the communicator sends to the root, which folds in rank
// order: x0 op (x1 op (... op x(p-1))). For non-commutative operations
// (IMPI 4.16 does the same across clients).
// Allreduce for commutative operations, sendbuf may equal recvbuf.
Task allreduce_recursive_doubling(const CommView &c, const void *sendbuf, void *recvbuf,
                                  std::int64_t count, const pack::TypePtr &type,
                                  const Reduction &op, int tag);
// Allreduce for long vectors (commutative, with Reduction::combine_n): ring
// reduce-scatter + ring allgather.
Task allreduce_ring(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    const pack::TypePtr &type, const Reduction &op, int tag);
// Allgather(v) along a ring; sendbuf may be recvbuf's own block (in place).
Task allgather_ring(const CommView &c, const void *sendbuf, std::int64_t scount,
                    const pack::TypePtr &stype, void *recvbuf,
                    const std::vector<std::int64_t> &rcounts,
                    const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype, int tag);
Task alltoall_pairwise(const CommView &c, const void *sendbuf, const std::vector<Block> &send,
                       void *recvbuf, const std::vector<Block> &recv, int tag);
Task scan_pipeline(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                   const pack::TypePtr &type, const Reduction &op, bool exclusive);
Task reduce_fold_in_order(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                          const pack::TypePtr &type, const Reduction &op, int root, int tag);

}  // namespace impi::collectives
