// file.hpp - MPI-IO (MPI-3.1 chapter 13): the file objects behind MPI_File
// handles, their views, data representations and the shared file pointer.
//
// A file is a POSIX file every process of the communicator opens itself
// (the procs of every IMPI client share the file system). What the procs
// must agree on goes through ordinary MPI calls on a duplicate of the
// file's communicator (so across clients it is ordinary IMPI traffic); the
// shared file pointer lives in a hidden side file next to the data file,
// updated under an fcntl byte-range lock, so it needs no messages at all.
// docs/io.md describes the design.
#pragma once

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/sys.hpp"
#include "io/rounds.hpp"
#include "mpi.h"
#include "pack/datatype.hpp"

namespace impi::io {

// A registered data representation (MPI_Register_datarep).
struct UserRep {
  MPI_Datarep_conversion_function *read = nullptr;
  MPI_Datarep_conversion_function *write = nullptr;
  MPI_Datarep_extent_function *extent = nullptr;
  void *extra = nullptr;
  // MPI_Register_datarep_c's (MPI_Count counts): used instead of the above.
  MPI_Datarep_conversion_function_c *read_c = nullptr;
  MPI_Datarep_conversion_function_c *write_c = nullptr;
};

enum class RepKind { native, external32, user };

struct View {
  MPI_Offset disp = 0;
  pack::TypePtr etype, filetype;
  MPI_Datatype etype_h = MPI_BYTE, filetype_h = MPI_BYTE;  // as the program named them
  std::string datarep = "native";
  RepKind rep = RepKind::native;
  UserRep user;
  // The filetype's layout in the file (bytes of the file representation):
  // its data runs in typemap order, their prefix sums, the size of its
  // data and the extent it tiles with; the etype's size there.
  std::vector<pack::ByteRun> runs;
  std::vector<std::int64_t> prefix;  // prefix[i]: data bytes before runs[i]
  std::int64_t ft_size = 1, ft_extent = 1, et_size = 1;
  bool contiguous = true;  // the data of successive tiles is one byte range
  // Successive tiles' data in file order, no byte twice (a filetype whose
  // data reaches past its extent, or overlaps itself, is not): what the
  // aggregators' exchange assumes.
  bool in_order = true;
};

// Whether a copy from `src` to `dst` runs 2-3x slower through the CPU's
// fast string instructions (`rep movsb`, which the kernel's copies between
// the page cache and user memory use): when the destination lies 1-63
// bytes past the source, modulo the page. So measured on this AMD EPYC
// (16 MiB from tmpfs: 1.5-2.1 GB/s against 4.0-5.1 at any other
// distance); glibc's memcpy avoids it on Intel's FSRM parts for the same
// reason (Avoid_Short_Distance_REP_MOVSB). A large buffer from malloc
// starts 16 bytes into a page, so a read of page-aligned file data into
// it is such a copy.
inline bool short_copy_distance(std::uintptr_t dst, std::uintptr_t src) {
  const std::uintptr_t d = (dst - src) & 4095;
  return d != 0 && d < 64;
}

// A byte buffer that is not zero-filled when it grows (I/O buffers are
// written whole before they are read). Those of kAlignFrom bytes or more
// start on a page: the file data read into them (page-aligned domains and
// windows) then copies at full speed (short_copy_distance); smaller ones
// (the pooled scratch of small accesses) do not spend a page on it.
class Bytes {
 public:
  void resize(std::size_t n) {
    if (n > cap_) {
      const std::size_t a = n >= kAlignFrom ? kAlign : __STDCPP_DEFAULT_NEW_ALIGNMENT__;
      p_ = std::unique_ptr<std::byte, Free>(
          static_cast<std::byte *>(::operator new (n, std::align_val_t{a})), Free{a});
      cap_ = n;
    }
    n_ = n;
  }
  std::byte *data() { return p_.get(); }
  const std::byte *data() const { return p_.get(); }
  std::size_t size() const { return n_; }
  std::size_t capacity() const { return cap_; }

 private:
  static constexpr std::size_t kAlign = 4096, kAlignFrom = 64 << 10;
  struct Free {
    std::size_t align;
    Free() : align(4096) {}
    explicit Free(std::size_t a) : align(a) {}
    void operator()(std::byte *p) const { ::operator delete (p, std::align_val_t{align}); }
  };
  std::unique_ptr<std::byte, Free> p_;
  std::size_t n_ = 0, cap_ = 0;
};

// Scratch memory an access sizes by its pieces (thousands, for a view of
// small pieces), kept from one access to the next. Allocated and freed at
// every call, such lists made glibc give the top of the heap back to the
// kernel at each end and fault it in again at the next start (np 2, 512-B
// rows, 2 MiB per process: 2.9 ms a collective write, 0.5 ms with them
// kept). A pool, not a member of the file: non-blocking accesses run
// several at once. T has reset() (empties it, keeping its memory) and
// bytes() (the memory it holds).
template <class T>
class Lease {
 public:
  Lease() : s_(pool().take()) {}
  ~Lease() {
    s_->reset();
    pool().give(std::move(s_));
  }
  Lease(const Lease &) = delete;
  Lease &operator=(const Lease &) = delete;
  T *operator->() { return s_.get(); }
  T &operator*() { return *s_; }

 private:
  class Pool {
   public:
    std::unique_ptr<T> take() {
      std::lock_guard<std::mutex> lk(mu_);
      if (free_.empty()) return std::make_unique<T>();
      auto s = std::move(free_.back());
      free_.pop_back();
      return s;
    }
    void give(std::unique_ptr<T> s) {
      constexpr std::size_t kKept = 4, kLargest = 64 << 20;  // (what stays allocated)
      if (s->bytes() > kLargest) return;
      std::lock_guard<std::mutex> lk(mu_);
      if (free_.size() < kKept) free_.push_back(std::move(s));
    }

   private:
    std::mutex mu_;
    std::vector<std::unique_ptr<T>> free_;
  };
  static Pool &pool() {
    static auto *p = new Pool;  // (never destroyed: accesses may end at exit)
    return *p;
  }
  std::unique_ptr<T> s_;
};

// What an access needs of the file's settings, read when it starts (a
// non-blocking one runs on an I/O thread while the program may change them).
struct Knobs {
  bool atomic = false;
  bool ds_read = true;                   // romio_ds_read != disable
  bool ds_write = false;                 // romio_ds_write == enable
  std::int64_t sieve = 4 << 20;          // ind_rd_buffer_size
  std::int64_t sieve_write = 512 << 10;  // ind_wr_buffer_size
};

struct CommPool;  // (file.cpp: the duplicates kept for the next open)

struct FileObject {
  MPI_Comm comm = MPI_COMM_NULL;   // a duplicate: the file's own context
  std::shared_ptr<CommPool> pool;  // where `comm` goes back at close
  // The rounds by memory of the file's collective calls on `comm` (a
  // small communicator across IMPI clients on one machine), kept with
  // `comm` in its pool: agreed at the first open on it, then used by its
  // calls and every later open and close on it. Null: not agreed on yet;
  // not connected: refused (messages).
  std::unique_ptr<MemoryRounds> rounds;
  MPI_File handle = MPI_FILE_NULL;
  int fd = -1;
  // The descriptor holding the "open" mark (an OFD read lock, see
  // mark_open): `fd`, or a read-only one of its own for MPI_MODE_WRONLY.
  int mark_fd = -1;
  std::string path;
  int amode = 0;
  std::uintptr_t errhandler = 0;  // 0: MPI_ERRORS_RETURN (files' default)
  bool atomic = false;
  // The file lives on a network or parallel file system (NFS, Lustre,
  // GPFS...), where collective buffering pays; on a local one the page
  // cache merges small accesses better (romio_cb_* "automatic").
  bool shared_fs = false;
  // Of all processes' views (agree_on_views, at MPI_File_set_view): some
  // is not contiguous; some is pieces of less than 2 KiB; some is not in
  // file order (View::in_order).
  bool any_noncontiguous = false, any_small_pieces = false, any_unordered = false;
  std::map<std::string, std::string> hints;  // the values in force (get_info)
  Knobs knobs;  // what `hints` and `atomic` mean for an access (refresh_knobs)
  View view;
  std::int64_t pos = 0;  // the individual file pointer, in etypes of the view
  // The shared file pointer: an int64 (etypes) at offset 0 of this file.
  // (Created by the first process that moves the pointer where every
  // process sees the same data file, `shfp_lazy`; else by rank 0 at open.)
  std::string shfp_path;
  int shfp_fd = -1;
  bool shfp_lazy = true;
  std::mutex shfp_mu;  // the descriptor, and each access to the pointer
  // Atomic mode within this process (fcntl locks do not exclude threads).
  std::mutex atomic_mu;
  // Non-blocking operations in flight (close waits for them).
  std::mutex pending_mu;
  std::condition_variable pending_cv;
  int pending = 0;
  // Two-phase collective buffering's buffers (collective.cpp), kept
  // between blocking calls (a blocking call first waits for the
  // non-blocking ones, which have their own).
  Bytes tp_stream, tp_out, tp_in, tp_window;
  // Per rank of `comm` (agreed at the first two-phase call, agree_on_pulls):
  // the pid whose memory this process, as an aggregator, reads its pieces
  // from (cross-memory attach; 0: they come as messages; ourselves: -1),
  // and whether that rank reads ours (then we send it no data).
  std::vector<std::int64_t> tp_pull_pid;
  std::vector<char> tp_pulls_mine;
  // Rounds by memory (rounds.hpp), agreed with the above: where every
  // process may write into every other's memory, on a small communicator
  // across clients (null: the rounds go as messages).
  std::unique_ptr<MemoryRounds> tp_rounds;
  // A split collective in progress (_begin .. _end).
  bool split_active = false;
  MPI_Status split_status{};
  int split_err = MPI_SUCCESS;
  const void *split_buf = nullptr;
};

// Recomputes f.knobs after f.hints or f.atomic change.
void refresh_knobs(FileObject &f);
// The file behind a handle, or nullptr.
FileObject *lookup_file(MPI_File fh);
// Reports `code` for `fn` on file `f` (nullptr: MPI_FILE_NULL's handler).
int file_error(FileObject *f, int code, const char *fn, const std::string &detail = {});
// The MPI error class of a system errno.
int errno_class(int err);
// An fcntl lock over [start, start+len) of the file (F_RDLCK, F_WRLCK;
// F_UNLCK releases it), waiting for it (atomic mode): it holds between
// processes, of one client or of several sharing the file system. False
// with errno set when the system refused.
bool range_lock(int fd, short type, std::int64_t start, std::int64_t len);

// ---- views (view.cpp)
// Fills the layout of `v` from its etype, filetype and representation;
// MPI_SUCCESS or the error class (the reason in `why`). `may_write`: the
// file is open for writing (then the types may not overlap themselves).
int build_view(View &v, bool may_write, std::string &why);
// Bytes of the file representation that (count, type) takes.
std::int64_t file_bytes(const View &v, const pack::TypePtr &type, std::int64_t count);
// The extent of `type` in the view's representation (MPI_File_get_type_extent):
// its layout there, displacements in elements scaled to the elements' size
// in the file (MPI-3.1 13.5.1).
std::int64_t file_extent(const View &v, const pack::TypePtr &type);
// Why an access of some data through a view whose filetype has none fails.
inline constexpr const char *kEmptyView =
    "the view's filetype holds no data: no data can be read or written through it";
// The file byte ranges of data bytes [start, start+len) of the view's stream
// (none through a view whose filetype holds no data).
void map_ranges(const View &v, std::int64_t start, std::int64_t len,
                std::vector<std::pair<std::int64_t, std::int64_t>> &out);
// The data byte of the view's stream at or after file byte `at` (for seek to the end).
std::int64_t stream_pos_of(const View &v, std::int64_t at);
// Finds a registered representation; false if unknown.
bool find_datarep(const std::string &name, UserRep &out);

// ---- conversions between memory and the file representation (view.cpp)
// Encodes (buf, count, type) into `out` (file_bytes of it); an error class.
int encode(const View &v, const void *buf, std::int64_t count, MPI_Datatype th,
           const pack::TypePtr &type, Bytes &out, std::string &why);
// Decodes the first `got` bytes of `in` into (buf, count, type): returns the
// native bytes filled (whole elements), or a negative error class.
std::int64_t decode(const View &v, const std::byte *in, std::int64_t got, void *buf,
                    std::int64_t count, MPI_Datatype th, const pack::TypePtr &type,
                    std::string &why);

// ---- "this file is open" (file.cpp): every proc that has the file open holds
// an open-file-description read lock on one byte past any data; delete asks
// for a conflicting lock and refuses (MPI_ERR_FILE_IN_USE) when one is held:
// by this process, another of its client, another client's, another job's.
void mark_open(FileObject &f);
void unmark_open(FileObject &f);
// Whether some process holds the mark on the file at `path`.
bool open_somewhere(const std::string &path);

// ---- shared file pointer (file.cpp)
// Adds `delta` etypes to the shared pointer, returns its old value (-1: error, errno set).
std::int64_t shared_fetch_add(FileObject &f, std::int64_t delta);
bool shared_set(FileObject &f, std::int64_t value);
// A round of the file's collective calls by memory, where its communicator
// has agreed on rounds (FileObject::rounds: small, across IMPI clients of
// one machine): each process gives `w` long longs (at most 64; 0: a
// barrier), and gets every process's in `all` (rank r's at r * w). False
// where the communicator has none: the caller sends its messages.
bool file_round(FileObject &f, const long long *mine, long long *all, int w, const char *fn);

// What this process's MPI-IO asked of the system: data transfer calls and
// their bytes (the io_* performance variables of the tool interface).
struct IoCounters {
  std::atomic<std::uint64_t> reads{0}, writes{0}, bytes_read{0}, bytes_written{0};
  std::atomic<std::uint64_t> list_rounds{0};    // (collective.cpp: piece lists exchanged)
  std::atomic<std::uint64_t> memory_rounds{0};  // (collective.cpp: memory_round)
  std::atomic<std::uint64_t> bounced_reads{0};  // (access.cpp: full_pread)
};
inline IoCounters g_io_counters;
// One system call counted in `calls`, and what it moved (r > 0) in `bytes`.
inline ssize_t counted(ssize_t r, std::atomic<std::uint64_t> &calls,
                       std::atomic<std::uint64_t> &bytes) {
  calls.fetch_add(1, std::memory_order_relaxed);
  if (r > 0) bytes.fetch_add(static_cast<std::uint64_t>(r), std::memory_order_relaxed);
  return r;
}
inline ssize_t sys_pread(int fd, void *p, std::size_t n, std::int64_t at) {
  return counted(base::sys_pread(fd, p, n, at), g_io_counters.reads, g_io_counters.bytes_read);
}
// [at, at + n) into p, over short reads and EINTR; stops early only at
// the end of the file. Returns the bytes read, or -1 (errno).
inline std::int64_t pread_whole(int fd, std::byte *p, std::int64_t n, std::int64_t at) {
  std::int64_t done = 0;
  while (done < n) {
    ssize_t r = sys_pread(fd, p + done, static_cast<std::size_t>(n - done), at + done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;
    done += r;
  }
  return done;
}
inline ssize_t sys_preadv(int fd, const iovec *iov, int n, std::int64_t at) {
  return counted(base::sys_preadv(fd, iov, n, at), g_io_counters.reads, g_io_counters.bytes_read);
}
inline ssize_t sys_pwrite(int fd, const void *p, std::size_t n, std::int64_t at) {
  return counted(base::sys_pwrite(fd, p, n, at), g_io_counters.writes, g_io_counters.bytes_written);
}
inline ssize_t sys_pwritev(int fd, const iovec *iov, int n, std::int64_t at) {
  return counted(base::sys_pwritev(fd, iov, n, at), g_io_counters.writes,
                 g_io_counters.bytes_written);
}

}  // namespace impi::io
