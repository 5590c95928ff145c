// fast_native.cpp - the blocking Barrier, Bcast and small Allreduce of a
// communicator inside one client, run as plain loops instead of through
// the coroutine machinery (task.hpp) and a CommView (which copies the
// group): the same algorithms, peers, tags and contexts as
// barrier_dissemination, bcast_binomial and allreduce_recursive_doubling,
// so the messages on the wire are exactly theirs. What goes away is the
// per-call cost of the view's two vectors, the coroutine frames and the
// driver loop, about half of a small 2-proc call.
// Small messages go straight into the ring (P2P::send_now).
#include "collectives/fast_native.hpp"

#include <sched.h>

#include <chrono>
#include <cstring>

#include "base/tunables.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/impi.hpp"
#include "core/p2p.hpp"
#include "transport/shm/segment.hpp"

namespace impi::collectives {

namespace {

struct Direct {
  core::P2P &p2p;
  const core::Communicator &c;
  int context;  // the collective context: cid + 1

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
    p2p.wait_until([&] { return p2p.completed(*r); });
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

}  // namespace

std::int64_t allreduce_ring_min() {
  static const std::int64_t v = base::get_int("coll_allreduce_ring_min");
  return v;
}

base::Status fast_barrier(core::P2P &p2p, const core::Communicator &c) {
  Direct d{p2p, c, c.context_id + 1};
  const auto &none = pack::Datatype::predefined(pack::dt::byte);
  constexpr int kTag = 110;  // barrier_dissemination's
  for (int dist = 1; dist < c.size; dist <<= 1) {
    int to = (c.rank + dist) % c.size, from = (c.rank - dist + c.size) % c.size;
    if (auto s = d.exchange(nullptr, 0, none, to, nullptr, 0, none, from, kTag); !s.ok()) return s;
  }
  return {};
}

base::Status fast_bcast(core::P2P &p2p, const core::Communicator &c, void *buf, std::int64_t count,
                        const pack::TypePtr &type, int root) {
  // bcast_binomial over all ranks in rank order.
  Direct d{p2p, c, c.context_id + 1};
  const int n = c.size;
  const int v = (c.rank - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (v & mask) {
      if (auto s = d.recv(buf, count, type, (v - mask + root) % n, kBcastTag); !s.ok()) return s;
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n)
      if (auto s = d.send(buf, count, type, (v + mask + root) % n, kBcastTag); !s.ok()) return s;
  return {};
}

base::Status fast_allreduce(core::P2P &p2p, const core::Communicator &c, const void *sendbuf,
                            void *recvbuf, std::int64_t count, const pack::TypePtr &type,
                            Combine op) {
  // allreduce_recursive_doubling, step for step.
  Direct d{p2p, c, c.context_id + 1};
  const int p = c.size, me = c.rank;
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  const int rem = p - pof2;
  TypedBuffer tmp(type, count);
  copy_typed(sendbuf, recvbuf, type, count);
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      if (auto s = d.send(recvbuf, count, type, me + 1, kReduceTag); !s.ok()) return s;
      return d.recv(recvbuf, count, type, me + 1, kReduceTag);
    }
    if (auto s = d.recv(tmp.get(), count, type, me - 1, kReduceTag); !s.ok()) return s;
    op.fn(op.ctx, tmp.get(), recvbuf);
    newrank = me / 2;
  } else {
    newrank = me - rem;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int partner_new = newrank ^ mask;
    int partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
    if (auto s =
            d.exchange(recvbuf, count, type, partner, tmp.get(), count, type, partner, kReduceTag);
        !s.ok())
      return s;
    op.fn(op.ctx, tmp.get(), recvbuf);
  }
  if (me < 2 * rem) return d.send(recvbuf, count, type, me - 1, kReduceTag);
  return {};
}

bool slots_allreduce_ok(core::P2P &p2p, const core::Communicator &c, std::int64_t count,
                        const pack::TypePtr &type) {
  return c.context_id == 0 && !c.inter && !c.spans_clients && c.size > 1 && count > 0 &&
         type->is_contiguous() && type->lb() == 0 && type->extent() == type->size() &&
         count * type->size() <= static_cast<std::int64_t>(transport::shm::CollSlot::kBytes) &&
         p2p.world_slots();
}

namespace {
// Publishes `n` bytes as this proc's contribution to the next slot
// operation on MPI_COMM_WORLD; returns its number.
std::uint64_t slots_publish(core::P2P &p2p, const core::Communicator &c, const void *data,
                            std::size_t n) {
  const std::uint64_t g = p2p.next_world_slot_op();
  auto &mine = p2p.slot(c.world[static_cast<std::size_t>(c.rank)], static_cast<int>(g & 1));
  if (n > 0) std::memcpy(mine.data, data, n);
  mine.seq.store(g, std::memory_order_release);
  p2p.ring_all_doorbells();
  return g;
}

// Rank r's slot once it holds operation g.
transport::shm::CollSlot &slots_await(core::P2P &p2p, const core::Communicator &c, int r,
                                      std::uint64_t g) {
  auto &s = p2p.slot(c.world[static_cast<std::size_t>(r)], static_cast<int>(g & 1));
  if (s.seq.load(std::memory_order_acquire) != g) {
    auto ready = [&] { return s.seq.load(std::memory_order_acquire) == g; };
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
          if (p2p.slot(w, static_cast<int>(g & 1)).seq.load(std::memory_order_acquire) != g)
            return false;
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

}  // namespace impi::collectives
