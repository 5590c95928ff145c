#include "collectives/collectives.hpp"

#include <vector>

#include "base/tunables.hpp"
#include "collectives/fast_native.hpp"
#include "collectives/impi.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

bool linear(const CommView &c, int n) {
  // (Read once: every collective across clients asks, and a lookup reads
  // the environment: 1% of a 2-client Allreduce loop's time in getenv.)
  static const bool lam_linear = base::get_int("coll_lam_linear") != 0;
  if (lam_linear) return n <= 4;
  return n < c.maxlinear;
}

// Every operation is a coroutine (task.hpp) taking its arguments by value,
// so that a non-blocking call can keep it; the blocking call runs it to
// completion at once.

namespace {
std::vector<int> all_ranks(const CommView &c) {
  std::vector<int> all(static_cast<std::size_t>(c.size));
  for (int i = 0; i < c.size; ++i) all[static_cast<std::size_t>(i)] = i;
  return all;
}
}  // namespace

Task barrier_task(CommView c) {
  if (c.size == 1) co_return {};
  if (c.spans_clients()) co_return co_await impi_barrier(c);
  co_return co_await barrier_dissemination(c);
}

Task bcast_task(CommView c, void *buf, std::int64_t count, pack::TypePtr type, int root) {
  if (c.size == 1) co_return {};
  if (c.spans_clients()) co_return co_await impi_bcast(c, buf, count, type, root);
  std::vector<int> all = all_ranks(c);
  co_return co_await bcast_binomial(c, all, static_cast<std::size_t>(root), buf, count, type,
                                    kBcastTag);
}

Task reduce_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
                 pack::TypePtr type, Reduction op, int root) {
  if (c.size == 1) {
    copy_typed(sendbuf, recvbuf, type, count);
    co_return {};
  }
  if (c.spans_clients()) co_return co_await impi_reduce(c, sendbuf, recvbuf, count, type, op, root);
  if (!op.commutative)
    co_return co_await reduce_fold_in_order(c, sendbuf, recvbuf, count, type, op, root, kReduceTag);
  std::vector<int> all = all_ranks(c);
  co_return co_await reduce_binomial(c, all, static_cast<std::size_t>(root), sendbuf, recvbuf,
                                     count, type, op, kReduceTag);
}

// IMPI 4.21: Reduce to rank 0, then Bcast from rank 0 (what LAM/MPI does;
// the context-id agreement depends on it). Native, commutative: recursive doubling.
Task allreduce_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    pack::TypePtr type, Reduction op) {
  if (!c.spans_clients() && op.commutative && c.size > 1) {
    // Long vectors: the ring moves and combines less per rank (tunable: coll_allreduce_ring_min).
    if (op.combine_n && count >= c.size && count * type->size() >= allreduce_ring_min())
      co_return co_await allreduce_ring(c, sendbuf, recvbuf, count, type, op, kReduceTag);
    co_return co_await allreduce_recursive_doubling(c, sendbuf, recvbuf, count, type, op,
                                                    kReduceTag);
  }
  if (c.spans_clients()) {  // (the view is ours: no copy for the sub-tasks)
    if (auto s = co_await impi_reduce(c, sendbuf, recvbuf, count, type, op, 0); !s.ok())
      co_return s;
    co_return co_await impi_bcast(c, recvbuf, count, type, 0);
  }
  if (auto s = co_await reduce_task(c, sendbuf, recvbuf, count, type, op, 0); !s.ok()) co_return s;
  co_return co_await bcast_task(c, recvbuf, count, type, 0);
}

Task gather_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                 void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root) {
  co_return co_await impi_gather(c, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

// IMPI (our design): Gather to rank 0, then Bcast from rank 0. Native: a ring.
Task allgather_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                    void *recvbuf, std::int64_t rcount, pack::TypePtr rtype) {
  if (!c.spans_clients()) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size), rcount),
        displs(counts.size());
    for (std::size_t i = 0; i < displs.size(); ++i)
      displs[i] = static_cast<std::int64_t>(i) * rcount;
    co_return co_await allgather_ring(c, sendbuf, scount, stype, recvbuf, counts, displs, rtype,
                                      kGatherTag);
  }
  if (auto s = co_await gather_task(c, sendbuf, scount, stype, recvbuf, rcount, rtype, 0); !s.ok())
    co_return s;
  co_return co_await bcast_task(c, recvbuf, rcount * c.size, rtype, 0);
}

Task gatherv_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::vector<std::int64_t> rcounts,
                  std::vector<std::int64_t> displs, pack::TypePtr rtype, int root) {
  co_return co_await impi_gatherv(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root);
}

// Gatherv to rank 0, then Bcast from rank 0 of the blocks as one indexed type.
Task allgatherv_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                     void *recvbuf, std::vector<std::int64_t> rcounts,
                     std::vector<std::int64_t> displs, pack::TypePtr rtype) {
  if (!c.spans_clients())
    co_return co_await allgather_ring(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype,
                                      kGathervTag);
  if (auto s = co_await impi_gatherv(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, 0);
      !s.ok())
    co_return s;
  auto all = pack::Datatype::indexed(rcounts, displs, rtype, false);
  if (!all) co_return base::Status{all.error(), all.message()};
  co_return co_await bcast_task(c, recvbuf, 1, *all, 0);
}

Task scatter_task(CommView c, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root) {
  co_return co_await impi_scatter(c, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

Task scatterv_task(CommView c, const void *sendbuf, std::vector<std::int64_t> scounts,
                   std::vector<std::int64_t> displs, pack::TypePtr stype, void *recvbuf,
                   std::int64_t rcount, pack::TypePtr rtype, int root) {
  co_return co_await impi_scatterv(c, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root,
                                   kScattervTag);
}

Task alltoallw_task(CommView c, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                    std::vector<Block> recv, int tag, std::vector<std::byte> keep) {
  (void)keep;  // (an MPI_IN_PLACE copy of the send data, alive as long as the operation)
  co_return co_await alltoall_pairwise(c, sendbuf, send, recvbuf, recv, tag);
}

// Reduce to rank 0, then Scatterv of the result (IMPI: no tag of its own).
Task reduce_scatter_task(CommView c, const void *sendbuf, void *recvbuf,
                         std::vector<std::int64_t> counts, pack::TypePtr type, Reduction op,
                         std::vector<std::byte> keep) {
  (void)keep;  // (an MPI_IN_PLACE copy of the input, alive as long as the operation)
  std::int64_t total = 0;
  std::vector<std::int64_t> displs;
  for (auto n : counts) {
    displs.push_back(total);
    total += n;
  }
  TypedBuffer all(type, total);
  if (auto s = co_await reduce_task(c, sendbuf, all.get(), total, type, op, 0); !s.ok())
    co_return s;
  co_return co_await impi_scatterv(c, all.get(), counts, displs, type, recvbuf,
                                   counts[static_cast<std::size_t>(c.rank)], type, 0, kScattervTag);
}

Task scan_task(CommView c, const void *sendbuf, void *recvbuf, std::int64_t count,
               pack::TypePtr type, Reduction op, bool exclusive) {
  co_return co_await scan_pipeline(c, sendbuf, recvbuf, count, type, op, exclusive);
}

// ---- the blocking calls
base::Status barrier(const CommView &c) {
  return run_blocking(*c.p2p, barrier_task(c));
}
base::Status bcast(const CommView &c, void *buf, std::int64_t count, const pack::TypePtr &type,
                   int root) {
  return run_blocking(*c.p2p, bcast_task(c, buf, count, type, root));
}
base::Status reduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    const pack::TypePtr &type, const Reduction &op, int root) {
  return run_blocking(*c.p2p, reduce_task(c, sendbuf, recvbuf, count, type, op, root));
}
base::Status allreduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                       const pack::TypePtr &type, const Reduction &op) {
  return run_blocking(*c.p2p, allreduce_task(c, sendbuf, recvbuf, count, type, op));
}
base::Status gather(const CommView &c, const void *sendbuf, std::int64_t scount,
                    const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                    const pack::TypePtr &rtype, int root) {
  return run_blocking(*c.p2p, gather_task(c, sendbuf, scount, stype, recvbuf, rcount, rtype, root));
}
base::Status allgather(const CommView &c, const void *sendbuf, std::int64_t scount,
                       const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                       const pack::TypePtr &rtype) {
  return run_blocking(*c.p2p, allgather_task(c, sendbuf, scount, stype, recvbuf, rcount, rtype));
}
base::Status gatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                     const pack::TypePtr &stype, void *recvbuf,
                     const std::vector<std::int64_t> &rcounts,
                     const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype,
                     int root) {
  return run_blocking(
      *c.p2p, gatherv_task(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root));
}
base::Status allgatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                        const pack::TypePtr &stype, void *recvbuf,
                        const std::vector<std::int64_t> &rcounts,
                        const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype) {
  return run_blocking(*c.p2p,
                      allgatherv_task(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype));
}
base::Status scatter(const CommView &c, const void *sendbuf, std::int64_t scount,
                     const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                     const pack::TypePtr &rtype, int root) {
  return run_blocking(*c.p2p,
                      scatter_task(c, sendbuf, scount, stype, recvbuf, rcount, rtype, root));
}
base::Status scatterv(const CommView &c, const void *sendbuf,
                      const std::vector<std::int64_t> &scounts,
                      const std::vector<std::int64_t> &displs, const pack::TypePtr &stype,
                      void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root) {
  return run_blocking(
      *c.p2p, scatterv_task(c, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root));
}
base::Status alltoallw(const CommView &c, const void *sendbuf, const std::vector<Block> &send,
                       void *recvbuf, const std::vector<Block> &recv, int tag) {
  return run_blocking(*c.p2p, alltoallw_task(c, sendbuf, send, recvbuf, recv, tag, {}));
}
base::Status reduce_scatter(const CommView &c, const void *sendbuf, void *recvbuf,
                            const std::vector<std::int64_t> &counts, const pack::TypePtr &type,
                            const Reduction &op) {
  return run_blocking(*c.p2p, reduce_scatter_task(c, sendbuf, recvbuf, counts, type, op, {}));
}
base::Status scan(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                  const pack::TypePtr &type, const Reduction &op, bool exclusive) {
  return run_blocking(*c.p2p, scan_task(c, sendbuf, recvbuf, count, type, op, exclusive));
}

}  // namespace impi::collectives
