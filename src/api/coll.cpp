// coll.cpp - collective operations: argument checks, MPI_IN_PLACE, then
// src/collectives (IMPI algorithms on communicators spanning clients).
#include <fmt/core.h>

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

}  // extern "C"

#include "api/generated/coll_aliases.inc"
