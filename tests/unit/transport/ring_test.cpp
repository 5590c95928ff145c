// Tests of the shared-memory record ring: records cross the wrap point
// intact, a full ring refuses records, stale bytes of an older lap never
// look like a record, and a producer thread and a consumer thread stream
// many records of random sizes with their contents checked.
#include "transport/shm/ring.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

using impi::transport::shm::pad_line;
using impi::transport::shm::Ring;
using impi::transport::shm::RingCounters;

namespace {
struct Mem {
  static constexpr std::size_t kCounterLines = sizeof(RingCounters) / 64;
  explicit Mem(std::uint64_t cap) : data(cap / 64 + kCounterLines) {}
  RingCounters *counters() { return reinterpret_cast<RingCounters *>(&data[0]); }
  std::byte *bytes() { return reinterpret_cast<std::byte *>(&data[kCounterLines]); }
  struct alignas(64) Line {
    std::byte b[64];
  };
  std::vector<Line> data{};
};

// A record: stamp, 8-byte length, then `len` bytes of a pattern from `seed`.
std::uint64_t put(Ring &r, std::uint64_t len, std::uint64_t seed) {
  std::uint64_t rec = pad_line(16 + len);
  if (!r.has_room(rec)) return 0;
  r.write_at(8, std::as_bytes(std::span(&len, 1)));
  std::vector<std::byte> payload(len);
  for (std::uint64_t i = 0; i < len; ++i)
    payload[i] = std::byte(static_cast<unsigned char>(seed + i * 7));
  r.write_at(16, payload);
  r.publish(rec);
  return rec;
}

bool take(Ring &r, std::uint64_t seed, std::uint64_t *len_out = nullptr) {
  if (!r.ready()) return false;
  std::uint64_t len = 0;
  r.read_at(8, reinterpret_cast<std::byte *>(&len), 8);
  std::vector<std::byte> got(len);
  r.read_at(16, got.data(), len);
  for (std::uint64_t i = 0; i < len; ++i)
    if (got[i] != std::byte(static_cast<unsigned char>(seed + i * 7)))
      FAIL("payload byte " << i << " differs");
  r.consume(pad_line(16 + len));
  r.release();
  if (len_out) *len_out = len;
  return true;
}
}  // namespace

TEST_CASE("ring: records in order, across the wrap point", "[ring]") {
  Mem m(4096);
  Ring prod(m.counters(), m.bytes(), 4096), cons(m.counters(), m.bytes(), 4096);
  CHECK_FALSE(cons.ready());  // a fresh (zeroed) ring holds nothing
  for (std::uint64_t i = 0; i < 200; ++i) {
    std::uint64_t len = (i * 37) % 900;
    REQUIRE(put(prod, len, i) != 0);
    std::uint64_t got = 0;
    REQUIRE(take(cons, i, &got));
    CHECK(got == len);
    CHECK_FALSE(cons.ready());
  }
}

TEST_CASE("ring: a full ring refuses records until the consumer releases", "[ring]") {
  Mem m(4096);
  Ring prod(m.counters(), m.bytes(), 4096), cons(m.counters(), m.bytes(), 4096);
  int n = 0;
  while (put(prod, 200, static_cast<std::uint64_t>(n)) != 0) ++n;
  CHECK(n == 4096 / 256);
  CHECK_FALSE(prod.has_room(256));
  REQUIRE(take(cons, 0));
  CHECK(prod.has_room(256));
  for (int i = 1; i < n; ++i) REQUIRE(take(cons, static_cast<std::uint64_t>(i)));
  CHECK_FALSE(cons.ready());
}

TEST_CASE("ring: payload of an older lap that looks like a stamp is not a record", "[ring]") {
  Mem m(4096);
  Ring prod(m.counters(), m.bytes(), 4096), cons(m.counters(), m.bytes(), 4096);
  // One big record whose payload holds, at every line start, exactly the
  // stamp a record at that place would carry one lap later.
  std::uint64_t len = 4096 - 64;
  std::vector<std::uint64_t> words(len / 8);
  for (std::uint64_t w = 0; w < words.size(); ++w) {
    std::uint64_t at = 16 + w * 8;  // offset in the ring (the record starts at 0)
    words[w] = (at % 64 == 0) ? 4096 + at + 1 : 0;
  }
  REQUIRE(prod.has_room(4096));
  prod.write_at(8, std::as_bytes(std::span(&len, 1)));
  prod.write_at(16, std::as_bytes(std::span(words)));
  prod.publish(4096);
  REQUIRE(cons.ready());
  cons.consume(4096);
  cons.release();
  // Next lap: one small record at 0; the consumer must then see nothing at 64.
  REQUIRE(put(prod, 8, 1) == 64);
  REQUIRE(take(cons, 1));
  CHECK_FALSE(cons.ready());
}

TEST_CASE("ring: the stamp a record left one lap before is not a record", "[ring]") {
  // The consumer leaves a record's own stamp in place (only the lines after
  // it are cleared): that stamp names its lap, so it never looks valid later.
  Mem m(4096);
  Ring prod(m.counters(), m.bytes(), 4096), cons(m.counters(), m.bytes(), 4096);
  for (int lap = 0; lap < 3; ++lap) {
    for (std::uint64_t i = 0; i < 4096 / 64; ++i) {
      REQUIRE(put(prod, 8, i) == 64);  // one line each: the whole ring
      REQUIRE(take(cons, i));
    }
    CHECK_FALSE(cons.ready());  // at 0 again: last lap's stamp is there
    REQUIRE(put(prod, 40, 99) == 64);
    CHECK_FALSE(cons.ready_at(cons.position() + 64));
    REQUIRE(take(cons, 99));
  }
}

TEST_CASE("ring: a producer thread and a consumer thread stream 100000 records", "[ring]") {
  constexpr std::uint64_t kCap = 1 << 16;
  Mem m(kCap);
  Ring prod(m.counters(), m.bytes(), kCap), cons(m.counters(), m.bytes(), kCap);
  constexpr int kRecords = 100000;
  std::thread producer([&] {
    std::mt19937 rng(7);
    for (int i = 0; i < kRecords;) {
      std::uint64_t len = rng() % 3000;
      if (put(prod, len, static_cast<std::uint64_t>(i)) != 0)
        ++i;
      else
        std::this_thread::yield();
    }
  });
  for (int i = 0; i < kRecords;) {
    if (take(cons, static_cast<std::uint64_t>(i)))
      ++i;
    else
      std::this_thread::yield();
  }
  producer.join();
  CHECK_FALSE(cons.ready());
}

TEST_CASE("ring: the consumer's core counts as far once a quarter of recent tail loads were slow",
          "[ring]") {
  Mem m(4096);
  Ring r(m.counters(), m.bytes(), 4096);
  const std::uint64_t near = Ring::far_cycles - 1, slow = Ring::far_cycles;
  // Too few loads to tell: near, whatever they took.
  for (int i = 0; i < 15; ++i) r.note_moved_tail_load(slow);
  CHECK_FALSE(r.far());
  r.note_moved_tail_load(slow);
  CHECK(r.far());  // 16 of 16
  Ring q(m.counters(), m.bytes(), 4096);
  for (int i = 0; i < 12; ++i) q.note_moved_tail_load(near);
  for (int i = 0; i < 4; ++i) q.note_moved_tail_load(slow);
  CHECK_FALSE(q.far());  // 4 of 16: a quarter, not more
  q.note_moved_tail_load(slow);
  CHECK(q.far());  // 5 of 17
  // Older loads fade: a run of near loads after the slow ones wins.
  for (int i = 0; i < 200; ++i) q.note_moved_tail_load(near);
  CHECK_FALSE(q.far());
  for (int i = 0; i < 200; ++i) q.note_moved_tail_load(slow);
  CHECK(q.far());
}

TEST_CASE("ring: a tail that did not move is not timed", "[ring]") {
  Mem m(4096);
  Ring r(m.counters(), m.bytes(), 4096);
  for (int i = 0; i < 100; ++i) r.reload_tail();  // tail stays 0: nothing to tell
  CHECK_FALSE(r.far());
  const std::uint64_t keep = Ring::far_cycles;
  Ring::far_cycles = 0;  // IMPI_SHM_FAR_CYCLES=0: every peer is far, with no loads timed
  CHECK(r.far());
  Ring::far_cycles = keep;
}
