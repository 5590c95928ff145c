// bcast_binomial.cpp - broadcast along a binomial tree rooted at the root:
// in round j (from the top bit down) every rank holding the data sends it
// 2^j positions further. Cost: ceil(log2 p) message latencies, each rank
// receives once and sends at most log2 p times.
#include "collectives/native.hpp"

namespace impi::collectives {

Task bcast_binomial(const CommView &c, const std::vector<int> &ranks, std::size_t root_pos,
                    void *buf, std::int64_t count, const pack::TypePtr &type, int tag) {
  const std::size_t n = ranks.size();
  std::size_t me = 0;
  while (me < n && ranks[me] != c.rank) ++me;
  if (n <= 1 || me == n) co_return {};
  const std::size_t v = (me + n - root_pos) % n;
  auto rank_of = [&](std::size_t vv) { return ranks[(vv + root_pos) % n]; };
  std::size_t mask = 1;
  while (mask < n) {
    if (v & mask) {
      if (auto s = co_await c.irecv(buf, count, type, rank_of(v - mask), tag); !s.ok()) co_return s;
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n)
      if (auto s = co_await c.isend(buf, count, type, rank_of(v + mask), tag); !s.ok()) co_return s;
  co_return {};
}

}  // namespace impi::collectives
