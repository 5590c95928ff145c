// allgather_ring.cpp - MPI_Allgather(v) inside one client: a ring. In step
// k every rank sends the block it received in step k-1 (its own first) to
// rank + 1 and receives a new one from rank - 1.
// Cost: p - 1 exchange latencies, each carrying one block (bandwidth
// optimal: every rank sends and receives (p-1)/p of the result once).
#include "collectives/native.hpp"

namespace impi::collectives {

Task allgather_ring(const CommView &c, const void *sendbuf, std::int64_t scount,
                    const pack::TypePtr &stype, void *recvbuf,
                    const std::vector<std::int64_t> &rcounts,
                    const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype, int tag) {
  const int p = c.size, me = c.rank;
  auto block = [&](int r) {
    return static_cast<std::byte *>(recvbuf) +
           displs[static_cast<std::size_t>(r)] * rtype->extent();
  };
  if (sendbuf != block(me)) {  // my own block into place (not in place already)
    pack::PackCursor out(stype, scount);
    std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
    out.pack(sendbuf, packed);
    pack::PackCursor(rtype, rcounts[static_cast<std::size_t>(me)]).unpack(block(me), packed);
  }
  const int right = (me + 1) % p, left = (me - 1 + p) % p;
  for (int k = 0; k < p - 1; ++k) {
    int out = (me - k + p) % p, in = (me - k - 1 + p) % p;
    if (auto s =
            co_await c.exchange(block(out), rcounts[static_cast<std::size_t>(out)], rtype, right,
                                block(in), rcounts[static_cast<std::size_t>(in)], rtype, left, tag);
        !s.ok())
      co_return s;
  }
  co_return {};
}

}  // namespace impi::collectives
