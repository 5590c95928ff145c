// rounds.hpp - MPI-IO's rounds by memory. Among the processes of a small
// communicator that spans IMPI clients on one machine, where every process
// may write into every other's memory (cross-memory attach), a round in
// which each process gives a few words and gets everyone's goes as writes
// into the others' memory instead of messages over the IMPI channels: a
// two-phase access's range and closing rounds (collective.cpp), and
// MPI_File_open's and MPI_File_close's agreements (file.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace impi::io {

// Largest communicator whose rounds may go by memory: every process
// writes its part into every other's memory, size - 1 system calls a round.
constexpr int kMemoryRoundsMost = 8;

// This machine, as the processes of other clients can tell it: a hash of
// the kernel's boot id and of our pid namespace (0: unknown). Processes
// with the same key may try cross-memory attach with each other's pids.
std::uint64_t machine_key();

// Each process holds a slot per writer (the other processes, and itself)
// for each parity of the round number: the round's number, then the
// writer's part. A round's writes go into the slots of its parity; a slot
// is written again two rounds later, by when its reader is done with it
// (the next round completes only once every process has posted it, which
// each does after reading this one).
class MemoryRounds {
 public:
  // Slots for `size` writers of up to `words` 8-byte words each.
  MemoryRounds(int rank, int size, std::size_t words);
  MemoryRounds(const MemoryRounds &) = delete;
  MemoryRounds &operator=(const MemoryRounds &) = delete;

  // Our slots' address, for the others.
  std::uint64_t address() const { return reinterpret_cast<std::uintptr_t>(slots_.get()); }
  // Every rank's pid and slots' address (ours included, unused), agreed
  // with the other processes; rounds may start from then on.
  void connect(std::vector<std::int64_t> pid, std::vector<std::uint64_t> addr);
  bool connected() const { return !addr_.empty(); }

  // Starts the next round: `bytes` (at most `words` * 8) of ours into our
  // slot in every other process's memory, the round's number after them.
  // Returns the round's number. A process whose memory cannot be written
  // (it has gone) ends the job, with `what` in the message: the round
  // could not complete.
  long long post(const void *mine, std::size_t bytes, const std::string &what);
  // Whether every other process has posted round `k`.
  bool arrived(long long k) const;
  // Until then (the progress engine runs meanwhile; a dead peer ends the
  // job through its client's channels).
  void wait(long long k);
  // Rank r's part of round `k`, once arrived: valid until round k + 2 is posted.
  const void *part(long long k, int r);

  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  std::size_t slot(long long k, int writer) const {
    return (static_cast<std::size_t>(k & 1) * static_cast<std::size_t>(size_) +
            static_cast<std::size_t>(writer)) *
           stride_;
  }
  int rank_, size_;
  std::size_t stride_;  // words per slot: the round's number, then the part
  std::unique_ptr<long long[]> slots_;
  std::vector<std::int64_t> pid_;
  std::vector<std::uint64_t> addr_;
  long long round_ = 0;
};

}  // namespace impi::io
