// impi_gather.cpp - MPI_Gather on any communicator (spec 4.12's text is
// lost; our design, docs/impi-collectives.md; tag 130). The root's client:
// every rank sends its block straight to the root. Every other client: the
// ranks send to their master, which packs the client's blocks (external32,
// in rank order) into one message to the root; the root unpacks each into
// its rank's place. One message per other client crosses clients.
// Cost: (other clients + local procs - 1) messages into the root.
//
// Small blocks (small_block_tree): the same local phase, then a binomial
// tree on virtual master numbers v = (k - r0) mod n, where the root stands
// for its client (v = 0): in round mask = 1, 2, 4, ..., a participant with
// v & mask sends what it holds to v - mask and stops; otherwise it receives
// from v + mask (if < n) the blocks of virtual clients [v + mask, min(v +
// 2 mask, n)). What a participant holds is always the blocks of virtual
// clients v, v + 1, ... in that order, each client's ranks in rank order
// (master first), external32. log2(n) rounds instead of n - 1 messages
// into the root.
#include <algorithm>
#include <vector>

#include "collectives/impi.hpp"
#include "collectives/impi_masters.hpp"
#include "pack/external32.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

namespace {
std::byte *block_at(void *buf, int rank, std::int64_t count, const pack::TypePtr &type) {
  return static_cast<std::byte *>(buf) + static_cast<std::int64_t>(rank) * count * type->extent();
}
}  // namespace

bool small_block_tree(const CommView &c, const Masters &m, std::int64_t one) {
  const int n = m.num_masters();
  if (n < 3 || linear(c, n)) return false;  // (2 masters: the tree is the linear exchange)
  std::int64_t most = 0;
  for (int k = 0; k < n; ++k) most = std::max<std::int64_t>(most, 1 + m.num_local_to_master(k));
  return one * most < c.xsize;
}

namespace {

// The tree's phase among masters for Gather (see the top of the file).
// `held`: this participant's own client's blocks; grows by its children's.
Task gather_tree(const CommView &c, const Masters &m, int root, std::int64_t one,
                 std::vector<std::byte> &held, void *recvbuf, std::int64_t rcount,
                 const pack::TypePtr &rtype, pack::Rep rep) {
  const auto &bytes = pack::Datatype::predefined(pack::dt::byte);
  const int n = m.num_masters(), r0 = m.local_master_num(root);
  const int v = (m.local_master_num(c.rank) - r0 + n) % n;
  auto node = [&](int u) {
    int k = (u + r0) % n;
    return k == r0 ? root : m.master_rank(k);
  };
  auto span_bytes = [&](int from, int to) {  // the blocks of virtual clients [from, to)
    std::int64_t b = 0;
    for (int u = from; u < to; ++u) b += one * (1 + m.num_local_to_master((u + r0) % n));
    return b;
  };
  for (int mask = 1; mask < n; mask <<= 1) {
    if (v & mask)
      co_return co_await c.isend(held.data(), static_cast<std::int64_t>(held.size()), bytes,
                                 node(v - mask), kGatherTag);
    if (v + mask >= n) continue;
    const int to = std::min(v + 2 * mask, n);
    std::vector<std::byte> part(static_cast<std::size_t>(span_bytes(v + mask, to)));
    if (auto s = co_await c.irecv(part.data(), static_cast<std::int64_t>(part.size()), bytes,
                                  node(v + mask), kGatherTag);
        !s.ok())
      co_return s;
    if (v != 0) {
      held.insert(held.end(), part.begin(), part.end());
      continue;
    }
    std::size_t off = 0;  // the root: each rank's block into its place
    for (int u = v + mask; u < to; ++u)
      for (int r : m.client_ranks((u + r0) % n)) {
        pack::External32Cursor cur(rtype, rcount, false, rep);
        cur.unpack(static_cast<std::byte *>(recvbuf) +
                       static_cast<std::int64_t>(r) * rcount * rtype->extent(),
                   std::span(part).subspan(off, static_cast<std::size_t>(one)));
        off += static_cast<std::size_t>(one);
      }
  }
  co_return base::Status{};
}
}  // namespace

Task impi_gather(const CommView &c, const void *sendbuf, std::int64_t scount,
                 const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                 const pack::TypePtr &rtype, int root) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const int r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  const pack::Rep rep = c.wire_rep();  // blocks may pass through several clients
  const auto &bytes = pack::Datatype::predefined(pack::dt::byte);
  auto one_block = c.rank == root ? pack::external32_size(rtype, rcount, rep)
                                  : pack::external32_size(stype, scount, rep);
  if (!one_block) co_return {one_block.error(), one_block.message()};
  const bool tree = small_block_tree(c, m, *one_block);
  if (c.rank == root) {
    if (sendbuf) {
      pack::PackCursor out(stype, scount);
      std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
      out.pack(sendbuf, packed);
      pack::PackCursor in(rtype, rcount);
      in.unpack(block_at(recvbuf, root, rcount, rtype), packed);
    }
    for (int r : c.locals_of(root))
      if (r != root)
        if (auto s =
                co_await c.irecv(block_at(recvbuf, r, rcount, rtype), rcount, rtype, r, kGatherTag);
            !s.ok())
          co_return s;
    if (tree) {
      std::vector<std::byte> none;
      co_return co_await gather_tree(c, m, root, *one_block, none, recvbuf, rcount, rtype, rep);
    }
    auto one = pack::external32_size(rtype, rcount, rep);
    if (!one) co_return {one.error(), one.message()};
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      std::vector<int> ranks{m.master_rank(k)};
      for (int r : m.locals_to_master(k)) ranks.push_back(r);
      std::vector<std::byte> agg(static_cast<std::size_t>(*one) * ranks.size());
      if (auto s = co_await c.irecv(agg.data(), static_cast<std::int64_t>(agg.size()), bytes,
                                    m.master_rank(k), kGatherTag);
          !s.ok())
        co_return s;
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        pack::External32Cursor cur(rtype, rcount, false, rep);
        cur.unpack(block_at(recvbuf, ranks[i], rcount, rtype),
                   std::span(agg).subspan(i * static_cast<std::size_t>(*one),
                                          static_cast<std::size_t>(*one)));
      }
    }
    co_return {};
  }
  if (mine == r0)
    co_return co_await c.isend(sendbuf, scount, stype, root, kGatherTag);  // the root's client
  if (!m.is_master(c.rank))
    co_return co_await c.isend(sendbuf, scount, stype, m.local_master_rank(c.rank), kGatherTag);
  // A master of another client: its client's blocks, external32, in rank order.
  auto one = pack::external32_size(stype, scount, rep);
  if (!one) co_return {one.error(), one.message()};
  std::vector<int> ranks{c.rank};
  for (int r : m.locals_to_master(mine)) ranks.push_back(r);
  std::vector<std::byte> agg(static_cast<std::size_t>(*one) * ranks.size());
  TypedBuffer tmp(stype, scount);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const void *from = sendbuf;
    if (ranks[i] != c.rank) {
      if (auto s = co_await c.irecv(tmp.get(), scount, stype, ranks[i], kGatherTag); !s.ok())
        co_return s;
      from = tmp.get();
    }
    // (A value the form cannot hold fails the Gather here, never altered.)
    if (auto s = pack::check_fits(stype, scount, from, rep); !s.ok()) co_return s;
    pack::External32Cursor cur(stype, scount, false, rep);
    cur.pack(from, std::span(agg).subspan(i * static_cast<std::size_t>(*one),
                                          static_cast<std::size_t>(*one)));
  }
  if (tree) co_return co_await gather_tree(c, m, root, *one, agg, nullptr, 0, stype, rep);
  co_return co_await c.isend(agg.data(), static_cast<std::int64_t>(agg.size()), bytes, root,
                             kGatherTag);
}

}  // namespace impi::collectives
