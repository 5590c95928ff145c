#include "base/log.hpp"

#include <unistd.h>

#include <cerrno>

namespace impi::base {

namespace {
std::string g_prefix = "impi";
Level g_level = Level::warn;
}  // namespace

void set_log_prefix(std::string prefix) {
  g_prefix = std::move(prefix);
}
const std::string &log_prefix() {
  return g_prefix;
}
void set_log_level(Level l) {
  g_level = l;
}
Level log_level() {
  return g_level;
}

void log_line(Level l, std::string_view text) {
  if (l == Level::off) return;
  static constexpr std::string_view kTag[] = {"error: ", "warning: ", "", "debug: "};
  std::string line = fmt::format("{}: {}{}\n", g_prefix, kTag[static_cast<int>(l)], text);
  const char *p = line.data();
  size_t left = line.size();
  int saved = errno;
  while (left > 0) {
    ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;  // nowhere left to report to
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  errno = saved;
}

}  // namespace impi::base
