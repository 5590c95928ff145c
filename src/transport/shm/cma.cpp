#include "transport/shm/cma.hpp"

#include <sys/uio.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define IMPI_HAVE_MEMCHECK 1
#else
#define IMPI_HAVE_MEMCHECK 0
#endif

namespace impi::transport::shm {

namespace {
constexpr std::uint64_t kCmaMagic = 0x494d5049434d4121ull;  // "IMPICMA!"
volatile std::uint64_t g_cma_probe = kCmaMagic;
}  // namespace

bool cma_read(std::int64_t pid, std::uint64_t remote, void *local, std::size_t len) {
  std::size_t done = 0;
  while (done < len) {
    iovec l{static_cast<char *>(local) + done, len - done};
    iovec r{reinterpret_cast<void *>(remote + done), len - done};
    ssize_t n = ::process_vm_readv(static_cast<pid_t>(pid), &l, 1, &r, 1, 0);
    if (n <= 0) {
      if (n == 0) errno = EIO;  // (nothing moved: no errno of its own)
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool cma_write(std::int64_t pid, std::uint64_t remote, const void *local, std::size_t len) {
  std::size_t done = 0;
  while (done < len) {
    iovec l{const_cast<char *>(static_cast<const char *>(local)) + done, len - done};
    iovec r{reinterpret_cast<void *>(remote + done), len - done};
    ssize_t n = ::process_vm_writev(static_cast<pid_t>(pid), &l, 1, &r, 1, 0);
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool cma_post(std::int64_t pid, std::uint64_t remote, const void *local, std::size_t len,
              std::uint64_t remote_word, std::int64_t word) {
  const auto p = static_cast<pid_t>(pid);
  iovec l[2] = {{const_cast<void *>(local), len}, {&word, sizeof word}};
  iovec r[2] = {{reinterpret_cast<void *>(remote), len},
                {reinterpret_cast<void *>(remote_word), sizeof word}};
#if defined(__x86_64__) || defined(__i386__)
  // (The kernel copies the vectors in order, and x86 keeps its stores in
  // order, string copies' included. A short count means a fault: the
  // word did not go.)
  return ::process_vm_writev(p, l, 2, r, 2, 0) == static_cast<ssize_t>(len + sizeof word);
#else
  if (len > 0 && !cma_write(pid, remote, local, len)) return false;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return ::process_vm_writev(p, l + 1, 1, r + 1, 1, 0) == static_cast<ssize_t>(sizeof word);
#endif
}

std::uint64_t cma_probe_address() {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&g_cma_probe));
}

bool cma_permitted(std::int64_t pid, std::uint64_t probe) {
  std::uint64_t got = 0;
  return cma_read(pid, probe, &got, sizeof got) && got == kCmaMagic;
}

void mark_defined([[maybe_unused]] void *p, [[maybe_unused]] std::size_t n) {
#if IMPI_HAVE_MEMCHECK
  VALGRIND_MAKE_MEM_DEFINED(p, n);
#endif
}

}  // namespace impi::transport::shm
