// p2p.cpp - point-to-point entry points: argument checks, handle
// translation, then core::P2P (P2P::start_send picks the channel).
#include <fmt/core.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/partitioned.hpp"
#include "api/requests.hpp"
#include "collectives/nonblocking.hpp"
#include "collectives/task.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "pack/external32.hpp"

using impi::api::check_initialized;
using impi::api::report;
using impi::core::RequestPtr;

namespace {
using namespace impi::api::req;
}  // namespace

namespace impi::api {
MPI_Request new_request_handle(RequestPtr r, std::uintptr_t owner) {
  return new_request(std::move(r), owner);
}
MPI_Request new_completed_request() {
  auto r = impi::core::make_request();
  r->kind = impi::core::Request::Kind::recv;
  r->done = true;
  r->status.source = MPI_ANY_SOURCE;  // an empty status (MPI-3.1 3.7.3)
  r->status.tag = MPI_ANY_TAG;
  return new_request(std::move(r));
}
}  // namespace impi::api

namespace {

struct Target {
  impi::core::Communicator *comm = nullptr;
  const impi::pack::TypePtr *type = nullptr;  // predefined: the static table's; else `keep`
  impi::pack::TypePtr keep;
  int world = 0;                       // peer's world rank (or kAnySource)
  impi::core::Channel *via = nullptr;  // the channel to the peer (the communicator's route)
};

// Validates the arguments every send and receive shares, and reports
// what is wrong (check_args below takes the common case first).
[[gnu::cold, gnu::noinline]] int check_args_fully(const char *fn, const void *buf, MPI_Count count,
                                                  MPI_Datatype datatype, int peer, int tag,
                                                  MPI_Comm comm, bool recv, Target &t) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  t.comm = impi::api::lookup_comm(comm);
  if (!t.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  // A message of no elements may name MPI_DATATYPE_NULL, as MPICH allows
  // (its partitioned tests synchronise so): no bytes either way.
  if (count == 0 && datatype == MPI_DATATYPE_NULL) datatype = MPI_BYTE;
  if (const auto *pre = impi::api::lookup_predefined_type(datatype)) {
    t.type = pre;  // no reference counting on the hot path
  } else {
    auto ty = impi::api::lookup_type(datatype);
    if (!ty) return report(comm, MPI_ERR_TYPE, fn, "not a valid datatype");
    if (!ty->committed) return report(comm, MPI_ERR_TYPE, fn, "the datatype is not committed");
    t.keep = std::move(ty->type);
    t.type = &t.keep;
  }
  const impi::pack::Datatype &dt = **t.type;
  if (!buf && count > 0 && dt.size() > 0 && dt.true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  if (!(peer == MPI_PROC_NULL || (recv && peer == MPI_ANY_SOURCE) ||
        (peer >= 0 && peer < t.comm->peer_size())))
    return report(
        comm, MPI_ERR_RANK, fn,
        fmt::format("rank {} is not in a {} of size {}", peer,
                    t.comm->inter ? "remote group" : "communicator", t.comm->peer_size()));
  if (!((recv && tag == MPI_ANY_TAG) || tag >= 0))
    return report(comm, MPI_ERR_TAG, fn, fmt::format("invalid tag {}", tag));
  if (peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL) {
    t.world = peer;
    return MPI_SUCCESS;
  }
  t.world = t.comm->world_of_peer(peer);
  t.via = t.comm->channel_of_peer(peer);
  if (!t.via) return report(comm, MPI_ERR_RANK, fn, fmt::format("rank {} cannot be reached", peer));
  return MPI_SUCCESS;
}

// The common case: an initialized library, a communicator, a predefined
// type, a buffer, a peer rank and a tag in range. Anything else goes
// through check_args_fully, which finds and reports what is wrong.
[[gnu::always_inline]] inline int check_args(const char *fn, const void *buf, MPI_Count count,
                                             MPI_Datatype datatype, int peer, int tag,
                                             MPI_Comm comm, bool recv, Target &t) {
  const bool up = impi::core::Runtime::instance().state() == impi::core::State::initialized;
  impi::core::Communicator *c = up ? impi::api::lookup_comm(comm) : nullptr;
  const impi::pack::TypePtr *pre = impi::api::lookup_predefined_type(datatype);
  if (c && pre && count >= 0 && (buf || count == 0) && (tag >= 0 || (recv && tag == MPI_ANY_TAG)))
      [[likely]] {
    if (peer >= 0 && peer < c->peer_size()) [[likely]] {
      t.comm = c;
      t.type = pre;
      t.world = c->world_of_peer(peer);
      t.via = c->channel_of_peer(peer);
      if (t.via) [[likely]]
        return MPI_SUCCESS;
    } else if (recv && peer == MPI_ANY_SOURCE) {
      t.comm = c;
      t.type = pre;
      t.world = peer;
      return MPI_SUCCESS;
    }
  }
  return check_args_fully(fn, buf, count, datatype, peer, tag, comm, recv, t);
}

int start_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, RequestPtr &out, bool sync = false) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
    return rc;
  if (dest == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::send);
    return MPI_SUCCESS;
  }
  auto r = impi::core::Runtime::instance().p2p().start_send(
      *t.via, buf, count, *t.type, t.world, t.comm->rank, tag, t.comm->context_id, sync);
  if (!r) return report(comm, impi::api::error_class_of(r.error()), fn, r.message());
  out = std::move(r.value());
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int start_recv(const char *fn, void *buf, MPI_Count count,
                                             MPI_Datatype datatype, int source, int tag,
                                             MPI_Comm comm, RequestPtr &out,
                                             impi::core::Request *storage = nullptr) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, source, tag, comm, true, t); rc != MPI_SUCCESS)
    return rc;
  if (source == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::recv);
    return MPI_SUCCESS;
  }
  auto &rt = impi::core::Runtime::instance();
  int src = source == MPI_ANY_SOURCE ? impi::core::kAnySource : source;
  out = rt.p2p().irecv(buf, count, *t.type, src, tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag,
                       t.comm->context_id, storage, t.world);
  return MPI_SUCCESS;
}

// The blocking and nonblocking forms of the standard, ready and synchronous
// sends share these (a ready send may be carried out as a standard one, MPI 3.4).
int blocking_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, bool sync) {
  if (!sync) {  // fast path: a small message straight into the ring, no request
    Target t;
    if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
      return rc;
    if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
    if (impi::core::Runtime::instance().p2p().send_now(*t.via, buf, count, *t.type, t.world,
                                                       t.comm->rank, tag, t.comm->context_id))
      return MPI_SUCCESS;
  }
  RequestPtr r;
  if (int rc = start_send(fn, buf, count, datatype, dest, tag, comm, r, sync); rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  return MPI_SUCCESS;
}

int nonblocking_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                     int dest, int tag, MPI_Comm comm, MPI_Request *request, bool sync);

int nonblocking_send(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                     int dest, int tag, MPI_Comm comm, MPI_Request *request, bool sync) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  if (!sync) {  // fast path: a small message straight into the ring, complete at once
    Target t;
    if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
      return rc;
    auto &p2p = impi::core::Runtime::instance().p2p();
    std::uint64_t seq = 0;  // the message's number in the ring, for MPI_Cancel
    if (dest != MPI_PROC_NULL)
      seq =
          p2p.send_now(*t.via, buf, count, *t.type, t.world, t.comm->rank, tag, t.comm->context_id);
    if (seq != 0) {
      *request = new_sent_request(t.world, seq);
      return MPI_SUCCESS;
    }
  }
  RequestPtr r;
  if (int rc = start_send(fn, buf, count, datatype, dest, tag, comm, r, sync); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r), impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", buf, count, datatype, dest, tag, comm, false);
}

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Rsend", buf, count, datatype, dest, tag, comm, false);
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return nonblocking_send("MPI_Isend", buf, count, datatype, dest, tag, comm, request, false);
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
  return nonblocking_send("MPI_Irsend", buf, count, datatype, dest, tag, comm, request, false);
}

// The large-count forms (MPI-4.0 3.2.2 ..): the same paths, with MPI_Count counts.
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  return blocking_send("MPI_Send_c", buf, count, datatype, dest, tag, comm, false);
}

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  return blocking_send("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, false);
}

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request) {
  return nonblocking_send("MPI_Isend_c", buf, count, datatype, dest, tag, comm, request, false);
}

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
  return nonblocking_send("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, request, false);
}

static int recv_impl(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                     int tag, MPI_Comm comm, MPI_Status *status) {
  RequestPtr r;
  impi::core::Request storage{};  // outlives the blocking receive: no heap request
  if (int rc = start_recv(fn, buf, count, datatype, source, tag, comm, r, &storage);
      rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  int err = request_error(*r);
  set_status(status, *r, err);
  return err == MPI_SUCCESS ? MPI_SUCCESS
                            : report(comm, err, fn,
                                     fmt::format("a message of {} bytes into a buffer of {}",
                                                 r->msg_len, r->total));
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
  return recv_impl("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status) {
  return recv_impl("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

static int irecv_impl(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                      int tag, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  RequestPtr r;
  if (int rc = start_recv(fn, buf, count, datatype, source, tag, comm, r); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r), impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return irecv_impl("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request) {
  return irecv_impl("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}

static int sendrecv_impl(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status) {
  RequestPtr rr, sr;
  // The send's arguments first: once the receive (on our stack) is posted,
  // we may only return when it is complete.
  Target t;
  if (int rc = check_args(fn, sendbuf, sendcount, sendtype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  impi::core::Request storage{};  // the receive lives on our stack: no heap request
  if (int rc = start_recv(fn, recvbuf, recvcount, recvtype, source, recvtag, comm, rr, &storage);
      rc != MPI_SUCCESS)
    return rc;
  auto &p = impi::core::Runtime::instance().p2p();
  // A small send goes straight into the ring (as MPI_Send's does).
  bool sent = dest == MPI_PROC_NULL || p.send_now(*t.via, sendbuf, sendcount, *t.type, t.world,
                                                  t.comm->rank, sendtag, t.comm->context_id);
  if (!sent) {
    auto r = p.start_send(*t.via, sendbuf, sendcount, *t.type, t.world, t.comm->rank, sendtag,
                          t.comm->context_id, false);
    if (!r) {
      // Our receive (on this stack) is posted: take it back, or see it through.
      if (!p.completed(*rr) && !p.cancel(rr)) p.wait_until([&] { return p.completed(*rr); });
      return report(comm, impi::api::error_class_of(r.error()), fn, r.message());
    }
    sr = std::move(r.value());
  }
  p.wait_until([&] { return p.completed(*rr) && (!sr || p.completed(*sr)); });
  int err = request_error(*rr);
  set_status(status, *rr, err);
  return err == MPI_SUCCESS ? MPI_SUCCESS : report(comm, err, fn, "message truncated");
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status) {
  return sendrecv_impl("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                       recvcount, recvtype, source, recvtag, comm, status);
}

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return sendrecv_impl("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                       recvcount, recvtype, source, recvtag, comm, status);
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  Target t;
  if (int rc = check_args("MPI_Iprobe", nullptr, 0, MPI_BYTE, source, tag, comm, true, t);
      rc != MPI_SUCCESS)
    return rc;
  if (!flag) return report(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    if (status != MPI_STATUS_IGNORE) {
      status->MPI_SOURCE = MPI_PROC_NULL;
      status->MPI_TAG = MPI_ANY_TAG;
      status->impi_count = 0;
    }
    return MPI_SUCCESS;
  }
  auto m = impi::core::Runtime::instance().p2p().iprobe(
      source == MPI_ANY_SOURCE ? impi::core::kAnySource : source,
      tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag, t.comm->context_id);
  // A program polling with MPI_Iprobe still serves one-sided requests and
  // moves non-blocking collectives (the engine's hooks; iprobe runs none).
  if (auto &p2p = impi::core::Runtime::instance().p2p();
      !m && p2p.hook_work().load(std::memory_order_relaxed) > 0)
    p2p.progress();
  *flag = m.has_value();
  if (m && status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = m->source;
    status->MPI_TAG = m->tag;
    status->impi_count = m->bytes;
    status->impi_cancelled = 0;
  }
  return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  int flag = 0;
  int rc = PMPI_Iprobe(source, tag, comm, &flag, status);  // validates the arguments
  if (rc != MPI_SUCCESS || flag) return rc;
  // Progress, sleeping when idle, until a matching message is there.
  auto *c = impi::api::lookup_comm(comm);
  int src = source == MPI_ANY_SOURCE ? impi::core::kAnySource : source;
  int tg = tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag;
  auto &p = impi::core::Runtime::instance().p2p();
  p.wait_until([&] { return p.has_message(src, tg, c->context_id); });
  return PMPI_Iprobe(source, tag, comm, &flag, status);
}

}  // extern "C"

// ---- buffered sends (MPI-4.1 3.6): the message is copied before it goes
// out, so MPI_Bsend never waits for the receiver. The copy is charged to
// the attached buffer (a communicator's, else its session's, else the
// process's); a buffer too small for it is MPI_ERR_BUFFER, and
// MPI_BUFFER_AUTOMATIC has no limit. (The copies live in memory of ours:
// the attached buffer only counts bytes.)
namespace {
using impi::api::req::BufScope;
struct ScopeKey {
  BufScope scope;
  std::uintptr_t id;  // the communicator's or session's handle value (process: 0)
  auto operator<=>(const ScopeKey &) const = default;
};
struct Attached {
  void *buf = nullptr;
  std::int64_t size = 0;
  std::int64_t used = 0;
  bool automatic = false;  // MPI_BUFFER_AUTOMATIC
  std::uint64_t gen = 0;   // which attachment (a pending copy charges only its own)
};
struct Buffered {
  RequestPtr req;
  std::vector<std::byte> copy;
  std::int64_t charge;
  ScopeKey key;
  std::uint64_t gen;
};
std::map<ScopeKey, Attached> g_buffers;
std::uint64_t g_buffer_gen = 0;
std::vector<Buffered> g_buffered;

// With the table lock held.
void reclaim_buffered() {
  impi::core::Runtime::instance().p2p().progress();
  for (auto it = g_buffered.begin(); it != g_buffered.end();)
    if (impi::core::Runtime::instance().p2p().completed(*it->req)) {
      if (auto b = g_buffers.find(it->key); b != g_buffers.end() && b->second.gen == it->gen)
        b->second.used -= it->charge;
      it = g_buffered.erase(it);
    } else {
      ++it;
    }
}

// The sends of the copies charged to `key`'s buffer not yet complete; with
// the table lock held.
std::vector<RequestPtr> pending_of(const ScopeKey &key) {
  std::vector<RequestPtr> out;
  auto b = g_buffers.find(key);
  if (b == g_buffers.end()) return out;
  for (auto &m : g_buffered)
    if (m.key == key && m.gen == b->second.gen) out.push_back(m.req);
  return out;
}

bool all_complete(const std::vector<RequestPtr> &reqs) {
  auto &p2p = impi::core::Runtime::instance().p2p();
  for (auto &r : reqs)
    if (!p2p.completed(*r)) return false;
  return true;
}

// Waits until every copy charged to `key`'s buffer now has been sent.
void wait_transmitted(const ScopeKey &key) {
  std::vector<RequestPtr> reqs;
  {
    TableLock lk;
    reqs = pending_of(key);
  }
  impi::core::Runtime::instance().p2p().wait_until([&] { return all_complete(reqs); });
  TableLock lk;
  reclaim_buffered();
}

// co_await until the requests have completed (MPI_Buffer_iflush's task).
struct AwaitSent {
  std::vector<RequestPtr> reqs;
  bool await_ready() const { return all_complete(reqs); }
  void await_suspend(std::coroutine_handle<impi::collectives::Task::promise_type> h) {
    impi::collectives::Driver *d = h.promise().driver;
    d->suspended = h;
    d->until = [r = reqs] { return all_complete(r); };
  }
  void await_resume() const noexcept {}
};
impi::collectives::Task flush_task(std::vector<RequestPtr> reqs) {
  AwaitSent sent{std::move(reqs)};  // (named: gcc 12 destroys a temporary awaiter twice)
  co_await sent;
  co_return impi::base::Status{};
}
int g_flush_queue;  // (the key MPI_Buffer_iflush's tasks queue on)

// The buffer a buffered send on `comm` uses (MPI-4.1 3.6.1); null: none.
// With the table lock held.
std::pair<const ScopeKey, Attached> *buffer_for(MPI_Comm comm, const impi::core::Communicator &c) {
  auto b = g_buffers.find({BufScope::comm, impi::api::handle_value(comm)});
  if (b == g_buffers.end() && c.session) b = g_buffers.find({BufScope::session, c.session});
  if (b == g_buffers.end()) b = g_buffers.find({BufScope::process, 0});
  return b == g_buffers.end() ? nullptr : &*b;
}
}  // namespace

namespace impi::api::req {

int attach_buffer(BufScope scope, std::uintptr_t id, void *buffer, MPI_Count size,
                  std::string &why) {
  if (buffer != MPI_BUFFER_AUTOMATIC && (size < 0 || (!buffer && size > 0))) {
    why = "bad buffer or size";
    return MPI_ERR_BUFFER;
  }
  TableLock lk;
  if (g_buffers.count({scope, id})) {
    why = "a buffer is already attached";
    return MPI_ERR_BUFFER;
  }
  const bool automatic = buffer == MPI_BUFFER_AUTOMATIC;
  g_buffers[{scope, id}] = Attached{buffer, automatic ? 0 : size, 0, automatic, ++g_buffer_gen};
  return MPI_SUCCESS;
}

// Blocks until every message in the buffer has been transmitted (MPI 3.6.1);
// none attached: NULL and 0 (as MPICH).
void detach_buffer(BufScope scope, std::uintptr_t id, void **buffer, MPI_Count *size) {
  const ScopeKey key{scope, id};
  wait_transmitted(key);
  TableLock lk;
  auto b = g_buffers.find(key);
  *buffer = b == g_buffers.end() ? nullptr : b->second.buf;
  *size = b == g_buffers.end() ? 0 : b->second.size;
  if (b != g_buffers.end()) g_buffers.erase(b);
}

void flush_buffer(BufScope scope, std::uintptr_t id) {
  wait_transmitted({scope, id});
}

MPI_Request iflush_buffer(BufScope scope, std::uintptr_t id) {
  std::vector<RequestPtr> reqs;
  {
    TableLock lk;
    reclaim_buffered();
    reqs = pending_of({scope, id});
  }
  if (reqs.empty()) return impi::api::new_completed_request();
  auto &p2p = impi::core::Runtime::instance().p2p();
  return new_request(
      impi::collectives::start_nonblocking(&g_flush_queue, p2p, flush_task(std::move(reqs))));
}

void drop_buffer(BufScope scope, std::uintptr_t id) {
  TableLock lk;
  g_buffers.erase({scope, id});  // (copies in flight go on; they charge nothing now)
}

}  // namespace impi::api::req

namespace {
// `copy_send`, when given, receives the send of the copy (what MPI_Cancel cancels).
int start_bsend(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                int tag, MPI_Comm comm, RequestPtr &out, RequestPtr *copy_send = nullptr) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
    return rc;
  if (dest == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::send);
    return MPI_SUCCESS;
  }
  TableLock lk;
  reclaim_buffered();
  auto &rt = impi::core::Runtime::instance();
  // To another IMPI client the copy is the message's external32 form, sent
  // as bytes (the same bytes on the wire as from the user's buffer).
  const bool remote = t.via->external32();
  const impi::pack::Rep rep = remote ? t.via->wire_rep(t.world) : impi::pack::Rep::external32;
  std::int64_t bytes = 0;
  if (remote) {
    auto n = impi::pack::external32_size(*t.type, count, rep);
    if (!n) return report(comm, impi::api::error_class_of(n.error()), fn, n.message());
    if (auto s = impi::pack::check_fits(*t.type, count, buf, rep); !s.ok())
      return report(comm, impi::api::error_class_of(s.error()), fn,
                    fmt::format("{}; rank {}'s client takes only external32: nothing was sent",
                                s.message(), dest));
    bytes = *n;
  } else {
    bytes = impi::pack::PackCursor(*t.type, count).total();
  }
  // (After the data's own checks: a value another client cannot take is
  // MPI_ERR_CONVERSION whether or not a buffer is attached.)
  auto *attached = buffer_for(comm, *t.comm);
  if (!attached)
    return report(comm, MPI_ERR_BUFFER, fn,
                  "no buffer attached (MPI_Comm_attach_buffer, MPI_Session_attach_buffer or "
                  "MPI_Buffer_attach)");
  Attached &a = attached->second;
  std::int64_t charge = bytes + MPI_BSEND_OVERHEAD;
  if (!a.automatic && a.used + charge > a.size)
    return report(comm, MPI_ERR_BUFFER, fn,
                  fmt::format("{} bytes needed, {} of the attached {} are free", charge,
                              a.size - a.used, a.size));
  Buffered b{nullptr, std::vector<std::byte>(static_cast<size_t>(bytes)), charge, attached->first,
             a.gen};
  if (remote)
    impi::pack::External32Cursor(*t.type, count, false, rep).pack(buf, b.copy);
  else
    impi::pack::PackCursor(*t.type, count).pack(buf, b.copy);
  auto r = rt.p2p().start_send(*t.via, b.copy.data(), bytes,
                               impi::pack::Datatype::predefined(impi::pack::dt::byte), t.world,
                               t.comm->rank, tag, t.comm->context_id, false);
  if (!r) return report(comm, impi::api::error_class_of(r.error()), fn, r.message());
  b.req = std::move(r.value());
  a.used += charge;
  out = impi::core::make_request();  // complete at once: the data is ours now
  out->kind = impi::core::Request::Kind::send;
  out->done = true;
  if (copy_send) *copy_send = b.req;
  g_buffered.push_back(std::move(b));
  return MPI_SUCCESS;
}

int start_mode(Mode m, const Persistent &p, RequestPtr &out, const char *fn,
               RequestPtr *copy_send = nullptr) {
  switch (m) {
    case Mode::buffered:
      return start_bsend(fn, p.sbuf, p.count, p.type, p.peer, p.tag, p.comm, out, copy_send);
    case Mode::synchronous:
      return start_send(fn, p.sbuf, p.count, p.type, p.peer, p.tag, p.comm, out, true);
    case Mode::receive:
      return start_recv(fn, p.rbuf, p.count, p.type, p.peer, p.tag, p.comm, out);
    default:
      return start_send(fn, p.sbuf, p.count, p.type, p.peer, p.tag, p.comm, out);
  }
}

// Validates a persistent request's arguments now (MPI checks at init time).
int make_persistent(Mode m, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
                    int peer, int tag, MPI_Comm comm, MPI_Request *request, const char *fn) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  Target t;
  if (int rc = check_args(fn, m == Mode::receive ? rbuf : sbuf, count, type, peer, tag, comm,
                          m == Mode::receive, t);
      rc != MPI_SUCCESS)
    return rc;
  // The program may free a derived type right after this call (MPI-3.1
  // 4.1.9): the request keeps a handle of its own.
  if (!impi::api::lookup_predefined_type(type)) type = impi::api::new_type_handle(t.keep, true);
  *request = new_request(nullptr,
                         Persistent{m, sbuf, rbuf, count, type, peer, tag, comm, nullptr, nullptr});
  return MPI_SUCCESS;
}
}  // namespace

extern "C" {

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Ssend", buf, count, datatype, dest, tag, comm, true);
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
  return nonblocking_send("MPI_Issend", buf, count, datatype, dest, tag, comm, request, true);
}

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  return blocking_send("MPI_Ssend_c", buf, count, datatype, dest, tag, comm, true);
}

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
  return nonblocking_send("MPI_Issend_c", buf, count, datatype, dest, tag, comm, request, true);
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  RequestPtr r;
  return start_bsend("MPI_Bsend", buf, count, datatype, dest, tag, comm, r);
}

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  RequestPtr r;
  return start_bsend("MPI_Bsend_c", buf, count, datatype, dest, tag, comm, r);
}

static int ibsend_impl(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  RequestPtr r, copy_send;
  if (int rc = start_bsend(fn, buf, count, datatype, dest, tag, comm, r, &copy_send);
      rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r), impi::api::handle_value(comm));
  find_entry(*request)->buffered = std::move(copy_send);
  return MPI_SUCCESS;
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
  return ibsend_impl("MPI_Ibsend", buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
  return ibsend_impl("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, request);
}

static int buffer_attach(const char *fn, void *buffer, MPI_Count size) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  std::string why;
  if (int rc = attach_buffer(BufScope::process, 0, buffer, size, why); rc != MPI_SUCCESS)
    return report(MPI_COMM_NULL, rc, fn, why);
  return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size) {
  return buffer_attach("MPI_Buffer_attach", buffer, size);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size) {
  return buffer_attach("MPI_Buffer_attach_c", buffer, size);
}

// Detaches the buffer: its size in *size. A size the int form cannot
// represent is MPI_ERR_COUNT there (the buffer stays detached and returned).
static int buffer_detach(const char *fn, void *buffer_addr, MPI_Count *size) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!buffer_addr || !size) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  detach_buffer(BufScope::process, 0, static_cast<void **>(buffer_addr), size);
  return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size) {
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Buffer_detach", "NULL argument");
  MPI_Count n = 0;
  if (int rc = buffer_detach("MPI_Buffer_detach", buffer_addr, &n); rc != MPI_SUCCESS) return rc;
  if (n > INT_MAX) {
    *size = MPI_UNDEFINED;
    return report(MPI_COMM_NULL, MPI_ERR_COUNT, "MPI_Buffer_detach",
                  fmt::format("the detached buffer's size {} does not fit in an int: "
                              "use MPI_Buffer_detach_c",
                              n));
  }
  *size = static_cast<int>(n);
  return MPI_SUCCESS;
}

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size) {
  return buffer_detach("MPI_Buffer_detach_c", buffer_addr, size);
}

// ---- MPI-4.1 3.6: communicator buffers, and flushing a buffer.
static int comm_buffer_check(const char *fn, MPI_Comm comm) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::lookup_comm(comm)) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  return MPI_SUCCESS;
}

static int comm_attach(const char *fn, MPI_Comm comm, void *buffer, MPI_Count size) {
  if (int rc = comm_buffer_check(fn, comm); rc != MPI_SUCCESS) return rc;
  std::string why;
  if (int rc = attach_buffer(BufScope::comm, impi::api::handle_value(comm), buffer, size, why);
      rc != MPI_SUCCESS)
    return report(comm, rc, fn, why);
  return MPI_SUCCESS;
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size) {
  return comm_attach("MPI_Comm_attach_buffer", comm, buffer, size);
}

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size) {
  return comm_attach("MPI_Comm_attach_buffer_c", comm, buffer, size);
}

static int comm_detach(const char *fn, MPI_Comm comm, void *buffer_addr, MPI_Count *size) {
  if (int rc = comm_buffer_check(fn, comm); rc != MPI_SUCCESS) return rc;
  if (!buffer_addr || !size) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  detach_buffer(BufScope::comm, impi::api::handle_value(comm), static_cast<void **>(buffer_addr),
                size);
  return MPI_SUCCESS;
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size) {
  const char *fn = "MPI_Comm_detach_buffer";
  if (!size) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  MPI_Count n = 0;
  if (int rc = comm_detach(fn, comm, buffer_addr, &n); rc != MPI_SUCCESS) return rc;
  if (n > INT_MAX) {
    *size = MPI_UNDEFINED;
    return report(comm, MPI_ERR_COUNT, fn,
                  fmt::format("the detached buffer's size {} does not fit in an int: use "
                              "MPI_Comm_detach_buffer_c",
                              n));
  }
  *size = static_cast<int>(n);
  return MPI_SUCCESS;
}

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size) {
  return comm_detach("MPI_Comm_detach_buffer_c", comm, buffer_addr, size);
}

int PMPI_Comm_flush_buffer(MPI_Comm comm) {
  if (int rc = comm_buffer_check("MPI_Comm_flush_buffer", comm); rc != MPI_SUCCESS) return rc;
  flush_buffer(BufScope::comm, impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request) {
  const char *fn = "MPI_Comm_iflush_buffer";
  if (int rc = comm_buffer_check(fn, comm); rc != MPI_SUCCESS) return rc;
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  *request = iflush_buffer(BufScope::comm, impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

int PMPI_Buffer_flush(void) {
  if (!check_initialized("MPI_Buffer_flush")) return MPI_ERR_OTHER;
  flush_buffer(BufScope::process, 0);
  return MPI_SUCCESS;
}

int PMPI_Buffer_iflush(MPI_Request *request) {
  if (!check_initialized("MPI_Buffer_iflush")) return MPI_ERR_OTHER;
  if (!request)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Buffer_iflush", "request is NULL");
  *request = iflush_buffer(BufScope::process, 0);
  return MPI_SUCCESS;
}

// ---- persistent requests
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::standard, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Send_init");
}
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::standard, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Send_init_c");
}
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::buffered, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Bsend_init");
}
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::buffered, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Bsend_init_c");
}
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::synchronous, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Ssend_init");
}
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::synchronous, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Ssend_init_c");
}
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::ready, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Rsend_init");
}
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::ready, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Rsend_init_c");
}
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return make_persistent(Mode::receive, nullptr, buf, count, datatype, source, tag, comm, request,
                         "MPI_Recv_init");
}
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::receive, nullptr, buf, count, datatype, source, tag, comm, request,
                         "MPI_Recv_init_c");
}

int PMPI_Start(MPI_Request *request) {
  if (!check_initialized("MPI_Start")) return MPI_ERR_OTHER;
  Entry *e = request ? find_entry(*request) : nullptr;
  if (!e || !e->persistent)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
  if (e->active)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Start", "the request is already active");
  if (e->persistent->part) return impi::api::part::start(*e);  // partitioned: a new round
  if (e->persistent->coll) {  // a persistent collective: its nonblocking form, started now
    // (The entry holds it; no copy: a reference count's locked decrement
    // after the start would wait for the stores it just made to shared memory.)
    CollStart *cs = e->persistent->coll.get();
    if (cs->direct) {  // checked and prepared by the init call
      RequestPtr r;
      if (int rc = cs->direct(&r); rc != MPI_SUCCESS) return rc;
      e = find_entry(*request);
      e->active = std::move(r);
      return MPI_SUCCESS;
    }
    MPI_Request started = MPI_REQUEST_NULL;
    if (int rc = cs->start(&started); rc != MPI_SUCCESS) return rc;
    Entry *s = find_entry(started);
    RequestPtr r = std::move(s->active);
    release_entry(&started, *s);
    e = find_entry(*request);
    e->active = std::move(r);
    return MPI_SUCCESS;
  }
  Persistent p = *e->persistent;
  RequestPtr r, copy_send;
  if (int rc = start_mode(p.mode, p, r, "MPI_Start", &copy_send); rc != MPI_SUCCESS) return rc;
  e = find_entry(*request);
  e->active = std::move(r);
  e->buffered = std::move(copy_send);
  return MPI_SUCCESS;
}

int PMPI_Startall(int count, MPI_Request array_of_requests[]) {
  if (count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Startall", "bad request array");
  for (int i = 0; i < count; ++i)
    if (int rc = PMPI_Start(&array_of_requests[i]); rc != MPI_SUCCESS) return rc;
  return MPI_SUCCESS;
}

static int sendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                            int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status) {
  // Send a packed copy, so the receive may overwrite the buffer. To
  // another IMPI client the copy is the message's external32 form: the
  // receiver reads typed data from there in that form (IMPI 4.1).
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  std::vector<std::byte> copy;
  if (dest != MPI_PROC_NULL && t.via->external32()) {
    const impi::pack::Rep rep = t.via->wire_rep(t.world);
    auto n = impi::pack::external32_size(*t.type, count, rep);
    if (!n) return report(comm, impi::api::error_class_of(n.error()), fn, n.message());
    if (auto s = impi::pack::check_fits(*t.type, count, buf, rep); !s.ok())
      return report(comm, impi::api::error_class_of(s.error()), fn,
                    fmt::format("{}; rank {}'s client takes only external32: nothing was sent",
                                s.message(), dest));
    copy.resize(static_cast<size_t>(*n));
    impi::pack::External32Cursor(*t.type, count, false, rep).pack(buf, copy);
  } else {
    impi::pack::PackCursor c(*t.type, count);
    copy.resize(static_cast<size_t>(c.total()));
    c.pack(buf, copy);
  }
  return sendrecv_impl(fn, copy.data(), static_cast<MPI_Count>(copy.size()), MPI_BYTE, dest,
                       sendtag, buf, count, datatype, source, recvtag, comm, status);
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

// ---- matched probe and receive (MPI 3.8.2)
namespace {
std::vector<std::uint64_t> g_messages(2);  // index 0: NULL, 1: MPI_MESSAGE_NO_PROC
std::vector<std::uint32_t> g_free_messages;
MPI_Message new_message(std::uint64_t claim) {
  TableLock lk;
  std::uint32_t i;
  if (!g_free_messages.empty()) {
    i = g_free_messages.back();
    g_free_messages.pop_back();
    g_messages[i] = claim;
  } else {
    i = static_cast<std::uint32_t>(g_messages.size());
    g_messages.push_back(claim);
  }
  return impi::api::make_handle<MPI_Message>(IMPI_KIND_MESSAGE, i);
}
}  // namespace

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status) {
  Target t;
  if (int rc = check_args("MPI_Improbe", nullptr, 0, MPI_BYTE, source, tag, comm, true, t);
      rc != MPI_SUCCESS)
    return rc;
  if (!flag || !message) return report(comm, MPI_ERR_ARG, "MPI_Improbe", "NULL argument");
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    return PMPI_Iprobe(source, tag, comm, flag, status);
  }
  auto m = impi::core::Runtime::instance().p2p().improbe(
      source == MPI_ANY_SOURCE ? impi::core::kAnySource : source,
      tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag, t.comm->context_id);
  *flag = m.has_value();
  if (!m) return MPI_SUCCESS;
  *message = new_message(m->second);
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = m->first.source;
    status->MPI_TAG = m->first.tag;
    status->impi_count = m->first.bytes;
    status->impi_cancelled = 0;
  }
  return MPI_SUCCESS;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) {
  int flag = 0;
  int rc = PMPI_Improbe(source, tag, comm, &flag, message, status);  // validates the arguments
  if (rc != MPI_SUCCESS || flag) return rc;
  auto *c = impi::api::lookup_comm(comm);
  int src = source == MPI_ANY_SOURCE ? impi::core::kAnySource : source;
  int tg = tag == MPI_ANY_TAG ? impi::core::kAnyTag : tag;
  auto &p = impi::core::Runtime::instance().p2p();
  p.wait_until([&] { return p.has_message(src, tg, c->context_id); });
  return PMPI_Improbe(source, tag, comm, &flag, message, status);
}

static int imrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Message *message, MPI_Request *request) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!message || !request) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  if (*message == MPI_MESSAGE_NO_PROC) {
    *request = new_request(null_peer_request(impi::core::Request::Kind::recv));
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  std::uint32_t i = impi::api::handle_index(*message);
  std::uint64_t claim = 0;
  {
    TableLock lk;
    if (impi::api::handle_kind(*message) == IMPI_KIND_MESSAGE && i >= 2 && i < g_messages.size())
      claim = g_messages[i];
  }
  if (claim == 0) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a valid message");
  auto ty = impi::api::lookup_type(datatype);
  if (!ty || !ty->committed) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "bad datatype");
  if (count < 0) return report(MPI_COMM_NULL, MPI_ERR_COUNT, fn, "negative count");
  RequestPtr r = impi::core::Runtime::instance().p2p().mrecv(claim, buf, count, ty->type);
  {
    TableLock lk;
    g_messages[i] = 0;
    g_free_messages.push_back(i);
  }
  *message = MPI_MESSAGE_NULL;
  if (!r) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "the message was already received");
  *request = new_request(std::move(r));
  return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request) {
  return imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request) {
  return imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status) {
  MPI_Request req;
  if (int rc = imrecv("MPI_Mrecv", buf, count, datatype, message, &req); rc != MPI_SUCCESS)
    return rc;
  return PMPI_Wait(&req, status);
}

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status) {
  MPI_Request req;
  if (int rc = imrecv("MPI_Mrecv_c", buf, count, datatype, message, &req); rc != MPI_SUCCESS)
    return rc;
  return PMPI_Wait(&req, status);
}

}  // extern "C"

// ---- MPI_Isendrecv, MPI_Isendrecv_replace (MPI-4.0 3.10)
namespace {
// Suspends the task until `done` says both halves have completed.
struct AwaitBoth {
  impi::core::P2P *p2p;
  RequestPtr send, recv;
  bool ready() const { return (!send || p2p->completed(*send)) && p2p->completed(*recv); }
  bool await_ready() const { return ready(); }
  void await_suspend(std::coroutine_handle<impi::collectives::Task::promise_type> h) {
    impi::collectives::Driver *d = h.promise().driver;
    d->suspended = h;
    d->until = [this] { return ready(); };
  }
  void await_resume() const noexcept {}
};

// Completes `whole` with the receive's status once both halves are done;
// `copy` (the replace form's packed send data) lives until then.
impi::collectives::Task sendrecv_task(impi::core::P2P *p2p, RequestPtr send, RequestPtr recv,
                                      RequestPtr whole, std::vector<std::byte> copy) {
  co_await AwaitBoth{p2p, send, recv};
  whole->status = recv->status;
  whole->cancelled = recv->cancelled;
  if (send && send->status.error != 0 && whole->status.error == 0)
    whole->status.error = send->status.error;
  whole->done = true;
  copy.clear();
  co_return impi::base::Status{};
}

int start_isendrecv(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Request *request, std::vector<std::byte> copy) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  // The send's arguments first: once the receive is posted, a failing send
  // must take it back.
  Target t;
  if (int rc = check_args(fn, sendbuf, sendcount, sendtype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  RequestPtr rr, sr;
  if (int rc = start_recv(fn, recvbuf, recvcount, recvtype, source, recvtag, comm, rr);
      rc != MPI_SUCCESS)
    return rc;
  auto &p = impi::core::Runtime::instance().p2p();
  if (int rc = start_send(fn, sendbuf, sendcount, sendtype, dest, sendtag, comm, sr);
      rc != MPI_SUCCESS) {
    if (!p.completed(*rr) && !p.cancel(rr)) p.wait_until([&] { return p.completed(*rr); });
    return rc;
  }
  auto whole = impi::core::make_request();
  whole->kind = impi::core::Request::Kind::recv;
  if (p.completed(*sr) && p.completed(*rr)) {  // both done already: no task
    whole->status = rr->status;
    whole->cancelled = rr->cancelled;
    whole->done = true;
  } else {
    // Advanced by the progress engine, on a queue of its own (the request's
    // address): it never waits for the communicator's collectives.
    const void *key = whole.get();
    impi::collectives::start_nonblocking(key, p, sendrecv_task(&p, sr, rr, whole, std::move(copy)));
  }
  *request = new_request(std::move(whole), impi::api::handle_value(comm));
  return MPI_SUCCESS;
}
}  // namespace

extern "C" {

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request) {
  return start_isendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, request, {});
}

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  return start_isendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, request, {});
}

static int isendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                             int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request) {
  // As MPI_Sendrecv_replace: the send takes a packed copy (external32 to
  // another client), so the receive may overwrite the buffer at once.
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  std::vector<std::byte> copy;
  if (dest != MPI_PROC_NULL && t.via->external32()) {
    const impi::pack::Rep rep = t.via->wire_rep(t.world);
    auto n = impi::pack::external32_size(*t.type, count, rep);
    if (!n) return report(comm, impi::api::error_class_of(n.error()), fn, n.message());
    if (auto s = impi::pack::check_fits(*t.type, count, buf, rep); !s.ok())
      return report(comm, impi::api::error_class_of(s.error()), fn,
                    fmt::format("{}; rank {}'s client takes only external32: nothing was sent",
                                s.message(), dest));
    copy.resize(static_cast<size_t>(*n));
    impi::pack::External32Cursor(*t.type, count, false, rep).pack(buf, copy);
  } else if (dest != MPI_PROC_NULL) {
    impi::pack::PackCursor c(*t.type, count);
    copy.resize(static_cast<size_t>(c.total()));
    c.pack(buf, copy);
  }
  const void *data = copy.data();
  const auto bytes = static_cast<MPI_Count>(copy.size());
  return start_isendrecv(fn, data, bytes, MPI_BYTE, dest, sendtag, buf, count, datatype, source,
                         recvtag, comm, request, std::move(copy));
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  return isendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request) {
  return isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}

}  // extern "C"

#include "api/generated/p2p_aliases.inc"
