#include "startup/stdin_fanout.hpp"

#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <thread>

#include "startup/output.hpp"

namespace impi::startup {

void start_stdin_fanout(int source, std::vector<base::Fd> targets) {
  if (targets.empty()) return;
  std::thread([source, targets = std::move(targets)]() mutable {
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(source, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      bool any = false;
      for (auto &t : targets) {
        if (!t) continue;
        if (!write_all(t.get(), std::string_view(buf, static_cast<std::size_t>(n)))) t.reset();
        any = any || static_cast<bool>(t);
      }
      if (!any) break;
    }
    targets.clear();  // end of file for every reader
  }).detach();
}

}  // namespace impi::startup
