#include "core/dyn_card.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

using namespace impi::core;

namespace {
DynCard sample() {
  DynCard c;
  c.job = "impi.123.1@node-1";
  c.rank = 5;
  c.host = "node-1";
  c.unix_name = "impi-dyn-77-00ff";
  c.tcp = "127.0.0.1:4000";
  return c;
}
std::vector<std::byte> bytes(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int x : v) out.push_back(static_cast<std::byte>(x));
  return out;
}
}  // namespace

TEST_CASE("a dynamic card survives encode/decode, and its key names job and rank") {
  auto d = DynCard::decode(sample().encode());
  REQUIRE(d.ok());
  CHECK(d->job == "impi.123.1@node-1");
  CHECK(d->rank == 5);
  CHECK(d->host == "node-1");
  CHECK(d->unix_name == "impi-dyn-77-00ff");
  CHECK(d->tcp == "127.0.0.1:4000");
  CHECK(d->key() == "impi.123.1@node-1#5");
  CHECK(d->shm.empty());
  DynCard h = sample();
  h.shm = "/impi-x-dyn-1-1";  // a hello's ring
  CHECK(DynCard::decode(h.encode())->shm == "/impi-x-dyn-1-1");
  CHECK_FALSE(DynCard::decode(sample().encode() + " shm=relative").ok());
}

TEST_CASE("dynamic cards that lie are refused") {
  CHECK_FALSE(DynCard::decode("impi-dyn/2 job=j rank=0 host=h unix=u").ok());  // another version
  CHECK_FALSE(DynCard::decode("impi-dyn/1 rank=0 host=h unix=u").ok());        // no job
  CHECK_FALSE(DynCard::decode("impi-dyn/1 job=j rank=-1 host=h unix=u").ok());
  CHECK_FALSE(DynCard::decode("impi-dyn/1 job=j rank=16777216 host=h unix=u").ok());
  CHECK_FALSE(DynCard::decode("impi-dyn/1 job=j rank=0 host=h").ok());  // no socket
  CHECK_FALSE(DynCard::decode("impi-dyn/1 job=j rank=0 host=h unix=u junk").ok());
  CHECK_FALSE(DynCard::decode(std::string("impi-dyn/1 job=j\x01 rank=0 host=h unix=u")).ok());
  CHECK_FALSE(DynCard::decode("impi-dyn/1 job=j rank=0 host=h unix=" + std::string(600, 'a')).ok());
  CHECK(DynCard::decode("impi-dyn/1 job=j rank=0 host=h tcp=1.2.3.4:5 future=1")
            .ok());  // newer fields skipped
}

TEST_CASE("a port name is a port number and the opener's card") {
  PortName p{42, sample()};
  std::string s = p.encode();
  CHECK(s.rfind("impi-port/1 port=42 impi-dyn/1 ", 0) == 0);
  auto d = PortName::decode(s);
  REQUIRE(d.ok());
  CHECK(d->port == 42);
  CHECK(d->card.key() == sample().key());
  CHECK_FALSE(PortName::decode("garbage").ok());
  CHECK_FALSE(PortName::decode("impi-port/1 " + sample().encode()).ok());  // no number
  CHECK_FALSE(
      PortName::decode("impi-port/1 port=0 " + sample().encode()).ok());  // 0 is never a port
  CHECK_FALSE(PortName::decode("impi-port/1 port=x " + sample().encode()).ok());
}

TEST_CASE("frame heads have a fixed big-endian layout") {
  DynFrame f;
  f.kind = DynFrame::msg;
  f.source = 3;
  f.tag = -2;
  f.context = 0x01020304;
  f.len = 0x1122;
  f.id = 0x0102030405060708ull;
  std::byte b[DynFrame::kSize];
  f.encode(b);
  auto want = bytes({0x49, 0x4d, 0x44, 0x59, 2, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff,
                     0xff, 0xfe, 1,    2,    3, 4, 0, 0, 0, 0, 0, 0, 0,    0,
                     0,    0,    0x11, 0x22, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(std::memcmp(b, want.data(), DynFrame::kSize) == 0);
  auto d = DynFrame::decode(b);
  REQUIRE(d.has_value());
  CHECK(d->tag == -2);
  CHECK(d->id == f.id);
  b[0] = std::byte{0};
  CHECK_FALSE(DynFrame::decode(b).has_value());  // bad magic
  b[0] = std::byte{0x49};
  b[4] = std::byte{9};
  CHECK_FALSE(DynFrame::decode(b).has_value());  // unknown kind
}

TEST_CASE("the frame cutter waits for whole frames and refuses oversized ones") {
  DynFrame f;
  f.kind = DynFrame::msg;
  f.len = 5;
  std::vector<std::byte> s(DynFrame::kSize + 5, std::byte{7});
  f.encode(std::span<std::byte, DynFrame::kSize>(s.data(), DynFrame::kSize));
  DynFrame out;
  CHECK(dyn_next_frame(std::span(s).first(10), out).value() == 0);
  CHECK(dyn_next_frame(std::span(s).first(DynFrame::kSize + 4), out).value() == 0);
  CHECK(dyn_next_frame(s, out).value() == DynFrame::kSize + 5);
  CHECK(out.len == 5);
  for (auto k : {DynFrame::ack, DynFrame::shm_ok, DynFrame::shm_switch, DynFrame::wake}) {
    f.kind = k;  // no payload allowed
    f.encode(std::span<std::byte, DynFrame::kSize>(s.data(), DynFrame::kSize));
    CHECK_FALSE(dyn_next_frame(s, out).ok());
  }
  f.kind = DynFrame::ack;  // acks carry no payload
  f.encode(std::span<std::byte, DynFrame::kSize>(s.data(), DynFrame::kSize));
  CHECK_FALSE(dyn_next_frame(s, out).ok());
  f.kind = DynFrame::hello;
  f.len = DynCard::kMaxEncoded + 1;
  f.encode(std::span<std::byte, DynFrame::kSize>(s.data(), DynFrame::kSize));
  CHECK_FALSE(dyn_next_frame(s, out).ok());
}

TEST_CASE("group descriptions round-trip and are checked") {
  DynGroup g{11, {sample().encode(), sample().encode()}};
  auto e = encode_group(g);
  auto d = decode_group(e);
  REQUIRE(d.ok());
  CHECK(d->maxcid == 11);
  CHECK(d->cards == g.cards);
  CHECK_FALSE(decode_group(std::span(e).first(e.size() - 1)).ok());  // cut short
  auto longer = e;
  longer.push_back(std::byte{0});
  CHECK_FALSE(decode_group(longer).ok());  // trailing bytes
  auto zero = e;
  zero[11] = std::byte{0};  // n = 0
  CHECK_FALSE(decode_group(zero).ok());
  DynGroup bad{1, {"not a card"}};
  CHECK_FALSE(decode_group(encode_group(bad)).ok());
}
