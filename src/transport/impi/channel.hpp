// channel.hpp - one IMPI host channel (IMPI 3.3-3.8): the TCP connection
// between this host agent and one other host, carrying the packets of every
// pair of procs (one here, one there), in a libevent loop.
//
// What it does for the agent:
//  - frames the incoming byte stream into packets (PacketReader), checks
//    that both procs of each packet are known (ours as destination, theirs
//    as source) and hands every packet but PROTOACK and FINI to `deliver`;
//  - flow control per proc pair (3.6): a packet to a remote proc waits in
//    its pair's queue while `hiwater` packets to that proc are unacked; a
//    PROTOACK goes back after every `ackmark` packets from a remote proc,
//    ahead of all data; reading never stops because output is queued, so
//    ACKs are processed promptly even when queues are full;
//  - fairness: queued pairs are served round robin, one packet at a time,
//    so one busy pair cannot starve the others sharing the channel;
//  - finalization (3.8): finish() queues FINI after everything already
//    queued; after it only ACKs go out; incoming packets are still read and
//    acknowledged until the peer's FINI; then the connection is closed and
//    `closed` called with success. A connection that ends before the peer's
//    FINI, or that carries a malformed packet, is closed and reported as an
//    error naming the peer host (it is never resynchronised).
//
// Procs are named by dense indices the agent chooses (see ProcIndex).
#pragma once

#include <event2/event.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "transport/impi/flow.hpp"
#include "transport/impi/packet.hpp"

namespace impi::transport::wire {

struct ChannelConfig {
  std::uint32_t maxdatalen = 0;
  std::uint32_t ackmark = 1, hiwater = 1;  // the job-wide minima
  std::string peer;                        // "host 1", for messages
  // A peer that takes none of our bytes for this long while we have some
  // to send has stopped reading (a healthy IMPI host always reads: flow
  // control bounds what it must buffer): the channel fails, naming it.
  // 0: wait for ever.
  int stall_s = 0;
  // The agent's router stops reading a proc's link while that proc's
  // packets queued in one channel exceed this many bytes (0: no limit).
  std::size_t queue_limit = 0;
};

class HostChannel {
 public:
  // A proc's dense index, or nullopt when the proc is unknown. `local`
  // covers this host's procs (0..nlocal-1), `remote` the peer host's.
  using Resolve = std::function<std::optional<std::size_t>(const ProcId &)>;
  // A packet for local proc `dest` (index) from remote proc `src` (index).
  // `data` is valid during the call only.
  using Deliver = std::function<void(std::size_t dest, std::size_t src, const Packet &,
                                     std::span<const std::byte> data)>;
  using Closed = std::function<void(const base::Status &)>;
  // Where a DATA packet's pk_len bytes belong (local proc `dest` from
  // remote proc `src`), asked once its header has come and its data not
  // yet: exactly p.len bytes that stay valid until the packet is
  // delivered, or an empty span. The channel then reads the data straight
  // there (no copy out of its read buffer) and delivers the packet with
  // `data` being that span.
  using Sink =
      std::function<std::span<std::byte>(std::size_t dest, std::size_t src, const Packet &)>;

  HostChannel(event_base *base, base::Fd fd, ChannelConfig cfg, std::size_t nlocal,
              std::size_t nremote, Resolve local, Resolve remote, Deliver deliver, Closed closed);
  ~HostChannel();
  HostChannel(const HostChannel &) = delete;
  HostChannel &operator=(const HostChannel &) = delete;

  // Queues a packet (DATA, DATASYNC, SYNCACK, CANCEL, CANCELYES, CANCELNO)
  // from local proc `src` to remote proc `dest`; `data` is its pk_len bytes.
  // Never blocks. An error if the channel is finishing or closed, or the
  // packet is not one a proc sends.
  base::Status send(std::size_t src, std::size_t dest, const Packet &p,
                    std::span<const std::byte> data);
  // The same, with the packet already encoded: `bytes` is its header (as
  // encode(p) writes it) and data. Saves a copy of the data.
  base::Status send_bytes(std::size_t src, std::size_t dest, const Packet &p,
                          std::vector<std::byte> bytes);
  // The same, with the data borrowed: `body` must stay valid and unchanged
  // until the hook set by set_written_hook has been called with `token`
  // (nonzero) and body.size() (from inside the channel, once the packet
  // is entirely written to the socket). No copy of the data at all.
  base::Status send_borrowed(std::size_t src, std::size_t dest, const Packet &p,
                             std::span<const std::byte> body, std::uint64_t token);
  void set_written_hook(std::function<void(std::uint64_t token, std::size_t bytes)> h) {
    written_ = std::move(h);
  }
  void set_sink(Sink s) { sink_ = std::move(s); }
  // A buffer for send_bytes, empty, from the packets already written (their
  // memory reused: a fresh 64 KiB buffer per packet costs page faults).
  std::vector<std::byte> take_buffer() { return spare_.take(); }
  // While corked, queued packets wait for uncork() (or the loop's next
  // event) instead of each going to the socket at once: a sender that
  // queues many packets in a row writes them in one call.
  void cork() { corked_ = true; }
  void uncork();
  // Sends FINI once everything queued has gone.
  void finish();
  // By default a packet counts as received (for PROTOACKs) when the channel
  // reads it. With deferred ACKs it counts when the agent calls consumed(),
  // e.g. once it has handed the packet to its proc, so that a proc that does
  // not read cannot make the agent buffer without bound.
  void defer_acks() { defer_acks_ = true; }
  // `p` is the packet as delivered (local proc `local` got it from `remote`).
  void consumed(std::size_t local, std::size_t remote, const Packet &p);
  bool is_closed() const { return closed_; }
  // Backpressure on the agent's memory: once the packets local proc `src`
  // has queued here (waiting for flow control or the socket) pass `limit`
  // bytes, over_limit(src) is true until they fall to half of it; then
  // `on_room(src)` is called. The router stops reading that proc's link
  // meanwhile.
  void set_backpressure(std::size_t limit, std::function<void(std::size_t src)> on_room) {
    limit_ = limit;
    on_room_ = std::move(on_room);
  }
  bool over_limit(std::size_t src) const { return src < over_.size() && over_[src]; }
  // Packets waiting (flow control or socket) and bytes not yet written.
  std::size_t queued_packets() const { return queued_; }
  // Bytes of packets queued or written only in part: what a sender still
  // holds here (a proc that runs its channels itself bounds it).
  std::size_t backlog() const;
  // Without the event loop (a proc running its own channels, polling):
  // reads what the socket has (when `readable`: a poll said so; a recv on
  // an empty socket takes its lock, which the sender's delivery then waits
  // for) and writes what it takes, as the loop's events would. Timers (the
  // stall check) still need the loop.
  void pump(bool readable = true);
  // The channel is run by pump() alone (a proc running its own channels):
  // - no read event in the loop: its epoll entry would be woken by every
  //   arrival, on the sender's core, for nothing;
  // - a PROTOACK due may wait to go out with our next packet (one write,
  //   not two: a ping-pong's reply), until a pump finds nothing to read or
  //   a second one falls due for the same pair (see ack_may_wait); only
  //   for packets of at most kAckRideMax data bytes.
  void pumped_only();
  static constexpr std::uint32_t kAckRideMax = 16 * 1024;
  int fd() const { return fd_.get(); }
  bool wants_write() const { return writing_; }
  // The peer's host index in the job (for the MPI_T flow-stall event; -1: unknown).
  void set_peer_host(int h) { peer_host_ = h; }

 private:
  struct Out {
    std::vector<std::byte> bytes;  // header + data (or the header alone, with `body`)
    PacketType type;
    std::span<const std::byte> body;  // data borrowed from the sender (send_borrowed)
    std::uint64_t token = 0;          // for the written hook (borrowed data)
    std::size_t size() const { return bytes.size() + body.size(); }
  };
  struct PairQueue {
    std::deque<Out> q;
    bool listed = false;  // in ready_ (round robin)
    bool held = false;    // its next packet waits for a PROTOACK (counted once in flow_stalls)
  };
  static void on_event(evutil_socket_t, short what, void *self);
  void on_readable();
  void on_writable();
  void handle(const Packet &p, std::span<const std::byte> data);
  bool read_buffered();  // handles the read buffer's whole packets; false if closed
  void try_landing();    // the front packet's data goes to the sink's place, if it has one
  base::Status queue(std::size_t src, std::size_t dest, const Packet &p, Out o);
  void fill_output();
  void update_write_interest();
  void fail(const base::Status &s);
  void maybe_close();
  static void on_stall_check(evutil_socket_t, short, void *self);
  void arm_stall_check(std::chrono::steady_clock::duration after);

  event_base *base_;
  base::Fd fd_;
  ChannelConfig cfg_;
  std::size_t nremote_;
  Resolve local_, remote_;
  Deliver deliver_;
  Closed closed_cb_;
  std::unique_ptr<event, void (*)(event *)> rev_{nullptr, event_free}, wev_{nullptr, event_free},
      stall_ev_{nullptr, event_free};
  std::chrono::steady_clock::time_point last_write_{};  // last progress while output waits
  PacketReader reader_;
  Sink sink_;
  struct Landing {  // a DATA packet whose data is read straight to the sink's place
    Packet header;
    std::span<std::byte> place;
    std::size_t filled = 0;
  };
  std::optional<Landing> landing_;
  bool landing_declined_ = false;           // the sink had no place for the partial packet
  std::vector<std::byte> landing_scratch_;  // the rest of a landing cut short by finish()
  std::vector<FlowControl> flow_;           // per local proc, indexed by remote proc
  std::map<std::pair<std::size_t, std::size_t>, PairQueue> pairs_;  // (local, remote) -> queue
  std::deque<std::pair<std::size_t, std::size_t>> ready_;  // pairs with packets, round robin
  std::deque<Out> acks_;                                   // PROTOACKs, ahead of everything
  void queue_ack(std::size_t local, std::size_t remote, const Packet &p);
  bool ack_may_wait(std::size_t local, std::size_t remote, const Packet &p);
  void flush_waiting_acks();
  bool ride_acks_ = false;  // pumped_only(): a PROTOACK may wait for company
  bool acks_wait_ = false;  // acks_ is waiting for a packet to ride with
  std::vector<std::pair<std::size_t, std::size_t>> waiting_pairs_;  // (local, remote) in acks_
  void push_out(std::vector<std::byte> bytes) {
    push_out(Out{std::move(bytes), PacketType::data, {}, 0});
  }
  void push_out(Out o);
  std::function<void(std::uint64_t, std::size_t)> written_;
  void consume_out(std::size_t n);  // n bytes of outq_ were written
  std::deque<Out> outq_;            // packets being written, whole
  std::size_t outq_bytes_ = 0;      // their bytes
  std::size_t out_off_ = 0;         // bytes of outq_.front() already written
  SpareBuffers spare_{32};          // written packets' buffers, for take_buffer
  std::size_t queued_ = 0;
  bool finishing_ = false, fini_sent_ = false, fini_received_ = false, closed_ = false;
  bool writing_ = false;
  bool corked_ = false;
  bool defer_acks_ = false;
  std::vector<std::size_t> bytes_from_;  // per local proc: queued packet bytes
  std::vector<bool> over_;               // per local proc: over limit_, not yet back to half
  std::size_t limit_ = 0;                // 0: no limit
  std::function<void(std::size_t)> on_room_;
  int peer_host_ = -1;
};

// Times a packet of this process had to wait for a PROTOACK before it
// could go (its pair at hiwater): the MPI_T variable impi_flow_stalls.
inline std::atomic<std::uint64_t> g_flow_stalls{0};

}  // namespace impi::transport::wire
