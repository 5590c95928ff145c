// dyn_channel.hpp - the channel to procs of other jobs (dynamic
// processes: spawned children and parents, procs met through a port).
//
// Each proc that takes part listens on an abstract Unix socket (procs on
// the same node) and, unless IMPI_DYN_ADDRESS is empty, on TCP. A proc
// sends to a peer over the connection it opened itself (the first frame
// says who it is), so each direction has its own connection and messages
// from one sender arrive in order (MPI's non-overtaking rule). A message is
// one frame: its head (dyn_card.hpp) and the packed bytes, queued whole
// and written as the socket takes it; the receiver matches it like a
// shared-memory eager message. Synchronous sends complete on an ack frame.
// Procs on the same node switch to a ring in shared memory once both
// sides mapped it (the shared-memory channel's ring protocol carries it).
// Connections for MPI_Comm_accept name a port number and are handed over
// whole to the accepting root (api/dynamic.cpp runs the exchange on them).
//
// Procs of other jobs get indices from P2P::kDynBase up, in the same space
// as world ranks. Everything arriving here is untrusted: a frame with a
// bad magic, kind or length ends that connection (logged), never the
// process.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/fd.hpp"
#include "core/channel.hpp"
#include "core/dyn_card.hpp"
#include "core/impi/state.hpp"
#include "core/shm/ring_peer.hpp"

namespace impi::core {

class P2P;

class DynChannel final : public Channel {
 public:
  explicit DynChannel(P2P &engine) : Channel(Kind::dyn), e_(engine) {}
  ~DynChannel() override;

  // Who we are, for our card (set in MPI_Init).
  void set_identity(std::string job, int world_rank, int world_size, std::string host) {
    job_ = std::move(job);
    identity_rank_ = world_rank;
    world_size_ = world_size;
    host_ = std::move(host);
  }
  // Starts listening for connections (idempotent); returns our card.
  base::Result<DynCard> listen();
  // Whether we listen (lock-free: read on every wait).
  bool on() const { return on_.load(std::memory_order_acquire); }
  // The index of the proc `card` names: a world rank for a proc of our own
  // job, else a dynamic index (the same one each time for the same proc);
  // -1 for a card that names a rank our job does not have.
  int register_card(const DynCard &card);
  // A name of proc `w` that every proc computes alike (ordering of merged groups).
  std::string proc_key(int w);
  // Ports (MPI_Open_port): connections that name port `n` wait for accept_port.
  std::uint64_t open_port();
  bool close_port(std::uint64_t n);
  bool port_open(std::uint64_t n);
  // Waits (making progress) for a connection to port `n`; the socket returned blocks.
  base::Result<base::Fd> accept_port(std::uint64_t n);
  // Waits until what is queued for these procs has left this process
  // (MPI_Comm_disconnect), at most dyn_timeout_s; false if some of it could
  // not leave. Progresses meanwhile (the peers may be waiting for room that
  // our progress makes).
  bool drain_to(const std::vector<int> &procs);
  // Waiting: counts this thread as asleep (d = +1) or awake (-1) in every
  // ring of another job that we read, so their senders wake us.
  void sleeping(int d) override;

  base::Result<RequestPtr> start_send(const SendArgs &a) override;
  bool progress() override;
  bool cancel_send(const RequestPtr &) override { return false; }  // (no cancel to other jobs)
  void bind(const RequestPtr &r, Match::MessageRef u) override;
  void pollfds(std::vector<pollfd> &out) const override;
  // MPI_Finalize and exit: sends what is queued (bounded wait), then closes
  // every socket.
  void close() override;

  // For the ring protocol: an ack is owed to dynamic peer `w` (a message
  // of its was matched), or one came for our synchronous send `id`.
  void ack(int w, std::uint64_t id);
  void acked(std::uint64_t id);
  // Receive `r` matched unexpected message `u`, the start of a long message
  // still arriving through one of the rings we read: the rest goes to `r`.
  void rebind_incoming(const Match::MessageRef &u, const RequestPtr &r);

 private:
  struct Peer {
    DynCard card;
    base::Fd out;  // the connection we opened: we send on it only
    LinkOut outq;
    bool broken = false;
    bool outq_data = false;  // outq holds messages or acks (a broken socket then loses something)
    // Same node: a ring in a segment we made for this peer (named in our
    // hello). Used once the peer said it mapped it (shm_ok) and we told it
    // that everything after our switch frame comes through the ring.
    std::unique_ptr<RingPeer> ring;
    bool ring_on = false;
  };
  struct In {  // a connection a peer opened to us
    base::Fd fd;
    std::vector<std::byte> buf;      // bytes read, not yet a whole frame
    int peer = -1;                   // dynamic index, once its hello came
    std::unique_ptr<RingPeer> ring;  // the peer's ring for us (same node), read after its switch
    bool ring_on = false;
  };
  struct Port {
    std::deque<base::Fd> waiting;  // connections that named this port
  };
  Peer *peer(int w);
  bool connect(int w, Peer &p);  // opens p.out (with our hello) if needed
  void queue(Peer &p, std::uint8_t kind, int source, int tag, int context, std::uint64_t len,
             std::uint64_t sync_id, const std::function<void(std::byte *)> &fill);
  bool read(In &in);  // false: the connection ended (or handed to a port)
  bool frames(In &in);
  bool flush(Peer &p);
  int register_locked(const DynCard &card);
  std::string proc_key_locked(int w);
  void arrival(int peer, const DynFrame &f, std::span<const std::byte> payload);
  void wake(Peer &p);  // the receiver sleeps: a wake frame on the socket
  void make_ring(int w, Peer &p);

  P2P &e_;
  std::uint64_t next_ring_ = 1;
  std::vector<std::unique_ptr<Peer>> peers_;
  std::unordered_map<std::string, int> index_;  // card key -> index
  std::vector<std::unique_ptr<In>> in_;
  std::unordered_map<std::uint64_t, Port> ports_;
  std::uint64_t next_port_ = 1;
  std::unordered_map<std::uint64_t, RequestPtr> awaiting_;  // synchronous sends by id
  base::Fd unix_, tcp_;                                     // listeners
  base::Fd poll_;  // epoll: listeners and incoming connections (sleeping waits)
  std::atomic<bool> on_{false};
  std::optional<DynCard> my_card_;
  std::string job_, host_;
  int identity_rank_ = 0, world_size_ = 1;
  std::unique_ptr<RingPeer> proxy_;  // stands for the sender of a socket arrival
};

}  // namespace impi::core
