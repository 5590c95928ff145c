// output.hpp - forwarding a process's stdout/stderr to the launcher's own.
//
// Output is forwarded a whole line at a time, so lines of different ranks
// never interleave mid-line. A partial line is held until its newline
// arrives, the stream ends, or it grows past kMaxPending bytes.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace impi::startup {

class LineForwarder {
 public:
  static constexpr std::size_t kMaxPending = 64 * 1024;

  // `sink` receives complete chunks ready to write (prefix included).
  // `prefix` is put before each line ("" for none).
  LineForwarder(std::string prefix, std::function<void(std::string_view)> sink)
      : prefix_(std::move(prefix)), sink_(std::move(sink)) {}

  // Takes bytes read from the process's pipe.
  void feed(std::string_view bytes);
  // The stream ended: emits a held partial line (with a newline added).
  void finish();

 private:
  std::string prefix_;
  std::function<void(std::string_view)> sink_;
  std::string pending_;
};

// Writes all of `bytes` to fd, retrying on EINTR/short writes; false on error.
bool write_all(int fd, std::string_view bytes);

}  // namespace impi::startup
