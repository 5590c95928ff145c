// coll_args.hpp - what every collective entry point of the API shares
// (coll.cpp, coll_gather.cpp): the argument checks, MPI_IN_PLACE copies,
// handle conversion of reduction operations, and running an operation
// blocking or with a request.
#pragma once

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/ops.hpp"
#include "collectives/collectives.hpp"
#include "collectives/inter.hpp"
#include "collectives/select.hpp"
#include "mpi.h"

namespace impi::api::coll_args {

namespace coll = impi::collectives;

// A communicator, checked.
struct Comm {
  impi::core::Communicator *comm = nullptr;
};

inline int check_comm(const char *fn, MPI_Comm comm, Comm &out, bool allow_inter = false) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  out.comm = impi::api::lookup_comm(comm);
  if (!out.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  if (out.comm->inter &&
      !allow_inter)  // (only Scan and Exscan: every other collective takes intercommunicators)
    return report(
        comm, MPI_ERR_UNSUPPORTED_OPERATION, fn,
        "MPI defines no scan on intercommunicators (MPI-3.1 5.11); use an intracommunicator");
  return MPI_SUCCESS;
}

// An intercommunicator collective's root argument (MPI-3.1 5.2.2):
// MPI_ROOT, MPI_PROC_NULL, or a rank of the remote group.
inline int inter_root(const char *fn, MPI_Comm comm, const Comm &c, int root, int &out) {
  if (root == MPI_ROOT)
    out = coll::kRootHere;
  else if (root == MPI_PROC_NULL)
    out = coll::kNotRoot;
  else if (root >= 0 && root < c.comm->peer_size())
    out = root;
  else
    return report(comm, MPI_ERR_ROOT, fn,
                  fmt::format("root {} is not MPI_ROOT, MPI_PROC_NULL or a remote rank", root));
  return MPI_SUCCESS;
}

inline int no_in_place(const char *fn, MPI_Comm comm, const void *a, const void *b = nullptr) {
  if (a == MPI_IN_PLACE || b == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed on intercommunicators");
  return MPI_SUCCESS;
}

// An intercommunicator's rooted Gather/Scatter: the root argument, no
// MPI_IN_PLACE, and the one type this side uses (root_type at the root,
// peer_type in the other group, none for MPI_PROC_NULL).
inline int inter_rooted(const char *fn, MPI_Comm comm, const Comm &c, int root, const void *sendbuf,
                        const void *recvbuf, MPI_Datatype root_type, MPI_Datatype peer_type, int &r,
                        impi::pack::TypePtr &t) {
  if (int rc = inter_root(fn, comm, c, root, r); rc != MPI_SUCCESS) return rc;
  if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
  if (r == coll::kRootHere) return check_type(fn, comm, root_type, t);
  if (r != coll::kNotRoot) return check_type(fn, comm, peer_type, t);
  t = impi::pack::Datatype::predefined(impi::pack::dt::byte);
  return MPI_SUCCESS;
}

inline int check_count(const char *fn, MPI_Comm comm, MPI_Count count) {
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  return MPI_SUCCESS;
}

inline int check_root(const char *fn, MPI_Comm comm, const Comm &c, int root) {
  if (root < 0 || root >= c.comm->size)
    return report(comm, MPI_ERR_ROOT, fn,
                  fmt::format("root {} is not in a communicator of size {}", root, c.comm->size));
  return MPI_SUCCESS;
}

inline int check_buffer(const char *fn, MPI_Comm comm, const void *buf, MPI_Count count,
                        const impi::pack::TypePtr &t) {
  if (!buf && count > 0 && t->size() > 0 && t->true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  return MPI_SUCCESS;
}

inline int finish(const char *fn, MPI_Comm comm, const impi::base::Status &s) {
  if (!s.ok()) return report(comm, impi::api::error_class_of(s.error()), fn, s.message());
  return MPI_SUCCESS;
}

// The operation as the collectives take it; checks it against the type. A
// predefined one stays an operator (the collectives apply it directly); a
// user function is wrapped in `user`, with the handles it is called with.
inline int make_op(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype datatype,
                   const impi::pack::TypePtr &type, MPI_Count count, coll::Reduction &user,
                   coll::ReduceOp &out) {
  auto o = impi::api::lookup_op(op);
  if (!o) return report(comm, MPI_ERR_OP, fn, "not a valid operation");
  if (o->predefined) {
    if (auto s = impi::pack::check_op(*o->predefined, type); !s.ok())
      return report(comm, MPI_ERR_OP, fn, s.message());
    out.predefined = o->predefined;
    return MPI_SUCCESS;
  }
  impi::api::OpRef ref = *o;
  user.commutative = ref.commutative;
  user.combine = [ref, datatype, type, count, fn](const void *in, void *inout) {
    impi::api::apply_op(ref, datatype, type, count, in, inout, fn, MPI_COMM_NULL);
  };
  user.combine_n = [ref, datatype, type, fn](const void *in, void *inout, std::int64_t n) {
    impi::api::apply_op(ref, datatype, type, n, in, inout, fn, MPI_COMM_NULL);
  };
  out.user = &user;
  return MPI_SUCCESS;
}

inline int make_reduction(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype datatype,
                          const impi::pack::TypePtr &type, MPI_Count count, coll::Reduction &out) {
  coll::ReduceOp o;
  if (int rc = make_op(fn, comm, op, datatype, type, count, out, o); rc != MPI_SUCCESS) return rc;
  if (o.predefined) out = o.take(type, count);
  return MPI_SUCCESS;
}

// Per-rank counts and displacements, checked (int arrays, or the `_c`
// forms' MPI_Count counts and MPI_Aint displacements).
template <typename C, typename D>
inline int vectors(const char *fn, MPI_Comm comm, const Comm &c, const C *counts, const D *displs,
                   std::vector<std::int64_t> &out_counts, std::vector<std::int64_t> &out_displs) {
  if (!counts || !displs) return report(comm, MPI_ERR_ARG, fn, "NULL counts or displacements");
  for (int r = 0; r < c.comm->peer_size(); ++r) {
    if (counts[r] < 0)
      return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count for rank {}", r));
    out_counts.push_back(counts[r]);
    out_displs.push_back(displs[r]);
  }
  return MPI_SUCCESS;
}

// An intercommunicator's Gatherv/Scatterv: inter_rooted's checks, then at
// the root one block per remote rank (its counts and displacements, in
// units of the root's type); elsewhere the one count this side moves.
template <typename C, typename D>
inline int inter_v_rooted(const char *fn, MPI_Comm comm, const Comm &c, int root,
                          const void *sendbuf, const void *recvbuf, MPI_Datatype root_type,
                          MPI_Datatype peer_type, const C *root_counts, const D *root_displs,
                          MPI_Count peer_count, int &r, impi::pack::TypePtr &t,
                          std::vector<coll::Block> &blocks) {
  if (int rc = inter_rooted(fn, comm, c, root, sendbuf, recvbuf, root_type, peer_type, r, t);
      rc != MPI_SUCCESS)
    return rc;
  if (r == coll::kRootHere) {
    std::vector<std::int64_t> counts, disps;
    if (int rc = vectors(fn, comm, c, root_counts, root_displs, counts, disps); rc != MPI_SUCCESS)
      return rc;
    for (std::size_t k = 0; k < counts.size(); ++k)
      blocks.push_back({counts[k], t, disps[k] * t->extent()});
  } else if (r != coll::kNotRoot) {
    return check_count(fn, comm, peer_count);
  }
  return MPI_SUCCESS;
}

inline int launch(const char *fn, MPI_Comm comm, const Comm &c, MPI_Request *request,
                  coll::Task task);

// Allgather or Alltoall on an intercommunicator: every rank's block(s) to
// every remote rank (inter_allgather).
inline int inter_allgather_or_alltoall(const char *fn, MPI_Comm comm, const Comm &c,
                                       MPI_Request *request, const void *sendbuf,
                                       MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       MPI_Count recvcount, MPI_Datatype recvtype, bool alltoall) {
  impi::pack::TypePtr st, rt;
  if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (sendcount < 0 || recvcount < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
  return launch(fn, comm, c, request,
                coll::inter_allgather(coll::remote_view_of(*c.comm), sendbuf, sendcount, st,
                                      recvbuf, recvcount, rt, alltoall));
}

// For MPI_IN_PLACE all-to-all: a copy of the receive buffer's bytes that
// instances at byte offsets first..last (of type t) cover, true bounds
// included; returns where instance offset 0 is in the copy.
inline const void *in_place_copy(const void *recvbuf, const impi::pack::TypePtr &t,
                                 std::int64_t first, std::int64_t last,
                                 std::vector<std::byte> &copy) {
  if (first < 0) return recvbuf;  // nothing to send
  std::int64_t from = first + t->true_lb(), to = last + t->true_ub();
  const auto *base = static_cast<const std::byte *>(recvbuf);
  copy.assign(base + from, base + to);
  return copy.data() - from;
}

inline void copy_typed_api(const void *from, void *to, const impi::pack::TypePtr &t,
                           std::int64_t count) {
  coll::copy_typed(from, to, t, count);
}

// Blocking (request == nullptr): `call(nullptr)`'s result. Non-blocking:
// `call(&r)` queues the operation; *request becomes r's handle.
template <typename Call>
inline int run(const char *fn, MPI_Comm comm, MPI_Request *request, Call call) {
  if (!request) return finish(fn, comm, call(nullptr));
  impi::core::RequestPtr r;
  if (auto s = call(&r); !s.ok()) return finish(fn, comm, s);
  *request = impi::api::new_request_handle(std::move(r), impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

inline int launch(const char *fn, MPI_Comm comm, const Comm &c, MPI_Request *request,
                  coll::Task task) {
  return run(fn, comm, request,
             [&](impi::core::RequestPtr *r) { return coll::start(*c.comm, std::move(task), r); });
}

}  // namespace impi::api::coll_args
