// test_loop.hpp - a libevent loop for tests: run until a condition holds
// (or a time limit passes), or spin a number of passes.
#pragma once

#include <event2/event.h>

#include <chrono>
#include <thread>

struct TestLoop {
  event_base *base = event_base_new();
  TestLoop() = default;
  TestLoop(const TestLoop &) = delete;
  TestLoop &operator=(const TestLoop &) = delete;
  ~TestLoop() { event_base_free(base); }
  // Runs until `done()`; false if `ms` passed first.
  template <typename Pred>
  bool run_until(Pred done, int ms = 10000) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      event_base_loop(base, EVLOOP_NONBLOCK);
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return true;
  }
  void spin(int passes = 50) {
    for (int i = 0; i < passes; ++i) {
      event_base_loop(base, EVLOOP_NONBLOCK);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
};
