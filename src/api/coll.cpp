// coll.cpp - collective operations: argument checks, MPI_IN_PLACE and
// handle conversion, then src/collectives (select.hpp), which chooses the
// algorithm.
#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/ops.hpp"
#include "collectives/collectives.hpp"
#include "collectives/inter.hpp"
#include "collectives/select.hpp"
#include "mpi.h"

using impi::api::check_type;
using impi::api::report;

namespace {

namespace coll = impi::collectives;

// A communicator, checked.
struct Comm {
  impi::core::Communicator *comm = nullptr;
};

int check_comm(const char *fn, MPI_Comm comm, Comm &out, bool allow_inter = false) {
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
int inter_root(const char *fn, MPI_Comm comm, const Comm &c, int root, int &out) {
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

int no_in_place(const char *fn, MPI_Comm comm, const void *a, const void *b = nullptr) {
  if (a == MPI_IN_PLACE || b == MPI_IN_PLACE)
    return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed on intercommunicators");
  return MPI_SUCCESS;
}

// An intercommunicator's rooted Gather/Scatter: the root argument, no
// MPI_IN_PLACE, and the one type this side uses (root_type at the root,
// peer_type in the other group, none for MPI_PROC_NULL).
int inter_rooted(const char *fn, MPI_Comm comm, const Comm &c, int root, const void *sendbuf,
                 const void *recvbuf, MPI_Datatype root_type, MPI_Datatype peer_type, int &r,
                 impi::pack::TypePtr &t) {
  if (int rc = inter_root(fn, comm, c, root, r); rc != MPI_SUCCESS) return rc;
  if (int rc = no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
  if (r == coll::kRootHere) return check_type(fn, comm, root_type, t);
  if (r != coll::kNotRoot) return check_type(fn, comm, peer_type, t);
  t = impi::pack::Datatype::predefined(impi::pack::dt::byte);
  return MPI_SUCCESS;
}

int check_count(const char *fn, MPI_Comm comm, int count) {
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  return MPI_SUCCESS;
}

int check_root(const char *fn, MPI_Comm comm, const Comm &c, int root) {
  if (root < 0 || root >= c.comm->size)
    return report(comm, MPI_ERR_ROOT, fn,
                  fmt::format("root {} is not in a communicator of size {}", root, c.comm->size));
  return MPI_SUCCESS;
}

int check_buffer(const char *fn, MPI_Comm comm, const void *buf, int count,
                 const impi::pack::TypePtr &t) {
  if (!buf && count > 0 && t->size() > 0 && t->true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  return MPI_SUCCESS;
}

int finish(const char *fn, MPI_Comm comm, const impi::base::Status &s) {
  if (!s.ok()) return report(comm, impi::api::error_class_of(s.error()), fn, s.message());
  return MPI_SUCCESS;
}

// The operation as the collectives take it; checks it against the type. A
// predefined one stays an operator (the collectives apply it directly); a
// user function is wrapped in `user`, with the handles it is called with.
int make_op(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype datatype,
            const impi::pack::TypePtr &type, int count, coll::Reduction &user,
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
    impi::api::apply_op(ref, datatype, type, static_cast<int>(n), in, inout, fn, MPI_COMM_NULL);
  };
  out.user = &user;
  return MPI_SUCCESS;
}

int make_reduction(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype datatype,
                   const impi::pack::TypePtr &type, int count, coll::Reduction &out) {
  coll::ReduceOp o;
  if (int rc = make_op(fn, comm, op, datatype, type, count, out, o); rc != MPI_SUCCESS) return rc;
  if (o.predefined) out = o.take(type, count);
  return MPI_SUCCESS;
}

// Per-rank counts and displacements, checked.
int vectors(const char *fn, MPI_Comm comm, const Comm &c, const int *counts, const int *displs,
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
int inter_v_rooted(const char *fn, MPI_Comm comm, const Comm &c, int root, const void *sendbuf,
                   const void *recvbuf, MPI_Datatype root_type, MPI_Datatype peer_type,
                   const int *root_counts, const int *root_displs, int peer_count, int &r,
                   impi::pack::TypePtr &t, std::vector<coll::Block> &blocks) {
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

int launch(const char *fn, MPI_Comm comm, const Comm &c, MPI_Request *request, coll::Task task);

// Allgather or Alltoall on an intercommunicator: every rank's block(s) to
// every remote rank (inter_allgather).
int inter_allgather_or_alltoall(const char *fn, MPI_Comm comm, const Comm &c, MPI_Request *request,
                                const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                bool alltoall) {
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
const void *in_place_copy(const void *recvbuf, const impi::pack::TypePtr &t, std::int64_t first,
                          std::int64_t last, std::vector<std::byte> &copy) {
  if (first < 0) return recvbuf;  // nothing to send
  std::int64_t from = first + t->true_lb(), to = last + t->true_ub();
  const auto *base = static_cast<const std::byte *>(recvbuf);
  copy.assign(base + from, base + to);
  return copy.data() - from;
}

void copy_typed_api(const void *from, void *to, const impi::pack::TypePtr &t, std::int64_t count) {
  coll::copy_typed(from, to, t, count);
}

// Blocking (request == nullptr): `call(nullptr)`'s result. Non-blocking:
// `call(&r)` queues the operation; *request becomes r's handle.
template <typename Call>
int run(const char *fn, MPI_Comm comm, MPI_Request *request, Call call) {
  if (!request) return finish(fn, comm, call(nullptr));
  impi::core::RequestPtr r;
  if (auto s = call(&r); !s.ok()) return finish(fn, comm, s);
  *request = impi::api::new_request_handle(std::move(r));
  return MPI_SUCCESS;
}

int launch(const char *fn, MPI_Comm comm, const Comm &c, MPI_Request *request, coll::Task task) {
  return run(fn, comm, request,
             [&](impi::core::RequestPtr *r) { return coll::start(*c.comm, std::move(task), r); });
}

}  // namespace

extern "C" {

static int impl_Barrier(MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  return run(fn, comm, request,
             [&](impi::core::RequestPtr *r) { return coll::barrier(*c.comm, r); });
}

static int impl_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
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

static int impl_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
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
                          void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
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

static int impl_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *fn) {
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

static int impl_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    if (int rc = inter_rooted(fn, comm, c, root, sendbuf, recvbuf, recvtype, sendtype, r, st);
        rc != MPI_SUCCESS)
      return rc;
    rt = st;
    return launch(fn, comm, c, request,
                  coll::inter_gather(coll::remote_view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                     recvcount, rt, r));
  }
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
  return launch(fn, comm, c, request,
                coll::gather_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                  recvcount, rt, root));
}

static int impl_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                          const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    return inter_allgather_or_alltoall(fn, comm, c, request, sendbuf, sendcount, sendtype, recvbuf,
                                       recvcount, recvtype, false);
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
  return launch(
      fn, comm, c, request,
      coll::allgather_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, recvcount, rt));
}

static int impl_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    std::vector<coll::Block> blocks;
    if (int rc = inter_v_rooted(fn, comm, c, root, sendbuf, recvbuf, recvtype, sendtype, recvcounts,
                                displs, sendcount, r, st, blocks);
        rc != MPI_SUCCESS)
      return rc;
    return launch(fn, comm, c, request,
                  coll::inter_gatherv(coll::remote_view_of(*c.comm), sendbuf, sendcount, st,
                                      recvbuf, std::move(blocks), r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  std::vector<std::int64_t> counts, disps;
  if (at_root) {
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS)
      return rc;
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
  return launch(fn, comm, c, request,
                coll::gatherv_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                   std::move(counts), std::move(disps), rt, root));
}

static int impl_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS)
    return rc;
  if (c.comm->inter) {
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    std::vector<coll::Block> sb, rb;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      sb.push_back({sendcount, st, 0});
      rb.push_back({counts[k], rt, disps[k] * rt->extent()});
    }
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  }
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
  return launch(fn, comm, c, request,
                coll::allgatherv_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                      std::move(counts), std::move(disps), rt));
}

static int impl_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    if (int rc = inter_rooted(fn, comm, c, root, sendbuf, recvbuf, sendtype, recvtype, r, st);
        rc != MPI_SUCCESS)
      return rc;
    rt = st;
    return launch(fn, comm, c, request,
                  coll::inter_scatter(coll::remote_view_of(*c.comm), sendbuf, sendcount, st,
                                      recvbuf, recvcount, rt, r));
  }
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
  return launch(fn, comm, c, request,
                coll::scatter_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                   recvcount, rt, root));
}

static int impl_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                         int root, MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    std::vector<coll::Block> blocks;
    if (int rc = inter_v_rooted(fn, comm, c, root, sendbuf, recvbuf, sendtype, recvtype, sendcounts,
                                displs, recvcount, r, st, blocks);
        rc != MPI_SUCCESS)
      return rc;
    return launch(fn, comm, c, request,
                  coll::inter_scatterv(coll::remote_view_of(*c.comm), sendbuf, std::move(blocks),
                                       recvbuf, recvcount, st, r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (at_root) {
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, displs, counts, disps); rc != MPI_SUCCESS)
      return rc;
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
  return launch(fn, comm, c, request,
                coll::scatterv_task(coll::view_of(*c.comm), sendbuf, std::move(counts),
                                    std::move(disps), st, recvbuf, recvcount, rt, root));
}

static int impl_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                         const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    return inter_allgather_or_alltoall(fn, comm, c, request, sendbuf, sendcount, sendtype, recvbuf,
                                       recvcount, recvtype, true);
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
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 170, std::move(copy)));
}

static int impl_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> sc, sd, rc_, rd;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, rdispls, rc_, rd); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (c.comm->inter) {
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, sdispls, sc, sd); rc != MPI_SUCCESS) return rc;
    std::vector<coll::Block> sb, rb;
    for (std::size_t r = 0; r < sc.size(); ++r) {
      sb.push_back({sc[r], st, sd[r] * st->extent()});
      rb.push_back({rc_[r], rt, rd[r] * rt->extent()});
    }
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  }
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
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 180, std::move(copy)));
}

static int impl_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                          const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *request, const char *fn) {
  Comm c;
  std::vector<std::byte> copy;  // (nothing in place: empty)
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!recvcounts || !rdispls || !recvtypes ||
      (!in_place && (!sendcounts || !sdispls || !sendtypes)))
    return report(comm, MPI_ERR_ARG, fn, "NULL array");
  std::vector<coll::Block> sb, rb;
  std::int64_t lo = -1, hi = -1;  // in place: the bytes of recvbuf that any block covers
  for (int r = 0; r < c.comm->peer_size(); ++r) {
    impi::pack::TypePtr st, rt;
    if (int rc = check_type(fn, comm, recvtypes[r], rt); rc != MPI_SUCCESS) return rc;
    if (recvcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
    rb.push_back({recvcounts[r], rt, rdispls[r]});
    if (in_place) {
      sb.push_back(
          rb.back());  // (MPI-3.1 5.8: the data to send is in recvbuf, where it will be received)
      if (recvcounts[r] > 0) {
        std::int64_t a = rdispls[r] + rt->true_lb(),
                     b = rdispls[r] + (recvcounts[r] - 1) * rt->extent() + rt->true_ub();
        lo = lo < 0 ? a : std::min(lo, a);
        hi = std::max(hi, b);
      }
      continue;
    }
    if (int rc = check_type(fn, comm, sendtypes[r], st); rc != MPI_SUCCESS) return rc;
    if (sendcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
    sb.push_back({sendcounts[r], st, sdispls[r]});
  }
  if (in_place) {  // send from a copy of what the blocks cover
    if (lo >= 0) {
      const auto *base = static_cast<const std::byte *>(recvbuf);
      copy.assign(base + lo, base + hi);
    }
    sendbuf = lo >= 0 ? static_cast<const void *>(copy.data() - lo) : recvbuf;
  }
  if (c.comm->inter)
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 180, std::move(copy)));
}

static int impl_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
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
  if (total > INT_MAX)
    return report(comm, MPI_ERR_COUNT, fn, "the counts add up to more than INT_MAX");
  if (int rc = make_reduction(fn, comm, op, datatype, t, static_cast<int>(total), red);
      rc != MPI_SUCCESS)
    return rc;
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

static int impl_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Request *request, const char *fn) {
  Comm c;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  std::vector<int> counts(static_cast<std::size_t>(c.comm->size), recvcount);
  return impl_Reduce_scatter(sendbuf, recvbuf, counts.data(), datatype, op, comm, request, fn);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr,
                                   "MPI_Reduce_scatter_block");
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter_block", "request is NULL");
  return impl_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                   "MPI_Ireduce_scatter_block");
}

static int scan_common(const char *fn, const void *sendbuf, void *recvbuf, int count,
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

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm) {
  return scan_common("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true, nullptr);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscan", "request is NULL");
  return scan_common("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, false, request);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iexscan", "request is NULL");
  return scan_common("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, true, request);
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

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ibcast", "request is NULL");
  return impl_Bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast");
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, nullptr, "MPI_Reduce");
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce", "request is NULL");
  return impl_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request, "MPI_Ireduce");
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, nullptr, "MPI_Allreduce");
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallreduce", "request is NULL");
  return impl_Allreduce(sendbuf, recvbuf, count, datatype, op, comm, request, "MPI_Iallreduce");
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     nullptr, "MPI_Gather");
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igather", "request is NULL");
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, "MPI_Igather");
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                        "MPI_Allgather");
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgather", "request is NULL");
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                        "MPI_Iallgather");
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, nullptr, "MPI_Gatherv");
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igatherv", "request is NULL");
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, request, "MPI_Igatherv");
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         nullptr, "MPI_Allgatherv");
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgatherv", "request is NULL");
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         request, "MPI_Iallgatherv");
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      nullptr, "MPI_Scatter");
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatter", "request is NULL");
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request, "MPI_Iscatter");
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, nullptr, "MPI_Scatterv");
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatterv", "request is NULL");
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, request, "MPI_Iscatterv");
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                       "MPI_Alltoall");
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoall", "request is NULL");
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                       "MPI_Ialltoall");
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, nullptr, "MPI_Alltoallv");
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallv", "request is NULL");
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, request, "MPI_Ialltoallv");
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, nullptr, "MPI_Alltoallw");
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallw", "request is NULL");
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, request, "MPI_Ialltoallw");
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr,
                             "MPI_Reduce_scatter");
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter", "request is NULL");
  return impl_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                             "MPI_Ireduce_scatter");
}

}  // extern "C"

#include "api/generated/coll_aliases.inc"
