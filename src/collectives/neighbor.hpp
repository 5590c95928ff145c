// neighbor.hpp - the neighbourhood collectives (MPI-3.1 7.6): every rank
// exchanges blocks with the neighbours its communicator's topology names.
#pragma once

#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"
#include "core/topology.hpp"

namespace impi::collectives {

// One message of a neighbourhood exchange: the block, the peer (a rank of
// the communicator, or core::kNoNeighbour: nothing moves) and its tag.
struct Edge {
  int peer = core::kNoNeighbour;
  int tag = 0;
  Block block;
};

// The tags that keep a rank's messages to one neighbour apart when that
// neighbour appears more than once in its lists (MPI-3.1 7.6: on a
// periodic Cartesian dimension of extent 1 or 2 the -1 and +1 neighbours
// are the same rank, and the block sent towards +1 must land in the
// receiver's block from -1). Other topologies match repeated edges in
// order (non-overtaking), on one tag.
int neighbour_send_tag(const core::Topology &t, std::size_t i);
int neighbour_recv_tag(const core::Topology &t, std::size_t i);

// Posts every receive, then every send, and waits for all of them.
Task neighbor_exchange(CommView c, const void *sendbuf, std::vector<Edge> send, void *recvbuf,
                       std::vector<Edge> recv, std::vector<std::byte> keep);

}  // namespace impi::collectives
