// reduce_binomial.cpp - reduction along a binomial tree (commutative
// operations): in round j a rank whose bit j is set sends its partial
// result 2^j positions down and stops; the others combine what they
// receive. Cost: ceil(log2 p) message latencies and combines at the root.
#include "collectives/native.hpp"

namespace impi::collectives {

Task reduce_binomial(const CommView &c, const std::vector<int> &ranks, std::size_t root_pos,
                     const void *sendbuf, void *result, std::int64_t count,
                     const pack::TypePtr &type, const Reduction &op, int tag) {
  const std::size_t n = ranks.size();
  std::size_t me = 0;
  while (me < n && ranks[me] != c.rank) ++me;
  if (me == n) co_return {};
  const std::size_t v = (me + n - root_pos) % n;
  auto rank_of = [&](std::size_t vv) { return ranks[(vv + root_pos) % n]; };
  // A leaf (v odd, or no child in range) sends its own buffer as it is; the
  // root accumulates straight into `result`; others into a scratch buffer.
  const bool leaf = (v & 1) || v + 1 >= n;
  if (leaf && v != 0)
    co_return co_await c.isend(sendbuf, count, type, rank_of(v - (v & (~v + 1))), tag);
  TypedBuffer scratch(type, v == 0 ? 1 : count), tmp(type, count);
  void *acc = v == 0 ? result : scratch.get();
  copy_typed(sendbuf, acc, type, count);
  for (std::size_t mask = 1; mask < n; mask <<= 1) {
    if (v & mask) co_return co_await c.isend(acc, count, type, rank_of(v - mask), tag);
    if (v + mask < n) {
      if (auto s = co_await c.irecv(tmp.get(), count, type, rank_of(v + mask), tag); !s.ok())
        co_return s;
      op.combine(tmp.get(), acc);
    }
  }
  co_return {};
}

Task reduce_fold_in_order(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                          const pack::TypePtr &type, const Reduction &op, int root, int tag) {
  if (c.rank != root) co_return co_await c.isend(sendbuf, count, type, root, tag);
  TypedBuffer acc(type, count), tmp(type, count);
  const int p = c.size;
  // acc = x(p-1); then acc = x(r) op acc for r = p-2 .. 0.
  if (p - 1 == root)
    copy_typed(sendbuf, acc.get(), type, count);
  else if (auto s = co_await c.irecv(acc.get(), count, type, p - 1, tag); !s.ok())
    co_return s;
  for (int r = p - 2; r >= 0; --r) {
    if (r == root) {
      op.combine(sendbuf, acc.get());
    } else {
      if (auto s = co_await c.irecv(tmp.get(), count, type, r, tag); !s.ok()) co_return s;
      op.combine(tmp.get(), acc.get());
    }
  }
  copy_typed(acc.get(), recvbuf, type, count);
  co_return {};
}

}  // namespace impi::collectives
