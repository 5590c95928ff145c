// requests.hpp - the request handle table of the point-to-point calls
// (src/api/p2p.cpp starts operations, src/api/completion.cpp completes
// them): entries, their lock, lookup and release, and statuses.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

namespace impi::api::part {
struct State;  // a partitioned request (src/api/partitioned.cpp)
}
namespace impi::collectives {
struct SlotOp;  // a persistent collective on MPI_COMM_WORLD's slots (fast_native.hpp)
}

namespace impi::api::req {

using impi::core::RequestPtr;

// Under MPI_THREAD_MULTIPLE one mutex guards the tables of this file (the
// request, message and buffered-send tables). It is never held while
// waiting, and taken before the engine lock, never after.
extern std::mutex g_table_mu;
// Whether the tables need the lock: the thread level, fixed by MPI_Init,
// read once (-1: not yet) instead of through the runtime on every call;
// or the library's own threads that complete requests (lock_tables()).
extern std::atomic<int> g_table_locking;
inline bool table_locking() {
  int on = g_table_locking.load(std::memory_order_relaxed);
  if (on < 0) {
    on = impi::core::Runtime::instance().thread_level() == impi::core::kThreadMultiple;
    g_table_locking.store(on, std::memory_order_relaxed);
  }
  return on != 0;
}
// From now on the tables take their lock whatever the thread level: called
// by the program's thread before it hands a request to another thread of
// the library (the I/O threads complete file requests, and release those
// the program freed), so that every table access after it is locked.
inline void lock_tables() {
  g_table_locking.store(1, std::memory_order_relaxed);
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

// ---- buffered-send buffers (MPI-4.1 3.6, p2p.cpp): the process's
// (MPI_Buffer_attach), a session's and a communicator's, by handle value.
// The MPI calls validate their handles; these report an error class (with
// `why`) or do the work.
enum class BufScope { process, session, comm };
int attach_buffer(BufScope scope, std::uintptr_t id, void *buffer, MPI_Count size,
                  std::string &why);
// Waits for the buffer's messages to be transmitted, then detaches it;
// *buffer / *size: what was attached (MPI_BUFFER_AUTOMATIC and 0 for that;
// NULL and 0: nothing).
void detach_buffer(BufScope scope, std::uintptr_t id, void **buffer, MPI_Count *size);
// Waits until the messages now in the buffer have been transmitted.
void flush_buffer(BufScope scope, std::uintptr_t id);
// The same as a request.
MPI_Request iflush_buffer(BufScope scope, std::uintptr_t id);
// Forgets the buffer of a communicator or session that is gone.
void drop_buffer(BufScope scope, std::uintptr_t id);

// ---- request handles
// A handle holds the active operation, and for persistent requests the
// arguments to start it again (MPI_Start).
enum class Mode { standard, buffered, synchronous, ready, receive };
// A persistent collective (MPI-4.0 6.12, src/api/coll_persistent.cpp):
// `direct`, when set, starts the operation the init call checked and
// prepared (its request in *out); else `start` starts the nonblocking
// collective with the saved arguments (its request handle in *out).
// `types`, `ops`, `comm`: the request's own handles to derived types, user
// operations and the communicator, so the program may free its own after
// the init call; released with the request (the destructor).
struct CollStart {
  std::function<int(RequestPtr *out)> direct;
  std::function<int(MPI_Request *out)> start;
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Op> ops;
  MPI_Comm comm = MPI_COMM_NULL;
  bool slots = false;  // `direct` starts an operation on MPI_COMM_WORLD's slots (slots_wait)
  // That operation (`direct` holds a plain pointer to it): released through
  // collectives::slots_release, which keeps it while it is queued.
  std::shared_ptr<impi::collectives::SlotOp> slot_op;
  CollStart() = default;
  CollStart(const CollStart &) = delete;
  CollStart &operator=(const CollStart &) = delete;
  ~CollStart();
};
struct Persistent {
  Mode mode;
  const void *sbuf;
  void *rbuf;
  MPI_Count count;
  MPI_Datatype type;  // a derived type: the request's own handle to it (freed with the request)
  int peer, tag;
  MPI_Comm comm;
  std::shared_ptr<CollStart> coll;    // set: a persistent collective (the fields above unused)
  std::shared_ptr<part::State> part;  // set: partitioned (MPI-4.0 4.2, api/partitioned.cpp)
};
// A generalized request's callbacks (MPI-3.1 12.2). `state`: kCompleted
// (MPI_Grequest_complete ran) and kFreed (the program freed the handle),
// set by fetch_or from either thread; whichever call finds the other's bit
// releases the handle and runs the free callback, exactly once (the I/O
// threads complete file requests while the program may free them).
struct Grequest {
  static constexpr unsigned kCompleted = 1, kFreed = 2;
  MPI_Grequest_query_function *query;
  MPI_Grequest_free_function *free;
  MPI_Grequest_cancel_function *cancel;
  void *extra;
  std::atomic<unsigned> state{0};
  Grequest(MPI_Grequest_query_function *q, MPI_Grequest_free_function *f,
           MPI_Grequest_cancel_function *c, void *x)
      : query(q), free(f), cancel(c), extra(x) {}
};
struct alignas(64) Entry {                 // (one cache line)
  RequestPtr active;                       // null: inactive persistent request
  std::unique_ptr<Persistent> persistent;  // (out of line: entries stay small, 64 in flight fit L1)
  bool in_use = false;
  // What MPI_Cancel acts on besides `active`: a buffered send's send of its
  // copy (`buffered`; `active` completed when the copy was made), or a
  // message written straight into the ring when the send started
  // (send_now(): `active` is g_sent_at_once) by its number there (`sent_to`,
  // `sent_seq`). (Members in this order: no padding, one cache line.)
  int sent_to = -1;
  std::shared_ptr<Grequest> greq;
  RequestPtr buffered;
  std::uint64_t sent_seq = 0;
  // The handle value of the communicator, window or file whose operation
  // this is (0: none, a user's generalized request): a completion call
  // reports the operation's error through that object's error handler
  // (report_request), as for an error of the call that started it.
  std::uintptr_t owner = 0;
};
static_assert(sizeof(Entry) == 64);
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
extern EntryTable g_requests;
extern std::vector<std::uint32_t> g_free_requests;
// The operation of every send that completed when it started (a small
// message written straight into the ring): shared, never freed, so such a
// send allocates no request.
extern impi::core::Request g_sent_at_once;

// A free entry (a default Entry), its index in `i`; with the table lock held.
[[gnu::always_inline]] inline Entry &take_entry(std::uint32_t &i) {
  if (!g_free_requests.empty()) {
    i = g_free_requests.back();
    g_free_requests.pop_back();
  } else {
    i = static_cast<std::uint32_t>(g_requests.size());
    g_requests.emplace_back();
  }
  return g_requests[i];
}

inline MPI_Request new_request(RequestPtr r, std::uintptr_t owner = 0) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = std::move(r);
  e.owner = owner;
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

inline MPI_Request new_request(RequestPtr r, Persistent p) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = std::move(r);
  e.owner = impi::api::handle_value(p.comm);
  e.persistent = std::make_unique<Persistent>(p);
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

// The handle of message `seq` that send_now() wrote to world rank `to`:
// complete, no request of its own (MPI_Cancel makes one).
inline MPI_Request new_sent_request(int to, std::uint64_t seq) {
  TableLock lk;
  std::uint32_t i;
  Entry &e = take_entry(i);
  e.active = RequestPtr::borrow(&g_sent_at_once);  // (no reference counting)
  e.sent_to = to;
  e.sent_seq = seq;
  e.in_use = true;
  return impi::api::make_handle<MPI_Request>(IMPI_KIND_REQUEST, i);
}

inline Entry *find_entry(MPI_Request h) {
  if (impi::api::handle_kind(h) != IMPI_KIND_REQUEST) return nullptr;
  std::uint32_t i = impi::api::handle_index(h);
  TableLock lk;
  if (i == 0 || i >= g_requests.size() || !g_requests[i].in_use) return nullptr;
  return &g_requests[i];
}

// The active operation of a handle, or nullptr (invalid or inactive).
inline RequestPtr *find_request(MPI_Request h) {
  Entry *e = find_entry(h);
  return e && e->active ? &e->active : nullptr;
}

// After completion: a persistent request goes inactive, others are freed.
// `e`: handle *h's entry.
[[gnu::always_inline]] inline void release_entry(MPI_Request *h, Entry &e) {
  TableLock lk;
  e.active.reset();
  if (e.buffered) e.buffered.reset();
  if (e.persistent) return;
  // Back to a default Entry, member by member (what a send written at once
  // set costs no more to clear).
  if (e.greq) e.greq.reset();
  e.sent_to = -1;
  e.sent_seq = 0;
  e.owner = 0;
  e.in_use = false;
  g_free_requests.push_back(impi::api::handle_index(*h));
  *h = MPI_REQUEST_NULL;
}
inline void release_request(MPI_Request *h) {
  Entry *e;
  {
    TableLock lk;
    e = &g_requests[impi::api::handle_index(*h)];
  }
  release_entry(h, *e);
}

// A completed request that did nothing (MPI_PROC_NULL peers).
inline RequestPtr null_peer_request(impi::core::Request::Kind kind) {
  auto r = impi::core::make_request();
  r->kind = kind;
  r->done = true;
  r->status.source = MPI_PROC_NULL;
  r->status.tag = MPI_ANY_TAG;
  return r;
}

// An empty status (MPI-3.1 3.7.3), what a null or inactive request
// completes with: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, error
// MPI_SUCCESS, count 0, not cancelled.
inline void set_empty_status(MPI_Status *st) {
  if (st == MPI_STATUS_IGNORE) return;
  st->MPI_SOURCE = MPI_ANY_SOURCE;
  st->MPI_TAG = MPI_ANY_TAG;
  st->MPI_ERROR = MPI_SUCCESS;
  st->impi_count = 0;
  st->impi_cancelled = 0;
}

// MPI_ERROR is written only by the calls that return several statuses
// (MPI-3.1 3.2.5): a single completion leaves what the program put there.
inline void set_status(MPI_Status *st, const impi::core::Request &r, int err,
                       bool multiple = false) {
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

inline int request_error(const impi::core::Request &r) {
  switch (r.status.error) {
    case impi::core::kTruncated:
      return MPI_ERR_TRUNCATE;
    case impi::core::kTransportError:
      return MPI_ERR_OTHER;
    case impi::core::kPartitionMismatch:
      return MPI_ERR_TYPE;
    default:
      return MPI_SUCCESS;
  }
}

// Completes handle `h` (its operation is done): fills `st`, then frees or
// deactivates the handle. A generalized request's status comes from its
// query callback, and its free callback runs (MPI-3.1 12.2); their error
// codes are the call's.
inline int finish(MPI_Request *h, MPI_Status *st, bool multiple, Entry *e) {
  if (!e || !e->greq) {
    const impi::core::Request *r = e ? e->active.get() : nullptr;
    int err = r ? request_error(*r) : MPI_SUCCESS;
    if (r) set_status(st, *r, err, multiple);
    if (e)
      release_entry(h, *e);
    else
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

inline int finish(MPI_Request *h, MPI_Status *st, bool multiple) {
  return finish(h, st, multiple, find_entry(*h));
}

// One status for MPI_Waitsome/Testsome (`multiple`) and Testany results.
inline int complete_at(MPI_Request array[], int i, MPI_Status *st, bool multiple) {
  return finish(&array[i], st, multiple);
}

// Waits (progressing the engine) until `r` is complete.
inline void wait_done(const RequestPtr &r) {
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(*r)) p.wait_until([&] { return p.completed(*r); });
}

}  // namespace impi::api::req
