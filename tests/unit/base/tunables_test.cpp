#include "base/tunables.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

using namespace impi::base;

TEST_CASE("every tunable has an env var, a default and a description") {
  REQUIRE_FALSE(tunables().empty());
  for (const auto &t : tunables()) {
    CHECK(t.env.substr(0, 5) == "IMPI_");
    // An empty default must say what empty means.
    CHECK((!t.default_value.empty() || t.description.find("empty") != std::string_view::npos));
    CHECK(t.description.size() > 20);
  }
}

TEST_CASE("a tunable reads its environment variable, else the default") {
  ::unsetenv("IMPI_KILL_GRACE_MS");
  CHECK(get_int("kill_grace_ms") == 2000);
  ::setenv("IMPI_KILL_GRACE_MS", "150", 1);
  CHECK(get_int("kill_grace_ms") == 150);
  ::setenv("IMPI_KILL_GRACE_MS", "15O", 1);  // malformed: default, with a warning
  CHECK(get_int("kill_grace_ms") == 2000);
  ::unsetenv("IMPI_KILL_GRACE_MS");
}

TEST_CASE("parse_int accepts whole decimal integers only") {
  CHECK(parse_int("17") == 17);
  CHECK(parse_int("-3") == -3);
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("4x"));
  CHECK_FALSE(parse_int(" 4"));
  CHECK_FALSE(parse_int("99999999999999999999999"));
}
