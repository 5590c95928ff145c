// p2p.cpp - point-to-point entry points: argument checks, handle
// translation, then core::P2P (P2P::start_send picks the channel).
#include <fmt/core.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "pack/external32.hpp"

using impi::api::check_initialized;
using impi::api::report;
using impi::core::RequestPtr;

namespace {

// Under MPI_THREAD_MULTIPLE one mutex guards the tables of this file (the
// request, message and buffered-send tables). It is never held while
// waiting, and taken before the engine lock, never after.
std::mutex g_table_mu;
// Whether the tables need the lock: the thread level, fixed by MPI_Init,
// read once (-1: not yet) instead of through the runtime on every call.
std::atomic<int> g_table_locking{-1};
bool table_locking() {
  int on = g_table_locking.load(std::memory_order_relaxed);
  if (on < 0) {
    on = impi::core::Runtime::instance().thread_level() == impi::core::kThreadMultiple;
    g_table_locking.store(on, std::memory_order_relaxed);
  }
  return on != 0;
}
struct TableLock {
  bool on = table_locking();
  TableLock() {
    if (on) g_table_mu.lock();
  }
  ~TableLock() {
    if (on) g_table_mu.unlock();
  }
  TableLock(const TableLock &) = delete;
  TableLock &operator=(const TableLock &) = delete;
};

// ---- request handles
// A handle holds the active operation, and for persistent requests the
// arguments to start it again (MPI_Start).
enum class Mode { standard, buffered, synchronous, ready, receive };
struct Persistent {
  Mode mode;
  const void *sbuf;
  void *rbuf;
  int count;
  MPI_Datatype type;  // a derived type: the request's own handle to it (freed with the request)
  int peer, tag;
  MPI_Comm comm;
};
// A generalized request's callbacks (MPI-3.1 12.2). `user_freed`: the
// program freed the handle before MPI_Grequest_complete, which then
// releases it.
struct Grequest {
  MPI_Grequest_query_function *query;
  MPI_Grequest_free_function *free;
  MPI_Grequest_cancel_function *cancel;
  void *extra;
  bool user_freed = false;
};
struct Entry {
  RequestPtr active;  // null: inactive persistent request
  std::optional<Persistent> persistent;
  bool in_use = false;
  std::shared_ptr<Grequest> greq;
  // What MPI_Cancel acts on besides `active`: a buffered send's send of its
  // copy (`active` completed when the copy was made), or a message written
  // straight into the ring when the send started (send_now(): `active` is
  // g_sent_at_once) by its number there.
  RequestPtr buffered;
  int sent_to = -1;
  std::uint64_t sent_seq = 0;
};
// A deque: entries stay where they are while others are added (a thread
// holds an Entry* of its own request while another creates one).
// Index 0: MPI_REQUEST_NULL.
// Fixed-size chunks: indexing is a shift and a mask (a deque's costs tens
// of instructions on every request lookup).
class EntryTable {
 public:
  EntryTable() { emplace_back(); }
  std::size_t size() const { return size_; }
  Entry &operator[](std::size_t i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  void emplace_back() {
    if ((size_ & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<Entry[]>(kChunk));
    ++size_;
  }

 private:
  static constexpr std::size_t kShift = 10, kChunk = std::size_t{1} << kShift;
  std::vector<std::unique_ptr<Entry[]>> chunks_;
  std::size_t size_ = 0;
};
EntryTable g_requests;
std::vector<std::uint32_t> g_free_requests;
// The operation of every send that completed when it started (a small
// message written straight into the ring): shared, never freed, so such a
// send allocates no request.
impi::core::Request g_sent_at_once = [] {
  impi::core::Request r;
  r.kind = impi::core::Request::Kind::send;
  r.done = impi::core::DoneFlag(impi::core::DoneFlag::kAtCreation);
  return r;
}();

// A free entry (a default Entry), its index in `i`; with the table lock held.
Entry &take_entry(std::uint32_t &i) {
  if (!g_free_requests.empty()) {
    i = g_free_requests.back();
    g_free_requests.pop_back();
  } else {
    i = static_cast<std::uint32_t>(g_requests.size());
    g_requests.emplace_back();
  }
  return g_requests[i];
}

MPI_Request new_request(RequestPtr r) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = std::move(r);
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

MPI_Request new_request(RequestPtr r, Persistent p) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = std::move(r);
  e.persistent = p;
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

// The handle of message `seq` that send_now() wrote to world rank `to`:
// complete, no request of its own (MPI_Cancel makes one).
MPI_Request new_sent_request(int to, std::uint64_t seq) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = RequestPtr(RequestPtr(), &g_sent_at_once);  // (no reference counting)
  e.sent_to = to;
  e.sent_seq = seq;
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

Entry *find_entry(MPI_Request h) {
  if (impi::api::handle_kind(h) != IMPI_KIND_REQUEST) return nullptr;
  std::uint32_t i = impi::api::handle_index(h);
  TableLock lk;
  if (i == 0 || i >= g_requests.size() || !g_requests[i].in_use) return nullptr;
  return &g_requests[i];
}

// The active operation of a handle, or nullptr (invalid or inactive).
RequestPtr *find_request(MPI_Request h) {
  Entry *e = find_entry(h);
  return e && e->active ? &e->active : nullptr;
}

// After completion: a persistent request goes inactive, others are freed.
void release_request(MPI_Request *h) {
  std::uint32_t i = impi::api::handle_index(*h);
  TableLock lk;
  Entry &e = g_requests[i];
  e.active.reset();
  e.buffered.reset();
  if (e.persistent) return;
  // Back to a default Entry, member by member (what a send written at once
  // set costs no more to clear).
  e.greq.reset();
  e.sent_to = -1;
  e.sent_seq = 0;
  e.in_use = false;
  g_free_requests.push_back(i);
  *h = MPI_REQUEST_NULL;
}

// A completed request that did nothing (MPI_PROC_NULL peers).
RequestPtr null_peer_request(impi::core::Request::Kind kind) {
  auto r = impi::core::make_request();
  r->kind = kind;
  r->done = true;
  r->status.source = MPI_PROC_NULL;
  r->status.tag = MPI_ANY_TAG;
  return r;
}

}  // namespace

namespace impi::api {
MPI_Request new_request_handle(RequestPtr r) {
  return new_request(std::move(r));
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

// MPI_ERROR is written only by the calls that return several statuses
// (MPI-3.1 3.2.5): a single completion leaves what the program put there.
void set_status(MPI_Status *st, const impi::core::Request &r, int err, bool multiple = false) {
  if (st == MPI_STATUS_IGNORE) return;
  st->impi_cancelled = r.cancelled;
  if (r.kind == impi::core::Request::Kind::recv) {
    st->MPI_SOURCE = r.status.source;
    st->MPI_TAG = r.status.tag;
    st->impi_count = r.status.bytes;
  } else {
    st->impi_count = 0;
  }
  if (multiple) st->MPI_ERROR = err;
}

int request_error(const impi::core::Request &r) {
  switch (r.status.error) {
    case impi::core::kTruncated:
      return MPI_ERR_TRUNCATE;
    case impi::core::kTransportError:
      return MPI_ERR_OTHER;
    default:
      return MPI_SUCCESS;
  }
}

// Completes handle `h` (its operation is done): fills `st`, then frees or
// deactivates the handle. A generalized request's status comes from its
// query callback, and its free callback runs (MPI-3.1 12.2); their error
// codes are the call's.
int finish(MPI_Request *h, MPI_Status *st, bool multiple, Entry *e) {
  if (!e || !e->greq) {
    const impi::core::Request *r = e ? e->active.get() : nullptr;
    int err = r ? request_error(*r) : MPI_SUCCESS;
    if (r) set_status(st, *r, err, multiple);
    release_request(h);
    return err;
  }
  std::shared_ptr<Grequest> g = e->greq;
  MPI_Status tmp{};
  MPI_Status *q = st == MPI_STATUS_IGNORE ? &tmp : st;
  int kept = q->MPI_ERROR;
  q->impi_cancelled = 0;
  q->impi_count = 0;
  int err = g->query(g->extra, q);
  if (!multiple)
    q->MPI_ERROR = kept;
  else
    q->MPI_ERROR = err;
  release_request(h);
  if (int ferr = g->free(g->extra); err == MPI_SUCCESS) err = ferr;
  return err;
}

int finish(MPI_Request *h, MPI_Status *st, bool multiple) {
  return finish(h, st, multiple, find_entry(*h));
}

struct Target {
  impi::core::Communicator *comm = nullptr;
  const impi::pack::TypePtr *type = nullptr;  // predefined: the static table's; else `keep`
  impi::pack::TypePtr keep;
  int world = 0;  // peer's world rank (or kAnySource)
};

// Validates the arguments every send and receive shares.
int check_args(const char *fn, const void *buf, int count, MPI_Datatype datatype, int peer, int tag,
               MPI_Comm comm, bool recv, Target &t) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  t.comm = impi::api::lookup_comm(comm);
  if (!t.comm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
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
  auto &rt = impi::core::Runtime::instance();
  if (peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL)
    t.world = peer;
  else
    t.world = t.comm->world_of_peer(peer);
  if (peer >= 0 && !rt.p2p().reachable(t.world) && !rt.p2p().remote(t.world) &&
      !impi::core::P2P::dyn(t.world))
    return report(comm, MPI_ERR_RANK, fn, fmt::format("rank {} cannot be reached", peer));
  return MPI_SUCCESS;
}

int start_send(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, RequestPtr &out, bool sync = false) {
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
    return rc;
  if (dest == MPI_PROC_NULL) {
    out = null_peer_request(impi::core::Request::Kind::send);
    return MPI_SUCCESS;
  }
  auto r = impi::core::Runtime::instance().p2p().start_send(
      buf, count, *t.type, t.world, t.comm->rank, tag, t.comm->context_id, sync);
  if (!r) return report(comm, impi::api::error_class_of(r.error()), fn, r.message());
  out = std::move(r.value());
  return MPI_SUCCESS;
}

int start_recv(const char *fn, void *buf, int count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, RequestPtr &out, impi::core::Request *storage = nullptr) {
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
                       t.comm->context_id, storage);
  return MPI_SUCCESS;
}

void wait_done(const RequestPtr &r) {
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(*r)) p.wait_until([&] { return p.completed(*r); });
}

// The blocking and nonblocking forms of the standard, ready and synchronous
// sends share these (a ready send may be carried out as a standard one, MPI 3.4).
int blocking_send(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, bool sync) {
  if (!sync) {  // fast path: a small message straight into the ring, no request
    Target t;
    if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
      return rc;
    if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
    if (impi::core::Runtime::instance().p2p().send_now(buf, count, *t.type, t.world, t.comm->rank,
                                                       tag, t.comm->context_id))
      return MPI_SUCCESS;
  }
  RequestPtr r;
  if (int rc = start_send(fn, buf, count, datatype, dest, tag, comm, r, sync); rc != MPI_SUCCESS)
    return rc;
  wait_done(r);
  return MPI_SUCCESS;
}

int nonblocking_send(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest,
                     int tag, MPI_Comm comm, MPI_Request *request, bool sync);

int nonblocking_send(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest,
                     int tag, MPI_Comm comm, MPI_Request *request, bool sync) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  if (!sync) {  // fast path: a small message straight into the ring, complete at once
    Target t;
    if (int rc = check_args(fn, buf, count, datatype, dest, tag, comm, false, t); rc != MPI_SUCCESS)
      return rc;
    auto &p2p = impi::core::Runtime::instance().p2p();
    std::uint64_t seq = 0;  // the message's number in the ring, for MPI_Cancel
    if (dest != MPI_PROC_NULL)
      seq = p2p.send_now(buf, count, *t.type, t.world, t.comm->rank, tag, t.comm->context_id);
    if (seq != 0) {
      *request = new_sent_request(t.world, seq);
      return MPI_SUCCESS;
    }
  }
  RequestPtr r;
  if (int rc = start_send(fn, buf, count, datatype, dest, tag, comm, r, sync); rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
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

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
  RequestPtr r;
  impi::core::Request storage{};  // outlives the blocking receive: no heap request
  if (int rc = start_recv("MPI_Recv", buf, count, datatype, source, tag, comm, r, &storage);
      rc != MPI_SUCCESS)
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
  if (int rc = start_recv("MPI_Irecv", buf, count, datatype, source, tag, comm, r);
      rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
  return MPI_SUCCESS;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (!check_initialized("MPI_Wait")) return MPI_ERR_OTHER;
  if (!request) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "request is NULL");
  if (*request == MPI_REQUEST_NULL || (find_entry(*request) && !find_request(*request))) {
    // MPI_REQUEST_NULL or an inactive persistent request: an empty status (MPI 3.7.3)
    if (status != MPI_STATUS_IGNORE) {
      status->MPI_SOURCE = MPI_ANY_SOURCE;
      status->MPI_TAG = MPI_ANY_TAG;
      status->impi_count = 0;
      status->impi_cancelled = 0;
    }
    return MPI_SUCCESS;
  }
  RequestPtr *slot = find_request(*request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "not a valid request");
  wait_done(*slot);
  int err = finish(request, status, false);
  return err == MPI_SUCCESS
             ? MPI_SUCCESS
             : report(MPI_COMM_NULL, err, "MPI_Wait",
                      err == MPI_ERR_TRUNCATE ? "message truncated" : "the request failed");
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (!check_initialized("MPI_Test")) return MPI_ERR_OTHER;
  if (!request || !flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Test", "NULL argument");
  if (*request == MPI_REQUEST_NULL || (find_entry(*request) && !find_request(*request))) {
    *flag = 1;
    return PMPI_Wait(request, status);
  }
  RequestPtr *slot = find_request(*request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Test", "not a valid request");
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(**slot)) p.progress();
  *flag = p.completed(**slot);
  if (!*flag) return MPI_SUCCESS;
  return PMPI_Wait(request, status);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Waitall")) return MPI_ERR_OTHER;
  if (count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Waitall", "bad request array");
  // Each handle is looked up once (entries stay where they are).
  Entry *small[64];
  std::vector<Entry *> large(count > 64 ? static_cast<std::size_t>(count) : 0);
  Entry **entries = count > 64 ? large.data() : small;
  for (int i = 0; i < count; ++i) {
    entries[i] =
        array_of_requests[i] == MPI_REQUEST_NULL ? nullptr : find_entry(array_of_requests[i]);
    if (array_of_requests[i] != MPI_REQUEST_NULL && !entries[i])
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitall",
                    fmt::format("request {} is not valid", i));
  }
  bool failed = false;
  for (int i = 0; i < count; ++i) {
    MPI_Status tmp;
    MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? &tmp : &array_of_statuses[i];
    Entry *e = entries[i];
    if (!e || !e->active) {
      PMPI_Wait(&array_of_requests[i], st);
      continue;
    }
    wait_done(e->active);
    int err = finish(&array_of_requests[i], st, true, e);
    failed = failed || err != MPI_SUCCESS;
  }
  return failed ? report(MPI_COMM_NULL, MPI_ERR_IN_STATUS, "MPI_Waitall", "see the statuses")
                : MPI_SUCCESS;
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Testall")) return MPI_ERR_OTHER;
  if (!flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Testall", "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    if (!find_entry(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Testall", "not a valid request");
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (slot && !impi::core::Runtime::instance().p2p().completed(**slot)) {
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
    if (!find_entry(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitany", "not a valid request");
    any_active = any_active || find_request(array_of_requests[i]);
  }
  if (!any_active) {
    *index = MPI_UNDEFINED;
    MPI_Request none = MPI_REQUEST_NULL;
    return PMPI_Wait(&none, status);
  }
  int found = -1;
  impi::core::Runtime::instance().p2p().wait_until([&] {
    for (int i = 0; i < count; ++i)
      if (array_of_requests[i] != MPI_REQUEST_NULL && find_request(array_of_requests[i]) &&
          impi::core::Runtime::instance().p2p().completed(**find_request(array_of_requests[i]))) {
        found = i;
        return true;
      }
    return false;
  });
  *index = found;
  return PMPI_Wait(&array_of_requests[found], status);
}

int PMPI_Request_free(MPI_Request *request) {
  if (!request || !find_entry(*request))
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_free", "not a valid request");
  // An active operation still completes; the engine keeps its own reference.
  std::uint32_t i = impi::api::handle_index(*request);
  if (auto g = find_entry(*request)->greq) {
    // A generalized request: freed now if complete, else by MPI_Grequest_complete.
    RequestPtr r = find_entry(*request)->active;
    if (!r->done) {
      g->user_freed = true;
      *request = MPI_REQUEST_NULL;
      return MPI_SUCCESS;
    }
    release_request(request);
    return g->free(g->extra);
  }
  if (auto &p = find_entry(*request)->persistent; p && !impi::api::lookup_predefined_type(p->type))
    impi::api::free_type(p->type);
  {
    TableLock lk;
    g_requests[i] = Entry{};
    g_free_requests.push_back(i);
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
  if (request == MPI_REQUEST_NULL || (find_entry(request) && !find_request(request))) {
    *flag = 1;
    MPI_Request none = MPI_REQUEST_NULL;
    return PMPI_Wait(&none, status);
  }
  RequestPtr *slot = find_request(request);
  if (!slot)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_get_status", "not a valid request");
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(**slot)) p.progress();
  *flag = p.completed(**slot);
  if (!*flag) return MPI_SUCCESS;
  if (auto g = find_entry(request)->greq) {  // the query callback's status; the request stays
    MPI_Status tmp{};
    MPI_Status *q = status == MPI_STATUS_IGNORE ? &tmp : status;
    int kept = q->MPI_ERROR, err = g->query(g->extra, q);
    q->MPI_ERROR = kept;
    return err;
  }
  set_status(status, **slot, request_error(**slot));
  return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status) {
  RequestPtr rr, sr;
  // The send's arguments first: once the receive (on our stack) is posted,
  // we may only return when it is complete.
  Target t;
  if (int rc =
          check_args("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  impi::core::Request storage{};  // the receive lives on our stack: no heap request
  if (int rc = start_recv("MPI_Sendrecv", recvbuf, recvcount, recvtype, source, recvtag, comm, rr,
                          &storage);
      rc != MPI_SUCCESS)
    return rc;
  auto &p = impi::core::Runtime::instance().p2p();
  // A small send goes straight into the ring (as MPI_Send's does).
  bool sent = dest == MPI_PROC_NULL || p.send_now(sendbuf, sendcount, *t.type, t.world,
                                                  t.comm->rank, sendtag, t.comm->context_id);
  if (!sent) {
    auto r = p.start_send(sendbuf, sendcount, *t.type, t.world, t.comm->rank, sendtag,
                          t.comm->context_id, false);
    if (!r) {
      // Our receive (on this stack) is posted: take it back, or see it through.
      if (!p.completed(*rr) && !p.cancel(rr)) p.wait_until([&] { return p.completed(*rr); });
      return report(comm, impi::api::error_class_of(r.error()), "MPI_Sendrecv", r.message());
    }
    sr = std::move(r.value());
  }
  p.wait_until([&] { return p.completed(*rr) && (!sr || p.completed(*sr)); });
  int err = request_error(*rr);
  set_status(status, *rr, err);
  return err == MPI_SUCCESS ? MPI_SUCCESS : report(comm, err, "MPI_Sendrecv", "message truncated");
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

// ---- buffered sends (MPI 3.6): the message is copied into the attached
// buffer's accounting before it goes out, so MPI_Bsend never waits for the
// receiver; a buffer too small for it is MPI_ERR_BUFFER.
namespace {
struct Buffered {
  RequestPtr req;
  std::vector<std::byte> copy;
  std::int64_t charge;
};
void *g_bsend_buf = nullptr;
int g_bsend_size = 0;
std::int64_t g_bsend_used = 0;
std::vector<Buffered> g_buffered;

// With the table lock held.
void reclaim_buffered() {
  impi::core::Runtime::instance().p2p().progress();
  for (auto it = g_buffered.begin(); it != g_buffered.end();)
    if (impi::core::Runtime::instance().p2p().completed(*it->req)) {
      g_bsend_used -= it->charge;
      it = g_buffered.erase(it);
    } else {
      ++it;
    }
}

// `copy_send`, when given, receives the send of the copy (what MPI_Cancel cancels).
int start_bsend(const char *fn, const void *buf, int count, MPI_Datatype datatype, int dest,
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
  const bool remote = rt.p2p().external32_with(t.world);
  std::int64_t bytes = 0;
  if (remote) {
    auto n = impi::pack::external32_size(*t.type, count);
    if (!n) return report(comm, impi::api::error_class_of(n.error()), fn, n.message());
    bytes = *n;
  } else {
    bytes = impi::pack::PackCursor(*t.type, count).total();
  }
  std::int64_t charge = bytes + MPI_BSEND_OVERHEAD;
  if (g_bsend_used + charge > g_bsend_size)
    return report(comm, MPI_ERR_BUFFER, fn,
                  fmt::format("{} bytes needed, {} of the attached {} are free", charge,
                              g_bsend_size - g_bsend_used, g_bsend_size));
  Buffered b{nullptr, std::vector<std::byte>(static_cast<size_t>(bytes)), charge};
  if (remote)
    impi::pack::External32Cursor(*t.type, count).pack(buf, b.copy);
  else
    impi::pack::PackCursor(*t.type, count).pack(buf, b.copy);
  auto r = rt.p2p().start_send(b.copy.data(), bytes,
                               impi::pack::Datatype::predefined(impi::pack::dt::byte), t.world,
                               t.comm->rank, tag, t.comm->context_id, false);
  if (!r) return report(comm, impi::api::error_class_of(r.error()), fn, r.message());
  b.req = std::move(r.value());
  g_bsend_used += charge;
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
int make_persistent(Mode m, const void *sbuf, void *rbuf, int count, MPI_Datatype type, int peer,
                    int tag, MPI_Comm comm, MPI_Request *request, const char *fn) {
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  Target t;
  if (int rc = check_args(fn, m == Mode::receive ? rbuf : sbuf, count, type, peer, tag, comm,
                          m == Mode::receive, t);
      rc != MPI_SUCCESS)
    return rc;
  // The program may free a derived type right after this call (MPI-3.1
  // 4.1.9): the request keeps a handle of its own.
  if (!impi::api::lookup_predefined_type(type)) type = impi::api::new_type_handle(t.keep, true);
  *request = new_request(nullptr, Persistent{m, sbuf, rbuf, count, type, peer, tag, comm});
  return MPI_SUCCESS;
}

// One status for MPI_Waitsome/Testsome (`multiple`) and Testany results.
int complete_at(MPI_Request array[], int i, MPI_Status *st, bool multiple) {
  return finish(&array[i], st, multiple);
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

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  RequestPtr r;
  return start_bsend("MPI_Bsend", buf, count, datatype, dest, tag, comm, r);
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_REQUEST, "MPI_Ibsend", "request is NULL");
  RequestPtr r, copy_send;
  if (int rc = start_bsend("MPI_Ibsend", buf, count, datatype, dest, tag, comm, r, &copy_send);
      rc != MPI_SUCCESS)
    return rc;
  *request = new_request(std::move(r));
  find_entry(*request)->buffered = std::move(copy_send);
  return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size) {
  if (!check_initialized("MPI_Buffer_attach")) return MPI_ERR_OTHER;
  if (size < 0 || (!buffer && size > 0))
    return report(MPI_COMM_NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach", "bad buffer or size");
  TableLock lk;
  if (g_bsend_buf)
    return report(MPI_COMM_NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                  "a buffer is already attached");
  g_bsend_buf = buffer;
  g_bsend_size = size;
  return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size) {
  if (!check_initialized("MPI_Buffer_detach")) return MPI_ERR_OTHER;
  if (!buffer_addr || !size)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Buffer_detach", "NULL argument");
  // Blocks until every buffered message has been transmitted (MPI 3.6.1).
  impi::core::Runtime::instance().p2p().wait_until([] {
    TableLock lk;
    reclaim_buffered();
    return g_buffered.empty();
  });
  TableLock lk;
  *static_cast<void **>(buffer_addr) = g_bsend_buf;
  *size = g_bsend_size;
  g_bsend_buf = nullptr;
  g_bsend_size = 0;
  return MPI_SUCCESS;
}

// ---- persistent requests
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::standard, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Send_init");
}
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::buffered, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Bsend_init");
}
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::synchronous, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Ssend_init");
}
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return make_persistent(Mode::ready, buf, nullptr, count, datatype, dest, tag, comm, request,
                         "MPI_Rsend_init");
}
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return make_persistent(Mode::receive, nullptr, buf, count, datatype, source, tag, comm, request,
                         "MPI_Recv_init");
}

int PMPI_Start(MPI_Request *request) {
  if (!check_initialized("MPI_Start")) return MPI_ERR_OTHER;
  Entry *e = request ? find_entry(*request) : nullptr;
  if (!e || !e->persistent)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
  if (e->active)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Start", "the request is already active");
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

// ---- cancel
int PMPI_Cancel(MPI_Request *request) {
  if (!check_initialized("MPI_Cancel")) return MPI_ERR_OTHER;
  RequestPtr *slot = request ? find_request(*request) : nullptr;
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Cancel", "not an active request");
  Entry *e = find_entry(*request);
  if (auto g = e->greq)  // the callback decides (MPI-3.1 12.2)
    return g->cancel(g->extra, (*slot)->done ? 1 : 0);
  // If too late, the operation completes normally.
  auto &p2p = impi::core::Runtime::instance().p2p();
  if (e->sent_seq != 0) {  // written into the ring at once: ask the receiver
    e->active = p2p.cancel_sent(e->sent_to, e->sent_seq);
    e->sent_seq = 0;
  } else if (e->buffered) {  // the copy's send: the handle completes with it once asked
    if (p2p.cancel(e->buffered)) e->active = e->buffered;
    e->buffered.reset();
  } else {
    p2p.cancel(*slot);
  }
  return MPI_SUCCESS;
}

// ---- generalized requests (MPI-3.1 12.2)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request) {
  constexpr const char *fn = "MPI_Grequest_start";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!query_fn || !free_fn || !cancel_fn || !request)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "a callback or request is NULL");
  auto r = impi::core::make_request();
  r->kind = impi::core::Request::Kind::recv;
  *request = new_request(std::move(r));
  find_entry(*request)->greq =
      std::make_shared<Grequest>(Grequest{query_fn, free_fn, cancel_fn, extra_state, false});
  return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request request) {
  constexpr const char *fn = "MPI_Grequest_complete";
  Entry *e = find_entry(request);
  if (!e || !e->greq || !e->active)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a generalized request");
  if (e->active->done)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "the request is already complete");
  auto g = e->greq;
  e->active->done = true;  // (a waiting thread sees it on its next look)
  if (!g->user_freed) return MPI_SUCCESS;
  release_request(&request);
  return g->free(g->extra);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
  if (!status || !flag)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Test_cancelled", "NULL argument");
  *flag = status->impi_cancelled;
  return MPI_SUCCESS;
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag) {
  if (!status) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled", "NULL status");
  status->impi_cancelled = flag != 0;
  return MPI_SUCCESS;
}

// ---- more completion calls
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status) {
  if (!check_initialized("MPI_Testany")) return MPI_ERR_OTHER;
  if (!index || !flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Testany", "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (!slot) continue;
    any_active = true;
    if (impi::core::Runtime::instance().p2p().completed(**slot)) {
      *index = i;
      *flag = 1;
      int err = complete_at(array_of_requests, i, status, false);
      return err == MPI_SUCCESS ? MPI_SUCCESS
                                : report(MPI_COMM_NULL, err, "MPI_Testany", "message truncated");
    }
  }
  *index = MPI_UNDEFINED;
  *flag = !any_active;
  if (!any_active) {
    MPI_Request none = MPI_REQUEST_NULL;
    PMPI_Wait(&none, status);
  }
  return MPI_SUCCESS;
}

static int some(int incount, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[], bool wait, const char *fn) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!outcount || incount < 0 || (incount > 0 && (!reqs || !indices)))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arguments");
  auto &p2p = impi::core::Runtime::instance().p2p();
  auto ready = [&] {
    bool active = false;
    for (int i = 0; i < incount; ++i)
      if (reqs[i] != MPI_REQUEST_NULL && find_request(reqs[i])) {
        active = true;
        if (impi::core::Runtime::instance().p2p().completed(**find_request(reqs[i]))) return true;
      }
    return !active;
  };
  if (wait)
    p2p.wait_until(ready);
  else
    p2p.progress();
  int n = 0;
  bool active = false, failed = false;
  for (int i = 0; i < incount; ++i) {
    if (reqs[i] == MPI_REQUEST_NULL || !find_request(reqs[i])) continue;
    active = true;
    if (!impi::core::Runtime::instance().p2p().completed(**find_request(reqs[i]))) continue;
    MPI_Status tmp;
    int err = complete_at(reqs, i, statuses == MPI_STATUSES_IGNORE ? &tmp : &statuses[n], true);
    failed = failed || err != MPI_SUCCESS;
    indices[n++] = i;
  }
  *outcount = active ? n : MPI_UNDEFINED;
  return failed ? report(MPI_COMM_NULL, MPI_ERR_IN_STATUS, fn, "see the statuses") : MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, true,
              "MPI_Waitsome");
}

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, false,
              "MPI_Testsome");
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  // Send a packed copy, so the receive may overwrite the buffer. To
  // another IMPI client the copy is the message's external32 form: the
  // receiver reads typed data from there in that form (IMPI 4.1).
  const char *fn = "MPI_Sendrecv_replace";
  Target t;
  if (int rc = check_args(fn, buf, count, datatype, dest, sendtag, comm, false, t);
      rc != MPI_SUCCESS)
    return rc;
  std::vector<std::byte> copy;
  if (dest != MPI_PROC_NULL && impi::core::Runtime::instance().p2p().external32_with(t.world)) {
    auto n = impi::pack::external32_size(*t.type, count);
    if (!n) return report(comm, impi::api::error_class_of(n.error()), fn, n.message());
    copy.resize(static_cast<size_t>(*n));
    impi::pack::External32Cursor(*t.type, count).pack(buf, copy);
  } else {
    impi::pack::PackCursor c(*t.type, count);
    copy.resize(static_cast<size_t>(c.total()));
    c.pack(buf, copy);
  }
  return PMPI_Sendrecv(copy.data(), static_cast<int>(copy.size()), MPI_BYTE, dest, sendtag, buf,
                       count, datatype, source, recvtag, comm, status);
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

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request) {
  const char *fn = "MPI_Imrecv";
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

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status) {
  MPI_Request req;
  if (int rc = PMPI_Imrecv(buf, count, datatype, message, &req); rc != MPI_SUCCESS) return rc;
  return PMPI_Wait(&req, status);
}

}  // extern "C"

#include "api/generated/p2p_aliases.inc"
