// ring.hpp - a single-producer single-consumer record ring in shared memory.
//
// Position independent: only offsets and counters live in the mapping.
// Records start on 64-byte lines and are whole lines long. The first 8
// bytes of a record are its *stamp*: the record's logical offset plus one,
// stored last by the producer. The consumer polls the stamp at its read
// position, so a small record costs one cache-line transfer: the line
// that carries the data also carries the notice that it is there (no
// shared `head` counter to poll).
//
// A stale stamp can never look valid: the consumer zeroes the stamp slot
// of every line of a record it has consumed before it hands the space
// back, so each line start holds 0 or a real stamp. (Payload bytes of an
// older lap can sit where a later record starts; they are cleared. A
// record's own stamp names its lap and could stay, but clearing it
// measured faster: without, 1-64 B streams lost 5% and exchanges 20-28%.)
//
// `tail` (bytes consumed, monotonic) is the only shared counter: the
// consumer stores it once per batch, the producer re-reads it only when
// its cached value leaves too little room.
//
// Memory order: stamp and tail stores are release, their loads acquire
// (plain moves on x86). A seq_cst store would drain the store buffer, which
// waits for the line the consumer is polling to come back: a producer
// streaming small messages would stall on every record. The price is paid
// by the sleep protocol (segment.hpp), which therefore bounds a missed
// wake-up by short, growing sleep timeouts.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "base/copy.hpp"

namespace impi::transport::shm {

constexpr std::uint64_t kLine = 64;
constexpr std::uint64_t pad_line(std::uint64_t n) {
  return (n + kLine - 1) & ~(kLine - 1);
}

struct alignas(64) RingCounters {
  alignas(64) std::atomic<std::uint64_t> tail;  // bytes ever consumed (consumer)
  // A large message copied by both sides (see P2P::read_remote): the
  // consumer offers the second half of a message to its producer here.
  // On a line of its own, away from `tail`, which changes all the time.
  struct Split {
    alignas(64) std::atomic<std::uint64_t> state;  // 0, or (id << 3) | one of the k* below
    std::uint64_t to;                              // consumer's address of the part offered
    std::uint64_t from;                            // offset of that part in the message
    std::uint64_t len;                             // its length
    static constexpr std::uint64_t kOffered = 1, kTaken = 2, kDone = 3, kFailed = 4;
  } split;
};
static_assert(sizeof(RingCounters) == 128);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "shared-memory counters must be lock free");

// A view of one ring: counters and `capacity` data bytes, both inside a
// mapping, the data 64-byte aligned. Each side keeps its own position in
// its view (not shared).
class Ring {
 public:
  static constexpr std::uint64_t kStamp = 8;  // bytes of the stamp at a record's start

  Ring() = default;
  Ring(RingCounters *c, std::byte *data, std::uint64_t capacity)
      : c_(c), data_(data), cap_(capacity), mask_(capacity - 1) {}

  std::uint64_t capacity() const { return cap_; }
  RingCounters &counters() const { return *c_; }

  // ---- producer ----
  // Whether a record of `rec` bytes (a multiple of kLine) fits now.
  bool has_room(std::uint64_t rec) {
    if (cap_ - (head_ - cached_tail_) >= rec) return true;
    reload_tail();
    return cap_ - (head_ - cached_tail_) >= rec;
  }
  // Re-reads `tail`. When the consumer has moved it since our last look,
  // its line came from the consumer's core: the load's duration says how
  // far apart the two cores are (see far()).
  // (Timed only here, when the cached tail leaves too little room, and at
  // an exchange's decision: a stream of sends that the consumer keeps up
  // with never reloads.)
  void reload_tail() {
    const std::uint64_t t0 = fenced_tsc();
    const std::uint64_t t = c_->tail.load(std::memory_order_acquire);
    const std::uint64_t t1 = fenced_tsc();
    if (t != cached_tail_) note_moved_tail_load(t1 - t0);
    cached_tail_ = t;
  }
  // Whether the consumer's core is far from ours: a line it wrote takes
  // long to come (different caches; this workplace's VM switches between
  // two cores that share one and two that do not). Of the recent loads of
  // a moved `tail`, more than a quarter took far_cycles or more TSC cycles
  // (measured in bibw: sharing, 1-5% of them; not sharing, 55-65%, at
  // 350-500).
  bool far() const { return far_cycles == 0 || (loads_ >= 16 && far_loads_ * 4 > loads_); }
  static inline std::uint64_t far_cycles = 300;  // IMPI_SHM_FAR_CYCLES
  // One load of a moved `tail` that took `cycles` (for far()).
  void note_moved_tail_load(std::uint64_t cycles) {
    ++loads_;
    if (cycles >= far_cycles) ++far_loads_;
    if (loads_ == 64) loads_ /= 2, far_loads_ /= 2;  // the recent ones count
  }
  // Copies `bytes` at offset `at` (>= kStamp) into the record being built.
  void write_at(std::uint64_t at, std::span<const std::byte> bytes) {
    if (bytes.empty()) return;  // (memcpy from a null pointer is undefined, even of 0 bytes)
    std::uint64_t pos = (head_ + at) & mask_;
    std::uint64_t first = std::min<std::uint64_t>(bytes.size(), cap_ - pos);
    base::copy_small(data_ + pos, bytes.data(), first);
    if (first < bytes.size()) std::memcpy(data_, bytes.data() + first, bytes.size() - first);
  }
  // Copies a small object at offset `at` (a multiple of 8): one inlined
  // copy unless it straddles the wrap point.
  template <typename T>
  void put(std::uint64_t at, const T &obj) {
    std::uint64_t pos = (head_ + at) & mask_;
    if (pos + sizeof(T) <= cap_)
      std::memcpy(data_ + pos, &obj, sizeof(T));
    else
      write_at(at, std::as_bytes(std::span(&obj, 1)));
  }
  // A writable window at offset `at` of the record being built, of up to
  // `n` bytes before the wrap point (for packing straight into the ring).
  std::span<std::byte> window(std::uint64_t at, std::uint64_t n) {
    std::uint64_t pos = (head_ + at) & mask_;
    return {data_ + pos, static_cast<std::size_t>(std::min(n, cap_ - pos))};
  }
  // Makes the record of `rec` bytes visible: stores its stamp.
  void publish(std::uint64_t rec) {
    stamp_at(head_).store(head_ + 1, std::memory_order_release);
    head_ += rec;
  }
  // Asks for the next `lines` lines (only space the consumer has handed
  // back) with intent to write. For a sender in a stream of small records:
  // the consumer cleared those lines a lap ago, and each store would
  // otherwise wait for its line to come back from the consumer's core.
  // From the head's own line, and again on every record: a consumer that
  // has caught up polls the line at the head and so takes it back (from
  // the line after the head, the gain measured a tenth as large; asking
  // each line only once, two thirds as large for 8-byte messages).
  void prefetch_ahead(std::uint64_t lines) {
    const std::uint64_t end = std::min(head_ + lines * kLine, cached_tail_ + cap_);
    for (std::uint64_t at = head_; at < end; at += kLine) prefetch_write(data_ + (at & mask_));
  }

  // ---- consumer ----
  // Whether a record starts at the read position.
  bool ready() const { return ready_at(pos_); }
  // Whether a record starts at `pos` (reads only the ring: other threads
  // may ask, given a position they learnt).
  bool ready_at(std::uint64_t pos) const {
    return stamp_at(pos).load(std::memory_order_acquire) == pos + 1;
  }
  std::uint64_t position() const { return pos_; }
  // Copies out `n` bytes at offset `at` of the current record.
  void read_at(std::uint64_t at, std::byte *out, std::uint64_t n) const {
    if (n == 0) return;
    std::uint64_t pos = pos_ + at;
    std::uint64_t first = std::min(n, cap_ - (pos & mask_));
    std::memcpy(out, data_ + (pos & mask_), first);
    std::memcpy(out + first, data_, n - first);
  }
  // Reads a small object at offset `at` of the current record.
  template <typename T>
  void get(std::uint64_t at, T &obj) const {
    std::uint64_t pos = (pos_ + at) & mask_;
    if (pos + sizeof(T) <= cap_)
      std::memcpy(&obj, data_ + pos, sizeof(T));
    else
      read_at(at, reinterpret_cast<std::byte *>(&obj), sizeof(T));
  }
  // A readable window at offset `at` of the current record, up to the wrap point.
  std::span<const std::byte> read_window(std::uint64_t at, std::uint64_t n) const {
    std::uint64_t pos = (pos_ + at) & mask_;
    return {data_ + pos, static_cast<std::size_t>(std::min(n, cap_ - pos))};
  }
  // Done with the current record of `rec` bytes: clears the stamp slot of
  // each of its lines and moves on (the space returns at release()).
  void consume(std::uint64_t rec) {
    for (std::uint64_t off = 0; off < rec; off += kLine)
      stamp_at(pos_ + off).store(0, std::memory_order_relaxed);
    pos_ += rec;
  }
  // Hands the consumed space back to the producer; true if there was any.
  bool release() {
    if (pos_ == released_) return false;
    c_->tail.store(pos_, std::memory_order_release);
    released_ = pos_;
    return true;
  }

 private:
  std::atomic_ref<std::uint64_t> stamp_at(std::uint64_t logical) const {
    return std::atomic_ref<std::uint64_t>(
        *reinterpret_cast<std::uint64_t *>(data_ + (logical & mask_)));
  }

  // The TSC, with earlier and later loads kept outside (x86-64; elsewhere
  // 0: no load is ever far, and exchanges keep the ring).
  static std::uint64_t fenced_tsc() {
#if defined(__x86_64__)
    std::uint32_t lo, hi;
    asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
    return (std::uint64_t{hi} << 32) | lo;
#else
    return 0;
#endif
  }

  static void prefetch_write(const void *p) {
#if defined(__x86_64__)
    asm volatile("prefetchw %0" ::"m"(*static_cast<const char *>(p)));
#else
    __builtin_prefetch(p, 1);
#endif
  }

  RingCounters *c_ = nullptr;
  std::byte *data_ = nullptr;
  std::uint64_t cap_ = 0, mask_ = 0;
  std::uint64_t head_ = 0;         // producer: bytes ever written
  std::uint64_t cached_tail_ = 0;  // producer: last view of `tail` (never ahead of it)
  std::uint32_t loads_ = 0;        // producer: recent loads of a moved `tail` (reload_tail)
  std::uint32_t far_loads_ = 0;    // those that took far_cycles or more
  std::uint64_t pos_ = 0;          // consumer: read position
  std::uint64_t released_ = 0;     // consumer: last `tail` stored
};

}  // namespace impi::transport::shm
