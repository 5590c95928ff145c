// neighbor.cpp - neighbourhood collectives by direct exchange: each rank
// posts a receive per in-neighbour and a send per out-neighbour at once, so
// no ordering between neighbours can deadlock. Cost: one message latency
// plus the largest block's transfer per rank; the same on any transport,
// inside a client or across clients.
#include "collectives/neighbor.hpp"

#include <memory>

namespace impi::collectives {

namespace {
// On the collective context, apart from the IMPI tags (110-250).
constexpr int kNeighbourTag = 1000;
}  // namespace

// Cartesian: entry 2d is the -1 neighbour along d, 2d + 1 the +1 one. A
// block sent towards -1 carries tag 2d, towards +1 tag 2d + 1; so a rank
// receives from its -1 neighbour what that one sent towards +1.
int neighbour_send_tag(const core::Topology &t, std::size_t i) {
  return t.kind == core::Topology::Kind::cart ? kNeighbourTag + static_cast<int>(i) : kNeighbourTag;
}
int neighbour_recv_tag(const core::Topology &t, std::size_t i) {
  return t.kind == core::Topology::Kind::cart ? kNeighbourTag + static_cast<int>(i ^ 1)
                                              : kNeighbourTag;
}

Task neighbor_exchange(CommView c, const void *sendbuf, std::vector<Edge> send, void *recvbuf,
                       std::vector<Edge> recv, std::vector<std::byte> keep) {
  (void)keep;  // (storage the blocks point into, alive as long as the operation)
  std::vector<std::unique_ptr<Await>> ops;
  for (const Edge &e : recv) {
    if (e.peer == core::kNoNeighbour) continue;
    ops.push_back(
        std::make_unique<Await>(c.irecv(static_cast<std::byte *>(recvbuf) + e.block.byte_disp,
                                        e.block.count, e.block.type, e.peer, e.tag)));
    ops.back()->start();
  }
  for (const Edge &e : send) {
    if (e.peer == core::kNoNeighbour) continue;
    ops.push_back(
        std::make_unique<Await>(c.isend(static_cast<const std::byte *>(sendbuf) + e.block.byte_disp,
                                        e.block.count, e.block.type, e.peer, e.tag)));
    ops.back()->start();
  }
  base::Status first;
  for (auto &a : ops)
    if (auto s = co_await AwaitRef{*a}; !s.ok() && first.ok()) first = std::move(s);
  co_return first;
}

}  // namespace impi::collectives
