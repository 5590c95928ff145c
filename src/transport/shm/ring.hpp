// ring.hpp - a single-producer single-consumer byte ring in shared memory.
//
// Position independent: only offsets and counters live in the mapping.
// The producer owns `head`, the consumer owns `tail`; both are monotonic
// byte counters (wrap-around is by modulo of the power-of-two capacity).
// Memory ordering: the producer writes a record, then publishes it with a
// store of `head`; the consumer's load of `head` makes the record visible.
// Symmetrically, the consumer stores `tail` after it is done with the
// bytes, and the producer loads `tail` before reusing them. These four are
// seq_cst rather than release/acquire: the sleep protocol (segment.hpp) is
// a Dekker handshake between a counter store and a load of `sleeping`,
// which needs store-load order (on x86 a seq_cst store is one xchg; loads
// stay plain moves).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace impi::transport::shm {

struct alignas(64) RingCounters {
  alignas(64) std::atomic<std::uint64_t> head;  // bytes ever written (producer)
  alignas(64) std::atomic<std::uint64_t> tail;  // bytes ever consumed (consumer)
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "shared-memory counters must be lock free");

// A view of one ring: counters and `capacity` data bytes, both inside a mapping.
class Ring {
 public:
  Ring() = default;
  Ring(RingCounters *c, std::byte *data, std::uint64_t capacity)
      : c_(c), data_(data), cap_(capacity), mask_(capacity - 1) {}

  std::uint64_t capacity() const { return cap_; }

  // Producer: whether `need` bytes are free. The consumer's counter is
  // re-read only when the last value seen leaves too little room, so a
  // producer that is ahead does not pull the consumer's cache line.
  bool has_room(std::uint64_t need) {
    std::uint64_t head = c_->head.load(std::memory_order_relaxed);
    if (cap_ - (head - cached_tail_) >= need) return true;
    cached_tail_ = c_->tail.load(std::memory_order_seq_cst);
    return cap_ - (head - cached_tail_) >= need;
  }
  // Producer: copies `bytes` at logical offset `at` past the current head
  // (not yet published). Caller checked has_room().
  void write_at(std::uint64_t at, std::span<const std::byte> bytes) {
    copy_in(c_->head.load(std::memory_order_relaxed) + at, bytes.data(), bytes.size());
  }
  // Producer: a writable window at offset `at` past head, of up to `n` bytes
  // before the wrap point (for packing straight into the ring).
  std::span<std::byte> window(std::uint64_t at, std::uint64_t n) {
    std::uint64_t pos = (c_->head.load(std::memory_order_relaxed) + at) & mask_;
    return {data_ + pos, static_cast<std::size_t>(std::min(n, cap_ - pos))};
  }
  // Producer: makes `n` more bytes visible to the consumer.
  void publish(std::uint64_t n) {
    c_->head.store(c_->head.load(std::memory_order_relaxed) + n, std::memory_order_seq_cst);
  }

  // Consumer: bytes available.
  std::uint64_t available() const {
    return c_->head.load(std::memory_order_seq_cst) - c_->tail.load(std::memory_order_relaxed);
  }
  // Consumer: copies out `n` bytes at offset `at` past the tail.
  void read_at(std::uint64_t at, std::byte *out, std::uint64_t n) const {
    std::uint64_t pos = c_->tail.load(std::memory_order_relaxed) + at;
    std::uint64_t first = std::min(n, cap_ - (pos & mask_));
    std::memcpy(out, data_ + (pos & mask_), first);
    std::memcpy(out + first, data_, n - first);
  }
  // Consumer: a readable window at offset `at` past tail, up to the wrap point.
  std::span<const std::byte> read_window(std::uint64_t at, std::uint64_t n) const {
    std::uint64_t pos = (c_->tail.load(std::memory_order_relaxed) + at) & mask_;
    return {data_ + pos, static_cast<std::size_t>(std::min(n, cap_ - pos))};
  }
  // Consumer: releases `n` bytes to the producer.
  void consume(std::uint64_t n) {
    c_->tail.store(c_->tail.load(std::memory_order_relaxed) + n, std::memory_order_seq_cst);
  }

 private:
  void copy_in(std::uint64_t pos, const std::byte *src, std::size_t n) {
    std::uint64_t first = std::min<std::uint64_t>(n, cap_ - (pos & mask_));
    std::memcpy(data_ + (pos & mask_), src, first);
    std::memcpy(data_, src + first, n - first);
  }

  RingCounters *c_ = nullptr;
  std::byte *data_ = nullptr;
  std::uint64_t cap_ = 0, mask_ = 0;
  std::uint64_t cached_tail_ = 0;  // producer's last view of `tail` (never ahead of it)
};

}  // namespace impi::transport::shm
