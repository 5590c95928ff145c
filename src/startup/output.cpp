#include "startup/output.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace impi::startup {

LineForwarder::LineForwarder(std::string prefix, std::function<void(std::string_view)> sink)
    : sink_(std::move(sink)) {
  if (!prefix.empty()) prefix_ = [p = std::move(prefix)] { return p; };
}

// Appends `text` (no newline inside except possibly at its end) to `out`,
// with the prefix if it starts a line.
void LineForwarder::emit(std::string &out, std::string_view text) {
  if (text.empty()) return;
  if (at_line_start_ && prefix_) out += prefix_();
  out.append(text);
  at_line_start_ = text.back() == '\n';
}

void LineForwarder::feed(std::string_view bytes) {
  std::string out;
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      pending_.append(bytes);
      if (pending_.size() >= kMaxPending) {  // a very long line: pass on what we have
        emit(out, pending_);
        pending_.clear();
      }
      break;
    }
    if (pending_.empty()) {
      emit(out, bytes.substr(0, nl + 1));
    } else {
      pending_.append(bytes.substr(0, nl + 1));
      emit(out, pending_);
      pending_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
  if (!out.empty()) sink_(out);
}

void LineForwarder::finish() {
  if (pending_.empty()) return;
  std::string out;
  emit(out, pending_);
  pending_.clear();
  sink_(out);
}

std::string output_timestamp() {
  timeval tv{};
  ::gettimeofday(&tv, nullptr);
  tm t{};
  ::localtime_r(&tv.tv_sec, &t);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &t);
  return fmt::format("[{}.{:06}]", buf, static_cast<long>(tv.tv_usec));
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
