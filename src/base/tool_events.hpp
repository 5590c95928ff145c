// tool_events.hpp - where the layers raise MPI_T events (MPI-4.0 15.3.8;
// the tool interface in src/api/tool_events.cpp delivers them).
//
// A raise site first asks wanted() (one relaxed load: nothing else is paid
// while no tool listens), then calls raise() with the event's elements.
// raise() may run under the engine lock, on any thread: the sink calls
// only callbacks that promise to stay within MPI_T's event functions
// there, and defers the others.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>

namespace impi::base::events {

enum : int {
  kUnexpectedMessage = 0,  // (source rank, tag, context id, bytes)
  kFlowStall = 1,          // (peer host, local proc, remote proc, bytes pending)
  kNumEvents = 2,
};

// Registrations with a callback, per event (set by the tool interface).
inline std::atomic<int> g_listeners[kNumEvents];
// Delivers an event: `elements` as int64 values, in the event's order.
using Sink = void (*)(int event, const std::int64_t *elements, int n);
inline std::atomic<Sink> g_sink{nullptr};

inline bool wanted(int event) {
  return g_listeners[event].load(std::memory_order_relaxed) > 0;
}
inline void raise(int event, std::initializer_list<std::int64_t> elements) {
  if (Sink s = g_sink.load(std::memory_order_acquire))
    s(event, elements.begin(), static_cast<int>(elements.size()));
}

}  // namespace impi::base::events
