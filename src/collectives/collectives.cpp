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
// the context-id agreement depends on it). Native: the same for now.
base::Status allreduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                       const pack::TypePtr &type, const Reduction &op) {
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
  if (auto s = gather(c, sendbuf, scount, stype, recvbuf, rcount, rtype, 0); !s.ok()) return s;
  return bcast(c, recvbuf, rcount * c.size, rtype, 0);
}

}  // namespace impi::collectives
