// alltoall_pairwise.cpp - MPI_Alltoall/v/w on any communicator (IMPI 4.22/
// 4.23, tags 170/180, our design: direct pairwise exchange between every
// pair, no masters): in step k each rank sends to rank + k and receives
// from rank - k (mod p), so every pair meets exactly once and no rank ever
// waits on a send. Cost: p - 1 exchange latencies; each block crosses once.
#include "collectives/collectives.hpp"
#include "collectives/impi.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

Task alltoall_pairwise(const CommView &c, const void *sendbuf, const std::vector<Block> &send,
                       void *recvbuf, const std::vector<Block> &recv, int tag) {
  const int n = c.size, me = c.rank;
  auto sat = [&](int r) {
    return static_cast<const std::byte *>(sendbuf) + send[static_cast<std::size_t>(r)].byte_disp;
  };
  auto rat = [&](int r) {
    return static_cast<std::byte *>(recvbuf) + recv[static_cast<std::size_t>(r)].byte_disp;
  };
  {  // my own block
    const Block &s = send[static_cast<std::size_t>(me)], &r = recv[static_cast<std::size_t>(me)];
    pack::PackCursor out(s.type, s.count);
    std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
    out.pack(sat(me), packed);
    pack::PackCursor(r.type, r.count).unpack(rat(me), packed);
  }
  for (int k = 1; k < n; ++k) {
    int to = (me + k) % n, from = (me - k + n) % n;
    const Block &s = send[static_cast<std::size_t>(to)], &r = recv[static_cast<std::size_t>(from)];
    if (auto st = co_await c.exchange(sat(to), s.count, s.type, to, rat(from), r.count, r.type,
                                      from, tag);
        !st.ok())
      co_return st;
  }
  co_return {};
}

}  // namespace impi::collectives
