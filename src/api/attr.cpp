// attr.cpp - attribute caching on communicators and datatypes (MPI-3.1
// 6.7): keyvals with copy/delete callbacks, the MPI-1 forms, the
// predefined attributes of MPI_COMM_WORLD and IMPI's client/host
// attributes on every communicator (IMPI 2.5).
//
// A keyval freed while attributes still use it stays valid for them (its
// callbacks still run) and disappears with the last one.
#include "api/attr.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::report;

namespace impi::api {

namespace {

enum class Kind { comm, type, win };

struct Keyval {
  Kind kind = Kind::comm;
  void *copy = nullptr;  // MPI_Comm_copy_attr_function* / MPI_Type_copy_attr_function*
  void *del = nullptr;
  void *extra = nullptr;
  bool live = false;  // not freed by the user
  int uses = 0;       // attributes set with it
};

// User keyvals start above the predefined ones (1..16).
constexpr int kFirstUserKeyval = 64;
std::recursive_mutex g_mu;      // callbacks may call back into attribute functions
std::vector<Keyval> g_keyvals;  // index = keyval - kFirstUserKeyval
std::map<std::uintptr_t, std::map<int, void *>> g_attrs;     // object handle -> keyval -> value
std::map<std::uintptr_t, std::vector<int>> g_set_order;      // object handle -> keyvals, as set
std::map<std::uintptr_t, std::map<int, int>> g_impi_values;  // per communicator, stable addresses

Keyval *find_keyval(int k, Kind kind) {
  if (k < kFirstUserKeyval || k - kFirstUserKeyval >= static_cast<int>(g_keyvals.size()))
    return nullptr;
  Keyval &kv = g_keyvals[static_cast<std::size_t>(k - kFirstUserKeyval)];
  if ((!kv.live && kv.uses == 0) || kv.kind != kind) return nullptr;
  return &kv;
}

int create_keyval(Kind kind, void *copy, void *del, int *key, void *extra) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  std::size_t i = 0;
  while (i < g_keyvals.size() && (g_keyvals[i].live || g_keyvals[i].uses > 0)) ++i;
  if (i == g_keyvals.size()) g_keyvals.emplace_back();
  g_keyvals[i] = {kind, copy, del, extra, true, 0};
  *key = static_cast<int>(i) + kFirstUserKeyval;
  return MPI_SUCCESS;
}

int free_keyval(Kind kind, int *key, const char *fn) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (!key) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "keyval is NULL");
  Keyval *kv = find_keyval(*key, kind);
  if (!kv) return report(MPI_COMM_NULL, MPI_ERR_KEYVAL, fn, fmt::format("invalid keyval {}", *key));
  // A copy of a freed keyval that attributes still use: freeing it again
  // changes nothing (the user's reference is gone already; as MPICH).
  kv->live = false;
  *key = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int call_delete(Kind kind, std::uintptr_t obj, int k, void *value) {
  Keyval *kv = find_keyval(k, kind);
  if (!kv || !kv->del) return MPI_SUCCESS;
  if (kind == Kind::comm)
    return reinterpret_cast<MPI_Comm_delete_attr_function *>(kv->del)(
        reinterpret_cast<MPI_Comm>(obj), k, value, kv->extra);
  if (kind == Kind::win)
    return reinterpret_cast<MPI_Win_delete_attr_function *>(kv->del)(reinterpret_cast<MPI_Win>(obj),
                                                                     k, value, kv->extra);
  return reinterpret_cast<MPI_Type_delete_attr_function *>(kv->del)(
      reinterpret_cast<MPI_Datatype>(obj), k, value, kv->extra);
}

int set_attr(Kind kind, std::uintptr_t obj, int k, void *value, const char *fn, MPI_Comm errcomm) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Keyval *kv = find_keyval(k, kind);
  if (!kv) return report(errcomm, MPI_ERR_KEYVAL, fn, fmt::format("invalid keyval {}", k));
  if (auto it = g_attrs[obj].find(k); it != g_attrs[obj].end()) {
    if (int rc = call_delete(kind, obj, k, it->second); rc != MPI_SUCCESS)
      return report(errcomm, rc, fn, "the delete callback failed");
    // (the callback may have changed the tables: look again)
    if (auto again = g_attrs[obj].find(k); again != g_attrs[obj].end()) {
      again->second = value;
      return MPI_SUCCESS;
    }
  }
  g_attrs[obj][k] = value;
  g_set_order[obj].push_back(k);
  if (Keyval *now = find_keyval(k, kind)) ++now->uses;
  return MPI_SUCCESS;
}

void forget_order(std::uintptr_t obj, int k) {
  auto &v = g_set_order[obj];
  v.erase(std::remove(v.begin(), v.end(), k), v.end());
}

int delete_attr(Kind kind, std::uintptr_t obj, int k, const char *fn, MPI_Comm errcomm) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Keyval *kv = find_keyval(k, kind);
  if (!kv) return report(errcomm, MPI_ERR_KEYVAL, fn, fmt::format("invalid keyval {}", k));
  auto it = g_attrs[obj].find(k);
  if (it == g_attrs[obj].end())
    return report(errcomm, MPI_ERR_KEYVAL, fn, fmt::format("no attribute for keyval {}", k));
  if (int rc = call_delete(kind, obj, k, it->second); rc != MPI_SUCCESS)
    return report(errcomm, rc, fn, "the delete callback failed");
  // (the callback may have changed the tables: look again)
  if (g_attrs[obj].erase(k)) {
    forget_order(obj, k);
    if (Keyval *now = find_keyval(k, kind)) --now->uses;
  }
  return MPI_SUCCESS;
}

int copy_all(Kind kind, std::uintptr_t from, std::uintptr_t to) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  auto it = g_attrs.find(from);
  if (it == g_attrs.end()) return MPI_SUCCESS;
  auto src = it->second;  // a copy: callbacks may set attributes
  for (auto &[k, value] : src) {
    Keyval *kv = find_keyval(k, kind);
    if (!kv || !kv->copy) continue;
    void *out = nullptr;
    int flag = 0, rc;
    if (kind == Kind::comm)
      rc = reinterpret_cast<MPI_Comm_copy_attr_function *>(kv->copy)(
          reinterpret_cast<MPI_Comm>(from), k, kv->extra, value, &out, &flag);
    else
      rc = reinterpret_cast<MPI_Type_copy_attr_function *>(kv->copy)(
          reinterpret_cast<MPI_Datatype>(from), k, kv->extra, value, &out, &flag);
    if (rc != MPI_SUCCESS) return rc;
    if (flag) {
      g_attrs[to][k] = out;
      g_set_order[to].push_back(k);
      ++find_keyval(k, kind)->uses;
    }
  }
  return MPI_SUCCESS;
}

int delete_all(Kind kind, std::uintptr_t obj) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  g_impi_values.erase(obj);
  auto it = g_attrs.find(obj);
  if (it == g_attrs.end()) return MPI_SUCCESS;
  // The most recently set first (MPI-3.1 8.7.1 asks it of MPI_COMM_SELF at
  // MPI_Finalize; every object gets the same order).
  while (!it->second.empty()) {
    auto &order = g_set_order[obj];
    int k = order.empty() ? it->second.begin()->first : order.back();
    auto a = it->second.find(k);
    if (a == it->second.end()) {  // (not set any more)
      order.pop_back();
      continue;
    }
    if (int rc = call_delete(kind, obj, k, a->second); rc != MPI_SUCCESS) return rc;
    it = g_attrs.find(obj);
    if (it == g_attrs.end()) break;
    if (it->second.erase(k)) {
      forget_order(obj, k);
      if (Keyval *kv = find_keyval(k, kind)) --kv->uses;
    }
  }
  if (it != g_attrs.end()) g_attrs.erase(it);
  g_set_order.erase(obj);
  return MPI_SUCCESS;
}

// The predefined and IMPI attributes; false if `k` is not one of them.
bool predefined_comm_attr(MPI_Comm comm, const core::Communicator &c, int k, void **value,
                          int *flag) {
  auto &rt = core::Runtime::instance();
  const auto &job = rt.job();
  static int tag_ub = 0, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 0, universe = 0,
             appnum = 0, lastused = MPI_ERR_LASTCODE;
  switch (k) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_APPNUM:
    case MPI_LASTUSEDCODE: {
      if (comm != MPI_COMM_WORLD) {
        *flag = 0;
        return true;
      }
      std::lock_guard<std::recursive_mutex> lk(g_mu);  // (the values are shared)
      tag_ub = job.impi ? job.impi->tag_ub : 2147483647;
      universe = static_cast<int>(std::max(job.universe_size, job.world_size));
      if (k == MPI_UNIVERSE_SIZE && job.universe_size == 0) {
        *flag = 0;  // nobody said how many slots there are (MPI-3.1 10.5.1: then it is not set)
        return true;
      }
      appnum = static_cast<int>(job.appnum);
      lastused = last_used_error_code();
      *value = k == MPI_TAG_UB            ? &tag_ub
               : k == MPI_HOST            ? &host
               : k == MPI_IO              ? &io
               : k == MPI_WTIME_IS_GLOBAL ? &wtime_global
               : k == MPI_UNIVERSE_SIZE   ? &universe
               : k == MPI_APPNUM          ? &appnum
                                          : &lastused;
      *flag = 1;
      return true;
    }
    case IMPI_CLIENT_SIZE:
    case IMPI_CLIENT_COLOR:
    case IMPI_HOST_SIZE:
    case IMPI_HOST_COLOR: {
      // Distinct clients (hosts) of the communicator, ordered as in
      // MPI_COMM_WORLD; the color is the caller's position among them.
      std::set<int> clients, hosts;
      auto add = [&](int w) {
        clients.insert(rt.world().client[static_cast<std::size_t>(w)]);
        hosts.insert(job.impi ? job.impi->procs[static_cast<std::size_t>(w)].host : 0);
      };
      for (int w : c.world) add(w);
      for (int w : c.remote_world) add(w);
      int me = c.world[static_cast<std::size_t>(c.rank)];
      int my_client = rt.world().client[static_cast<std::size_t>(me)];
      int my_host = job.impi ? job.impi->procs[static_cast<std::size_t>(me)].host : 0;
      std::lock_guard<std::recursive_mutex> lk(g_mu);
      auto &vals = g_impi_values[reinterpret_cast<std::uintptr_t>(comm)];
      vals[IMPI_CLIENT_SIZE] = static_cast<int>(clients.size());
      vals[IMPI_CLIENT_COLOR] =
          static_cast<int>(std::distance(clients.begin(), clients.find(my_client)));
      vals[IMPI_HOST_SIZE] = static_cast<int>(hosts.size());
      vals[IMPI_HOST_COLOR] = static_cast<int>(std::distance(hosts.begin(), hosts.find(my_host)));
      *value = &vals[k];
      *flag = 1;
      return true;
    }
    default:
      return false;
  }
}

int get_comm_attr(MPI_Comm comm, int k, void *value, int *flag, const char *fn) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  core::Communicator *c = lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  if (!value || !flag) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  if (predefined_comm_attr(comm, *c, k, static_cast<void **>(value), flag)) return MPI_SUCCESS;
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (!find_keyval(k, Kind::comm))
    return report(comm, MPI_ERR_KEYVAL, fn, fmt::format("invalid keyval {}", k));
  *flag = 0;
  auto it = g_attrs.find(reinterpret_cast<std::uintptr_t>(comm));
  if (it == g_attrs.end()) return MPI_SUCCESS;
  auto a = it->second.find(k);
  if (a == it->second.end()) return MPI_SUCCESS;
  *static_cast<void **>(value) = a->second;
  *flag = 1;
  return MPI_SUCCESS;
}

bool valid_type(MPI_Datatype t) {
  return lookup_predefined_type(t) || lookup_type(t);
}

int check_comm_for(const char *fn, MPI_Comm comm) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!lookup_comm(comm))
    return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  return MPI_SUCCESS;
}

}  // namespace

int copy_comm_attrs(MPI_Comm from, MPI_Comm to) {
  return copy_all(Kind::comm, reinterpret_cast<std::uintptr_t>(from),
                  reinterpret_cast<std::uintptr_t>(to));
}
int delete_comm_attrs(MPI_Comm comm) {
  return delete_all(Kind::comm, reinterpret_cast<std::uintptr_t>(comm));
}
int delete_win_attrs(MPI_Win win) {
  return delete_all(Kind::win, reinterpret_cast<std::uintptr_t>(win));
}
int create_win_keyval(void *copy, void *del, int *keyval, void *extra) {
  return create_keyval(Kind::win, copy, del, keyval, extra);
}
int free_win_keyval(int *keyval) {
  return free_keyval(Kind::win, keyval, "MPI_Win_free_keyval");
}
int set_win_attr(MPI_Win win, int keyval, void *value) {
  return set_attr(Kind::win, reinterpret_cast<std::uintptr_t>(win), keyval, value,
                  "MPI_Win_set_attr", MPI_COMM_NULL);
}
int delete_win_attr(MPI_Win win, int keyval) {
  return delete_attr(Kind::win, reinterpret_cast<std::uintptr_t>(win), keyval,
                     "MPI_Win_delete_attr", MPI_COMM_NULL);
}
int get_win_attr(MPI_Win win, int keyval, void **value, int *flag) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (!find_keyval(keyval, Kind::win)) return MPI_ERR_KEYVAL;
  *flag = 0;
  auto it = g_attrs.find(reinterpret_cast<std::uintptr_t>(win));
  if (it == g_attrs.end()) return MPI_SUCCESS;
  auto a = it->second.find(keyval);
  if (a == it->second.end()) return MPI_SUCCESS;
  *value = a->second;
  *flag = 1;
  return MPI_SUCCESS;
}
int copy_type_attrs(MPI_Datatype from, MPI_Datatype to) {
  return copy_all(Kind::type, reinterpret_cast<std::uintptr_t>(from),
                  reinterpret_cast<std::uintptr_t>(to));
}
int delete_type_attrs(MPI_Datatype type) {
  return delete_all(Kind::type, reinterpret_cast<std::uintptr_t>(type));
}

}  // namespace impi::api

using namespace impi::api;

extern "C" {

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                            int *keyval, void *extra_state) {
  if (!check_initialized("MPI_Comm_create_keyval")) return MPI_ERR_OTHER;
  if (!keyval)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Comm_create_keyval", "keyval is NULL");
  return create_keyval(Kind::comm, reinterpret_cast<void *>(copy), reinterpret_cast<void *>(del),
                       keyval, extra_state);
}

int PMPI_Comm_free_keyval(int *keyval) {
  if (!check_initialized("MPI_Comm_free_keyval")) return MPI_ERR_OTHER;
  return free_keyval(Kind::comm, keyval, "MPI_Comm_free_keyval");
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value) {
  if (int rc = check_comm_for("MPI_Comm_set_attr", comm); rc != MPI_SUCCESS) return rc;
  return set_attr(Kind::comm, reinterpret_cast<std::uintptr_t>(comm), keyval, value,
                  "MPI_Comm_set_attr", comm);
}

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag) {
  return get_comm_attr(comm, keyval, value, flag, "MPI_Comm_get_attr");
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  if (int rc = check_comm_for("MPI_Comm_delete_attr", comm); rc != MPI_SUCCESS) return rc;
  return delete_attr(Kind::comm, reinterpret_cast<std::uintptr_t>(comm), keyval,
                     "MPI_Comm_delete_attr", comm);
}

// MPI-1 names (deprecated, still in MPI-3.1).
int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                       void *extra_state) {
  if (!check_initialized("MPI_Keyval_create")) return MPI_ERR_OTHER;
  if (!keyval) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Keyval_create", "keyval is NULL");
  return create_keyval(Kind::comm, reinterpret_cast<void *>(copy), reinterpret_cast<void *>(del),
                       keyval, extra_state);
}
int PMPI_Keyval_free(int *keyval) {
  if (!check_initialized("MPI_Keyval_free")) return MPI_ERR_OTHER;
  return free_keyval(Kind::comm, keyval, "MPI_Keyval_free");
}
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value) {
  if (int rc = check_comm_for("MPI_Attr_put", comm); rc != MPI_SUCCESS) return rc;
  return set_attr(Kind::comm, reinterpret_cast<std::uintptr_t>(comm), keyval, value, "MPI_Attr_put",
                  comm);
}
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag) {
  return get_comm_attr(comm, keyval, value, flag, "MPI_Attr_get");
}
int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
  if (int rc = check_comm_for("MPI_Attr_delete", comm); rc != MPI_SUCCESS) return rc;
  return delete_attr(Kind::comm, reinterpret_cast<std::uintptr_t>(comm), keyval, "MPI_Attr_delete",
                     comm);
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del,
                            int *keyval, void *extra_state) {
  if (!check_initialized("MPI_Type_create_keyval")) return MPI_ERR_OTHER;
  if (!keyval)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_create_keyval", "keyval is NULL");
  return create_keyval(Kind::type, reinterpret_cast<void *>(copy), reinterpret_cast<void *>(del),
                       keyval, extra_state);
}
int PMPI_Type_free_keyval(int *keyval) {
  if (!check_initialized("MPI_Type_free_keyval")) return MPI_ERR_OTHER;
  return free_keyval(Kind::type, keyval, "MPI_Type_free_keyval");
}
int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *value) {
  if (!check_initialized("MPI_Type_set_attr")) return MPI_ERR_OTHER;
  if (!valid_type(type))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_set_attr", "not a valid datatype");
  return set_attr(Kind::type, reinterpret_cast<std::uintptr_t>(type), keyval, value,
                  "MPI_Type_set_attr", MPI_COMM_NULL);
}
int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag) {
  const char *fn = "MPI_Type_get_attr";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!valid_type(type)) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!value || !flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  if (!find_keyval(keyval, Kind::type))
    return report(MPI_COMM_NULL, MPI_ERR_KEYVAL, fn, fmt::format("invalid keyval {}", keyval));
  *flag = 0;
  auto it = g_attrs.find(reinterpret_cast<std::uintptr_t>(type));
  if (it == g_attrs.end()) return MPI_SUCCESS;
  auto a = it->second.find(keyval);
  if (a == it->second.end()) return MPI_SUCCESS;
  *static_cast<void **>(value) = a->second;
  *flag = 1;
  return MPI_SUCCESS;
}
int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
  if (!check_initialized("MPI_Type_delete_attr")) return MPI_ERR_OTHER;
  if (!valid_type(type))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_delete_attr", "not a valid datatype");
  return delete_attr(Kind::type, reinterpret_cast<std::uintptr_t>(type), keyval,
                     "MPI_Type_delete_attr", MPI_COMM_NULL);
}

}  // extern "C"

#include "api/generated/attr_aliases.inc"
