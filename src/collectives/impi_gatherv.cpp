// impi_gatherv.cpp - MPI_Gatherv and MPI_Scatterv (spec 4.13/4.15: text
// lost; our design, docs/impi-collectives.md; tags 140 and 160), and
// MPI_Scatter (4.14, tag 150): linear, one message per other client between
// its master and the root. In the root's client the root talks to every
// rank directly. Elsewhere:
// - Gatherv: each rank sends its block to its master packed in external32
//   (bytes); the master appends the blocks in rank order (its own first)
//   and sends them to the root, which knows every length from recvcounts.
// - Scatter(v): the root sends each other master a header of one IMPI_UINT8
//   byte length per rank of that client (rank order), then those ranks'
//   blocks in external32; the master forwards each rank its bytes. Scatter
//   uses the same format, so a Scatter and a Scatterv meet the same master.
// Cost: (clients - 1) + (local procs - 1) messages at the root.
// MPI_Scatter with small blocks (small_block_tree) mirrors the Gather tree
// (impi_gather.cpp): a participant with virtual number v > 0 receives from
// v - lowbit(v) the blocks of virtual clients [v, min(v + lowbit(v), n)),
// external32 without a header (every block is `one` bytes), each client's
// ranks in rank order; it passes [v + mask, min(v + 2 mask, n)) on to
// v + mask for mask = lowbit(v)/2 .. 1, keeps its own client's part and
// sends each local rank its bytes. The root (v = 0) starts with the largest
// mask below n, and serves its own client directly.
#include <cstring>
#include <vector>

#include "base/byteorder.hpp"
#include "collectives/impi.hpp"
#include "collectives/impi_masters.hpp"
#include "collectives/task.hpp"
#include "pack/external32.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

namespace {
const pack::TypePtr &bytes() {
  return pack::Datatype::predefined(pack::dt::byte);
}

std::byte *at(void *buf, std::int64_t disp, const pack::TypePtr &type) {
  return static_cast<std::byte *>(buf) + disp * type->extent();
}

// A block in `rep` (the communicator's common form, CommView::wire_rep);
// a value that does not fit in it is an error, never sent altered.
base::Result<std::vector<std::byte>> to_ext32(const void *buf, std::int64_t count,
                                              const pack::TypePtr &type, pack::Rep rep) {
  auto n = pack::external32_size(type, count, rep);
  if (!n) return {n.error(), n.message()};
  if (auto s = pack::check_fits(type, count, buf, rep); !s.ok()) return {s.error(), s.message()};
  std::vector<std::byte> out(static_cast<std::size_t>(*n));
  pack::External32Cursor(type, count, false, rep).pack(buf, out);
  return out;
}

// Receives a message of unknown length (bytes) from `source`.
Task recv_any_length(const CommView &c, int source, int tag, std::vector<std::byte> &out) {
  for (;;) {
    auto st = c.p2p->iprobe(source, tag, c.context);
    if (st) {
      if (st->bytes < 0 || st->bytes > (std::int64_t{1} << 36))
        co_return base::Status{base::Errc::protocol_error,
                               "a collective message claims an impossible length"};
      out.resize(static_cast<std::size_t>(st->bytes));
      co_return co_await c.irecv(out.data(), st->bytes, bytes(), source, tag);
    }
    co_await c.message(source, tag);  // until one has arrived
  }
}

// A scattered block (external32) into the receive buffer.
base::Status unpack_block(std::span<const std::byte> block, void *recvbuf, std::int64_t rcount,
                          const pack::TypePtr &rtype, pack::Rep rep) {
  auto want = pack::external32_size(rtype, rcount, rep);
  if (!want) return {want.error(), want.message()};
  if (static_cast<std::int64_t>(block.size()) > *want)
    return {base::Errc::invalid_argument, "a scattered block is longer than its receive buffer"};
  pack::External32Cursor(rtype, rcount, false, rep).unpack(recvbuf, block);
  return {};
}

}  // namespace

Task impi_gatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                  const pack::TypePtr &stype, void *recvbuf,
                  const std::vector<std::int64_t> &rcounts, const std::vector<std::int64_t> &displs,
                  const pack::TypePtr &rtype, int root) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const pack::Rep rep = c.wire_rep();
  const int r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  if (c.rank == root) {
    if (sendbuf) {
      TypedBuffer tmp(stype, scount);
      copy_typed(sendbuf, tmp.get(), stype, scount);  // (sendbuf may overlap recvbuf)
      pack::PackCursor out(stype, scount);
      std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
      out.pack(tmp.get(), packed);
      pack::PackCursor(rtype, rcounts[static_cast<std::size_t>(root)])
          .unpack(at(recvbuf, displs[static_cast<std::size_t>(root)], rtype), packed);
    }
    for (int r : c.locals_of(root))
      if (r != root)
        if (auto s = co_await c.irecv(at(recvbuf, displs[static_cast<std::size_t>(r)], rtype),
                                      rcounts[static_cast<std::size_t>(r)], rtype, r, kGathervTag);
            !s.ok())
          co_return s;
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      const auto &ranks = m.client_ranks(k);
      std::int64_t total = 0;
      std::vector<std::int64_t> len;
      for (int r : ranks) {
        auto n = pack::external32_size(rtype, rcounts[static_cast<std::size_t>(r)], rep);
        if (!n) co_return {n.error(), n.message()};
        len.push_back(*n);
        total += *n;
      }
      std::vector<std::byte> agg(static_cast<std::size_t>(total));
      if (auto s = co_await c.irecv(agg.data(), total, bytes(), m.master_rank(k), kGathervTag);
          !s.ok())
        co_return s;
      std::size_t off = 0;
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        pack::External32Cursor(rtype, rcounts[static_cast<std::size_t>(ranks[i])], false, rep)
            .unpack(at(recvbuf, displs[static_cast<std::size_t>(ranks[i])], rtype),
                    std::span(agg).subspan(off, static_cast<std::size_t>(len[i])));
        off += static_cast<std::size_t>(len[i]);
      }
    }
    co_return {};
  }
  if (mine == r0) co_return co_await c.isend(sendbuf, scount, stype, root, kGathervTag);
  auto own = to_ext32(sendbuf, scount, stype, rep);
  if (!own) co_return {own.error(), own.message()};
  if (!m.is_master(c.rank))
    co_return co_await c.isend(own->data(), static_cast<std::int64_t>(own->size()), bytes(),
                               m.local_master_rank(c.rank), kGathervTag);
  std::vector<std::byte> agg = std::move(own.value()), part;
  for (int r : m.locals_to_master(mine)) {
    if (auto s = co_await recv_any_length(c, r, kGathervTag, part); !s.ok()) co_return s;
    agg.insert(agg.end(), part.begin(), part.end());
  }
  co_return co_await c.isend(agg.data(), static_cast<std::int64_t>(agg.size()), bytes(), root,
                             kGathervTag);
}

Task impi_scatterv(const CommView &c, const void *sendbuf, const std::vector<std::int64_t> &scounts,
                   const std::vector<std::int64_t> &displs, const pack::TypePtr &stype,
                   void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root,
                   int tag) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const pack::Rep rep = c.wire_rep();
  const int r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  if (c.rank == root) {
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      const auto &ranks = m.client_ranks(k);
      std::vector<std::byte> msg(8 * ranks.size());
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        auto blk = to_ext32(
            at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(ranks[i])], stype),
            scounts[static_cast<std::size_t>(ranks[i])], stype, rep);
        if (!blk) co_return {blk.error(), blk.message()};
        base::store_be<std::uint64_t>(std::span(msg.data() + 8 * i, 8), blk->size());
        msg.insert(msg.end(), blk->begin(), blk->end());
      }
      if (auto s = co_await c.isend(msg.data(), static_cast<std::int64_t>(msg.size()), bytes(),
                                    m.master_rank(k), tag);
          !s.ok())
        co_return s;
    }
    for (int r : c.locals_of(root))
      if (r != root)
        if (auto s = co_await c.isend(
                at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(r)], stype),
                scounts[static_cast<std::size_t>(r)], stype, r, tag);
            !s.ok())
          co_return s;
    if (recvbuf) {  // (null: MPI_IN_PLACE, the root's block stays where it is)
      TypedBuffer tmp(stype, scounts[static_cast<std::size_t>(root)]);
      copy_typed(at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(root)], stype),
                 tmp.get(), stype, scounts[static_cast<std::size_t>(root)]);
      pack::PackCursor out(stype, scounts[static_cast<std::size_t>(root)]);
      std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
      out.pack(tmp.get(), packed);
      pack::PackCursor(rtype, rcount).unpack(recvbuf, packed);
    }
    co_return {};
  }
  if (mine == r0) co_return co_await c.irecv(recvbuf, rcount, rtype, root, tag);
  std::vector<std::byte> mybytes;
  if (!m.is_master(c.rank)) {
    if (auto s = co_await recv_any_length(c, m.local_master_rank(c.rank), tag, mybytes); !s.ok())
      co_return s;
  } else {
    std::vector<std::byte> msg;
    if (auto s = co_await recv_any_length(c, root, tag, msg); !s.ok()) co_return s;
    const auto &ranks = m.client_ranks(mine);
    if (msg.size() < 8 * ranks.size())
      co_return {base::Errc::protocol_error, "a scatter message without its header"};
    std::size_t off = 8 * ranks.size();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      auto len = static_cast<std::size_t>(
          base::load_be<std::uint64_t>(std::span<const std::byte>(msg.data() + 8 * i, 8)));
      if (len > msg.size() - off)
        co_return {base::Errc::protocol_error, "a scatter message shorter than its header says"};
      std::span<const std::byte> part(msg.data() + off, len);
      off += len;
      if (ranks[i] == c.rank) {
        mybytes.assign(part.begin(), part.end());
      } else if (auto s = co_await c.isend(part.data(), static_cast<std::int64_t>(len), bytes(),
                                           ranks[i], tag);
                 !s.ok()) {
        co_return s;
      }
    }
  }
  co_return unpack_block(mybytes, recvbuf, rcount, rtype, rep);
}

Task impi_scatter(const CommView &c, const void *sendbuf, std::int64_t scount,
                  const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                  const pack::TypePtr &rtype, int root) {
  const auto masters = masters_of(c.client);
  const Masters &m = *masters;
  const pack::Rep rep = c.wire_rep();
  auto one_r = c.rank == root ? pack::external32_size(stype, scount, rep)
                              : pack::external32_size(rtype, rcount, rep);
  if (!one_r) co_return {one_r.error(), one_r.message()};
  const std::int64_t one = *one_r;
  if (!small_block_tree(c, m, one)) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size), scount),
        displs(counts.size());
    for (std::size_t i = 0; i < displs.size(); ++i)
      displs[i] = static_cast<std::int64_t>(i) * scount;
    co_return co_await impi_scatterv(c, sendbuf, counts, displs, stype, recvbuf, rcount, rtype,
                                     root, kScatterTag);
  }
  const int n = m.num_masters(), r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  const int v = (mine - r0 + n) % n;
  auto node = [&](int u) {
    int k = (u + r0) % n;
    return k == r0 ? root : m.master_rank(k);
  };
  auto span_bytes = [&](int from, int to) {  // the blocks of virtual clients [from, to)
    std::int64_t b = 0;
    for (int u = from; u < to; ++u) b += one * (1 + m.num_local_to_master((u + r0) % n));
    return b;
  };
  const int tag = kScatterTag;
  if (c.rank == root) {
    std::vector<std::byte> held;  // virtual clients 1 .. n-1
    held.reserve(static_cast<std::size_t>(span_bytes(1, n)));
    for (int u = 1; u < n; ++u)
      for (int r : m.client_ranks((u + r0) % n)) {
        auto blk =
            to_ext32(at(const_cast<void *>(sendbuf), static_cast<std::int64_t>(r) * scount, stype),
                     scount, stype, rep);
        if (!blk) co_return {blk.error(), blk.message()};
        held.insert(held.end(), blk->begin(), blk->end());
      }
    int top = 1;
    while (top * 2 < n) top *= 2;
    for (int mask = top; mask >= 1; mask >>= 1) {
      if (mask >= n) continue;
      auto off = static_cast<std::size_t>(span_bytes(1, mask));
      auto len = span_bytes(mask, std::min(2 * mask, n));
      if (auto s = co_await c.isend(held.data() + off, len, bytes(), node(mask), tag); !s.ok())
        co_return s;
    }
    for (int r : c.locals_of(root))
      if (r != root)
        if (auto s = co_await c.isend(
                at(const_cast<void *>(sendbuf), static_cast<std::int64_t>(r) * scount, stype),
                scount, stype, r, tag);
            !s.ok())
          co_return s;
    if (recvbuf) {  // (null: MPI_IN_PLACE)
      auto mineb =
          to_ext32(at(const_cast<void *>(sendbuf), static_cast<std::int64_t>(root) * scount, stype),
                   scount, stype, rep);
      if (!mineb) co_return {mineb.error(), mineb.message()};
      pack::External32Cursor(rtype, rcount, false, rep).unpack(recvbuf, *mineb);
    }
    co_return {};
  }
  if (mine == r0) co_return co_await c.irecv(recvbuf, rcount, rtype, root, tag);
  std::vector<std::byte> mybytes;
  if (!m.is_master(c.rank)) {
    if (auto s = co_await recv_any_length(c, m.local_master_rank(c.rank), tag, mybytes); !s.ok())
      co_return s;
  } else {
    const int low = v & -v;
    std::vector<std::byte> held(static_cast<std::size_t>(span_bytes(v, std::min(v + low, n))));
    if (auto s = co_await c.irecv(held.data(), static_cast<std::int64_t>(held.size()), bytes(),
                                  node(v - low), tag);
        !s.ok())
      co_return s;
    for (int mask = low / 2; mask >= 1; mask >>= 1) {
      if (v + mask >= n) continue;
      auto off = static_cast<std::size_t>(span_bytes(v, v + mask));
      auto len = span_bytes(v + mask, std::min(v + 2 * mask, n));
      if (auto s = co_await c.isend(held.data() + off, len, bytes(), node(v + mask), tag); !s.ok())
        co_return s;
    }
    const auto &ranks = m.client_ranks(mine);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      std::span<const std::byte> part(held.data() + i * static_cast<std::size_t>(one),
                                      static_cast<std::size_t>(one));
      if (ranks[i] == c.rank) {
        mybytes.assign(part.begin(), part.end());
      } else if (auto s = co_await c.isend(part.data(), one, bytes(), ranks[i], tag); !s.ok()) {
        co_return s;
      }
    }
  }
  co_return unpack_block(mybytes, recvbuf, rcount, rtype, rep);
}

}  // namespace impi::collectives
