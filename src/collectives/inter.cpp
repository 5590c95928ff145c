// inter.cpp - collectives on intercommunicators (MPI-3.1 5.2.2), by direct
// exchange with the remote group on the intercommunicator's collective
// context: a rank only ever talks to the other group, so no local context
// is needed. `r` is the remote group as point-to-point peers
// (remote_view_of). Roots follow MPI: in the root's group the root passes
// MPI_ROOT and the others MPI_PROC_NULL (they do nothing); the other group
// passes the root's rank in the remote group.
// Cost: linear in the group sizes (every remote contribution is one
// message); fine for the small groups intercommunicators usually join.
#include "collectives/inter.hpp"

#include <memory>
#include <vector>

#include "collectives/collectives.hpp"

namespace impi::collectives {

namespace {
constexpr int kInterTag = 250;  // (the collective context is ours: apart from the IMPI tags)
}

// Barrier: the criss-cross exchange (as MPI_Comm_free of an
// intercommunicator, IMPI 4.5): non-leaders report to the remote leader,
// the leaders exchange, then answer the remote non-leaders.
Task inter_barrier(CommView r, int local_rank) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  std::uint64_t v = 0, in = 0;
  if (local_rank != 0) {
    if (auto s = co_await r.isend(&v, 1, u8, 0, kInterTag); !s.ok()) co_return s;
    co_return co_await r.irecv(&in, 1, u8, 0, kInterTag);
  }
  for (int k = 1; k < r.size; ++k)
    if (auto s = co_await r.irecv(&in, 1, u8, k, kInterTag); !s.ok()) co_return s;
  if (auto s = co_await r.exchange(&v, 1, u8, 0, &in, 1, u8, 0, kInterTag); !s.ok()) co_return s;
  for (int k = 1; k < r.size; ++k)
    if (auto s = co_await r.isend(&v, 1, u8, k, kInterTag); !s.ok()) co_return s;
  co_return {};
}

Task inter_bcast(CommView r, void *buf, std::int64_t count, pack::TypePtr type, int root) {
  if (root == kRootHere) {
    for (int k = 0; k < r.size; ++k)
      if (auto s = co_await r.isend(buf, count, type, k, kInterTag); !s.ok()) co_return s;
    co_return {};
  }
  if (root == kNotRoot) co_return {};
  co_return co_await r.irecv(buf, count, type, root, kInterTag);
}

// The root folds the remote group's values in rank order: x0 op (x1 op ...).
Task inter_reduce(CommView r, const void *sendbuf, void *recvbuf, std::int64_t count,
                  pack::TypePtr type, Reduction op, int root) {
  if (root == kNotRoot) co_return {};
  if (root != kRootHere) co_return co_await r.isend(sendbuf, count, type, root, kInterTag);
  TypedBuffer tmp(type, count);
  if (auto s = co_await r.irecv(recvbuf, count, type, r.size - 1, kInterTag); !s.ok()) co_return s;
  for (int k = r.size - 2; k >= 0; --k) {
    if (auto s = co_await r.irecv(tmp.get(), count, type, k, kInterTag); !s.ok()) co_return s;
    op.combine(tmp.get(), recvbuf);
  }
  co_return {};
}

// Every rank sends its value to every remote rank and folds what it
// receives: each group gets the other group's reduction.
Task inter_allreduce(CommView r, int local_rank, const void *sendbuf, void *recvbuf,
                     std::int64_t count, pack::TypePtr type, Reduction op) {
  (void)local_rank;
  TypedBuffer tmp(type, count);
  std::vector<std::unique_ptr<Await>> sends;
  for (int k = 0; k < r.size; ++k) {
    sends.push_back(std::make_unique<Await>(r.isend(sendbuf, count, type, k, kInterTag)));
    sends.back()->start();
  }
  if (auto s = co_await r.irecv(recvbuf, count, type, r.size - 1, kInterTag); !s.ok()) co_return s;
  for (int k = r.size - 2; k >= 0; --k) {
    if (auto s = co_await r.irecv(tmp.get(), count, type, k, kInterTag); !s.ok()) co_return s;
    op.combine(tmp.get(), recvbuf);
  }
  for (auto &a : sends)
    if (auto s = co_await AwaitRef{*a}; !s.ok()) co_return s;
  co_return {};
}

Task inter_gather(CommView r, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root) {
  if (root == kNotRoot) co_return {};
  if (root != kRootHere) co_return co_await r.isend(sendbuf, scount, stype, root, kInterTag);
  for (int k = 0; k < r.size; ++k)
    if (auto s = co_await r.irecv(static_cast<std::byte *>(recvbuf) + k * rcount * rtype->extent(),
                                  rcount, rtype, k, kInterTag);
        !s.ok())
      co_return s;
  co_return {};
}

Task inter_scatter(CommView r, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                   void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root) {
  if (root == kNotRoot) co_return {};
  if (root != kRootHere) co_return co_await r.irecv(recvbuf, rcount, rtype, root, kInterTag);
  for (int k = 0; k < r.size; ++k)
    if (auto s =
            co_await r.isend(static_cast<const std::byte *>(sendbuf) + k * scount * stype->extent(),
                             scount, stype, k, kInterTag);
        !s.ok())
      co_return s;
  co_return {};
}

// Every rank sends its block to every remote rank (Allgather), or block k
// to remote rank k (Alltoall); receives in rank order.
Task inter_allgather(CommView r, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                     void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, bool alltoall) {
  std::vector<std::unique_ptr<Await>> sends;
  for (int k = 0; k < r.size; ++k) {
    const std::byte *from =
        static_cast<const std::byte *>(sendbuf) + (alltoall ? k * scount * stype->extent() : 0);
    sends.push_back(std::make_unique<Await>(r.isend(from, scount, stype, k, kInterTag)));
    sends.back()->start();
  }
  for (int k = 0; k < r.size; ++k)
    if (auto s = co_await r.irecv(static_cast<std::byte *>(recvbuf) + k * rcount * rtype->extent(),
                                  rcount, rtype, k, kInterTag);
        !s.ok())
      co_return s;
  for (auto &a : sends)
    if (auto s = co_await AwaitRef{*a}; !s.ok()) co_return s;
  co_return {};
}

// The v- and w-forms: block k (its own count, type and byte offset) to and
// from remote rank k. Gatherv/Scatterv: the root's blocks; the others send
// or receive one block. Alltoallv/w, Allgatherv: every rank, every block.
Task inter_gatherv(CommView r, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                   void *recvbuf, std::vector<Block> recv, int root) {
  if (root == kNotRoot) co_return {};
  if (root != kRootHere) co_return co_await r.isend(sendbuf, scount, stype, root, kInterTag);
  for (int k = 0; k < r.size; ++k) {
    const Block &b = recv[static_cast<std::size_t>(k)];
    if (auto s = co_await r.irecv(static_cast<std::byte *>(recvbuf) + b.byte_disp, b.count, b.type,
                                  k, kInterTag);
        !s.ok())
      co_return s;
  }
  co_return {};
}

Task inter_scatterv(CommView r, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                    std::int64_t rcount, pack::TypePtr rtype, int root) {
  if (root == kNotRoot) co_return {};
  if (root != kRootHere) co_return co_await r.irecv(recvbuf, rcount, rtype, root, kInterTag);
  for (int k = 0; k < r.size; ++k) {
    const Block &b = send[static_cast<std::size_t>(k)];
    if (auto s = co_await r.isend(static_cast<const std::byte *>(sendbuf) + b.byte_disp, b.count,
                                  b.type, k, kInterTag);
        !s.ok())
      co_return s;
  }
  co_return {};
}

Task inter_alltoallw(CommView r, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                     std::vector<Block> recv) {
  std::vector<std::unique_ptr<Await>> sends;
  for (int k = 0; k < r.size; ++k) {
    const Block &b = send[static_cast<std::size_t>(k)];
    sends.push_back(std::make_unique<Await>(r.isend(
        static_cast<const std::byte *>(sendbuf) + b.byte_disp, b.count, b.type, k, kInterTag)));
    sends.back()->start();
  }
  for (int k = 0; k < r.size; ++k) {
    const Block &b = recv[static_cast<std::size_t>(k)];
    if (auto s = co_await r.irecv(static_cast<std::byte *>(recvbuf) + b.byte_disp, b.count, b.type,
                                  k, kInterTag);
        !s.ok())
      co_return s;
  }
  for (auto &a : sends)
    if (auto s = co_await AwaitRef{*a}; !s.ok()) co_return s;
  co_return {};
}

// Reduce_scatter (and _block): the reduction of the remote group's vectors,
// cut as our group's counts say. Our rank 0 sends our counts to every
// remote rank (they cut their vectors by them); every rank sends each
// remote rank its piece and folds the pieces it receives in the remote
// group's rank order, x0 op (x1 op ...), as inter_reduce does.
Task inter_reduce_scatter(CommView r, int local_rank, const void *sendbuf, void *recvbuf,
                          std::vector<std::int64_t> counts, pack::TypePtr type, Reduction op) {
  const auto &i8 = pack::Datatype::predefined(pack::dt::int64);
  std::vector<std::unique_ptr<Await>> sends;
  if (local_rank == 0)
    for (int k = 0; k < r.size; ++k) {
      sends.push_back(std::make_unique<Await>(
          r.isend(counts.data(), static_cast<std::int64_t>(counts.size()), i8, k, kInterTag)));
      sends.back()->start();
    }
  std::vector<std::int64_t> theirs(static_cast<std::size_t>(r.size));
  if (auto s = co_await r.irecv(theirs.data(), r.size, i8, 0, kInterTag); !s.ok()) co_return s;
  std::int64_t off = 0;
  for (int k = 0; k < r.size; ++k) {
    std::int64_t n = theirs[static_cast<std::size_t>(k)];
    if (n < 0)
      co_return base::Status{base::Errc::protocol_error, "the remote group sent a negative count"};
    sends.push_back(std::make_unique<Await>(r.isend(
        static_cast<const std::byte *>(sendbuf) + off * type->extent(), n, type, k, kInterTag)));
    sends.back()->start();
    off += n;
  }
  const std::int64_t mine = counts[static_cast<std::size_t>(local_rank)];
  TypedBuffer tmp(type, mine);
  if (auto s = co_await r.irecv(recvbuf, mine, type, r.size - 1, kInterTag); !s.ok()) co_return s;
  for (int k = r.size - 2; k >= 0; --k) {
    if (auto s = co_await r.irecv(tmp.get(), mine, type, k, kInterTag); !s.ok()) co_return s;
    op.combine_n(tmp.get(), recvbuf, mine);
  }
  for (auto &a : sends)
    if (auto s = co_await AwaitRef{*a}; !s.ok()) co_return s;
  co_return {};
}

}  // namespace impi::collectives
