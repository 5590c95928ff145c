#include "startup/output.hpp"

#include <catch2/catch.hpp>
#include <random>

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
  CHECK(chunks[2] == "[1,2]<stdout>:tail");  // no newline is added
  f.finish();
  CHECK(chunks.size() == 3);  // nothing left
}

TEST_CASE("a line longer than the limit is passed on in pieces, byte for byte") {
  std::string all;
  LineForwarder f("", [&](std::string_view s) { all.append(s); });
  std::string big(200 * 1000, 'x');
  big += '\n';
  for (std::size_t at = 0; at < big.size(); at += 16384) f.feed(big.substr(at, 16384));
  f.finish();
  CHECK(all == big);
}

TEST_CASE("a long line gets the tag once, at its start") {
  std::string all;
  LineForwarder f("T:", [&](std::string_view s) { all.append(s); });
  std::string big(3 * LineForwarder::kMaxPending + 5, 'y');
  f.feed("a\n");
  for (std::size_t at = 0; at < big.size(); at += 7000) f.feed(big.substr(at, 7000));
  f.feed("\nb");
  f.finish();
  CHECK(all == "T:a\nT:" + big + "\nT:b");
}

TEST_CASE("binary output arrives unchanged however it is split") {
  std::mt19937 rng(7);
  std::string data(300000, '\0');
  for (auto &c : data) c = static_cast<char>(rng() & 0xff);
  data.append(100000, '\x01');  // a long stretch without a newline
  std::string all;
  LineForwarder f("", [&](std::string_view s) { all.append(s); });
  for (std::size_t at = 0; at < data.size();) {
    std::size_t n = 1 + rng() % 20000;
    f.feed(std::string_view(data).substr(at, n));
    at += n;
  }
  f.finish();
  CHECK(all == data);
}

TEST_CASE("a prefix function is asked once per line") {
  int calls = 0;
  std::string all;
  LineForwarder f([&] { return std::to_string(++calls) + ":"; },
                  [&](std::string_view s) { all.append(s); });
  f.feed("x\ny");
  f.feed("z\n\n");
  f.finish();
  CHECK(all == "1:x\n2:yz\n3:\n");
}
