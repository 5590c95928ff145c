// impi_gather.cpp - MPI_Gather on any communicator (spec 4.12's text is
// lost; our design, docs/impi-collectives.md; tag 130). The root's client:
// every rank sends its block straight to the root. Every other client: the
// ranks send to their master, which packs the client's blocks (external32,
// in rank order) into one message to the root; the root unpacks each into
// its rank's place. One message per other client crosses clients.
// Cost: (other clients + local procs - 1) messages into the root.
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

Task impi_gather(const CommView &c, const void *sendbuf, std::int64_t scount, const pack::TypePtr &stype,
                         void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root) {
  Masters m(c.client);
  const int r0 = m.local_master_num(root), mine = m.local_master_num(c.rank);
  const auto &bytes = pack::Datatype::predefined(pack::dt::byte);
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
        if (auto s = co_await c.irecv(block_at(recvbuf, r, rcount, rtype), rcount, rtype, r, kGatherTag); !s.ok()) co_return s;
    auto one = pack::external32_size(rtype, rcount);
    if (!one) co_return {one.error(), one.message()};
    for (int k = 0; k < m.num_masters(); ++k) {
      if (k == r0) continue;
      std::vector<int> ranks{m.master_rank(k)};
      for (int r : m.locals_to_master(k)) ranks.push_back(r);
      std::vector<std::byte> agg(static_cast<std::size_t>(*one) * ranks.size());
      if (auto s = co_await c.irecv(agg.data(), static_cast<std::int64_t>(agg.size()), bytes, m.master_rank(k), kGatherTag);
          !s.ok())
        co_return s;
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        pack::External32Cursor cur(rtype, rcount);
        cur.unpack(block_at(recvbuf, ranks[i], rcount, rtype),
                   std::span(agg).subspan(i * static_cast<std::size_t>(*one), static_cast<std::size_t>(*one)));
      }
    }
    co_return {};
  }
  if (mine == r0) co_return co_await c.isend(sendbuf, scount, stype, root, kGatherTag);  // the root's client
  if (!m.is_master(c.rank)) co_return co_await c.isend(sendbuf, scount, stype, m.local_master_rank(c.rank), kGatherTag);
  // A master of another client: its client's blocks, external32, in rank order.
  auto one = pack::external32_size(stype, scount);
  if (!one) co_return {one.error(), one.message()};
  std::vector<int> ranks{c.rank};
  for (int r : m.locals_to_master(mine)) ranks.push_back(r);
  std::vector<std::byte> agg(static_cast<std::size_t>(*one) * ranks.size());
  TypedBuffer tmp(stype, scount);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const void *from = sendbuf;
    if (ranks[i] != c.rank) {
      if (auto s = co_await c.irecv(tmp.get(), scount, stype, ranks[i], kGatherTag); !s.ok()) co_return s;
      from = tmp.get();
    }
    pack::External32Cursor cur(stype, scount);
    cur.pack(from, std::span(agg).subspan(i * static_cast<std::size_t>(*one), static_cast<std::size_t>(*one)));
  }
  co_return co_await c.isend(agg.data(), static_cast<std::int64_t>(agg.size()), bytes, root, kGatherTag);
}

}  // namespace impi::collectives
