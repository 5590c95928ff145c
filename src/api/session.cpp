// session.cpp - MPI-4.0 sessions (11.3) and the runtime's lifetime.
//
// The runtime (launcher link, transports, MPI_COMM_WORLD's tables) is one
// per process. Its users are the world model (MPI_Init .. MPI_Finalize) and
// every open session; the first user starts it, the last one ends it:
// - MPI_Finalize with sessions still open ends the world model only; the
//   last MPI_Session_finalize then ends the runtime.
// - The last MPI_Session_finalize of a program that has not called MPI_Init
//   keeps the runtime (MPI_Init may follow) and ends it when the process
//   exits, with the same synchronisation MPI_Finalize has.
// - Once ended (after MPI_Finalize with no session open) it cannot start
//   again: a later MPI_Session_init fails with MPI_ERR_OTHER.
//
// Process sets: "mpi://WORLD", "mpi://SELF" and, from the launcher, one per
// IMPI client: "impi://client/<n>" (the procs that client runs, in world
// rank order). Names compare without regard to case.
//
// MPI_Comm_create_from_group agrees on a context id among the group's
// members alone, as MPI_Comm_create_group does (IMPI 4.3's MAX rounds), on
// MPI_COMM_WORLD's collective context with a tag made from a hash of the
// string tag (apart from every other tag used there), every member naming
// the others by world rank.
#include "api/session.hpp"

#include <fmt/core.h>
#include <strings.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/attr.hpp"
#include "api/comm_internal.hpp"
#include "api/dynamic.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/partitioned.hpp"
#include "api/requests.hpp"
#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "rma/window.hpp"

namespace impi::api {
void install_tool_events(core::P2P &p2p);  // (tool_events.cpp)
}

namespace coll = impi::collectives;
using impi::api::report;
using impi::core::Runtime;
using impi::core::State;
using namespace impi::api::comm_shared;

namespace {

enum class World { never, initialized, finalized };

struct SessionObj {
  int thread_level = MPI_THREAD_SINGLE;
  std::uintptr_t errhandler = 0;  // an MPI_Errhandler handle value
};

std::recursive_mutex g_mu;  // (recursive: an error handler may call MPI again)
World g_world = World::never;
int g_open = 0;                                     // sessions open
std::vector<std::unique_ptr<SessionObj>> g_tab(1);  // index 0: MPI_SESSION_NULL
bool g_exit_hook = false;

const char *level_name(int level) {
  switch (level) {
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    default:
      return "MPI_THREAD_SINGLE";
  }
}

// Starts the runtime, or counts on the running one. An MPI error class, with `why`.
int start_runtime(int required, int *provided, std::string &why) {
  auto &rt = Runtime::instance();
  if (rt.state() == State::initialized) {
    *provided = rt.thread_level();
    return MPI_SUCCESS;
  }
  if (rt.state() == State::finalized) {
    why = "impi cannot start MPI again once MPI_Finalize has ended it";
    return MPI_ERR_OTHER;
  }
  auto r = rt.init(required);
  if (!r) {
    why = r.message();
    return impi::api::error_class_of(r.error());
  }
  impi::collectives::install_progress_hook(rt.p2p());  // non-blocking collectives advance there
  impi::rma::Window::install(rt.p2p());                // and one-sided requests are served
  impi::api::part::install(rt.p2p());                  // and partitioned rounds complete
  impi::api::install_tool_events(rt.p2p());            // and deferred MPI_T events are delivered
  // A spawned proc connects back to its parents (MPI_Comm_get_parent).
  if (int rc = impi::api::connect_to_parent(); rc != MPI_SUCCESS) {
    why = "could not connect to the parent job";
    return rc;
  }
  *provided = *r;
  return MPI_SUCCESS;
}

// Ends the runtime (every process of the job does, MPI_Finalize's way).
impi::base::Status stop_runtime() {
  // The barriers of communicators freed in the background end first.
  if (auto s = finish_free_barriers(); !s.ok()) return s;
  // A job spanning IMPI clients first runs the IMPI barrier on
  // MPI_COMM_WORLD (spec 2.4, 4.24): no proc leaves while another client
  // may still send to it. Inside one client the launcher's fence does.
  auto &rt = Runtime::instance();
  if (rt.world().spans_clients) {
    auto b = coll::barrier(coll::view_of(rt.world()));
    if (!b.ok()) return b;
  }
  return rt.finalize();
}

// At exit: a program that used only sessions ends the runtime it kept.
void stop_at_exit() {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (g_open == 0 && g_world == World::never && Runtime::instance().state() == State::initialized)
    (void)stop_runtime();
}

SessionObj *lookup(MPI_Session s) {
  if (impi::api::handle_kind(s) != IMPI_KIND_SESSION) return nullptr;
  std::uint32_t i = impi::api::handle_index(s);
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (i == 0 || i >= g_tab.size()) return nullptr;
  return g_tab[i].get();
}

// An error on a session (its handler), or on none (MPI_COMM_WORLD's).
int session_error(MPI_Session s, int code, const char *fn, std::string_view detail = {}) {
  SessionObj *o = lookup(s);
  if (!o) return report(MPI_COMM_NULL, code, fn, detail);
  return impi::api::report_session(s, o->errhandler, code, fn, detail);
}

#define IMPI_CHECK_SESSION(fn, s, o)                                                \
  SessionObj *o = lookup(s);                                                        \
  if (!o) return report(MPI_COMM_NULL, MPI_ERR_SESSION, fn, "not a valid session"); \
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER

// The process sets: names and members (world ranks).
struct Pset {
  std::string name;
  std::vector<int> world;
};

std::vector<Pset> psets() {
  auto &rt = Runtime::instance();
  const auto &w = rt.world();
  std::vector<Pset> out;
  out.push_back({"mpi://WORLD", w.world});
  out.push_back({"mpi://SELF", {w.rank}});
  int clients = 0;
  for (int c : w.client) clients = std::max(clients, c + 1);
  for (int c = 0; c < clients; ++c) {
    Pset p{fmt::format("impi://client/{}", c), {}};
    for (int r = 0; r < w.size; ++r)
      if (w.client[static_cast<std::size_t>(r)] == c) p.world.push_back(r);
    out.push_back(std::move(p));
  }
  // The launcher's own (impirun's impi://app/K and --pset names, or another
  // PMIx launcher's), asked once: they do not change while the job runs.
  static std::once_flag asked;
  static std::vector<impi::startup::LauncherPset> launcher;
  std::call_once(asked, [&] { launcher = rt.pm().psets(); });
  for (const auto &l : launcher) {
    auto same = [&](const Pset &p) { return ::strcasecmp(p.name.c_str(), l.name.c_str()) == 0; };
    if (l.name.rfind("mpi://", 0) == 0 || std::any_of(out.begin(), out.end(), same))
      continue;  // (the standard's names, and ours, are ours to define)
    Pset p{l.name, {}};
    for (auto r : l.world_ranks) p.world.push_back(static_cast<int>(r));
    out.push_back(std::move(p));
  }
  return out;
}

const Pset *find_pset(const std::vector<Pset> &all, const char *name) {
  for (const auto &p : all)
    if (::strcasecmp(p.name.c_str(), name) == 0) return &p;
  return nullptr;
}

int check_pset_name(MPI_Session s, const char *fn, const char *name) {
  if (!name) return session_error(s, MPI_ERR_ARG, fn, "pset_name is NULL");
  if (strnlen(name, MPI_MAX_PSET_NAME_LEN + 1) > MPI_MAX_PSET_NAME_LEN)
    return session_error(s, MPI_ERR_ARG, fn, "pset_name is too long");
  return MPI_SUCCESS;
}

// The tag on MPI_COMM_WORLD's collective context that a string tag's
// context agreement uses: 0x20000000 and up (MPI_Comm_create_group's use
// 0x40000000 and up, collectives' own tags are small).
int stringtag_tag(std::string_view tag) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : tag) h = (h ^ ch) * 1099511628211ULL;
  h ^= h >> 29;
  h ^= h >> 58;
  return 0x20000000 | static_cast<int>(h & 0x1fffffff);
}

// Reports on the handler `eh` (a communicator handler, as MPI_Comm_create_from_group's).
int eh_error(MPI_Errhandler eh, int code, const char *fn, std::string_view detail = {}) {
  if (!impi::api::valid_errhandler(eh)) return report(MPI_COMM_NULL, code, fn, detail);
  return impi::api::report_errhandler(impi::api::handle_value(eh), code, fn, detail);
}

// A communicator over `g` (world ranks), the caller among them: context
// agreed among the members on tag `tag`.
int create_from_world_ranks(const std::vector<int> &g, int tag, MPI_Comm *newcomm,
                            impi::base::Status &st) {
  auto &rt = Runtime::instance();
  const auto &w = rt.world();
  coll::CommView v = coll::view_of(w);
  v.rank = rank_in(g, w.rank);
  v.size = static_cast<int>(g.size());
  v.world = g;
  v.channel = rt.p2p().routes(g);
  std::vector<int> clients;
  for (int r : g) clients.push_back(client_of(r));
  v.client = clients;
  v.ids = g;  // (world ranks: MPI_COMM_WORLD's ranks)
  v.tag_override = tag;
  auto cid = coll::agree_context(v);
  if (!cid) {
    st = {cid.error(), cid.message()};
    return MPI_ERR_OTHER;
  }
  *newcomm = make_comm(w, g, *cid);
  return MPI_SUCCESS;
}

void set_comm_errhandler(MPI_Comm comm, MPI_Errhandler eh) {
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return;
  impi::api::retain_errhandler(eh);
  if (c->errhandler) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
  c->errhandler = impi::api::handle_value(eh);
}

}  // namespace

namespace impi::api {

int world_init(int required, int *provided, const char *fn) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (g_world != World::never)
    return report(MPI_COMM_NULL, MPI_ERR_OTHER, fn,
                  g_world == World::initialized ? "MPI is already initialized"
                                                : "MPI cannot be initialized after MPI_Finalize");
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "unknown thread level");
  std::string why;
  int level = 0;
  if (int rc = start_runtime(required, &level, why); rc != MPI_SUCCESS)
    return report(MPI_COMM_NULL, rc, fn, why);
  g_world = World::initialized;
  if (provided) *provided = level;
  return MPI_SUCCESS;
}

int world_finalize() {
  const char *fn = "MPI_Finalize";
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (g_world != World::initialized) {
    if (Runtime::instance().state() != State::initialized) check_initialized(fn);  // (ends)
    return report(MPI_COMM_NULL, MPI_ERR_OTHER, fn,
                  g_world == World::never ? "MPI_Finalize without MPI_Init"
                                          : "MPI_Finalize was already called");
  }
  // MPI-3.1 8.7.1: MPI_COMM_SELF's attributes are deleted first, so that
  // their callbacks can still use MPI.
  if (int rc = delete_comm_attrs(MPI_COMM_SELF); rc != MPI_SUCCESS)
    return report(MPI_COMM_NULL, rc, fn, "an attribute delete callback on MPI_COMM_SELF failed");
  g_world = World::finalized;
  if (g_open > 0) return MPI_SUCCESS;  // the last session ends the runtime
  if (auto s = stop_runtime(); !s.ok())
    return report(MPI_COMM_NULL, error_class_of(s.error()), fn, s.message());
  return MPI_SUCCESS;
}

bool world_initialized() {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  return g_world != World::never;
}

bool world_finalized() {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  return g_world == World::finalized;
}

}  // namespace impi::api

extern "C" {

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session) {
  const char *fn = "MPI_Session_init";
  if (!impi::api::valid_errhandler(errhandler))
    return report(MPI_COMM_NULL, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  if (!session) return eh_error(errhandler, MPI_ERR_ARG, fn, "session is NULL");
  // The thread level asked for (MPI-4.0 11.3.1: info key "thread_level");
  // MPI_THREAD_MULTIPLE by default, as a library may be called from any thread.
  int required = MPI_THREAD_MULTIPLE;
  if (info != MPI_INFO_NULL) {
    int nkeys = 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
      return eh_error(errhandler, MPI_ERR_INFO, fn, "not a valid info object");
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    PMPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, value, &flag);
    if (flag) {
      std::string v(value);
      if (v == "MPI_THREAD_SINGLE") {
        required = MPI_THREAD_SINGLE;
      } else if (v == "MPI_THREAD_FUNNELED") {
        required = MPI_THREAD_FUNNELED;
      } else if (v == "MPI_THREAD_SERIALIZED") {
        required = MPI_THREAD_SERIALIZED;
      } else if (v == "MPI_THREAD_MULTIPLE") {
        required = MPI_THREAD_MULTIPLE;
      } else {
        return eh_error(errhandler, MPI_ERR_INFO_VALUE, fn,
                        fmt::format("unknown thread_level \"{}\"", v));
      }
    }
  }
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  std::string why;
  int level = 0;
  if (int rc = start_runtime(required, &level, why); rc != MPI_SUCCESS)
    return eh_error(errhandler, rc, fn, why);
  auto o = std::make_unique<SessionObj>();
  o->thread_level = level;
  impi::api::retain_errhandler(errhandler);
  o->errhandler = impi::api::handle_value(errhandler);
  std::size_t i = 1;
  while (i < g_tab.size() && g_tab[i]) ++i;
  if (i == g_tab.size()) g_tab.emplace_back();
  g_tab[i] = std::move(o);
  ++g_open;
  *session = impi::api::make_handle<MPI_Session>(IMPI_KIND_SESSION, static_cast<std::uint32_t>(i));
  return MPI_SUCCESS;
}

int PMPI_Session_finalize(MPI_Session *session) {
  const char *fn = "MPI_Session_finalize";
  if (!session) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "session is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  IMPI_CHECK_SESSION(fn, *session, o);
  std::uintptr_t eh = o->errhandler;
  MPI_Session s = *session;
  // Its buffered sends go out first (MPI-4.1 3.6); then its buffer is gone.
  using impi::api::req::BufScope;
  impi::api::req::flush_buffer(BufScope::session, impi::api::handle_value(s));
  impi::api::req::drop_buffer(BufScope::session, impi::api::handle_value(s));
  g_tab[impi::api::handle_index(s)].reset();
  *session = MPI_SESSION_NULL;
  if (--g_open > 0 || g_world == World::initialized) {
    if (eh) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(eh));
    return MPI_SUCCESS;
  }
  if (g_world == World::never) {
    // MPI_Init may still come: the runtime ends when the process exits.
    if (!g_exit_hook) g_exit_hook = std::atexit(stop_at_exit) == 0;
    if (eh) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(eh));
    return MPI_SUCCESS;
  }
  auto st = stop_runtime();  // after MPI_Finalize: the last user ends it
  int rc = MPI_SUCCESS;
  if (!st.ok())
    rc = impi::api::report_session(s, eh, impi::api::error_class_of(st.error()), fn, st.message());
  if (eh) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(eh));
  return rc;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names) {
  const char *fn = "MPI_Session_get_num_psets";
  IMPI_CHECK_SESSION(fn, session, o);
  (void)info;  // (no key narrows the list)
  if (!npset_names) return session_error(session, MPI_ERR_ARG, fn, "npset_names is NULL");
  *npset_names = static_cast<int>(psets().size());
  return MPI_SUCCESS;
}

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name) {
  const char *fn = "MPI_Session_get_nth_pset";
  IMPI_CHECK_SESSION(fn, session, o);
  (void)info;
  auto all = psets();
  if (n < 0 || n >= static_cast<int>(all.size()))
    return session_error(session, MPI_ERR_ARG, fn,
                         fmt::format("n is {}; there are {} process sets", n, all.size()));
  if (!pset_len) return session_error(session, MPI_ERR_ARG, fn, "pset_len is NULL");
  const std::string &name = all[static_cast<std::size_t>(n)].name;
  // MPI-4.0 11.3.2: with *pset_len 0, the length the name needs (with its
  // NUL); else at most *pset_len - 1 characters and a NUL.
  if (*pset_len == 0) {
    *pset_len = static_cast<int>(name.size()) + 1;
    return MPI_SUCCESS;
  }
  if (*pset_len < 0 || !pset_name)
    return session_error(session, MPI_ERR_ARG, fn, "invalid pset_len or pset_name");
  std::size_t k = std::min(name.size(), static_cast<std::size_t>(*pset_len - 1));
  std::memcpy(pset_name, name.data(), k);
  pset_name[k] = '\0';
  *pset_len = static_cast<int>(name.size()) + 1;
  return MPI_SUCCESS;
}

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used) {
  const char *fn = "MPI_Session_get_info";
  IMPI_CHECK_SESSION(fn, session, o);
  if (!info_used) return session_error(session, MPI_ERR_ARG, fn, "info_used is NULL");
  PMPI_Info_create(info_used);
  PMPI_Info_set(*info_used, "thread_level", level_name(o->thread_level));
  return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info) {
  const char *fn = "MPI_Session_get_pset_info";
  IMPI_CHECK_SESSION(fn, session, o);
  if (int rc = check_pset_name(session, fn, pset_name); rc != MPI_SUCCESS) return rc;
  if (!info) return session_error(session, MPI_ERR_ARG, fn, "info is NULL");
  auto all = psets();
  const Pset *p = find_pset(all, pset_name);
  if (!p)
    return session_error(session, MPI_ERR_ARG, fn,
                         fmt::format("no process set named \"{}\"", pset_name));
  PMPI_Info_create(info);
  PMPI_Info_set(*info, "mpi_size", std::to_string(p->world.size()).c_str());
  return MPI_SUCCESS;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup) {
  const char *fn = "MPI_Group_from_session_pset";
  IMPI_CHECK_SESSION(fn, session, o);
  if (int rc = check_pset_name(session, fn, pset_name); rc != MPI_SUCCESS) return rc;
  if (!newgroup) return session_error(session, MPI_ERR_ARG, fn, "newgroup is NULL");
  auto all = psets();
  const Pset *p = find_pset(all, pset_name);
  if (!p)
    return session_error(session, MPI_ERR_ARG, fn,
                         fmt::format("no process set named \"{}\"", pset_name));
  *newgroup = new_group(p->world, impi::api::handle_value(session));
  return MPI_SUCCESS;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_create_from_group";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::valid_errhandler(errhandler))
    return report(MPI_COMM_NULL, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  const Group *g = lookup_group(group);
  if (!g) return eh_error(errhandler, MPI_ERR_GROUP, fn, "not a valid group");
  if (!stringtag) return eh_error(errhandler, MPI_ERR_ARG, fn, "stringtag is NULL");
  if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN + 1) > MPI_MAX_STRINGTAG_LEN)
    return eh_error(errhandler, MPI_ERR_ARG, fn, "stringtag is too long");
  if (!newcomm) return eh_error(errhandler, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (info != MPI_INFO_NULL) {
    int nkeys = 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
      return eh_error(errhandler, MPI_ERR_INFO, fn, "not a valid info object");
  }
  if (g->world.empty()) {  // (MPI_GROUP_EMPTY: no member, no communicator)
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  if (rank_in(g->world, my_world_rank()) == MPI_UNDEFINED)
    return eh_error(errhandler, MPI_ERR_GROUP, fn, "the calling process is not in the group");
  impi::base::Status st;
  if (create_from_world_ranks(g->world, stringtag_tag(stringtag), newcomm, st) != MPI_SUCCESS)
    return eh_error(errhandler, impi::api::error_class_of(st.error()), fn, st.message());
  set_comm_errhandler(*newcomm, errhandler);
  impi::api::lookup_comm(*newcomm)->session = g->session;  // (its buffer: MPI-4.1 3.6)
  if (info != MPI_INFO_NULL) PMPI_Comm_set_info(*newcomm, info);
  return MPI_SUCCESS;
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm) {
  const char *fn = "MPI_Intercomm_create_from_groups";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::valid_errhandler(errhandler))
    return report(MPI_COMM_NULL, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  const Group *lg = lookup_group(local_group);
  const Group *rg = lookup_group(remote_group);
  if (!lg || !rg) return eh_error(errhandler, MPI_ERR_GROUP, fn, "not a valid group");
  if (!stringtag) return eh_error(errhandler, MPI_ERR_ARG, fn, "stringtag is NULL");
  if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN + 1) > MPI_MAX_STRINGTAG_LEN)
    return eh_error(errhandler, MPI_ERR_ARG, fn, "stringtag is too long");
  if (!newintercomm) return eh_error(errhandler, MPI_ERR_ARG, fn, "newintercomm is NULL");
  const int nl = static_cast<int>(lg->world.size()), nr = static_cast<int>(rg->world.size());
  if (local_leader < 0 || local_leader >= nl || remote_leader < 0 || remote_leader >= nr)
    return eh_error(errhandler, MPI_ERR_RANK, fn, "invalid leader rank");
  const int me = my_world_rank();
  if (rank_in(lg->world, me) == MPI_UNDEFINED)
    return eh_error(errhandler, MPI_ERR_GROUP, fn, "the calling process is not in local_group");
  for (int w : rg->world)
    if (rank_in(lg->world, w) != MPI_UNDEFINED)
      return eh_error(errhandler, MPI_ERR_GROUP, fn, "the groups overlap");
  // Both sides' members make one communicator over the union (world rank
  // order, so both sides list it alike), split it by side (in the order of
  // each side's group) and build the intercommunicator with the union as
  // the peer communicator (MPI_Intercomm_create's leaders' exchange).
  std::vector<int> all = lg->world;
  all.insert(all.end(), rg->world.begin(), rg->world.end());
  std::sort(all.begin(), all.end());
  impi::base::Status st;
  MPI_Comm both = MPI_COMM_NULL, local = MPI_COMM_NULL;
  if (create_from_world_ranks(all, stringtag_tag(std::string(stringtag) + "\x01inter"), &both,
                              st) != MPI_SUCCESS)
    return eh_error(errhandler, impi::api::error_class_of(st.error()), fn, st.message());
  set_comm_errhandler(both, MPI_ERRORS_RETURN);
  // Each side: the color of its smallest world rank, ordered as its group.
  const int color = *std::min_element(lg->world.begin(), lg->world.end());
  int rc = PMPI_Comm_split(both, color, rank_in(lg->world, me), &local);
  if (rc == MPI_SUCCESS) {
    rc = PMPI_Intercomm_create(local, local_leader, both,
                               rank_in(all, rg->world[static_cast<std::size_t>(remote_leader)]), 0,
                               newintercomm);
  }
  if (local != MPI_COMM_NULL) PMPI_Comm_free(&local);
  PMPI_Comm_free(&both);
  if (rc != MPI_SUCCESS) return eh_error(errhandler, rc, fn, "could not connect the groups");
  set_comm_errhandler(*newintercomm, errhandler);
  impi::api::lookup_comm(*newintercomm)->session = lg->session ? lg->session : rg->session;
  if (info != MPI_INFO_NULL) PMPI_Comm_set_info(*newintercomm, info);
  return MPI_SUCCESS;
}

// MPI-4.1 3.6: a session's buffer for the buffered sends on the
// communicators derived from it (those without a buffer of their own).
static int session_attach(const char *fn, MPI_Session session, void *buffer, MPI_Count size) {
  IMPI_CHECK_SESSION(fn, session, o);
  std::string why;
  if (int rc = impi::api::req::attach_buffer(impi::api::req::BufScope::session,
                                             impi::api::handle_value(session), buffer, size, why);
      rc != MPI_SUCCESS)
    return session_error(session, rc, fn, why);
  return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size) {
  return session_attach("MPI_Session_attach_buffer", session, buffer, size);
}

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size) {
  return session_attach("MPI_Session_attach_buffer_c", session, buffer, size);
}

static int session_detach(const char *fn, MPI_Session session, void *buffer_addr, MPI_Count *size) {
  IMPI_CHECK_SESSION(fn, session, o);
  if (!buffer_addr || !size) return session_error(session, MPI_ERR_ARG, fn, "NULL argument");
  impi::api::req::detach_buffer(impi::api::req::BufScope::session, impi::api::handle_value(session),
                                static_cast<void **>(buffer_addr), size);
  return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size) {
  const char *fn = "MPI_Session_detach_buffer";
  if (!size) return session_error(session, MPI_ERR_ARG, fn, "NULL argument");
  MPI_Count n = 0;
  if (int rc = session_detach(fn, session, buffer_addr, &n); rc != MPI_SUCCESS) return rc;
  if (n > INT_MAX) {
    *size = MPI_UNDEFINED;
    return session_error(session, MPI_ERR_COUNT, fn,
                         fmt::format("the detached buffer's size {} does not fit in an int: use "
                                     "MPI_Session_detach_buffer_c",
                                     n));
  }
  *size = static_cast<int>(n);
  return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size) {
  return session_detach("MPI_Session_detach_buffer_c", session, buffer_addr, size);
}

int PMPI_Session_flush_buffer(MPI_Session session) {
  IMPI_CHECK_SESSION("MPI_Session_flush_buffer", session, o);
  impi::api::req::flush_buffer(impi::api::req::BufScope::session, impi::api::handle_value(session));
  return MPI_SUCCESS;
}

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request) {
  const char *fn = "MPI_Session_iflush_buffer";
  IMPI_CHECK_SESSION(fn, session, o);
  if (!request) return session_error(session, MPI_ERR_REQUEST, fn, "request is NULL");
  *request = impi::api::req::iflush_buffer(impi::api::req::BufScope::session,
                                           impi::api::handle_value(session));
  return MPI_SUCCESS;
}

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler) {
  const char *fn = "MPI_Session_create_errhandler";
  if (!session_errhandler_fn || !errhandler)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  // (Kept with the communicator handlers and called alike: report_session.)
  *errhandler = impi::api::create_comm_errhandler(
      reinterpret_cast<MPI_Comm_errhandler_function *>(session_errhandler_fn));
  return MPI_SUCCESS;
}

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  const char *fn = "MPI_Session_set_errhandler";
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  IMPI_CHECK_SESSION(fn, session, o);
  if (!impi::api::valid_errhandler(errhandler))
    return session_error(session, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  impi::api::retain_errhandler(errhandler);
  if (o->errhandler) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(o->errhandler));
  o->errhandler = impi::api::handle_value(errhandler);
  return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler) {
  const char *fn = "MPI_Session_get_errhandler";
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  IMPI_CHECK_SESSION(fn, session, o);
  if (!errhandler) return session_error(session, MPI_ERR_ARG, fn, "errhandler is NULL");
  MPI_Errhandler eh =
      o->errhandler ? reinterpret_cast<MPI_Errhandler>(o->errhandler) : MPI_ERRORS_ARE_FATAL;
  impi::api::retain_errhandler(eh);  // the caller frees it with MPI_Errhandler_free
  *errhandler = eh;
  return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  const char *fn = "MPI_Session_call_errhandler";
  IMPI_CHECK_SESSION(fn, session, o);
  impi::api::report_session(session, o->errhandler, errorcode, fn, "raised by the program");
  return MPI_SUCCESS;  // the standard: returns success unless the handler aborted
}

MPI_Fint PMPI_Session_c2f(MPI_Session session) {
  return impi::api::to_fint(session);
}

MPI_Session PMPI_Session_f2c(MPI_Fint session) {
  return impi::api::from_fint<MPI_Session>(session);
}

}  // extern "C"

#include "api/generated/session_aliases.inc"
