// log.hpp - diagnostics to stderr through fmt.
//
// Every line is prefixed with the component ("impirun", "impi[rank 3]") so a
// user reading a job's merged stderr knows who spoke. Verbosity comes from
// the tunable IMPI_VERBOSE (0 = errors and warnings only).
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>

namespace impi::base {

enum class Level { off = -1, error = 0, warn = 1, info = 2, debug = 3 };

// Set once at startup; not synchronised (set before threads start).
void set_log_prefix(std::string prefix);
const std::string &log_prefix();
void set_log_level(Level l);
Level log_level();

// Writes one whole line with a single write(2), so lines from concurrent
// processes sharing a pipe do not interleave mid-line.
void log_line(Level l, std::string_view text);

template <typename... Args>
void log(Level l, fmt::format_string<Args...> f, Args &&...args) {
  if (static_cast<int>(l) > static_cast<int>(log_level())) return;
  log_line(l, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void log_error(fmt::format_string<Args...> f, Args &&...args) {
  log(Level::error, f, std::forward<Args>(args)...);
}
template <typename... Args>
void log_warn(fmt::format_string<Args...> f, Args &&...args) {
  log(Level::warn, f, std::forward<Args>(args)...);
}
template <typename... Args>
void log_info(fmt::format_string<Args...> f, Args &&...args) {
  log(Level::info, f, std::forward<Args>(args)...);
}
template <typename... Args>
void log_debug(fmt::format_string<Args...> f, Args &&...args) {
  log(Level::debug, f, std::forward<Args>(args)...);
}

}  // namespace impi::base
