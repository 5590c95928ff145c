// barrier_dissemination.cpp - MPI_Barrier inside one client: the
// dissemination algorithm (Hensgen, Finkel, Manber 1988). In round i each
// rank sends to rank + 2^i and receives from rank - 2^i (mod p).
// Cost: ceil(log2 p) rounds of one 0-byte message each way per rank.
#include "collectives/native.hpp"

namespace impi::collectives {

base::Status barrier_dissemination(const CommView &c) {
  const int kTag = c.tag_override >= 0 ? c.tag_override : 110;  // the collective context is ours alone
  for (int dist = 1; dist < c.size; dist <<= 1) {
    int to = (c.rank + dist) % c.size, from = (c.rank - dist + c.size) % c.size;
    // Receive posted first, then send: no rank waits on a send.
    core::Request storage{};
    auto r = c.p2p->irecv(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), from, kTag, c.context, &storage);
    if (auto s = c.send_empty(to, kTag); !s.ok()) return s;
    c.p2p->wait_until([&] { return c.p2p->completed(*r); });
  }
  return {};
}

}  // namespace impi::collectives
