// The records of the local link between a proc and its host agent.
#include "transport/impi/agent_link.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

using namespace impi::transport::wire::agent_link;

namespace {
std::vector<std::byte> bytes(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}
}  // namespace

TEST_CASE("agent link: a hello round-trips and is 8 bytes big-endian") {
  for (std::uint64_t index :
       {std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{0x0102030405060708}, ~std::uint64_t{0}}) {
    auto h = encode_hello(index);
    auto back = decode_hello(h);
    REQUIRE(back.ok());
    CHECK(*back == index);
  }
  CHECK(encode_hello(0x0102030405060708) ==
        std::array<std::byte, 8>{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                                 std::byte{5}, std::byte{6}, std::byte{7}, std::byte{8}});
}

TEST_CASE("agent link: a hello of another length is refused") {
  auto h = encode_hello(3);
  CHECK_FALSE(decode_hello(std::span(h).first(7)).ok());
  CHECK_FALSE(decode_hello({}).ok());
  std::vector<std::byte> longer(h.begin(), h.end());
  longer.push_back(std::byte{0});
  CHECK_FALSE(decode_hello(longer).ok());
}

TEST_CASE("agent link: ACCEPT round-trips") {
  auto a = encode_accept();
  CHECK(a[0] == std::byte{'A'});
  auto len = reply_length(a);
  REQUIRE(len.ok());
  CHECK(*len == 1);
  auto r = decode_reply(a);
  REQUIRE(r.ok());
  CHECK(r->kind == Reply::accept);
  CHECK(r->hosts.empty());
}

TEST_CASE("agent link: DIRECT round-trips, with 0, 1 and the most channels") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, kMaxDirectChannels}) {
    std::vector<std::uint32_t> hosts(n);
    std::iota(hosts.begin(), hosts.end(), 0xfffffff0u - static_cast<std::uint32_t>(n));
    auto d = encode_direct(hosts);
    REQUIRE(d.ok());
    CHECK(d->size() == kDirectHeaderSize + 4 * n);
    CHECK((*d)[0] == std::byte{'D'});
    auto len = reply_length(*d);
    REQUIRE(len.ok());
    CHECK(*len == d->size());
    auto r = decode_reply(*d);
    REQUIRE(r.ok());
    CHECK(r->kind == Reply::direct);
    CHECK(r->hosts == hosts);
  }
  CHECK(encode_direct(std::vector<std::uint32_t>{2}).value() ==
        bytes({'D', 0, 0, 0, 1, 0, 0, 0, 2}));
}

TEST_CASE("agent link: reply_length asks for more until it can tell") {
  auto d = encode_direct(std::vector<std::uint32_t>{1, 2}).value();
  CHECK(reply_length({}).value() == 1);
  for (std::size_t have = 1; have < kDirectHeaderSize; ++have)
    CHECK(reply_length(std::span(d).first(have)).value() == kDirectHeaderSize);
  for (std::size_t have = kDirectHeaderSize; have <= d.size(); ++have)
    CHECK(reply_length(std::span(d).first(have)).value() == d.size());
}

TEST_CASE("agent link: malformed or short replies are refused") {
  CHECK_FALSE(decode_reply({}).ok());
  CHECK_FALSE(reply_length(bytes({'X'})).ok());
  CHECK_FALSE(decode_reply(bytes({'X'})).ok());
  CHECK_FALSE(decode_reply(bytes({'A', 0})).ok());           // ACCEPT is one byte
  CHECK_FALSE(decode_reply(bytes({'D', 0, 0, 0})).ok());     // no whole count
  CHECK_FALSE(decode_reply(bytes({'D', 0, 0, 0, 1})).ok());  // a channel short
  CHECK_FALSE(decode_reply(bytes({'D', 0, 0, 0, 1, 0, 0, 0})).ok());
  CHECK_FALSE(decode_reply(bytes({'D', 0, 0, 0, 0, 9})).ok());  // a byte too many
  // A count beyond what one message can carry, however long the input.
  auto huge = bytes({'D', 0xff, 0xff, 0xff, 0xff});
  CHECK_FALSE(reply_length(huge).ok());
  CHECK_FALSE(decode_reply(huge).ok());
  auto over = bytes({'D', 0, 0, 0, static_cast<int>(kMaxDirectChannels + 1)});
  over.resize(kDirectHeaderSize + 4 * (kMaxDirectChannels + 1));
  CHECK_FALSE(decode_reply(over).ok());
  std::vector<std::uint32_t> too_many(kMaxDirectChannels + 1);
  CHECK_FALSE(encode_direct(too_many).ok());
}
