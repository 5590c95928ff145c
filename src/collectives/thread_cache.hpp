// thread_cache.hpp - a few shared, read-only values per thread, found
// again by content (collectives ask on every call for what depends only on
// the communicator: its masters, its tables).
//
// Trivially destructible on purpose, as the frame cache (task.hpp) and the
// scratch pool (comm_view.cpp): base::at_thread_exit frees the values when
// the thread ends, and a call after that (MPI_Finalize from an atexit
// handler or a static destructor) builds a fresh value instead of reading
// a destroyed cache. A value handed out stays valid however long its
// holder keeps it (shared ownership).
#pragma once

#include <cstddef>
#include <memory>

#include "base/thread_exit.hpp"

namespace impi::collectives {

template <typename V, std::size_t N>
class ThreadCache {
 public:
  // The kept value `match(const V &)` accepts, else `make()`'s (kept,
  // replacing the oldest).
  template <typename Match, typename Make>
  static std::shared_ptr<const V> get(Match match, Make make) {
    State &s = state_;
    if (!s.gone)
      for (std::shared_ptr<const V> *e : s.slot)
        if (e && match(**e)) return *e;
    std::shared_ptr<const V> v = make();
    if (s.gone) return v;
    if (!s.armed) {
      base::at_thread_exit<&free_all>();
      s.armed = true;
    }
    std::shared_ptr<const V> *&e = s.slot[s.next++ % N];
    if (e)
      *e = v;
    else
      e = new std::shared_ptr<const V>(v);
    return v;
  }

 private:
  struct State {
    std::shared_ptr<const V> *slot[N];
    unsigned next;
    bool armed;  // free_all() is registered for this thread
    bool gone;   // the thread is ending: the values have been let go
  };
  static inline thread_local State state_{};
  static void free_all() {
    for (std::shared_ptr<const V> *&e : state_.slot) {
      delete e;
      e = nullptr;
    }
    state_.gone = true;
  }
};

}  // namespace impi::collectives
