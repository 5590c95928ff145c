// inter.hpp - collectives on intercommunicators (inter.cpp).
#pragma once

#include "collectives/collectives.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

// Root arguments, translated by the API: MPI_ROOT and MPI_PROC_NULL.
constexpr int kRootHere = -3;
constexpr int kNotRoot = -2;

Task inter_barrier(CommView remote, int local_rank);
Task inter_bcast(CommView remote, void *buf, std::int64_t count, pack::TypePtr type, int root);
Task inter_reduce(CommView remote, const void *sendbuf, void *recvbuf, std::int64_t count,
                  pack::TypePtr type, Reduction op, int root);
Task inter_allreduce(CommView remote, int local_rank, const void *sendbuf, void *recvbuf,
                     std::int64_t count, pack::TypePtr type, Reduction op);
Task inter_gather(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                  void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root);
Task inter_scatter(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                   void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, int root);
Task inter_allgather(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                     void *recvbuf, std::int64_t rcount, pack::TypePtr rtype, bool alltoall);
// Block k: to / from remote rank k (byte offsets from the buffer).
Task inter_gatherv(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype,
                   void *recvbuf, std::vector<Block> recv, int root);
Task inter_scatterv(CommView remote, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                    std::int64_t rcount, pack::TypePtr rtype, int root);
Task inter_alltoallw(CommView remote, const void *sendbuf, std::vector<Block> send, void *recvbuf,
                     std::vector<Block> recv);
// `counts`: our group's recvcounts (the remote group cuts its vectors by them).
Task inter_reduce_scatter(CommView remote, int local_rank, const void *sendbuf, void *recvbuf,
                          std::vector<std::int64_t> counts, pack::TypePtr type, Reduction op);

}  // namespace impi::collectives
