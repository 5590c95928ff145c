// attach_table.hpp - the regions a proc has attached to a dynamic window
// (MPI_Win_attach), kept for the procs of its host to check addresses
// against: the origins of the cross-memory-attach path and the proc's own
// message server (window.hpp). Any number of regions (thousands: MPICH's
// linked-list benchmarks attach one per list element), each lookup
// O(log n) and lock-free.
//
// Layout. Each proc's table is a sorted array of non-overlapping
// [base, base + size) in a shared-memory segment of its own. The proc's
// control block in the window's shared region (AttachCtl, in MemberCtl)
// says which segment is current (its owner's pid and serial number: its
// name), how many entries are in use, and a sequence counter that is odd
// while the owner changes the table (a seqlock). A full table moves to a
// new segment of twice the entries; the old one is unlinked at once, and
// its mappings stay until the window is freed (doubling: all of them
// together are less than twice the last). Segment names begin with the
// job's prefix, so the launcher removes them should the proc die.
//
// Writing (the owner only, under its mutex): counter odd, entries rewritten
// from the owner's private sorted copy from the changed one on, count and
// serial, counter even (a release store). Reading (AttachView, any proc of
// the host, the owner included): counter (acquire); if even, map the
// current segment unless mapped already, binary search, then the counter
// again: unchanged means the answer is that of a consistent table, else
// look again. Nothing is cached but the mapping, which the counter
// validates, so an origin that learns of a region by a message the owner
// sent after attaching it (any path: a message synchronises) finds it on
// its very next look.
//
// Attaching memory that overlaps an attached region is erroneous (MPI-3.1
// 11.2.4) and refused. An access may span regions that touch (MPICH's
// win_dynamic_rma_flush_get attaches two halves of one array).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/errc.hpp"
#include "rma/shared_region.hpp"

namespace impi::rma {

// A proc's attach table's control words, in its control block (zero-filled).
struct AttachCtl {
  std::atomic<std::uint64_t> seq;     // odd while the owner changes the table
  std::atomic<std::uint64_t> serial;  // the current segment's (0: none yet)
  std::atomic<std::uint64_t> count;   // entries in use
  std::atomic<std::int64_t> pid;      // the owner's (the segment's name)
};

// The owner's side.
class AttachTable {
 public:
  // `prefix`: the job's segment name prefix ("/impi-<job>-att-"), shared by
  // the readers (AttachView).
  AttachTable(AttachCtl *ctl, std::string prefix);
  ~AttachTable();
  AttachTable(const AttachTable &) = delete;
  AttachTable &operator=(const AttachTable &) = delete;

  // invalid_argument: overlaps an attached region; no_memory: no segment.
  base::Status attach(std::uint64_t base, std::uint64_t size);
  // not_found: no region attached at `base`.
  base::Status detach(std::uint64_t base);
  std::size_t size() const;

 private:
  base::Status publish(std::size_t from);  // entries from `from` on changed
  AttachCtl *ctl_;
  std::string prefix_;
  mutable std::mutex mu_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> regions_;  // sorted by base
  std::vector<SharedRegion> segments_;                            // the current one last
  std::uint64_t capacity_ = 0;                                    // entries in the current one
};

// A reader's view of one proc's table.
class AttachView {
 public:
  explicit AttachView(std::string prefix);
  AttachView(const AttachView &) = delete;
  AttachView &operator=(const AttachView &) = delete;
  ~AttachView();
  // Whether every byte of [lo, hi) is attached (in one region, or in
  // regions that touch); an error when the table cannot be mapped.
  base::Result<bool> covers(const AttachCtl &ctl, std::uint64_t lo, std::uint64_t hi);

 private:
  struct Mapping;
  const Mapping *mapping(std::int64_t pid, std::uint64_t serial);  // null: not (any longer) there
  std::string prefix_;
  std::atomic<const Mapping *> current_{nullptr};
  std::mutex mu_;
  std::vector<std::unique_ptr<Mapping>> mappings_;  // every one made, until the window goes
};

}  // namespace impi::rma
