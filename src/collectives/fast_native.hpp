// fast_native.hpp - blocking Barrier, Bcast and Allreduce on communicators
// inside one client without the coroutine machinery (fast_native.cpp).
// They run the task versions' algorithms (schedule.hpp), so their messages
// are exactly those of the task versions.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "base/errc.hpp"
#include "collectives/collectives.hpp"
#include "core/communicator.hpp"
#include "core/p2p.hpp"
#include "core/request.hpp"
#include "pack/datatype.hpp"

namespace impi::core {
class P2P;
}

namespace impi::collectives {

// Whether `c` may take these paths: an intracommunicator of one client with
// more than one rank.
inline bool fast_native(const core::Communicator &c) {
  return !c.inter && !c.spans_clients && c.one_host && c.size > 1;
}
base::Status fast_barrier(core::P2P &p2p, const core::Communicator &c);
base::Status fast_bcast(core::P2P &p2p, const core::Communicator &c, void *buf, std::int64_t count,
                        const pack::TypePtr &type, int root);
// A proc other than its client's master, in a blocking IMPI Barrier or
// Allreduce on a communicator spanning clients: its part is local (the
// master's fan-in and fan-out, impi_barrier.cpp, impi_reduce.cpp and
// impi_bcast.cpp), done with plain calls and exactly their messages. It
// lies on the path of every such collective (the master waits for it),
// and the tasks' frames and views were about half of its cost.
base::Status nonmaster_barrier(core::P2P &p2p, const core::Communicator &c, int master);
// Allreduce (predefined operation): only for a leaf of the client's
// reduction tree, `pos` in `local` (the client's ranks, master first).
bool nonmaster_allreduce_leaf(const std::vector<int> &local, std::size_t pos);
base::Status nonmaster_allreduce(core::P2P &p2p, const core::Communicator &c,
                                 const std::vector<int> &local, std::size_t pos,
                                 const void *sendbuf, void *recvbuf, std::int64_t count,
                                 const pack::TypePtr &type);
// coll_allreduce_ring_min, read once (a tunable lookup costs more than a small collective).
std::int64_t allreduce_ring_min();
// Only where allreduce_task would use recursive doubling: a commutative
// operation on a vector below coll_allreduce_ring_min bytes (or fewer
// elements than ranks).
// `combine(ctx, in, inout)` folds `count` instances of `in` into `inout`
// (a plain function: building a Reduction's std::functions costs more than
// a 2-proc Allreduce of 8 bytes).
struct Combine {
  void (*fn)(const void *ctx, const void *in, void *inout);
  const void *ctx;
};
base::Status fast_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                            void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                            Combine op);
// MPI_COMM_WORLD of a job on one node, a small vector of a plain type
// (contiguous, lb 0, no gaps; at most CollSlot::kBytes): each rank
// publishes its vector in its segment's collective slot and folds every
// rank's, in rank order (the same result everywhere). One cache-line trip
// per peer instead of log2(p) message rounds; when procs outnumber cores
// each waits for p - 1 others once, not for a chain of partners.
bool slots_allreduce_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                        const pack::TypePtr &type);
// Whether an Allreduce's vector fits a slot (any communicator's: own slots).
bool slots_fit_allreduce(std::int64_t count, const pack::TypePtr &type);
// Whether a Bcast's vector fits a slot.
bool slots_fit_bcast(std::int64_t count, const pack::TypePtr &type);
base::Status slots_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                             void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                             Combine op);
// MPI_COMM_WORLD's Barrier on one node, through the same slots (and the
// same sequence of operations: every rank makes the same world calls in
// the same order): publish, then wait until every rank has published.
bool slots_barrier_ok(core::P2P &p2p, const core::Communicator &c);
base::Status slots_barrier(core::P2P &p2p, const core::Communicator &c);
// ---- The slots' operations without blocking (persistent collectives,
// src/api/coll_persistent.cpp): the init call checks that the operation
// may take the slots and prepares a SlotOp; each MPI_Start queues it and
// publishes this proc's contribution at once when no earlier slot
// operation of ours is pending (else when the earlier ones complete: a
// proc publishes operation g only after it completed g - 1, the slots'
// rule); the progress hook (slots_progress) completes the queue's head
// once every rank's slot holds its number, folding or copying as the
// blocking forms do. The blocking slot operations first wait for the
// queue, so the numbers follow the program's order of world collectives.
struct SlotOp {
  // exchange: an Allreduce by recursive doubling with messages (a
  // power-of-two communicator, a vector larger than a slot), step by step.
  enum class Kind : std::uint8_t { barrier, bcast, reduce, allreduce, exchange };
  Kind kind = Kind::barrier;
  const core::Communicator *comm = nullptr;  // MPI_COMM_WORLD's
  const void *sendbuf = nullptr;             // reduce, allreduce (may be recvbuf)
  void *recvbuf = nullptr;                   // bcast: the buffer
  std::int64_t count = 0;
  pack::TypePtr type;
  int root = 0;   // bcast, reduce
  Reduction red;  // reduce, allreduce: a predefined operation's

  // Of the current start (the hook's, under its lock): `own`, the
  // operation's one request, reset at each start (none made and released
  // per start); `queued` while in the queue (which holds plain pointers:
  // no reference count changes per start); `orphan`: its owner released
  // it while queued (slots_release), the queue's to free.
  core::Request own;
  bool queued = false;
  bool orphan = false;
  std::uint64_t g = 0;  // its operation number, once published
  int next = 0;         // the next rank whose slot it waits for
  bool published = false;
  // exchange: the partner's data, the step (its mask), the receive and send in flight.
  std::vector<std::byte> tmp;
  int mask = 0;
  core::RequestPtr rreq, sreq;
  // Own slots (own_slots_take): the pair it took in every proc's segment,
  // or -1 (MPI_COMM_WORLD's queue); `g` then counts its own starts.
  int own_slot = -1;
  // Own slots: the communicator's world ranks and our rank, copied (its
  // duplicate goes with the request, before an orphan completes; `comm`
  // is then null).
  std::vector<int> world;
  int rank = 0;
};
// ---- Own slots: a persistent collective on an intracommunicator of
// procs of a job in one client (each unasserted request has a duplicate
// of its communicator) may take a pair of slots of its own in every
// member's segment (SegmentHeader::own) for its life. Its starts then
// publish at once and complete as soon as the others' contributions have
// come, whatever the order of other operations: no queue, no messages.
// The pair is the lowest one free in every member, agreed by the init
// call with an Allreduce (MAX) of own_slots_offer: per pair whether it is
// in use, then its highest number, from which the operation counts. A
// proc's pair k is read only by the members of the request that holds it;
// a proc keeps k until it frees its request, and then does not offer k
// again until every member of that request has released its own k
// (SegmentHeader::own_released: its reads are done), so no later request,
// whatever its members, writes k while a reader of the earlier one may
// still look. The offer reserves the pairs it calls free until
// own_slots_take (another thread's init call meanwhile finds them in use).
constexpr int kOwnOffer = 2 * transport::shm::SegmentHeader::kOwnSlots;
// Whether `c` may take own slots (the same answer on every rank; an
// operation's size must fit a slot besides).
bool own_slots_ok(core::P2P &p2p, const core::Communicator &c);
// ---- Comm slots: blocking Barrier and small Allreduce (a predefined
// operation on a vector that fits a slot) on an intracommunicator of
// procs of a job in one client other than MPI_COMM_WORLD (a duplicate, a
// split) take a pair of own slots for the communicator's life
// (Communicator::slot_pair), agreed as a persistent request's is on the
// third such call; each call then publishes and folds as the world's
// slots do, with no messages. False: no pair (not yet, or none free; the
// same on every member): the caller goes on with messages.
bool comm_slots_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                          void *recvbuf, std::int64_t count, const pack::TypePtr &type, Combine op);
bool comm_slots_barrier(core::P2P &p2p, const core::Communicator &c);
// Returns the pairs it reserved, for own_slots_take.
std::uint32_t own_slots_offer(core::P2P &p2p, const core::Communicator &c,
                              std::uint64_t (&out)[kOwnOffer]);
// Takes the agreed pair for `op` (false: none free; then the queue or
// messages) and releases the other reserved ones (agreed all 1: all).
bool own_slots_take(SlotOp &op, const std::uint64_t (&agreed)[kOwnOffer], std::uint32_t reserved);
// Whether a persistent Allreduce may take the exchange kind (MPI_COMM_WORLD
// in one client, a power-of-two size, a predefined type; larger than a slot,
// below the ring's size).
bool slots_exchange_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                       const pack::TypePtr &type);

// Whether Bcast of `count` of `type` may take the slots (any layout: the
// root packs, the others unpack; the size alone decides, the same on
// every rank).
bool slots_bcast_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                    const pack::TypePtr &type);
// Queues `op` (inactive; its owner keeps it alive, or hands it to
// slots_release); its request (borrowed: `op.own`) completes with the
// operation.
core::RequestPtr slots_start(core::P2P &p2p, SlotOp &op);
// The owner's release of `op` (its persistent request freed): freed now
// if not queued, else when its operation completes.
void slots_release(std::shared_ptr<SlotOp> op);
// Waits until `r` (from slots_start) is complete. With a core of its own
// a proc watches the slot its operation waits for and completes it there,
// with an engine pass only now and then, rather than a full pass per look
// (what MPI_Wait does for any request); oversubscribed, as MPI_Wait does.
void slots_wait(core::P2P &p2p, const core::Request &r, SlotOp &op);
// Installs slots_progress as a progress hook (MPI_Init).
void install_slots_hook(core::P2P &p2p);
// Adds `d` to counter `a`, which progress passes read without a lock: an
// atomic add where other threads may call MPI, else a plain store (a
// locked instruction right after stores into shared memory waits until
// they have reached the other procs' caches).
inline void count_add(const core::P2P &p2p, std::atomic<int> &a, int d) {
  if (p2p.threads_enabled())
    a.fetch_add(d, std::memory_order_acq_rel);
  else
    a.store(a.load(std::memory_order_relaxed) + d, std::memory_order_release);
}
// A mutex taken only where other threads may call MPI.
class MaybeLock {
 public:
  MaybeLock(std::mutex &m, const core::P2P &p2p) : m_(m), on_(p2p.threads_enabled()) { lock(); }
  MaybeLock(const MaybeLock &) = delete;
  MaybeLock &operator=(const MaybeLock &) = delete;
  ~MaybeLock() {
    if (held_) unlock();
  }
  void lock() {
    if (on_) m_.lock();
    held_ = true;
  }
  void unlock() {
    if (on_) m_.unlock();
    held_ = false;
  }

 private:
  std::mutex &m_;
  bool on_, held_ = false;
};
inline Combine combine_of(const Reduction &r) {
  return {[](const void *ctx, const void *in, void *inout) {
            static_cast<const Reduction *>(ctx)->combine(in, inout);
          },
          &r};
}

}  // namespace impi::collectives
