// shm_channel.hpp - the shared-memory channel: messages between the procs
// of one client on one node, and to ourselves.
//
// Every proc owns a segment holding one ring per local sender
// (transport/shm); a sender writes records (record.hpp) into its ring in
// the receiver's segment. A message of at most `eager` bytes is one
// record; a longer one a first record followed by chunk records, all from
// the same sender back to back (a sender finishes one long message to a
// peer before it starts the next); from the single-copy threshold on, an
// rts record names the sender's buffer, which the receiver reads
// (cma_reads.cpp) before it acks. Payloads are packed straight into the
// ring and unpacked straight into the receive buffer (resumable cursors).
// Control records travel the same rings: acks of synchronous and
// single-copy messages, and MPI_Cancel's question about a message already
// in the receiver's ring (named by its number there) and its answer.
//
// The ring protocol (drain, push_sends, start_message) also carries the
// rings and socket frames of procs of other jobs (core/dyn).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/copy.hpp"
#include "core/channel.hpp"
#include "core/shm/record.hpp"
#include "core/shm/ring_peer.hpp"
#include "transport/shm/segment.hpp"

namespace impi::core {

class P2P;

class ShmChannel final : public Channel {
 public:
  explicit ShmChannel(P2P &engine) : Channel(Kind::shm), e_(engine) {}

  // Creates our receive segment, its rings sized for `nlocal` procs;
  // returns its name for the contact card.
  base::Result<std::string> create_segment(const std::string &job_id, int local_rank, int nlocal);
  // Maps every local peer's segment (after the card exchange). `pids` and
  // `probes` (the address of cma_probe() in each peer) let us test whether
  // we may read the peer's memory directly (Linux cross-memory attach).
  base::Status attach(int me, const std::vector<int> &local_world_ranks,
                      const std::vector<std::string> &segment_names,
                      const std::vector<std::int64_t> &pids,
                      const std::vector<std::uint64_t> &probes);
  // Removes our segment's name once every peer has mapped it.
  void unlink_segment() { own_.unlink(); }
  std::uint64_t ring_bytes() const { return ring_bytes_; }

  // Whether world rank `w` is a proc of this client on this node (not us).
  bool reaches(int w) const {
    return w >= 0 && w < static_cast<int>(local_of_world_.size()) &&
           local_of_world_[static_cast<std::size_t>(w)] >= 0 &&
           local_of_world_[static_cast<std::size_t>(w)] != my_local_;
  }
  // The pid of local proc `w` when we may read and write its memory, else 0.
  std::int64_t cma_pid(int w) const {
    const RingPeer &p = peer_of(w);
    return p.cma ? p.pid : 0;
  }

  base::Result<RequestPtr> start_send(const SendArgs &a) override;
  // `collective`: a collective's message; those take the single-copy path
  // only from coll_cma_threshold bytes (their exchanges wait on each
  // message, where the copy through the ring measured faster up to 64 KiB).
  RequestPtr isend(const void *buf, std::int64_t count, pack::TypePtr type, int dest_world,
                   int src_rank, int tag, int context, bool sync, bool collective);
  // Fast path of a standard send: writes a small message straight into the
  // ring when nothing is queued ahead of it. Returns the message's number
  // on that ring (never 0: cancel_sent() names it), or 0: not sent.
  std::uint64_t send_now(const void *buf, std::int64_t count, const pack::TypePtr &type,
                         int dest_world, int src_rank, int tag, int context);
  // Cancels message `seq` that send_now() wrote to `dest_world`: returns
  // the request that completes with the receiver's answer.
  RequestPtr cancel_sent(int dest_world, std::uint64_t seq);
  bool progress() override;
  bool cancel_send(const RequestPtr &r) override;
  void bind(const RequestPtr &r, Match::MessageRef u) override;

  // Lock-free: whether a ring has a record or something waits to be sent
  // (a hint for the engine's waits: another thread may take the work first).
  bool work_hint() const {
    if (queued_.load(std::memory_order_relaxed) != 0 ||
        rndv_waiting_.load(std::memory_order_relaxed) != 0)
      return true;
    for (std::size_t i = 0; i < peers_.size(); ++i)
      if (static_cast<int>(i) != my_local_ &&
          peers_[i].in.ready_at(read_pos_[i].load(std::memory_order_relaxed)))
        return true;
    return false;
  }
  // Our segment's doorbell: a waiting proc sleeps on it, senders ring it.
  transport::shm::Segment &own() { return own_; }
  // Marks our segment as looked at by a dozing waiter (segment.hpp).
  void doze_mark() { own_.doze_mark(queued_.load(std::memory_order_relaxed) != 0); }
  // World rank w's segment (w a local peer, not us).
  const transport::shm::Segment &segment_of(int w) const { return peer_of(w).seg; }

  // Collective slots (segment.hpp) for MPI_COMM_WORLD's small Allreduce:
  // usable when every world rank is a local peer (one client on one node).
  bool world_slots(int world_size, bool multi_client) const;
  // World rank w's segment header (w a local peer, or us).
  transport::shm::SegmentHeader &header_of(int world);
  transport::shm::CollSlot &slot(int world, int parity) {
    return header_of(world).coll[parity & 1];
  }
  transport::shm::CollSlot &own_slot(int world, int k, int parity) {
    return header_of(world).own[k][parity & 1];
  }
  std::atomic<std::uint64_t> &own_released(int world, int k) {
    return header_of(world).own_released[k];
  }
  void ring_all_doorbells();  // wakes every local peer asleep on its doorbell
  std::uint64_t next_world_slot_op() { return ++world_slot_ops_; }

  // ---- the ring protocol, also for the rings of other jobs (core/dyn)
  bool drain(RingPeer &p);       // reads p's ring; true if records came
  bool push_sends(RingPeer &p);  // writes p's control records and sends while room lasts
  void queue_ack(RingPeer &p, std::uint64_t sync_id);  // message sync_id matched: tell its sender
  // A message starts arriving from `p` (a ring record, or a frame from
  // another job): matched to a posted receive or queued as unexpected.
  // `p.world` < 0: ourselves.
  void start_message(RingPeer &p, const ShmHeader &h, std::span<const std::byte> payload,
                     const RequestPtr &self_sync = nullptr);
  // start_message()'s two halves: the first `payload` of a message into
  // the posted receive `r` it matched (true: the message is complete); a
  // message no posted receive accepts, queued.
  bool fill_posted(Request &r, const ShmHeader &h, std::span<const std::byte> payload) {
    r.status.source = h.source;
    r.status.tag = h.tag;
    r.msg_len = h.msg_len;
    if (payload.empty()) {
    } else if (h.kind == ShmHeader::eager && r.cursor->type().is_contiguous()) {
      // A whole small message into a contiguous buffer: one copy, no cursor.
      std::size_t n = std::min<std::size_t>(payload.size(), static_cast<std::size_t>(r.total));
      base::copy_small(static_cast<std::byte *>(r.recv_buf) + r.cursor->type().lb(), payload.data(),
                       n);
    } else {
      r.cursor->unpack(r.recv_buf, payload);
    }
    r.moved = static_cast<std::int64_t>(payload.size());
    return h.kind == ShmHeader::eager || r.moved == r.msg_len;
  }
  void queue_unexpected(RingPeer &p, const ShmHeader &h, std::span<const std::byte> payload,
                        const RequestPtr &self_sync, int peer_local);
  bool queued(const RingPeer &p) const { return !p.sendq.empty() || !p.control.empty(); }
  // Counts sends and control records queued on rings (plain load and store, under the lock).
  void count_queued(int d) {
    queued_.store(queued_.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
  }

 private:
  using Header = ShmHeader;
  RingPeer &peer_of(int w) {
    return peers_[static_cast<std::size_t>(local_of_world_[static_cast<std::size_t>(w)])];
  }
  const RingPeer &peer_of(int w) const {
    return peers_[static_cast<std::size_t>(local_of_world_[static_cast<std::size_t>(w)])];
  }
  // Under the lock, after awaiting_ack_ changed: its size, for work_hint().
  void note_awaiting() {
    rndv_waiting_.store(static_cast<std::int64_t>(awaiting_ack_.size()), std::memory_order_relaxed);
  }
  void deliver_self(const RequestPtr &send);
  // Cancel: the sender asks with a `cancel` record after the message's
  // last record (same ring, so the receiver has the whole message by then);
  // the receiver removes it from its unexpected queue if it is there
  // (`cancel_yes`), else it was matched (`cancel_no`).
  bool cancel_ring(const RequestPtr &r);
  bool cancel_self(const RequestPtr &r);  // a self-send still unexpected: removed here
  void ask_cancel(RingPeer &p, const RequestPtr &r);
  void answer_cancel(RingPeer &p, std::uint64_t seq);
  void cancel_answered(RingPeer &p, std::uint64_t seq, bool cancelled);
  void queue_control(RingPeer &p, std::uint32_t kind, std::uint64_t id);
  void read_ack(const RingPeer &p, std::uint64_t sync_id);  // an ack record came from p
  void matched(int peer_local, std::uint64_t sync_id, const RequestPtr &self_sync);
  void add_bytes(RingPeer &p, std::span<const std::byte> payload);

  // ---- single copy (cma_reads.cpp)
  // Reads a rendezvous message of `len` bytes at `addr` in `peer`'s memory into `r`.
  // Large contiguous messages are split: we offer the second half to the
  // sender (which writes it into our buffer with process_vm_writev while
  // we read the first half), and take it back if the sender has not
  // started on it by the time our half is done, so a receive never waits
  // for a sender that is not in an MPI call. `id` is the sender's id of
  // the message (its RTS).
  void read_remote(Request &r, int peer_local, std::uint64_t addr, std::int64_t len,
                   std::uint64_t id);
  // The size from which read_remote() offers the sender half of a copy
  // (0: never) for a message of `r`'s context from peer `p`.
  std::int64_t split_threshold_for(const Request &r, const RingPeer &p, std::int64_t len) const;
  // Single-copy messages that matched while draining one peer's ring, read
  // together in one process_vm_readv (each is a syscall of about 0.5 us
  // here) when drain() is done with the ring: whole messages into
  // contiguous buffers below the split threshold.
  struct BatchedRead {
    RequestPtr r;
    std::uint64_t addr;
    std::uint64_t sync_id;
  };
  static constexpr std::size_t kReadBatch = 32;
  static constexpr std::int64_t kBatchBytes =
      512 * 1024;  // a batch is read once it holds this many
  bool batch_read(const RequestPtr &r, int peer_local, std::uint64_t addr, std::int64_t len,
                  std::uint64_t id);
  void flush_reads();
  // Single-copy messages that a receive matched as it was posted (bind()),
  // read in the next progress pass rather than inside MPI_Irecv: a proc
  // that posts receives for messages already waiting then goes on to post
  // its own sends, and both procs copy at once. (Read at once, an exchange
  // of windows fell into turns, one proc copying while the other waited:
  // bibw 256 KiB at 0.7x of Open MPI's.)
  struct DeferredRead {
    RequestPtr r;
    int peer_local;
    std::uint64_t addr;
    std::int64_t len;
    std::uint64_t sync_id;
  };
  std::vector<DeferredRead> deferred_reads_;
  bool run_deferred_reads();
  // Sender side: takes and carries out offers for our messages awaiting acks.
  bool serve_split_offers();
  using Split = transport::shm::RingCounters::Split;

  P2P &e_;
  transport::shm::Segment own_;
  std::vector<RingPeer> peers_;      // by local rank (ours unused)
  std::vector<int> local_of_world_;  // world rank -> local rank or -1
  int my_local_ = 0;
  std::uint64_t ring_bytes_ = std::uint64_t{1} << 20;  // of our rings (create_segment)
  std::uint64_t eager_ = 0, chunk_ = 0;
  std::int64_t cma_threshold_ = 0;
  std::uint64_t prefetch_lines_ = 0;  // Ring::prefetch_ahead on a run of sends to one peer
  std::int64_t coll_cma_threshold_ = 0;
  std::int64_t split_threshold_ = 0;    // 0: never split
  std::int64_t split_two_way_ = 0;      // the threshold while messages also go the other way
  std::int64_t split_two_way_max_ = 0;  // and the largest message split then (0: no limit)
  int exchange_ring_ = 2;               // IMPI_SHM_EXCHANGE_RING: 0 never, 1 always, 2 automatic
  // Whether a large message to `dest_world` goes through the ring: we
  // have a large receive from that proc posted in `context`.
  bool exchange_via_ring(int context, int dest_world);
  std::int64_t coll_split_threshold_ = 0;    // collectives' messages (0: never split)
  std::size_t read_batch_max_ = kReadBatch;  // IMPI_SHM_CMA_BATCH (1: none)
  std::int64_t batch_bytes_ = 0;
  std::vector<BatchedRead> read_batch_;
  int batch_peer_ = -1;                   // the peer drain() is reading (its local rank), else -1
  std::vector<RequestPtr> awaiting_ack_;  // synchronous and single-copy sends (few at a time)
  std::atomic<std::int64_t> queued_{0};   // sends, control records and deferred reads
  std::atomic<std::int64_t> rndv_waiting_{
      0};  // our single-copy sends not yet acked (may get offers)
  std::unique_ptr<std::atomic<std::uint64_t>[]>
      read_pos_;                              // each ring's read position, for work_hint()
  std::uint64_t world_slot_ops_ = 0;          // MPI_COMM_WORLD Allreduces through the slots
  mutable std::atomic<int> world_slots_{-1};  // world_slots(), once known (any thread)
};

}  // namespace impi::core
