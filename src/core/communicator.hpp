// communicator.hpp - the core's view of a communicator: its group (world
// ranks), each rank's IMPI client, its context ids (IMPI 4.3: point-to-point
// `context_id`, collectives `context_id + 1`; MPI_COMM_WORLD 0), and for an
// intercommunicator the remote group.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace impi::core {

class Channel;

// Contexts are agreed odd + 1 (collectives/context_id.cpp), so a
// communicator's point-to-point context is even and its collective context
// (context_id + 1) odd; MPI_COMM_SELF's (2, 3) too.
inline bool is_collective_context(int context) {
  return (context & 1) != 0;
}

struct Communicator {
  int rank = 0;
  int size = 1;
  int context_id = 0;
  std::vector<int> world;   // world rank of each rank of the (local) group
  std::vector<int> client;  // IMPI client of each of those ranks
  bool inter = false;
  std::vector<int> remote_world, remote_client;  // intercommunicators: the remote group
  // The routing table: the channel (channel.hpp) that carries messages to
  // each rank of the group and of the remote group, set when the
  // communicator is made (set_routes); every send takes its channel here.
  std::vector<Channel *> channels, remote_channels;
  std::uintptr_t errhandler = 0;  // an MPI_Errhandler handle value, owned by src/api
  // The MPI_Session (handle value) it derives from, through
  // MPI_Comm_create_from_group and the constructors after it (0: none).
  std::uintptr_t session = 0;
  std::string name;
  // Spans procs of more than one IMPI client: MPI_Pack uses external32
  // (IMPI 4.1) and collectives the spec's global algorithms.
  bool spans_clients = false;
  // Every member (and remote member) shares this host's memory: the
  // native fast paths apply. An IMPI client may span several hosts.
  bool one_host = true;
  // The virtual topology (MPI_Cart_create...), shared by duplicates; null: none.
  std::shared_ptr<const Topology> topology;
  // Blocking small collectives in one client: a pair of shared-memory
  // slots of the communicator's own (collectives/fast_native.cpp: comm
  // slots), agreed on the `calls`-th eligible call and released with the
  // communicator. A copy (a new communicator made from this one) starts
  // without one.
  struct SlotPair {
    std::shared_ptr<void> held;
    std::uint32_t calls = 0;
    bool tried = false;
    SlotPair() = default;
    SlotPair(const SlotPair &) {}
    SlotPair &operator=(const SlotPair &) {
      held.reset();
      calls = 0;
      tried = false;
      return *this;
    }
  };
  mutable SlotPair slot_pair;

  // Point-to-point peers: the remote group of an intercommunicator.
  int peer_size() const { return inter ? static_cast<int>(remote_world.size()) : size; }
  int world_of_peer(int r) const {
    return inter ? remote_world[static_cast<std::size_t>(r)] : world[static_cast<std::size_t>(r)];
  }
  // The channel to point-to-point peer `r` (null: no channel reaches it).
  Channel *channel_of_peer(int r) const {
    return inter ? remote_channels[static_cast<std::size_t>(r)]
                 : channels[static_cast<std::size_t>(r)];
  }
  // Fills the routing table from `route(world index)` (P2P::route).
  template <typename Route>
  void set_routes(Route route) {
    channels.clear();
    remote_channels.clear();
    for (int w : world) channels.push_back(route(w));
    for (int w : remote_world) remote_channels.push_back(route(w));
  }
  // Sets spans_clients from the client lists.
  void note_clients() {
    spans_clients = false;
    int first = client.empty() ? 0 : client[0];
    for (int c : client) spans_clients |= c != first;
    for (int c : remote_client) spans_clients |= c != first;
  }
  // Sets one_host from `same_host(world rank)`.
  template <typename SameHost>
  void note_hosts(SameHost same_host) {
    one_host = true;
    for (int w : world) one_host = one_host && same_host(w);
    for (int w : remote_world) one_host = one_host && same_host(w);
  }
};

// Context ids in use are never reused: every new communicator takes the
// next two above the job-wide maximum (IMPI 4.3). Ours are ints on the
// shared-memory wire, so the space ends below IMPI_MAX_CID.
constexpr std::uint64_t kMaxContextId = 0x7ffffff0;

}  // namespace impi::core
