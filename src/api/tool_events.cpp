// tool_events.cpp - MPI_T events (MPI-4.0 15.3.8) and their one source.
//
// Two event types, raised where the performance variables count the same
// things (base/tool_events.hpp):
//   unexpected_message: a message arrived before a matching receive
//     (source rank in its communicator, tag, context id: MPI_INT; bytes:
//     MPI_COUNT);
//   impi_flow_stall: a packet this process sends on an IMPI host channel
//     waits for a PROTOACK, its process pair at hiwater (peer host index,
//     local and remote proc index on the channel: MPI_INT; bytes queued for
//     that pair: MPI_COUNT).
// Both are raised inside the engine, under its lock, on whichever thread
// made the progress. Callbacks run there only when registered for
// MPI_T_CB_REQUIRE_MPI_RESTRICTED or above (MPI_T_CB_REQUIRE_THREAD_SAFE
// or above when the thread level is MPI_THREAD_MULTIPLE): such a callback
// promises to call no more than MPI_T's event functions, which take no
// lock of the engine. A registration with only an MPI_T_CB_REQUIRE_NONE
// callback gets its events later, from the progress hook, with no lock
// held (at most kPendingMax waiting per registration; more are counted as
// dropped and reported to the dropped handler).
//
// The source: this process's steady clock, in nanoseconds.
#include "base/tool_events.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include "core/runtime.hpp"
#include "mpi.h"

namespace ev = impi::base::events;

struct impi_t_event_instance_ {
  int event = 0;
  MPI_Count timestamp = 0;
  unsigned char data[24] = {};
};

struct impi_t_event_registration_ {
  int event = 0;
  std::array<MPI_T_event_cb_function *, 4> cb{};
  std::array<void *, 4> user{};
  std::array<MPI_Info, 4> cb_info{MPI_INFO_NULL, MPI_INFO_NULL, MPI_INFO_NULL, MPI_INFO_NULL};
  MPI_Info info = MPI_INFO_NULL;
  MPI_T_event_dropped_cb_function *dropped_cb = nullptr;
  MPI_Count dropped = 0;
  std::deque<impi_t_event_instance_> pending;  // for the REQUIRE_NONE callback
  int inflight = 0;                            // callbacks running now
  bool freed = false;
  MPI_T_event_free_cb_function *free_cb = nullptr;
  void *free_user = nullptr;
  bool counted = false;  // in ev::g_listeners
};

namespace {

struct Element {
  MPI_Datatype type;
  MPI_Aint displ;
  int size;
};
struct EventType {
  const char *name, *desc;
  std::array<Element, 4> elements;
};
const EventType kEvents[ev::kNumEvents] = {
    {"unexpected_message",
     "a message arrived before a matching receive: source rank, tag, context id, bytes",
     {{{MPI_INT, 0, 4}, {MPI_INT, 4, 4}, {MPI_INT, 8, 4}, {MPI_COUNT, 16, 8}}}},
    {"impi_flow_stall",
     "a packet to another IMPI client waits for a PROTOACK (hiwater reached): peer host, local "
     "proc, remote proc, bytes queued for that pair",
     {{{MPI_INT, 0, 4}, {MPI_INT, 4, 4}, {MPI_INT, 8, 4}, {MPI_COUNT, 16, 8}}}},
};
constexpr std::size_t kPendingMax = 4096;

std::mutex g_mu;
std::vector<MPI_T_event_registration> g_regs;  // live registrations
// (its size, read without the lock: the progress hook returns at once while empty)
std::atomic<std::size_t> g_nregs{0};
impi::core::P2P *g_p2p = nullptr;  // once MPI_Init ran (the deferred deliveries)

MPI_Count now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// MPI_T must be initialized (tool.cpp keeps the count; its calls say so).
bool t_ready() {
  int n = 0;
  return PMPI_T_cvar_get_num(&n) == MPI_SUCCESS;
}

bool valid(MPI_T_event_registration r) {
  return r && std::find(g_regs.begin(), g_regs.end(), r) != g_regs.end();
}

// Under g_mu: whether `r` has a callback (for g_listeners).
void recount(MPI_T_event_registration r) {
  bool any = !r->freed && std::any_of(r->cb.begin(), r->cb.end(), [](auto *f) { return f; });
  if (any != r->counted) {
    ev::g_listeners[r->event].fetch_add(any ? 1 : -1, std::memory_order_relaxed);
    r->counted = any;
  }
}

// Under g_mu: the registration's end, once no callback of it runs.
void finish_free(MPI_T_event_registration r, std::unique_lock<std::mutex> &lk) {
  if (g_p2p && !r->pending.empty())
    g_p2p->hook_work().fetch_sub(static_cast<int>(r->pending.size()), std::memory_order_relaxed);
  r->pending.clear();
  auto *cb = r->free_cb;
  void *user = r->free_user;
  lk.unlock();
  if (cb) cb(r, MPI_T_CB_REQUIRE_NONE, user);
  for (MPI_Info &i : r->cb_info)
    if (i != MPI_INFO_NULL) PMPI_Info_free(&i);
  if (r->info != MPI_INFO_NULL) PMPI_Info_free(&r->info);
  delete r;
  lk.lock();
}

// Under g_mu: a callback of `r` ended.
void done_calling(MPI_T_event_registration r, std::unique_lock<std::mutex> &lk) {
  if (--r->inflight == 0 && r->freed) finish_free(r, lk);
}

// The sink: in the engine (its lock may be held), any thread.
void raise(int event, const std::int64_t *el, int n) {
  impi_t_event_instance_ inst;
  inst.event = event;
  inst.timestamp = now_ns();
  const EventType &t = kEvents[event];
  for (int i = 0; i < n && i < 4; ++i) {
    const Element &e = t.elements[static_cast<std::size_t>(i)];
    if (e.size == 4) {
      auto v = static_cast<int>(el[i]);
      std::memcpy(inst.data + e.displ, &v, 4);
    } else {
      MPI_Count v = el[i];
      std::memcpy(inst.data + e.displ, &v, 8);
    }
  }
  const int need = impi::core::Runtime::instance().thread_level() == impi::core::kThreadMultiple
                       ? MPI_T_CB_REQUIRE_THREAD_SAFE
                       : MPI_T_CB_REQUIRE_MPI_RESTRICTED;
  struct Call {
    MPI_T_event_registration r;
    MPI_T_event_cb_function *cb;
    int level;
    void *user;
  };
  std::vector<Call> calls;
  std::unique_lock<std::mutex> lk(g_mu);
  for (MPI_T_event_registration r : g_regs) {
    if (r->event != event || r->freed) continue;
    int level = need;
    while (level < 4 && !r->cb[static_cast<std::size_t>(level)]) ++level;
    if (level < 4) {
      ++r->inflight;
      calls.push_back({r, r->cb[static_cast<std::size_t>(level)], level,
                       r->user[static_cast<std::size_t>(level)]});
    } else if (r->cb[MPI_T_CB_REQUIRE_NONE] || r->cb[MPI_T_CB_REQUIRE_MPI_RESTRICTED]) {
      // Later, from the progress hook, no lock held.
      if (r->pending.size() >= kPendingMax || !g_p2p) {
        ++r->dropped;
      } else {
        r->pending.push_back(inst);
        g_p2p->hook_work().fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  lk.unlock();
  for (const Call &c : calls) c.cb(&inst, c.r, static_cast<MPI_T_cb_safety>(c.level), c.user);
  if (calls.empty()) return;
  lk.lock();
  for (const Call &c : calls) done_calling(c.r, lk);
}

// The progress hook: deferred events, with no lock held.
bool deliver() {
  if (g_nregs.load(std::memory_order_acquire) == 0) return false;
  bool any = false;
  std::unique_lock<std::mutex> lk(g_mu);
  for (std::size_t i = 0; i < g_regs.size(); ++i) {
    MPI_T_event_registration r = g_regs[i];
    if (r->freed || (r->pending.empty() && r->dropped == 0)) continue;
    // The lowest level it has (REQUIRE_NONE or, under MULTIPLE, RESTRICTED).
    int level =
        r->cb[MPI_T_CB_REQUIRE_NONE] ? MPI_T_CB_REQUIRE_NONE : MPI_T_CB_REQUIRE_MPI_RESTRICTED;
    MPI_T_event_cb_function *cb = r->cb[static_cast<std::size_t>(level)];
    void *user = r->user[static_cast<std::size_t>(level)];
    ++r->inflight;
    if (r->dropped > 0 && r->dropped_cb) {
      MPI_Count n = r->dropped;
      r->dropped = 0;
      auto *dcb = r->dropped_cb;
      lk.unlock();
      dcb(n, r, 0, MPI_T_CB_REQUIRE_NONE, user);
      lk.lock();
    }
    while (!r->pending.empty() && !r->freed && cb) {
      impi_t_event_instance_ inst = r->pending.front();
      r->pending.pop_front();
      g_p2p->hook_work().fetch_sub(1, std::memory_order_relaxed);
      lk.unlock();
      cb(&inst, r, static_cast<MPI_T_cb_safety>(level), user);
      any = true;
      lk.lock();
    }
    done_calling(r, lk);
  }
  return any;
}

}  // namespace

namespace impi::api {
// At MPI_Init: deferred events are delivered from the progress hook.
void install_tool_events(core::P2P &p2p) {
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_p2p = &p2p;
  }
  p2p.add_hook([] { return deliver(); });
}
}  // namespace impi::api

extern "C" {

int PMPI_T_event_get_num(int *num_events) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_events) return MPI_T_ERR_INVALID;
  *num_events = ev::kNumEvents;
  return MPI_SUCCESS;
}

static void give(const char *s, char *out, int *len) {
  if (!len) return;
  const int n = static_cast<int>(std::strlen(s));
  if (out && *len > 0) {
    const int k = std::min(n, *len - 1);
    std::memcpy(out, s, static_cast<std::size_t>(k));
    out[k] = '\0';
  }
  *len = n + 1;
}

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (event_index < 0 || event_index >= ev::kNumEvents) return MPI_T_ERR_INVALID_INDEX;
  const EventType &t = kEvents[event_index];
  give(t.name, name, name_len);
  give(t.desc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_DETAIL;
  if (num_elements) {
    const int room = *num_elements;
    for (int i = 0; i < 4 && i < room; ++i) {
      if (array_of_datatypes) array_of_datatypes[i] = t.elements[static_cast<std::size_t>(i)].type;
      if (array_of_displacements)
        array_of_displacements[i] = t.elements[static_cast<std::size_t>(i)].displ;
    }
    *num_elements = 4;
  }
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (info && PMPI_Info_create(info) != MPI_SUCCESS) *info = MPI_INFO_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  return MPI_SUCCESS;
}

int PMPI_T_event_get_index(const char *name, int *event_index) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !event_index) return MPI_T_ERR_INVALID;
  for (int i = 0; i < ev::kNumEvents; ++i)
    if (std::strcmp(kEvents[i].name, name) == 0) {
      *event_index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration) {
  (void)obj_handle;  // (no event binds to an object)
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (event_index < 0 || event_index >= ev::kNumEvents) return MPI_T_ERR_INVALID_INDEX;
  if (!event_registration) return MPI_T_ERR_INVALID;
  auto *r = new impi_t_event_registration_;
  r->event = event_index;
  if (info != MPI_INFO_NULL && PMPI_Info_dup(info, &r->info) != MPI_SUCCESS) {
    delete r;
    return MPI_T_ERR_INVALID;
  }
  ev::g_sink.store(&raise, std::memory_order_release);
  std::lock_guard<std::mutex> lk(g_mu);
  g_regs.push_back(r);
  g_nregs.store(g_regs.size(), std::memory_order_release);
  *event_registration = r;
  return MPI_SUCCESS;
}

static int get_info_copy(MPI_Info kept, MPI_Info *info_used) {
  if (!info_used) return MPI_T_ERR_INVALID;
  int rc = kept == MPI_INFO_NULL ? PMPI_Info_create(info_used) : PMPI_Info_dup(kept, info_used);
  return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

static int set_info_copy(MPI_Info &kept, MPI_Info info) {
  MPI_Info copy = MPI_INFO_NULL;
  if (info != MPI_INFO_NULL && PMPI_Info_dup(info, &copy) != MPI_SUCCESS) return MPI_T_ERR_INVALID;
  if (kept != MPI_INFO_NULL) PMPI_Info_free(&kept);
  kept = copy;
  return MPI_SUCCESS;
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  return set_info_copy(event_registration->info, info);
}

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  return get_info_copy(event_registration->info, info_used);
}

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function event_cb_function) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cb_safety < MPI_T_CB_REQUIRE_NONE || cb_safety > MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE)
    return MPI_T_ERR_INVALID;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  auto &r = *event_registration;
  const auto l = static_cast<std::size_t>(cb_safety);
  if (int rc = set_info_copy(r.cb_info[l], info); rc != MPI_SUCCESS) return rc;
  r.cb[l] = event_cb_function;  // (NULL: removes it)
  r.user[l] = user_data;
  recount(event_registration);
  return MPI_SUCCESS;
}

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cb_safety < MPI_T_CB_REQUIRE_NONE || cb_safety > MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE)
    return MPI_T_ERR_INVALID;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  return set_info_copy(event_registration->cb_info[static_cast<std::size_t>(cb_safety)], info);
}

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cb_safety < MPI_T_CB_REQUIRE_NONE || cb_safety > MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE)
    return MPI_T_ERR_INVALID;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  return get_info_copy(event_registration->cb_info[static_cast<std::size_t>(cb_safety)], info_used);
}

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  std::unique_lock<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  auto *r = event_registration;
  std::erase(g_regs, r);
  g_nregs.store(g_regs.size(), std::memory_order_release);
  r->freed = true;
  recount(r);
  r->free_cb = free_cb_function;
  r->free_user = user_data;
  if (r->inflight == 0) finish_free(r, lk);  // else the last callback running ends it
  return MPI_SUCCESS;
}

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!valid(event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  event_registration->dropped_cb = dropped_cb_function;
  return MPI_SUCCESS;
}

// (Restricted: what a callback may call in the engine; no lock taken.)
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer) {
  if (!event_instance || !buffer) return MPI_T_ERR_INVALID;
  if (element_index < 0 || element_index >= 4) return MPI_T_ERR_INVALID_INDEX;
  const Element &e =
      kEvents[event_instance->event].elements[static_cast<std::size_t>(element_index)];
  std::memcpy(buffer, event_instance->data + e.displ, static_cast<std::size_t>(e.size));
  return MPI_SUCCESS;
}

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer) {
  if (!event_instance || !buffer) return MPI_T_ERR_INVALID;
  std::memcpy(buffer, event_instance->data, sizeof event_instance->data);
  return MPI_SUCCESS;
}

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp) {
  if (!event_instance || !event_timestamp) return MPI_T_ERR_INVALID;
  *event_timestamp = event_instance->timestamp;
  return MPI_SUCCESS;
}

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index) {
  if (!event_instance || !source_index) return MPI_T_ERR_INVALID;
  *source_index = 0;
  return MPI_SUCCESS;
}

int PMPI_T_source_get_num(int *num_sources) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_sources) return MPI_T_ERR_INVALID;
  *num_sources = 1;
  return MPI_SUCCESS;
}

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                           MPI_Count *max_ticks, MPI_Info *info) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  give("steady_clock", name, name_len);
  give("this process's monotonic clock (nanoseconds): every impi event", desc, desc_len);
  if (ordering) *ordering = MPI_T_SOURCE_ORDERED;
  if (ticks_per_second) *ticks_per_second = 1000000000;
  if (max_ticks) *max_ticks = INT64_MAX;
  if (info && PMPI_Info_create(info) != MPI_SUCCESS) *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp) {
  if (!t_ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (!timestamp) return MPI_T_ERR_INVALID;
  *timestamp = now_ns();
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/tool_events_aliases.inc"
