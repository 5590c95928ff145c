// origin.hpp - what the channels keep with an unexpected message in the
// matching engine (MatchEngine<Origin>): the channel that delivered it,
// which hands it to the receive that matches it later, and that channel's
// handle for the rest of the message.
#pragma once

#include <cstdint>

#include "core/matching.hpp"
#include "core/request.hpp"
#include "transport/impi/packet.hpp"

namespace impi::core {

class Channel;

struct Origin {
  Channel *via = nullptr;  // the channel that delivered the message
  // Shared memory, self and other jobs (core/shm, core/dyn): the sender's
  // local rank (for the sync ack); -1 for ourselves; -2 - i for dynamic
  // peer i (its acks go over its connection).
  int peer_local = -1;
  std::uint64_t sync_id = 0;    // nonzero: the sender waits for our match
  RequestPtr self_sync;         // a synchronous self-send waiting for its match
  std::uint64_t rndv_addr = 0;  // nonzero: the data is in the sender's memory, here
  std::uint64_t seq = 0;        // shared memory and self: the message's number on its ring
  // Another IMPI client (core/impi): `data` is the first packet's external32.
  bool ext32 = false;
  bool remote_sync = false;        // a DATASYNC: SYNCACK to remote_src on match
  std::uint64_t remote_srqid = 0;  // the sender's pk_srqid (SYNCACK, CANCEL)
  transport::wire::ProcId remote_src{};
};
using Match = MatchEngine<Origin>;
using Unexpected = Match::Message;

}  // namespace impi::core
