// file.cpp - MPI-IO files (MPI-3.1 13.2, 13.3, 13.6, 13.7): open, close,
// delete, sizes, hints, views, atomicity, file pointers, error handlers.
#include "io/file.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "base/tunables.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "io/collective.hpp"
#include "transport/shm/cma.hpp"

namespace impi::io {

void refresh_knobs(FileObject &f) {
  Knobs k;
  k.atomic = f.atomic;
  if (auto it = f.hints.find("ind_rd_buffer_size"); it != f.hints.end())
    k.sieve = std::strtoll(it->second.c_str(), nullptr, 10);
  if (auto it = f.hints.find("ind_wr_buffer_size"); it != f.hints.end())
    k.sieve_write = std::strtoll(it->second.c_str(), nullptr, 10);
  if (auto it = f.hints.find("romio_ds_read"); it != f.hints.end())
    k.ds_read = it->second != "disable";
  if (auto it = f.hints.find("romio_ds_write"); it != f.hints.end())
    k.ds_write = it->second == "enable";
  f.knobs = k;
}

// The duplicates of a communicator that files opened on it used, kept for
// the next open on it: a duplicate agrees on a context id (across IMPI
// clients 38 us of a 100 us MPI_File_open + close, and its free a barrier).
// Open and close are collective, so every process takes and returns the
// same ones in the same order. The communicator's attribute holds its
// pool; freeing the communicator frees what the pool holds (a file still
// open frees its own at close). A duplicate keeps its rounds by memory
// (FileObject::rounds) with it.
struct CommPool {
  struct Idle {
    MPI_Comm comm;
    std::unique_ptr<MemoryRounds> rounds;
  };
  std::mutex mu;
  std::vector<Idle> idle;
  bool gone = false;  // the communicator was freed
};

namespace {
// The communicators that hold a pool: at MPI_Finalize (through an attribute
// of MPI_COMM_SELF, deleted first) their pools are freed, as the
// communicators themselves (MPI_COMM_WORLD's among them) never are.
std::mutex g_pooled_mu;
std::vector<MPI_Comm> g_pooled;

int pool_keyval() {
  static const int k = [] {
    int kv = MPI_KEYVAL_INVALID;
    auto del = [](MPI_Comm parent, int, void *value, void *) -> int {
      {
        std::lock_guard<std::mutex> g(g_pooled_mu);
        std::erase(g_pooled, parent);
      }
      auto *held = static_cast<std::shared_ptr<CommPool> *>(value);
      std::vector<CommPool::Idle> idle;
      {
        std::lock_guard<std::mutex> g((*held)->mu);
        (*held)->gone = true;
        idle.swap((*held)->idle);
      }
      for (CommPool::Idle &c : idle) PMPI_Comm_free(&c.comm);
      delete held;
      return MPI_SUCCESS;
    };
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &kv, nullptr);
    // MPI_COMM_SELF's attribute, deleted first at MPI_Finalize: deletes
    // every pool attribute there is (each deletion takes its communicator
    // out of g_pooled).
    int self_kv = MPI_KEYVAL_INVALID;
    auto at_finalize = [](MPI_Comm, int, void *, void *) -> int {
      std::vector<MPI_Comm> parents;
      {
        std::lock_guard<std::mutex> g(g_pooled_mu);
        parents = g_pooled;
      }
      for (MPI_Comm c : parents) PMPI_Comm_delete_attr(c, pool_keyval());
      return MPI_SUCCESS;
    };
    if (kv != MPI_KEYVAL_INVALID && PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize,
                                                            &self_kv, nullptr) == MPI_SUCCESS)
      PMPI_Comm_set_attr(MPI_COMM_SELF, self_kv, nullptr);
    return kv;
  }();
  return k;
}

// The file's communicator: a duplicate of `parent` from its pool, or a new one.
int take_comm(MPI_Comm parent, FileObject &f) {
  const int kv = pool_keyval();
  void *value = nullptr;
  int flag = 0;
  if (kv != MPI_KEYVAL_INVALID && PMPI_Comm_get_attr(parent, kv, &value, &flag) == MPI_SUCCESS) {
    if (!flag) {
      auto *held = new std::shared_ptr<CommPool>(std::make_shared<CommPool>());
      if (PMPI_Comm_set_attr(parent, kv, held) == MPI_SUCCESS) {
        value = held;
        std::lock_guard<std::mutex> g(g_pooled_mu);
        g_pooled.push_back(parent);
      } else {
        delete held;
      }
    }
    if (value) f.pool = *static_cast<std::shared_ptr<CommPool> *>(value);
  }
  if (f.pool) {
    std::lock_guard<std::mutex> g(f.pool->mu);
    if (!f.pool->idle.empty()) {
      f.comm = f.pool->idle.back().comm;
      f.rounds = std::move(f.pool->idle.back().rounds);
      f.pool->idle.pop_back();
      return MPI_SUCCESS;
    }
  }
  const int rc = PMPI_Comm_dup(parent, &f.comm);
  if (rc == MPI_SUCCESS)
    // The file's own messages report their errors to the file's calls (an
    // exchange that fails is the access's error, under the file's handler),
    // not through the handler the program set on its communicator.
    PMPI_Comm_set_errhandler(f.comm, MPI_ERRORS_RETURN);
  return rc;
}

// At close (or a failed open): the file's communicator back to its pool,
// or freed when the parent is gone.
void give_back_comm(FileObject &f) {
  if (f.pool) {
    std::lock_guard<std::mutex> g(f.pool->mu);
    if (!f.pool->gone) {
      f.pool->idle.push_back({f.comm, std::move(f.rounds)});
      f.comm = MPI_COMM_NULL;
    }
  }
  if (f.comm != MPI_COMM_NULL) PMPI_Comm_free(&f.comm);
  f.pool.reset();
}

std::mutex g_files_mu;
std::uintptr_t g_null_errhandler = 0;  // MPI_FILE_NULL's (0: MPI_ERRORS_RETURN)

// The open files: slot i holds handle index i + 1 (nullptr: closed). Read
// without a lock (lookup_file is on every access's path: a mutex there was
// 3.6% of a 4 KiB MPI_File_read_at), so the slots never move: blocks made
// as they are needed and kept; made and written under g_files_mu.
constexpr std::size_t kFileBlock = 256, kFileBlocks = 65536;  // 16M files open at once
using FileSlot = std::atomic<FileObject *>;
std::atomic<FileSlot *> g_file_blocks[kFileBlocks];
std::size_t g_file_slots = 0;  // slots made (under g_files_mu)

FileSlot *file_slot(std::size_t i) {
  FileSlot *b = g_file_blocks[i / kFileBlock].load(std::memory_order_acquire);
  return b ? &b[i % kFileBlock] : nullptr;
}

MPI_File new_file_handle(FileObject *f) {
  std::lock_guard<std::mutex> lk(g_files_mu);
  std::size_t i = 0;
  while (i < g_file_slots && file_slot(i)->load(std::memory_order_relaxed)) ++i;
  if (i == g_file_slots) {
    if (i == kFileBlock * kFileBlocks) {
      std::fprintf(stderr, "impi: more than %zu files open at once in this process\n", i);
      std::abort();
    }
    if (i % kFileBlock == 0)
      g_file_blocks[i / kFileBlock].store(new FileSlot[kFileBlock]{}, std::memory_order_release);
    ++g_file_slots;
  }
  file_slot(i)->store(f, std::memory_order_release);
  return api::make_handle<MPI_File>(IMPI_KIND_FILE, static_cast<std::uint32_t>(i + 1));
}
void drop_file_handle(MPI_File fh) {
  std::lock_guard<std::mutex> lk(g_files_mu);
  file_slot(api::handle_index(fh) - 1)->store(nullptr, std::memory_order_release);
}

std::string reason(int err) {
  return std::strerror(err);
}

// The hints files start with (reported by MPI_File_get_info).
// cb_nodes: one aggregator per IMPI client of the communicator.
void default_hints(FileObject &f, const core::Communicator &c) {
  auto &h = f.hints;
  const int nprocs = c.size;
  std::vector<int> clients(c.client);
  std::sort(clients.begin(), clients.end());
  clients.erase(std::unique(clients.begin(), clients.end()), clients.end());
  h["filename"] = f.path;
  h["collective_buffering"] = "true";
  h["cb_buffer_size"] = "16777216";
  h["cb_block_size"] = "1048576";
  h["cb_nodes"] = std::to_string(std::max<std::size_t>(1, clients.size()));
  h["cb_config_list"] = "*:1";
  h["romio_cb_read"] = "automatic";
  h["romio_cb_write"] = "automatic";
  h["romio_ds_read"] = "automatic";
  h["romio_ds_write"] = "disable";
  h["romio_no_indep_rw"] = "false";
  h["nb_proc"] = std::to_string(nprocs);
  h["ind_rd_buffer_size"] = "4194304";
  h["ind_wr_buffer_size"] = "524288";
}

bool is_number(const std::string &s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Takes hint (k, v) if impi knows it and the value is valid (others are
// ignored, as the standard allows); `at_open`: file_perm and the like
// still mean something. True if taken.
bool apply_hint(FileObject &f, const std::string &k, const std::string &v, bool at_open) {
  if (k == "filename") return false;  // ours, read-only
  bool ok = false;
  if (k == "file_perm") {
    ok = at_open && !v.empty() && v.find_first_not_of("01234567") == std::string::npos;
  } else if (k == "cb_buffer_size" || k == "cb_block_size" || k == "cb_nodes" ||
             k == "striping_factor" || k == "striping_unit" || k == "num_io_nodes" ||
             k == "ind_rd_buffer_size" || k == "ind_wr_buffer_size" || k == "chunked_size") {
    ok = is_number(v) && std::strtoll(v.c_str(), nullptr, 10) > 0;
  } else if (k == "collective_buffering" || k == "romio_no_indep_rw") {
    ok = v == "true" || v == "false";
  } else if (k == "romio_cb_read" || k == "romio_cb_write" || k == "romio_ds_read" ||
             k == "romio_ds_write") {
    ok = v == "enable" || v == "disable" || v == "automatic";
  } else if (k == "access_style" || k == "cb_config_list" || k == "io_node_list" ||
             k == "chunked" || k == "chunked_item" || k == "nb_proc") {
    ok = true;
  }
  if (ok) f.hints[k] = v;
  return ok;
}

// Takes the hints of `info` impi knows (apply_hint).
void apply_hints(FileObject &f, MPI_Info info, bool at_open) {
  struct Refresh {
    FileObject &f;
    ~Refresh() { refresh_knobs(f); }
  } refresh{f};
  if (info == MPI_INFO_NULL) return;
  int n = 0;
  if (PMPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) return;
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) continue;
    if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS || !flag) continue;
    apply_hint(f, key, val, at_open);
  }
}

// ROMIO's hints file: the file that ROMIO_HINTS names, else
// /etc/romio-hints if there is one; a line holds a key and its value
// (the first two words; `#` starts a comment line; a line too long for a
// key and a value is skipped whole). Its hints come before the program's
// info, which overrides them. Only the communicator's rank 0 reads it and
// sends what it found with the open's first message, so that every
// process has the same hints whatever its environment or host (different
// ones would send processes down different collective paths). Returns
// the pairs as "key value\n" lines, at most kMostHintLines bytes.
constexpr std::size_t kMostHintLines = 64 << 10;
std::string read_hints_file() {
  std::string out;
  const char *env = std::getenv("ROMIO_HINTS");
  const std::string path = env && *env ? env : "/etc/romio-hints";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return out;  // (not a FIFO)
  std::FILE *in = std::fopen(path.c_str(), "re");
  if (!in) return out;
  char line[MPI_MAX_INFO_KEY + MPI_MAX_INFO_VAL + 64];
  while (std::fgets(line, sizeof line, in)) {
    if (!std::strchr(line, '\n') && !std::feof(in)) {  // (too long: the rest too)
      int ch = 0;
      while ((ch = std::fgetc(in)) != EOF && ch != '\n') {
      }
      continue;
    }
    char *save = nullptr;
    const char *k = strtok_r(line, " \t\r\n", &save);
    if (!k || k[0] == '#') continue;
    const char *v = strtok_r(nullptr, " \t\r\n", &save);
    if (!v || std::strlen(k) > MPI_MAX_INFO_KEY || std::strlen(v) > MPI_MAX_INFO_VAL) continue;
    std::string pair = fmt::format("{} {}\n", k, v);
    if (out.size() + pair.size() > kMostHintLines) break;
    out += pair;
  }
  std::fclose(in);
  return out;
}

// Takes such lines' hints (apply_hint); returns the keys taken.
std::vector<std::string> apply_hint_lines(FileObject &f, const std::string &lines) {
  std::vector<std::string> taken;
  for (std::size_t at = 0; at < lines.size();) {
    std::size_t nl = lines.find('\n', at), sp = lines.find(' ', at);
    if (nl == std::string::npos) nl = lines.size();
    if (sp < nl) {
      std::string k = lines.substr(at, sp - at), v = lines.substr(sp + 1, nl - sp - 1);
      if (apply_hint(f, k, v, true)) taken.push_back(std::move(k));
    }
    at = nl + 1;
  }
  refresh_knobs(f);
  return taken;
}

// Whether every proc of the communicator runs impi (advertised impi's wide
// representation at startup): a LAM/MPI or other client's procs would not
// take part in impi's file protocol.
bool all_impi(const core::Communicator &c) {
  const auto &job = core::Runtime::instance().job();
  if (!job.impi) return true;
  for (int cl : c.client)
    if (cl < 0 || cl >= 32 || !(job.impi->wide_clients >> cl & 1u)) return false;
  return true;
}

int check_amode(int amode, std::string &why) {
  const int known = MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_CREATE |
                    MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
                    MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
  int rw = ((amode & MPI_MODE_RDONLY) != 0) + ((amode & MPI_MODE_WRONLY) != 0) +
           ((amode & MPI_MODE_RDWR) != 0);
  if (amode & ~known)
    why = fmt::format("amode {:#x} has bits that are no MPI_MODE_ constant", amode);
  else if (rw != 1)
    why = "amode must have exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
  else if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    why = "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL";
  else if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
    why = "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL";
  else
    return MPI_SUCCESS;
  return MPI_ERR_AMODE;
}

// The name of the side file for the shared pointer: in the data file's
// directory (so procs on other hosts see it), else (a directory we may not
// write: `elsewhere`) in $TMPDIR; unpredictable. Where every process sees
// the data file itself (MPI_File_open compares it) and it is not
// elsewhere, nothing is created: the first process that moves the pointer
// creates the file (side_fd), so an open and close of a file whose shared
// pointer nobody uses costs no create and unlink (on a journaling file
// system they were most of MPI_File_open + close). Otherwise rank 0 makes
// it at open, and the others only open it.
std::string side_file_name(const std::string &path, bool &elsewhere) {
  std::string dir = ".";
  std::string base = path;
  if (auto s = path.rfind('/'); s != std::string::npos) {
    dir = s == 0 ? "/" : path.substr(0, s);
    base = path.substr(s + 1);
  }
  elsewhere = ::access(dir.c_str(), W_OK | X_OK) != 0;
  if (elsewhere)
    dir = std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  // (getrandom, not std::random_device: constructing one probes the cpu
  // with cpuid, which a virtual machine traps: 25-40 us of every open.)
  std::uint64_t r = 0;
  if (::getrandom(&r, sizeof r, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof r))
    r = (static_cast<std::uint64_t>(::getpid()) << 32) ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return fmt::format("{}/.{}.impi-shfp.{:016x}", dir, base.substr(0, 160), r);
}

// Network and parallel file systems (statfs magic numbers).
bool on_shared_fs(int fd) {
  struct statfs sf {};
  if (::fstatfs(fd, &sf) != 0) return false;
  switch (static_cast<unsigned long>(sf.f_type)) {
    case 0x6969UL:      // NFS
    case 0x0BD00BD0UL:  // Lustre
    case 0x47504653UL:  // GPFS
    case 0x19830326UL:  // BeeGFS
    case 0xFF534D42UL:  // CIFS
    case 0xFE534D42UL:  // SMB2
    case 0xAAD7AAEAUL:  // PanFS
    case 0x00C36400UL:  // CephFS
    case 0x65735546UL:  // FUSE (GlusterFS and others)
    case 0x013111A8UL:  // IBRIX
    case 0x5346414FUL:  // OrangeFS/PVFS2 (0x20030528 too)
    case 0x20030528UL:
      return true;
    default:
      return false;
  }
}

bool lock_side(int fd, short type) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = sizeof(std::int64_t);
  while (::fcntl(fd, F_SETLKW, &fl) != 0)
    if (errno != EINTR) return false;
  return true;
}
void unlock_side(int fd) {
  struct flock fl {};
  fl.l_type = F_UNLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = sizeof(std::int64_t);
  ::fcntl(fd, F_SETLK, &fl);
}
}  // namespace

FileObject *lookup_file(MPI_File fh) {
  if (api::handle_kind(fh) != IMPI_KIND_FILE) return nullptr;
  std::uint32_t i = api::handle_index(fh);
  if (i == 0 || i > kFileBlock * kFileBlocks) return nullptr;
  const FileSlot *slot = file_slot(i - 1);
  return slot ? slot->load(std::memory_order_acquire) : nullptr;
}

int file_error(FileObject *f, int code, const char *fn, const std::string &detail) {
  if (f) return api::report_file_on(f->handle, f->errhandler, code, fn, detail);
  std::uintptr_t eh;
  {
    std::lock_guard<std::mutex> lk(g_files_mu);
    eh = g_null_errhandler;
  }
  return api::report_file_on(MPI_FILE_NULL, eh, code, fn, detail);
}

bool range_lock(int fd, short type, std::int64_t start, std::int64_t len) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = start;
  fl.l_len = len;
  while (::fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl) != 0)
    if (errno != EINTR) return false;
  return true;
}

namespace {
// A non-blocking access's error, reported by the completion call that
// completes its request (api::report_request): through the file's handler,
// or MPI_FILE_NULL's when the file is gone.
int report_request_error(MPI_File fh, int code, std::string_view fn, std::string_view detail) {
  return file_error(lookup_file(fh), code, std::string(fn).c_str(), std::string(detail));
}
[[maybe_unused]] const bool g_reporter_set = (api::set_file_reporter(report_request_error), true);
}  // namespace

int errno_class(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
      return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
      return MPI_ERR_ACCESS;
    case EROFS:
      return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG:
      return MPI_ERR_NO_SPACE;
    case EDQUOT:
      return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case EISDIR:
    case ELOOP:
      return MPI_ERR_BAD_FILE;
    case ETXTBSY:
    case EBUSY:
      return MPI_ERR_FILE_IN_USE;
    case ENOMEM:
      return MPI_ERR_NO_MEM;
    default:
      return MPI_ERR_IO;
  }
}

namespace {
// The shared pointer's side file, opened at the first use (`create`, where
// it is made lazily: made if no process has yet; an empty one holds 0).
// -1 with errno set. The caller holds f.shfp_mu.
int side_fd(FileObject &f, bool create) {
  if (f.shfp_fd >= 0) return f.shfp_fd;
  create = create && f.shfp_lazy;
  int fd =
      ::open(f.shfp_path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
  if (fd < 0) return -1;
  struct stat st {};
  // (Ours, and not a hard link to some other file of ours.)
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
      st.st_nlink != 1) {
    ::close(fd);
    errno = EACCES;  // (not ours: someone else's file under that name)
    return -1;
  }
  f.shfp_fd = fd;
  return fd;
}
}  // namespace

// (shfp_mu also keeps threads apart: fcntl locks do not exclude the
// threads of one process.)
std::int64_t shared_fetch_add(FileObject &f, std::int64_t delta) {
  std::lock_guard<std::mutex> lk(f.shfp_mu);
  const int fd = side_fd(f, delta != 0);
  if (fd < 0 && delta == 0 && errno == ENOENT && f.shfp_lazy) return 0;  // (not made yet: 0)
  if (fd < 0 || !lock_side(fd, F_WRLCK)) return -1;
  std::int64_t v = 0;
  const ssize_t got = ::pread(fd, &v, sizeof v, 0);
  bool ok = got == sizeof v || got == 0;  // (empty: nobody moved it yet)
  if (got == 0) v = 0;
  std::int64_t nv = v + delta;
  if (ok && delta != 0) ok = ::pwrite(fd, &nv, sizeof nv, 0) == sizeof nv;
  unlock_side(fd);
  return ok ? v : -1;
}

namespace {
// The byte the mark locks: past any byte a view can reach in practice (the
// atomic-mode and sieving locks cover data ranges, never this one).
constexpr off_t kOpenMark = std::numeric_limits<off_t>::max() - 1;
struct flock open_mark_lock(short type) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = kOpenMark;
  fl.l_len = 1;
  fl.l_pid = 0;  // (required of OFD locks)
  return fl;
}
}  // namespace

void mark_open(FileObject &f) {
  // An OFD lock, not a POSIX one: it belongs to this open file description,
  // so it conflicts with this process's own other descriptors too and does
  // not vanish when the process closes another descriptor of the file.
  // Where the file system has no locks (ENOLCK, EINVAL) the file is simply
  // not marked: delete then unlinks as before.
  int fd = f.fd;
  if (f.amode & MPI_MODE_WRONLY) fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return;
  struct flock fl = open_mark_lock(F_RDLCK);
  if (::fcntl(fd, F_OFD_SETLK, &fl) != 0) {
    if (fd != f.fd) ::close(fd);
    return;
  }
  f.mark_fd = fd;
}

void unmark_open(FileObject &f) {
  if (f.mark_fd >= 0 && f.mark_fd != f.fd) ::close(f.mark_fd);
  f.mark_fd = -1;  // (the lock on `fd` goes with it)
}

bool open_somewhere(const std::string &path) {
  struct stat st {};
  // (Regular files only: opening a device or a FIFO to look could act on it.)
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;  // (not there, or not readable: unlink says)
  struct flock fl = open_mark_lock(F_WRLCK);
  bool held = ::fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

bool shared_set(FileObject &f, std::int64_t value) {
  std::lock_guard<std::mutex> lk(f.shfp_mu);
  const int fd = side_fd(f, value != 0);
  if (fd < 0) return value == 0 && errno == ENOENT && f.shfp_lazy;  // (not made yet: 0)
  if (!lock_side(fd, F_WRLCK)) return false;
  bool ok = ::pwrite(fd, &value, sizeof value, 0) == sizeof value;
  unlock_side(fd);
  return ok;
}

bool file_round(FileObject &f, const long long *mine, long long *all, int w, const char *fn) {
  if (!f.rounds || !f.rounds->connected()) return false;
  MemoryRounds &m = *f.rounds;
  const std::size_t part = static_cast<std::size_t>(w) * sizeof(long long);
  const long long k = m.post(mine, part, fmt::format("{} on {}", fn, f.path));
  m.wait(k);
  for (int r = 0; r < m.size() && w > 0; ++r)
    std::memcpy(all + static_cast<std::size_t>(r) * static_cast<std::size_t>(w),
                r == m.rank() ? static_cast<const void *>(mine) : m.part(k, r), part);
  return true;
}

namespace {
// Rank 0's `v` at every process (set_size, preallocate).
void root_int(FileObject &f, int &v, const char *fn) {
  const long long mine = v;
  if (long long each[kMemoryRoundsMost]; file_round(f, &mine, each, 1, fn))
    v = static_cast<int>(each[0]);
  else
    PMPI_Bcast(&v, 1, MPI_INT, 0, f.comm);
}
}  // namespace

// The rounds of a file's collective calls on a small communicator across
// IMPI clients (at most kMemoryRoundsMost processes) go by memory once the
// processes have agreed on it. The first open on a duplicate of the
// communicator gathers, beside its agreement, each process's machine key,
// pid, probe word and slots' address (an allgather where other
// communicators reduce: as cheap across clients); each process checks that
// it may write into every other's memory, and a reduction agrees whether
// every process may (one more round, at that first open only). From then
// on the file's collective calls (open's own agreements, set_view,
// set_size, sync, seek_shared, ordered accesses, close...) and those of
// every later file on the duplicate go by memory: an open+close across 2
// clients at np 2 went from about 100 to 50 us. IMPI_IO_MEMORY_ROUNDS=0 or
// IMPI_IO_PULL_CLIENTS=0 keeps them as messages (the shape of the
// messages does not depend on them, so processes may differ).
namespace {
// Words of open's first round (rank 0's answer, with the side file's name).
constexpr std::size_t kOpenRoundWords = 72;
bool small_span(const core::Communicator &c) {
  return c.spans_clients && c.size <= kMemoryRoundsMost;
}
void open_agree(FileObject &f, const core::Communicator &c, const int mine[2], int agreed[2]) {
  int rank = 0;
  PMPI_Comm_rank(f.comm, &rank);
  if (long long each[2 * kMemoryRoundsMost], v[2] = {mine[0], mine[1]};
      file_round(f, v, each, 2, "MPI_File_open")) {
    for (int r = 0; r < c.size; ++r) {
      agreed[0] = std::max<int>(agreed[0], static_cast<int>(each[2 * r]));
      agreed[1] = std::max<int>(agreed[1], static_cast<int>(each[2 * r + 1]));
    }
    return;
  }
  if (!small_span(c) || f.rounds) {  // (f.rounds unconnected: refused at an earlier open)
    PMPI_Allreduce(mine, agreed, 2, MPI_INT, MPI_MAX, f.comm);
    return;
  }
  const bool want = base::get_int("io_memory_rounds") != 0 && base::get_int("io_pull_clients") != 0;
  const auto size = static_cast<std::size_t>(c.size);
  std::unique_ptr<MemoryRounds> cand;
  if (want) cand = std::make_unique<MemoryRounds>(rank, c.size, kOpenRoundWords);
  constexpr std::size_t kW = 6;
  const long long me[kW] = {mine[0],
                            mine[1],
                            want ? static_cast<long long>(machine_key()) : 0,
                            static_cast<long long>(::getpid()),
                            static_cast<long long>(transport::shm::cma_probe_address()),
                            static_cast<long long>(cand ? cand->address() : 0)};
  std::vector<long long> all(kW * size);
  PMPI_Allgather(me, kW, MPI_LONG_LONG, all.data(), kW, MPI_LONG_LONG, f.comm);
  std::vector<std::int64_t> pid(size);
  std::vector<std::uint64_t> addr(size);
  bool reach = cand != nullptr;
  for (std::size_t r = 0; r < size; ++r) {
    const long long *them = &all[kW * r];
    agreed[0] = std::max<int>(agreed[0], static_cast<int>(them[0]));
    agreed[1] = std::max<int>(agreed[1], static_cast<int>(them[1]));
    pid[r] = them[3];
    addr[r] = static_cast<std::uint64_t>(them[5]);
    if (static_cast<int>(r) == rank) continue;
    reach = reach && me[2] != 0 && them[2] == me[2] && them[3] > 0 && them[5] != 0 &&
            transport::shm::cma_permitted(them[3], static_cast<std::uint64_t>(them[4]));
  }
  // Whether every process reaches every other's slots: then the rounds
  // serve this file's collective calls already.
  const int unreachable = reach ? 0 : 1;
  int any = 1;
  PMPI_Allreduce(&unreachable, &any, 1, MPI_INT, MPI_MAX, f.comm);
  if (any == 0) {
    cand->connect(std::move(pid), std::move(addr));
    f.rounds = std::move(cand);
  } else {
    f.rounds = std::make_unique<MemoryRounds>(rank, c.size, 0);  // (refused: not connected)
  }
}
void close_agree(FileObject &f, int side_mine, int &side_any) {
  if (long long each[kMemoryRoundsMost], v = side_mine;
      file_round(f, &v, each, 1, "MPI_File_close")) {
    side_any = 0;
    for (int r = 0; r < f.rounds->size(); ++r)
      side_any = std::max<int>(side_any, static_cast<int>(each[r]));
  } else {
    PMPI_Allreduce(&side_mine, &side_any, 1, MPI_INT, MPI_MAX, f.comm);
  }
}
}  // namespace

}  // namespace impi::io

using impi::api::check_initialized;
using impi::io::errno_class;
using impi::io::file_error;
using impi::io::FileObject;
using impi::io::lookup_file;

#define IMPI_FILE_ARG(fh, fn)                       \
  if (!check_initialized(fn)) return MPI_ERR_OTHER; \
  FileObject *f = lookup_file(fh);                  \
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle")

extern "C" {

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
  constexpr const char *fn = "MPI_File_open";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return impi::api::report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (c->inter) return file_error(nullptr, MPI_ERR_COMM, fn, "an intercommunicator");
  if (!fh) return file_error(nullptr, MPI_ERR_ARG, fn, "fh is NULL");
  if (!filename || !*filename) return file_error(nullptr, MPI_ERR_BAD_FILE, fn, "no file name");
  if (!impi::io::all_impi(*c))
    return file_error(nullptr, MPI_ERR_FILE, fn,
                      "the communicator includes procs of a client that is not impi "
                      "(e.g. LAM/MPI): their MPI-IO cannot share a file with impi's");
  std::string why;
  if (int rc = impi::io::check_amode(amode, why); rc != MPI_SUCCESS)
    return file_error(nullptr, rc, fn, why);
  std::string path(filename);
  // ROMIO's "fs:" prefixes (ufs:, nfs:...) name the file system: the path follows.
  if (auto colon = path.find(':');
      colon != std::string::npos && colon >= 2 && colon <= 8 && path.find('/') > colon)
    path = path.substr(colon + 1);

  auto obj = std::make_unique<FileObject>();
  FileObject &f = *obj;
  f.path = path;
  f.amode = amode;
  if (impi::io::take_comm(comm, f) != MPI_SUCCESS)
    return file_error(nullptr, MPI_ERR_INTERN, fn, "cannot duplicate the communicator");
  int rank = 0;
  PMPI_Comm_rank(f.comm, &rank);
  // The hints: the defaults, the hints file's (rank 0's, sent to the others
  // below, who then take the program's again), the program's.
  impi::io::default_hints(f, *c);
  std::string hint_lines;
  if (rank == 0) hint_lines = impi::io::read_hints_file();
  std::vector<std::string> from_file = impi::io::apply_hint_lines(f, hint_lines);
  impi::io::apply_hints(f, info, true);
  mode_t perm = 0644;
  if (auto it = f.hints.find("file_perm"); it != f.hints.end())
    perm = static_cast<mode_t>(std::strtol(it->second.c_str(), nullptr, 8));
  else
    f.hints["file_perm"] = "0644";
  int flags = (amode & MPI_MODE_RDONLY) ? O_RDONLY : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDWR;
  flags |= O_CLOEXEC;

  // Rank 0 creates (so that MPI_MODE_EXCL means what it says, and so that
  // a program's "rank 0 deletes the file, then all open it with
  // MPI_MODE_CREATE" opens one new file, as under ROMIO), then the others
  // open. An open that creates nothing needs no order: through rounds by
  // memory (across clients) every process then opens at once, and open's
  // one round gives each process rank 0's answer and everyone's outcome,
  // where it took two (rank 0's answer, then the agreement).
  impi::io::MemoryRounds *const mr = f.rounds && f.rounds->connected() ? f.rounds.get() : nullptr;
  const bool one_round = mr != nullptr && !(amode & (MPI_MODE_CREATE | MPI_MODE_EXCL));
  int err = 0;  // errno of this proc's failure
  struct {
    int err;
    int shared_fs;
    int elsewhere;            // the side file is not in the data file's directory
    int append;               // rank 0's amode has MPI_MODE_APPEND
    std::uint64_t dev, ino;   // the data file, as rank 0 sees it
    std::uint32_t side_len;   // the side file's name: here when it fits, else after
    std::uint32_t hints_len;  // rank 0's hints file's lines (after)
    char side[512];
  } first{};
  std::string side;
  if (rank == 0 || one_round) {
    int fl =
        flags | ((amode & MPI_MODE_CREATE) ? O_CREAT : 0) | ((amode & MPI_MODE_EXCL) ? O_EXCL : 0);
    f.fd = ::open(path.c_str(), fl, perm);
    if (f.fd < 0) {
      err = errno;
    } else {
      struct stat st {};
      if (::fstat(f.fd, &st) == 0 && S_ISDIR(st.st_mode)) err = EISDIR;
      first.dev = st.st_dev;
      first.ino = st.st_ino;
      bool elsewhere = false;
      if (!err && rank == 0) side = impi::io::side_file_name(path, elsewhere);
      first.elsewhere = elsewhere ? 1 : 0;
      if (!err && side.size() > PATH_MAX + 64) err = ENAMETOOLONG;
      first.side_len = static_cast<std::uint32_t>(side.size());
      if (!err && side.size() <= sizeof first.side)
        std::memcpy(first.side, side.data(), side.size());
    }
    first.err = err;
  }
  if (rank == 0) {
    first.hints_len = static_cast<std::uint32_t>(hint_lines.size());
    first.append = (amode & MPI_MODE_APPEND) ? 1 : 0;
    first.shared_fs = f.fd >= 0 && impi::io::on_shared_fs(f.fd);
  }
  // (Across clients on one machine, once agreed, rank 0's answer and the
  // agreement below are rounds by memory: see open_rounds.)
  const std::string what = fmt::format("MPI_File_open of {}", path);
  static_assert(sizeof first <= impi::io::kOpenRoundWords * sizeof(long long));
  int agreed[2] = {0, 0};  // (one_round: the worst error class, and whether any other_file)
  if (mr) {
    constexpr std::size_t head = offsetof(decltype(first), side);
    const std::size_t n = rank == 0
                              ? head + std::min<std::size_t>(first.side_len, sizeof first.side)
                          : one_round ? head
                                      : 0;
    const long long k = mr->post(&first, n, what);
    mr->wait(k);
    if (one_round) {
      decltype(first) zero, them;
      std::memcpy(&zero, mr->part(k, 0), head);
      for (int r = 0; r < c->size; ++r) {
        std::memcpy(&them, mr->part(k, r), head);
        if (them.err != 0) agreed[0] = std::max(agreed[0], errno_class(them.err));
        // (the same file as rank 0's; a process whose open failed has none)
        if (r != 0 && (them.err != 0 || them.dev != zero.dev || them.ino != zero.ino))
          agreed[1] = 1;
      }
    }
    if (rank != 0) {
      const auto *p = static_cast<const char *>(mr->part(k, 0));
      std::memcpy(&first, p, head);
      std::memcpy(first.side, p + head, std::min<std::size_t>(first.side_len, sizeof first.side));
    }
  } else {
    PMPI_Bcast(&first, sizeof first, MPI_BYTE, 0, f.comm);
  }
  if (first.err != 0) {
    if (f.fd >= 0) ::close(f.fd);
    impi::io::give_back_comm(f);
    int cls = errno_class(first.err);
    return file_error(nullptr, cls, fn,
                      fmt::format("{}: {}{}", path, impi::io::reason(first.err),
                                  rank == 0 ? "" : " (at rank 0)"));
  }
  // (A long name and the hints file's lines come in a second message: the
  // first stays small, 4 KiB more cost 6.6 us in a one-client Bcast.)
  const bool long_side = first.side_len > sizeof first.side;
  if (long_side || first.hints_len > 0) {
    const std::size_t sl = long_side ? first.side_len : 0, n = sl + first.hints_len;
    std::string extra = rank == 0 ? (long_side ? side : std::string()) + hint_lines : std::string();
    extra.resize(n);
    PMPI_Bcast(extra.data(), static_cast<int>(n), MPI_BYTE, 0, f.comm);
    if (long_side) side = extra.substr(0, sl);
    if (rank != 0 && first.hints_len > 0) {
      from_file = impi::io::apply_hint_lines(f, extra.substr(sl));
      impi::io::apply_hints(f, info, true);  // (the program's come last)
    }
  }
  if (!long_side) side.assign(first.side, first.side_len);
  f.shfp_path = side;
  f.shared_fs = first.shared_fs != 0;
  if (!f.shared_fs) {
    // On a local file system every process aggregates a share of the file
    // (copies into the page cache in parallel); on a shared one a process
    // per client, as ROMIO's one per host. A cb_nodes hint decides.
    int flag = 0;
    char val[MPI_MAX_INFO_VAL + 1];
    if (info != MPI_INFO_NULL) PMPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, val, &flag);
    if (!flag && std::find(from_file.begin(), from_file.end(), "cb_nodes") == from_file.end())
      f.hints["cb_nodes"] = std::to_string(c->size);
  }
  // Whether every process sees rank 0's file itself (one host, or one
  // mount of it): then the side file may be made lazily.
  int other_file = 0;
  if (rank != 0 && !one_round) {
    f.fd = ::open(path.c_str(), flags, perm);
    if (f.fd < 0) err = errno;
    struct stat st {};
    other_file = f.fd < 0 || ::fstat(f.fd, &st) != 0 ||
                 static_cast<std::uint64_t>(st.st_dev) != first.dev ||
                 static_cast<std::uint64_t>(st.st_ino) != first.ino;
  }
  if (!err) impi::io::mark_open(f);
  int mine[2] = {err ? errno_class(err) : 0, other_file};
  if (!one_round) impi::io::open_agree(f, *c, mine, agreed);
  const int worst = mine[0], any = agreed[0];
  f.shfp_lazy = agreed[1] == 0 && first.elsewhere == 0;
  if (any == 0 && !f.shfp_lazy && rank == 0) {
    // (A failure here shows at the pointer's first use: the others open
    // it without O_CREAT.)
    int fd = ::open(f.shfp_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) ::close(fd);
  }
  if (any != 0) {
    impi::io::unmark_open(f);
    if (f.fd >= 0) ::close(f.fd);
    if (f.shfp_fd >= 0) ::close(f.shfp_fd);
    PMPI_Barrier(f.comm);
    if (rank == 0) ::unlink(f.shfp_path.c_str());
    impi::io::give_back_comm(f);
    if (err)
      return file_error(nullptr, worst, fn, fmt::format("{}: {}", path, impi::io::reason(err)));
    return file_error(nullptr, any, fn, fmt::format("{}: another process could not open it", path));
  }
  f.view.etype = f.view.filetype = impi::pack::Datatype::predefined(impi::pack::dt::byte);
  f.view.etype_h = f.view.filetype_h = MPI_BYTE;
  std::string vwhy;
  impi::io::build_view(f.view, false, vwhy);
  if (amode & MPI_MODE_APPEND) {
    struct stat st {};
    if (::fstat(f.fd, &st) == 0) {
      f.pos = st.st_size;
      if (rank == 0) impi::io::shared_set(f, st.st_size);
    }
  }
  // (The shared pointer is set before anyone uses it: else it is 0, an
  // empty or absent side file, and needs no wait.)
  if (first.append) PMPI_Barrier(f.comm);
  // ROMIO_PRINT_HINTS (as ROMIO): the hints in force, from rank 0.
  if (const char *ph = std::getenv("ROMIO_PRINT_HINTS"); ph && *ph && std::strcmp(ph, "0") != 0 &&
                                                         std::strcmp(ph, "false") != 0 &&
                                                         std::strcmp(ph, "no") != 0 && rank == 0) {
    std::string out = fmt::format("hints of {}:\n", f.path);
    for (const auto &[k, v] : f.hints) out += fmt::format("  key = {:<24} value = {}\n", k, v);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
  }
  f.handle = impi::io::new_file_handle(obj.release());
  *fh = f.handle;
  return MPI_SUCCESS;
}

int PMPI_File_close(MPI_File *fh) {
  constexpr const char *fn = "MPI_File_close";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!fh) return file_error(nullptr, MPI_ERR_ARG, fn, "fh is NULL");
  FileObject *f = lookup_file(*fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  // (Operations still in flight, which the program should have completed:
  // the non-blocking collectives' queue, then the I/O threads' jobs.)
  if (const auto *c = impi::api::lookup_comm(f->comm))
    impi::collectives::drain(c, impi::core::Runtime::instance().p2p());
  {
    std::unique_lock<std::mutex> lk(f->pending_mu);
    f->pending_cv.wait(lk, [&] { return f->pending == 0; });
  }
  int rank = 0, err = 0;
  PMPI_Comm_rank(f->comm, &rank);
  impi::io::unmark_open(*f);
  if (::close(f->fd) != 0) err = errno;
  // Every proc is done with the file (an allreduce as the barrier): and
  // whether the shared pointer's side file may exist (made at open, or by
  // a proc that moved the pointer: it holds it open), to be unlinked.
  int side_mine = f->shfp_fd >= 0 || !f->shfp_lazy, side_any = 1;
  if (f->shfp_fd >= 0) ::close(f->shfp_fd);
  impi::io::close_agree(*f, side_mine, side_any);
  if (rank == 0) {
    if (side_any) ::unlink(f->shfp_path.c_str());
    if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && ::unlink(f->path.c_str()) != 0 && !err)
      err = errno;
  }
  if (f->amode & MPI_MODE_DELETE_ON_CLOSE) PMPI_Barrier(f->comm);  // gone when close returns
  impi::io::give_back_comm(*f);
  impi::io::drop_file_handle(*fh);
  std::string path = f->path;
  std::uintptr_t eh = f->errhandler;
  delete f;
  *fh = MPI_FILE_NULL;
  if (err)
    return impi::api::report_file_on(MPI_FILE_NULL, eh, errno_class(err), fn,
                                     fmt::format("{}: {}", path, impi::io::reason(err)));
  return MPI_SUCCESS;
}

int PMPI_File_delete(const char *filename, MPI_Info info) {
  constexpr const char *fn = "MPI_File_delete";
  (void)info;
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!filename || !*filename) return file_error(nullptr, MPI_ERR_BAD_FILE, fn, "no file name");
  std::string path(filename);
  if (auto colon = path.find(':');
      colon != std::string::npos && colon >= 2 && colon <= 8 && path.find('/') > colon)
    path = path.substr(colon + 1);
  // MPI-4.1 14.2.3: deleting a file some process has open may fail with
  // MPI_ERR_FILE_IN_USE. Unlinking it would let the procs that have it open
  // go on writing into a file nobody can open again (their data lost at
  // close): impi refuses instead.
  if (impi::io::open_somewhere(path))
    return file_error(nullptr, MPI_ERR_FILE_IN_USE, fn,
                      fmt::format("{}: the file is open (in this or another process); close it "
                                  "first",
                                  path));
  if (::unlink(path.c_str()) != 0) {
    int e = errno;
    return file_error(nullptr, errno_class(e), fn,
                      fmt::format("{}: {}", path, impi::io::reason(e)));
  }
  return MPI_SUCCESS;
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size) {
  constexpr const char *fn = "MPI_File_set_size";
  IMPI_FILE_ARG(fh, fn);
  if (size < 0) return file_error(f, MPI_ERR_ARG, fn, fmt::format("size {} is negative", size));
  if (f->amode & MPI_MODE_SEQUENTIAL)
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL");
  if (f->amode & MPI_MODE_RDONLY) return file_error(f, MPI_ERR_ACCESS, fn, "the file is read-only");
  int rank = 0, err = 0;
  PMPI_Comm_rank(f->comm, &rank);
  if (!impi::io::file_round(*f, nullptr, nullptr, 0, fn))
    PMPI_Barrier(f->comm);  // (every proc is done with what it did before)
  if (rank == 0 && ::ftruncate(f->fd, size) != 0) err = errno;
  int cls = err ? errno_class(err) : 0;
  impi::io::root_int(*f, cls, fn);
  if (cls)
    return file_error(
        f, cls, fn,
        fmt::format("{}: {}", f->path, err ? impi::io::reason(err) : "failed at rank 0"));
  return MPI_SUCCESS;
}

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  constexpr const char *fn = "MPI_File_preallocate";
  IMPI_FILE_ARG(fh, fn);
  if (size < 0) return file_error(f, MPI_ERR_ARG, fn, fmt::format("size {} is negative", size));
  if (f->amode & MPI_MODE_SEQUENTIAL)
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL");
  if (f->amode & MPI_MODE_RDONLY) return file_error(f, MPI_ERR_ACCESS, fn, "the file is read-only");
  int rank = 0, err = 0;
  PMPI_Comm_rank(f->comm, &rank);
  if (!impi::io::file_round(*f, nullptr, nullptr, 0, fn))
    PMPI_Barrier(f->comm);  // (every proc is done with what it did before)
  if (rank == 0 && size > 0) {
    struct stat st {};
    if (::fstat(f->fd, &st) != 0)
      err = errno;
    else if (st.st_size < size) {
      int rc = ::posix_fallocate(f->fd, 0, size);
      if (rc == EOPNOTSUPP || rc == EINVAL) rc = ::ftruncate(f->fd, size) != 0 ? errno : 0;
      err = rc;
    }
  }
  int cls = err ? errno_class(err) : 0;
  impi::io::root_int(*f, cls, fn);
  if (cls)
    return file_error(
        f, cls, fn,
        fmt::format("{}: {}", f->path, err ? impi::io::reason(err) : "failed at rank 0"));
  return MPI_SUCCESS;
}

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size) {
  constexpr const char *fn = "MPI_File_get_size";
  IMPI_FILE_ARG(fh, fn);
  if (!size) return file_error(f, MPI_ERR_ARG, fn, "size is NULL");
  struct stat st {};
  if (::fstat(f->fd, &st) != 0)
    return file_error(f, errno_class(errno), fn, impi::io::reason(errno));
  *size = st.st_size;
  return MPI_SUCCESS;
}

int PMPI_File_get_group(MPI_File fh, MPI_Group *group) {
  constexpr const char *fn = "MPI_File_get_group";
  IMPI_FILE_ARG(fh, fn);
  if (!group) return file_error(f, MPI_ERR_ARG, fn, "group is NULL");
  return PMPI_Comm_group(f->comm, group);
}

int PMPI_File_get_amode(MPI_File fh, int *amode) {
  constexpr const char *fn = "MPI_File_get_amode";
  IMPI_FILE_ARG(fh, fn);
  if (!amode) return file_error(f, MPI_ERR_ARG, fn, "amode is NULL");
  *amode = f->amode;
  return MPI_SUCCESS;
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info) {
  constexpr const char *fn = "MPI_File_set_info";
  IMPI_FILE_ARG(fh, fn);
  impi::io::apply_hints(*f, info, false);
  return MPI_SUCCESS;
}

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used) {
  constexpr const char *fn = "MPI_File_get_info";
  IMPI_FILE_ARG(fh, fn);
  if (!info_used) return file_error(f, MPI_ERR_ARG, fn, "info_used is NULL");
  if (int rc = PMPI_Info_create(info_used); rc != MPI_SUCCESS) return file_error(f, rc, fn);
  for (const auto &[k, v] : f->hints) PMPI_Info_set(*info_used, k.c_str(), v.c_str());
  return MPI_SUCCESS;
}

namespace {
// MPI_File_set_view's new view from its arguments: MPI_SUCCESS or an error
// class (the reason in `why`).
int make_view(FileObject &f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
              const char *datarep, impi::io::View &v, std::string &why) {
  impi::pack::TypePtr et, ft;
  if (const char *bad = impi::api::find_type(etype, et, true)) {
    why = fmt::format("the etype: {}", bad);
    return MPI_ERR_TYPE;
  }
  if (const char *bad = impi::api::find_type(filetype, ft, true)) {
    why = fmt::format("the filetype: {}", bad);
    return MPI_ERR_TYPE;
  }
  if (!datarep) {
    why = "datarep is NULL";
    return MPI_ERR_ARG;
  }
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    if (!(f.amode & MPI_MODE_SEQUENTIAL)) {
      why = "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL";
      return MPI_ERR_ARG;
    }
    std::int64_t cur = impi::io::shared_fetch_add(f, 0);
    std::vector<std::pair<std::int64_t, std::int64_t>> r;
    impi::io::map_ranges(f.view, cur * f.view.et_size, 1, r);
    disp = r.empty() ? 0 : r[0].first;
  }
  if (disp < 0) {
    why = fmt::format("displacement {} is negative", disp);
    return MPI_ERR_ARG;
  }
  v.disp = disp;
  v.etype = et;
  v.filetype = ft;
  v.etype_h = etype;
  v.filetype_h = filetype;
  v.datarep = datarep;
  return impi::io::build_view(v, !(f.amode & MPI_MODE_RDONLY), why);
}
}  // namespace

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info) {
  constexpr const char *fn = "MPI_File_set_view";
  IMPI_FILE_ARG(fh, fn);
  impi::io::View v;
  std::string why;
  int err = make_view(*f, disp, etype, filetype, datarep, v, why);
  // Every process installs its new view or none does: a process whose
  // arguments are refused still takes part (the others would wait for it
  // in their next collective call), and they all return an error.
  int agreed = impi::io::agree_on_views(*f, err == MPI_SUCCESS ? &v : nullptr, err);
  if (err != MPI_SUCCESS) return file_error(f, err, fn, why);
  if (agreed != MPI_SUCCESS)
    return file_error(f, agreed, fn,
                      "another process's arguments were refused: the view is unchanged");
  // Derived types: the view keeps its own handles (the program may free its).
  if (!impi::api::is_predefined_type(etype)) v.etype_h = impi::api::new_type_handle(v.etype, true);
  if (!impi::api::is_predefined_type(filetype))
    v.filetype_h = impi::api::new_type_handle(v.filetype, true);
  if (!impi::api::is_predefined_type(f->view.etype_h)) impi::api::free_type(f->view.etype_h);
  if (!impi::api::is_predefined_type(f->view.filetype_h)) impi::api::free_type(f->view.filetype_h);
  f->view = std::move(v);
  f->pos = 0;
  impi::io::apply_hints(*f, info, false);
  int rank = 0;
  PMPI_Comm_rank(f->comm, &rank);
  // (The agreement above also means everyone is done with the old shared pointer.)
  if (rank == 0) impi::io::shared_set(*f, 0);
  if (!impi::io::file_round(*f, nullptr, nullptr, 0, fn)) PMPI_Barrier(f->comm);
  return MPI_SUCCESS;
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                       char *datarep) {
  constexpr const char *fn = "MPI_File_get_view";
  IMPI_FILE_ARG(fh, fn);
  if (!disp || !etype || !filetype || !datarep)
    return file_error(f, MPI_ERR_ARG, fn, "NULL argument");
  *disp = f->view.disp;
  // Derived types: a new handle the program frees (MPI-3.1 13.3).
  *etype = impi::api::is_predefined_type(f->view.etype_h)
               ? f->view.etype_h
               : impi::api::new_type_handle(f->view.etype, true);
  *filetype = impi::api::is_predefined_type(f->view.filetype_h)
                  ? f->view.filetype_h
                  : impi::api::new_type_handle(f->view.filetype, true);
  std::snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->view.datarep.c_str());
  return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent) {
  constexpr const char *fn = "MPI_File_get_type_extent";
  IMPI_FILE_ARG(fh, fn);
  impi::pack::TypePtr t;
  if (const char *bad = impi::api::find_type(datatype, t))
    return file_error(f, MPI_ERR_TYPE, fn, bad);
  if (!extent) return file_error(f, MPI_ERR_ARG, fn, "extent is NULL");
  *extent = impi::io::file_extent(f->view, t);
  return MPI_SUCCESS;
}

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent) {
  constexpr const char *fn = "MPI_File_get_type_extent_c";
  IMPI_FILE_ARG(fh, fn);
  impi::pack::TypePtr t;
  if (const char *bad = impi::api::find_type(datatype, t))
    return file_error(f, MPI_ERR_TYPE, fn, bad);
  if (!extent) return file_error(f, MPI_ERR_ARG, fn, "extent is NULL");
  *extent = impi::io::file_extent(f->view, t);
  return MPI_SUCCESS;
}

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp) {
  constexpr const char *fn = "MPI_File_get_byte_offset";
  IMPI_FILE_ARG(fh, fn);
  if (!disp) return file_error(f, MPI_ERR_ARG, fn, "disp is NULL");
  if (offset < 0)
    return file_error(f, MPI_ERR_ARG, fn, fmt::format("offset {} is negative", offset));
  if (f->amode & MPI_MODE_SEQUENTIAL)
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL");
  std::vector<std::pair<std::int64_t, std::int64_t>> r;
  impi::io::map_ranges(f->view, offset * f->view.et_size, 1, r);
  *disp = r.empty() ? f->view.disp : r[0].first;
  return MPI_SUCCESS;
}

int PMPI_File_set_atomicity(MPI_File fh, int flag) {
  constexpr const char *fn = "MPI_File_set_atomicity";
  IMPI_FILE_ARG(fh, fn);
  if (!impi::io::file_round(*f, nullptr, nullptr, 0, fn))
    PMPI_Barrier(f->comm);  // (collective: the operations before it finish first)
  f->atomic = flag != 0;
  impi::io::refresh_knobs(*f);
  return MPI_SUCCESS;
}

int PMPI_File_get_atomicity(MPI_File fh, int *flag) {
  constexpr const char *fn = "MPI_File_get_atomicity";
  IMPI_FILE_ARG(fh, fn);
  if (!flag) return file_error(f, MPI_ERR_ARG, fn, "flag is NULL");
  *flag = f->atomic;
  return MPI_SUCCESS;
}

int PMPI_File_sync(MPI_File fh) {
  constexpr const char *fn = "MPI_File_sync";
  IMPI_FILE_ARG(fh, fn);
  int err = 0;
  if (!(f->amode & MPI_MODE_RDONLY) && ::fsync(f->fd) != 0) err = errno;
  if (!impi::io::file_round(*f, nullptr, nullptr, 0, fn)) PMPI_Barrier(f->comm);
  if (err)
    return file_error(f, errno_class(err), fn,
                      fmt::format("{}: {}", f->path, impi::io::reason(err)));
  return MPI_SUCCESS;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  constexpr const char *fn = "MPI_File_seek";
  IMPI_FILE_ARG(fh, fn);
  if (f->amode & MPI_MODE_SEQUENTIAL)
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL");
  std::int64_t base;
  if (whence == MPI_SEEK_SET) {
    base = 0;
  } else if (whence == MPI_SEEK_CUR) {
    base = f->pos;
  } else if (whence == MPI_SEEK_END) {
    struct stat st {};
    if (::fstat(f->fd, &st) != 0)
      return file_error(f, errno_class(errno), fn, impi::io::reason(errno));
    base = (impi::io::stream_pos_of(f->view, st.st_size) + f->view.et_size - 1) / f->view.et_size;
  } else {
    return file_error(f, MPI_ERR_ARG, fn,
                      fmt::format("whence {} is not an MPI_SEEK_ constant", whence));
  }
  if (base + offset < 0)
    return file_error(f, MPI_ERR_ARG, fn,
                      fmt::format("the position {} would be negative", base + offset));
  f->pos = base + offset;
  return MPI_SUCCESS;
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset) {
  constexpr const char *fn = "MPI_File_get_position";
  IMPI_FILE_ARG(fh, fn);
  if (!offset) return file_error(f, MPI_ERR_ARG, fn, "offset is NULL");
  if (f->amode & MPI_MODE_SEQUENTIAL)
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL");
  *offset = f->pos;
  return MPI_SUCCESS;
}

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  constexpr const char *fn = "MPI_File_seek_shared";
  IMPI_FILE_ARG(fh, fn);
  int rank = 0, cls = 0;
  std::string why;
  PMPI_Comm_rank(f->comm, &rank);
  // Collective: every proc gives the same arguments; rank 0 moves the pointer.
  long long args[2] = {offset, whence}, root[2] = {offset, whence};
  // (By memory one round does both: everyone posts once done with the pointer.)
  if (long long each[2 * impi::io::kMemoryRoundsMost];
      impi::io::file_round(*f, args, each, 2, fn)) {
    root[0] = each[0];
    root[1] = each[1];
  } else {
    PMPI_Bcast(root, 2, MPI_LONG_LONG, 0, f->comm);
    PMPI_Barrier(f->comm);  // accesses through the pointer before the call are done
  }
  if (root[0] != args[0] || root[1] != args[1]) {
    cls = MPI_ERR_NOT_SAME;
    why = "the processes gave different offsets or whence";
  }
  if (rank == 0 && !cls) {
    std::int64_t base = 0;
    if (whence == MPI_SEEK_CUR) {
      base = impi::io::shared_fetch_add(*f, 0);
    } else if (whence == MPI_SEEK_END) {
      struct stat st {};
      ::fstat(f->fd, &st);
      base = (impi::io::stream_pos_of(f->view, st.st_size) + f->view.et_size - 1) / f->view.et_size;
    } else if (whence != MPI_SEEK_SET) {
      cls = MPI_ERR_ARG;
      why = fmt::format("whence {} is not an MPI_SEEK_ constant", whence);
    }
    if (!cls && base + offset < 0) {
      cls = MPI_ERR_ARG;
      why = fmt::format("the position {} would be negative", base + offset);
    }
    if (!cls && !impi::io::shared_set(*f, base + offset)) {
      cls = errno_class(errno);
      why = impi::io::reason(errno);
    }
  }
  int all = 0;
  const long long mine = cls;
  if (long long each[impi::io::kMemoryRoundsMost]; impi::io::file_round(*f, &mine, each, 1, fn)) {
    for (int r = 0; r < f->rounds->size(); ++r) all = std::max(all, static_cast<int>(each[r]));
  } else {
    PMPI_Allreduce(&cls, &all, 1, MPI_INT, MPI_MAX, f->comm);
  }
  if (all) return file_error(f, all, fn, why.empty() ? "failed at another process" : why);
  return MPI_SUCCESS;
}

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset) {
  constexpr const char *fn = "MPI_File_get_position_shared";
  IMPI_FILE_ARG(fh, fn);
  if (!offset) return file_error(f, MPI_ERR_ARG, fn, "offset is NULL");
  std::int64_t v = impi::io::shared_fetch_add(*f, 0);
  if (v < 0) return file_error(f, MPI_ERR_IO, fn, "cannot read the shared file pointer");
  *offset = v;
  return MPI_SUCCESS;
}

// ---- error handlers
int PMPI_File_create_errhandler(MPI_File_errhandler_function *function,
                                MPI_Errhandler *errhandler) {
  constexpr const char *fn = "MPI_File_create_errhandler";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!function || !errhandler) return file_error(nullptr, MPI_ERR_ARG, fn, "NULL argument");
  *errhandler =
      impi::api::create_comm_errhandler(reinterpret_cast<MPI_Comm_errhandler_function *>(function));
  return MPI_SUCCESS;
}

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  constexpr const char *fn = "MPI_File_set_errhandler";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = file == MPI_FILE_NULL ? nullptr : lookup_file(file);
  if (file != MPI_FILE_NULL && !f)
    return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  if (!impi::api::valid_errhandler(errhandler))
    return file_error(f, MPI_ERR_ERRHANDLER, fn, "invalid error handler");
  impi::api::retain_errhandler(errhandler);
  std::uintptr_t v = impi::api::handle_value(errhandler), old;
  if (f) {
    old = f->errhandler;
    f->errhandler = v;
  } else {
    std::lock_guard<std::mutex> lk(impi::io::g_files_mu);
    old = impi::io::g_null_errhandler;
    impi::io::g_null_errhandler = v;
  }
  if (old) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(old));
  return MPI_SUCCESS;
}

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler) {
  constexpr const char *fn = "MPI_File_get_errhandler";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = file == MPI_FILE_NULL ? nullptr : lookup_file(file);
  if (file != MPI_FILE_NULL && !f)
    return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  if (!errhandler) return file_error(f, MPI_ERR_ARG, fn, "errhandler is NULL");
  std::uintptr_t v;
  if (f) {
    v = f->errhandler;
  } else {
    std::lock_guard<std::mutex> lk(impi::io::g_files_mu);
    v = impi::io::g_null_errhandler;
  }
  MPI_Errhandler eh = v ? reinterpret_cast<MPI_Errhandler>(v) : MPI_ERRORS_RETURN;
  impi::api::retain_errhandler(eh);
  *errhandler = eh;
  return MPI_SUCCESS;
}

int PMPI_File_call_errhandler(MPI_File fh, int errorcode) {
  constexpr const char *fn = "MPI_File_call_errhandler";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = fh == MPI_FILE_NULL ? nullptr : lookup_file(fh);
  if (fh != MPI_FILE_NULL && !f)
    return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  file_error(f, errorcode, fn);
  return MPI_SUCCESS;
}

}  // extern "C"

#include "io/generated/file_aliases.inc"
