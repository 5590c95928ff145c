// info.cpp - MPI_Info objects (MPI-3.1 9): ordered (key, value) string
// pairs; MPI_INFO_ENV describes how the program was started (10.5.3).
// Communicator info: no key changes our behaviour, so MPI_Comm_set_info
// keeps what it is given and MPI_Comm_get_info returns a copy of it.
// MPI_Info_* may be called before MPI_Init and without it (MPI-4.0 11.4.1):
// a sessions program fills the info it gives MPI_Session_init.
#include <fmt/core.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::report;

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;  // in insertion order
constexpr std::uint32_t kFirstUserInfo = 2;                      // 1 is MPI_INFO_ENV
std::recursive_mutex
    g_mu;  // recursive: report() may run a user error handler that calls MPI_Info_*
std::vector<std::unique_ptr<Pairs>> g_infos;
std::map<std::uintptr_t, Pairs> g_comm_info;  // by communicator handle

Pairs::iterator find(Pairs &p, const char *key) {
  for (auto it = p.begin(); it != p.end(); ++it)
    if (it->first == key) return it;
  return p.end();
}

// What MPI_Init's (or MPI_Init_thread's) arguments said: its command line
// and, from MPI_Init_thread, the thread level it asked for (-1: none).
std::vector<std::string> g_init_argv;
int g_init_requested = -1;

// How many procs the launch started, from the environment (so the same
// before MPI_Init): impirun's IMPI_MAXPROCS (a spawned job's own count;
// with --clients the whole command's), srun's SLURM_NTASKS; a singleton's
// is 1; "" when another launcher's is not known.
std::string launch_maxprocs() {
  for (const char *name : {"IMPI_MAXPROCS", "SLURM_NTASKS"})
    if (const char *v = std::getenv(name); v && std::atoi(v) > 0)
      return std::to_string(std::atoi(v));
  if (!std::getenv("PMIX_NAMESPACE")) return "1";
  return "";
}

// How the program was started, as far as the command line, the launcher's
// environment and the process itself tell (MPI-4.0 11.2.3): command
// (argv[0]), argv (the rest, joined by spaces), maxprocs, host, arch, wdir.
// The same before MPI_Init, during and after MPI_Finalize:
// MPI_Info_create_env makes it from the arguments it is given.
Pairs launch_info(int argc, const char *const *argv) {
  Pairs p;
  if (argc > 0 && argv && argv[0]) p.emplace_back("command", argv[0]);
  if (argc > 1 && argv) {
    std::string args;
    for (int i = 1; i < argc && argv[i]; ++i) {
      if (i > 1) args += ' ';
      args += argv[i];
    }
    p.emplace_back("argv", std::move(args));
  }
  if (std::string n = launch_maxprocs(); !n.empty()) p.emplace_back("maxprocs", std::move(n));
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) p.emplace_back("host", host);
  struct utsname u {};
  if (::uname(&u) == 0) p.emplace_back("arch", u.machine);
  char cwd[4096];
  if (::getcwd(cwd, sizeof cwd)) p.emplace_back("wdir", cwd);
  return p;
}

// MPI_INFO_ENV: the above for MPI_Init's command line; once the job runs,
// also the thread level MPI_Init_thread asked for (thread_level), and the
// world's size as maxprocs where the launcher did not say.
Pairs env_info() {
  std::vector<const char *> args;
  for (const auto &a : g_init_argv) args.push_back(a.c_str());
  Pairs p = launch_info(static_cast<int>(args.size()), args.data());
  auto &rt = impi::core::Runtime::instance();
  if (rt.state() != impi::core::State::initialized) return p;  // (MPI-4: callable before MPI_Init)
  if (find(p, "maxprocs") == p.end())
    p.emplace_back("maxprocs", std::to_string(rt.job().world_size));
  static const char *const kLevels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
  if (g_init_requested >= MPI_THREAD_SINGLE && g_init_requested <= MPI_THREAD_MULTIPLE)
    p.emplace_back("thread_level", kLevels[g_init_requested]);
  return p;
}

// The pairs behind a handle (MPI_INFO_ENV: a fresh snapshot in `env`), with g_mu held.
Pairs *lookup(MPI_Info h, Pairs &env) {
  using namespace impi::api;
  if (handle_kind(h) != IMPI_KIND_INFO) return nullptr;
  if (h == MPI_INFO_ENV) {
    env = env_info();
    return &env;
  }
  std::uint32_t i = handle_index(h);
  if (i < kFirstUserInfo || i - kFirstUserInfo >= g_infos.size()) return nullptr;
  return g_infos[i - kFirstUserInfo].get();
}

MPI_Info new_info(Pairs p) {
  std::size_t i = 0;
  while (i < g_infos.size() && g_infos[i]) ++i;
  if (i == g_infos.size()) g_infos.emplace_back();
  g_infos[i] = std::make_unique<Pairs>(std::move(p));
  return impi::api::make_handle<MPI_Info>(IMPI_KIND_INFO,
                                          static_cast<std::uint32_t>(i + kFirstUserInfo));
}

int check_key(const char *fn, const char *key) {
  if (!key) return report(MPI_COMM_NULL, MPI_ERR_INFO_KEY, fn, "key is NULL");
  std::size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
  if (n == 0 || n > MPI_MAX_INFO_KEY)
    return report(MPI_COMM_NULL, MPI_ERR_INFO_KEY, fn,
                  fmt::format("keys are 1 to {} characters", MPI_MAX_INFO_KEY));
  return MPI_SUCCESS;
}

}  // namespace

namespace impi::api {
void note_init_args(const int *argc, char **const *argv, int requested) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  g_init_argv.clear();
  if (argc && argv && *argv)
    for (int i = 0; i < *argc && (*argv)[i]; ++i) g_init_argv.emplace_back((*argv)[i]);
  g_init_requested = requested;
}
void forget_comm_info(MPI_Comm comm) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  g_comm_info.erase(reinterpret_cast<std::uintptr_t>(comm));
}
void copy_comm_info(MPI_Comm from, MPI_Comm to) {
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  auto it = g_comm_info.find(reinterpret_cast<std::uintptr_t>(from));
  if (it != g_comm_info.end()) g_comm_info[reinterpret_cast<std::uintptr_t>(to)] = it->second;
}
}  // namespace impi::api

extern "C" {

int PMPI_Info_create(MPI_Info *info) {
  if (!info) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  *info = new_info({});
  return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value) {
  const char *fn = "MPI_Info_set";
  if (int rc = check_key(fn, key); rc != MPI_SUCCESS) return rc;
  if (!value) return report(MPI_COMM_NULL, MPI_ERR_INFO_VALUE, fn, "value is NULL");
  if (strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
    return report(MPI_COMM_NULL, MPI_ERR_INFO_VALUE, fn,
                  fmt::format("values are at most {} characters", MPI_MAX_INFO_VAL));
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p || p == &env)
    return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid (modifiable) info object");
  if (auto it = find(*p, key); it != p->end())
    it->second = value;
  else
    p->emplace_back(key, value);
  return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
  const char *fn = "MPI_Info_get";
  if (int rc = check_key(fn, key); rc != MPI_SUCCESS) return rc;
  if (!flag || !value || valuelen < 0)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad value buffer");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  auto it = find(*p, key);
  *flag = it != p->end();
  if (*flag && valuelen >= 0) {
    // valuelen excludes the terminating NUL (MPI-3.1 9): longer values are truncated.
    std::size_t n = std::min<std::size_t>(it->second.size(), static_cast<std::size_t>(valuelen));
    std::memcpy(value, it->second.data(), n);
    value[n] = '\0';
  }
  return MPI_SUCCESS;
}

// MPI-4.0 9: the value and its length (NUL included) in one call; a
// short buffer gets a truncated, NUL-terminated value.
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag) {
  const char *fn = "MPI_Info_get_string";
  if (int rc = check_key(fn, key); rc != MPI_SUCCESS) return rc;
  if (!flag || !buflen || *buflen < 0 || (*buflen > 0 && !value))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad value buffer");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  auto it = find(*p, key);
  *flag = it != p->end();
  if (!*flag) return MPI_SUCCESS;
  if (*buflen > 0) {
    std::size_t n = std::min<std::size_t>(it->second.size(), static_cast<std::size_t>(*buflen) - 1);
    std::memcpy(value, it->second.data(), n);
    value[n] = '\0';
  }
  *buflen = static_cast<int>(it->second.size()) + 1;
  return MPI_SUCCESS;
}

// MPI-4.0 11.2.3: a new info object holding what MPI_INFO_ENV holds.
// It holds what the command line and the process tell (launch_info), the
// same before MPI_Init, during and after MPI_Finalize (MPICH's
// info/infocreateenv compares them); the job's keys (maxprocs, and
// thread_level, which only MPI_Init_thread requests) are MPI_INFO_ENV's.
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info) {
  const char *fn = "MPI_Info_create_env";
  if (!info) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "info is NULL");
  if (argc < 0) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "argc is negative");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  *info = new_info(launch_info(argc, argv));
  return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag) {
  const char *fn = "MPI_Info_get_valuelen";
  if (int rc = check_key(fn, key); rc != MPI_SUCCESS) return rc;
  if (!valuelen || !flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  auto it = find(*p, key);
  *flag = it != p->end();
  if (*flag) *valuelen = static_cast<int>(it->second.size());
  return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys) {
  const char *fn = "MPI_Info_get_nkeys";
  if (!nkeys) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "nkeys is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  *nkeys = static_cast<int>(p->size());
  return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key) {
  const char *fn = "MPI_Info_get_nthkey";
  if (!key) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "key is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  if (n < 0 || n >= static_cast<int>(p->size()))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, fmt::format("key {} of {}", n, p->size()));
  const std::string &k = (*p)[static_cast<std::size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char *key) {
  const char *fn = "MPI_Info_delete";
  if (int rc = check_key(fn, key); rc != MPI_SUCCESS) return rc;
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p || p == &env)
    return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid (modifiable) info object");
  auto it = find(*p, key);
  if (it == p->end())
    return report(MPI_COMM_NULL, MPI_ERR_INFO_NOKEY, fn, fmt::format("no key \"{}\"", key));
  p->erase(it);
  return MPI_SUCCESS;
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo) {
  const char *fn = "MPI_Info_dup";
  if (!newinfo) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newinfo is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid info object");
  *newinfo = new_info(*p);
  return MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info *info) {
  const char *fn = "MPI_Info_free";
  if (!info) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "info is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(*info, env);
  if (!p || p == &env)
    return report(MPI_COMM_NULL, MPI_ERR_INFO, fn, "not a valid (user) info object");
  g_infos[impi::api::handle_index(*info) - kFirstUserInfo].reset();
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  const char *fn = "MPI_Comm_set_info";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::lookup_comm(comm))
    return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  Pairs env, *p = lookup(info, env);
  if (!p) return report(comm, MPI_ERR_INFO, fn, "not a valid info object");
  g_comm_info[reinterpret_cast<std::uintptr_t>(comm)] = *p;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) {
  const char *fn = "MPI_Comm_get_info";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::lookup_comm(comm))
    return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  if (!info_used) return report(comm, MPI_ERR_ARG, fn, "info_used is NULL");
  std::lock_guard<std::recursive_mutex> lk(g_mu);
  auto it = g_comm_info.find(reinterpret_cast<std::uintptr_t>(comm));
  *info_used = new_info(it == g_comm_info.end() ? Pairs{} : it->second);
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/info_aliases.inc"
