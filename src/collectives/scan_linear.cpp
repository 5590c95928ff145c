// scan_linear.cpp - MPI_Scan and MPI_Exscan (IMPI 4.18, tag 200, our
// design): a pipeline in rank order. Rank r receives x0 op ... op x(r-1)
// from rank r - 1, combines its own value on the right, and passes the
// result to rank r + 1, so only neighbours talk (globally only where they
// sit on different clients), and the order suits non-commutative operations.
// Cost: p - 1 message latencies along the chain.
#include "collectives/collectives.hpp"
#include "collectives/impi.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

Task scan_pipeline(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                   const pack::TypePtr &type, const Reduction &op, bool exclusive) {
  TypedBuffer mine(type, count), prefix(type, count);
  copy_typed(sendbuf, mine.get(), type, count);  // (sendbuf may be recvbuf)
  if (c.rank > 0) {
    if (auto s = co_await c.irecv(prefix.get(), count, type, c.rank - 1, kScanTag); !s.ok())
      co_return s;
    if (exclusive) copy_typed(prefix.get(), recvbuf, type, count);  // x0 op .. op x(r-1)
    op.combine(prefix.get(), mine.get());                           // mine = prefix op mine
  }
  if (!exclusive) copy_typed(mine.get(), recvbuf, type, count);
  if (c.rank + 1 < c.size)
    co_return co_await c.isend(mine.get(), count, type, c.rank + 1, kScanTag);
  co_return {};
}

}  // namespace impi::collectives
