#include "collectives/collectives.hpp"

#include "base/tunables.hpp"
#include "collectives/impi.hpp"
#include "collectives/native.hpp"

#include <vector>

namespace impi::collectives {

bool linear(const CommView &c, int n) {
  if (base::get_int("coll_lam_linear") != 0) return n <= 4;
  return n < c.maxlinear;
}

base::Status barrier(const CommView &c) {
  if (c.size == 1) return {};
  if (c.spans_clients()) return impi_barrier(c);
  return barrier_dissemination(c);
}

base::Status bcast(const CommView &c, void *buf, std::int64_t count, const pack::TypePtr &type, int root) {
  if (c.size == 1) return {};
  if (c.spans_clients()) return impi_bcast(c, buf, count, type, root);
  std::vector<int> all(static_cast<std::size_t>(c.size));
  for (int i = 0; i < c.size; ++i) all[static_cast<std::size_t>(i)] = i;
  return bcast_binomial(c, all, static_cast<std::size_t>(root), buf, count, type, kBcastTag);
}

base::Status reduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    const pack::TypePtr &type, const Reduction &op, int root) {
  if (c.size == 1) {
    copy_typed(sendbuf, recvbuf, type, count);
    return {};
  }
  if (c.spans_clients()) return impi_reduce(c, sendbuf, recvbuf, count, type, op, root);
  if (!op.commutative) return reduce_fold_in_order(c, sendbuf, recvbuf, count, type, op, root, kReduceTag);
  std::vector<int> all(static_cast<std::size_t>(c.size));
  for (int i = 0; i < c.size; ++i) all[static_cast<std::size_t>(i)] = i;
  return reduce_binomial(c, all, static_cast<std::size_t>(root), sendbuf, recvbuf, count, type, op, kReduceTag);
}

// IMPI 4.21: Reduce to rank 0, then Bcast from rank 0 (what LAM/MPI does;
// the context-id agreement depends on it). Native, commutative: recursive doubling.
base::Status allreduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                       const pack::TypePtr &type, const Reduction &op) {
  if (!c.spans_clients() && op.commutative && c.size > 1)
    return allreduce_recursive_doubling(c, sendbuf, recvbuf, count, type, op, kReduceTag);
  if (auto s = reduce(c, sendbuf, recvbuf, count, type, op, 0); !s.ok()) return s;
  return bcast(c, recvbuf, count, type, 0);
}

base::Status gather(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                    void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root) {
  return impi_gather(c, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

// IMPI (our design): Gather to rank 0, then Bcast from rank 0.
base::Status allgather(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                       void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype) {
  if (!c.spans_clients()) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size), rcount), displs(counts.size());
    for (std::size_t i = 0; i < displs.size(); ++i) displs[i] = static_cast<std::int64_t>(i) * rcount;
    return allgather_ring(c, sendbuf, scount, stype, recvbuf, counts, displs, rtype, kGatherTag);
  }
  if (auto s = gather(c, sendbuf, scount, stype, recvbuf, rcount, rtype, 0); !s.ok()) return s;
  return bcast(c, recvbuf, rcount * c.size, rtype, 0);
}

base::Status gatherv(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                     void *recvbuf, const std::vector<std::int64_t> &rcounts, const std::vector<std::int64_t> &displs,
                     const pack::TypePtr &rtype, int root) {
  return impi_gatherv(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root);
}

// Gatherv to rank 0, then Bcast from rank 0 of the blocks as one indexed type.
base::Status allgatherv(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                        void *recvbuf, const std::vector<std::int64_t> &rcounts,
                        const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype) {
  if (!c.spans_clients()) return allgather_ring(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, kGathervTag);
  if (auto s = gatherv(c, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, 0); !s.ok()) return s;
  auto all = pack::Datatype::indexed(rcounts, displs, rtype, false);
  if (!all) return {all.error(), all.message()};
  return bcast(c, recvbuf, 1, *all, 0);
}

base::Status scatter(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                     void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size), scount), displs(counts.size());
  for (std::size_t i = 0; i < displs.size(); ++i) displs[i] = static_cast<std::int64_t>(i) * scount;
  return impi_scatterv(c, sendbuf, counts, displs, stype, recvbuf, rcount, rtype, root, kScatterTag);
}

base::Status scatterv(const CommView &c, const void *sendbuf, const std::vector<std::int64_t> &scounts,
                      const std::vector<std::int64_t> &displs, const pack::TypePtr &stype, void *recvbuf,
                      std::int64_t rcount, const pack::TypePtr &rtype, int root) {
  return impi_scatterv(c, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root, kScattervTag);
}

base::Status reduce_scatter(const CommView &c, const void *sendbuf, void *recvbuf,
                            const std::vector<std::int64_t> &counts, const pack::TypePtr &type, const Reduction &op) {
  std::int64_t total = 0;
  std::vector<std::int64_t> displs;
  for (auto n : counts) {
    displs.push_back(total);
    total += n;
  }
  TypedBuffer all(type, total);
  if (auto s = reduce(c, sendbuf, all.get(), total, type, op, 0); !s.ok()) return s;
  return scatterv(c, all.get(), counts, displs, type, recvbuf, counts[static_cast<std::size_t>(c.rank)], type, 0);
}

}  // namespace impi::collectives
