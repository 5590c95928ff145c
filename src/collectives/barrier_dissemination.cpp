// barrier_dissemination.cpp - MPI_Barrier inside one client: the
// dissemination algorithm (Hensgen, Finkel, Manber 1988). In round i each
// rank sends to rank + 2^i and receives from rank - 2^i (mod p).
// Cost: ceil(log2 p) rounds of one 0-byte message each way per rank.
#include "collectives/native.hpp"

namespace impi::collectives {

Task barrier_dissemination(const CommView &c) {
  constexpr int kTag = 110;  // (the collective context is ours alone: any tag)
  for (int dist = 1; dist < c.size; dist <<= 1) {
    int to = (c.rank + dist) % c.size, from = (c.rank - dist + c.size) % c.size;
    if (auto s =
            co_await c.exchange(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), to, nullptr,
                                0, pack::Datatype::predefined(pack::dt::byte), from, kTag);
        !s.ok())
      co_return s;
  }
  co_return {};
}

}  // namespace impi::collectives
