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
#include <cstring>
#include <vector>

#include "base/byteorder.hpp"
#include "collectives/impi.hpp"
#include "collectives/task.hpp"
#include "collectives/impi_masters.hpp"
#include "pack/external32.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

namespace {
const pack::TypePtr &bytes() { return pack::Datatype::predefined(pack::dt::byte); }

std::byte *at(void *buf, std::int64_t disp, const pack::TypePtr &type) {
  return static_cast<std::byte *>(buf) + disp * type->extent();
}

base::Result<std::vector<std::byte>> to_ext32(const void *buf, std::int64_t count, const pack::TypePtr &type) {
  auto n = pack::external32_size(type, count);
  if (!n) return {n.error(), n.message()};
  std::vector<std::byte> out(static_cast<std::size_t>(*n));
  pack::External32Cursor(type, count).pack(buf, out);
  return out;
}

// Receives a message of unknown length (bytes) from `source`.
Task recv_any_length(const CommView &c, int source, int tag, std::vector<std::byte> &out) {
  for (;;) {
    auto st = c.p2p->iprobe(source, tag, c.context);
    if (st) {
      if (st->bytes < 0 || st->bytes > (std::int64_t{1} << 36))
        co_return base::Status{base::Errc::protocol_error, "a collective message claims an impossible length"};
      out.resize(static_cast<std::size_t>(st->bytes));
      co_return co_await c.irecv(out.data(), st->bytes, bytes(), source, tag);
    }
    co_await c.message(source, tag);  // until one has arrived
  }
}

// The ranks of master k's client, master first (= rank order).
std::vector<int> client_ranks(const Masters &m, int k) {
  std::vector<int> r{m.master_rank(k)};
  for (int x : m.locals_to_master(k)) r.push_back(x);
  return r;
}
}  // namespace

Task impi_gatherv(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                          void *recvbuf, const std::vector<std::int64_t> &rcounts,
                          const std::vector<std::int64_t> &displs, const pack::TypePtr &rtype, int root) {
  Masters m(c.client);
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
        if (auto s = co_await c.irecv(at(recvbuf, displs[static_cast<std::size_t>(r)], rtype), rcounts[static_cast<std::size_t>(r)],
                            rtype, r, kGathervTag);
            !s.ok())
          co_return s;
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      auto ranks = client_ranks(m, k);
      std::int64_t total = 0;
      std::vector<std::int64_t> len;
      for (int r : ranks) {
        auto n = pack::external32_size(rtype, rcounts[static_cast<std::size_t>(r)]);
        if (!n) co_return {n.error(), n.message()};
        len.push_back(*n);
        total += *n;
      }
      std::vector<std::byte> agg(static_cast<std::size_t>(total));
      if (auto s = co_await c.irecv(agg.data(), total, bytes(), m.master_rank(k), kGathervTag); !s.ok()) co_return s;
      std::size_t off = 0;
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        pack::External32Cursor(rtype, rcounts[static_cast<std::size_t>(ranks[i])])
            .unpack(at(recvbuf, displs[static_cast<std::size_t>(ranks[i])], rtype),
                    std::span(agg).subspan(off, static_cast<std::size_t>(len[i])));
        off += static_cast<std::size_t>(len[i]);
      }
    }
    co_return {};
  }
  if (mine == r0) co_return co_await c.isend(sendbuf, scount, stype, root, kGathervTag);
  auto own = to_ext32(sendbuf, scount, stype);
  if (!own) co_return {own.error(), own.message()};
  if (!m.is_master(c.rank))
    co_return co_await c.isend(own->data(), static_cast<std::int64_t>(own->size()), bytes(), m.local_master_rank(c.rank), kGathervTag);
  std::vector<std::byte> agg = std::move(own.value()), part;
  for (int r : m.locals_to_master(mine)) {
    if (auto s = co_await recv_any_length(c, r, kGathervTag, part); !s.ok()) co_return s;
    agg.insert(agg.end(), part.begin(), part.end());
  }
  co_return co_await c.isend(agg.data(), static_cast<std::int64_t>(agg.size()), bytes(), root, kGathervTag);
}

Task impi_scatterv(const CommView &c, const void *sendbuf, const std::vector<std::int64_t> &scounts,
                           const std::vector<std::int64_t> &displs, const pack::TypePtr &stype, void *recvbuf,
                           std::int64_t rcount, const pack::TypePtr &rtype, int root, int tag) {
  Masters m(c.client);
  const int r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  if (c.rank == root) {
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      auto ranks = client_ranks(m, k);
      std::vector<std::byte> msg(8 * ranks.size());
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        auto blk = to_ext32(at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(ranks[i])], stype),
                            scounts[static_cast<std::size_t>(ranks[i])], stype);
        if (!blk) co_return {blk.error(), blk.message()};
        base::store_be<std::uint64_t>(std::span(msg.data() + 8 * i, 8), blk->size());
        msg.insert(msg.end(), blk->begin(), blk->end());
      }
      if (auto s = co_await c.isend(msg.data(), static_cast<std::int64_t>(msg.size()), bytes(), m.master_rank(k), tag); !s.ok())
        co_return s;
    }
    for (int r : c.locals_of(root))
      if (r != root)
        if (auto s = co_await c.isend(at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(r)], stype),
                            scounts[static_cast<std::size_t>(r)], stype, r, tag);
            !s.ok())
          co_return s;
    if (recvbuf) {  // (null: MPI_IN_PLACE, the root's block stays where it is)
      TypedBuffer tmp(stype, scounts[static_cast<std::size_t>(root)]);
      copy_typed(at(const_cast<void *>(sendbuf), displs[static_cast<std::size_t>(root)], stype), tmp.get(), stype,
                 scounts[static_cast<std::size_t>(root)]);
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
    if (auto s = co_await recv_any_length(c, m.local_master_rank(c.rank), tag, mybytes); !s.ok()) co_return s;
  } else {
    std::vector<std::byte> msg;
    if (auto s = co_await recv_any_length(c, root, tag, msg); !s.ok()) co_return s;
    auto ranks = client_ranks(m, mine);
    if (msg.size() < 8 * ranks.size()) co_return {base::Errc::protocol_error, "a scatter message without its header"};
    std::size_t off = 8 * ranks.size();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      auto len = static_cast<std::size_t>(base::load_be<std::uint64_t>(std::span<const std::byte>(msg.data() + 8 * i, 8)));
      if (len > msg.size() - off) co_return {base::Errc::protocol_error, "a scatter message shorter than its header says"};
      std::span<const std::byte> part(msg.data() + off, len);
      off += len;
      if (ranks[i] == c.rank) {
        mybytes.assign(part.begin(), part.end());
      } else if (auto s = co_await c.isend(part.data(), static_cast<std::int64_t>(len), bytes(), ranks[i], tag); !s.ok()) {
        co_return s;
      }
    }
  }
  auto want = pack::external32_size(rtype, rcount);
  if (!want) co_return {want.error(), want.message()};
  if (static_cast<std::int64_t>(mybytes.size()) > *want)
    co_return {base::Errc::invalid_argument, "a scattered block is longer than its receive buffer"};
  pack::External32Cursor(rtype, rcount).unpack(recvbuf, mybytes);
  co_return {};
}

}  // namespace impi::collectives
