// event_owner.hpp - RAII owners for libevent objects (event, event_base).
#pragma once

#include <event2/event.h>

#include <memory>

namespace impi::startup {

struct EventDeleter {
  void operator()(event *e) const { event_free(e); }
};
using EventPtr = std::unique_ptr<event, EventDeleter>;

struct EventBaseDeleter {
  void operator()(event_base *b) const { event_base_free(b); }
};
using EventBasePtr = std::unique_ptr<event_base, EventBaseDeleter>;

}  // namespace impi::startup
