// request.hpp - a point-to-point request, as the matching engine and the
// channels see it, and its completion flag.
//
// A request is created by the thread that starts the operation and
// completed by whichever thread makes the progress that finishes it; the
// completion is published through `done` (see DoneFlag), so waiters read
// it without the engine lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>

#include "base/thread_exit.hpp"
#include "pack/cursor.hpp"

namespace impi::core {

constexpr int kAnySource = -1;  // MPI_ANY_SOURCE
constexpr int kAnyTag = -1;     // MPI_ANY_TAG

struct MsgStatus {
  int source = 0;
  int tag = 0;
  std::int64_t bytes = 0;  // bytes received (or of the probed message)
  int error = 0;           // 0, or an internal code: kTruncated
};
constexpr int kTruncated = 1;
constexpr int kTransportError = 2;     // a single-copy read of the sender's memory failed
constexpr int kPartitionMismatch = 3;  // partitioned: a send partition is no whole receive elements

// A small number naming the calling thread (never 0).
// Initial-exec TLS: a plain %fs-relative load, no __tls_get_addr call.
#define IMPI_FAST_TLS __attribute__((tls_model("initial-exec")))
inline std::atomic<std::uint32_t> g_next_token{1};
inline thread_local std::uint32_t t_token IMPI_FAST_TLS = 0;
inline std::uint32_t thread_token() {
  if (__builtin_expect(t_token == 0, 0))
    t_token = g_next_token.fetch_add(1, std::memory_order_relaxed);
  return t_token;
}

// A completion flag other threads may read without the engine lock. It
// holds 0, or the token of the thread that completed the request (stored
// last, with release). Callers outside the engine test it through
// P2P::completed(), which also orders what the completing thread wrote.
class DoneFlag {
 public:
  static constexpr std::uint32_t kAtCreation =
      0xffffffffu;  // complete from the start: nothing to order
  DoneFlag(bool v = false) : v_(v ? thread_token() : 0) {}
  explicit DoneFlag(std::uint32_t token) : v_(token) {}
  DoneFlag(const DoneFlag &o) : v_(o.v_.load(std::memory_order_relaxed)) {}
  DoneFlag &operator=(const DoneFlag &o) {
    v_.store(o.v_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }
  DoneFlag &operator=(bool v) {
    v_.store(v ? thread_token() : 0, std::memory_order_release);
    return *this;
  }
  operator bool() const { return v_.load(std::memory_order_acquire) != 0; }
  // 0, or the token of the thread that completed the request.
  std::uint32_t completer() const { return v_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::uint32_t> v_;
};

class Channel;

struct Request {
  // Every member has its initializer: a user-provided constructor spares
  // make_request() the zero-fill that value-initialization would add.
  Request() noexcept {}
  enum class Kind { send, recv } kind = Kind::recv;
  DoneFlag done;
  MsgStatus status;
  // Both kinds.
  const void *send_buf = nullptr;
  void *recv_buf = nullptr;
  pack::TypePtr type;  // holds the datatype alive while in flight (null: a predefined type)
  std::int64_t count = 0;
  int peer = 0;                // send: destination world rank; recv: source (or kAnySource)
  int from_world = -1;         // recv: the source's world rank, when the caller knew it
  Channel *channel = nullptr;  // send: the channel carrying it (null: no channel, MPI_PROC_NULL)
  int tag = 0;
  int context = 0;
  // Progress state.
  std::optional<pack::PackCursor> cursor;
  std::int64_t total = 0;  // send: bytes to send; recv: capacity
  std::int64_t moved = 0;  // bytes sent / received so far
  std::int64_t msg_len = 0;
  std::uint64_t id = 0;
  // Shared-memory sends: the message's number on its ring (RingPeer),
  // which a cancel names; and where a cancel of it stands (`cancel`).
  std::uint64_t seq = 0;
  // (The flags together, with the count below: no padding between them.)
  // Synchronous sends complete when the receiver has matched the message.
  bool sync = false;
  bool acked = false;
  bool cancelled = false;
  bool rendezvous = false;  // single-copy: the receiver reads our buffer, then acks
  enum class Cancel : std::uint8_t {
    none,     // never asked for
    pending,  // the receiver was asked; the request completes with its answer
    refused,  // the receiver had matched it: the send completes normally
  } cancel = Cancel::none;
  // RequestPtr's reference count; `counted_`: made by make_request() (a
  // borrowed request is never counted).
  std::uint32_t refs_ = 0;
  bool counted_ = false;
};

// Whether several threads may hold references to one request at once
// (MPI_THREAD_MULTIPLE): then reference counts change atomically. Set by
// Runtime::init before any request exists; below MULTIPLE only one thread
// at a time is inside the library, and a plain count saves the atomic
// read-modify-writes every message would pay (shared_ptr always pays them).
inline bool g_atomic_request_refs = true;

// Back to its pool (request.cpp: out of line, so that every reference's
// release stays a few inlined instructions).
void destroy_request(Request *r) noexcept;

// A counted reference to a Request from make_request(), or an uncounted
// one to a request the caller keeps alive (borrow(): on a blocking call's
// stack). The shared_ptr operations the engine uses, nothing more.
class RequestPtr {
 public:
  constexpr RequestPtr() noexcept = default;
  constexpr RequestPtr(std::nullptr_t) noexcept {}
  // No reference is taken: `r` is not counted (or, from make_request(),
  // this takes over the reference its creation holds).
  static RequestPtr borrow(Request *r) noexcept {
    RequestPtr p;
    p.p_ = r;
    return p;
  }
  RequestPtr(const RequestPtr &o) noexcept : p_(o.p_) { ref(); }
  RequestPtr(RequestPtr &&o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  RequestPtr &operator=(const RequestPtr &o) noexcept {
    RequestPtr(o).swap(*this);
    return *this;
  }
  RequestPtr &operator=(RequestPtr &&o) noexcept {
    RequestPtr(std::move(o)).swap(*this);
    return *this;
  }
  ~RequestPtr() { unref(); }

  Request *get() const noexcept { return p_; }
  Request &operator*() const noexcept { return *p_; }
  Request *operator->() const noexcept { return p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  void reset() noexcept { RequestPtr().swap(*this); }
  void swap(RequestPtr &o) noexcept { std::swap(p_, o.p_); }
  friend bool operator==(const RequestPtr &a, const RequestPtr &b) noexcept { return a.p_ == b.p_; }
  friend bool operator==(const RequestPtr &a, std::nullptr_t) noexcept { return !a.p_; }

 private:
  [[gnu::always_inline]] inline void ref() const noexcept;
  [[gnu::always_inline]] inline void unref() noexcept;
  Request *p_ = nullptr;
};

// ---- requests from a per-thread pool of recycled blocks: every
// nonblocking call makes one, and a malloc/free pair would be a large part
// of a small message's cost. Inline, so that a caller's stores to a new
// request replace the constructor's instead of following them.
namespace detail {
// One-size blocks per thread for requests. A block freed on another thread joins
// that thread's list; a thread's list is freed when the thread ends, and a
// block freed after that goes back to the heap. The list itself is a
// trivially destructible initial-exec thread_local (a thread_local with a
// destructor costs a TLS wrapper call, and __tls_get_addr, per use);
// base::at_thread_exit, armed once per thread, frees it.
template <typename T>
struct BlockPool {
  struct List {
    void *head;
    int n;
    bool armed;  // reap() is registered for this thread
    bool gone;   // the thread is ending: the list has been freed
  };
  // At the thread's end (base::at_thread_exit): frees the list.
  static void reap() {
    while (list.head) {
      void *next = *static_cast<void **>(list.head);
      ::operator delete (list.head, std::align_val_t{alignof(T)});
      list.head = next;
    }
    list.n = 0;
    list.gone = true;
  }
  static constexpr int kMax = 1024;  // blocks kept per thread
  static inline thread_local List list IMPI_FAST_TLS{};
  static void arm() {
    base::at_thread_exit<&reap>();
    list.armed = true;
  }
};

template <typename T>
struct PoolAlloc {
  using value_type = T;
  PoolAlloc() = default;
  template <typename U>
  PoolAlloc(const PoolAlloc<U> &) noexcept {}
  T *allocate(std::size_t n) {
    static_assert(sizeof(T) >= sizeof(void *));
    using P = BlockPool<T>;
    auto &l = P::list;
    if (n == 1 && l.head) {
      void *b = l.head;
      l.head = *static_cast<void **>(b);
      --l.n;
      return static_cast<T *>(b);
    }
    return static_cast<T *>(::operator new (n * sizeof(T), std::align_val_t{alignof(T)}));
  }
  void deallocate(T *p, std::size_t n) noexcept {
    using P = BlockPool<T>;
    auto &l = P::list;
    if (n == 1 && !l.gone && l.n < P::kMax) {
      if (!l.armed) P::arm();
      *reinterpret_cast<void **>(p) = l.head;
      l.head = p;
      ++l.n;
      return;
    }
    ::operator delete (p, std::align_val_t{alignof(T)});
  }
  template <typename U>
  bool operator==(const PoolAlloc<U> &) const noexcept {
    return true;
  }
};
}  // namespace detail

// A new request, its memory from the calling thread's pool.
inline RequestPtr make_request() {
  auto *r = ::new (detail::PoolAlloc<Request>{}.allocate(1)) Request();
  r->refs_ = 1;
  r->counted_ = true;
  return RequestPtr::borrow(r);  // (takes over its first reference)
}

inline void RequestPtr::ref() const noexcept {
  if (!p_ || !p_->counted_) return;
  if (g_atomic_request_refs)
    __atomic_fetch_add(&p_->refs_, 1, __ATOMIC_RELAXED);
  else
    ++p_->refs_;
}

inline void RequestPtr::unref() noexcept {
  if (!p_ || !p_->counted_) return;
  bool last = g_atomic_request_refs ? __atomic_sub_fetch(&p_->refs_, 1, __ATOMIC_ACQ_REL) == 0
                                    : --p_->refs_ == 0;
  if (last) destroy_request(p_);
  p_ = nullptr;
}

}  // namespace impi::core
