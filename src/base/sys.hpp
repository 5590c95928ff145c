// sys.hpp - the system calls of the data paths, made directly.
//
// glibc's wrappers of pread, pwrite, poll, send, recv, recvmsg and sendmsg are
// cancellation points: in a process with more than one thread (an MPI
// process always has the PMIx client's event thread) each call turns
// asynchronous cancellation on before the system call and off after it,
// two atomic updates of the thread's cancel state. perf put them at 8% of
// a ping-pong between two IMPI clients (the progress loop polls its
// sockets) and at 10% of a 4 KiB MPI_File_read_at on the page cache. No MPI
// call is a cancellation point, so the library calls the kernel itself.
// Each returns what the wrapper would: the result, or -1 with errno set.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <ctime>

namespace impi::base {

static_assert(sizeof(long) == 8, "sys_pwritev passes the offset in one word (64-bit Linux)");

inline ssize_t sys_pread(int fd, void *p, std::size_t n, std::int64_t at) {
  return ::syscall(SYS_pread64, fd, p, n, static_cast<off_t>(at));
}
inline ssize_t sys_pwrite(int fd, const void *p, std::size_t n, std::int64_t at) {
  return ::syscall(SYS_pwrite64, fd, p, n, static_cast<off_t>(at));
}
// (The kernel takes the offset as two words; on a 64-bit system the first is all of it.)
inline ssize_t sys_pwritev(int fd, const iovec *iov, int n, std::int64_t at) {
  return ::syscall(SYS_pwritev, fd, iov, n, static_cast<long>(at), 0L);
}
inline ssize_t sys_preadv(int fd, const iovec *iov, int n, std::int64_t at) {
  return ::syscall(SYS_preadv, fd, iov, n, static_cast<long>(at), 0L);
}
inline int sys_poll(pollfd *fds, std::size_t n, int timeout_ms) {
#ifdef SYS_poll
  return static_cast<int>(::syscall(SYS_poll, fds, n, timeout_ms));
#else  // (arm64 has ppoll only)
  timespec t{timeout_ms / 1000, (timeout_ms % 1000) * 1000000L},
      *tp = timeout_ms < 0 ? nullptr : &t;
  return static_cast<int>(::syscall(SYS_ppoll, fds, n, tp, nullptr, 0));
#endif
}
inline ssize_t sys_recv(int fd, void *p, std::size_t n, int flags) {
  return ::syscall(SYS_recvfrom, fd, p, n, flags, nullptr, nullptr);
}
inline ssize_t sys_send(int fd, const void *p, std::size_t n, int flags) {
  return ::syscall(SYS_sendto, fd, p, n, flags, nullptr, 0);
}
inline ssize_t sys_recvmsg(int fd, msghdr *m, int flags) {
  return ::syscall(SYS_recvmsg, fd, m, flags);
}
inline ssize_t sys_sendmsg(int fd, const msghdr *m, int flags) {
  return ::syscall(SYS_sendmsg, fd, m, flags);
}

}  // namespace impi::base
