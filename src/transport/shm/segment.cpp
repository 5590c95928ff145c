#include "transport/shm/segment.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <new>
#include <utility>

#include "base/fd.hpp"

namespace impi::transport::shm {

using base::Errc;

namespace {
std::size_t layout_bytes(std::uint32_t nrings, std::uint64_t ring_bytes, std::uint64_t &rings_off) {
  rings_off = (sizeof(SegmentHeader) + 63) / 64 * 64;
  return rings_off + nrings * (sizeof(RingCounters) + ring_bytes);
}
long futex(std::atomic<std::uint32_t> *addr, int op, std::uint32_t val, const timespec *ts) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(addr), op, val, ts, nullptr, 0);
}
}  // namespace

base::Result<std::uint64_t> plan_rings(int nlocal, std::int64_t set, std::int64_t budget) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  const std::uint64_t phys =
      pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                            : std::uint64_t{1} << 34;
  const auto n = static_cast<std::uint64_t>(std::max(nlocal, 1));
  std::uint64_t ring = static_cast<std::uint64_t>(set);
  if (set != 0) {
    if (set < 4096 || (ring & (ring - 1)) != 0)
      return {Errc::invalid_argument,
              fmt::format("IMPI_SHM_RING_BYTES={} is not a power of two >= 4096", set)};
  } else {
    const std::uint64_t limit = std::min<std::uint64_t>(
        static_cast<std::uint64_t>(std::max<std::int64_t>(budget, 0)), phys / 8);
    // 512 KiB: with 1 MiB, a 64-message window of 8 KiB each way left
    // the data in flight beyond the L2 cache (bibw 8 KiB: 9-13 GB/s
    // against 40-45 GB/s with 512 KiB; 32-64 KiB streams lost 5%).
    ring = std::uint64_t{1} << 19;
    while (ring > 16 * 1024 && n * n * ring > limit) ring /= 2;
  }
  struct statvfs fs {};
  const std::uint64_t shm_free = ::statvfs("/dev/shm", &fs) == 0
                                     ? static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize
                                     : phys;
  const std::uint64_t need = n * n * ring;
  if (need > std::min(phys / 2, shm_free))
    return {Errc::no_memory,
            fmt::format("{} procs on one host need {} MiB of shared memory ({} rings of {} KiB); "
                        "this machine has {} MiB of memory and {} MiB free in /dev/shm: start "
                        "fewer procs per host",
                        n, need >> 20, n * n, ring >> 10, phys >> 20, shm_free >> 20)};
  return ring;
}

Segment::Segment(Segment &&o) noexcept
    : name_(std::move(o.name_)),
      owner_(std::exchange(o.owner_, false)),
      base_(std::exchange(o.base_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)),
      hdr_(std::exchange(o.hdr_, nullptr)) {}

Segment &Segment::operator=(Segment &&o) noexcept {
  if (this != &o) {
    this->~Segment();
    new (this) Segment(std::move(o));
  }
  return *this;
}

Segment::~Segment() {
  unlink();
  if (base_) ::munmap(base_, bytes_);
}

void Segment::unlink() {
  if (owner_) ::shm_unlink(name_.c_str());
  owner_ = false;
}

base::Result<Segment> Segment::create(const std::string &name, std::uint32_t nrings,
                                      std::uint64_t ring_bytes) {
  if (ring_bytes == 0 || (ring_bytes & (ring_bytes - 1)) != 0)
    return {Errc::invalid_argument, "ring size must be a power of two"};
  std::uint64_t rings_off = 0;
  std::size_t bytes = layout_bytes(nrings, ring_bytes, rings_off);
  base::Fd fd(::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600));
  if (!fd) return {Errc::io_error, fmt::format("shm_open({}): {}", name, std::strerror(errno))};
  Segment s;
  s.name_ = name;
  s.owner_ = true;  // from here the destructor unlinks on any failure
  if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0)
    return {Errc::io_error,
            fmt::format("sizing {} to {} bytes: {}", name, bytes, std::strerror(errno))};
  // MAP_POPULATE: page faults now, not on the first lap of each ring (they
  // cost the first thousands of messages about a third of their latency).
  void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd.get(), 0);
  if (p == MAP_FAILED)
    return {Errc::io_error, fmt::format("mmap {}: {}", name, std::strerror(errno))};
  s.base_ = p;
  s.bytes_ = bytes;
  s.hdr_ = new (p) SegmentHeader{};
  s.hdr_->nrings = nrings;
  s.hdr_->ring_bytes = ring_bytes;
  s.hdr_->rings_offset = rings_off;
  for (std::uint32_t i = 0; i < nrings; ++i) {
    auto *c = reinterpret_cast<RingCounters *>(static_cast<std::byte *>(p) + rings_off +
                                               i * (sizeof(RingCounters) + ring_bytes));
    new (c) RingCounters{};
  }
  s.hdr_->version = SegmentHeader::kVersion;
  // The magic goes last: a peer that sees it sees an initialized header.
  s.hdr_->magic.store(SegmentHeader::kMagic, std::memory_order_release);
  return s;
}

base::Result<Segment> Segment::open(const std::string &name) {
  base::Fd fd(::shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0));
  if (!fd) return {Errc::io_error, fmt::format("shm_open({}): {}", name, std::strerror(errno))};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || st.st_size < static_cast<off_t>(sizeof(SegmentHeader)))
    return {Errc::protocol_error, fmt::format("{} is too small to be a segment", name)};
  std::size_t bytes = static_cast<std::size_t>(st.st_size);
  // MAP_POPULATE: page faults now, not on the first lap of each ring (they
  // cost the first thousands of messages about a third of their latency).
  void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd.get(), 0);
  if (p == MAP_FAILED)
    return {Errc::io_error, fmt::format("mmap {}: {}", name, std::strerror(errno))};
  Segment s;
  s.name_ = name;
  s.base_ = p;
  s.bytes_ = bytes;
  s.hdr_ = static_cast<SegmentHeader *>(p);
  std::uint64_t off = 0;
  if (s.hdr_->magic.load(std::memory_order_acquire) != SegmentHeader::kMagic ||
      s.hdr_->version != SegmentHeader::kVersion ||
      layout_bytes(s.hdr_->nrings, s.hdr_->ring_bytes, off) > bytes || off != s.hdr_->rings_offset)
    return {Errc::protocol_error,
            fmt::format("{} is not an impi segment of version {}", name, SegmentHeader::kVersion)};
  return s;
}

Ring Segment::ring(std::uint32_t i) {
  auto *p = static_cast<std::byte *>(base_) + hdr_->rings_offset +
            i * (sizeof(RingCounters) + hdr_->ring_bytes);
  return Ring(reinterpret_cast<RingCounters *>(p), p + sizeof(RingCounters), hdr_->ring_bytes);
}

void Segment::ring_doorbell(bool dozers) {
  // Against prepare_sleep(): the sleeper counts itself in `sleeping` (an
  // atomic read-modify-write, a full barrier), then looks at its rings once
  // more. Our record was published with a release store, not a barrier, so
  // this load may be answered before the record is visible: if the sleeper
  // registers and looks in exactly that window (the time our store takes to
  // leave the store buffer), it sleeps without a wake-up from us. Its sleep
  // times out then (P2P::wait_until starts with 50 us and grows), so a
  // missed wake-up costs at most that delay, never progress; and a busy
  // receiver costs the sender no barrier at all. (The same window can hide
  // a record from a proc that reads stalled(): it then polls instead of
  // yielding for at most its budget, IMPI_COLL_SIBLING_SPIN_US.)
  const bool sleepers = hdr_->sleeping.load(std::memory_order_acquire) != 0;
  if (!sleepers && (!dozers || hdr_->dozing.load(std::memory_order_relaxed) == 0)) return;
  hdr_->doorbell.fetch_add(1, std::memory_order_relaxed);
  if (!sleepers) return;  // dozers poll: no futex call
  // Every sleeper: with several threads waiting, the one a message is for
  // may not be the one the kernel would pick.
  futex(&hdr_->doorbell, FUTEX_WAKE, INT_MAX, nullptr);
}

std::uint32_t Segment::prepare_sleep() {
  std::uint32_t seen = hdr_->doorbell.load(std::memory_order_relaxed);
  hdr_->sleeping.fetch_add(1, std::memory_order_seq_cst);  // a count: threads sleep too
  return seen;
}

void Segment::sleep(std::uint32_t seen, int timeout_us) {
  timespec ts{0, static_cast<long>(timeout_us) * 1000};
  futex(&hdr_->doorbell, FUTEX_WAIT, seen, &ts);
  hdr_->sleeping.fetch_sub(1, std::memory_order_relaxed);
}

void Segment::cancel_sleep() {
  hdr_->sleeping.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace impi::transport::shm
