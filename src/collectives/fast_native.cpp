// fast_native.cpp - the blocking Barrier, Bcast and small Allreduce of a
// communicator inside one client: the algorithms of schedule.hpp (the
// coroutine versions' too, so the messages on the wire are exactly theirs)
// with each step done at once by a plain blocking call. No coroutine
// frames, no driver loop and no CommView (which copies the group into
// vectors): about half the cost of a small 2-proc call. Small messages go
// straight into the ring (P2P::send_now).
// MPI_COMM_WORLD on one node has its own Barrier and small Allreduce
// through the shared-memory collective slots (slots_*).
#include "collectives/fast_native.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <span>
#include <utility>

#include "base/tunables.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/impi.hpp"
#include "collectives/schedule.hpp"
#include "core/p2p.hpp"
#include "pack/cursor.hpp"
#include "pack/predefined.hpp"
#include "pack/reduce.hpp"
#include "transport/shm/segment.hpp"

namespace impi::collectives {

namespace {

// Blocking sends and receives on the collective context (CommView's,
// without a copy of the group).
struct Direct {
  core::P2P &p2p;
  const core::Communicator &c;
  int context;        // the collective context: cid + 1
  bool doze = false;  // receives through shared memory wait as the tasks' do (P2P::wait_until)

  base::Status send(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
                    int tag) const {
    int w = c.world[static_cast<std::size_t>(dest)];
    core::Channel &via = *c.channels[static_cast<std::size_t>(dest)];
    if (p2p.send_now(via, buf, count, type, w, c.rank, tag, context)) return {};
    auto x = p2p.start_send(via, buf, count, type, w, c.rank, tag, context, false, true);
    if (!x) return {x.error(), x.message()};
    core::RequestPtr r = std::move(x.value());
    p2p.wait_until([&] { return p2p.completed(*r); });
    if (r->status.error != 0)
      return {base::Errc::io_error, "a collective's message could not be sent"};
    return {};
  }

  static base::Status received(const core::Request &r) {
    if (r.status.error == core::kTruncated)
      return {base::Errc::truncated, "a collective's message was longer than its receive buffer"};
    if (r.status.error != 0)
      return {base::Errc::io_error, "a collective's message could not be received"};
    return {};
  }

  base::Status recv(void *buf, std::int64_t count, const pack::TypePtr &type, int source,
                    int tag) const {
    core::Request storage{};
    auto r = p2p.irecv(buf, count, type, source, tag, context, &storage);
    p2p.wait_until(
        [&] { return p2p.completed(*r); },
        doze && c.channels[static_cast<std::size_t>(source)]->kind() == core::Channel::Kind::shm);
    return received(*r);
  }

  // Receive posted first, then the send: no deadlock whatever the peer's order.
  base::Status exchange(const void *sbuf, std::int64_t scount, const pack::TypePtr &stype, int dest,
                        void *rbuf, std::int64_t rcount, const pack::TypePtr &rtype, int source,
                        int tag) const {
    core::Request storage{};
    auto r = p2p.irecv(rbuf, rcount, rtype, source, tag, context, &storage);
    if (auto s = send(sbuf, scount, stype, dest, tag); !s.ok()) {
      if (!p2p.completed(*r) && !p2p.cancel(r)) p2p.wait_until([&] { return p2p.completed(*r); });
      return s;
    }
    p2p.wait_until([&] { return p2p.completed(*r); });
    return received(*r);
  }
};

// Does the steps of a schedule (schedule.hpp) as the algorithm hands them
// over, with `tag`. After an error it does nothing more; `status` tells.
// Inlined into the caller, it costs next to nothing: the status is the
// caller's, returned by name (a Status holds a string, and moving one
// costs more than a step's own work), and the Direct lives outside, so
// that nothing here has its address taken and the parts are plain values.
struct Run {
  base::Status &status;
  const Direct &d;
  Parts b;
  int tag;
  Combine op = {};

  void send(int to, Part p) {
    if (status.ok())
      if (auto r = d.send(b.at(p), b.count, *b.type, to, tag); !r.ok()) status = std::move(r);
  }
  void recv(int from, Part p) {
    if (status.ok())
      if (auto r = d.recv(b.at(p), b.count, *b.type, from, tag); !r.ok()) status = std::move(r);
  }
  void exchange(int to, Part out, int from, Part in) {
    if (!status.ok()) return;
    if (auto r = d.exchange(b.at(out), b.count, *b.type, to, b.at(in), b.count, *b.type, from, tag);
        !r.ok())
      status = std::move(r);
  }
  void fold() {
    if (status.ok()) op.fn(op.ctx, b.tmp, b.data);
  }
};

}  // namespace

std::int64_t allreduce_ring_min() {
  static const std::int64_t v = base::get_int("coll_allreduce_ring_min");
  return v;
}

base::Status fast_barrier(core::P2P &p2p, const core::Communicator &c) {
  const Direct d{p2p, c, c.context_id + 1};
  base::Status s;
  Run run{s, d, {.type = &pack::Datatype::predefined(pack::dt::byte)}, kDisseminationTag};
  dissemination_barrier(run, c.rank, c.size);
  return s;
}

base::Status fast_bcast(core::P2P &p2p, const core::Communicator &c, void *buf, std::int64_t count,
                        const pack::TypePtr &type, int root) {
  const Direct d{p2p, c, c.context_id + 1};
  base::Status s;
  Run run{s, d, {.data = buf, .count = count, .type = &type}, kBcastTag};
  // bcast_task's: over all ranks in rank order.
  binomial_bcast(run, static_cast<std::size_t>(c.size), static_cast<std::size_t>(c.rank),
                 static_cast<std::size_t>(root),
                 [](std::size_t pos) { return static_cast<int>(pos); });
  return s;
}

base::Status fast_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                            void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                            Combine op) {
  TypedBuffer tmp(type, count);
  copy_typed(sendbuf, recvbuf, type, count);  // recvbuf is the accumulator
  const Direct d{p2p, c, c.context_id + 1};
  base::Status s;
  Run run{s, d, {recvbuf, tmp.get(), count, &type}, kReduceTag, op};
  recursive_doubling_allreduce(run, c.rank, c.size);
  return s;
}

base::Status nonmaster_barrier(core::P2P &p2p, const core::Communicator &c, int master) {
  // impi_barrier's part for a non-master: fan in, then the fan-out.
  if (!c.channels[static_cast<std::size_t>(master)])
    return {base::Errc::invalid_argument, "a collective's peer cannot be reached"};
  const Direct d{p2p, c, c.context_id + 1, true};
  const auto &byte = pack::Datatype::predefined(pack::dt::byte);
  if (auto s = d.send(nullptr, 0, byte, master, kBarrierTag); !s.ok()) return s;
  return d.recv(nullptr, 0, byte, master, kBarrierTag);
}

bool nonmaster_allreduce_leaf(const std::vector<int> &local, std::size_t pos) {
  return pos > 0 && pos < local.size() && ((pos & 1) || pos + 1 >= local.size());
}

base::Status nonmaster_allreduce(core::P2P &p2p, const core::Communicator &c,
                                 const std::vector<int> &local, std::size_t pos,
                                 const void *sendbuf, void *recvbuf, std::int64_t count,
                                 const pack::TypePtr &type) {
  // impi_reduce's local phase for a leaf of reduce_binomial (rooted at
  // position 0, the master: Allreduce's root is rank 0, master 0), then
  // impi_bcast's local phase (bcast_binomial from position 0).
  for (int r : local)  // (as the tasks' messages: an error, not a crash, without a route)
    if (r != c.rank && !c.channels[static_cast<std::size_t>(r)])
      return {base::Errc::invalid_argument, "a collective's peer cannot be reached"};
  const Direct d{p2p, c, c.context_id + 1, true};
  const std::size_t parent = pos - (pos & (~pos + 1));
  if (auto s = d.send(sendbuf, count, type, local[parent], kReduceTag); !s.ok()) return s;
  base::Status s;
  Run run{s, d, {.data = recvbuf, .count = count, .type = &type}, kBcastTag};
  binomial_bcast(run, local.size(), pos, 0, [&](std::size_t p) { return local[p]; });
  return s;
}

bool slots_fit_allreduce(std::int64_t count, const pack::TypePtr &type) {
  return count > 0 && type->is_contiguous() && type->lb() == 0 && type->extent() == type->size() &&
         count * type->size() <= static_cast<std::int64_t>(transport::shm::CollSlot::kBytes);
}

bool slots_allreduce_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                        const pack::TypePtr &type) {
  return c.context_id == 0 && !c.inter && !c.spans_clients && c.size > 1 &&
         slots_fit_allreduce(count, type) && p2p.world_slots();
}

namespace {
// The started slot operations (SlotOp) in their order, the head the only
// one published and not complete; their number, read without the lock.
std::mutex g_slot_mu;
std::deque<SlotOp *> g_slot_ops;
// Queued operations whose owners released them (slots_release), freed
// when they complete.
std::vector<std::shared_ptr<SlotOp>> g_slot_orphans;
std::atomic<int> g_slot_pending{0};
// What the head waits for (the slot of the next rank it needs, and the
// number), set under the lock: the hook looks there first, without the
// lock, and returns at once while it has not come (a hint only: a stale
// one costs one pass).
std::atomic<const std::atomic<std::uint64_t> *> g_watch{nullptr};
std::atomic<std::uint64_t> g_watch_g{0};
// Own slots: the pairs this proc's requests hold (a bit each), and the
// started operations on them not complete (progressed by the hook too,
// in any order), their number read without the lock.
std::uint32_t g_own_used = 0;
std::vector<SlotOp *> g_own_active;
std::atomic<int> g_own_pending{0};
// Per pair, the members (world ranks) of the request that last held it
// here and its last operation number: while one of them has not released
// its own pair from that request (SegmentHeader::own_released), it may
// still read ours, and the pair is not offered.
struct OwnPrev {
  std::vector<int> world;
  std::uint64_t g = 0;
};
// (Never destroyed: communicators the program did not free release their
// pairs at exit, in the handle table's destructor, whatever the order.)
OwnPrev *const g_own_prev = new OwnPrev[transport::shm::SegmentHeader::kOwnSlots];
core::P2P *g_p2p = nullptr;  // (install_slots_hook's)

// `op` gives its pair back (under g_slot_mu; complete, never to be read
// by us again).
void own_release(SlotOp &op) {
  const int k = op.own_slot;
  g_own_used &= ~(1u << k);
  g_own_prev[k].world = op.world;
  g_own_prev[k].g = op.g;
  if (g_p2p)
    g_p2p->own_released(op.world[static_cast<std::size_t>(op.rank)], k)
        .store(op.g, std::memory_order_release);
}

// Fills this proc's slot for the next slot operation on MPI_COMM_WORLD
// (`fill(data)`), then publishes it; returns its number.
template <typename Fill>
std::uint64_t slots_publish_with(core::P2P &p2p, const core::Communicator &c, Fill fill) {
  const std::uint64_t g = p2p.next_world_slot_op();
  auto &mine = p2p.slot(c.world[static_cast<std::size_t>(c.rank)], static_cast<int>(g & 1));
  fill(mine.data);
  mine.seq.store(g, std::memory_order_release);
  p2p.ring_all_doorbells();
  return g;
}

// A blocking slot operation comes after the started ones: it waits until
// they have completed (the hook completes them meanwhile).
void slots_drain(core::P2P &p2p) {
  if (g_slot_pending.load(std::memory_order_acquire) == 0) return;
  p2p.wait_until([] { return g_slot_pending.load(std::memory_order_acquire) == 0; });
}

// Publishes `n` bytes as this proc's contribution to the next slot
// operation on MPI_COMM_WORLD; returns its number.
std::uint64_t slots_publish(core::P2P &p2p, const core::Communicator &c, const void *data,
                            std::size_t n) {
  slots_drain(p2p);
  return slots_publish_with(p2p, c, [&](std::byte *to) {
    if (n > 0) std::memcpy(to, data, n);
  });
}

// Waits until `seq` (a slot's) has reached operation g, or `done()`.
// Reached, not holds: a slot's number only grows, and a wait on a number
// read earlier (slots_wait's watch) may see the slot move past it while
// its passes (the hook runs in them) complete the operations meanwhile;
// the proc would then wait for a number that never comes again, and the
// others for its next one (pcoll_order_np4, oversubscribed, hung so).
// `slot_of(w)`: world rank w's slot of the same operation (g's).
template <typename Done, typename SlotOf>
void await_seq(core::P2P &p2p, const std::atomic<std::uint64_t> &seq, std::uint64_t g, Done done,
               SlotOf slot_of) {
  if (seq.load(std::memory_order_acquire) >= g) return;
  auto ready = [&] { return seq.load(std::memory_order_acquire) >= g || done(); };
  if (p2p.oversubscribed()) {
    // The peer needs our core: yield at once, and make a progress pass
    // only now and then (it costs more than the look at its slot).
    // Except when every proc bound to our cpu has published g already:
    // they wait for the same procs as we do, on other cores, and a yield
    // would only switch to one of them and back. Then poll (briefly: a
    // guess about the binding that is wrong costs a yield's delay).
    const auto &sib = p2p.core_siblings();
    auto siblings_in = [&] {
      for (int w : sib)
        if (slot_of(w).seq.load(std::memory_order_acquire) < g) return false;
      return true;
    };
    static const auto spin = std::chrono::microseconds(base::get_int("coll_sibling_spin_us"));
    for (int i = 1; i <= 256 && !ready(); ++i) {
      if (!sib.empty() && spin.count() > 0 && siblings_in()) {
        const auto until = std::chrono::steady_clock::now() + spin;
        for (int k = 1; !ready(); ++k) {
          __builtin_ia32_pause();
          if ((k & 63) == 0 && std::chrono::steady_clock::now() > until) break;
        }
        if (ready()) break;
      }
      sched_yield();
      if ((i & 15) == 0) p2p.progress();
    }
  }
  if (!ready()) p2p.wait_until(ready);
}

// The world slots of operation g, by world rank (await_seq's `slot_of`).
auto world_slot_of(core::P2P &p2p, std::uint64_t g) {
  return [&p2p, g](int w) -> transport::shm::CollSlot & {
    return p2p.slot(w, static_cast<int>(g & 1));
  };
}

// Rank r's slot once it holds operation g.
transport::shm::CollSlot &slots_await(core::P2P &p2p, const core::Communicator &c, int r,
                                      std::uint64_t g) {
  auto &s = p2p.slot(c.world[static_cast<std::size_t>(r)], static_cast<int>(g & 1));
  await_seq(
      p2p, s.seq, g, [] { return false; }, world_slot_of(p2p, g));
  return s;
}
}  // namespace

base::Status slots_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                             void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                             Combine op) {
  const auto n = static_cast<std::size_t>(count * type->size());
  // (sendbuf may be recvbuf: it is copied before recvbuf is written)
  const std::uint64_t g = slots_publish(p2p, c, sendbuf, n);
  for (int r = 0; r < c.size; ++r) {
    auto &s = slots_await(p2p, c, r, g);
    if (r == 0)
      std::memcpy(recvbuf, s.data, n);
    else
      op.fn(op.ctx, s.data, recvbuf);
  }
  return {};
}

bool slots_barrier_ok(core::P2P &p2p, const core::Communicator &c) {
  return c.context_id == 0 && !c.inter && !c.spans_clients && c.size > 1 && p2p.world_slots();
}

base::Status slots_barrier(core::P2P &p2p, const core::Communicator &c) {
  const std::uint64_t g = slots_publish(p2p, c, nullptr, 0);
  for (int r = 0; r < c.size; ++r) slots_await(p2p, c, r, g);
  return {};
}

bool slots_fit_bcast(std::int64_t count, const pack::TypePtr &type) {
  return count >= 0 &&
         count * type->size() <= static_cast<std::int64_t>(transport::shm::CollSlot::kBytes);
}

bool slots_bcast_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                    const pack::TypePtr &type) {
  return c.context_id == 0 && !c.inter && !c.spans_clients && c.size > 1 &&
         slots_fit_bcast(count, type) && p2p.world_slots();
}

bool slots_exchange_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                       const pack::TypePtr &type) {
  const std::int64_t n = count * type->size();
  return c.context_id == 0 && !c.inter && !c.spans_clients && c.size > 1 &&
         (c.size & (c.size - 1)) == 0 && type->is_predefined() && p2p.world_slots() &&
         n > static_cast<std::int64_t>(transport::shm::CollSlot::kBytes) &&
         n < allreduce_ring_min();
}

namespace {

constexpr int kExchangeTag = 240;  // (the persistent exchanges' own: no other collective's)

// The exchange kind's steps: true when complete.
bool exchange_advance(core::P2P &p2p, SlotOp &op) {
  const auto &c = *op.comm;
  const auto n = static_cast<std::size_t>(op.count * op.type->size());
  const int context = c.context_id + 1;
  if (!op.published) {
    if (op.sendbuf != op.recvbuf) std::memcpy(op.recvbuf, op.sendbuf, n);
    op.tmp.resize(n);
    op.mask = 1;
    op.published = true;
  }
  while (op.mask < c.size) {
    const int partner = c.rank ^ op.mask;
    if (!op.rreq) {
      op.rreq = p2p.irecv(op.tmp.data(), op.count, op.type, partner, kExchangeTag, context, nullptr,
                          c.world[static_cast<std::size_t>(partner)]);
      core::Channel &via = *c.channels[static_cast<std::size_t>(partner)];
      const int w = c.world[static_cast<std::size_t>(partner)];
      if (!p2p.send_now(via, op.recvbuf, op.count, op.type, w, c.rank, kExchangeTag, context)) {
        auto x = p2p.start_send(via, op.recvbuf, op.count, op.type, w, c.rank, kExchangeTag,
                                context, false, true);
        if (x) op.sreq = std::move(x.value());
      }
    }
    if (!p2p.completed(*op.rreq) || (op.sreq && !p2p.completed(*op.sreq))) return false;
    op.rreq = {};
    op.sreq = {};
    op.red.combine(op.tmp.data(), op.recvbuf);  // (commutative predefined operations)
    op.mask <<= 1;
  }
  return true;
}

// Our rank and the size of `op`'s communicator (own slots: the copies).
int op_rank(const SlotOp &op) {
  return op.own_slot >= 0 ? op.rank : op.comm->rank;
}
int op_size(const SlotOp &op) {
  return op.own_slot >= 0 ? static_cast<int>(op.world.size()) : op.comm->size;
}
// Rank r's slot of `op`'s current operation (op.g): its own pair's, or
// the world's.
transport::shm::CollSlot &op_slot(core::P2P &p2p, const SlotOp &op, int r) {
  const int w = (op.own_slot >= 0 ? op.world : op.comm->world)[static_cast<std::size_t>(r)];
  const int parity = static_cast<int>(op.g & 1);
  return op.own_slot >= 0 ? p2p.own_slot(w, op.own_slot, parity) : p2p.slot(w, parity);
}

std::size_t slot_bytes(const SlotOp &op) {
  return op.type ? static_cast<std::size_t>(op.count * op.type->size()) : 0;
}

// The queue's head: this proc's contribution (the root's vector for Bcast).
void slot_publish(core::P2P &p2p, SlotOp &op) {
  const int rank = op_rank(op);
  const std::size_t n = slot_bytes(op);
  auto fill = [&](std::byte *to) {
    switch (op.kind) {
      case SlotOp::Kind::barrier:
      case SlotOp::Kind::exchange:  // (not published: exchange_advance)
        break;
      case SlotOp::Kind::bcast:
        if (rank == op.root && n > 0) {
          pack::PackCursor cur(op.type, op.count);
          cur.pack(op.recvbuf, std::span<std::byte>(to, n));
        }
        break;
      case SlotOp::Kind::reduce:
      case SlotOp::Kind::allreduce:
        std::memcpy(to, op.sendbuf, n);  // (sendbuf may be recvbuf: copied before it is written)
        break;
    }
  };
  if (op.own_slot >= 0) {
    // (Its previous start completed here: every rank has published op.g,
    // after reading op.g - 1, which this one overwrites.)
    ++op.g;
    auto &mine = op_slot(p2p, op, rank);
    fill(mine.data);
    mine.seq.store(op.g, std::memory_order_release);
    p2p.ring_all_doorbells();
  } else {
    op.g = slots_publish_with(p2p, *op.comm, fill);
  }
  op.next = 0;
  op.published = true;
}

// Whether the published head is complete: every rank's slot holds its
// number. Folds the slots that have come, in rank order (the blocking
// form's order: the same result everywhere), and resumes there next time.
bool slot_advance(core::P2P &p2p, SlotOp &op) {
  const int rank = op_rank(op), size = op_size(op);
  const std::size_t n = slot_bytes(op);
  const bool folds =
      op.kind == SlotOp::Kind::allreduce || (op.kind == SlotOp::Kind::reduce && rank == op.root);
  for (; op.next < size; ++op.next) {
    auto &s = op_slot(p2p, op, op.next);
    if (s.seq.load(std::memory_order_acquire) != op.g) {
      if (op.own_slot < 0) {
        g_watch_g.store(op.g, std::memory_order_relaxed);
        g_watch.store(&s.seq, std::memory_order_release);
      }
      return false;
    }
    if (!folds) continue;
    if (op.next == 0)
      std::memcpy(op.recvbuf, s.data, n);
    else
      op.red.combine(s.data, op.recvbuf);
  }
  if (op.kind == SlotOp::Kind::bcast && rank != op.root && n > 0) {
    auto &s = op_slot(p2p, op, op.root);
    pack::PackCursor cur(op.type, op.count);
    cur.unpack(op.recvbuf, std::span<const std::byte>(s.data, n));
  }
  return true;
}

// Publishes and completes the queue's operations in order (under g_slot_mu).
bool slots_progress_locked(core::P2P &p2p) {
  bool any = false;
  g_watch.store(nullptr, std::memory_order_relaxed);
  while (!g_slot_ops.empty()) {
    SlotOp &op = *g_slot_ops.front();
    if (op.kind == SlotOp::Kind::exchange) {
      if (!exchange_advance(p2p, op)) break;
    } else if (!op.published) {
      slot_publish(p2p, op);
      any = true;
    }
    if (op.kind != SlotOp::Kind::exchange && !slot_advance(p2p, op)) break;
    g_slot_ops.pop_front();
    op.queued = false;
    count_add(p2p, g_slot_pending, -1);
    count_add(p2p, p2p.hook_work(), -1);
    any = true;
    if (op.orphan) {  // (nobody waits for it: freed now)
      std::erase_if(g_slot_orphans, [&](const auto &o) { return o.get() == &op; });
      continue;
    }
    op.own.done = true;  // (last: a waiter may start the operation again at once)
  }
  return any;
}

// An own-slot operation is complete (under g_slot_mu): off the active
// list; its waiter sees it done, or, released, it is freed with its pair.
void own_complete(core::P2P &p2p, SlotOp &op) {
  std::erase(g_own_active, &op);
  op.queued = false;
  count_add(p2p, g_own_pending, -1);
  count_add(p2p, p2p.hook_work(), -1);
  if (op.orphan) {
    own_release(op);
    std::erase_if(g_slot_orphans, [&](const auto &o) { return o.get() == &op; });
    return;
  }
  op.own.done = true;
}

// Completes the own-slot operations whose contributions have all come.
bool own_progress(core::P2P &p2p) {
  MaybeLock lk(g_slot_mu, p2p);
  bool any = false;
  for (std::size_t i = 0; i < g_own_active.size();) {
    SlotOp &op = *g_own_active[i];
    if (slot_advance(p2p, op)) {
      own_complete(p2p, op);
      any = true;
    } else {
      ++i;
    }
  }
  return any;
}

// An own-slot operation's wait: watches the slot it waits for and
// completes it there (an engine pass now and then); oversubscribed, yields
// as the world's slots' waits do.
void own_wait(core::P2P &p2p, SlotOp &op) {
  auto step = [&] {
    MaybeLock lk(g_slot_mu, p2p);
    if (op.queued && slot_advance(p2p, op)) own_complete(p2p, op);
  };
  if (p2p.threads_enabled()) {
    // (Another thread's pass may advance it meanwhile: every look under the lock.)
    p2p.wait_until([&] {
      if (!p2p.completed(op.own)) step();
      return p2p.completed(op.own);
    });
    return;
  }
  if (p2p.oversubscribed()) {
    while (!op.own.done) {
      await_seq(
          p2p, op_slot(p2p, op, op.next).seq, op.g, [&] { return static_cast<bool>(op.own.done); },
          [&](int w) -> transport::shm::CollSlot & {
            // (A proc bound to our cpu that is not a member: ours, published.)
            if (std::find(op.world.begin(), op.world.end(), w) == op.world.end())
              w = op.world[static_cast<std::size_t>(op.rank)];
            return p2p.own_slot(w, op.own_slot, static_cast<int>(op.g & 1));
          });
      step();
    }
    return;
  }
  for (unsigned n = 1; !op.own.done; ++n) {
    if (op_slot(p2p, op, op.next).seq.load(std::memory_order_acquire) >= op.g)
      step();
    else if ((n & 63) == 0)
      p2p.progress();  // the rest of the engine (a peer may wait for our other work)
    else
      __builtin_ia32_pause();
  }
}

// The hook: the own-slot operations, then slots_progress_locked, when what
// the queue's head waits for has come.
bool slots_progress(core::P2P &p2p) {
  bool any = false;
  if (g_own_pending.load(std::memory_order_acquire) > 0) any = own_progress(p2p);
  if (g_slot_pending.load(std::memory_order_acquire) == 0) return any;
  if (const auto *w = g_watch.load(std::memory_order_acquire);
      w && w->load(std::memory_order_acquire) < g_watch_g.load(std::memory_order_relaxed))
    return any;
  MaybeLock lk(g_slot_mu, p2p);
  return slots_progress_locked(p2p) || any;
}

}  // namespace

core::RequestPtr slots_start(core::P2P &p2p, SlotOp &op) {
  // (Inactive: nothing else touches `own` now.)
  op.own.kind = core::Request::Kind::recv;
  op.own.status = {};
  op.own.status.source = -1;  // (the API reports an empty status)
  op.own.cancelled = false;
  op.own.done = false;
  MaybeLock lk(g_slot_mu, p2p);
  if (op.own_slot >= 0) {
    // Published at once, complete at once when the others' have come.
    slot_publish(p2p, op);
    if (slot_advance(p2p, op)) {
      op.own.done = true;
    } else {
      op.queued = true;
      g_own_active.push_back(&op);
      count_add(p2p, g_own_pending, 1);
      count_add(p2p, p2p.hook_work(), 1);
    }
    return core::RequestPtr::borrow(&op.own);
  }
  op.published = false;
  op.next = 0;
  op.queued = true;
  g_slot_ops.push_back(&op);
  count_add(p2p, g_slot_pending, 1);
  count_add(p2p, p2p.hook_work(), 1);
  slots_progress_locked(p2p);  // publishes at once when nothing of ours is ahead
  return core::RequestPtr::borrow(&op.own);
}

void slots_release(std::shared_ptr<SlotOp> op) {
  // (Rare: a plain lock whatever the thread level.)
  std::lock_guard<std::mutex> lk(g_slot_mu);
  if (!op) return;
  if (!op->queued) {  // (freed on return)
    if (op->own_slot >= 0) own_release(*op);
    return;
  }
  op->orphan = true;
  g_slot_orphans.push_back(std::move(op));
}

void slots_wait(core::P2P &p2p, const core::Request &r, SlotOp &op) {
  if (op.own_slot >= 0) {
    own_wait(p2p, op);
    return;
  }
  if (p2p.oversubscribed()) {
    if (p2p.threads_enabled()) {
      p2p.wait_until([&] { return p2p.completed(r); });
      return;
    }
    // As the blocking forms wait: for the slot the head waits for (the
    // watch: only this thread sets it), then a pass to complete it. No
    // watch: an exchange's messages, which the engine's passes bring.
    while (!p2p.completed(r)) {
      const auto *w = g_watch.load(std::memory_order_acquire);
      if (!w) {
        p2p.wait_until(
            [&] { return p2p.completed(r) || g_watch.load(std::memory_order_acquire) != nullptr; });
        continue;
      }
      const std::uint64_t g = g_watch_g.load(std::memory_order_relaxed);
      await_seq(
          p2p, *w, g, [&] { return p2p.completed(r); }, world_slot_of(p2p, g));
      slots_progress(p2p);
    }
    return;
  }
  for (unsigned n = 1; !p2p.completed(r); ++n) {
    const auto *w = g_watch.load(std::memory_order_acquire);
    if (!w)
      p2p.progress();  // an exchange's messages (the pass runs the hook too)
    else if (w->load(std::memory_order_acquire) >= g_watch_g.load(std::memory_order_relaxed))
      slots_progress(p2p);  // what it waited for came
    else if ((n & 63) == 0)
      p2p.progress();  // the rest of the engine (a peer may wait for our other work)
    else
      __builtin_ia32_pause();
  }
}

bool own_slots_ok(core::P2P &p2p, const core::Communicator &c) {
  const int n = p2p.world_size();
  if (c.inter || c.spans_clients || c.size < 2 || !p2p.world_slots() ||
      c.world.size() != static_cast<std::size_t>(c.size))
    return false;
  // Procs of the world, each once (not a spawned job's procs, say).
  std::vector<bool> seen(static_cast<std::size_t>(n));
  for (int w : c.world) {
    if (w < 0 || w >= n || seen[static_cast<std::size_t>(w)]) return false;
    seen[static_cast<std::size_t>(w)] = true;
  }
  return true;
}

std::uint32_t own_slots_offer(core::P2P &p2p, const core::Communicator &c,
                              std::uint64_t (&out)[kOwnOffer]) {
  constexpr int k_n = transport::shm::SegmentHeader::kOwnSlots;
  const int me = c.world[static_cast<std::size_t>(c.rank)];
  std::lock_guard<std::mutex> lk(g_slot_mu);
  std::uint32_t busy = g_own_used;
  for (int k = 0; k < k_n; ++k) {
    for (int w : g_own_prev[k].world)
      if (w != me && p2p.own_released(w, k).load(std::memory_order_acquire) < g_own_prev[k].g)
        busy |= 1u << k;  // (a member of its last request may still read it)
    out[k] = (busy & (1u << k)) != 0 ? 1 : 0;
    // (Released numbers too: a request that never started releases the
    // number it agreed, which may exceed the pair's.)
    out[k_n + k] = std::max({p2p.own_slot(me, k, 0).seq.load(std::memory_order_acquire),
                             p2p.own_slot(me, k, 1).seq.load(std::memory_order_acquire),
                             p2p.own_released(me, k).load(std::memory_order_acquire)});
  }
  // Reserved until own_slots_take: an init call of another thread meanwhile
  // finds them in use.
  const std::uint32_t reserved = ~busy & ((1u << k_n) - 1);
  g_own_used |= reserved;
  return reserved;
}

bool own_slots_take(SlotOp &op, const std::uint64_t (&agreed)[kOwnOffer], std::uint32_t reserved) {
  constexpr int k_n = transport::shm::SegmentHeader::kOwnSlots;
  std::lock_guard<std::mutex> lk(g_slot_mu);
  g_own_used &= ~reserved;
  for (int k = 0; k < k_n; ++k) {
    // (Free in every proc's offer: ours too, so reserved by this call.)
    if (agreed[k] != 0 || (reserved & (1u << k)) == 0) continue;
    g_own_used |= 1u << k;
    op.own_slot = k;
    op.world = op.comm->world;
    op.rank = op.comm->rank;
    op.comm = nullptr;
    op.g = agreed[k_n + k];  // (its starts count from the highest number any proc's pair holds)
    return true;
  }
  return false;
}

namespace {
// Comm slots: the eligible blocking call (Barrier, or an Allreduce that
// fits a slot) on which a communicator's members agree on a pair: a
// communicator used once or twice keeps to messages and leaves the pairs
// to others.
constexpr std::uint32_t kCommSlotsAt = 3;

// The pair of `c` (its numbers in a SlotOp: own_slot, world, rank, g), or
// null: not agreed yet, or none free. The same answer on every member:
// the calls are counted alike everywhere (collectives on a communicator
// come in the same order on all members), the conditions are the same.
SlotOp *comm_pair(core::P2P &p2p, const core::Communicator &c) {
  auto &sp = c.slot_pair;
  if (sp.held) return static_cast<SlotOp *>(sp.held.get());
  if (sp.tried || ++sp.calls < kCommSlotsAt) return nullptr;
  sp.tried = true;
  static const bool on = base::get_int("coll_comm_slots") != 0;
  if (!on || c.context_id == 0 || !own_slots_ok(p2p, c)) return nullptr;
  std::uint64_t mine[kOwnOffer], all[kOwnOffer];
  const std::uint32_t reserved = own_slots_offer(p2p, c, mine);
  static const pack::TypePtr &u8 = pack::Datatype::predefined(pack::dt::uint64);
  const Combine max{[](const void *, const void *in, void *inout) {
                      pack::reduce(pack::Op::max, u8, kOwnOffer, in, inout);
                    },
                    nullptr};
  if (!fast_allreduce(p2p, c, mine, all, kOwnOffer, u8, max).ok())
    std::fill(std::begin(all), std::end(all), 1);  // (releases the reservation)
  auto op = std::make_unique<SlotOp>();
  op->comm = &c;
  if (!own_slots_take(*op, all, reserved)) return nullptr;
  sp.held = std::shared_ptr<SlotOp>(op.release(), [](SlotOp *o) {
    {
      std::lock_guard<std::mutex> lk(g_slot_mu);
      own_release(*o);
    }
    delete o;
  });
  return static_cast<SlotOp *>(sp.held.get());
}

// One blocking operation on the pair of `o`: publishes `n` bytes of
// `sendbuf`, then folds every member's in rank order with `op` into
// `recvbuf` (null `op`: a Barrier).
void comm_slots_run(core::P2P &p2p, SlotOp &o, const void *sendbuf, void *recvbuf, std::size_t n,
                    const Combine *op) {
  const std::uint64_t g = ++o.g;
  const int k = o.own_slot, parity = static_cast<int>(g & 1);
  const int me = o.world[static_cast<std::size_t>(o.rank)];
  auto &mine = p2p.own_slot(me, k, parity);
  if (n > 0) std::memcpy(mine.data, sendbuf, n);
  mine.seq.store(g, std::memory_order_release);
  p2p.ring_all_doorbells();
  auto slot_of = [&](int w) -> transport::shm::CollSlot & {
    // (A proc bound to our cpu that is not a member: ours, published.)
    if (std::find(o.world.begin(), o.world.end(), w) == o.world.end()) w = me;
    return p2p.own_slot(w, k, parity);
  };
  for (std::size_t r = 0; r < o.world.size(); ++r) {
    auto &s = p2p.own_slot(o.world[r], k, parity);
    await_seq(
        p2p, s.seq, g, [] { return false; }, slot_of);
    if (!op) continue;
    if (r == 0)
      std::memcpy(recvbuf, s.data, n);
    else
      op->fn(op->ctx, s.data, recvbuf);
  }
}
}  // namespace

bool comm_slots_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                          void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                          Combine op) {
  SlotOp *o = comm_pair(p2p, c);
  if (!o) return false;
  comm_slots_run(p2p, *o, sendbuf, recvbuf, static_cast<std::size_t>(count * type->size()), &op);
  return true;
}

bool comm_slots_barrier(core::P2P &p2p, const core::Communicator &c) {
  SlotOp *o = comm_pair(p2p, c);
  if (!o) return false;
  comm_slots_run(p2p, *o, nullptr, nullptr, 0, nullptr);
  return true;
}

void install_slots_hook(core::P2P &p2p) {
  g_p2p = &p2p;
  p2p.add_hook([&p2p] { return slots_progress(p2p); });
}

}  // namespace impi::collectives
