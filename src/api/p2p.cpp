// p2p.cpp - point-to-point entry points: argument checks, handle
// translation, then core::P2P. Messages within one client for now; the
// IMPI data path (between clients) is a later issue.
#include <fmt/core.h>

#include <climits>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::check_initialized;
using impi::api::report;
using impi::core::RequestPtr;

namespace {

// ---- request handles
std::vector<RequestPtr> g_requests(1);  // index 0: MPI_REQUEST_NULL
std::vector<std::uint32_t> g_free_requests;

MPI_Request new_request(RequestPtr r) {
  std::uint32_t i;
  if (!g_free_requests.empty()) {
    i = g_free_requests.back();
    g_free_requests.pop_back();
    g_requests[i] = std::move(r);
  } else {
    i = static_cast<std::uint32_t>(g_requests.size());
    g_requests.push_back(std::move(r));
  }
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

RequestPtr *find_request(MPI_Request h) {
  if (impi::api::handle_kind(h) != IMPI_KIND_REQUEST) return nullptr;
  std::uint32_t i = impi::api::handle_index(h);
  if (i == 0 || i >= g_requests.size() || !g_requests[i]) return nullptr;
  return &g_requests[i];
}

void release_request(MPI_Request *h) {
  std::uint32_t i = impi::api::handle_index(*h);
  g_requests[i].reset();
  g_free_requests.push_back(i);
  *h = MPI_REQUEST_NULL;
}

// A completed request that did nothing (MPI_PROC_NULL peers).
RequestPtr null_peer_request(impi::core::Request::Kind kind) {
  auto r = std::make_shared<impi::core::Request>();
  r->kind = kind;
  r->done = true;
  r->status.source = MPI_PROC_NULL;
  r->status.tag = MPI_ANY_TAG;
  return r;
}

void set_status(MPI_Status *st, const impi::core::Request &r, int err) {
  if (st == MPI_STATUS_IGNORE) return;
  if (r.kind == impi::core::Request::Kind::recv) {
    st->MPI_SOURCE = r.status.source;
    st->MPI_TAG = r.status.tag;
    st->impi_count = r.status.bytes;
  } else {
    st->impi_count = 0;
  }
  st->MPI_ERROR = err;
  st->impi_cancelled = 0;
}

int request_error(const impi::core::Request &r) {
  return r.status.error == impi::core::kTruncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

struct Target {
  impi::core::Communicator *comm = nullptr;
  impi::pack::TypePtr type;
  int world = 0;  // peer's world rank (or kAnySource)
};

// Validates the arguments every send and receive shares.
int check_args(const char *fn, const void *buf, int count, MPI_Datatype datatype, int peer, int tag,
               MPI_Comm comm, bool recv, Target &t) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  t.comm = impi::api::lookup_comm(comm);
  if (!t.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  auto ty = impi::api::lookup_type(datatype);
  if (!ty) return report(comm, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!ty->committed) return report(comm, MPI_ERR_TYPE, fn, "the datatype is not committed");
  t.type = ty->type;
  if (!buf && count > 0 && t.type->size() > 0 && t.type->true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  if (!(peer == MPI_PROC_NULL || (recv && peer == MPI_ANY_SOURCE) || (peer >= 0 && peer < t.comm->size)))
    return report(comm, MPI_ERR_RANK, fn,
                  fmt::format("rank {} is not in a communicator of size {}", peer, t.comm->size));
  if (!((recv && tag == MPI_ANY_TAG) || tag >= 0))
    return report(comm, MPI_ERR_TAG, fn, fmt::format("invalid tag {}", tag));
  auto &rt = impi::core::Runtime::instance();
  if (peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL)
    t.world = peer;
  else
    t.world = t.comm == &rt.self() ? rt.world().rank : peer;  // WORLD: comm rank = world rank
  if (peer >= 0 && !rt.p2p().reachable(t.world))
    return report(comm, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                  fmt::format("rank {} belongs to another IMPI client; messages between clients "
                              "are not implemented yet",
                              peer));
  return MPI_SUCCESS;
}

int start_send(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, RequestPtr &out) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
    return rc;
  if (dest == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::send);
    return MPI_SUCCESS;
  }
  auto &rt = impi::core::Runtime::instance();
  out = rt.p2p().isend(buf, count, t.type, t.world, t.comm->rank, tag, t.comm->context_id);
  return MPI_SUCCESS;
}

int start_recv(const char *fn, void *buf, int count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, RequestPtr &out) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, source, tag, comm, true, t); rc != MPI_SUCCESS)
    return rc;
  if (source == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::recv);
    return MPI_SUCCESS;
  }
  auto &rt = impi::core::Runtime::instance();
  int src = source == MPI_ANY_SOURCE ? impi::core::kAnySource : source;
  out = rt.p2p().irecv(buf, count, t.type, src, tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag,
                       t.comm->context_id);
  return MPI_SUCCESS;
}

void wait_done(const RequestPtr &r) {
  if (!r->done) impi::core::Runtime::instance().p2p().wait_until([&] { return r->done; });
}

}  // namespace

extern "C" {

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  RequestPtr r;
  if (int rc = start_send("MPI_Send", buf, count, datatype, dest, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  return MPI_SUCCESS;
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  // A ready send may be carried out as a standard send (MPI 3.4).
  RequestPtr r;
  if (int rc = start_send("MPI_Rsend", buf, count, datatype, dest, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, "MPI_Isend", "request is NULL");
  RequestPtr r;
  if (int rc = start_send("MPI_Isend", buf, count, datatype, dest, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
  return MPI_SUCCESS;
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, "MPI_Irsend", "request is NULL");
  RequestPtr r;
  if (int rc = start_send("MPI_Irsend", buf, count, datatype, dest, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
  return MPI_SUCCESS;
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
  RequestPtr r;
  if (int rc = start_recv("MPI_Recv", buf, count, datatype, source, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  int err = request_error(*r);
  set_status(status, *r, err);
  return err == MPI_SUCCESS ? MPI_SUCCESS
                            : report(comm, err, "MPI_Recv",
                                     fmt::format("a message of {} bytes into a buffer of {}",
                                                 r->msg_len, r->total));
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, "MPI_Irecv", "request is NULL");
  RequestPtr r;
  if (int rc = start_recv("MPI_Irecv", buf, count, datatype, source, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
  return MPI_SUCCESS;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (!check_initialized("MPI_Wait")) return MPI_ERR_OTHER;
  if (!request) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "request is NULL");
  if (*request == MPI_REQUEST_NULL) {  // an empty status (MPI 3.7.3)
    if (status != MPI_STATUS_IGNORE) {
      status->MPI_SOURCE = MPI_ANY_SOURCE;
      status->MPI_TAG = MPI_ANY_TAG;
      status->MPI_ERROR = MPI_SUCCESS;
      status->impi_count = 0;
      status->impi_cancelled = 0;
    }
    return MPI_SUCCESS;
  }
  RequestPtr *slot = find_request(*request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "not a valid request");
  RequestPtr r = *slot;
  wait_done(r);
  int err = request_error(*r);
  set_status(status, *r, err);
  release_request(request);
  return err == MPI_SUCCESS ? MPI_SUCCESS : report(MPI_COMM_NULL, err, "MPI_Wait", "message truncated");
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (!check_initialized("MPI_Test")) return MPI_ERR_OTHER;
  if (!request || !flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Test", "NULL argument");
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    return PMPI_Wait(request, status);
  }
  RequestPtr *slot = find_request(*request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Test", "not a valid request");
  if (!(*slot)->done) impi::core::Runtime::instance().p2p().progress();
  *flag = (*slot)->done;
  if (!*flag) return MPI_SUCCESS;
  return PMPI_Wait(request, status);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Waitall")) return MPI_ERR_OTHER;
  if (count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Waitall", "bad request array");
  for (int i = 0; i < count; ++i)
    if (array_of_requests[i] != MPI_REQUEST_NULL && !find_request(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitall", fmt::format("request {} is not valid", i));
  bool failed = false;
  for (int i = 0; i < count; ++i) {
    MPI_Status tmp;
    MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? &tmp : &array_of_statuses[i];
    if (array_of_requests[i] == MPI_REQUEST_NULL) {
      PMPI_Wait(&array_of_requests[i], st);
      continue;
    }
    RequestPtr r = *find_request(array_of_requests[i]);
    wait_done(r);
    int err = request_error(*r);
    set_status(st, *r, err);
    failed = failed || err != MPI_SUCCESS;
    release_request(&array_of_requests[i]);
  }
  return failed ? report(MPI_COMM_NULL, MPI_ERR_IN_STATUS, "MPI_Waitall", "see the statuses") : MPI_SUCCESS;
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Testall")) return MPI_ERR_OTHER;
  if (!flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Testall", "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Testall", "not a valid request");
    if (!(*slot)->done) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return PMPI_Waitall(count, array_of_requests, array_of_statuses);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  if (!check_initialized("MPI_Waitany")) return MPI_ERR_OTHER;
  if (!index || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Waitany", "bad arguments");
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    if (!find_request(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitany", "not a valid request");
    any_active = true;
  }
  if (!any_active) {
    *index = MPI_UNDEFINED;
    MPI_Request none = MPI_REQUEST_NULL;
    return PMPI_Wait(&none, status);
  }
  int found = -1;
  impi::core::Runtime::instance().p2p().wait_until([&] {
    for (int i = 0; i < count; ++i)
      if (array_of_requests[i] != MPI_REQUEST_NULL && (*find_request(array_of_requests[i]))->done) {
        found = i;
        return true;
      }
    return false;
  });
  *index = found;
  return PMPI_Wait(&array_of_requests[found], status);
}

int PMPI_Request_free(MPI_Request *request) {
  if (!request || !find_request(*request))
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_free", "not a valid request");
  // The operation still completes; the engine keeps its own reference.
  release_request(request);
  return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
  if (request == MPI_REQUEST_NULL) {
    *flag = 1;
    MPI_Request none = MPI_REQUEST_NULL;
    return PMPI_Wait(&none, status);
  }
  RequestPtr *slot = find_request(request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_get_status", "not a valid request");
  if (!(*slot)->done) impi::core::Runtime::instance().p2p().progress();
  *flag = (*slot)->done;
  if (*flag) set_status(status, **slot, request_error(**slot));
  return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status) {
  RequestPtr rr, sr;
  if (int rc = start_recv("MPI_Sendrecv", recvbuf, recvcount, recvtype, source, recvtag, comm, rr);
      rc != MPI_SUCCESS)
    return rc;
  if (int rc = start_send("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, comm, sr);
      rc != MPI_SUCCESS)
    return rc;
  impi::core::Runtime::instance().p2p().wait_until([&] { return rr->done && sr->done; });
  int err = request_error(*rr);
  set_status(status, *rr, err);
  return err == MPI_SUCCESS ? MPI_SUCCESS : report(comm, err, "MPI_Sendrecv", "message truncated");
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  Target t;
  if (int rc = check_args("MPI_Iprobe", nullptr, 0, MPI_BYTE, source, tag, comm, true, t); rc != MPI_SUCCESS)
    return rc;
  if (!flag) return report(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    if (status != MPI_STATUS_IGNORE) {
      status->MPI_SOURCE = MPI_PROC_NULL;
      status->MPI_TAG = MPI_ANY_TAG;
      status->MPI_ERROR = MPI_SUCCESS;
      status->impi_count = 0;
    }
    return MPI_SUCCESS;
  }
  auto m = impi::core::Runtime::instance().p2p().iprobe(
      source == MPI_ANY_SOURCE ? impi::core::kAnySource : source,
      tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag, t.comm->context_id);
  *flag = m.has_value();
  if (m && status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = m->source;
    status->MPI_TAG = m->tag;
    status->MPI_ERROR = MPI_SUCCESS;
    status->impi_count = m->bytes;
    status->impi_cancelled = 0;
  }
  return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  int flag = 0;
  for (;;) {
    int rc = PMPI_Iprobe(source, tag, comm, &flag, status);
    if (rc != MPI_SUCCESS || flag) return rc;
    auto &p = impi::core::Runtime::instance().p2p();
    int seen = 0;
    p.wait_until([&] { return ++seen > 1; });  // one progress/sleep round, then look again
  }
}

}  // extern "C"

#include "api/generated/p2p_aliases.inc"
