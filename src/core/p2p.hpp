// p2p.hpp - point-to-point messaging: the transports' protocols around
// the matching engine (matching.hpp), and progress.
//
// Every arrival, from shared memory, another IMPI client or another job,
// goes to the one matching engine; what a transport needs to deliver an
// unexpected message later is its Origin. Messages from one sender arrive
// in order (one FIFO ring per sender; one link per peer host or job),
// which with the engine's queues gives MPI's non-overtaking rule.
//
// Protocol over a ring: a message of at most `eager` bytes is one record;
// a longer one is a first record followed by chunk records, all from the
// same sender back to back (a sender finishes one long message to a peer
// before it starts the next). Payloads are packed straight into the ring
// and unpacked straight into the receive buffer (resumable cursors).
// Control records travel the same rings: acks of synchronous and
// single-copy messages, and MPI_Cancel's question about a message already
// in the receiver's ring (named by its number there) and its answer.
//
// Threading (MPI_THREAD_MULTIPLE): one engine lock guards the rings, the
// queues and the progress state of requests. Each entry point holds it for
// its own short work only, never across a wait: wait_until() takes it for
// one progress pass at a time (try-lock: when another thread is already
// progressing, it just re-checks its own condition) and drops it to poll
// and sleep. A request's completion is published through its `done` flag
// (release store after the status and the data; acquire load by waiters),
// so waiting threads read it without the lock (through completed()). The
// lock is taken only
// after enable_threads(): single-threaded programs pay nothing for it.
// Progress happens inside MPI calls only.
#pragma once

#include <poll.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "core/dyn_card.hpp"
#include "core/engine_lock.hpp"
#include "core/impi_state.hpp"
#include "core/matching.hpp"
#include "core/request.hpp"
#include "core/traffic.hpp"
#include "pack/cursor.hpp"
#include "pack/external32.hpp"
#include "transport/impi/packet.hpp"
#include "transport/shm/segment.hpp"

namespace impi::core {

struct ShmHeader;  // shm_record.hpp

class P2P {
 public:
  const TrafficCounters &traffic() const { return traffic_; }
  // Messages in the unexpected queues now.
  std::size_t unexpected_count() {
    std::lock_guard<EngineLock> g(mu_);
    return match_.unexpected_count();
  }
  // `world_rank`, the world ranks of this client's procs (index = local
  // rank), the shm segment names of those procs ("" for ours is fine).
  P2P() = default;

  // Creates our receive segment; returns its name for the contact card.
  base::Result<std::string> create_segment(const std::string &job_id, int local_rank, int nlocal);
  // Maps every local peer's segment (after the card exchange). `pids` and
  // `probes` (the address of cma_probe() in each peer) let us test whether
  // we may read the peer's memory directly (Linux cross-memory attach).
  base::Status attach(int my_world_rank, const std::vector<int> &local_world_ranks,
                      const std::vector<std::string> &segment_names,
                      const std::vector<std::int64_t> &pids = {},
                      const std::vector<std::uint64_t> &probes = {});
  // Removes our segment's name once every peer has mapped it.
  void unlink_segment() { own_.unlink(); }

  // The channel that carries messages to world index `w`: ourselves,
  // shared memory (this client on this node), the IMPI host channels
  // (another client), a dynamic-process connection (another job), or none.
  // Decided here and nowhere else (inline: every send asks).
  enum class Route : std::uint8_t { self, shm, impi, dyn, none };
  Route route(int w) const {
    if (w == me_) return Route::self;
    if (w >= 0 && w < static_cast<int>(local_of_world_.size()) &&
        local_of_world_[static_cast<std::size_t>(w)] >= 0)
      return Route::shm;
    if (dyn(w)) return Route::dyn;
    if (agent_ && w >= 0 && w < static_cast<int>(ids_.size())) return Route::impi;
    return Route::none;
  }
  // Is `world_rank` reachable by this engine (same client)?
  bool reachable(int world_rank) const {
    Route r = route(world_rank);
    return r == Route::self || r == Route::shm;
  }

  // The pid of proc `world_rank` of this host when we may read and write
  // its memory directly (Linux cross-memory attach), else 0.
  std::int64_t cma_pid(int world_rank) const {
    if (world_rank == me_ || !reachable(world_rank) || remote(world_rank)) return 0;
    const Peer &p =
        peers_[static_cast<std::size_t>(local_of_world_[static_cast<std::size_t>(world_rank)])];
    return p.cma ? p.pid : 0;
  }

  // Multi-client jobs (docs/impi-data-path.md): the link to this host's
  // agent, the job's maxdatalen, and every proc's IMPI id by world rank.
  void attach_agent(base::Fd link, std::uint32_t maxdatalen,
                    std::vector<transport::wire::ProcId> ids);
  // Procs whose user data travels in our byte order, not external32
  // (IMPI_NATIVE_ORDER_CLIENTS: peers that do so, as LAM/MPI 7.1.4).
  void set_native_order(std::vector<transport::wire::ProcId> procs);
  // Is `world_rank` in another client (reached through the host agent)?
  bool remote(int world_rank) const { return route(world_rank) == Route::impi; }
  // A send to another client (IMPI 3.7): at most maxdatalen bytes of
  // external32 go as one DATA packet (DATASYNC when `sync`: complete on the
  // SYNCACK); longer messages send their first maxdatalen bytes as DATASYNC
  // and the rest as DATA packets once the receiver's SYNCACK names its
  // request. Errors: no external32 form for the type, or the link broke.
  base::Result<RequestPtr> isend_remote(const void *buf, std::int64_t count,
                                        const pack::TypePtr &type, int dest_world, int src_rank,
                                        int tag, int context, bool sync);
  // Multi-client jobs, MPI_Finalize: hands every queued packet to the agent
  // (waits for the link to take them), then closes the link. With direct
  // channels: FINI on every channel first (IMPI 3.8), waiting for the
  // peers' FINI.
  void close_agent();
  // Direct channels (src/startup/agent/host_agent.hpp): this host's only proc
  // runs the host channels its agent handed over, in its progress passes
  // (p2p_direct.cpp). Call after attach_agent.
  base::Status attach_direct(DirectLayout d);

  // Starts a send to `dest_world` on the channel that reaches it: this
  // host's shared memory, the IMPI host channels (another client or host:
  // the data goes as external32), or a dynamic-process connection. Every
  // send of the API and the collectives comes through here.
  // `collective`: a collective's message (no wait for room on the agent's
  // link; the single-copy threshold of collectives).
  base::Result<RequestPtr> start_send(const void *buf, std::int64_t count,
                                      const pack::TypePtr &type, int dest_world, int src_rank,
                                      int tag, int context, bool sync, bool collective = false) {
    if (route(dest_world) == Route::impi) {
      if (!collective) wait_link_room();
      return isend_remote(buf, count, type, dest_world, src_rank, tag, context, sync);
    }
    return isend(buf, count, type, dest_world, src_rank, tag, context, sync, collective);
  }
  // Whether typed data exchanged with `w` travels as external32 (IMPI 4.1).
  bool external32_with(int w) const { return remote(w); }

  // `collective`: a collective's message; those take the single-copy path
  // only from coll_cma_threshold bytes (their exchanges wait on each
  // message, where the copy through the ring measured faster up to 64 KiB).
  RequestPtr isend(const void *buf, std::int64_t count, pack::TypePtr type, int dest_world,
                   int src_rank_in_comm, int tag, int context, bool sync = false,
                   bool collective = false);

  // ---- dynamic processes (p2p_dyn.cpp, docs/dynamic-processes.md)
  // Procs of other jobs (spawned, or met through a port) get indices from
  // kDynBase up, in the same space as world ranks; messages to them go over
  // a stream socket per direction (a Unix socket on the same host, TCP
  // otherwise), whole messages in native packed form.
  static constexpr int kDynBase = 1 << 24;
  static bool dyn(int w) { return w >= kDynBase; }
  // Who we are, for our dynamic card (set in MPI_Init).
  void set_identity(std::string job, int world_rank, int world_size, std::string host) {
    job_ = std::move(job);
    identity_rank_ = world_rank;
    world_size_ = world_size;
    host_ = std::move(host);
  }
  // Starts listening for dynamic connections (idempotent); returns our card.
  base::Result<DynCard> dyn_listen();
  // The index of the proc `card` names: a world rank for a proc of our own
  // job, else a dynamic index (the same one each time for the same proc);
  // -1 for a card that names a rank our job does not have.
  int dyn_register(const DynCard &card);
  // A name of proc `w` that every proc computes alike (ordering of merged groups).
  std::string proc_key(int w);
  // Ports (MPI_Open_port): connections that name port `n` wait for accept_port.
  std::uint64_t open_port();
  bool close_port(std::uint64_t n);
  bool port_open(std::uint64_t n);
  // Waits (making progress) for a connection to port `n`; the socket returned blocks.
  base::Result<base::Fd> accept_port(std::uint64_t n);
  // Multi-client jobs, MPI_Finalize and exit: sends what is queued to
  // dynamic peers (bounded wait), then closes every dynamic socket.
  void close_dyn();
  // Waits until what is queued for these procs of other jobs has left this
  // process (MPI_Comm_disconnect), at most dyn_timeout_s; false if some of
  // it could not leave. Progresses meanwhile (the peers may be waiting for
  // room that our progress makes).
  bool dyn_drain(const std::vector<int> &procs);
  // Waiting: counts this thread as asleep (d = +1) or awake (-1) in every
  // ring of another job that we read, so their senders wake us.
  void dyn_sleeping(int d);
  // `storage`, when given, holds the request instead of the heap (blocking
  // receives: it must outlive the operation).
  // `storage`, when given, is a freshly constructed Request that outlives
  // the receive; such requests of a predefined type take no reference to it
  // (the static table keeps those alive).
  RequestPtr irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source_world,
                   int tag, int context, Request *storage = nullptr);
  // Fast path of a standard send: writes a small message straight into the
  // ring when nothing is queued ahead of it. Returns the message's number
  // on that ring (never 0: cancel_sent() names it), or 0: not sent, use isend.
  std::uint64_t send_now(const void *buf, std::int64_t count, const pack::TypePtr &type,
                         int dest_world, int src_rank, int tag, int context);
  // Looks for a matching message without receiving it.
  std::optional<MsgStatus> iprobe(int source_world, int tag, int context);
  // Whether a matching message has arrived (no progress: for wait predicates).
  bool has_message(int source_world, int tag, int context);
  // Matched probe: takes the message out of matching; mrecv receives it.
  std::optional<std::pair<MsgStatus, std::uint64_t>> improbe(int source_world, int tag,
                                                             int context);
  RequestPtr mrecv(std::uint64_t message, void *buf, std::int64_t count, pack::TypePtr type);
  // MPI_Cancel (MPI-3.1 3.8.4). A receive still posted is cancelled at
  // once. A send not yet started is taken back at once; one already in the
  // receiver's ring (shared memory, a ring record naming it by `seq`) or
  // with another client (an IMPI CANCEL) is asked for: the request is then
  // not complete until the receiver answers, cancelled (it removed the
  // unmatched message) or not (it had matched it: the send completes as
  // usual). True if cancelled or asked for, false if too late.
  bool cancel(const RequestPtr &r);
  // Cancels message `seq` that send_now() wrote to `dest_world`: returns
  // the request that completes with the receiver's answer.
  RequestPtr cancel_sent(int dest_world, std::uint64_t seq);

  // Threads: from now on every entry point takes the engine lock
  // (MPI_THREAD_MULTIPLE; call before a second thread uses the engine).
  void enable_threads() { mu_.enable(); }

  // Whether `r` has completed. When another thread completed it (threads
  // enabled), passes through the engine lock once: that thread wrote the
  // status and the data under the lock, so the caller sees them all (the
  // release/acquire on `done` orders them too; the lock makes the order
  // one that ThreadSanitizer also sees, which it did not from the flag
  // alone in our threaded tests). Call without the engine lock.
  bool completed(const Request &r) {
    std::uint32_t by = r.done.completer();
    if (by == 0) return false;
    if (mu_.enabled() && by != thread_token() && by != DoneFlag::kAtCreation) {
      mu_.lock();
      mu_.unlock();
    }
    return true;
  }

  // Backpressure toward the host agent (multi-client jobs): a send to
  // another client first waits, making progress (reading included), while
  // more than kLinkSendLimit bytes wait for the agent's link. The agent
  // stops reading a proc whose packets pile up for a slow peer host
  // (IMPI_AGENT_QUEUE_BYTES); this keeps the proc's own buffer bounded too.
  // (MPI lets a send wait for its receiver; the wait reads, so two procs
  // sending to each other both drain.)
  static constexpr std::size_t kLinkSendLimit = std::size_t{8} << 20;
  void wait_link_room() {
    if (!agent_) return;
    auto full = [this] {
      std::lock_guard<EngineLock> g(mu_);
      return link_backlog() > kLinkSendLimit && !link_broken_;
    };
    if (!full()) return;
    wait_until([&] { return !full(); });
  }

  // Collective slots (segment.hpp) for MPI_COMM_WORLD's small Allreduce:
  // usable when every world rank is a shared-memory peer of ours (one
  // client on one node). slot(w, parity) is world rank w's, in its segment.
  bool world_slots() const;
  transport::shm::CollSlot &slot(int world, int parity);
  // Wakes every local peer asleep on its doorbell (after publishing a slot).
  void ring_all_doorbells();
  std::uint64_t next_world_slot_op() { return ++world_slot_ops_; }
  // Procs outnumber cores on this node (waiters yield their core).
  bool oversubscribed() const { return oversubscribed_; }
  // World ranks bound to the one cpu this proc is bound to (not itself);
  // empty when this proc is not bound to exactly one cpu, or when procs do
  // not outnumber cores. Read from the peers' affinity at attach().
  const std::vector<int> &core_siblings() const { return core_siblings_; }

  // One pass over the rings and pending sends; true if anything moved.
  bool progress() {
    bool any;
    {
      std::lock_guard<EngineLock> g(mu_);
      any = progress_locked();
    }
    if (hook_wanted()) any |= run_hook();
    return any;
  }
  // Functions the engine calls on every progress pass, outside its lock
  // (non-blocking collectives advance there, and one-sided requests are
  // served); true if one moved anything. They run only while
  // hook_work() > 0. Add them before a second thread uses the engine.
  void add_hook(std::function<bool()> h) { hooks_.push_back(std::move(h)); }
  std::atomic<int> &hook_work() { return hook_work_; }
  // Progresses until `done` says so; sleeps on the doorbell when idle.
  // `done` must be safe to call without the engine lock.
  template <typename Pred>
  void wait_until(Pred done) {
    int idle = 0;
    std::chrono::steady_clock::time_point idle_since{};
    int nap_us = 50;  // a missed wake-up (segment.cpp) costs at most this much
    while (!done()) {
      // Look (lock-free, a few loads) whether there is anything to do
      // before a progress pass: a tight poll notices a record sooner, and
      // with threads it keeps the lock free.
      const bool hooked = hook_wanted();
      bool looked =
          oversubscribed_ || hooked || work_hint();  // (oversubscribed: measured better without)
      if (looked && (try_progress() | (hooked && run_hook()))) {
        idle = 0;
        continue;
      }
      if (agent_ || dyn_on_.load(std::memory_order_acquire)) {
        // Multi-client job: the host agents need a core to move packets.
        // Yield while polling, then block on the agent's link and the
        // dynamic connections (a local record wakes us within the nap).
        if (++idle < agent_spin_) {
          // (A proc with direct channels and a core of its own has no agent
          // to yield to: it polls without the syscall.)
          if (!direct_ || oversubscribed_) sched_yield();
          continue;
        }
        pollfd pf[2 + kDirectPollMax];
        nfds_t npf = 0;
        if (agent_) {
          // Under the lock: other threads' sends and passes change the
          // link's buffer and the channels.
          std::lock_guard<EngineLock> g(mu_);
          pf[npf++] = {
              agent_.get(),
              static_cast<short>(link_out_.pending() > 0 && !direct_ ? POLLIN | POLLOUT : POLLIN),
              0};
          if (direct_) {
            std::vector<pollfd> more;
            direct_pollfds(more);
            for (std::size_t i = 0; i < more.size() && i < kDirectPollMax; ++i) pf[npf++] = more[i];
          }
        }
        const bool dyn_rings = dyn_on_.load(std::memory_order_acquire);
        if (dyn_rings) {
          pf[npf++] = {dyn_poll_.get(), POLLIN, 0};
          dyn_sleeping(+1);  // then look once more: a sender that published before it saw us asleep
          if (try_progress() || done()) {
            dyn_sleeping(-1);
            idle = 0;
            continue;
          }
        }
        timespec nap{0, static_cast<long>(nap_us) * 1000};  // a local record waits at most this
        ::ppoll(pf, npf, &nap, nullptr);
        if (dyn_rings) dyn_sleeping(-1);
        nap_us = std::min(nap_us * 2, 1000);
        idle = 0;
        continue;
      }
      if (oversubscribed_) {
        if (++idle < spin_) {
          sched_yield();  // every time: let the process we wait for run
          continue;
        }
      } else {
        // The spin budget counts progress passes; a look at the hint alone
        // costs a small fraction of one.
        if (!looked && (++hint_only_ & 15) != 0) continue;
        if (++idle < spin_) continue;
        // Then poll on for spin_us_ in all (a wake-up from the futex takes
        // 12-45 us here, more than a waiting proc with a core of its own
        // saves by sleeping early); the clock is read only past spin_.
        if (spin_us_.count() > 0) {
          const auto t = std::chrono::steady_clock::now();
          if (idle == spin_) idle_since = t;  // (once per idle streak: progress resets idle)
          if (t - idle_since < spin_us_) continue;
        }
      }
      std::uint32_t seen = own_.prepare_sleep();
      if (try_progress() || done()) {
        own_.cancel_sleep();
        continue;
      }
      own_.sleep(seen, nap_us);
      nap_us = std::min(nap_us * 2, 1000);
    }
  }

 private:
  // Polls before sleeping on the doorbell: long when every proc has a core,
  // short (and yielding) when procs outnumber cores.
  int spin_ = 2000;
  std::chrono::microseconds spin_us_{
      0};  // IMPI_SHM_SPIN_US: procs with a core each poll at least this long
  static constexpr std::size_t kDirectPollMax =
      64;  // channels watched in a blocking wait (beyond: the nap)
  std::uint64_t ring_bytes_ = std::uint64_t{1} << 20;  // of our rings (create_segment)
  int agent_spin_ = 2000;  // multi-client jobs: yielding polls before blocking on the agent's link
  bool oversubscribed_ = false;
  std::vector<int> core_siblings_;
  void find_core_siblings(const std::vector<int> &local_world_ranks,
                          const std::vector<std::int64_t> &pids);
  using Header = ShmHeader;  // a ring record's header (shm_record.hpp)
  // What the transports keep with an unexpected message: the matching
  // engine's handle for the data and the sender (Match::Message::origin).
  struct Origin {
    // The sender: its local rank (shared memory: for the sync ack); -1 for
    // ourselves; -2 - i for dynamic peer i (its acks go over its connection).
    int peer_local = -1;
    std::uint64_t sync_id = 0;       // nonzero: the sender waits for our match
    RequestPtr self_sync;            // a synchronous self-send waiting for its match
    std::uint64_t rndv_addr = 0;     // nonzero: the data is in the sender's memory, here
    std::uint64_t seq = 0;           // shared memory and self: the message's number on its ring
    bool ext32 = false;              // from another client: `data` is external32 (its first packet)
    bool remote_sync = false;        // a DATASYNC: SYNCACK to remote_src on match
    std::uint64_t remote_srqid = 0;  // the sender's pk_srqid (SYNCACK, CANCEL)
    transport::wire::ProcId remote_src{};
  };
  using Match = MatchEngine<Origin>;
  using Unexpected = Match::Message;
  struct Incoming {  // a long message from one sender, still arriving
    RequestPtr req;  // matched receive, or
    Match::MessageRef unexpected;
    bool to_request = false;
    bool active = false;
  };
  struct Peer {
    int world = -1;
    transport::shm::Segment seg;  // the peer's segment (we produce into our ring in it)
    transport::shm::Ring out;     // our ring in the peer's segment
    transport::shm::Ring in;      // the peer's ring in our segment
    std::deque<RequestPtr> sendq;
    // Control records owed to this peer, written ahead of sendq: sync acks,
    // our cancels of messages wholly in its ring, answers to its cancels.
    struct Control {
      std::uint32_t kind;  // Header::ack, cancel, cancel_yes, cancel_no
      std::uint64_t id;    // ack: the sync id; cancels and answers: the message's seq
    };
    std::deque<Control> control;
    std::uint64_t seq_out = 0;           // messages we started in `out`
    std::uint64_t seq_in = 0;            // messages started in `in` (the last one's number)
    std::vector<RequestPtr> cancelling;  // our sends to this peer awaiting a cancel's answer
    Incoming incoming;
    std::int64_t pid = 0;
    bool cma = false;  // we may read this peer's memory (process_vm_readv)
  };
  using Split = transport::shm::RingCounters::Split;

  bool progress_locked();
  // ---- inter-client (IMPI) protocol engine: p2p_remote.cpp
  // Whether `p`'s user data travels in our byte order (set_native_order).
  bool native_order(const transport::wire::ProcId &p) const {
    return !native_order_.empty() &&
           std::find(native_order_.begin(), native_order_.end(), p) != native_order_.end();
  }
  std::vector<transport::wire::ProcId> native_order_;
  // Reads what the host agent sent (non-blocking); true if anything came.
  bool poll_agent();
  void remote_arrival(const transport::wire::Packet &p, std::span<const std::byte> data);
  // The receiver matched our message (and, for a long one, names its request).
  void remote_syncack(const transport::wire::Packet &p);
  // The answer (CANCELYES/CANCELNO) to a CANCEL of ours.
  void remote_cancel_answer(const transport::wire::Packet &p);
  // The first packet of a remote message meets its receive `r`: unpacks it,
  // answers a DATASYNC (SYNCACK; with our drqid for a long message).
  void start_remote_recv(const RequestPtr &r, const transport::wire::ProcId &src,
                         std::uint64_t srqid, bool sync, std::int64_t msglen,
                         std::span<const std::byte> first);
  // Unpacks the next external32 bytes of a remote message into rr.req; completes it at the end.
  void remote_recv_bytes(RemoteRecv &rr, std::span<const std::byte> data);
  void remote_send_done(RemoteSend &s);  // completes s.req when nothing is outstanding
  void send_control(transport::wire::PacketType type, const transport::wire::ProcId &to,
                    std::uint64_t srqid, std::uint64_t drqid = 0);
  bool cancel_remote(const RequestPtr &r);
  // Packs more DATA packets of long messages whose SYNCACK came; true if any.
  bool push_streams();
  bool flush_link();  // writes what the socket takes now (non-blocking); true if bytes went
  // Direct channels (p2p_direct.cpp).
  struct Direct;
  std::shared_ptr<Direct> direct_;
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
  bool lend_short(const RequestPtr &r, const transport::wire::Packet &p, const void *buf,
                  const pack::TypePtr &type, std::int64_t count, int dest_world, int src_rank,
                  int tag, int context);
  static constexpr std::uint32_t kLendShortMin = 16384;  // (below: the copy costs less)
  bool direct_in_channel() const;
  void direct_cork(bool on);  // HostChannel::cork/uncork on every channel
  void close_direct();        // FINI on every channel, then waits for theirs
  void direct_pollfds(std::vector<pollfd> &out) const;
  // Bytes this proc holds for other clients: the link's, and (direct) the channels'.
  std::size_t link_backlog() const;
  std::unordered_map<std::uint64_t, RemoteSend> remote_sends_;  // by srqid
  std::unordered_map<std::uint64_t, RemoteRecv> remote_recvs_;  // by drqid (our request id)
  std::deque<std::uint64_t> remote_streams_;                    // srqids of long sends to stream
  LinkOut link_out_;
  bool link_broken_ = false;
  // ---- dynamic peers (p2p_dyn.cpp)
  struct DynPeer {
    DynCard card;
    base::Fd out;  // the connection we opened: we send on it only
    LinkOut outq;
    bool broken = false;
    bool outq_data = false;  // outq holds messages or acks (a broken socket then loses something)
    // Same node: a ring in a segment we made for this peer (named in our
    // hello). Used once the peer said it mapped it (shm_ok) and we told it
    // that everything after our switch frame comes through the ring.
    std::unique_ptr<Peer> ring;
    bool ring_on = false;
  };
  struct DynIn {  // a connection a peer opened to us
    base::Fd fd;
    std::vector<std::byte> buf;  // bytes read, not yet a whole frame
    int peer = -1;               // dynamic index, once its hello came
    std::unique_ptr<Peer> ring;  // the peer's ring for us (same node), read after its switch frame
    bool ring_on = false;
  };
  struct DynPort {
    std::deque<base::Fd> waiting;  // connections that named this port
  };
  RequestPtr isend_dyn(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
                       int src_rank, int tag, int context, bool sync);
  DynPeer *dyn_peer(int w) {
    std::size_t i = static_cast<std::size_t>(w - kDynBase);
    return i < dyn_peers_.size() ? dyn_peers_[i].get() : nullptr;
  }
  bool dyn_connect(int w, DynPeer &p);  // opens p.out (with our hello) if needed
  void dyn_queue(int w, DynPeer &p, std::uint8_t kind, int source, int tag, int context,
                 std::uint64_t len, std::uint64_t sync_id,
                 const std::function<void(std::byte *)> &fill);
  bool progress_dyn();
  bool dyn_read(DynIn &in);  // false: the connection ended (or handed to a port)
  bool dyn_frames(DynIn &in);
  bool dyn_flush(DynPeer &p);
  int dyn_register_locked(const DynCard &card);
  std::string proc_key_locked(int w);
  void dyn_arrival(int peer, const DynFrame &f, std::span<const std::byte> payload);  // p2p.cpp
  void dyn_ack(int peer, std::uint64_t id);
  void dyn_acked(std::uint64_t id);  // a synchronous send to another job was matched
  void dyn_wake(DynPeer &p);         // the receiver sleeps: a wake frame on the socket
  void dyn_make_ring(int w, DynPeer &p);
  std::uint64_t next_ring_ = 1;
  std::vector<std::unique_ptr<DynPeer>> dyn_peers_;
  std::unordered_map<std::string, int> dyn_index_;  // card key -> index
  std::vector<std::unique_ptr<DynIn>> dyn_in_;
  std::unordered_map<std::uint64_t, DynPort> ports_;
  std::uint64_t next_port_ = 1;
  std::unordered_map<std::uint64_t, RequestPtr> dyn_awaiting_;  // synchronous sends by id
  base::Fd dyn_unix_, dyn_tcp_;                                 // listeners
  base::Fd dyn_poll_;  // epoll: listeners and incoming connections (sleeping waits)
  std::atomic<bool> dyn_on_{false};
  std::optional<DynCard> my_card_;
  std::string job_, host_;
  int identity_rank_ = 0, world_size_ = 1;
  std::unique_ptr<Peer> dyn_proxy_;  // stands for the sender of a dynamic arrival
  // Lock-free: whether a ring has a record or a send is queued (a hint:
  // another thread may take the work first).
  bool work_hint() const {
    if (agent_ || dyn_on_.load(std::memory_order_relaxed))
      return true;  // sockets are read in every pass
    if (queued_.load(std::memory_order_relaxed) != 0 ||
        rndv_waiting_.load(std::memory_order_relaxed) != 0)
      return true;
    for (std::size_t i = 0; i < peers_.size(); ++i)
      if (static_cast<int>(i) != my_local_ &&
          peers_[i].in.ready_at(read_pos_[i].load(std::memory_order_relaxed)))
        return true;
    return false;
  }
  // Under the lock, after awaiting_ack_ changed: its size, for work_hint().
  void note_awaiting() {
    rndv_waiting_.store(static_cast<std::int64_t>(awaiting_ack_.size()), std::memory_order_relaxed);
  }
  // Under the lock: counts queued sends and control records (plain load and store).
  void count_queued(int d) {
    queued_.store(queued_.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
  }
  // A progress pass unless another thread is making one (then false).
  bool try_progress() {
    if (!mu_.try_lock()) return false;
    bool any = progress_locked();
    mu_.unlock();
    return any;
  }
  void deliver_self(const RequestPtr &send);
  // Shared-memory cancel (p2p.cpp): the sender asks with a `cancel` record
  // after the message's last record (same ring, so the receiver has the
  // whole message by then); the receiver removes it from its unexpected
  // queue if it is there (`cancel_yes`), else it was matched (`cancel_no`).
  bool cancel_shm(const RequestPtr &r);
  bool cancel_self(const RequestPtr &r);  // a self-send still unexpected: removed here
  void ask_cancel(Peer &p, const RequestPtr &r);
  void answer_cancel(Peer &p, std::uint64_t seq);
  void cancel_answered(Peer &p, std::uint64_t seq, bool cancelled);
  void queue_control(Peer &p, std::uint32_t kind, std::uint64_t id);
  void queue_ack(Peer &p, std::uint64_t sync_id);  // message sync_id matched: tell its sender
  bool push_sends(Peer &p);
  bool drain(Peer &p);
  void start_message(Peer &p, const Header &h, std::span<const std::byte> payload,
                     const RequestPtr &self_sync = nullptr);
  void matched(int peer_local, std::uint64_t sync_id, const RequestPtr &self_sync);
  void add_bytes(Peer &p, std::span<const std::byte> payload);
  // Receive `recv` takes unexpected message `u`: delivers what the
  // transport buffered, starts fetching the rest, acks the sender.
  void bind(const RequestPtr &recv, Match::MessageRef u);
  static void finish_recv(Request &r) {
    r.status.bytes = std::min(r.msg_len, r.total);
    if (r.msg_len > r.total && r.status.error == 0) r.status.error = kTruncated;
    r.done = true;  // last: publishes the status to waiting threads
  }
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
  std::int64_t split_threshold_for(const Request &r, const Peer &p, std::int64_t len) const;
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
  std::size_t read_batch_max_ = kReadBatch;  // IMPI_SHM_CMA_BATCH (1: none)
  static constexpr std::int64_t kBatchBytes =
      512 * 1024;  // a batch is read once it holds this many
  std::int64_t batch_bytes_ = 0;
  std::vector<BatchedRead> read_batch_;
  int batch_peer_ = -1;  // the peer drain() is reading (its local rank), else -1
  bool batch_read(const RequestPtr &r, int peer_local, std::uint64_t addr, std::int64_t len,
                  std::uint64_t id);
  void flush_reads();
  // Sender side: takes and carries out offers for our messages awaiting acks.
  bool serve_split_offers();

  // Runs the hook unless another thread (or this one, re-entering) is.
  bool run_hook() {
    if (hook_busy_.exchange(true, std::memory_order_acquire)) return false;
    bool any = false;
    for (auto &h : hooks_) any |= h();
    hook_busy_.store(false, std::memory_order_release);
    return any;
  }
  bool hook_wanted() const { return hook_work_.load(std::memory_order_relaxed) > 0; }
  std::vector<std::function<bool()>> hooks_;
  std::atomic<int> hook_work_{0};
  std::atomic<bool> hook_busy_{false};
  EngineLock mu_;
  TrafficCounters traffic_;
  base::Fd agent_;  // multi-client jobs: the local link to the host agent
  std::unique_ptr<transport::wire::PacketReader> agent_reader_;
  std::uint32_t maxdatalen_ = 0;
  std::vector<transport::wire::ProcId> ids_;  // by world rank
  static inline thread_local unsigned hint_only_ IMPI_FAST_TLS = 0;
  std::atomic<std::int64_t> queued_{0};  // sends and control records queued on all peers
  std::atomic<std::int64_t> rndv_waiting_{
      0};  // our single-copy sends not yet acked (may get offers)
  std::unique_ptr<std::atomic<std::uint64_t>[]>
      read_pos_;  // each ring's read position, for work_hint()
  int me_ = 0;
  int my_local_ = 0;
  std::uint64_t eager_ = 0, chunk_ = 0;
  std::int64_t cma_threshold_ = 0;
  std::int64_t coll_cma_threshold_ = 0;
  std::int64_t split_threshold_ = 0;       // 0: never split
  std::int64_t split_two_way_ = 0;         // the threshold while messages also go the other way
  std::int64_t split_two_way_max_ = 0;     // and the largest message split then (0: no limit)
  std::int64_t coll_split_threshold_ = 0;  // collectives' messages (0: never split)
  transport::shm::Segment own_;
  std::uint64_t world_slot_ops_ = 0;  // MPI_COMM_WORLD Allreduces through the slots
  mutable int world_slots_ = -1;      // world_slots(), once known
  std::vector<Peer> peers_;           // by local rank (ours unused)
  std::vector<int> local_of_world_;   // world rank -> local rank or -1
  Match match_;
  // Charges `n` buffered bytes of `u` to its sender (world index) against
  // the unexpected_limit_bytes tunable: past it the job ends with a clear
  // message instead of this process exhausting memory.
  void charge(Unexpected &u, int from_world, std::size_t n);
  std::uint64_t next_id_ = 1;
  std::vector<RequestPtr> awaiting_ack_;  // synchronous sends (few at a time)
};

}  // namespace impi::core
