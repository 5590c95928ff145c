// p2p.hpp - the point-to-point engine: the matching engine
// (matching.hpp), receives, probes and cancels, the channels that carry
// messages (channel.hpp: shared memory and self in core/shm, other IMPI
// clients in core/impi, other jobs in core/dyn), and progress and waiting.
//
// Every arrival goes to the one matching engine; what a channel needs to
// deliver an unexpected message later is its Origin (origin.hpp). Messages
// from one sender arrive in order on its channel (one FIFO ring per
// sender; one link per peer host or job), which with the engine's queues
// gives MPI's non-overtaking rule. Which channel reaches a peer is decided
// by route(), once per communicator (Communicator::channels).
//
// Threading (MPI_THREAD_MULTIPLE): one engine lock guards the channels, the
// queues and the progress state of requests. Each entry point holds it for
// its own short work only, never across a wait: wait_until() takes it for
// one progress pass at a time (try-lock: when another thread is already
// progressing, it just re-checks its own condition) and drops it to poll
// and sleep. A request's completion is published through its `done` flag
// (release store after the status and the data; acquire load by waiters),
// so waiting threads read it without the lock (through completed()). The
// lock is taken only after enable_threads(): single-threaded programs pay
// nothing for it. Progress happens inside MPI calls only.
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
#include "core/dyn/dyn_channel.hpp"
#include "core/dyn_card.hpp"
#include "core/engine_lock.hpp"
#include "core/impi/impi_channel.hpp"
#include "core/matching.hpp"
#include "core/origin.hpp"
#include "core/request.hpp"
#include "core/shm/shm_channel.hpp"
#include "core/traffic.hpp"
#include "pack/cursor.hpp"
#include "pack/external32.hpp"
#include "transport/impi/packet.hpp"
#include "transport/shm/segment.hpp"

namespace impi::core {

class P2P {
  // The channels run under the engine lock and hand arrivals to its
  // matching engine.
  friend class ShmChannel;
  friend class ImpiChannel;
  friend class DynChannel;

 public:
  const TrafficCounters &traffic() const { return traffic_; }
  // Messages in the unexpected queues now.
  std::size_t unexpected_count() {
    std::lock_guard<EngineLock> g(mu_);
    return match_.unexpected_count();
  }
  P2P() : shm_(*this), impi_(*this), dyn_(*this) {}

  // The channels, for what is particular to each: setting up, and the
  // operations only one transport has (collective slots in shared memory,
  // ports of dynamic processes, ...).
  ShmChannel &shm() { return shm_; }
  ImpiChannel &impi() { return impi_; }
  DynChannel &jobs() { return dyn_; }

  // Creates our receive segment (shm_channel.hpp) and sets the waiting
  // policy from the procs on this machine; returns the segment's name for
  // the contact card.
  base::Result<std::string> create_segment(const std::string &job_id, int local_rank, int nlocal);
  // Maps every local peer's segment (after the card exchange); `pids` and
  // `probes`: see ShmChannel::attach.
  base::Status attach(int my_world_rank, const std::vector<int> &local_world_ranks,
                      const std::vector<std::string> &segment_names,
                      const std::vector<std::int64_t> &pids = {},
                      const std::vector<std::uint64_t> &probes = {});

  // The channel that carries messages to world index `w`: shared memory
  // (ourselves, or this client on this node), the IMPI host channels
  // (another client), a dynamic-process connection (another job), or null.
  // Communicators keep the answer for each peer (Communicator::channels),
  // and every send takes its channel from there.
  Channel *route(int w) {
    if (w == me_ || shm_.reaches(w)) return &shm_;
    if (dyn(w)) return &dyn_;
    if (agent_ && impi_.knows(w)) return &impi_;
    return nullptr;
  }
  // The channels for these world indices (a communicator's peers).
  std::vector<Channel *> routes(const std::vector<int> &worlds) {
    std::vector<Channel *> out;
    out.reserve(worlds.size());
    for (int w : worlds) out.push_back(route(w));
    return out;
  }
  // Is `world_rank` ourselves or in this client on this node?
  bool reachable(int world_rank) const { return world_rank == me_ || shm_.reaches(world_rank); }

  // The pid of proc `world_rank` of this host when we may read and write
  // its memory directly (Linux cross-memory attach), else 0.
  std::int64_t cma_pid(int world_rank) const {
    if (world_rank == me_ || !shm_.reaches(world_rank)) return 0;
    return shm_.cma_pid(world_rank);
  }

  // Multi-client jobs (docs/impi-data-path.md): the link to this host's
  // agent, the job's maxdatalen, and every proc's IMPI id by world rank.
  void attach_agent(base::Fd link, std::uint32_t maxdatalen,
                    std::vector<transport::wire::ProcId> ids) {
    impi_.attach_agent(std::move(link), maxdatalen, std::move(ids));
    agent_ = true;
    std::lock_guard<EngineLock> g(mu_);
    poll_channel(impi_, true);
    relayed_ = true;  // (until direct channels replace the agent's)
  }
  // Is `world_rank` in another client (reached through the host agent)?
  bool remote(int world_rank) const {
    return agent_ && world_rank != me_ && !shm_.reaches(world_rank) && !dyn(world_rank) &&
           impi_.knows(world_rank);
  }

  // Starts a send to `dest_world` on channel `via` (the communicator's
  // route to it): this host's shared memory, the IMPI host channels
  // (another client or host: the data goes as external32), or a
  // dynamic-process connection. Every send of the API and the collectives
  // comes through here. `collective`: a collective's message (no wait for
  // room on the agent's link; the single-copy threshold of collectives).
  base::Result<RequestPtr> start_send(Channel &via, const void *buf, std::int64_t count,
                                      const pack::TypePtr &type, int dest_world, int src_rank,
                                      int tag, int context, bool sync, bool collective = false) {
    if (&via == &shm_)
      return shm_.isend(buf, count, type, dest_world, src_rank, tag, context, sync, collective);
    if (&via == &impi_ && !collective) wait_link_room();
    return via.start_send({buf, count, type, dest_world, src_rank, tag, context, sync, collective});
  }
  // Whether typed data exchanged with `w` travels as external32 (IMPI 4.1).
  bool external32_with(int w) const { return remote(w); }

  // ---- dynamic processes (core/dyn, docs/dynamic-processes.md)
  // Procs of other jobs get indices from kDynBase up, in the same space as
  // world ranks.
  static constexpr int kDynBase = 1 << 24;
  static bool dyn(int w) { return w >= kDynBase; }
  // Who we are (set in MPI_Init).
  void set_identity(std::string job, int world_rank, int world_size, std::string host) {
    world_size_ = world_size;
    dyn_.set_identity(std::move(job), world_rank, world_size, std::move(host));
  }

  // `storage`, when given, is a freshly constructed Request that outlives
  // the receive; such requests of a predefined type take no reference to it
  // (the static table keeps those alive).
  // `from_world`: the source's world rank, if known (-1: not known, or any
  // source); a send to that proc may then choose a path for an exchange.
  RequestPtr irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source, int tag,
                   int context, Request *storage = nullptr, int from_world = -1);
  // Fast path of a standard send to a proc of this client on this node:
  // writes a small message straight into the ring when nothing is queued
  // ahead of it. Returns the message's number on that ring (never 0:
  // cancel_sent() names it), or 0: not sent, use start_send.
  std::uint64_t send_now(Channel &via, const void *buf, std::int64_t count,
                         const pack::TypePtr &type, int dest_world, int src_rank, int tag,
                         int context) {
    if (&via != &shm_) return 0;
    return shm_.send_now(buf, count, type, dest_world, src_rank, tag, context);
  }
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
  RequestPtr cancel_sent(int dest_world, std::uint64_t seq) {
    return shm_.cancel_sent(dest_world, seq);
  }

  // Threads: from now on every entry point takes the engine lock
  // (MPI_THREAD_MULTIPLE; call before a second thread uses the engine).
  void enable_threads() { mu_.enable(); }
  bool threads_enabled() const { return mu_.enabled(); }

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
      return impi_.backlog() > kLinkSendLimit && !impi_.broken();
    };
    if (!full()) return;
    wait_until([&] { return !full(); });
  }

  // Collective slots (segment.hpp) for MPI_COMM_WORLD's small Allreduce:
  // usable when every world rank is a shared-memory peer of ours (one
  // client on one node). slot(w, parity) is world rank w's, in its segment.
  bool world_slots() const { return shm_.world_slots(world_size_, agent_); }
  transport::shm::CollSlot &slot(int world, int parity) { return shm_.slot(world, parity); }
  transport::shm::CollSlot &own_slot(int world, int k, int parity) {
    return shm_.own_slot(world, k, parity);
  }
  std::atomic<std::uint64_t> &own_released(int world, int k) { return shm_.own_released(world, k); }
  int world_size() const { return world_size_; }
  // Wakes every local peer asleep on its doorbell (after publishing a slot).
  void ring_all_doorbells() { shm_.ring_all_doorbells(); }
  std::uint64_t next_world_slot_op() { return shm_.next_world_slot_op(); }
  // Procs outnumber cores on this node, or this proc is bound to one cpu
  // that another local proc is bound to too (waiters yield their core).
  bool oversubscribed() const { return oversubscribed_; }
  // World ranks bound to the one cpu this proc is bound to (not itself);
  // empty when this proc is not bound to exactly one cpu (one hardware
  // thread). Read from the peers' affinity at attach().
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
  // The hooks alone, without a pass over the channels (a non-blocking
  // operation just queued starts there: its first messages go out at once,
  // and the wait that follows makes the pass); true if one moved anything.
  bool run_hooks() { return hook_wanted() && run_hook(); }
  // For calls that do their work in local memory and never wait (one-sided
  // operations on our own or a shared window, flushes with nothing to wait
  // for), which programs repeat in a loop until another proc acts: a
  // progress pass when shared memory hints that something came (a few
  // loads), and every 8th call in any case (the sockets of other clients,
  // which no load can peek at, and requests the hooks hold back). Callers
  // call it once in a while (one-sided calls: every 16th), so that it costs
  // next to nothing when nothing is pending. True if anything moved.
  bool poll_incoming() {
    if (shm_.work_hint() || (++incoming_polls_ & 7) == 0) return progress();
    return false;
  }
  // Functions the engine calls on every progress pass, outside its lock
  // (non-blocking collectives advance there, and one-sided requests are
  // served); true if one moved anything. They run only while
  // hook_work() > 0. Add them before a second thread uses the engine.
  void add_hook(std::function<bool()> h) { hooks_.push_back(std::move(h)); }
  // Waits for words that other processes write into our memory (MPI-IO's
  // rounds by memory, io/collective.cpp): no descriptor or doorbell wakes
  // a proc for those, so while any is pending a wait polls on (yielding)
  // instead of sleeping.
  void memory_wait(int delta) { memory_waits_.fetch_add(delta, std::memory_order_relaxed); }
  std::atomic<int> &hook_work() { return hook_work_; }
  // Progresses until `done` says so; sleeps on the doorbell when idle.
  // `done` must be safe to call without the engine lock, and may be called
  // again after it said yes: one with a side effect (taking a lock) must
  // remember its yes.
  template <typename Pred>
  void wait_until(Pred done, bool local = false) {
    // `local`: what we wait for comes through shared memory. When procs
    // outnumber cores, most passes then look at shared memory only and
    // yield (sleeping on the doorbell instead measured 3x slower: a futex
    // wake-up costs tens of microseconds here).
    const bool doze = local && oversubscribed_;
    // (Counted as dozing meanwhile, for siblings_stalled() in other procs;
    // marked before each look below.)
    transport::shm::Segment::Dozing dozing(doze ? &shm_.own() : nullptr);
    std::chrono::steady_clock::time_point stall_until{};  // for siblings_stalled()
    unsigned doze_passes = 0;
    int idle = 0;
    std::chrono::steady_clock::time_point idle_since{};
    int nap_us = 50;  // a missed wake-up (segment.cpp) costs at most this much
    while (!done()) {
      // Look (lock-free, a few loads) whether there is anything to do
      // before a progress pass: a tight poll notices a record sooner, and
      // with threads it keeps the lock free.
      const bool hooked = hook_wanted();
      if (doze && !hooked && (++doze_passes & 7) != 0) {
        // Seven passes in eight over shared memory alone: the sockets'
        // syscalls would keep the core from the proc we wait for (2 clients
        // x 2 procs on 2 cores, Barrier: 15.7-17.4 us against 16.2-22.3
        // with every pass over the sockets).
        shm_.doze_mark();  // (before the look: what comes after it shows)
        if (try_progress(true)) {
          idle = 0;
          continue;
        }
        sched_yield();
        continue;
      }
      bool looked =
          oversubscribed_ || hooked || work_hint();  // (oversubscribed: measured better without)
      if (doze) shm_.doze_mark();
      if (looked && (try_progress() | (hooked && run_hook()))) {
        idle = 0;
        continue;
      }
      if (npolled_.load(std::memory_order_acquire) > 0) {
        // Channels with descriptors (another client, another job): yield
        // while polling (a host agent may need the core to move packets),
        // then block on their descriptors (a local record wakes us within
        // the nap).
        if (++idle < agent_spin_ || memory_waits_.load(std::memory_order_relaxed) > 0) {
          // (With no relay to yield to and a core of its own, a proc polls
          // without the syscall; nor does it yield to procs on its core that
          // only wait for it, or for each other.)
          if (relayed_.load(std::memory_order_relaxed) ||
              (oversubscribed_ && (local || !siblings_stalled(stall_until))))
            sched_yield();
          continue;
        }
        pollfd pf[kPollMax];
        const nfds_t npf = channels_to_sleep_on(pf);
        // Then look once more: a sender that published before it saw us asleep.
        if (try_progress() || done()) {
          awake();
          idle = 0;
          continue;
        }
        timespec nap{0, static_cast<long>(nap_us) * 1000};  // a local record waits at most this
        ::ppoll(pf, npf, &nap, nullptr);
        awake();
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
        if (!looked && (++hint_only_ & 15) != 0) {
#if defined(__x86_64__) || defined(__i386__)
          // (Each look reads the line the sender writes next: a pause
          // leaves it to the sender's store a little longer.)
          __builtin_ia32_pause();
#endif
          continue;
        }
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
      if (memory_waits_.load(std::memory_order_relaxed) > 0) {
        sched_yield();
        continue;
      }
      std::uint32_t seen = shm_.own().prepare_sleep();
      if (try_progress() || done()) {
        shm_.own().cancel_sleep();
        continue;
      }
      shm_.own().sleep(seen, nap_us);
      nap_us = std::min(nap_us * 2, 1000);
    }
  }

 private:
  // Polls before sleeping on the doorbell: long when every proc has a core,
  // short (and yielding) when procs outnumber cores.
  int spin_ = 2000;
  std::chrono::microseconds spin_us_{
      0};  // IMPI_SHM_SPIN_US: procs with a core each poll at least this long
  static constexpr std::size_t kPollMax =
      66;                         // descriptors watched in a blocking wait (beyond: the nap)
  std::vector<pollfd> wait_fds_;  // (under the lock)
  // The channels beside shared memory that every progress pass and
  // blocking wait call (the IMPI channel once attached, the dynamic one
  // while it listens). Under the lock; their number also lock-free.
  std::vector<Channel *> polled_;
  std::atomic<int> npolled_{0};
  // Messages go through a relay that needs a core (the host agent's thread):
  // waits yield to it. Set by the channels.
  std::atomic<bool> relayed_{false};
  // Under the lock: channel `c` has work in every pass from now on (or no longer).
  void poll_channel(Channel &c, bool on) {
    std::erase(polled_, &c);
    if (on) polled_.push_back(&c);
    npolled_.store(static_cast<int>(polled_.size()), std::memory_order_release);
  }
  // Before a blocking wait: the polled channels' descriptors into `pf` (at
  // most kPollMax), each channel counting us asleep. Under the lock: other
  // threads' sends and passes change the channels. Newest channel first (a
  // dynamic job's listener before a long list of host channels, should the
  // list be cut).
  nfds_t channels_to_sleep_on(pollfd (&pf)[kPollMax]) {
    nfds_t npf = 0;
    std::lock_guard<EngineLock> g(mu_);
    wait_fds_.clear();
    for (auto c = polled_.rbegin(); c != polled_.rend(); ++c) (*c)->pollfds(wait_fds_);
    for (std::size_t i = 0; i < wait_fds_.size() && npf < kPollMax; ++i) pf[npf++] = wait_fds_[i];
    for (Channel *c : polled_) c->sleeping(+1);
    return npf;
  }
  void awake() {  // after a blocking wait: the channels count us awake again
    std::lock_guard<EngineLock> g(mu_);
    for (Channel *c : polled_) c->sleeping(-1);
  }
  int agent_spin_ = 2000;  // multi-client jobs: yielding polls before blocking on the agent's link
  std::atomic<int> memory_waits_{0};  // (memory_wait)
  bool oversubscribed_ = false;
  std::vector<int> core_siblings_;
  // Whether the procs bound to our cpu are all of this client (its share
  // of the machine's procs), so that siblings_stalled() may be asked.
  bool sibling_spin_ = false;
  int machine_procs_ = 0;
  std::chrono::microseconds sibling_spin_us_{0};
  // A proc waiting on other clients' channels, oversubscribed: whether
  // every proc bound to its cpu dozes with nothing come for it since its
  // last look (segment.hpp), so that a yield would only switch to one of
  // them and back. For IMPI_COLL_SIBLING_SPIN_US from the first time it
  // says so per wait (`until`: that deadline, set here), never after: a
  // hint can be wrong (another job's procs on our cpu, a missed record).
  bool siblings_stalled(std::chrono::steady_clock::time_point &until) const;
  void set_oversubscribed(bool on);  // and the spin budgets that go with it
  void find_core_siblings(const std::vector<int> &local_world_ranks,
                          const std::vector<std::int64_t> &pids);

  bool progress_locked();
  // Lock-free: whether a channel may have work (a hint: another thread may
  // take the work first).
  bool work_hint() const {
    if (npolled_.load(std::memory_order_relaxed) > 0) return true;  // sockets: read in every pass
    return shm_.work_hint();
  }
  // A progress pass unless another thread is making one (then false).
  // `shm_only`: a pass over shared memory alone (no socket syscalls).
  bool try_progress(bool shm_only = false) {
    if (!mu_.try_lock()) return false;
    bool any = shm_only ? shm_.progress() : progress_locked();
    mu_.unlock();
    return any;
  }
  // Receive `recv` takes unexpected message `u`: its channel delivers what
  // it buffered, starts fetching the rest, acks the sender.
  void bind(const RequestPtr &recv, Match::MessageRef u);
  static void finish_recv(Request &r) {
    r.status.bytes = std::min(r.msg_len, r.total);
    if (r.msg_len > r.total && r.status.error == 0) r.status.error = kTruncated;
    r.done = true;  // last: publishes the status to waiting threads
  }

  // Runs the hook unless another thread (or this one, re-entering) is.
  bool run_hook() {
    if (hook_busy_.exchange(true, std::memory_order_acquire)) return false;
    bool any = false;
    for (auto &h : hooks_) any |= h();
    hook_busy_.store(false, std::memory_order_release);
    return any;
  }
  bool hook_wanted() const {
    return hook_work_.load(std::memory_order_relaxed) > 0;
  }
  std::vector<std::function<bool()>> hooks_;
  std::atomic<int> hook_work_{0};
  std::atomic<bool> hook_busy_{false};
  EngineLock mu_;
  TrafficCounters traffic_;
  bool agent_ = false;  // impi_ is attached (read on every wait)
  static inline thread_local unsigned hint_only_ IMPI_FAST_TLS = 0;
  static inline thread_local unsigned incoming_polls_ IMPI_FAST_TLS = 0;  // poll_incoming()
  int me_ = 0;
  int world_size_ = 1;
  Match match_;
  // Charges `n` buffered bytes of `u` to its sender (world index) against
  // the unexpected_limit_bytes tunable: past it the job ends with a clear
  // message instead of this process exhausting memory.
  void charge(Unexpected &u, int from_world, std::size_t n);
  std::uint64_t next_id_ = 1;  // ids of requests on the wire (sync ids, srqids, drqids)
  // The channels (declared last: they refer to the engine's members above).
  ShmChannel shm_;
  ImpiChannel impi_;
  DynChannel dyn_;
};

}  // namespace impi::core
