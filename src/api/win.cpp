// win.cpp - windows (MPI-3.1 11.2, 11.5): creation in every flavour, free,
// attributes, info, names, groups, error handlers and synchronisation calls.
// The operations are in win_ops.cpp; the work is done in src/rma.
#include "api/win.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>

#include "api/attr.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "base/tunables.hpp"
#include "core/runtime.hpp"

namespace impi::api {

namespace {

std::mutex g_mu;
std::vector<std::unique_ptr<WinObject>> g_wins;  // handle index - 1
std::atomic<std::uint64_t> g_region_counter{0};

std::atomic<WinObject *> *slot(std::size_t i, bool create) {
  auto *chunk = g_win_table[i / kWinChunk].load(std::memory_order_acquire);
  if (!chunk && create) {
    chunk = new std::atomic<WinObject *>[kWinChunk]();
    g_win_table[i / kWinChunk].store(chunk, std::memory_order_release);  // (creators hold g_mu)
  }
  return chunk ? &chunk[i % kWinChunk] : nullptr;
}

MPI_Win add_win(std::unique_ptr<WinObject> w) {
  std::lock_guard<std::mutex> lk(g_mu);
  std::size_t i = 0;
  while (i < g_wins.size() && g_wins[i]) ++i;
  if (i == g_wins.size()) g_wins.emplace_back();
  if (i >= kWinChunk * kWinChunks) return MPI_WIN_NULL;
  slot(i, true)->store(w.get(), std::memory_order_release);
  g_wins[i] = std::move(w);
  return make_handle<MPI_Win>(IMPI_KIND_WIN, static_cast<std::uint32_t>(i + 1));
}

std::unique_ptr<WinObject> take_win(MPI_Win win) {
  std::lock_guard<std::mutex> lk(g_mu);
  std::size_t i = handle_index(win) - 1;
  slot(i, false)->store(nullptr, std::memory_order_release);
  return std::move(g_wins[i]);
}

// What each member tells the others when a window is made.
struct MemberInfo {
  std::int64_t size;
  std::int64_t disp_unit;
  std::uint64_t base;  // create: the user's memory
  std::int64_t pid;
  std::uint64_t region_id;  // the host leader's region number
};

constexpr std::size_t kPage = 4096;
std::size_t round_up(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}

std::string info_value(MPI_Info info, const char *key) {
  if (info == MPI_INFO_NULL) return {};
  char v[MPI_MAX_INFO_VAL + 1] = {};
  int flag = 0;
  if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag) != MPI_SUCCESS || !flag) return {};
  return v;
}

// The info keys a window reports (MPI_Win_get_info): what it was given of
// the keys MPI-3.1 defines for windows, and the defaults otherwise.
std::vector<std::pair<std::string, std::string>> window_info(MPI_Info info, int flavor) {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const char *k, const char *dflt) {
    std::string v = info_value(info, k);
    out.emplace_back(k, v.empty() ? dflt : v);
  };
  add("no_locks", "false");
  add("accumulate_ordering", "rar,raw,war,waw");
  add("accumulate_ops", "same_op_no_op");
  add("same_size", "false");
  add("same_disp_unit", "false");
  if (flavor == MPI_WIN_FLAVOR_SHARED) add("alloc_shared_noncontig", "false");
  return out;
}

// Lays out and maps this host's region of a new window: the members'
// control blocks, then (allocating flavours) their memory. Collective over
// `dup`; returns the worst error of any member (`why`: ours).
int map_region(MPI_Comm dup, const std::vector<int> &group, const std::vector<MemberInfo> &all,
               bool leader, int flavor, MPI_Info info, impi::rma::SharedRegion &region,
               std::vector<std::size_t> &offset, std::string &why) {
  const bool allocating = flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED;
  const bool noncontig = info_value(info, "alloc_shared_noncontig") == "true";
  offset.assign(group.size(), 0);
  std::size_t bytes = round_up(group.size() * sizeof(impi::rma::MemberCtl), kPage);
  for (std::size_t i = 0; i < group.size(); ++i) {
    offset[i] = bytes;
    if (allocating) {
      std::size_t n = static_cast<std::size_t>(all[static_cast<std::size_t>(group[i])].size);
      bytes +=
          flavor == MPI_WIN_FLAVOR_SHARED && !noncontig ? n : round_up(n, noncontig ? kPage : 64);
    }
  }
  const MemberInfo &lead = all[static_cast<std::size_t>(group.front())];
  std::string region_name = fmt::format("/impi-win-{}-{}", lead.pid, lead.region_id);
  int err = MPI_SUCCESS;
  if (leader) {
    auto r = impi::rma::SharedRegion::create(region_name, bytes);
    if (r)
      region = std::move(*r);
    else
      err = MPI_ERR_NO_MEM, why = r.message();
  }
  PMPI_Barrier(dup);
  if (!leader) {
    auto r = impi::rma::SharedRegion::open(region_name);
    if (r)
      region = std::move(*r);
    else
      err = MPI_ERR_NO_MEM, why = r.message();
  }
  int worst = err;
  PMPI_Allreduce(&err, &worst, 1, MPI_INT, MPI_MAX, dup);
  region.unlink();  // (every member has it mapped, or the window fails)
  return worst;
}

// The checks of make_window's arguments; sets `c`.
int check_window_args(const char *fn, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, int flavor, void *baseptr, MPI_Win *win,
                      core::Communicator *&c) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  c = lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  if (c->inter) return report(comm, MPI_ERR_COMM, fn, "windows need an intracommunicator");
  if (!win) return report(comm, MPI_ERR_ARG, fn, "win is NULL");
  if (size < 0) return report(comm, MPI_ERR_SIZE, fn, fmt::format("size {} is negative", size));
  if (disp_unit <= 0)
    return report(comm, MPI_ERR_DISP, fn, fmt::format("disp_unit {} is not positive", disp_unit));
  if (disp_unit > INT_MAX)  // (the `_c` forms' MPI_Aint: impi's windows keep an int)
    return report(
        comm, MPI_ERR_DISP, fn,
        fmt::format("disp_unit {} is larger than INT_MAX, which impi supports", disp_unit));
  if (flavor != MPI_WIN_FLAVOR_CREATE && flavor != MPI_WIN_FLAVOR_DYNAMIC && !baseptr)
    return report(comm, MPI_ERR_ARG, fn, "baseptr is NULL");
  if (info != MPI_INFO_NULL) {
    int n = 0;
    if (PMPI_Info_get_nkeys(info, &n) != MPI_SUCCESS)
      return report(comm, MPI_ERR_INFO, fn, "not a valid info object");
  }
  return MPI_SUCCESS;
}

// Makes a window of `flavor` over `comm` (collective). `base`: the user's
// memory (create); `baseptr`: where allocating flavours return theirs.
int make_window(const char *fn, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                MPI_Comm comm, int flavor, void *baseptr, MPI_Win *win) {
  core::Communicator *c = nullptr;
  if (int rc = check_window_args(fn, size, disp_unit, info, comm, flavor, baseptr, win, c);
      rc != MPI_SUCCESS)
    return rc;
  auto &rt = core::Runtime::instance();
  core::P2P &p2p = rt.p2p();
  // Which members share this host's memory with us (reached through shared
  // memory, ourselves included): they share one region.
  std::vector<int> group;  // ranks, ascending; the first is the leader
  for (int r = 0; r < c->size; ++r)
    if (c->channels[static_cast<std::size_t>(r)] == &p2p.shm()) group.push_back(r);
  if (flavor == MPI_WIN_FLAVOR_SHARED && static_cast<int>(group.size()) != c->size)
    return report(comm, MPI_ERR_RMA_SHARED, fn,
                  "MPI_Win_allocate_shared needs a communicator whose procs share memory "
                  "(one IMPI client on one host; see MPI_Comm_split_type)");
  MPI_Comm dup = MPI_COMM_NULL;
  if (int rc = PMPI_Comm_dup(comm, &dup); rc != MPI_SUCCESS) return report(comm, rc, fn, "dup");
  PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  core::Communicator *d = lookup_comm(dup);
  const bool leader = group.front() == c->rank;
  const bool allocating = flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED;
  // Sizes first: the leader sizes the region from them.
  std::vector<MemberInfo> all(static_cast<std::size_t>(c->size));
  MemberInfo mine{size, disp_unit, reinterpret_cast<std::uintptr_t>(base), ::getpid(), 0};
  if (leader) mine.region_id = g_region_counter.fetch_add(1) + 1;
  if (PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, dup) !=
      MPI_SUCCESS) {
    PMPI_Comm_free(&dup);
    return report(comm, MPI_ERR_OTHER, fn, "exchanging the members' window sizes failed");
  }
  std::vector<std::size_t> offset;
  impi::rma::SharedRegion region;
  std::string why;
  if (int worst = map_region(dup, group, all, leader, flavor, info, region, offset, why);
      worst != MPI_SUCCESS) {
    PMPI_Comm_free(&dup);
    return report(comm, worst, fn,
                  why.empty() ? "another member could not map the window's memory" : why);
  }
  const bool use_cma = base::get_int("rma_cma") != 0;
  impi::rma::Window::Config cfg;
  cfg.p2p = &p2p;
  cfg.rank = c->rank;
  cfg.context = d->context_id;
  cfg.flavor = static_cast<impi::rma::Flavor>(flavor);
  cfg.atomics = allocating;
  cfg.targets.resize(static_cast<std::size_t>(c->size));
  for (int r = 0; r < c->size; ++r) {
    auto &t = cfg.targets[static_cast<std::size_t>(r)];
    const MemberInfo &m = all[static_cast<std::size_t>(r)];
    t.world = c->world[static_cast<std::size_t>(r)];
    t.via = c->channels[static_cast<std::size_t>(r)];
    t.size = m.size;
    t.disp_unit = static_cast<int>(m.disp_unit);
    t.base = m.base;
    auto g = std::find(group.begin(), group.end(), r);
    if (g == group.end()) continue;
    std::size_t i = static_cast<std::size_t>(g - group.begin());
    t.ctl =
        reinterpret_cast<impi::rma::MemberCtl *>(region.base() + i * sizeof(impi::rma::MemberCtl));
    if (allocating)
      t.mapped = region.base() + offset[i];
    else if (r != c->rank && use_cma)
      t.cma_pid = p2p.cma_pid(t.world);
  }
  cfg.region = std::move(region);
  cfg.barrier = [dup] { return PMPI_Barrier(dup) == MPI_SUCCESS; };
  cfg.threads = rt.thread_level() == MPI_THREAD_MULTIPLE;
  cfg.one_region = static_cast<int>(group.size()) == c->size;
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    // Named under the job: the launcher removes what a proc that died leaves.
    cfg.attach_prefix = fmt::format("/impi-{}-att-", rt.job().nspace);
    std::replace(cfg.attach_prefix.begin() + 1, cfg.attach_prefix.end(), '/', '_');
  }
  auto obj = std::make_unique<WinObject>();
  obj->comm = dup;
  obj->flavor = flavor;
  obj->size = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
  obj->disp_unit = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 1 : static_cast<int>(disp_unit);
  obj->info = window_info(info, flavor);
  char *self_mem = cfg.targets[static_cast<std::size_t>(c->rank)].mapped;
  obj->base = allocating ? (size > 0 ? self_mem : nullptr) : base;
  if (allocating) {
    cfg.targets[static_cast<std::size_t>(c->rank)].base =
        reinterpret_cast<std::uintptr_t>(self_mem);
    *static_cast<void **>(baseptr) = obj->base;
  }
  obj->window = std::make_unique<impi::rma::Window>(std::move(cfg));
  *win = add_win(std::move(obj));
  if (*win == MPI_WIN_NULL) return report(comm, MPI_ERR_NO_MEM, fn, "too many windows");
  return MPI_SUCCESS;
}

int check_win(const char *fn, MPI_Win win, WinObject *&w) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  w = lookup_win(win);
  if (!w) return report(MPI_COMM_NULL, MPI_ERR_WIN, fn, "not a valid window");
  return MPI_SUCCESS;
}

// The ranks of `group` in the window's communicator.
int group_ranks(const char *fn, MPI_Win win, WinObject &w, MPI_Group group, std::vector<int> &out) {
  MPI_Group wg;
  PMPI_Comm_group(w.comm, &wg);
  int n = 0;
  if (PMPI_Group_size(group, &n) != MPI_SUCCESS) {
    PMPI_Group_free(&wg);
    return win_error(win, MPI_ERR_GROUP, fn, "not a valid group");
  }
  std::vector<int> in(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = i;
  out.assign(static_cast<std::size_t>(n), 0);
  PMPI_Group_translate_ranks(group, n, in.data(), wg, out.data());
  PMPI_Group_free(&wg);
  for (int r : out)
    if (r == MPI_UNDEFINED)
      return win_error(win, MPI_ERR_GROUP, fn, "the group has a process outside the window");
  return MPI_SUCCESS;
}

}  // namespace

std::atomic<std::atomic<WinObject *> *> g_win_table[kWinChunks];

int win_error(MPI_Win win, int code, const char *fn, const std::string &detail) {
  WinObject *w = lookup_win(win);
  if (!w) return report(MPI_COMM_NULL, code, fn, detail);
  return report_win(win, w->errhandler, code, fn, detail);
}

}  // namespace impi::api

using namespace impi::api;

extern "C" {

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win) {
  return make_window("MPI_Win_create", base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE,
                     nullptr, win);
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win) {
  return make_window("MPI_Win_create_c", base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE,
                     nullptr, win);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win) {
  return make_window("MPI_Win_allocate", nullptr, size, disp_unit, info, comm,
                     MPI_WIN_FLAVOR_ALLOCATE, baseptr, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win) {
  return make_window("MPI_Win_allocate_c", nullptr, size, disp_unit, info, comm,
                     MPI_WIN_FLAVOR_ALLOCATE, baseptr, win);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win) {
  return make_window("MPI_Win_allocate_shared", nullptr, size, disp_unit, info, comm,
                     MPI_WIN_FLAVOR_SHARED, baseptr, win);
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win) {
  return make_window("MPI_Win_allocate_shared_c", nullptr, size, disp_unit, info, comm,
                     MPI_WIN_FLAVOR_SHARED, baseptr, win);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  return make_window("MPI_Win_create_dynamic", nullptr, 0, 1, info, comm, MPI_WIN_FLAVOR_DYNAMIC,
                     nullptr, win);
}

int PMPI_Win_free(MPI_Win *win) {
  const char *fn = "MPI_Win_free";
  WinObject *w;
  if (!win) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "win is NULL");
  if (int rc = check_win(fn, *win, w); rc) return rc;
  if (impi::rma::Error e = w->window->close()) return win_error(*win, e, fn);
  if (int rc = delete_win_attrs(*win); rc != MPI_SUCCESS)
    return win_error(*win, rc, fn, "an attribute's delete callback failed");
  auto obj = take_win(*win);
  obj->window.reset();
  if (obj->errhandler) free_errhandler(reinterpret_cast<MPI_Errhandler>(obj->errhandler));
  PMPI_Comm_free(&obj->comm);
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

extern "C++" {
template <typename U>
static int shared_query(const char *fn, MPI_Win win, int rank, MPI_Aint *size, U *disp_unit,
                        void *baseptr) {
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!size || !disp_unit || !baseptr) return win_error(win, MPI_ERR_ARG, fn, "NULL argument");
  impi::rma::Window &x = *w->window;
  if (rank == MPI_PROC_NULL) {
    for (int r = 0; r < x.size(); ++r)
      if (x.target(r).size > 0) {
        rank = r;
        break;
      }
    if (rank == MPI_PROC_NULL) {
      *size = 0;
      *disp_unit = w->disp_unit;
      *static_cast<void **>(baseptr) = nullptr;
      return MPI_SUCCESS;
    }
  }
  if (rank < 0 || rank >= x.size())
    return win_error(win, MPI_ERR_RANK, fn, fmt::format("rank {} is not in the window", rank));
  const impi::rma::Target &t = x.target(rank);
  if (w->flavor != MPI_WIN_FLAVOR_SHARED)
    return win_error(win, MPI_ERR_RMA_FLAVOR, fn,
                     "only windows of MPI_Win_allocate_shared share memory");
  if (!t.mapped)
    return win_error(win, MPI_ERR_RMA_SHARED, fn,
                     fmt::format("rank {} does not share memory with this process", rank));
  *size = t.size;
  *disp_unit = t.disp_unit;
  *static_cast<void **>(baseptr) = t.size > 0 ? t.mapped : nullptr;
  return MPI_SUCCESS;
}
}  // extern "C++"

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr) {
  return shared_query("MPI_Win_shared_query", win, rank, size, disp_unit, baseptr);
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr) {
  return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, baseptr);
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) {
  const char *fn = "MPI_Win_attach";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (size < 0) return win_error(win, MPI_ERR_SIZE, fn, "negative size");
  if (impi::rma::Error e = w->window->attach(base, size)) return win_error(win, e, fn);
  return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void *base) {
  const char *fn = "MPI_Win_detach";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (impi::rma::Error e = w->window->detach(base)) return win_error(win, e, fn);
  return MPI_SUCCESS;
}

// ---- attributes, names, info, group, error handlers

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag) {
  const char *fn = "MPI_Win_get_attr";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!value || !flag) return win_error(win, MPI_ERR_ARG, fn, "NULL argument");
  void **out = static_cast<void **>(value);
  *flag = 1;
  switch (keyval) {
    case MPI_WIN_BASE:
      *out = w->base;
      return MPI_SUCCESS;
    case MPI_WIN_SIZE:
      *out = &w->size;
      return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT:
      *out = &w->disp_unit;
      return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR:
      *out = &w->flavor;
      return MPI_SUCCESS;
    case MPI_WIN_MODEL:
      *out = &w->model;
      return MPI_SUCCESS;
    default:
      break;
  }
  int rc = get_win_attr(win, keyval, out, flag);
  if (rc != MPI_SUCCESS) return win_error(win, rc, fn, fmt::format("invalid keyval {}", keyval));
  return MPI_SUCCESS;
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value) {
  WinObject *w;
  if (int rc = check_win("MPI_Win_set_attr", win, w); rc) return rc;
  return set_win_attr(win, keyval, value);
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval) {
  WinObject *w;
  if (int rc = check_win("MPI_Win_delete_attr", win, w); rc) return rc;
  return delete_win_attr(win, keyval);
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del,
                           int *keyval, void *extra_state) {
  if (!check_initialized("MPI_Win_create_keyval")) return MPI_ERR_OTHER;
  if (!keyval) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Win_create_keyval", "keyval is NULL");
  return create_win_keyval(reinterpret_cast<void *>(copy), reinterpret_cast<void *>(del), keyval,
                           extra_state);
}

int PMPI_Win_free_keyval(int *keyval) {
  if (!check_initialized("MPI_Win_free_keyval")) return MPI_ERR_OTHER;
  return free_win_keyval(keyval);
}

int PMPI_Win_set_name(MPI_Win win, const char *name) {
  const char *fn = "MPI_Win_set_name";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!name) return win_error(win, MPI_ERR_ARG, fn, "name is NULL");
  w->name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char *name, int *resultlen) {
  const char *fn = "MPI_Win_get_name";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!name || !resultlen) return win_error(win, MPI_ERR_ARG, fn, "NULL argument");
  std::memcpy(name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  const char *fn = "MPI_Win_set_info";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  int n = 0;
  if (PMPI_Info_get_nkeys(info, &n) != MPI_SUCCESS)
    return win_error(win, MPI_ERR_INFO, fn, "not a valid info object");
  for (auto &[k, v] : w->info)
    if (std::string nv = info_value(info, k.c_str()); !nv.empty()) v = nv;
  return MPI_SUCCESS;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used) {
  const char *fn = "MPI_Win_get_info";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!info_used) return win_error(win, MPI_ERR_ARG, fn, "info_used is NULL");
  PMPI_Info_create(info_used);
  for (auto &[k, v] : w->info) PMPI_Info_set(*info_used, k.c_str(), v.c_str());
  return MPI_SUCCESS;
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group) {
  const char *fn = "MPI_Win_get_group";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!group) return win_error(win, MPI_ERR_ARG, fn, "group is NULL");
  return PMPI_Comm_group(w->comm, group);
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler) {
  const char *fn = "MPI_Win_create_errhandler";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!function || !errhandler) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  // (kept in the communicators' table: the two function types are called alike)
  *errhandler = create_comm_errhandler(reinterpret_cast<MPI_Comm_errhandler_function *>(function));
  return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  const char *fn = "MPI_Win_set_errhandler";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!valid_errhandler(errhandler))
    return win_error(win, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  retain_errhandler(errhandler);
  if (w->errhandler) free_errhandler(reinterpret_cast<MPI_Errhandler>(w->errhandler));
  w->errhandler = handle_value(errhandler);
  return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler) {
  const char *fn = "MPI_Win_get_errhandler";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!errhandler) return win_error(win, MPI_ERR_ARG, fn, "NULL argument");
  MPI_Errhandler eh =
      w->errhandler ? reinterpret_cast<MPI_Errhandler>(w->errhandler) : MPI_ERRORS_ARE_FATAL;
  retain_errhandler(eh);
  *errhandler = eh;
  return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  const char *fn = "MPI_Win_call_errhandler";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  win_error(win, errorcode, fn, "raised by the program");
  return MPI_SUCCESS;
}

// ---- synchronisation

#define IMPI_WIN_CALL(fn, call)                                           \
  WinObject *w;                                                           \
  if (int rc = check_win(fn, win, w); rc) return rc;                      \
  if (impi::rma::Error e = w->window->call) return win_error(win, e, fn); \
  return MPI_SUCCESS

// MPI_PROC_NULL as the rank of a lock, an unlock or a flush: no effect, as
// in MPICH (MPI-3.1 11.3 makes it a valid target of every operation; a
// program brackets those with the same rank), once the window is checked.
#define IMPI_WIN_PROC_NULL(fn)    \
  if (rank == MPI_PROC_NULL) {    \
    WinObject *w;                 \
    return check_win(fn, win, w); \
  }

int PMPI_Win_fence(int assert, MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_fence", fence(assert));
}
int PMPI_Win_complete(MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_complete", complete());
}
int PMPI_Win_wait(MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_wait", wait());
}
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
    if (!check_initialized("MPI_Win_lock")) return MPI_ERR_OTHER;
    return win_error(
        win, MPI_ERR_LOCKTYPE, "MPI_Win_lock",
        fmt::format("lock type {} is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type));
  }
  IMPI_WIN_PROC_NULL("MPI_Win_lock");
  IMPI_WIN_CALL("MPI_Win_lock", lock(lock_type == MPI_LOCK_EXCLUSIVE, rank, assert));
}
int PMPI_Win_unlock(int rank, MPI_Win win) {
  IMPI_WIN_PROC_NULL("MPI_Win_unlock");
  IMPI_WIN_CALL("MPI_Win_unlock", unlock(rank));
}
int PMPI_Win_lock_all(int assert, MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_lock_all", lock_all(assert));
}
int PMPI_Win_unlock_all(MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_unlock_all", unlock_all());
}
int PMPI_Win_flush(int rank, MPI_Win win) {
  if (WinObject *w = lookup_win(win); w && w->window->flush_fast(rank)) return MPI_SUCCESS;
  IMPI_WIN_PROC_NULL("MPI_Win_flush");
  IMPI_WIN_CALL("MPI_Win_flush", flush(rank));
}
int PMPI_Win_flush_local(int rank, MPI_Win win) {
  if (WinObject *w = lookup_win(win); w && w->window->flush_fast(rank)) return MPI_SUCCESS;
  IMPI_WIN_PROC_NULL("MPI_Win_flush_local");
  IMPI_WIN_CALL("MPI_Win_flush_local", flush(rank));
}
int PMPI_Win_flush_all(MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_flush_all", flush_all());
}
int PMPI_Win_flush_local_all(MPI_Win win) {
  IMPI_WIN_CALL("MPI_Win_flush_local_all", flush_all());
}

int PMPI_Win_sync(MPI_Win win) {
  WinObject *w;
  if (int rc = check_win("MPI_Win_sync", win, w); rc) return rc;
  w->window->sync();
  // (programs poll a flag with MPI_Win_sync: serve other clients meanwhile)
  impi::core::Runtime::instance().p2p().progress();
  return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  const char *fn = "MPI_Win_post";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  std::vector<int> ranks;
  if (int rc = group_ranks(fn, win, *w, group, ranks); rc) return rc;
  if (impi::rma::Error e = w->window->post(ranks, assert)) return win_error(win, e, fn);
  return MPI_SUCCESS;
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  const char *fn = "MPI_Win_start";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  std::vector<int> ranks;
  if (int rc = group_ranks(fn, win, *w, group, ranks); rc) return rc;
  if (impi::rma::Error e = w->window->start(ranks, assert)) return win_error(win, e, fn);
  return MPI_SUCCESS;
}

int PMPI_Win_test(MPI_Win win, int *flag) {
  const char *fn = "MPI_Win_test";
  WinObject *w;
  if (int rc = check_win(fn, win, w); rc) return rc;
  if (!flag) return win_error(win, MPI_ERR_ARG, fn, "flag is NULL");
  bool f = false;
  if (impi::rma::Error e = w->window->test(f)) return win_error(win, e, fn);
  *flag = f;
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/win_aliases.inc"
