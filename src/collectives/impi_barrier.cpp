// impi_barrier.cpp - MPI_Barrier on a communicator spanning IMPI clients
// (spec 4.10, tag 110, on the collective context cid + 1).
//
// Local fan-in to each client's master (ours: a 0-byte message from every
// local rank), then among the n masters: linear when n < MAXLINEAR (master
// 0 receives from every other master, then sends to each), else the
// hypercube: d = cubedim(n), hb = hibit(k, d); receive from children
// k | 1<<i (< n) for i = d-1 down to hb+1; unless k = 0, send to the parent
// k & ~(1<<hb) and receive from it; then send to the children for
// i = hb+1 up to d-1. Then local fan-out from the master.
// Cost: 2 log2(n) global message latencies (n masters), 2 local ones.
#include "collectives/impi.hpp"
#include "collectives/impi_masters.hpp"

namespace impi::collectives {

Task impi_barrier(const CommView &c) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const int me = c.rank;
  const int k = m.master_num(me);
  if (k < 0) {  // not a master: fan in, wait for the fan-out
    int master = m.local_master_rank(me);
    if (auto s = co_await c.isend_empty(master, kBarrierTag); !s.ok()) co_return s;
    co_return co_await c.irecv_empty(master, kBarrierTag);
  }
  for (int r : m.locals_to_master(k))
    if (auto s = co_await c.irecv_empty(r, kBarrierTag); !s.ok()) co_return s;

  const int n = m.num_masters();
  if (n > 1) {
    if (linear(c, n)) {
      if (k == 0) {
        for (int j = 1; j < n; ++j)
          if (auto s = co_await c.irecv_empty(m.master_rank(j), kBarrierTag); !s.ok()) co_return s;
        for (int j = 1; j < n; ++j)
          if (auto s = co_await c.isend_empty(m.master_rank(j), kBarrierTag); !s.ok()) co_return s;
      } else {
        if (auto s = co_await c.isend_empty(m.master_rank(0), kBarrierTag); !s.ok()) co_return s;
        if (auto s = co_await c.irecv_empty(m.master_rank(0), kBarrierTag); !s.ok()) co_return s;
      }
    } else {
      const int d = cubedim(n), hb = hibit(k, d);
      for (int i = d - 1; i > hb; --i)
        if (int child = k | (1 << i); child < n)
          if (auto s = co_await c.irecv_empty(m.master_rank(child), kBarrierTag); !s.ok())
            co_return s;
      if (k > 0) {
        int parent = m.master_rank(k & ~(1 << hb));
        if (auto s = co_await c.isend_empty(parent, kBarrierTag); !s.ok()) co_return s;
        if (auto s = co_await c.irecv_empty(parent, kBarrierTag); !s.ok()) co_return s;
      }
      for (int i = hb + 1; i < d; ++i)
        if (int child = k | (1 << i); child < n)
          if (auto s = co_await c.isend_empty(m.master_rank(child), kBarrierTag); !s.ok())
            co_return s;
    }
  }
  for (int r : m.locals_to_master(k))
    if (auto s = co_await c.isend_empty(r, kBarrierTag); !s.ok()) co_return s;
  co_return {};
}

}  // namespace impi::collectives
