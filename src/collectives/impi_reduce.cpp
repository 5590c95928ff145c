// impi_reduce.cpp - MPI_Reduce on a communicator spanning IMPI clients
// (spec 4.16, tag 190). Commutative operations: a local reduction
// (binomial) into the root in its client and into the master elsewhere,
// then among the root and the other clients' masters: linear when
// n < MAXLINEAR (the root receives each contribution in master order and
// combines after every receive), else binomial on virtual numbers, lowest
// bit first (a participant with bit i set sends its accumulator to
// v & ~(1<<i), 0 being the root, and stops; the others receive from
// v | 1<<i and combine: received op accumulator). Non-commutative
// operations: every rank sends to the root, which folds in rank order.
// Cost: log2(n) global latencies (tree) + log2(local procs) local ones.
//
// IMPI_COLL_REDUCE_PT2PT_CLIENTS (off by default) names clients whose
// global-phase Reduce messages travel on the communicator's point-to-point
// context instead of the collective one: LAM/MPI 7.1.4 does that (its
// ireduce.c sends on the user's communicator), against spec 4.3. Only the
// messages to and from the named clients' procs change.
#include <algorithm>
#include <optional>

#include "base/tunables.hpp"
#include "collectives/impi.hpp"
#include "collectives/impi_masters.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

Task impi_reduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                 const pack::TypePtr &type, const Reduction &op, int root) {
  if (!op.commutative)  // (every rank to the root; IMPI_COLL_REDUCE_PT2PT_CLIENTS does not apply)
    co_return co_await reduce_fold_in_order(c, sendbuf, recvbuf, count, type, op, root, kReduceTag);
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const int n = m.num_masters(), r0 = m.local_master_num(root);
  const std::vector<int> &local = m.client_ranks(m.local_master_num(c.rank));
  std::size_t to = 0;
  for (std::size_t i = 0; i < local.size(); ++i)
    if (local[i] == root) to = i;
  TypedBuffer acc(type, count), tmp(type, count);
  if (auto s =
          co_await reduce_binomial(c, local, to, sendbuf, acc.get(), count, type, op, kReduceTag);
      !s.ok())
    co_return s;
  int k = -1;
  if (c.rank == root)
    k = r0;
  else if (m.is_master(c.rank) && m.master_num(c.rank) != r0)
    k = m.master_num(c.rank);
  if (k < 0) co_return {};
  auto part_rank = [&](int num) { return num == r0 ? root : m.master_rank(num); };
  // The view a global-phase message to or from `peer` goes through.
  std::vector<bool> pt2pt = base::get_index_set("coll_reduce_pt2pt_clients");
  std::optional<CommView> p2p_view;  // (a copy of the view: only when some client needs it)
  if (std::find(pt2pt.begin(), pt2pt.end(), true) != pt2pt.end()) {
    p2p_view = c;
    p2p_view->context = c.context - 1;
  }
  auto via = [&](int peer) -> const CommView & {
    auto cl = static_cast<std::size_t>(c.client[static_cast<std::size_t>(peer)]);
    return cl < pt2pt.size() && pt2pt[cl] ? *p2p_view : c;
  };
  if (n > 1) {
    if (linear(c, n)) {
      if (k != r0) co_return co_await via(root).isend(acc.get(), count, type, root, kReduceTag);
      for (int j = 0; j < n; ++j) {
        if (j == r0) continue;
        if (auto s =
                co_await via(part_rank(j)).irecv(tmp.get(), count, type, part_rank(j), kReduceTag);
            !s.ok())
          co_return s;
        op.combine(tmp.get(), acc.get());
      }
    } else {
      const int d = cubedim(n), v = (k - r0 + n) % n;
      for (int i = 0; i < d; ++i) {
        if (v & (1 << i)) {
          int pv = v & ~(1 << i);
          int to_rank = part_rank((pv + r0) % n);
          co_return co_await via(to_rank).isend(acc.get(), count, type, to_rank, kReduceTag);
        }
        if (int child = v | (1 << i); child < n) {
          int from_rank = part_rank((child + r0) % n);
          if (auto s = co_await via(from_rank).irecv(tmp.get(), count, type, from_rank, kReduceTag);
              !s.ok())
            co_return s;
          op.combine(tmp.get(), acc.get());
        }
      }
    }
  }
  copy_typed(acc.get(), recvbuf, type, count);
  co_return {};
}

}  // namespace impi::collectives
