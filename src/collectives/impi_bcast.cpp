// impi_bcast.cpp - MPI_Bcast on a communicator spanning IMPI clients (spec
// 4.11, tag 120). Global phase among the root and the masters of the other
// clients (the root's own client's master takes no part unless it is the
// root): linear when n < MAXLINEAR (the root sends to each), else a tree on
// virtual numbers v = (k - r0 + n) % n (r0 = the root's client's master
// number): receive from the parent v & ~(1 << hibit(v, d)), then send to
// the children v | 1<<i for i above that bit. Then each client broadcasts
// locally (binomial) from the root or from its master.
// Cost: log2(n) global latencies (tree) + log2(local procs) local ones.
#include "collectives/impi.hpp"
#include "collectives/impi_masters.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

Task impi_bcast(const CommView &c, void *buf, std::int64_t count, const pack::TypePtr &type,
                int root) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const int n = m.num_masters(), r0 = m.local_master_num(root);
  // My number among the global participants, or -1.
  int k = -1;
  if (c.rank == root)
    k = r0;
  else if (m.is_master(c.rank) && m.master_num(c.rank) != r0)
    k = m.master_num(c.rank);
  auto part_rank = [&](int num) { return num == r0 ? root : m.master_rank(num); };
  if (k >= 0 && n > 1) {
    if (linear(c, n)) {
      if (k == r0) {
        for (int j = 0; j < n; ++j)
          if (j != r0)
            if (auto s = co_await c.isend(buf, count, type, part_rank(j), kBcastTag); !s.ok())
              co_return s;
      } else if (auto s = co_await c.irecv(buf, count, type, root, kBcastTag); !s.ok()) {
        co_return s;
      }
    } else {
      const int d = cubedim(n), v = (k - r0 + n) % n, hb = hibit(v, d);
      if (v > 0) {
        int pv = v & ~(1 << hb);
        if (auto s = co_await c.irecv(buf, count, type, part_rank((pv + r0) % n), kBcastTag);
            !s.ok())
          co_return s;
      }
      for (int i = hb + 1; i < d; ++i)
        if (int child = v | (1 << i); child < n)
          if (auto s = co_await c.isend(buf, count, type, part_rank((child + r0) % n), kBcastTag);
              !s.ok())
            co_return s;
    }
  }
  // Local phase: from the root in its client, from the master elsewhere.
  const std::vector<int> &local = m.client_ranks(m.local_master_num(c.rank));
  std::size_t from = 0;
  for (std::size_t i = 0; i < local.size(); ++i)
    if (local[i] == root) from = i;
  co_return co_await bcast_binomial(c, local, from, buf, count, type, kBcastTag);
}

}  // namespace impi::collectives
