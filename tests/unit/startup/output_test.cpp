#include "startup/output.hpp"

#include <catch2/catch.hpp>

using impi::startup::LineForwarder;

TEST_CASE("output is forwarded whole lines at a time, with the tag on each") {
  std::vector<std::string> chunks;
  LineForwarder f("[1,2]<stdout>:", [&](std::string_view s) { chunks.emplace_back(s); });
  f.feed("hel");
  CHECK(chunks.empty());  // no newline yet: held back
  f.feed("lo\nwor");
  REQUIRE(chunks.size() == 1);
  CHECK(chunks[0] == "[1,2]<stdout>:hello\n");
  f.feed("ld\na\nb\n");
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[1] == "[1,2]<stdout>:world\n[1,2]<stdout>:a\n[1,2]<stdout>:b\n");
  f.feed("tail");
  f.finish();
  REQUIRE(chunks.size() == 3);
  CHECK(chunks[2] == "[1,2]<stdout>:tail\n");
  f.finish();
  CHECK(chunks.size() == 3);  // nothing left
}

TEST_CASE("a line longer than the limit is passed on in pieces") {
  std::string all;
  LineForwarder f("", [&](std::string_view s) { all.append(s); });
  std::string big(LineForwarder::kMaxPending + 10, 'x');
  f.feed(big);
  CHECK(all.size() == LineForwarder::kMaxPending + 10 + 1);
  f.finish();
}
