// coll.cpp - Barrier, Bcast and the reductions: argument checks,
// MPI_IN_PLACE and handle conversion, then src/collectives (select.hpp),
// which chooses the algorithm. Gather, scatter, all-to-all: coll_gather.cpp.
#include <climits>
#include <vector>

#include "api/coll_args.hpp"

using impi::api::check_type;
using impi::api::report;
using namespace impi::api::coll_args;

extern "C" {

static int impl_Barrier(MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  return run(fn, comm, request,
             [&](impi::core::RequestPtr *r) { return coll::barrier(*c.comm, r); });
}

static int impl_Bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr t;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    if (int rc = inter_root(fn, comm, c, root, root); rc != MPI_SUCCESS) return rc;
    if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  } else {
    if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
    if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, buffer, count, t); rc != MPI_SUCCESS) return rc;
  }
  return run(fn, comm, request, [&](impi::core::RequestPtr *r) {
    return coll::bcast(*c.comm, buffer, count, t, root, r);
  });
}

static int impl_Reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction user;
  coll::ReduceOp o;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    if (int rc = inter_root(fn, comm, c, root, root); rc != MPI_SUCCESS) return rc;
    if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
    if (int rc = make_op(fn, comm, op, datatype, t, count, user, o); rc != MPI_SUCCESS) return rc;
  } else {
    if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
    if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
    if (int rc = make_op(fn, comm, op, datatype, t, count, user, o); rc != MPI_SUCCESS) return rc;
    const bool at_root = c.comm->rank == root;
    if (sendbuf == MPI_IN_PLACE) {
      if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
      sendbuf = recvbuf;
    } else if (at_root && sendbuf == recvbuf && count > 0) {
      return report(comm, MPI_ERR_BUFFER, fn,
                    "send and receive buffers are the same (use MPI_IN_PLACE)");
    }
    if (int rc = check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
    if (at_root)
      if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  }
  return run(fn, comm, request, [&](impi::core::RequestPtr *r) {
    return coll::reduce(*c.comm, sendbuf, recvbuf, count, t, o, root, r);
  });
}

// The checks of an Allreduce that is not the common case below.
static int allreduce_args(const char *fn, MPI_Comm comm, const Comm &c, const void *&sendbuf,
                          void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          impi::pack::TypePtr &t, coll::Reduction &user, coll::ReduceOp &o) {
  if (c.comm->inter) {
    if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
    return make_op(fn, comm, op, datatype, t, count, user, o);
  }
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE)
    sendbuf = recvbuf;
  else if (sendbuf == recvbuf && count > 0)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "send and receive buffers are the same (use MPI_IN_PLACE)");
  if (int rc = check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
  if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  return make_op(fn, comm, op, datatype, t, count, user, o);
}

static int impl_Allreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request,
                          const char *fn) {
  Comm c;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  // The common small case first: valid buffers, a predefined type and
  // operation on an intracommunicator pass every check of allreduce_args
  // and need no copy of the type's handle (with 4 procs on 2 cores, every
  // call runs after a context switch, and the general path's extra work is
  // a tenth of a small call).
  if (!c.comm->inter && count > 0 && sendbuf && recvbuf && sendbuf != recvbuf) {
    if (const impi::pack::TypePtr *pt = impi::api::lookup_predefined_type(datatype)) {
      auto ref = impi::api::lookup_op(op);
      if (ref && ref->predefined && impi::pack::check_op(*ref->predefined, *pt).ok()) {
        coll::ReduceOp o{ref->predefined};
        const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
        return run(fn, comm, request, [&](impi::core::RequestPtr *r) {
          return coll::allreduce(*c.comm, in, recvbuf, count, *pt, o, r);
        });
      }
    }
  }
  impi::pack::TypePtr t;
  coll::Reduction user;
  coll::ReduceOp o;
  if (int rc = allreduce_args(fn, comm, c, sendbuf, recvbuf, count, datatype, op, t, user, o);
      rc != MPI_SUCCESS)
    return rc;
  return run(fn, comm, request, [&](impi::core::RequestPtr *r) {
    return coll::allreduce(*c.comm, sendbuf, recvbuf, count, t, o, r);
  });
}

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Reduce_scatter(const void *sendbuf, void *recvbuf, const C recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (!recvcounts) return report(comm, MPI_ERR_ARG, fn, "recvcounts is NULL");
  std::vector<std::int64_t> counts;
  std::int64_t total = 0;
  for (int r = 0; r < c.comm->size; ++r) {
    if (recvcounts[r] < 0)
      return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count for rank {}", r));
    counts.push_back(recvcounts[r]);
    total += recvcounts[r];
  }
  if (int rc = make_reduction(fn, comm, op, datatype, t, total, red); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    // The remote group's reduction, cut by our counts (MPI-3.1 5.10.1).
    if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
    return launch(fn, comm, c, request,
                  coll::inter_reduce_scatter(coll::remote_view_of(*c.comm), c.comm->rank, sendbuf,
                                             recvbuf, std::move(counts), t, std::move(red)));
  }
  std::vector<std::byte> copy;
  if (sendbuf == MPI_IN_PLACE && total > 0) {  // the input is all of recvbuf: from a copy
    copy.resize(static_cast<std::size_t>(t->true_extent() + (total - 1) * t->extent()));
    void *in = copy.data() - t->true_lb();
    copy_typed_api(recvbuf, in, t, total);
    sendbuf = in;
  }
  return launch(fn, comm, c, request,
                coll::reduce_scatter_task(coll::view_of(*c.comm), sendbuf, recvbuf,
                                          std::move(counts), t, std::move(red), std::move(copy)));
}
}  // extern "C++"

static int impl_Reduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Request *request, const char *fn) {
  Comm c;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  std::vector<MPI_Count> counts(static_cast<std::size_t>(c.comm->size), recvcount);
  return impl_Reduce_scatter(sendbuf, recvbuf, counts.data(), datatype, op, comm, request, fn);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr,
                                   "MPI_Reduce_scatter_block");
}

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr,
                                   "MPI_Reduce_scatter_block_c");
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter_block", "request is NULL");
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                   "MPI_Ireduce_scatter_block");
}

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter_block_c", "request is NULL");
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                   "MPI_Ireduce_scatter_block_c");
}

static int scan_common(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool exclusive,
                       MPI_Request *request) {
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = make_reduction(fn, comm, op, datatype, t, count, red); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE) sendbuf = recvbuf;
  if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  return launch(fn, comm, c, request,
                coll::scan_task(coll::view_of(*c.comm), sendbuf, recvbuf, count, t, std::move(red),
                                exclusive));
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
  return scan_common("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false, nullptr);
}

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Scan_c", sendbuf, recvbuf, count, datatype, op, comm, false, nullptr);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm) {
  return scan_common("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true, nullptr);
}

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Exscan_c", sendbuf, recvbuf, count, datatype, op, comm, true, nullptr);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscan", "request is NULL");
  return scan_common("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, false, request);
}

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscan_c", "request is NULL");
  return scan_common("MPI_Iscan_c", sendbuf, recvbuf, count, datatype, op, comm, false, request);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iexscan", "request is NULL");
  return scan_common("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, true, request);
}

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iexscan_c", "request is NULL");
  return scan_common("MPI_Iexscan_c", sendbuf, recvbuf, count, datatype, op, comm, true, request);
}

int PMPI_Barrier(MPI_Comm comm) {
  return impl_Barrier(comm, nullptr, "MPI_Barrier");
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ibarrier", "request is NULL");
  return impl_Barrier(comm, request, "MPI_Ibarrier");
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return impl_Bcast(buffer, count, datatype, root, comm, nullptr, "MPI_Bcast");
}

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return impl_Bcast(buffer, count, datatype, root, comm, nullptr, "MPI_Bcast_c");
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ibcast", "request is NULL");
  return impl_Bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast");
}

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ibcast_c", "request is NULL");
  return impl_Bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast_c");
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, nullptr, "MPI_Reduce");
}

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm) {
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, nullptr, "MPI_Reduce_c");
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce", "request is NULL");
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request, "MPI_Ireduce");
}

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_c", "request is NULL");
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request, "MPI_Ireduce_c");
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, nullptr, "MPI_Allreduce");
}

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm) {
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, nullptr, "MPI_Allreduce_c");
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallreduce", "request is NULL");
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, request, "MPI_Iallreduce");
}

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallreduce_c", "request is NULL");
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, request, "MPI_Iallreduce_c");
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr,
                             "MPI_Reduce_scatter");
}

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr,
                             "MPI_Reduce_scatter_c");
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter", "request is NULL");
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                             "MPI_Ireduce_scatter");
}

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter_c", "request is NULL");
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                             "MPI_Ireduce_scatter_c");
}

}  // extern "C"

#include "api/generated/coll_aliases.inc"
