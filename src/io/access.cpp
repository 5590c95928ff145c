// access.cpp - MPI-IO data access (MPI-3.1 13.4): explicit offsets,
// individual and shared file pointers, blocking, non-blocking and split
// collective forms, atomic mode.
//
// Non-blocking operations run on a small pool of I/O threads (started on
// the first one): the transfer then overlaps the caller's computation
// without the caller entering MPI, on any file system (Linux AIO is
// asynchronous only for O_DIRECT files; io_uring is not everywhere).
// Their MPI_Requests are generalized requests, so every wait and test call
// completes them like any other.
#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <functional>
#include <thread>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/requests.hpp"
#include "base/tunables.hpp"
#include "io/collective.hpp"
#include "io/file.hpp"

namespace impi::io {

namespace {

enum class Ptr { explicit_, individual, shared };

// ---- the I/O threads
class Pool {
 public:
  void submit(std::function<void()> job) {
    std::lock_guard<std::mutex> lk(mu_);
    if (threads_.empty())
      for (int i = 0; i < kThreads; ++i) threads_.emplace_back([this] { loop(); });
    jobs_.push_back(std::move(job));
    cv_.notify_one();
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
      cv_.notify_all();
    }
    for (auto &t : threads_) t.join();
  }

 private:
  static constexpr int kThreads = 2;
  void loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return stop_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool stop_ = false;
};
Pool g_pool;

// A large read whose memory lies 1-63 bytes past its file offset, modulo
// the page (short_copy_distance: a malloc'ed buffer read from a page
// boundary), may go through a buffer placed at the file offset's distance
// 0, kBounce bytes at a time, copied out in pieces that glibc's memcpy
// moves with vector registers rather than `rep movsb` (below its
// rep_movsb_threshold, 2112 bytes with FSRM). Whether that pays depends
// on the CPU, so each process measures it once (short_distance_slow). On
// the AMD EPYC (Zen 3/4 era) where it was found, bench/io_bench.c's N-1
// read of 16 MiB from tmpfs into a malloc'ed buffer, np 2, ran at 4.1-5.1
// GB/s bounced against 2.1-3.3 straight; on a Zen 5 EPYC (family 26) the
// straight read was as fast at distance 16 as at 0, and the bounce cost
// 10-30% (1 MiB: 15-16 against 23-25 GB/s, one process).
constexpr std::int64_t kBounce = 128 << 10, kBounceMin = 256 << 10;
constexpr std::size_t kCopyPiece = 2048;
std::int64_t bounced_pread(int fd, std::byte *p, std::int64_t n, std::int64_t at) {
  thread_local Bytes bounce;  // (the I/O threads read too)
  bounce.resize(static_cast<std::size_t>(kBounce) + 4096);
  std::byte *b = bounce.data() + (static_cast<std::uint64_t>(at) & 4095);
  std::int64_t done = 0;
  while (done < n) {
    const std::int64_t want = std::min(n - done, kBounce), r = pread_whole(fd, b, want, at + done);
    if (r < 0) return -1;
    for (std::size_t k = 0; k < static_cast<std::size_t>(r); k += kCopyPiece)
      std::memcpy(p + done + k, b + k, std::min(kCopyPiece, static_cast<std::size_t>(r) - k));
    done += r;
    if (r < want) break;  // (the end of the file)
  }
  return done;
}

// Whether the kernel's copy from the page cache runs slower into memory at
// a short distance (16 bytes past the page) than at distance 0, by more
// than a third: the best of kProbeRounds reads of kProbeBytes from a
// memfd at each distance, alternated (about 0.3 ms, once per process, at
// its first large read at a short distance). The best, not the median: a
// VM's host interrupts either kind now and then, and a slow copy is slow
// every time. False where the probe cannot run (the straight read is
// correct anywhere).
bool probe_short_distance_slow() {
  constexpr std::size_t kProbeBytes = 256 << 10;
  constexpr int kProbeRounds = 8;
  const int fd = ::memfd_create("impi-io-probe", MFD_CLOEXEC);
  if (fd < 0) return false;
  Bytes mem;
  mem.resize(kProbeBytes + 4096);
  std::memset(mem.data(), 0x5a, kProbeBytes + 4096);
  bool ok = ::pwrite(fd, mem.data(), kProbeBytes, 0) == static_cast<ssize_t>(kProbeBytes);
  double best[2] = {1e30, 1e30};
  for (int r = 0; ok && r < kProbeRounds; ++r)
    for (int k = 0; k < 2; ++k) {
      timespec t0{}, t1{};
      ::clock_gettime(CLOCK_MONOTONIC, &t0);
      ok = ok && ::pread(fd, mem.data() + (k ? 16 : 0), kProbeBytes, 0) ==
                     static_cast<ssize_t>(kProbeBytes);
      ::clock_gettime(CLOCK_MONOTONIC, &t1);
      best[k] = std::min(best[k], static_cast<double>(t1.tv_sec - t0.tv_sec) * 1e9 +
                                      static_cast<double>(t1.tv_nsec - t0.tv_nsec));
    }
  ::close(fd);
  return ok && best[1] > best[0] * 4 / 3;
}
bool short_distance_slow() {
  static const bool slow = [] {
    const std::string mode = base::get_string("io_read_bounce");
    return mode == "1" || (mode != "0" && probe_short_distance_slow());
  }();
  return slow;
}

// Whole transfers: loops over short transfers; stops early only at the end
// of the file (reads). Returns bytes moved, or -1 (errno).
std::int64_t full_pread(int fd, std::byte *p, std::int64_t n, std::int64_t at) {
  if (n >= kBounceMin &&
      short_copy_distance(reinterpret_cast<std::uintptr_t>(p), static_cast<std::uintptr_t>(at)) &&
      short_distance_slow()) {
    g_io_counters.bounced_reads.fetch_add(1, std::memory_order_relaxed);
    return bounced_pread(fd, p, n, at);
  }
  return pread_whole(fd, p, n, at);
}
std::int64_t full_pwrite(int fd, const std::byte *p, std::int64_t n, std::int64_t at) {
  std::int64_t done = 0;
  while (done < n) {
    ssize_t r = sys_pwrite(fd, p + done, static_cast<std::size_t>(n - done), at + done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    done += r;
  }
  return done;
}

struct Result {
  int err = MPI_SUCCESS;
  std::string why;
  std::int64_t native = 0;  // bytes of memory filled or taken (the status's count)
  std::int64_t file = 0;    // bytes of the file's stream moved
};

const Knobs &knobs_of(const FileObject &f) {
  return f.knobs;
}

// An independent access's file ranges and data sieving window, kept
// between accesses (Lease).
struct SieveScratch {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  Bytes window;
  std::vector<iovec> iov;  // a vectored read's pieces and holes
  std::vector<char> is_data;
  std::size_t bytes() const {
    return ranges.capacity() * sizeof(ranges[0]) + window.capacity() +
           iov.capacity() * sizeof(iovec) + is_data.capacity();
  }
  void reset() {
    ranges.clear();
    iov.clear();
    is_data.clear();
  }
};

// A sieved read whose pieces average at least this many bytes goes by
// preadv instead: each piece lands in place and the holes between them in
// a scratch buffer, where the window read copies every byte twice (into
// the window, then out of it). On this VM's page cache, 4 MiB spans half
// data: 32 KiB pieces 1.06 -> 0.75 ms, 2 KiB 1.22 -> 0.68 ms; at 512 B the
// kernel's per-segment cost wins (1.1 -> 1.3 ms).
constexpr std::int64_t kVectorPiece = 2048;
// The holes' destination: one buffer, written over and over (it stays in cache).
constexpr std::size_t kHoleBuffer = 16384;

// Data sieving's windows (ROMIO's): ranges [i, end) lie in [lo, hi) of at
// most `limit` bytes (0: no sieving); `sieve`: there are several and their
// data is at least a quarter of the window, so one transfer of the window
// replaces theirs. A range before the window's start (a filetype whose
// data reaches past its extent) or longer than `limit` starts a group of
// its own.
struct Group {
  std::size_t end;
  std::int64_t lo, hi, data;  // data: the bytes of its ranges
  bool sieve;
};
Group group_at(const std::vector<std::pair<std::int64_t, std::int64_t>> &ranges, std::size_t i,
               std::int64_t limit) {
  const std::int64_t lo = ranges[i].first;
  std::int64_t hi = lo + ranges[i].second, data = ranges[i].second;
  std::size_t j = i + 1;
  if (ranges[i].second < limit) {
    for (; j < ranges.size(); ++j) {
      auto [pos, n] = ranges[j];
      if (pos < lo || pos + n - lo > limit) break;
      hi = std::max(hi, pos + n);
      data += n;
    }
  }
  return {j, lo, hi, data, j - i > 1 && hi - lo <= 4 * data};
}

// Reads the pieces ranges[i, j) (in file order, not overlapping: else it
// returns -2 and reads nothing) with preadv: the pieces one after the
// other from `dst`, the holes between them into the thread's hole buffer;
// `s` keeps the segment lists. Returns the bytes of the pieces read
// (fewer than theirs at the end of the file), or -1 (errno).
std::int64_t vector_read(int fd, const std::vector<std::pair<std::int64_t, std::int64_t>> &ranges,
                         std::size_t i, std::size_t j, std::byte *dst, SieveScratch &s) {
  static thread_local std::byte hole[kHoleBuffer];
  auto &iov = s.iov;
  auto &is_data = s.is_data;
  iov.clear();
  is_data.clear();
  std::int64_t end = ranges[i].first;
  for (std::size_t k = i; k < j; ++k) {
    auto [pos, n] = ranges[k];
    if (pos < end) return -2;
    for (std::int64_t gap = pos - end; gap > 0;) {
      const auto h = static_cast<std::size_t>(std::min<std::int64_t>(gap, kHoleBuffer));
      iov.push_back({hole, h});
      is_data.push_back(0);
      gap -= static_cast<std::int64_t>(h);
    }
    iov.push_back({dst, static_cast<std::size_t>(n)});
    is_data.push_back(1);
    dst += n;
    end = pos + n;
  }
  std::int64_t at = ranges[i].first, got = 0;
  std::size_t k = 0;
  while (k < iov.size()) {
    const int cnt = static_cast<int>(std::min<std::size_t>(iov.size() - k, IOV_MAX));
    ssize_t r = sys_preadv(fd, &iov[k], cnt, at);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;  // the end of the file
    at += r;
    // Past what came in; a segment read in part goes on where it stopped.
    for (auto left = static_cast<std::size_t>(r); left > 0;) {
      const std::size_t take = std::min(left, iov[k].iov_len);
      if (is_data[k]) got += static_cast<std::int64_t>(take);
      if (take == iov[k].iov_len) {
        ++k;
      } else {
        iov[k].iov_base = static_cast<std::byte *>(iov[k].iov_base) + take;
        iov[k].iov_len -= take;
      }
      left -= take;
    }
  }
  return got;
}

// The common case (a native contiguous view, contiguous memory, not
// atomic): one transfer of `total` bytes at etype `off` of the view
// (non-empty). Returns the bytes moved, -1 (errno says why) or kBeforeStart.
constexpr std::int64_t kBeforeStart = -2;
std::int64_t direct_transfer(const FileObject &f, const View &v, bool write, std::int64_t off,
                             const void *buf, const pack::Datatype &type, std::int64_t total) {
  const std::int64_t pos = v.disp + v.runs[0].disp + off * v.et_size;
  if (pos < 0) return kBeforeStart;
  auto *mem = static_cast<std::byte *>(const_cast<void *>(buf)) + type.lb();
  return write ? full_pwrite(f.fd, mem, total, pos) : full_pread(f.fd, mem, total, pos);
}
// direct_transfer's failure `n`: the error class and the reason.
int direct_error(const FileObject &f, std::int64_t n, std::string &why) {
  if (n == kBeforeStart) {
    why = "the access would start before the beginning of the file";
    return MPI_ERR_ARG;
  }
  const int err = errno;
  why = fmt::format("{}: {}", f.path, std::strerror(err));
  return errno_class(err);
}

// Moves (buf, count, type) to or from the view's stream at etype `off`.
// `v`, `k`: the view and settings in force when the operation started.
Result perform(FileObject &f, const View &v, const Knobs &k, bool write, std::int64_t off,
               const void *buf, std::int64_t count, MPI_Datatype th, const pack::TypePtr &type) {
  Result res;
  std::int64_t total = file_bytes(v, type, count);
  if (total <= 0) return res;
  if (v.runs.empty()) {
    res.err = MPI_ERR_ARG;
    res.why = kEmptyView;
    return res;
  }
  // Memory that is the stream itself: no copy.
  const bool direct = v.rep == RepKind::native && type->is_contiguous();
  if (direct && v.contiguous && !k.atomic) {
    std::int64_t n = direct_transfer(f, v, write, off, buf, *type, total);
    if (n < 0) {
      res.err = direct_error(f, n, res.why);
      return res;
    }
    res.file = res.native = n;
    return res;
  }
  Lease<SieveScratch> scratch;
  auto &ranges = scratch->ranges;
  map_ranges(v, off * v.et_size, total, ranges);
  // (A filetype whose data reaches past its extent gives ranges out of file order.)
  std::int64_t lo = ranges.empty() ? -1 : ranges.front().first, hi = lo;
  for (auto [pos, n] : ranges) {
    lo = std::min(lo, pos);
    hi = std::max(hi, pos + n);
  }
  if (lo < 0) {
    res.err = MPI_ERR_ARG;
    res.why = "the access would start before the beginning of the file";
    return res;
  }
  std::unique_lock<std::mutex> atomic_lk;
  if (k.atomic) {
    atomic_lk = std::unique_lock<std::mutex>(f.atomic_mu);
    if (!range_lock(f.fd, write ? F_WRLCK : F_RDLCK, lo, hi - lo)) {
      res.err = errno_class(errno);
      res.why =
          fmt::format("{}: cannot lock bytes {}..{}: {}", f.path, lo, hi, std::strerror(errno));
      return res;
    }
  }
  auto finish = [&](int e, int sys) {
    if (k.atomic) range_lock(f.fd, F_UNLCK, lo, hi - lo);
    if (e != MPI_SUCCESS) {
      res.err = e;
      if (res.why.empty()) res.why = fmt::format("{}: {}", f.path, std::strerror(sys));
    }
    return res;
  };
  const std::byte *mem = static_cast<const std::byte *>(buf) + (direct ? type->lb() : 0);
  Bytes &window = scratch->window;
  if (write) {
    Bytes data;
    if (!direct) {
      int e = encode(v, buf, count, th, type, data, res.why);
      if (e != MPI_SUCCESS) return finish(e, 0);
      mem = data.data();
    }
    std::int64_t at = 0;
    for (std::size_t i = 0, j; i < ranges.size(); i = j) {
      Group g = group_at(ranges, i, k.ds_write ? k.sieve_write : 0);
      j = g.end;
      if (!g.sieve) {
        for (; i < j; ++i) {
          auto [pos, n] = ranges[i];
          if (full_pwrite(f.fd, mem + at, n, pos) < 0) return finish(errno_class(errno), errno);
          at += n;
        }
        continue;
      }
      // Data sieving (romio_ds_write=enable): read the window, put the
      // pieces in, write it back whole, under a write lock of the window
      // (other sieving writers' read-modify-writes must not interleave
      // with ours).
      const std::int64_t wlo = g.lo, len = g.hi - g.lo;
      if (!k.atomic && !range_lock(f.fd, F_WRLCK, wlo, len))
        return finish(errno_class(errno), errno);
      window.resize(static_cast<std::size_t>(len));
      std::int64_t r = full_pread(f.fd, window.data(), len, wlo);
      int e = 0;
      if (r < 0) {
        e = errno;
      } else {
        std::memset(window.data() + r, 0, static_cast<std::size_t>(len - r));
        for (; i < j; ++i) {
          auto [pos, n] = ranges[i];
          std::memcpy(window.data() + (pos - wlo), mem + at, static_cast<std::size_t>(n));
          at += n;
        }
        if (full_pwrite(f.fd, window.data(), len, wlo) < 0) e = errno;
      }
      if (!k.atomic) range_lock(f.fd, F_UNLCK, wlo, len);
      if (e) return finish(errno_class(e), e);
    }
    res.file = total;
    res.native = type->size() * count;
    return finish(MPI_SUCCESS, 0);
  }
  Bytes data;
  std::byte *dst = const_cast<std::byte *>(mem);
  if (!direct) {
    data.resize(static_cast<std::size_t>(total));
    dst = data.data();
  }
  std::int64_t got = 0;
  bool short_read = false;  // the end of the file
  for (std::size_t i = 0, j; i < ranges.size() && !short_read; i = j) {
    Group g = group_at(ranges, i, k.ds_read ? k.sieve : 0);
    j = g.end;
    if (!g.sieve) {
      for (; i < j && !short_read; ++i) {
        auto [pos, n] = ranges[i];
        std::int64_t r = full_pread(f.fd, dst + got, n, pos);
        if (r < 0) return finish(errno_class(errno), errno);
        got += r;
        short_read = r < n;
      }
      continue;
    }
    // Data sieving: the group's pieces are read as one window, or, when
    // they are large, with one preadv (kVectorPiece).
    if (g.data >= kVectorPiece * static_cast<std::int64_t>(j - i)) {
      std::int64_t r = vector_read(f.fd, ranges, i, j, dst + got, *scratch);
      if (r == -1) return finish(errno_class(errno), errno);
      if (r >= 0) {  // (-2: pieces out of order; the window reads them)
        got += r;
        short_read = r < g.data;
        continue;
      }
    }
    const std::int64_t wlo = g.lo, len = g.hi - g.lo;
    window.resize(static_cast<std::size_t>(len));
    std::int64_t r = full_pread(f.fd, window.data(), len, wlo);
    if (r < 0) return finish(errno_class(errno), errno);
    for (; i < j && !short_read; ++i) {
      auto [pos, n] = ranges[i];
      std::int64_t have = std::clamp<std::int64_t>(r - (pos - wlo), 0, n);
      std::memcpy(dst + got, window.data() + (pos - wlo), static_cast<std::size_t>(have));
      got += have;
      short_read = have < n;
    }
  }
  res.file = got;
  if (direct) {
    res.native = got;
  } else {
    std::int64_t n = decode(v, dst, got, const_cast<void *>(buf), count, th, type, res.why);
    if (n < 0) return finish(static_cast<int>(-n), 0);
    res.native = n;
  }
  return finish(MPI_SUCCESS, 0);
}

void set_io_status(MPI_Status *st, std::int64_t bytes) {
  if (st == MPI_STATUS_IGNORE) return;
  st->MPI_SOURCE = MPI_ANY_SOURCE;
  st->MPI_TAG = MPI_ANY_TAG;
  st->impi_count = bytes;
  st->impi_cancelled = 0;
}

// The checks every access makes; `type` keeps the datatype alive.
// The access's datatype: a predefined one by reference (it lives as long
// as the library: no shared count to touch, whose decrement right after
// the system call was 3% of a 4 KiB read_at), a derived one held.
struct AccessType {
  pack::TypePtr held;
  const pack::TypePtr *p = nullptr;
  const pack::TypePtr &get() const { return *p; }
};

int check_access(FileObject *f, const char *fn, Ptr p, bool write, MPI_Offset off, MPI_Count count,
                 MPI_Datatype dt, AccessType &at) {
  if (p != Ptr::shared && (f->amode & MPI_MODE_SEQUENTIAL))
    return file_error(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "the file was opened MPI_MODE_SEQUENTIAL: only shared file pointers");
  if (count < 0)
    return file_error(f, MPI_ERR_COUNT, fn, fmt::format("count {} is negative", count));
  at.p = api::lookup_predefined_type(dt);
  if (!at.p) {
    if (const char *bad = api::find_type(dt, at.held, true))
      return file_error(f, MPI_ERR_TYPE, fn, bad);
    at.p = &at.held;
  }
  if (p == Ptr::explicit_ && off < 0)
    return file_error(f, MPI_ERR_ARG, fn, fmt::format("offset {} is negative", off));
  if (write && (f->amode & MPI_MODE_RDONLY))
    return file_error(f, MPI_ERR_READ_ONLY, fn,
                      fmt::format("{} was opened MPI_MODE_RDONLY", f->path));
  if (!write && (f->amode & MPI_MODE_WRONLY))
    return file_error(f, MPI_ERR_ACCESS, fn, fmt::format("{} was opened MPI_MODE_WRONLY", f->path));
  return MPI_SUCCESS;
}

// Where an access starts (etypes), moving the file pointer it uses past it.
std::int64_t start_of(FileObject &f, Ptr p, MPI_Offset off, std::int64_t total) {
  std::int64_t n = total / f.view.et_size;
  if (p == Ptr::explicit_) return off;
  if (p == Ptr::individual) {
    std::int64_t at = f.pos;
    f.pos += n;
    return at;
  }
  return shared_fetch_add(f, n);
}

int blocking(const char *fn, MPI_File fh, Ptr p, bool write, MPI_Offset off, const void *buf,
             MPI_Count count, MPI_Datatype dt, MPI_Status *st, bool coll = false) {
  if (!api::check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = lookup_file(fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  AccessType checked;
  if (int rc = check_access(f, fn, p, write, off, count, dt, checked); rc != MPI_SUCCESS) return rc;
  const pack::TypePtr &type = checked.get();
  const View &v = f->view;
  const bool two = coll && two_phase_wanted(*f, write);
  if (!two && p != Ptr::shared && v.rep == RepKind::native && v.contiguous && !v.runs.empty() &&
      !f->knobs.atomic && type->is_contiguous()) {
    // perform()'s common case without its general machinery: a 4 KiB
    // read_at is a system call of ~1.4 us, and every 50 ns here are 3%.
    const std::int64_t at = p == Ptr::individual ? f->pos : off;
    const std::int64_t total = type->size() * count;
    const std::int64_t n = total > 0 ? direct_transfer(*f, v, write, at, buf, *type, total) : 0;
    if (n < 0) {
      std::string why;
      const int e = direct_error(*f, n, why);
      return file_error(f, e, fn, why);
    }
    if (p == Ptr::individual) f->pos = at + n / v.et_size;
    set_io_status(st, n);
    return MPI_SUCCESS;
  }
  std::int64_t total = file_bytes(v, type, count);
  if (two) {
    // (Argument errors above are the same at every process: none gets here alone.)
    std::int64_t at = p == Ptr::individual ? f->pos : off, native = 0;
    std::string why;
    int e = two_phase(*f, write, at, buf, count, dt, type, native, why);
    if (p == Ptr::individual) f->pos = at + total / f->view.et_size;
    if (e != MPI_SUCCESS) return file_error(f, e, fn, why);
    set_io_status(st, native);
    return MPI_SUCCESS;
  }
  std::int64_t at = p == Ptr::individual ? f->pos : start_of(*f, p, off, total);
  if (at < 0) return file_error(f, MPI_ERR_IO, fn, "cannot update the shared file pointer");
  Result r = perform(*f, f->view, knobs_of(*f), write, at, buf, count, dt, type);
  if (p == Ptr::individual) f->pos = at + r.file / f->view.et_size;
  if (r.err != MPI_SUCCESS) return file_error(f, r.err, fn, r.why);
  set_io_status(st, r.native);
  return MPI_SUCCESS;
}

// Collective accesses in rank order through the shared pointer.
int ordered(const char *fn, MPI_File fh, bool write, const void *buf, MPI_Count count,
            MPI_Datatype dt, MPI_Status *st) {
  if (!api::check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = lookup_file(fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  AccessType checked;
  int rc = check_access(f, fn, Ptr::shared, write, 0, count, dt, checked);
  const pack::TypePtr type = rc == MPI_SUCCESS ? checked.get() : pack::TypePtr{};
  long long n = rc == MPI_SUCCESS ? file_bytes(f->view, type, count) / f->view.et_size : 0;
  int rank = 0, size = 1;
  PMPI_Comm_rank(f->comm, &rank);
  PMPI_Comm_size(f->comm, &size);
  std::vector<long long> all(static_cast<std::size_t>(size));
  const bool by_memory = file_round(*f, &n, all.data(), 1, fn);
  if (!by_memory) PMPI_Allgather(&n, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, f->comm);
  long long before = 0, tot = 0;
  for (int i = 0; i < size; ++i) {
    if (i < rank) before += all[static_cast<std::size_t>(i)];
    tot += all[static_cast<std::size_t>(i)];
  }
  long long base = 0;
  if (rank == 0) base = shared_fetch_add(*f, tot);
  if (by_memory) {
    file_round(*f, &base, all.data(), 1, fn);  // (rank 0's)
    base = all[0];
  } else {
    PMPI_Bcast(&base, 1, MPI_LONG_LONG, 0, f->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  if (base < 0) return file_error(f, MPI_ERR_IO, fn, "cannot update the shared file pointer");
  Result r = perform(*f, f->view, knobs_of(*f), write, base + before, buf, count, dt, type);
  if (r.err != MPI_SUCCESS) return file_error(f, r.err, fn, r.why);
  set_io_status(st, r.native);
  return MPI_SUCCESS;
}

// ---- non-blocking operations: generalized requests completed by the pool
struct IoState {
  Result r;
  const char *fn = "";  // the call that started it
  int code = 0;         // the error code the completion returns (made once)
};
// A failed access's code names the call, the file and the reason
// (MPI_Error_string), as the blocking call's would; the completion call
// reports it through the file's handler (api::report_request).
int io_query(void *extra, MPI_Status *st) {
  auto &s = **static_cast<std::shared_ptr<IoState> *>(extra);
  set_io_status(st, s.r.native);
  if (s.r.err == MPI_SUCCESS || s.r.why.empty()) return s.r.err;
  if (s.code == 0) s.code = api::detailed_code(s.r.err, fmt::format("{}: {}", s.fn, s.r.why));
  return s.code;
}
int io_free(void *extra) {
  delete static_cast<std::shared_ptr<IoState> *>(extra);
  return MPI_SUCCESS;
}
int io_cancel(void *, int) {
  return MPI_SUCCESS;  // (an operation in progress runs to its end)
}

int nonblocking(const char *fn, MPI_File fh, Ptr p, bool write, MPI_Offset off, const void *buf,
                MPI_Count count, MPI_Datatype dt, MPI_Request *req, bool coll = false) {
  if (!api::check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = lookup_file(fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  if (!req) return file_error(f, MPI_ERR_ARG, fn, "request is NULL");
  AccessType checked;
  if (int rc = check_access(f, fn, p, write, off, count, dt, checked); rc != MPI_SUCCESS) return rc;
  // (A derived type the program may free meanwhile: the job holds a copy.)
  pack::TypePtr type = checked.get();
  std::int64_t total = file_bytes(f->view, type, count);
  const bool through_aggregators = coll && two_phase_wanted(*f, write);
  std::int64_t at =
      through_aggregators && p == Ptr::individual ? f->pos : start_of(*f, p, off, total);
  if (at < 0) return file_error(f, MPI_ERR_IO, fn, "cannot update the shared file pointer");
  auto state = std::make_shared<IoState>();
  state->fn = fn;
  int rc =
      PMPI_Grequest_start(io_query, io_free, io_cancel, new std::shared_ptr<IoState>(state), req);
  if (rc != MPI_SUCCESS) return file_error(f, rc, fn, "cannot make a request");
  // Completed through MPI_Grequest_complete, from whichever thread finishes
  // the access: it releases the handle if the program freed it meanwhile.
  const MPI_Request h = *req;
  // Its error goes through the file's handler (before any thread can complete it).
  api::req::find_entry(h)->owner = api::handle_value(fh);
  if (through_aggregators) {
    // A non-blocking collective on the file's communicator (collective.hpp):
    // the progress engine runs it; no I/O thread.
    if (p == Ptr::individual) f->pos = at + total / f->view.et_size;
    rc = two_phase_start(*f, write, at, buf, count, dt, type,
                         [state, h](int err, std::int64_t native, const std::string &why) {
                           state->r.err = err;
                           state->r.native = native;
                           state->r.why = why;
                           PMPI_Grequest_complete(h);  // (last: the status is written)
                         });
    if (rc != MPI_SUCCESS) {
      state->r.err = rc;
      PMPI_Grequest_complete(h);
    }
    return MPI_SUCCESS;
  }
  {
    std::lock_guard<std::mutex> lk(f->pending_mu);
    ++f->pending;
  }
  api::req::lock_tables();  // (the job completes the request from its thread)
  // A derived type the program may free meanwhile: the job holds `type`.
  auto view = std::make_shared<const View>(f->view);
  Knobs knobs = knobs_of(*f);
  g_pool.submit([state, f, view, knobs, write, at, buf, count, dt, type, h] {
    state->r = perform(*f, *view, knobs, write, at, buf, count, dt, type);
    // Completed before the file lets a close (or the finalize after it)
    // proceed: the completion touches the request table, and releases a
    // request the program freed.
    PMPI_Grequest_complete(h);  // (the status is written)
    {
      std::lock_guard<std::mutex> lk(f->pending_mu);
      --f->pending;
      f->pending_cv.notify_all();
    }
  });
  return MPI_SUCCESS;
}

// Split collectives: the operation runs at _begin, _end hands its status over.
int split_begin(const char *fn, MPI_File fh, Ptr p, bool write, MPI_Offset off, const void *buf,
                MPI_Count count, MPI_Datatype dt, bool is_ordered) {
  if (!api::check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = lookup_file(fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  if (f->split_active)
    return file_error(f, MPI_ERR_OTHER, fn, "a split collective is already active on this file");
  f->split_active = true;
  f->split_buf = buf;
  f->split_status = MPI_Status{};
  f->split_err = is_ordered
                     ? ordered(fn, fh, write, buf, count, dt, &f->split_status)
                     : blocking(fn, fh, p, write, off, buf, count, dt, &f->split_status, true);
  return MPI_SUCCESS;
}
int split_end(const char *fn, MPI_File fh, const void *buf, MPI_Status *st) {
  if (!api::check_initialized(fn)) return MPI_ERR_OTHER;
  FileObject *f = lookup_file(fh);
  if (!f) return file_error(nullptr, MPI_ERR_FILE, fn, "not a valid file handle");
  if (!f->split_active) return file_error(f, MPI_ERR_OTHER, fn, "no split collective is active");
  if (buf != f->split_buf)
    return file_error(f, MPI_ERR_BUFFER, fn, "not the buffer the split collective began with");
  f->split_active = false;
  if (st != MPI_STATUS_IGNORE) {
    int keep = st->MPI_ERROR;
    *st = f->split_status;
    st->MPI_ERROR = keep;
  }
  return f->split_err;
}

}  // namespace
}  // namespace impi::io

using impi::io::blocking;
using impi::io::nonblocking;
using impi::io::ordered;
using impi::io::Ptr;
using impi::io::split_begin;
using impi::io::split_end;

extern "C" {

// ---- explicit offsets
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                      MPI_Status *status) {
  return blocking("MPI_File_read_at", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                  status);
}

int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_read_at_c", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                  status);
}
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_read_at_all", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                  status, true);
}

int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_read_at_all_c", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                  status, true);
}
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_write_at", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                  status);
}

int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_write_at_c", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                  status);
}
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_write_at_all", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                  status, true);
}

int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_write_at_all_c", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                  status, true);
}
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                       MPI_Request *request) {
  return nonblocking("MPI_File_iread_at", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                     request);
}

int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iread_at_c", fh, Ptr::explicit_, false, offset, buf, count, datatype,
                     request);
}
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iread_at_all", fh, Ptr::explicit_, false, offset, buf, count,
                     datatype, request, true);
}

int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iread_at_all_c", fh, Ptr::explicit_, false, offset, buf, count,
                     datatype, request, true);
}
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_at", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                     request);
}

int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_at_c", fh, Ptr::explicit_, true, offset, buf, count, datatype,
                     request);
}
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_at_all", fh, Ptr::explicit_, true, offset, buf, count,
                     datatype, request, true);
}

int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_at_all_c", fh, Ptr::explicit_, true, offset, buf, count,
                     datatype, request, true);
}
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype) {
  return split_begin("MPI_File_read_at_all_begin", fh, Ptr::explicit_, false, offset, buf, count,
                     datatype, false);
}

int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                  MPI_Datatype datatype) {
  return split_begin("MPI_File_read_at_all_begin_c", fh, Ptr::explicit_, false, offset, buf, count,
                     datatype, false);
}
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status) {
  return split_end("MPI_File_read_at_all_end", fh, buf, status);
}
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype) {
  return split_begin("MPI_File_write_at_all_begin", fh, Ptr::explicit_, true, offset, buf, count,
                     datatype, false);
}

int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype) {
  return split_begin("MPI_File_write_at_all_begin_c", fh, Ptr::explicit_, true, offset, buf, count,
                     datatype, false);
}
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status) {
  return split_end("MPI_File_write_at_all_end", fh, buf, status);
}

// ---- individual file pointers
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  return blocking("MPI_File_read", fh, Ptr::individual, false, 0, buf, count, datatype, status);
}

int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Status *status) {
  return blocking("MPI_File_read_c", fh, Ptr::individual, false, 0, buf, count, datatype, status);
}
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status) {
  return blocking("MPI_File_read_all", fh, Ptr::individual, false, 0, buf, count, datatype, status,
                  true);
}

int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status) {
  return blocking("MPI_File_read_all_c", fh, Ptr::individual, false, 0, buf, count, datatype,
                  status, true);
}
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                    MPI_Status *status) {
  return blocking("MPI_File_write", fh, Ptr::individual, true, 0, buf, count, datatype, status);
}

int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Status *status) {
  return blocking("MPI_File_write_c", fh, Ptr::individual, true, 0, buf, count, datatype, status);
}
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Status *status) {
  return blocking("MPI_File_write_all", fh, Ptr::individual, true, 0, buf, count, datatype, status,
                  true);
}

int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Status *status) {
  return blocking("MPI_File_write_all_c", fh, Ptr::individual, true, 0, buf, count, datatype,
                  status, true);
}
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                    MPI_Request *request) {
  return nonblocking("MPI_File_iread", fh, Ptr::individual, false, 0, buf, count, datatype,
                     request);
}

int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Request *request) {
  return nonblocking("MPI_File_iread_c", fh, Ptr::individual, false, 0, buf, count, datatype,
                     request);
}
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request) {
  return nonblocking("MPI_File_iread_all", fh, Ptr::individual, false, 0, buf, count, datatype,
                     request, true);
}

int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request) {
  return nonblocking("MPI_File_iread_all_c", fh, Ptr::individual, false, 0, buf, count, datatype,
                     request, true);
}
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                     MPI_Request *request) {
  return nonblocking("MPI_File_iwrite", fh, Ptr::individual, true, 0, buf, count, datatype,
                     request);
}

int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_c", fh, Ptr::individual, true, 0, buf, count, datatype,
                     request);
}
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                         MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_all", fh, Ptr::individual, true, 0, buf, count, datatype,
                     request, true);
}

int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_all_c", fh, Ptr::individual, true, 0, buf, count, datatype,
                     request, true);
}
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_all_begin", fh, Ptr::individual, false, 0, buf, count, datatype,
                     false);
}

int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_all_begin_c", fh, Ptr::individual, false, 0, buf, count,
                     datatype, false);
}
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status) {
  return split_end("MPI_File_read_all_end", fh, buf, status);
}
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_write_all_begin", fh, Ptr::individual, true, 0, buf, count, datatype,
                     false);
}

int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype) {
  return split_begin("MPI_File_write_all_begin_c", fh, Ptr::individual, true, 0, buf, count,
                     datatype, false);
}
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status) {
  return split_end("MPI_File_write_all_end", fh, buf, status);
}

// ---- shared file pointers
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status) {
  return blocking("MPI_File_read_shared", fh, Ptr::shared, false, 0, buf, count, datatype, status);
}

int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status) {
  return blocking("MPI_File_read_shared_c", fh, Ptr::shared, false, 0, buf, count, datatype,
                  status);
}
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status) {
  return blocking("MPI_File_write_shared", fh, Ptr::shared, true, 0, buf, count, datatype, status);
}

int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status) {
  return blocking("MPI_File_write_shared_c", fh, Ptr::shared, true, 0, buf, count, datatype,
                  status);
}
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request) {
  return nonblocking("MPI_File_iread_shared", fh, Ptr::shared, false, 0, buf, count, datatype,
                     request);
}

int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request) {
  return nonblocking("MPI_File_iread_shared_c", fh, Ptr::shared, false, 0, buf, count, datatype,
                     request);
}
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_shared", fh, Ptr::shared, true, 0, buf, count, datatype,
                     request);
}

int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request) {
  return nonblocking("MPI_File_iwrite_shared_c", fh, Ptr::shared, true, 0, buf, count, datatype,
                     request);
}
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status) {
  return ordered("MPI_File_read_ordered", fh, false, buf, count, datatype, status);
}

int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status) {
  return ordered("MPI_File_read_ordered_c", fh, false, buf, count, datatype, status);
}
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Status *status) {
  return ordered("MPI_File_write_ordered", fh, true, buf, count, datatype, status);
}

int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Status *status) {
  return ordered("MPI_File_write_ordered_c", fh, true, buf, count, datatype, status);
}
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_ordered_begin", fh, Ptr::shared, false, 0, buf, count, datatype,
                     true);
}

int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_ordered_begin_c", fh, Ptr::shared, false, 0, buf, count,
                     datatype, true);
}
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status) {
  return split_end("MPI_File_read_ordered_end", fh, buf, status);
}
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_write_ordered_begin", fh, Ptr::shared, true, 0, buf, count, datatype,
                     true);
}

int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                    MPI_Datatype datatype) {
  return split_begin("MPI_File_write_ordered_begin_c", fh, Ptr::shared, true, 0, buf, count,
                     datatype, true);
}
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status) {
  return split_end("MPI_File_write_ordered_end", fh, buf, status);
}

}  // extern "C"

#include "io/generated/access_aliases.inc"
