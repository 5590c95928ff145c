// flow.hpp - IMPI flow control (IMPI 3.6) for one local proc.
//
// Per (source proc, destination proc) pair: the sender may have at most
// `hiwater` packets to a destination not yet acknowledged; the receiver
// sends a PROTOACK every `ackmark` packets it received from a source, and
// each PROTOACK lowers the sender's count by `ackmark`. Every packet counts
// except PROTOACK and FINI. The values in force are the job-wide minima of
// what the hosts advertised (1 <= ackmark <= hiwater).
//
// Remote procs are named by a dense index the caller chooses (e.g. the
// proc's index in the IMPI job). No I/O here: the caller sends the packets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/errc.hpp"
#include "transport/impi/packet.hpp"

namespace impi::transport::wire {

class FlowControl {
 public:
  FlowControl(std::uint32_t ackmark, std::uint32_t hiwater, std::size_t nprocs)
      : ackmark_(ackmark), hiwater_(hiwater), unacked_(nprocs, 0), unreported_(nprocs, 0) {}

  std::uint32_t ackmark() const { return ackmark_; }
  std::uint32_t hiwater() const { return hiwater_; }

  // Sender: may a packet of type `t` go to `dest` now?
  bool may_send(std::size_t dest, PacketType t) const {
    return !counts_for_flow_control(t) || unacked_[dest] < hiwater_;
  }
  // Sender: a packet of type `t` went to `dest`.
  void sent(std::size_t dest, PacketType t) {
    if (counts_for_flow_control(t)) ++unacked_[dest];
  }
  // Sender: a PROTOACK came from `dest`. An ACK for more than was sent is a
  // peer's error (the count stays sane).
  base::Status acked(std::size_t dest) {
    if (unacked_[dest] < ackmark_)
      return {base::Errc::protocol_error, "PROTOACK for packets that were never sent"};
    unacked_[dest] -= ackmark_;
    return {};
  }
  std::uint32_t unacked(std::size_t dest) const { return unacked_[dest]; }

  // Receiver: a packet of type `t` came from `src`; true when a PROTOACK is
  // due to `src` now.
  bool received(std::size_t src, PacketType t) {
    if (!counts_for_flow_control(t)) return false;
    if (++unreported_[src] < ackmark_) return false;
    unreported_[src] = 0;
    return true;
  }

 private:
  std::uint32_t ackmark_, hiwater_;
  std::vector<std::uint32_t> unacked_;     // per destination
  std::vector<std::uint32_t> unreported_;  // per source: received since the last PROTOACK
};

}  // namespace impi::transport::wire
