// allreduce_recursive_doubling.cpp - MPI_Allreduce inside one client for
// commutative operations: recursive doubling (Thakur, Rabenseifner, Gropp
// 2005). With p not a power of two, the first 2*(p - p') ranks pair up and
// the even one of each pair hands its value to the odd one and waits for
// the result; the remaining p' = 2^floor(log2 p) ranks exchange with the
// partner at distance 1, 2, 4, ... and combine.
// Cost: log2(p') exchange latencies (+2 when p is not a power of two), each
// carrying the whole vector.
#include "collectives/native.hpp"

namespace impi::collectives {

Task allreduce_recursive_doubling(const CommView &c, const void *sendbuf, void *recvbuf,
                                  std::int64_t count, const pack::TypePtr &type,
                                  const Reduction &op, int tag) {
  const int p = c.size, me = c.rank;
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  const int rem = p - pof2;
  TypedBuffer tmp(type, count);
  copy_typed(sendbuf, recvbuf, type, count);  // recvbuf is the accumulator
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {  // hand over, wait for the result
      if (auto s = co_await c.isend(recvbuf, count, type, me + 1, tag); !s.ok()) co_return s;
      co_return co_await c.irecv(recvbuf, count, type, me + 1, tag);
    }
    if (auto s = co_await c.irecv(tmp.get(), count, type, me - 1, tag); !s.ok()) co_return s;
    op.combine(tmp.get(), recvbuf);
    newrank = me / 2;
  } else {
    newrank = me - rem;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int partner_new = newrank ^ mask;
    int partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
    if (auto s = co_await c.exchange(recvbuf, count, type, partner, tmp.get(), count, type, partner,
                                     tag);
        !s.ok())
      co_return s;
    op.combine(tmp.get(), recvbuf);
  }
  if (me < 2 * rem)
    co_return co_await c.isend(recvbuf, count, type, me - 1, tag);  // (odd ones of the pairs)
  co_return {};
}

}  // namespace impi::collectives
