// ring_peer.hpp - one sender/receiver pair of the ring protocol
// (record.hpp): our ring in the peer's segment and its ring in ours, the
// sends and control records queued for it, and the long message arriving
// from it. Procs of this client on this node are ring peers of the shared
// memory channel; procs of other jobs on this node get one too (core/dyn).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/origin.hpp"
#include "core/request.hpp"
#include "transport/shm/ring.hpp"
#include "transport/shm/segment.hpp"

namespace impi::core {

struct Incoming {  // a long message from one sender, still arriving
  RequestPtr req;  // matched receive, or
  Match::MessageRef unexpected;
  bool to_request = false;
  bool active = false;
};

struct RingPeer {
  int world = -1;
  transport::shm::Segment seg;  // the peer's segment (we produce into our ring in it)
  transport::shm::Ring out;     // our ring in the peer's segment
  transport::shm::Ring in;      // the peer's ring in our segment
  std::deque<RequestPtr> sendq;
  // Control records owed to this peer, written ahead of sendq: sync acks,
  // our cancels of messages wholly in its ring, answers to its cancels.
  struct Control {
    std::uint32_t kind;  // ShmHeader::ack, cancel, cancel_yes, cancel_no
    std::uint64_t id;    // ack: the sync id; cancels and answers: the message's seq
  };
  std::deque<Control> control;
  std::uint64_t seq_out = 0;           // messages we started in `out`
  std::uint32_t send_run = 0;          // eager sends since a record came from the peer (up to 2)
  std::uint64_t seq_in = 0;            // messages started in `in` (the last one's number)
  std::vector<RequestPtr> cancelling;  // our sends to this peer awaiting a cancel's answer
  Incoming incoming;
  std::int64_t pid = 0;
  bool cma = false;  // we may read this peer's memory (process_vm_readv)
};

}  // namespace impi::core
