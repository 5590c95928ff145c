// output.hpp - forwarding a process's stdout/stderr to the launcher's own.
//
// The bytes a process writes are forwarded exactly: nothing is added but
// the optional prefix at the start of each line (--tag-output,
// --timestamp-output). Whole lines are forwarded at once, so lines of
// different ranks do not interleave mid-line; a partial line is held until
// its newline arrives, the stream ends, or it grows past kMaxPending bytes,
// and is then passed on as it is (the rest of that line gets no prefix).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace impi::startup {

class LineForwarder {
 public:
  static constexpr std::size_t kMaxPending = 64 * 1024;

  // `sink` receives chunks ready to write (prefixes included). `prefix`
  // returns what to put before each line ("" for none); it is called once
  // per line, when the line's first byte is forwarded.
  LineForwarder(std::function<std::string()> prefix, std::function<void(std::string_view)> sink)
      : prefix_(std::move(prefix)), sink_(std::move(sink)) {}
  // A fixed prefix (or none).
  LineForwarder(std::string prefix, std::function<void(std::string_view)> sink);

  // Takes bytes read from the process's pipe.
  void feed(std::string_view bytes);
  // The stream ended: passes on a held partial line as it is.
  void finish();

 private:
  void emit(std::string &out, std::string_view text);

  std::function<std::string()> prefix_;
  std::function<void(std::string_view)> sink_;
  std::string pending_;
  bool at_line_start_ = true;
};

// The --timestamp-output prefix: local time, to the microsecond.
std::string output_timestamp();

// Writes all of `bytes` to fd, retrying on EINTR/short writes; false on error.
bool write_all(int fd, std::string_view bytes);

}  // namespace impi::startup
