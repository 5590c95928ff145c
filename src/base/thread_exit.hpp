// thread_exit.hpp - run a function when the calling thread ends.
//
// For per-thread caches kept in trivially destructible initial-exec
// thread_locals (a thread_local with a destructor costs a TLS wrapper call
// on every use): the cache calls at_thread_exit<F>() once per thread, when
// it first keeps something, and F frees what is left when the thread ends.
#pragma once

namespace impi::base {

template <void (*F)()>
void at_thread_exit() {
  struct Hook {
    ~Hook() { F(); }
  };
  static thread_local Hook hook;
  (void)&hook;
}

}  // namespace impi::base
