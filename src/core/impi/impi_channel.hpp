// impi_channel.hpp - the IMPI message protocols between clients (spec
// 3.7) as the engine's channel to every proc of another client.
//
// Sender: a message of at most maxdatalen external32 bytes is one DATA
// packet (DATASYNC for a synchronous send, complete on the SYNCACK); a
// longer one sends its first maxdatalen bytes as DATASYNC and, once the
// SYNCACK brings the receiver's request id (drqid), the rest as DATA
// packets carrying it. Receiver: a first packet (drqid 0) is matched like
// any arrival; a DATASYNC is answered when it matches; DATA with a drqid
// continues a matched long message. CANCEL is answered from the unexpected
// queue, newest first.
//
// The packets go over the proc's link to its host agent, which multiplexes
// them onto the host channels (flow control is the agent's); or, on a host
// whose only proc this is, over the host channels themselves, which this
// proc then runs (direct.cpp, docs/impi-data-path.md).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/fd.hpp"
#include "core/channel.hpp"
#include "core/impi/state.hpp"
#include "transport/impi/packet.hpp"

namespace impi::core {

class P2P;

class ImpiChannel final : public Channel {
 public:
  explicit ImpiChannel(P2P &engine) : Channel(Kind::impi), e_(engine) {}
  ~ImpiChannel() override;

  // The link to this host's agent, the job's maxdatalen, and every proc's
  // IMPI id by world rank.
  void attach_agent(base::Fd link, std::uint32_t maxdatalen,
                    std::vector<transport::wire::ProcId> ids);
  // Procs whose user data travels in our byte order, not external32
  // (IMPI_NATIVE_ORDER_CLIENTS: peers that do so, as LAM/MPI 7.1.4).
  void set_native_order(std::vector<transport::wire::ProcId> procs);
  // Procs whose user data travels in external32 only: those of clients
  // that did not advertise impi's wide representation at startup (any
  // peer that is not impi). With every other proc it travels impi-wide
  // (docs/data-representation.md).
  void set_external32_only(std::vector<transport::wire::ProcId> procs);
  // The form of typed data to and from world rank `w` (a proc it knows).
  pack::Rep wire_rep(int w) const override;
  // Direct channels: this host's only proc runs the host channels its
  // agent handed over, in its progress passes. Call after attach_agent.
  base::Status attach_direct(DirectLayout d);
  bool attached() const { return static_cast<bool>(agent_); }
  bool direct() const { return static_cast<bool>(direct_); }
  // Whether world index `w` is a proc of the job this channel knows.
  bool knows(int w) const { return agent_ && w >= 0 && w < static_cast<int>(ids_.size()); }
  // Bytes this proc holds for other clients: the link's, and (direct) the channels'.
  std::size_t backlog() const;
  bool broken() const { return link_broken_; }

  base::Result<RequestPtr> start_send(const SendArgs &a) override;
  bool progress() override;
  bool cancel_send(const RequestPtr &r) override;
  void bind(const RequestPtr &r, Match::MessageRef u) override;
  bool external32() const override { return true; }
  void pollfds(std::vector<pollfd> &out) const override;
  // Hands every queued packet to the agent (waits for the link to take
  // them), then closes the link. With direct channels: FINI on every
  // channel first (IMPI 3.8), waiting for the peers' FINI.
  void close() override;

 private:
  // Whether `p`'s user data travels in our byte order (set_native_order).
  bool native_order(const transport::wire::ProcId &p) const;
  // The form of `p`'s user data (set_external32_only).
  pack::Rep rep_of(const transport::wire::ProcId &p) const;
  bool poll_agent();  // reads what the agent sent (non-blocking); true if anything came
  void arrival(const transport::wire::Packet &p, std::span<const std::byte> data);
  // The receiver matched our message (and, for a long one, names its request).
  void syncack(const transport::wire::Packet &p);
  // The answer (CANCELYES/CANCELNO) to a CANCEL of ours.
  void cancel_answer(const transport::wire::Packet &p);
  // The first packet of a message meets its receive `r`: unpacks it,
  // answers a DATASYNC (SYNCACK; with our drqid for a long message).
  void start_recv(const RequestPtr &r, const transport::wire::ProcId &src, std::uint64_t srqid,
                  bool sync, std::int64_t msglen, std::span<const std::byte> first);
  // Unpacks the next external32 bytes of a message into rr.req; completes it at the end.
  void recv_bytes(RemoteRecv &rr, std::span<const std::byte> data);
  // The matched long receive that DATA packet `p`, of `len` bytes,
  // continues (its drqid, sender, srqid, and room in the message); else null.
  RemoteRecv *continuation(const transport::wire::Packet &p, std::size_t len);
  // Where DATA packet `p` of a matched long message goes in its receive
  // buffer, when it can be read straight there (HostChannel::Sink); else empty.
  std::span<std::byte> landing_place(const transport::wire::Packet &p);
  void send_done(RemoteSend &s);  // completes s.req when nothing is outstanding
  void send_control(transport::wire::PacketType type, const transport::wire::ProcId &to,
                    std::uint64_t srqid, std::uint64_t drqid = 0);
  // Packs more DATA packets of long messages whose SYNCACK came; true if any.
  bool push_streams();
  bool flush_link();  // writes what the socket takes now (non-blocking); true if bytes went

  // Direct channels (direct.cpp).
  struct Direct;
  // Starts the thread that watches x's channels for a peer host's death.
  static base::Status start_watcher(Direct &x, int me);
  bool direct_poll();   // reads and writes the channels; true if packets came
  bool direct_flush();  // hands link_out_'s packets to their channels
  // Queues DATA packet `p` of long send `s` with its data lent from the
  // user's buffer (no copy); s.inflight counts it until written.
  bool direct_lend(RemoteSend &s, const transport::wire::Packet &p,
                   std::span<const std::byte> data);
  void direct_written();  // completes the sends whose lent data has all gone
  // A one-packet send of at least kLendShortMin bytes, lent like a long one.
  bool lend_short(const RequestPtr &r, const transport::wire::Packet &p, const SendArgs &a);
  static constexpr std::uint32_t kLendShortMin = 16384;  // (below: the copy costs less)
  bool direct_in_channel() const;
  void direct_cork(bool on);  // HostChannel::cork/uncork on every channel
  void close_direct();        // FINI on every channel, then waits for theirs
  void direct_pollfds(std::vector<pollfd> &out) const;
  static void channel_pollfds(const Direct &x, bool siblings, std::vector<pollfd> &out);

  P2P &e_;
  base::Fd agent_;  // the local link to the host agent
  std::unique_ptr<transport::wire::PacketReader> agent_reader_;
  std::uint32_t maxdatalen_ = 0;
  std::vector<transport::wire::ProcId> ids_;  // by world rank
  std::vector<transport::wire::ProcId> native_order_;
  std::vector<transport::wire::ProcId> external32_only_;
  std::shared_ptr<Direct> direct_;
  std::unordered_map<std::uint64_t, RemoteSend> sends_;  // by srqid
  std::unordered_map<std::uint64_t, RemoteRecv> recvs_;  // by drqid (our request id)
  std::deque<std::uint64_t> streams_;                    // srqids of long sends to stream
  LinkOut link_out_;
  bool link_broken_ = false;
};

}  // namespace impi::core
