// tool.cpp - the MPI tool information interface (MPI-3.1 chapter 14).
//
// Control variables are impi's tunables (base/tunables.cpp), one each,
// named as there: integers as MPI_LONG_LONG_INT, the others as strings
// (MPI_CHAR, up to kStringMax bytes). They read the value in force; a
// write sets the tunable's environment variable, so it takes effect when
// MPI_Init has not run yet and is refused after it
// (MPI_T_ERR_CVAR_SET_NOT_NOW): impi reads its settings at start-up.
// Categories group them by layer.
//
// Performance variables count this process's traffic per transport and
// IMPI flow-control stalls, and report the unexpected-queue length. They
// are continuous (always counting) and read-only; a handle's counters
// start from zero when it is allocated or reset.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/tunables.hpp"
#include "core/runtime.hpp"
#include "io/file.hpp"
#include "mpi.h"
#include "transport/impi/channel.hpp"

namespace {

constexpr int kStringMax = 1024;

std::mutex g_mu;
int g_init_count = 0;  // MPI_T_init_thread minus MPI_T_finalize

bool ready() {
  std::lock_guard<std::mutex> lk(g_mu);
  return g_init_count > 0;
}

// MPI-3.1 14.3.3: copies `s` into (name, *len) as far as it fits with its
// NUL, and sets *len to the length with the NUL; nothing when len is NULL
// or *len is 0.
void give(std::string_view s, char *out, int *len) {
  if (!len) return;
  if (out && *len > 0) {
    std::size_t n = std::min(s.size(), static_cast<std::size_t>(*len - 1));
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
  }
  *len = static_cast<int>(s.size()) + 1;
}

// ---- control variables
bool is_integer(const impi::base::Tunable &t) {
  return impi::base::parse_int(t.default_value).has_value();
}

// The layer a tunable belongs to (its category).
std::string_view layer_of(std::string_view name) {
  static constexpr std::string_view wire[] = {"ackmark", "hiwater", "datalen", "tag_ub",
                                              "native_order_clients"};
  if (std::find(std::begin(wire), std::end(wire), name) != std::end(wire)) return "impi_wire";
  if (name.starts_with("shm_")) return "shm";
  if (name.starts_with("coll_")) return "collectives";
  if (name.starts_with("agent_") || name.starts_with("channel_")) return "impi_host";
  if (name.starts_with("dyn_")) return "dynamic_processes";
  if (name == "unexpected_limit_bytes") return "point_to_point";
  return "startup";
}

struct Category {
  std::string_view name, desc;
};
constexpr Category kCategories[] = {
    {"point_to_point", "the matching engine: unexpected messages"},
    {"shm", "shared-memory transport between the procs of one client"},
    {"impi_wire", "IMPI protocol parameters every host of a job must agree on (IMPI 2.5, 3.6)"},
    {"impi_host", "IMPI host channels and the host agent"},
    {"collectives", "collective algorithms, inside a client and across clients"},
    {"dynamic_processes", "spawn, connect and accept"},
    {"startup", "launcher, rendezvous and process start-up"},
    {"traffic", "performance variables: what this process sent, per transport, and asked of files"},
};
constexpr int kNumCategories = static_cast<int>(std::size(kCategories));

struct CvarHandle {
  int index;
};

// ---- performance variables
struct Pvar {
  std::string_view name, desc;
  int var_class;
  std::uint64_t (*read)();
};
std::uint64_t traffic(std::atomic<std::uint64_t> impi::core::TrafficCounters::*field) {
  return (impi::core::Runtime::instance().p2p().traffic().*field).load(std::memory_order_relaxed);
}
std::uint64_t io_counter(std::atomic<std::uint64_t> impi::io::IoCounters::*field) {
  return (impi::io::g_io_counters.*field).load(std::memory_order_relaxed);
}
const Pvar kPvars[] = {
    {"unexpected_queue_length", "messages that arrived before a matching receive, waiting now",
     MPI_T_PVAR_CLASS_LEVEL,
     [] {
       return static_cast<std::uint64_t>(impi::core::Runtime::instance().p2p().unexpected_count());
     }},
    {"shm_messages_sent", "messages sent to procs of this client (shared memory)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return traffic(&impi::core::TrafficCounters::shm_messages); }},
    {"shm_bytes_sent", "bytes sent to procs of this client (shared memory)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return traffic(&impi::core::TrafficCounters::shm_bytes); }},
    {"impi_messages_sent", "messages sent to procs of other IMPI clients", MPI_T_PVAR_CLASS_COUNTER,
     [] { return traffic(&impi::core::TrafficCounters::impi_messages); }},
    {"impi_bytes_sent", "bytes (external32) sent to procs of other IMPI clients",
     MPI_T_PVAR_CLASS_COUNTER, [] { return traffic(&impi::core::TrafficCounters::impi_bytes); }},
    {"dyn_messages_sent", "messages sent to procs of other jobs (dynamic processes)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return traffic(&impi::core::TrafficCounters::dyn_messages); }},
    {"dyn_bytes_sent", "bytes sent to procs of other jobs (dynamic processes)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return traffic(&impi::core::TrafficCounters::dyn_bytes); }},
    {"io_read_calls",
     "read system calls of this process's MPI-IO (data sieving makes one of many pieces)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return io_counter(&impi::io::IoCounters::reads); }},
    {"io_write_calls", "write system calls of this process's MPI-IO", MPI_T_PVAR_CLASS_COUNTER,
     [] { return io_counter(&impi::io::IoCounters::writes); }},
    {"io_bytes_read", "bytes this process's MPI-IO read from files", MPI_T_PVAR_CLASS_COUNTER,
     [] { return io_counter(&impi::io::IoCounters::bytes_read); }},
    {"io_bytes_written", "bytes this process's MPI-IO wrote to files", MPI_T_PVAR_CLASS_COUNTER,
     [] { return io_counter(&impi::io::IoCounters::bytes_written); }},
    {"io_list_rounds",
     "steps of this process's collective MPI-IO that exchanged piece lists with the aggregators "
     "(none where every process's pieces are a few regular runs)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return io_counter(&impi::io::IoCounters::list_rounds); }},
    {"io_memory_rounds",
     "rounds of this process's collective MPI-IO (agreeing on an access's range or its errors, "
     "or a file's collective call such as an open or a close) written into the other processes' "
     "memory instead of sent as messages (small communicators across IMPI clients on one "
     "machine)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return io_counter(&impi::io::IoCounters::memory_rounds); }},
    {"io_bounced_reads",
     "large reads of this process's MPI-IO into memory at a short distance from the file offset "
     "(1-63 bytes past it, modulo the page) that went through an aligned buffer because this CPU "
     "copies slowly at such a distance (tunable io_read_bounce)",
     MPI_T_PVAR_CLASS_COUNTER, [] { return io_counter(&impi::io::IoCounters::bounced_reads); }},
    {"impi_flow_stalls",
     "times a packet this process runs a host channel for waited for a PROTOACK (hiwater reached)",
     MPI_T_PVAR_CLASS_COUNTER,
     [] { return impi::transport::wire::g_flow_stalls.load(std::memory_order_relaxed); }},
};
constexpr int kNumPvars = static_cast<int>(std::size(kPvars));

struct PvarHandle {
  int index;
  std::uint64_t base = 0;  // counters: the value at allocation or the last reset
};
struct Session {
  std::set<PvarHandle *> handles;
};
std::set<Session *> g_sessions;

std::uint64_t value_of(const PvarHandle &h) {
  const Pvar &p = kPvars[h.index];
  std::uint64_t v = p.read();
  return p.var_class == MPI_T_PVAR_CLASS_COUNTER ? v - h.base : v;
}

int check_session(MPI_T_pvar_session s) {
  std::lock_guard<std::mutex> lk(g_mu);
  return g_sessions.count(reinterpret_cast<Session *>(s)) ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
}
int check_handle(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
  std::lock_guard<std::mutex> lk(g_mu);
  auto *ss = reinterpret_cast<Session *>(s);
  if (!g_sessions.count(ss)) return MPI_T_ERR_INVALID_SESSION;
  if (h != MPI_T_PVAR_ALL_HANDLES && !ss->handles.count(reinterpret_cast<PvarHandle *>(h)))
    return MPI_T_ERR_INVALID_HANDLE;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_T_init_thread(int required, int *provided) {
  if (!provided) return MPI_T_ERR_INVALID;
  std::lock_guard<std::mutex> lk(g_mu);
  ++g_init_count;
  *provided = std::min(required, MPI_THREAD_MULTIPLE);  // (its own lock: any level)
  return MPI_SUCCESS;
}

int PMPI_T_finalize(void) {
  std::lock_guard<std::mutex> lk(g_mu);
  if (g_init_count == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (--g_init_count == 0) {
    for (Session *s : g_sessions) {
      for (PvarHandle *h : s->handles) delete h;
      delete s;
    }
    g_sessions.clear();
  }
  return MPI_SUCCESS;
}

// ---- control variables

int PMPI_T_cvar_get_num(int *num_cvar) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_cvar) return MPI_T_ERR_INVALID;
  *num_cvar = static_cast<int>(impi::base::tunables().size());
  return MPI_SUCCESS;
}

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  auto all = impi::base::tunables();
  if (cvar_index < 0 || cvar_index >= static_cast<int>(all.size())) return MPI_T_ERR_INVALID_INDEX;
  const auto &t = all[static_cast<std::size_t>(cvar_index)];
  give(t.name, name, name_len);
  give(t.description, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_TUNER_BASIC;
  if (datatype) *datatype = is_integer(t) ? MPI_LONG_LONG_INT : MPI_CHAR;
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (scope) *scope = layer_of(t.name) == "impi_wire" ? MPI_T_SCOPE_ALL_EQ : MPI_T_SCOPE_LOCAL;
  return MPI_SUCCESS;
}

int PMPI_T_cvar_get_index(const char *name, int *cvar_index) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !cvar_index) return MPI_T_ERR_INVALID;
  auto all = impi::base::tunables();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) {
      *cvar_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count) {
  (void)obj_handle;  // (bound to no object)
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  auto all = impi::base::tunables();
  if (cvar_index < 0 || cvar_index >= static_cast<int>(all.size())) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_T_ERR_INVALID;
  *handle = reinterpret_cast<MPI_T_cvar_handle>(new CvarHandle{cvar_index});
  *count = is_integer(all[static_cast<std::size_t>(cvar_index)]) ? 1 : kStringMax;
  return MPI_SUCCESS;
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!handle || *handle == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_INVALID_HANDLE;
  delete reinterpret_cast<CvarHandle *>(*handle);
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_INVALID_HANDLE;
  if (!buf) return MPI_T_ERR_INVALID;
  const auto &t = impi::base::tunables()[static_cast<std::size_t>(
      reinterpret_cast<CvarHandle *>(handle)->index)];
  if (is_integer(t)) {
    long long v = impi::base::get_int(t.name);
    std::memcpy(buf, &v, sizeof v);
  } else {
    std::string v = impi::base::get_string(t.name);
    int len = kStringMax;
    give(v, static_cast<char *>(buf), &len);
  }
  return MPI_SUCCESS;
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_INVALID_HANDLE;
  if (!buf) return MPI_T_ERR_INVALID;
  if (impi::core::Runtime::instance().state() != impi::core::State::uninitialized)
    return MPI_T_ERR_CVAR_SET_NOT_NOW;
  const auto &t = impi::base::tunables()[static_cast<std::size_t>(
      reinterpret_cast<CvarHandle *>(handle)->index)];
  std::string env(t.env), value;
  if (is_integer(t)) {
    long long v;
    std::memcpy(&v, buf, sizeof v);
    value = std::to_string(v);
  } else {
    value.assign(static_cast<const char *>(buf),
                 strnlen(static_cast<const char *>(buf), kStringMax));
  }
  return setenv(env.c_str(), value.c_str(), 1) == 0 ? MPI_SUCCESS : MPI_T_ERR_MEMORY;
}

// ---- enumerations: impi's variables use none

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len) {
  (void)enumtype, (void)num, (void)name, (void)name_len;
  return ready() ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len) {
  (void)enumtype, (void)index, (void)value, (void)name, (void)name_len;
  return ready() ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

// ---- performance variables

int PMPI_T_pvar_get_num(int *num_pvar) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_pvar) return MPI_T_ERR_INVALID;
  *num_pvar = kNumPvars;
  return MPI_SUCCESS;
}

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *readonly, int *continuous, int *atomic) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (pvar_index < 0 || pvar_index >= kNumPvars) return MPI_T_ERR_INVALID_INDEX;
  const Pvar &p = kPvars[pvar_index];
  give(p.name, name, name_len);
  give(p.desc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
  if (var_class) *var_class = p.var_class;
  if (datatype) *datatype = MPI_UNSIGNED_LONG_LONG;
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (readonly) *readonly = 1;
  if (continuous) *continuous = 1;
  if (atomic) *atomic = 0;
  return MPI_SUCCESS;
}

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !pvar_index) return MPI_T_ERR_INVALID;
  for (int i = 0; i < kNumPvars; ++i)
    if (kPvars[i].name == name && kPvars[i].var_class == var_class) {
      *pvar_index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session) return MPI_T_ERR_INVALID;
  auto *s = new Session;
  std::lock_guard<std::mutex> lk(g_mu);
  g_sessions.insert(s);
  *session = reinterpret_cast<MPI_T_pvar_session>(s);
  return MPI_SUCCESS;
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session) return MPI_T_ERR_INVALID_SESSION;
  std::lock_guard<std::mutex> lk(g_mu);
  auto *s = reinterpret_cast<Session *>(*session);
  if (!g_sessions.erase(s)) return MPI_T_ERR_INVALID_SESSION;
  for (PvarHandle *h : s->handles) delete h;
  delete s;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count) {
  (void)obj_handle;
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = check_session(session); rc != MPI_SUCCESS) return rc;
  if (pvar_index < 0 || pvar_index >= kNumPvars) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_T_ERR_INVALID;
  auto *h = new PvarHandle{pvar_index, kPvars[pvar_index].read()};
  std::lock_guard<std::mutex> lk(g_mu);
  reinterpret_cast<Session *>(session)->handles.insert(h);
  *handle = reinterpret_cast<MPI_T_pvar_handle>(h);
  *count = 1;
  return MPI_SUCCESS;
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!handle || *handle == MPI_T_PVAR_ALL_HANDLES) return MPI_T_ERR_INVALID_HANDLE;
  if (int rc = check_handle(session, *handle); rc != MPI_SUCCESS) return rc;
  std::lock_guard<std::mutex> lk(g_mu);
  auto *h = reinterpret_cast<PvarHandle *>(*handle);
  reinterpret_cast<Session *>(session)->handles.erase(h);
  delete h;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

// Continuous variables: always started (MPI-3.1 14.3.7).
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = check_handle(session, handle); rc != MPI_SUCCESS) return rc;
  return MPI_T_ERR_PVAR_NO_STARTSTOP;
}

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = check_handle(session, handle); rc != MPI_SUCCESS) return rc;
  return MPI_T_ERR_PVAR_NO_STARTSTOP;
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_PVAR_ALL_HANDLES) return MPI_T_ERR_INVALID_HANDLE;
  if (int rc = check_handle(session, handle); rc != MPI_SUCCESS) return rc;
  if (!buf) return MPI_T_ERR_INVALID;
  std::uint64_t v = value_of(*reinterpret_cast<PvarHandle *>(handle));
  std::memcpy(buf, &v, sizeof v);
  return MPI_SUCCESS;
}

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf) {
  (void)buf;
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = check_handle(session, handle); rc != MPI_SUCCESS) return rc;
  return MPI_T_ERR_PVAR_NO_WRITE;
}

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = check_handle(session, handle); rc != MPI_SUCCESS) return rc;
  std::lock_guard<std::mutex> lk(g_mu);
  auto reset = [](PvarHandle *h) { h->base = kPvars[h->index].read(); };
  if (handle == MPI_T_PVAR_ALL_HANDLES) {
    for (PvarHandle *h : reinterpret_cast<Session *>(session)->handles) reset(h);
  } else {
    reset(reinterpret_cast<PvarHandle *>(handle));
  }
  return MPI_SUCCESS;
}

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) {
  if (int rc = PMPI_T_pvar_read(session, handle, buf); rc != MPI_SUCCESS) return rc;
  return PMPI_T_pvar_reset(session, handle);
}

// ---- categories

int PMPI_T_category_get_num(int *num_cat) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_cat) return MPI_T_ERR_INVALID;
  *num_cat = kNumCategories;
  return MPI_SUCCESS;
}

namespace {
std::vector<int> cvars_in(int cat) {
  std::vector<int> out;
  auto all = impi::base::tunables();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (layer_of(all[i].name) == kCategories[cat].name) out.push_back(static_cast<int>(i));
  return out;
}
std::vector<int> pvars_in(int cat) {
  std::vector<int> out;
  if (kCategories[cat].name == "traffic")
    for (int i = 0; i < kNumPvars; ++i) out.push_back(i);
  return out;
}
int copy_indices(const std::vector<int> &v, int len, int indices[]) {
  if (len > 0 && !indices) return MPI_T_ERR_INVALID;
  for (int i = 0; i < len && i < static_cast<int>(v.size()); ++i)
    indices[i] = v[static_cast<std::size_t>(i)];
  return MPI_SUCCESS;
}
}  // namespace

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= kNumCategories) return MPI_T_ERR_INVALID_INDEX;
  give(kCategories[cat_index].name, name, name_len);
  give(kCategories[cat_index].desc, desc, desc_len);
  if (num_cvars) *num_cvars = static_cast<int>(cvars_in(cat_index).size());
  if (num_pvars) *num_pvars = static_cast<int>(pvars_in(cat_index).size());
  if (num_categories) *num_categories = 0;
  return MPI_SUCCESS;
}

int PMPI_T_category_get_index(const char *name, int *category_index) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !category_index) return MPI_T_ERR_INVALID;
  for (int i = 0; i < kNumCategories; ++i)
    if (kCategories[i].name == name) {
      *category_index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= kNumCategories) return MPI_T_ERR_INVALID_INDEX;
  return copy_indices(cvars_in(cat_index), len, indices);
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= kNumCategories) return MPI_T_ERR_INVALID_INDEX;
  return copy_indices(pvars_in(cat_index), len, indices);
}

int PMPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  (void)len, (void)indices;  // (no category has subcategories)
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= kNumCategories) return MPI_T_ERR_INVALID_INDEX;
  return MPI_SUCCESS;
}

int PMPI_T_category_changed(int *stamp) {
  if (!ready()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!stamp) return MPI_T_ERR_INVALID;
  *stamp = 0;  // (the categories never change)
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/tool_aliases.inc"
