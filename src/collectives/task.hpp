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
#include <exception>
#include <functional>
#include <memory>
#include <utility>

#include "base/errc.hpp"
#include "core/p2p.hpp"

namespace impi::collectives {

struct Driver {
  std::coroutine_handle<> suspended;  // the innermost coroutine, waiting
  core::RequestPtr waiting;           // on this request (null: runnable), or
  std::function<bool()> until;        // until this says so
  bool done = false;
  base::Status result;
  core::P2P *p2p = nullptr;
  // Resumes the operation while what it waits for has completed; true once done.
  bool ready() const { return waiting ? p2p->completed(*waiting) : until ? until() : true; }
  bool poll() {
    while (!done && suspended && ready()) {
      waiting.reset();
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
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto &p = h.promise();
        if (p.continuation) return p.continuation;  // back to the parent
        p.driver->done = true;                     // the top: the operation is over
        p.driver->result = p.result;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(base::Status s) { result = std::move(s); }
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

// co_await on a point-to-point request: suspends the operation until the
// request completes. Yields the request (status, truncation) afterwards.
struct Await {
  core::RequestPtr req;
  base::Status error;  // set instead of req when the operation could not start
  bool await_ready() const noexcept { return !req || req->done; }
  void await_suspend(std::coroutine_handle<Task::promise_type> h) noexcept {
    Driver *d = h.promise().driver;
    d->suspended = h;
    d->waiting = req;
  }
  base::Status await_resume() {
    if (!req) return std::move(error);
    if (req->status.error == core::kTruncated)
      return {base::Errc::invalid_argument, "a collective's message was longer than its receive buffer"};
    return {};
  }
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

// Runs a task to completion, waiting on the progress engine (blocking calls).
inline base::Status run_blocking(core::P2P &p2p, Task t) {
  Driver d;
  d.p2p = &p2p;
  t.start(d);
  while (!d.done) {
    p2p.wait_until([&] { return d.ready(); });
    d.poll();
  }
  return d.result;
}

}  // namespace impi::collectives
