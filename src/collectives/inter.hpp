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
Task inter_reduce(CommView remote, const void *sendbuf, void *recvbuf, std::int64_t count, pack::TypePtr type,
                  Reduction op, int root);
Task inter_allreduce(CommView remote, int local_rank, const void *sendbuf, void *recvbuf, std::int64_t count,
                     pack::TypePtr type, Reduction op);
Task inter_gather(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype, void *recvbuf,
                  std::int64_t rcount, pack::TypePtr rtype, int root);
Task inter_scatter(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype, void *recvbuf,
                   std::int64_t rcount, pack::TypePtr rtype, int root);
Task inter_allgather(CommView remote, const void *sendbuf, std::int64_t scount, pack::TypePtr stype, void *recvbuf,
                     std::int64_t rcount, pack::TypePtr rtype, bool alltoall);

}  // namespace impi::collectives
