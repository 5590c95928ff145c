#include "startup/output.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace impi::startup {

void LineForwarder::feed(std::string_view bytes) {
  std::string out;
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      pending_.append(bytes);
      if (pending_.size() >= kMaxPending) {  // a very long line: pass it on in pieces
        out += prefix_;
        out += pending_;
        out += '\n';
        pending_.clear();
      }
      break;
    }
    out += prefix_;
    out += pending_;
    out.append(bytes.substr(0, nl + 1));
    pending_.clear();
    bytes.remove_prefix(nl + 1);
  }
  if (!out.empty()) sink_(out);
}

void LineForwarder::finish() {
  if (pending_.empty()) return;
  std::string out = prefix_ + pending_ + '\n';
  pending_.clear();
  sink_(out);
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {  // a non-blocking terminal or pipe: wait for room
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, 1000);
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace impi::startup
