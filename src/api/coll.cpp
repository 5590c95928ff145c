// coll.cpp - collective operations: argument checks, MPI_IN_PLACE, then
// src/collectives (IMPI algorithms on communicators spanning clients).
#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/ops.hpp"
#include "collectives/collectives.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::report;

namespace {

namespace coll = impi::collectives;

// A communicator, checked.
struct Comm {
  impi::core::Communicator *comm = nullptr;
};

int check_comm(const char *fn, MPI_Comm comm, Comm &out) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  out.comm = impi::api::lookup_comm(comm);
  if (!out.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  if (out.comm->inter)
    return report(comm, MPI_ERR_UNSUPPORTED_OPERATION, fn, "collectives on intercommunicators are not implemented yet");
  return MPI_SUCCESS;
}

// A datatype, checked: valid, committed. `keep` holds a derived type alive.
int check_type(const char *fn, MPI_Comm comm, MPI_Datatype datatype, impi::pack::TypePtr &keep) {
  if (const auto *pre = impi::api::lookup_predefined_type(datatype)) {
    keep = *pre;
    return MPI_SUCCESS;
  }
  auto ty = impi::api::lookup_type(datatype);
  if (!ty) return report(comm, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!ty->committed) return report(comm, MPI_ERR_TYPE, fn, "the datatype is not committed");
  keep = std::move(ty->type);
  return MPI_SUCCESS;
}

int check_count(const char *fn, MPI_Comm comm, int count) {
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  return MPI_SUCCESS;
}

int check_root(const char *fn, MPI_Comm comm, const Comm &c, int root) {
  if (root < 0 || root >= c.comm->size)
    return report(comm, MPI_ERR_ROOT, fn, fmt::format("root {} is not in a communicator of size {}", root, c.comm->size));
  return MPI_SUCCESS;
}

int check_buffer(const char *fn, MPI_Comm comm, const void *buf, int count, const impi::pack::TypePtr &t) {
  if (!buf && count > 0 && t->size() > 0 && t->true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  return MPI_SUCCESS;
}

int finish(const char *fn, MPI_Comm comm, const impi::base::Status &s) {
  if (!s.ok()) return report(comm, impi::api::error_class_of(s.error()), fn, s.message());
  return MPI_SUCCESS;
}

// The operation as the collectives take it; checks it against the type.
int make_reduction(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype datatype,
                   const impi::pack::TypePtr &type, int count, coll::Reduction &out) {
  auto o = impi::api::lookup_op(op);
  if (!o) return report(comm, MPI_ERR_OP, fn, "not a valid operation");
  if (o->predefined) {
    if (auto s = impi::pack::check_op(*o->predefined, type); !s.ok()) return report(comm, MPI_ERR_OP, fn, s.message());
  }
  impi::api::OpRef ref = *o;
  out.commutative = ref.commutative;
  out.combine = [ref, datatype, type, count, fn](const void *in, void *inout) {
    impi::api::apply_op(ref, datatype, type, count, in, inout, fn, MPI_COMM_NULL);
  };
  return MPI_SUCCESS;
}

// Per-rank counts and displacements, checked.
int vectors(const char *fn, MPI_Comm comm, const Comm &c, const int *counts, const int *displs,
            std::vector<std::int64_t> &out_counts, std::vector<std::int64_t> &out_displs) {
  if (!counts || !displs) return report(comm, MPI_ERR_ARG, fn, "NULL counts or displacements");
  for (int r = 0; r < c.comm->peer_size(); ++r) {
    if (counts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count for rank {}", r));
    out_counts.push_back(counts[r]);
    out_displs.push_back(displs[r]);
  }
  return MPI_SUCCESS;
}

// For MPI_IN_PLACE all-to-all: a copy of the receive buffer's bytes that
// instances at byte offsets first..last (of type t) cover, true bounds
// included; returns where instance offset 0 is in the copy.
const void *in_place_copy(const void *recvbuf, const impi::pack::TypePtr &t, std::int64_t first, std::int64_t last,
                          std::vector<std::byte> &copy) {
  if (first < 0) return recvbuf;  // nothing to send
  std::int64_t from = first + t->true_lb(), to = last + t->true_ub();
  const auto *base = static_cast<const std::byte *>(recvbuf);
  copy.assign(base + from, base + to);
  return copy.data() - from;
}

void copy_typed_api(const void *from, void *to, const impi::pack::TypePtr &t, std::int64_t count) {
  coll::copy_typed(from, to, t, count);
}

}  // namespace

extern "C" {

int PMPI_Barrier(MPI_Comm comm) {
  Comm c;
  if (int rc = check_comm("MPI_Barrier", comm, c); rc != MPI_SUCCESS) return rc;
  return finish("MPI_Barrier", comm, coll::barrier(coll::view_of(*c.comm)));
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const char *fn = "MPI_Bcast";
  Comm c;
  impi::pack::TypePtr t;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  if (int rc = check_buffer(fn, comm, buffer, count, t); rc != MPI_SUCCESS) return rc;
  return finish(fn, comm, coll::bcast(coll::view_of(*c.comm), buffer, count, t, root));
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm) {
  const char *fn = "MPI_Reduce";
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  if (int rc = make_reduction(fn, comm, op, datatype, t, count, red); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    sendbuf = recvbuf;
  } else if (at_root && sendbuf == recvbuf && count > 0) {
    return report(comm, MPI_ERR_BUFFER, fn, "send and receive buffers are the same (use MPI_IN_PLACE)");
  }
  if (int rc = check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
  if (at_root)
    if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  return finish(fn, comm, coll::reduce(coll::view_of(*c.comm), sendbuf, recvbuf, count, t, red, root));
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  const char *fn = "MPI_Allreduce";
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = make_reduction(fn, comm, op, datatype, t, count, red); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE)
    sendbuf = recvbuf;
  else if (sendbuf == recvbuf && count > 0)
    return report(comm, MPI_ERR_BUFFER, fn, "send and receive buffers are the same (use MPI_IN_PLACE)");
  if (int rc = check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
  if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  return finish(fn, comm, coll::allreduce(coll::view_of(*c.comm), sendbuf, recvbuf, count, t, red));
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char *fn = "MPI_Gather";
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (at_root) {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (sendbuf == MPI_IN_PLACE) {
    sendbuf = nullptr;
    st = rt;
    sendcount = recvcount;
  }
  if (!rt) rt = st;  // not significant away from the root
  return finish(fn, comm, coll::gather(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, recvcount, rt, root));
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
  const char *fn = "MPI_Allgather";
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE) {
    // My block is already in place in recvbuf.
    sendbuf = static_cast<const std::byte *>(recvbuf) +
              static_cast<std::int64_t>(c.comm->rank) * recvcount * rt->extent();
    st = rt;
    sendcount = recvcount;
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  return finish(fn, comm, coll::allgather(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, recvcount, rt));
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char *fn = "MPI_Gatherv";
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  std::vector<std::int64_t> counts, disps;
  if (at_root) {
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS) return rc;
  }
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    sendbuf = nullptr;
    st = rt;
    sendcount = static_cast<int>(counts[static_cast<std::size_t>(root)]);
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (!rt) rt = st;
  return finish(fn, comm, coll::gatherv(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, counts, disps, rt, root));
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char *fn = "MPI_Allgatherv";
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE) {
    auto me = static_cast<std::size_t>(c.comm->rank);
    sendbuf = static_cast<const std::byte *>(recvbuf) + disps[me] * rt->extent();
    st = rt;
    sendcount = static_cast<int>(counts[me]);
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  return finish(fn, comm, coll::allgatherv(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, counts, disps, rt));
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char *fn = "MPI_Scatter";
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (at_root) {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (recvbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    recvbuf = nullptr;
    rt = st;
    recvcount = sendcount;
  } else {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (!st) st = rt;
  return finish(fn, comm, coll::scatter(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, recvcount, rt, root));
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char *fn = "MPI_Scatterv";
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (at_root) {
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, displs, counts, disps); rc != MPI_SUCCESS) return rc;
  }
  if (recvbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    recvbuf = nullptr;
    rt = st;
    recvcount = static_cast<int>(counts[static_cast<std::size_t>(root)]);
  } else {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (!st) st = rt;
  if (!at_root) counts.assign(static_cast<std::size_t>(c.comm->size), 0), disps = counts;
  return finish(fn, comm, coll::scatterv(coll::view_of(*c.comm), sendbuf, counts, disps, st, recvbuf, recvcount, rt, root));
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const char *fn = "MPI_Alltoall";
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (sendbuf == MPI_IN_PLACE) {  // the data to send is in recvbuf: send from a copy
    st = rt;
    sendcount = recvcount;
    std::int64_t n = static_cast<std::int64_t>(c.comm->size) * recvcount;
    sendbuf = in_place_copy(recvbuf, rt, n > 0 ? 0 : -1, n > 0 ? (n - 1) * rt->extent() : -1, copy);
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  }
  std::vector<coll::Block> sb, rb;
  for (int r = 0; r < c.comm->size; ++r) {
    sb.push_back({sendcount, st, static_cast<std::int64_t>(r) * sendcount * st->extent()});
    rb.push_back({recvcount, rt, static_cast<std::int64_t>(r) * recvcount * rt->extent()});
  }
  return finish(fn, comm, coll::alltoallw(coll::view_of(*c.comm), sendbuf, sb, recvbuf, rb, 170));
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char *fn = "MPI_Alltoallv";
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> sc, sd, rc_, rd;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, rdispls, rc_, rd); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (sendbuf == MPI_IN_PLACE) {
    st = rt;
    sc = rc_;
    sd = rd;
    std::int64_t lo = -1, hi = -1;  // byte offsets of the first and last instance any block covers
    for (std::size_t r = 0; r < rc_.size(); ++r) {
      if (rc_[r] == 0) continue;
      std::int64_t a = rd[r] * rt->extent(), b = (rd[r] + rc_[r] - 1) * rt->extent();
      lo = lo < 0 ? a : std::min(lo, a);
      hi = std::max(hi, b);
    }
    sendbuf = in_place_copy(recvbuf, rt, lo, hi, copy);
  } else {
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, sdispls, sc, sd); rc != MPI_SUCCESS) return rc;
  }
  std::vector<coll::Block> sb, rb;
  for (std::size_t r = 0; r < sc.size(); ++r) {
    sb.push_back({sc[r], st, sd[r] * st->extent()});
    rb.push_back({rc_[r], rt, rd[r] * rt->extent()});
  }
  return finish(fn, comm, coll::alltoallw(coll::view_of(*c.comm), sendbuf, sb, recvbuf, rb, 180));
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm) {
  const char *fn = "MPI_Alltoallw";
  Comm c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE)
    return report(comm, MPI_ERR_UNSUPPORTED_OPERATION, fn, "MPI_IN_PLACE is not implemented for MPI_Alltoallw yet");
  if (!sendcounts || !sdispls || !sendtypes || !recvcounts || !rdispls || !recvtypes)
    return report(comm, MPI_ERR_ARG, fn, "NULL array");
  std::vector<coll::Block> sb, rb;
  for (int r = 0; r < c.comm->size; ++r) {
    impi::pack::TypePtr st, rt;
    if (int rc = check_type(fn, comm, sendtypes[r], st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtypes[r], rt); rc != MPI_SUCCESS) return rc;
    if (sendcounts[r] < 0 || recvcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
    sb.push_back({sendcounts[r], st, sdispls[r]});
    rb.push_back({recvcounts[r], rt, rdispls[r]});
  }
  return finish(fn, comm, coll::alltoallw(coll::view_of(*c.comm), sendbuf, sb, recvbuf, rb, 180));
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm) {
  const char *fn = "MPI_Reduce_scatter";
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (!recvcounts) return report(comm, MPI_ERR_ARG, fn, "recvcounts is NULL");
  std::vector<std::int64_t> counts;
  std::int64_t total = 0;
  for (int r = 0; r < c.comm->size; ++r) {
    if (recvcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count for rank {}", r));
    counts.push_back(recvcounts[r]);
    total += recvcounts[r];
  }
  if (total > INT_MAX) return report(comm, MPI_ERR_COUNT, fn, "the counts add up to more than INT_MAX");
  if (int rc = make_reduction(fn, comm, op, datatype, t, static_cast<int>(total), red); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (sendbuf == MPI_IN_PLACE) {  // the input is all of recvbuf
    coll::TypedBuffer in(t, total);
    copy_typed_api(recvbuf, in.get(), t, total);
    return finish(fn, comm, coll::reduce_scatter(coll::view_of(*c.comm), in.get(), recvbuf, counts, t, red));
  }
  return finish(fn, comm, coll::reduce_scatter(coll::view_of(*c.comm), sendbuf, recvbuf, counts, t, red));
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  Comm c;
  if (int rc = check_comm("MPI_Reduce_scatter_block", comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count("MPI_Reduce_scatter_block", comm, recvcount); rc != MPI_SUCCESS) return rc;
  std::vector<int> counts(static_cast<std::size_t>(c.comm->size), recvcount);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, counts.data(), datatype, op, comm);
}

static int scan_common(const char *fn, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, bool exclusive) {
  Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = make_reduction(fn, comm, op, datatype, t, count, red); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE) sendbuf = recvbuf;
  if (int rc = check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  return finish(fn, comm, coll::scan(coll::view_of(*c.comm), sendbuf, recvbuf, count, t, red, exclusive));
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true);
}

}  // extern "C"

#include "api/generated/coll_aliases.inc"
