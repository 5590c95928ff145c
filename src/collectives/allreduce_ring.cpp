// allreduce_ring.cpp - MPI_Allreduce inside one client for long vectors and
// commutative operations: a ring reduce-scatter, then a ring allgather
// (Patarasuk and Yuan 2009). The vector is cut into p pieces; in each of
// the p-1 reduce-scatter steps every rank passes one piece to the right and
// combines the one from its left, after which rank r holds piece r+1
// reduced; p-1 allgather steps pass the reduced pieces around.
// Cost: 2(p-1) steps, each moving 1/p of the vector: every rank sends and
// receives 2(p-1)/p of it (recursive doubling: log2 p whole vectors) and
// combines (p-1)/p of it.
#include "collectives/native.hpp"

namespace impi::collectives {

Task allreduce_ring(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                    const pack::TypePtr &type, const Reduction &op, int tag) {
  const int p = c.size, me = c.rank;
  const bool in_place = sendbuf == recvbuf;
  auto lo = [&](int i) { return count * i / p; };  // piece i: instances [lo(i), lo(i+1))
  auto at = [&](int i) { return static_cast<std::byte *>(recvbuf) + lo(i) * type->extent(); };
  auto sat = [&](int i) {
    return static_cast<const std::byte *>(sendbuf) + lo(i) * type->extent();
  };
  auto len = [&](int i) { return lo(i + 1) - lo(i); };
  TypedBuffer tmp(type, in_place ? count / p + 1 : 0);
  const int right = (me + 1) % p, left = (me - 1 + p) % p;
  // Our own data is never copied to recvbuf: each piece arrives there from
  // the left and our piece of sendbuf is combined into it (the operation is
  // commutative, and each piece is combined on one rank only, so every rank
  // ends with the same bits); piece `me` is sent first, from sendbuf. In
  // place, the piece arrives in tmp and is combined into ours.
  for (int s = 0; s < p - 1; ++s) {
    int out = ((me - s) % p + p) % p, in = ((me - s - 1) % p + p) % p;
    const void *src = s == 0 && !in_place ? static_cast<const void *>(sat(out)) : at(out);
    void *dst = in_place ? tmp.get() : static_cast<void *>(at(in));
    if (auto st = co_await c.exchange(src, len(out), type, right, dst, len(in), type, left, tag);
        !st.ok())
      co_return st;
    if (in_place)
      op.combine_n(tmp.get(), at(in), len(in));
    else
      op.combine_n(sat(in), at(in), len(in));
  }
  for (int s = 0; s < p - 1; ++s) {
    int out = ((me + 1 - s) % p + p) % p, in = ((me - s) % p + p) % p;
    if (auto st =
            co_await c.exchange(at(out), len(out), type, right, at(in), len(in), type, left, tag);
        !st.ok())
      co_return st;
  }
  co_return {};
}

}  // namespace impi::collectives
