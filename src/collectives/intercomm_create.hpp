// intercomm_create.hpp - MPI_Intercomm_create's agreement (IMPI 4.8): the
// new context id and the other group, through the two leaders over a peer
// communicator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/errc.hpp"
#include "collectives/comm_view.hpp"
#include "core/communicator.hpp"

namespace impi::collectives {

// One proc's card (core/dyn_card.hpp) in the gathers and broadcasts of
// groups of different jobs (cards are at most 480 bytes).
constexpr std::size_t kCardSlot = 512;

// Every member of `local` calls it. `peer_comm` (at the local leader
// only; null elsewhere) carries the leaders' messages, with the user's
// `tag` on its point-to-point context, to `remote_leader`. Returns the
// context id (rounds: context_id.hpp); `remote` gets the other group (its
// world indices; procs of other jobs registered). Blocking: after the
// collectives queued on `local`.
base::Result<int> intercomm_create(const core::Communicator &local, int local_leader,
                                   const core::Communicator *peer_comm, int remote_leader, int tag,
                                   std::vector<int> &remote);

// The groups' cards when either holds a proc of another job: every
// member's to the local leader, the leaders swap their groups' over `peer`
// (at the leader only; null elsewhere) with `tag`, the leader broadcasts
// the other group's, and every member registers them. `remote` comes sized
// to the other group; it gets their indices.
base::Status swap_group_cards(const CommView &local, int leader, const CommView *peer,
                              int remote_leader, int tag, std::vector<int> &remote);

}  // namespace impi::collectives
