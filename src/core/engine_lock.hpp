// engine_lock.hpp - the lock of the point-to-point engine (core::P2P).
#pragma once

#include <sched.h>

#include <atomic>
#include <mutex>

namespace impi::core {

// The engine lock: a no-op until threads are enabled, then a spinlock
// (one atomic exchange to take it, a plain release store to drop it: half
// the atomic read-modify-writes of a std::mutex, which is what keeps the
// single-threaded cost of MPI_THREAD_MULTIPLE small). Waiters spin briefly,
// then yield. Under ThreadSanitizer it is a std::mutex, which TSan models
// without help.
class EngineLock {
 public:
  void enable() { on_ = true; }
  bool enabled() const { return on_; }
  void lock() {
    if (!on_) return;
#ifdef __SANITIZE_THREAD__
    m_.lock();
#else
    for (int spins = 0; taken_.exchange(true, std::memory_order_acquire);) {
      while (taken_.load(std::memory_order_relaxed)) {
        if (++spins < 64)
          __builtin_ia32_pause();
        else
          sched_yield();  // the holder may be copying a large message
      }
    }
#endif
  }
  bool try_lock() {
    if (!on_) return true;
#ifdef __SANITIZE_THREAD__
    return m_.try_lock();
#else
    return !taken_.load(std::memory_order_relaxed) &&
           !taken_.exchange(true, std::memory_order_acquire);
#endif
  }
  void unlock() {
    if (!on_) return;
#ifdef __SANITIZE_THREAD__
    m_.unlock();
#else
    taken_.store(false, std::memory_order_release);
#endif
  }

 private:
#ifdef __SANITIZE_THREAD__
  std::mutex m_;
#else
  std::atomic<bool> taken_{false};
#endif
  bool on_ = false;  // set once, before any second thread exists
};

}  // namespace impi::core
