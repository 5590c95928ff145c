#include "base/errc.hpp"

#include <catch2/catch.hpp>
#include <csignal>

#include "base/fd.hpp"

using namespace impi::base;

TEST_CASE("Result holds a value or an error with its message") {
  Result<int> ok = 42;
  REQUIRE(ok.ok());
  CHECK(*ok == 42);
  CHECK(ok.error() == Errc::ok);
  Result<int> bad{Errc::protocol_error, "bad length"};
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == Errc::protocol_error);
  CHECK(bad.message() == "bad length");
  CHECK(errc_name(bad.error()) == "protocol_error");
}

TEST_CASE("Status defaults to success") {
  Status s;
  CHECK(s.ok());
  Status f{Errc::timeout, "late"};
  CHECK_FALSE(f.ok());
  CHECK(f.message() == "late");
}

TEST_CASE("Fd closes what it owns, once") {
  int p[2];
  REQUIRE(::pipe(p) == 0);
  {
    Fd r(p[0]);
    Fd moved = std::move(r);
    CHECK_FALSE(r.valid());
    CHECK(moved.get() == p[0]);
  }
  // The read end is closed: writing now fails with EPIPE (SIGPIPE ignored here).
  ::signal(SIGPIPE, SIG_IGN);
  char c = 'x';
  CHECK(::write(p[1], &c, 1) == -1);
  ::close(p[1]);
}
