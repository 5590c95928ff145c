// task.hpp - collective algorithms as C++20 coroutines, so that one body
// of code serves both the blocking call (run to completion, waiting on the
// progress engine) and the non-blocking one (advanced by the progress
// engine from MPI_Test/MPI_Wait until it finishes).
//
// An algorithm is a `Task` that co_awaits point-to-point requests
// (`Await`, from CommView::isend/irecv) and other Tasks (nested calls).
// Every coroutine of one operation shares a `Driver`: where the operation
// is suspended and on which request. `Driver::poll()` resumes it when that
// request has completed.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <utility>

#include "base/errc.hpp"
#include "base/thread_exit.hpp"
#include "core/p2p.hpp"
#include "pack/datatype.hpp"

namespace impi::collectives {

// Coroutine frames: free lists per thread, per size class: 64-byte classes
// up to 4 KiB, then 1 KiB classes up to 8 KiB (the IMPI Barrier's frame is
// 5 KiB; few classes keep the initial-exec table small, for a libmpi that
// is dlopen'ed).
inline constexpr std::size_t kFrameClass = 64, kFineClasses = 64, kCoarseClass = 1024,
                             kFrameClasses = kFineClasses + 5;
// The class of an n-byte frame (kFrameClasses: not cached), and its bytes.
inline std::size_t frame_class(std::size_t n) {
  const std::size_t k = (n + kFrameClass - 1) / kFrameClass;
  if (k < kFineClasses) return k;
  const std::size_t c = (n + kCoarseClass - 1) / kCoarseClass;  // 4 .. 8 up to 8 KiB
  return c <= 8 ? kFineClasses + (c - 4) : kFrameClasses;
}
inline std::size_t frame_bytes(std::size_t k) {
  return k < kFineClasses ? k * kFrameClass : (k - kFineClasses + 4) * kCoarseClass;
}
// Trivially destructible on purpose: a thread_local with a destructor costs
// a TLS wrapper call per use. base::at_thread_exit, armed when the thread
// first caches a frame, frees the lists when it ends; frames freed after
// that go back to the heap.
struct FrameCache {
  void *free[kFrameClasses];
  bool armed;  // free_cached_frames() is registered for this thread
  bool gone;   // the thread is ending: the lists have been freed
};
inline thread_local FrameCache t_frames __attribute__((tls_model("initial-exec")));
inline void free_cached_frames() {  // at the thread's end
  for (void *&head : t_frames.free)
    while (head) {
      void *next = *static_cast<void **>(head);
      ::operator delete(head);
      head = next;
    }
  t_frames.gone = true;
}
inline void *frame_alloc(std::size_t n) {
  const std::size_t k = frame_class(n);
  if (k >= kFrameClasses) return ::operator new(n);
  if (void *p = t_frames.free[k]) {
    t_frames.free[k] = *static_cast<void **>(p);
    return p;
  }
  return ::operator new(frame_bytes(k));
}
inline void frame_free(void *p, std::size_t n) {
  const std::size_t k = frame_class(n);
  if (k >= kFrameClasses || t_frames.gone) return ::operator delete(p);
  if (!t_frames.armed) {
    base::at_thread_exit<&free_cached_frames>();
    t_frames.armed = true;
  }
  *static_cast<void **>(p) = t_frames.free[k];
  t_frames.free[k] = p;
}

struct Driver {
  std::coroutine_handle<> suspended;  // the innermost coroutine, waiting
  core::RequestPtr waiting;           // on this request (null: runnable), or
  std::function<bool()> until;        // until this says so
  bool waiting_local = false;         // `waiting` is a receive through shared memory
  bool done = false;
  base::Status result;
  core::P2P *p2p = nullptr;
  // Resumes the operation while what it waits for has completed; true once done.
  bool ready() const { return waiting ? p2p->completed(*waiting) : until ? until() : true; }
  bool poll() {
    while (!done && suspended && ready()) {
      waiting.reset();
      waiting_local = false;
      until = nullptr;
      auto h = std::exchange(suspended, {});
      h.resume();
    }
    return done;
  }
};

class [[nodiscard]] Task {
 public:
  struct promise_type {
    base::Status result;
    std::coroutine_handle<> continuation;  // the awaiting parent (null: the top)
    Driver *driver = nullptr;
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto &p = h.promise();
        if (p.continuation) return p.continuation;  // back to the parent
        p.driver->done = true;                      // the top: the operation is over
        p.driver->result = p.result;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(base::Status s) { result = std::move(s); }
    // Frames come from a per-thread free list (collectives start several
    // coroutines per call; malloc for each shows in small-message latency).
    static void *operator new(std::size_t n) { return frame_alloc(n); }
    static void operator delete(void *p, std::size_t n) { frame_free(p, n); }
    void unhandled_exception() { std::terminate(); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Task(Task &&o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task &operator=(Task &&o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~Task() {
    if (h_) h_.destroy();
  }

  // A nested call: runs the child in the parent's driver; yields its status.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> parent) noexcept {
    h_.promise().continuation = parent;
    h_.promise().driver = parent.promise().driver;
    return h_;
  }
  base::Status await_resume() { return std::move(h_.promise().result); }

  // The top of an operation: binds the driver and runs until the first wait.
  void start(Driver &d) {
    h_.promise().driver = &d;
    d.suspended = h_;
    d.poll();
  }

 private:
  explicit Task(Handle h) : h_(h) {}
  Handle h_;
};

// co_await on a point-to-point operation: starts it when awaited (a
// receive's request lives in this object, in the coroutine's frame: no
// allocation), suspends the operation until it completes, then yields its
// status (truncation is an error). Made by CommView::isend/irecv.
struct Await {
  enum class Kind { done, send, recv };
  Kind kind = Kind::done;
  core::P2P *p2p = nullptr;
  const void *sbuf = nullptr;
  void *rbuf = nullptr;
  std::int64_t count = 0;
  const pack::TypePtr *type = nullptr;
  int world = 0, rank = 0, peer = 0, tag = 0, context = 0;
  core::Channel *via = nullptr;  // the channel to the peer (the communicator's route)
  core::Request storage{};
  core::RequestPtr req;
  base::Status error;  // the operation could not start
  bool started = false;

  Await(Kind k, core::P2P *p, const void *sb, void *rb, std::int64_t n, const pack::TypePtr *t,
        int w, int r, int pr, int tg, int ctx, core::Channel *ch)
      : kind(k),
        p2p(p),
        sbuf(sb),
        rbuf(rb),
        count(n),
        type(t),
        world(w),
        rank(r),
        peer(pr),
        tag(tg),
        context(ctx),
        via(ch) {}
  // Movable until started (the receive's request then lives in this object).
  Await(Await &&o) noexcept
      : kind(o.kind),
        p2p(o.p2p),
        sbuf(o.sbuf),
        rbuf(o.rbuf),
        count(o.count),
        type(o.type),
        world(o.world),
        rank(o.rank),
        peer(o.peer),
        tag(o.tag),
        context(o.context),
        via(o.via) {}
  Await(const Await &) = delete;
  Await &operator=(const Await &) = delete;
  ~Await() {
    // A receive still posted when its operation ends early (an error on the
    // way) must not stay in the matching queue, pointing at this frame.
    if (started && req && kind == Kind::recv && !p2p->completed(*req)) p2p->cancel(req);
  }
  // Posts the operation (once).
  void start() {
    if (started) return;
    started = true;
    if (kind == Kind::recv) {
      req = p2p->irecv(rbuf, count, *type, peer, tag, context, &storage);
    } else if (kind == Kind::send) {
      if (!via) {
        error = {base::Errc::invalid_argument, "a collective's peer cannot be reached"};
        return;
      }
      // A small message to this host goes straight into the ring.
      if (p2p->send_now(*via, sbuf, count, *type, world, rank, tag, context)) return;
      auto x = p2p->start_send(*via, sbuf, count, *type, world, rank, tag, context, false, true);
      if (x)
        req = std::move(x.value());
      else
        error = {x.error(), x.message()};
    }
  }
  bool await_ready() {
    start();
    return !req || p2p->completed(*req);
  }
  void await_suspend(std::coroutine_handle<Task::promise_type> h) noexcept {
    Driver *d = h.promise().driver;
    d->suspended = h;
    d->waiting = req;
    d->waiting_local = kind == Kind::recv && via && via->kind() == core::Channel::Kind::shm;
  }
  base::Status await_resume() {
    if (!error.ok()) return std::move(error);
    if (req && req->status.error == core::kTruncated)
      return {base::Errc::truncated, "a collective's message was longer than its receive buffer"};
    return {};
  }
};

// co_await on an Await held elsewhere (e.g. in a vector of sends in flight).
struct AwaitRef {
  Await &a;
  bool await_ready() { return a.await_ready(); }
  void await_suspend(std::coroutine_handle<Task::promise_type> h) noexcept { a.await_suspend(h); }
  base::Status await_resume() { return a.await_resume(); }
};

// co_await until a message from `source` with `tag` is waiting on `context`.
struct AwaitMessage {
  core::P2P *p2p;
  int source, tag, context;
  bool await_ready() const { return p2p->has_message(source, tag, context); }
  void await_suspend(std::coroutine_handle<Task::promise_type> h) {
    Driver *d = h.promise().driver;
    d->suspended = h;
    d->until = [p = p2p, s = source, t = tag, c = context] { return p->has_message(s, t, c); };
  }
  void await_resume() const noexcept {}
};

// co_await: lets the progress engine take one turn (other operations, other
// threads' work) before the task goes on.
struct Yield {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<Task::promise_type> h) {
    Driver *d = h.promise().driver;
    d->suspended = h;
    d->until = [first = true]() mutable { return !std::exchange(first, false); };
  }
  void await_resume() const noexcept {}
};

// Runs a task to completion, waiting on the progress engine (blocking calls).
inline base::Status run_blocking(core::P2P &p2p, Task t) {
  Driver d;
  d.p2p = &p2p;
  t.start(d);
  while (!d.done) {
    p2p.wait_until([&] { return d.ready(); }, d.waiting_local);
    d.poll();
  }
  return d.result;
}

}  // namespace impi::collectives
