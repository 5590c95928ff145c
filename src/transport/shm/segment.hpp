// segment.hpp - one process's receive segment: a versioned header and one
// SPSC ring per local peer (the peer produces, this process consumes).
//
// Lifetime: the owner creates it in /dev/shm before the contact-card
// exchange, peers open it by name, and the owner unlinks the name as soon
// as every peer has mapped it (so a crash leaves nothing behind).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/errc.hpp"
#include "transport/shm/ring.hpp"

namespace impi::transport::shm {

// A small collective's contribution, published by its owner for every
// local peer to read (collectives/fast_native.cpp: MPI_COMM_WORLD's small
// Allreduce). `seq` is the operation's number, stored last (release).
struct CollSlot {
  static constexpr std::size_t kBytes = 4088;
  alignas(64) std::atomic<std::uint64_t> seq;
  std::byte data[kBytes];
};

struct SegmentHeader {
  static constexpr std::uint64_t kMagic = 0x696d70692d73686dull;  // "impi-shm"
  // 2: stamped records; 3: split offers; 4: collective slots; 5: 4 KiB
  // slots; 6: dozing; 7: persistent collectives' own slots; 8: their
  // release marks
  static constexpr std::uint32_t kVersion = 8;
  static constexpr int kOwnSlots = 16;
  std::atomic<std::uint64_t> magic;  // stored last (release): the header is complete
  std::uint32_t version;
  std::uint32_t nrings;
  std::uint64_t ring_bytes;  // data bytes per ring (a power of two)
  std::uint64_t rings_offset;
  // Doorbell: producers bump it after publishing; a consumer that sleeps
  // waits on it with a futex (it counts itself in `sleeping` first: the
  // number of the owner's threads asleep or about to be).
  alignas(64) std::atomic<std::uint32_t> doorbell;
  std::atomic<std::uint32_t> sleeping;
  // Dozing: the owner's threads that wait for shared memory alone while
  // yielding their core (procs outnumber cores); producers bump `doorbell`
  // for them too (without the futex call), and `doze_mark` is the doorbell
  // as a dozer last saw it. A proc bound to the same core sees from the
  // two whether its yield could help the owner (P2P::siblings_stalled).
  std::atomic<std::uint32_t> dozing;
  std::atomic<std::uint32_t> doze_mark;
  // Two, used alternately: a proc publishes operation g + 2 only after
  // every peer published g + 1, which each did after reading g's slots.
  CollSlot coll[2];
  // Pairs of slots that persistent collectives and communicators take one
  // each for their life (collectives/fast_native.cpp: own slots, comm
  // slots), used alternately as `coll` is, numbered by their own
  // operations.
  CollSlot own[kOwnSlots][2];
  // Per pair, the last operation number of the request this proc last
  // released it from: every read it made of the other members' pairs for
  // that request is done (a member about to take the pair again for other
  // procs waits for it).
  alignas(64) std::atomic<std::uint64_t> own_released[kOwnSlots];
};

// The size of each ring of a host whose `nlocal` procs each have a ring
// from every other (nlocal x nlocal rings): `set` when not 0 (a power of
// two >= 4096), else 1 MiB (the two-proc speed), halved down to 16 KiB
// until they fit `budget` bytes (at most an eighth of the machine's
// memory). An error, saying what it would take, when the rings would not
// fit half the memory or /dev/shm's free space.
base::Result<std::uint64_t> plan_rings(int nlocal, std::int64_t set, std::int64_t budget);

class Segment {
 public:
  Segment() = default;
  Segment(const Segment &) = delete;
  Segment &operator=(const Segment &) = delete;
  Segment(Segment &&o) noexcept;
  Segment &operator=(Segment &&o) noexcept;
  ~Segment();

  static base::Result<Segment> create(const std::string &name, std::uint32_t nrings,
                                      std::uint64_t ring_bytes);
  static base::Result<Segment> open(const std::string &name);
  // Removes the name (mappings stay valid). Idempotent.
  void unlink();

  Ring ring(std::uint32_t i);
  SegmentHeader &header() { return *hdr_; }
  bool mapped() const { return hdr_ != nullptr; }
  const std::string &name() const { return name_; }

  // Producer side, after publishing: wakes the owner if it sleeps.
  // `dozers`: also when it dozes (anything but ring space handed back: a
  // dozer that waits for space says so in its doze_mark()).
  void ring_doorbell(bool dozers = true);
  // Owner side: announce the intent to sleep, then look at the rings once
  // more; sleep() if they were empty (until a doorbell or `timeout_us`),
  // cancel_sleep() otherwise.
  std::uint32_t prepare_sleep();
  void sleep(std::uint32_t seen, int timeout_us);
  void cancel_sleep();
  // Owner side, around a wait for shared memory alone that yields its core:
  // begin_doze() counts us in `dozing`; then doze_mark() before each look
  // at the rings (`busy`: we have sends waiting for ring space, so we are
  // never stalled); end_doze() at the end.
  void begin_doze() {
    hdr_->dozing.fetch_add(1, std::memory_order_seq_cst);
    doze_mark(true);  // (not stalled before our first look)
  }
  void doze_mark(bool busy) {
    const std::uint32_t bell = hdr_->doorbell.load(std::memory_order_relaxed);
    hdr_->doze_mark.store(busy ? bell + 0x80000000u : bell, std::memory_order_relaxed);
  }
  void end_doze() { hdr_->dozing.fetch_sub(1, std::memory_order_relaxed); }
  // begin_doze() .. end_doze() for a scope (none when `seg` is null).
  class Dozing {
   public:
    explicit Dozing(Segment *seg) : seg_(seg) {
      if (seg_) seg_->begin_doze();
    }
    ~Dozing() {
      if (seg_) seg_->end_doze();
    }
    Dozing(const Dozing &) = delete;
    Dozing &operator=(const Dozing &) = delete;

   private:
    Segment *seg_;
  };
  // Any side: the owner dozes and nothing was published to it since its
  // last look (a hint: see ring_doorbell() for the window it can miss).
  bool stalled() const {
    return hdr_->dozing.load(std::memory_order_relaxed) != 0 &&
           hdr_->doorbell.load(std::memory_order_relaxed) ==
               hdr_->doze_mark.load(std::memory_order_relaxed);
  }

 private:
  std::string name_;
  bool owner_ = false;
  void *base_ = nullptr;
  std::size_t bytes_ = 0;
  SegmentHeader *hdr_ = nullptr;
};

}  // namespace impi::transport::shm
