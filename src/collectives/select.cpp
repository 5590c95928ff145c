// select.cpp - which algorithm runs each operation (select.hpp). Blocking
// Barrier, Bcast and small Allreduce inside one client skip the coroutine
// machinery (fast_native.cpp); MPI_COMM_WORLD on one node uses its
// shared-memory slots; everything else runs as a task (collectives.cpp
// chooses between the IMPI and the native algorithms there).
#include "collectives/select.hpp"

#include <algorithm>
#include <utility>

#include "collectives/fast_native.hpp"
#include "collectives/impi_masters.hpp"
#include "collectives/inter.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"

namespace impi::collectives {

namespace {

// A predefined operation on `count` of a type, as the direct paths apply it.
struct PredefinedOp {
  pack::Op op;
  const pack::TypePtr *type;
  std::int64_t count;
  Combine combine() const {
    return {[](const void *x, const void *in, void *inout) {
              const auto *k = static_cast<const PredefinedOp *>(x);
              pack::reduce(k->op, *k->type, k->count, in, inout);
            },
            this};
  }
};

// Below the ring's size: where allreduce_task would use recursive doubling.
bool small_allreduce(const core::Communicator &c, std::int64_t count, const pack::TypePtr &type) {
  return count < c.size || count * type->size() < allreduce_ring_min();
}

// The direct paths are blocking: they run after what is queued on `c`.
core::P2P &drained(const core::Communicator &c) {
  auto &p2p = core::Runtime::instance().p2p();
  drain(&c, p2p);
  return p2p;
}

}  // namespace

Reduction ReduceOp::take(const pack::TypePtr &type, std::int64_t count) const {
  if (!predefined) return std::move(*user);
  const pack::Op o = *predefined;
  if (type->is_predefined()) {
    // 16 bytes of capture: std::function keeps them inline (a TypePtr
    // would put each function on the heap, on every call).
    struct Key {
      std::int64_t count;
      std::int32_t op, type;
    };
    const Key k{count, static_cast<std::int32_t>(o), type->predefined_index()};
    return {[k](const void *in, void *inout) {
              pack::reduce(static_cast<pack::Op>(k.op), pack::Datatype::predefined(k.type), k.count,
                           in, inout);
            },
            true,
            [k](const void *in, void *inout, std::int64_t n) {
              pack::reduce(static_cast<pack::Op>(k.op), pack::Datatype::predefined(k.type), n, in,
                           inout);
            }};
  }
  return {
      [o, type, count](const void *in, void *inout) { pack::reduce(o, type, count, in, inout); },
      true,
      [o, type](const void *in, void *inout, std::int64_t n) {
        pack::reduce(o, type, n, in, inout);
      }};
}

base::Status start(const core::Communicator &c, Task task, core::RequestPtr *request) {
  auto &p2p = core::Runtime::instance().p2p();
  if (!request) {
    drain(&c, p2p);
    return run_blocking(p2p, std::move(task));
  }
  *request = start_nonblocking(&c, p2p, std::move(task));
  return {};
}

base::Status barrier(const core::Communicator &c, core::RequestPtr *request) {
  if (c.inter) return start(c, inter_barrier(remote_view_of(c), c.rank), request);
  if (!request && c.spans_clients) {
    const auto masters = masters_of(c.client);
    if (!masters->is_master(c.rank))
      return nonmaster_barrier(drained(c), c, masters->local_master_rank(c.rank));
  }
  if (!request && fast_native(c)) {
    auto &p2p = drained(c);
    if (slots_barrier_ok(p2p, c)) return slots_barrier(p2p, c);
    if (comm_slots_barrier(p2p, c)) return {};
    return fast_barrier(p2p, c);
  }
  return start(c, barrier_task(view_of(c)), request);
}

base::Status bcast(const core::Communicator &c, void *buf, std::int64_t count,
                   const pack::TypePtr &type, int root, core::RequestPtr *request) {
  if (c.inter) return start(c, inter_bcast(remote_view_of(c), buf, count, type, root), request);
  if (!request && fast_native(c)) return fast_bcast(drained(c), c, buf, count, type, root);
  return start(c, bcast_task(view_of(c), buf, count, type, root), request);
}

base::Status reduce(const core::Communicator &c, const void *sendbuf, void *recvbuf,
                    std::int64_t count, const pack::TypePtr &type, ReduceOp op, int root,
                    core::RequestPtr *request) {
  Reduction red = op.take(type, count);
  if (c.inter)
    return start(
        c, inter_reduce(remote_view_of(c), sendbuf, recvbuf, count, type, std::move(red), root),
        request);
  return start(c, reduce_task(view_of(c), sendbuf, recvbuf, count, type, std::move(red), root),
               request);
}

base::Status allreduce(const core::Communicator &c, const void *sendbuf, void *recvbuf,
                       std::int64_t count, const pack::TypePtr &type, ReduceOp op,
                       core::RequestPtr *request) {
  if (c.inter)
    return start(c,
                 inter_allreduce(remote_view_of(c), c.rank, sendbuf, recvbuf, count, type,
                                 op.take(type, count)),
                 request);
  if (!request && c.spans_clients && op.predefined) {
    const auto masters = masters_of(c.client);
    if (!masters->is_master(c.rank)) {
      const auto &local = masters->client_ranks(masters->local_master_num(c.rank));
      const auto pos =
          static_cast<std::size_t>(std::find(local.begin(), local.end(), c.rank) - local.begin());
      if (nonmaster_allreduce_leaf(local, pos))
        return nonmaster_allreduce(drained(c), c, local, pos, sendbuf, recvbuf, count, type);
    }
  }
  if (!request && fast_native(c)) {
    if (op.predefined) {
      PredefinedOp k{*op.predefined, &type, count};
      auto &p2p = core::Runtime::instance().p2p();
      // The slots: for any size they take (a derived type only where the
      // messages' algorithm would be recursive doubling).
      if (slots_allreduce_ok(p2p, c, count, type) &&
          (type->is_predefined() || small_allreduce(c, count, type))) {
        drain(&c, p2p);
        return slots_allreduce(p2p, c, sendbuf, recvbuf, count, type, k.combine());
      }
      if (slots_fit_allreduce(count, type) &&
          (type->is_predefined() || small_allreduce(c, count, type)) &&
          comm_slots_allreduce(drained(c), c, sendbuf, recvbuf, count, type, k.combine()))
        return {};
      if (small_allreduce(c, count, type))
        return fast_allreduce(drained(c), c, sendbuf, recvbuf, count, type, k.combine());
    } else if (op.user->commutative && small_allreduce(c, count, type)) {
      return fast_allreduce(drained(c), c, sendbuf, recvbuf, count, type, combine_of(*op.user));
    }
  }
  return start(c, allreduce_task(view_of(c), sendbuf, recvbuf, count, type, op.take(type, count)),
               request);
}

}  // namespace impi::collectives
