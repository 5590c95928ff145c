// cma.hpp - cross-memory attach (Linux process_vm_readv/writev): copies
// between this process and another one's memory, for the single-copy
// path of large messages between the procs of one node.
#pragma once

#include <cstddef>
#include <cstdint>

namespace impi::transport::shm {

// Reads `len` bytes at `remote` in process `pid`; false on any failure.
bool cma_read(std::int64_t pid, std::uint64_t remote, void *local, std::size_t len);
// Writes `len` bytes from `local` to `remote` in process `pid`; false on any failure.
bool cma_write(std::int64_t pid, std::uint64_t remote, const void *local, std::size_t len);
// Writes `len` bytes from `local` to `remote` in process `pid`, then the
// word `word` to `remote_word`, in that order: a reader that sees the word
// sees the bytes (one call on x86, which keeps the kernel's stores in
// order; elsewhere two calls with a fence between). False on any failure.
bool cma_post(std::int64_t pid, std::uint64_t remote, const void *local, std::size_t len,
              std::uint64_t remote_word, std::int64_t word);

// The address of a word with a known value in this process: a peer that
// reads it back (cma_permitted) learns that it may read our memory.
std::uint64_t cma_probe_address();
// Whether process `pid` lets us read its memory: its probe word at `probe`
// (its cma_probe_address()) reads back as expected.
bool cma_permitted(std::int64_t pid, std::uint64_t probe);

// Memory another process wrote into ours (process_vm_writev) is defined:
// valgrind's memcheck sees only this process's own writes.
void mark_defined(void *p, std::size_t n);

}  // namespace impi::transport::shm
