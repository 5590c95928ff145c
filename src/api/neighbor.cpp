// neighbor.cpp - the neighbourhood collectives (MPI-3.1 7.6 and 7.7),
// blocking and non-blocking: argument checks, then one exchange
// (collectives/neighbor.cpp) whose blocks the five forms describe.
// Buffers hold one block per neighbour in the topology's order: per
// Cartesian dimension the -1 then the +1 neighbour (an MPI_PROC_NULL
// neighbour's block is left alone), a graph's neighbours as
// MPI_Graph_neighbors lists them, a distributed graph's sources (receive)
// and destinations (send).
#include "collectives/neighbor.hpp"

#include <fmt/core.h>

#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::check_type;
using impi::api::report;
using impi::core::Topology;

namespace {

namespace coll = impi::collectives;

// One neighbourhood operation being described: the communicator, its
// neighbours, and the blocks to send and receive.
struct Plan {
  impi::core::Communicator *comm = nullptr;
  const Topology *topo = nullptr;
  std::vector<int> in, out;
  std::vector<coll::Edge> send, recv;
};

int plan_of(const char *fn, MPI_Comm comm, Plan &p) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  p.comm = impi::api::lookup_comm(comm);
  if (!p.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  p.topo = p.comm->topology.get();
  if (!p.topo)
    return report(
        comm, MPI_ERR_TOPOLOGY, fn,
        "the communicator has no topology (make one with MPI_Cart_create, MPI_Graph_create or "
        "MPI_Dist_graph_create)");
  p.in = p.topo->in_neighbours(p.comm->rank);
  p.out = p.topo->out_neighbours(p.comm->rank);
  return MPI_SUCCESS;
}

template <typename C>
int check_counts(const char *fn, MPI_Comm comm, const C *counts, const void *displs,
                 std::size_t n) {
  if (n > 0 && (!counts || !displs))
    return report(comm, MPI_ERR_ARG, fn, "NULL counts or displacements");
  for (std::size_t i = 0; i < n; ++i)
    if (counts[i] < 0)
      return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count for neighbour {}", i));
  return MPI_SUCCESS;
}

// Block i of the send side goes to out[i], of the receive side comes from in[i].
void add_send(Plan &p, std::size_t i, coll::Block b) {
  p.send.push_back({p.out[i], coll::neighbour_send_tag(*p.topo, i), std::move(b)});
}
void add_recv(Plan &p, std::size_t i, coll::Block b) {
  p.recv.push_back({p.in[i], coll::neighbour_recv_tag(*p.topo, i), std::move(b)});
}

int run(const char *fn, MPI_Comm comm, Plan &p, const void *sendbuf, void *recvbuf,
        MPI_Request *request) {
  auto &p2p = impi::core::Runtime::instance().p2p();
  auto task = coll::neighbor_exchange(coll::view_of(*p.comm), sendbuf, std::move(p.send), recvbuf,
                                      std::move(p.recv), {});
  if (request) {
    *request = impi::api::new_request_handle(coll::start_nonblocking(p.comm, p2p, std::move(task)),
                                             impi::api::handle_value(comm));
    return MPI_SUCCESS;
  }
  coll::drain(p.comm, p2p);
  if (auto s = coll::run_blocking(p2p, std::move(task)); !s.ok())
    return report(comm, impi::api::error_class_of(s.error()), fn, s.message());
  return MPI_SUCCESS;
}

// Allgather (every out-neighbour gets the same block) or Alltoall (block i
// to out-neighbour i), with equal counts.
int uniform(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
            void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
            MPI_Request *request, bool alltoall) {
  Plan p;
  impi::pack::TypePtr st, rt;
  if (int rc = plan_of(fn, comm, p); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "MPI_IN_PLACE is not allowed in neighbourhood collectives");
  if (sendcount < 0 || recvcount < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
  if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  for (std::size_t i = 0; i < p.out.size(); ++i)
    add_send(
        p, i,
        {sendcount, st, alltoall ? static_cast<std::int64_t>(i) * sendcount * st->extent() : 0});
  for (std::size_t i = 0; i < p.in.size(); ++i)
    add_recv(p, i, {recvcount, rt, static_cast<std::int64_t>(i) * recvcount * rt->extent()});
  return run(fn, comm, p, sendbuf, recvbuf, request);
}

template <typename C, typename D>
int allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, const C recvcounts[], const D displs[], MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request *request) {
  Plan p;
  impi::pack::TypePtr st, rt;
  if (int rc = plan_of(fn, comm, p); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "MPI_IN_PLACE is not allowed in neighbourhood collectives");
  if (sendcount < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
  if (int rc = check_counts(fn, comm, recvcounts, displs, p.in.size()); rc != MPI_SUCCESS)
    return rc;
  if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  for (std::size_t i = 0; i < p.out.size(); ++i) add_send(p, i, {sendcount, st, 0});
  for (std::size_t i = 0; i < p.in.size(); ++i)
    add_recv(p, i, {recvcounts[i], rt, displs[i] * rt->extent()});
  return run(fn, comm, p, sendbuf, recvbuf, request);
}

template <typename C, typename D>
int alltoallv(const char *fn, const void *sendbuf, const C sendcounts[], const D sdispls[],
              MPI_Datatype sendtype, void *recvbuf, const C recvcounts[], const D rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  Plan p;
  impi::pack::TypePtr st, rt;
  if (int rc = plan_of(fn, comm, p); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "MPI_IN_PLACE is not allowed in neighbourhood collectives");
  if (int rc = check_counts(fn, comm, sendcounts, sdispls, p.out.size()); rc != MPI_SUCCESS)
    return rc;
  if (int rc = check_counts(fn, comm, recvcounts, rdispls, p.in.size()); rc != MPI_SUCCESS)
    return rc;
  if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  for (std::size_t i = 0; i < p.out.size(); ++i)
    add_send(p, i, {sendcounts[i], st, sdispls[i] * st->extent()});
  for (std::size_t i = 0; i < p.in.size(); ++i)
    add_recv(p, i, {recvcounts[i], rt, rdispls[i] * rt->extent()});
  return run(fn, comm, p, sendbuf, recvbuf, request);
}

// Displacements in bytes, a type per neighbour.
template <typename C>
int alltoallw(const char *fn, const void *sendbuf, const C sendcounts[], const MPI_Aint sdispls[],
              const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[],
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
              MPI_Request *request) {
  Plan p;
  if (int rc = plan_of(fn, comm, p); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "MPI_IN_PLACE is not allowed in neighbourhood collectives");
  if (int rc = check_counts(fn, comm, sendcounts, sdispls, p.out.size()); rc != MPI_SUCCESS)
    return rc;
  if (int rc = check_counts(fn, comm, recvcounts, rdispls, p.in.size()); rc != MPI_SUCCESS)
    return rc;
  if ((!p.out.empty() && !sendtypes) || (!p.in.empty() && !recvtypes))
    return report(comm, MPI_ERR_ARG, fn, "NULL datatype array");
  for (std::size_t i = 0; i < p.out.size(); ++i) {
    impi::pack::TypePtr t;
    if (int rc = check_type(fn, comm, sendtypes[i], t); rc != MPI_SUCCESS) return rc;
    add_send(p, i, {sendcounts[i], std::move(t), sdispls[i]});
  }
  for (std::size_t i = 0; i < p.in.size(); ++i) {
    impi::pack::TypePtr t;
    if (int rc = check_type(fn, comm, recvtypes[i], t); rc != MPI_SUCCESS) return rc;
    add_recv(p, i, {recvcounts[i], std::move(t), rdispls[i]});
  }
  return run(fn, comm, p, sendbuf, recvbuf, request);
}

int need_request(const char *fn, MPI_Comm comm, MPI_Request *request) {
  return request ? MPI_SUCCESS : report(comm, MPI_ERR_ARG, fn, "request is NULL");
}

}  // namespace

extern "C" {

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return uniform("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, nullptr, false);
}

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) {
  return uniform("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, nullptr, false);
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_allgather";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return uniform(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                 false);
}

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_allgather_c";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return uniform(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                 false);
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, nullptr);
}

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm) {
  return allgatherv("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, nullptr);
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_allgatherv";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                    request);
}

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_allgatherv_c";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return allgatherv(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                    request);
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return uniform("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, nullptr, true);
}

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  return uniform("MPI_Neighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, nullptr, true);
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoall";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return uniform(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                 true);
}

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoall_c";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return uniform(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                 true);
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, nullptr);
}

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoallv("MPI_Neighbor_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, nullptr);
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoallv";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return alltoallv(fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                   recvtype, comm, request);
}

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoallv_c";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return alltoallv(fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                   recvtype, comm, request);
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm) {
  return alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, nullptr);
}

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return alltoallw("MPI_Neighbor_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, nullptr);
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoallw";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return alltoallw(fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                   recvtypes, comm, request);
}

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request) {
  constexpr const char *fn = "MPI_Ineighbor_alltoallw_c";
  if (int rc = need_request(fn, comm, request); rc != MPI_SUCCESS) return rc;
  return alltoallw(fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                   recvtypes, comm, request);
}

}  // extern "C"

#include "api/generated/neighbor_aliases.inc"
