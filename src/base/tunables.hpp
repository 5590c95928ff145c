// tunables.hpp - the one table of tunable parameters.
//
// Every knob has a name, the environment variable that overrides it, a
// default and the reason for that default. No magic numbers elsewhere:
// code reads a knob through get_int()/get_string(). impi_info prints the table.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace impi::base {

struct Tunable {
  std::string_view name;           // "kill_grace_ms"
  std::string_view env;            // "IMPI_KILL_GRACE_MS"
  std::string_view default_value;  // "2000"
  std::string_view description;    // one line: what it does and why this default
};

// The whole table, in a stable order.
std::span<const Tunable> tunables();

// Looks a knob up by name; nullptr if there is none (a programming error).
const Tunable *find_tunable(std::string_view name);

// Current value: the environment variable if set and well formed, else the
// default. A malformed value is reported once (warning) and the default used.
std::int64_t get_int(std::string_view name);
std::string get_string(std::string_view name);
// A comma-separated list of small non-negative integers (client ranks) as a
// membership table: out[i] says whether i was listed. Malformed items are
// reported once (warning) and skipped.
std::vector<bool> get_index_set(std::string_view name);

// Parses a decimal integer that must use the whole string; nullopt otherwise.
std::optional<std::int64_t> parse_int(std::string_view s);

}  // namespace impi::base
