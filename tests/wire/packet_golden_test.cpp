// Golden-byte tests of the IMPI packet header (IMPI 3.4) and of the flow
// control counters (IMPI 3.6). The expected bytes are written out by hand
// from the spec's offsets, not produced by our encoder.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "transport/impi/flow.hpp"
#include "transport/impi/packet.hpp"
#include "wire/frame.hpp"
#include "wire/hex.hpp"

using namespace impi::transport::wire;

namespace {
using impi::test::hex;

ProcId proc(std::uint8_t last_octet, std::int64_t pid) {
  ProcId p;  // ::ffff:127.0.0.<last_octet>
  p.host[10] = std::byte{0xff};
  p.host[11] = std::byte{0xff};
  p.host[12] = std::byte{127};
  p.host[15] = std::byte{last_octet};
  p.pid = pid;
  return p;
}

Packet sample_data() {
  Packet p;
  p.type = PacketType::datasync;
  p.len = 0x10;
  p.src = proc(1, 0x1234);
  p.dest = proc(2, 7);
  p.srqid = 0x0102030405060708ull;
  p.drqid = 0;
  p.msglen = 0x100;
  p.lsrank = 3;
  p.tag = -1;  // any bit pattern travels
  p.cid = 4;
  p.seqnum = 5;
  p.count = 6;
  p.dtype = 7;
  return p;
}

const char *kSampleDataHex =
    "00000001 00000010"                                      // type DATASYNC, len 16
    "00000000 00000000 0000ffff 7f000001 00000000 00001234"  // src ::ffff:127.0.0.1, pid
    "00000000 00000000 0000ffff 7f000002 00000000 00000007"  // dest ::ffff:127.0.0.2, pid 7
    "01020304 05060708"                                      // srqid
    "00000000 00000000"                                      // drqid
    "00000000 00000100"                                      // msglen 256
    "00000003 ffffffff"                                      // lsrank 3, tag -1
    "00000000 00000004"                                      // cid
    "00000000 00000005 00000000 00000006 00000000 00000007"  // seqnum, count, dtype
    "00000000 00000000";                                     // reserved
}  // namespace

TEST_CASE("packet: a DATASYNC header is the spec's bytes", "[packet]") {
  auto bytes = encode(sample_data());
  REQUIRE(bytes.size() == 128);
  CHECK(bytes == hex(kSampleDataHex));
  auto back = decode(bytes, 16);
  REQUIRE(back);
  CHECK(*back == sample_data());
}

TEST_CASE("packet: control packets carry only their fields", "[packet]") {
  Packet ack;
  ack.type = PacketType::syncack;
  ack.src = proc(2, 7);
  ack.dest = proc(1, 0x1234);
  ack.srqid = 9;
  ack.drqid = 10;
  ack.tag = 99;  // not a SYNCACK field: not written
  auto bytes = encode(ack);
  CHECK(bytes == hex("00000003 00000000"
                     "00000000 00000000 0000ffff 7f000002 00000000 00000007"
                     "00000000 00000000 0000ffff 7f000001 00000000 00001234"
                     "00000000 00000009 00000000 0000000a"
                     "00000000 00000000 00000000 00000000 00000000 00000000"
                     "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"));
  Packet fini;
  fini.type = PacketType::fini;
  fini.src = proc(1, 1);  // FINI uses no proc ids
  auto f = encode(fini);
  std::vector<std::byte> expect(128, std::byte{0});
  expect[3] = std::byte{7};
  CHECK(f == expect);
}

TEST_CASE("packet: unused fields from a peer are ignored (returned as 0)", "[packet]") {
  std::vector<std::byte> bytes(128, std::byte{0xab});
  // PROTOACK, pk_len 0; everything else junk
  for (int i = 0; i < 8; ++i) bytes[static_cast<size_t>(i)] = std::byte{0};
  bytes[3] = std::byte{2};
  auto p = decode(bytes, 100);
  REQUIRE(p);
  CHECK(p->type == PacketType::protoack);
  CHECK(p->srqid == 0);
  CHECK(p->msglen == 0);
  CHECK(p->tag == 0);
  CHECK(p->src.pid == static_cast<std::int64_t>(0xababababababababull));  // proc ids are used
}

TEST_CASE("packet: a header-only packet is 128 bytes whatever its pk_len says", "[packet]") {
  // Spec table 3.2 gives pk_len a meaning only for DATA and DATASYNC.
  // LAM/MPI 7.1.4 writes 128 there in PROTOACK, SYNCACK and FINI.
  for (auto t : {PacketType::protoack, PacketType::syncack, PacketType::cancel,
                 PacketType::cancelyes, PacketType::cancelno, PacketType::fini}) {
    for (std::uint32_t len : {0u, 1u, 128u, 0x7fffffffu, 0xffffffffu}) {
      CAPTURE(packet_type_name(t), len);
      Packet c;
      c.type = t;
      c.src = proc(1, 11);
      c.dest = proc(2, 22);
      c.srqid = 5;
      auto b = encode(c);
      CHECK(b[4] == std::byte{0});  // we write pk_len 0
      b[4] = static_cast<std::byte>(len >> 24);
      b[5] = static_cast<std::byte>(len >> 16);
      b[6] = static_cast<std::byte>(len >> 8);
      b[7] = static_cast<std::byte>(len);
      auto p = decode(b, 16);  // even above maxdatalen: no data follows
      REQUIRE(p);
      CHECK(p->type == t);
      CHECK(p->len == 0);
      CHECK_FALSE(carries_data(t));
    }
  }
  CHECK(carries_data(PacketType::data));
  CHECK(carries_data(PacketType::datasync));
}

TEST_CASE("packet reader: header-only packets with any pk_len do not swallow the next packet",
          "[packet]") {
  // A stream as LAM writes it: SYNCACK, PROTOACK, DATA, FINI, each control
  // packet claiming pk_len 128 and followed directly by the next header.
  std::vector<std::byte> stream;
  auto put = [&](Packet p, std::uint32_t claimed, std::uint32_t data_bytes) {
    auto h = encode(p);
    h[4] = static_cast<std::byte>(claimed >> 24);
    h[5] = static_cast<std::byte>(claimed >> 16);
    h[6] = static_cast<std::byte>(claimed >> 8);
    h[7] = static_cast<std::byte>(claimed);
    stream.insert(stream.end(), h.begin(), h.end());
    for (std::uint32_t k = 0; k < data_bytes; ++k)
      stream.push_back(static_cast<std::byte>(0x40 + k));
  };
  Packet syncack;
  syncack.type = PacketType::syncack;
  syncack.src = proc(1, 1);
  syncack.dest = proc(2, 2);
  syncack.srqid = 9;
  syncack.drqid = 10;
  Packet ack;
  ack.type = PacketType::protoack;
  ack.src = proc(1, 1);
  ack.dest = proc(2, 2);
  Packet data = sample_data();
  data.type = PacketType::data;
  data.len = 16;
  Packet fini;
  fini.type = PacketType::fini;
  put(syncack, 128, 0);
  put(ack, 128, 0);
  put(data, 16, 16);
  put(fini, 128, 0);
  for (std::size_t chunk : {1u, 128u, 4096u}) {
    auto got = impi::test::frame(stream, chunk, 1024);
    REQUIRE(got.size() == 4);
    CHECK(got[0].header.type == PacketType::syncack);
    CHECK(got[0].header.drqid == 10);
    CHECK(got[0].data.empty());
    CHECK(got[1].header.type == PacketType::protoack);
    CHECK(got[2].header.type == PacketType::data);
    REQUIRE(got[2].data.size() == 16);
    CHECK(got[2].data[15] == std::byte{0x4f});
    CHECK(got[3].header.type == PacketType::fini);
  }
}

TEST_CASE("packet: bad headers are rejected with a reason", "[packet]") {
  auto good = encode(sample_data());
  SECTION("unknown type") {
    auto b = good;
    b[3] = std::byte{8};
    auto p = decode(b, 1024);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.message(), Catch::Contains("unknown packet type 8"));
  }
  SECTION("pk_len above maxdatalen") {
    auto p = decode(good, 15);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.message(), Catch::Contains("maxdatalen"));
  }
  SECTION("pk_len above pk_msglen") {
    auto d = sample_data();
    d.msglen = 8;
    auto p = decode(encode(d), 1024);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.message(), Catch::Contains("pk_msglen"));
  }
  SECTION("short header") {
    auto p = decode(std::span(good).first(127), 1024);
    REQUIRE_FALSE(p);
  }
}

TEST_CASE("packet reader: packets split anywhere in the stream come out whole", "[packet]") {
  std::vector<std::byte> stream;
  std::vector<Packet> sent;
  for (int i = 0; i < 20; ++i) {
    Packet p = sample_data();
    p.type = i % 3 ? PacketType::data : PacketType::protoack;
    p.len = p.type == PacketType::data ? static_cast<std::uint32_t>(i % 17) : 0;
    p.msglen = 100;
    p.srqid = static_cast<std::uint64_t>(i);
    Packet norm = decode(encode(p), 16).value();
    sent.push_back(norm);
    auto h = encode(p);
    stream.insert(stream.end(), h.begin(), h.end());
    for (std::uint32_t k = 0; k < p.len; ++k) stream.push_back(static_cast<std::byte>(i + k));
  }
  for (std::size_t chunk : {1u, 7u, 128u, 1000u}) {
    PacketReader r(16);
    std::size_t got = 0;
    for (std::size_t at = 0; at < stream.size(); at += chunk) {
      r.feed(std::span(stream).subspan(at, std::min(chunk, stream.size() - at)));
      while (auto item = r.next()) {
        REQUIRE(item->ok());
        const auto &it = item->value();
        CHECK(it.header == sent[got]);
        REQUIRE(it.data.size() == sent[got].len);
        for (std::size_t k = 0; k < it.data.size(); ++k)
          CHECK(it.data[k] == static_cast<std::byte>(got + k));
        ++got;
      }
    }
    CHECK(got == sent.size());
    CHECK(r.buffered() == 0);
  }
}

TEST_CASE("packet reader: a corrupt header ends the stream for good", "[packet]") {
  PacketReader r(16);
  std::vector<std::byte> junk(128, std::byte{0xff});
  r.feed(junk);
  auto item = r.next();
  REQUIRE(item);
  REQUIRE_FALSE(*item);
  r.feed(encode(sample_data()));
  auto again = r.next();
  REQUIRE(again);
  CHECK_FALSE(*again);
}

TEST_CASE("flow control: hiwater stops a sender, ackmark PROTOACKs resume it", "[flow]") {
  FlowControl fc(2, 3, 2);
  CHECK(fc.may_send(1, PacketType::data));
  fc.sent(1, PacketType::data);
  fc.sent(1, PacketType::syncack);  // every packet but PROTOACK and FINI counts
  fc.sent(1, PacketType::protoack);
  fc.sent(1, PacketType::cancel);
  CHECK(fc.unacked(1) == 3);
  CHECK_FALSE(fc.may_send(1, PacketType::datasync));
  CHECK(fc.may_send(1, PacketType::protoack));  // ACKs and FINI always go
  CHECK(fc.may_send(1, PacketType::fini));
  CHECK(fc.may_send(0, PacketType::data));  // other pairs are not affected
  REQUIRE(fc.acked(1).ok());
  CHECK(fc.unacked(1) == 1);
  CHECK(fc.may_send(1, PacketType::data));
  CHECK_FALSE(fc.acked(1).ok());  // more ACKs than packets: the peer's error
  CHECK(fc.unacked(1) == 1);
}

TEST_CASE("flow control: a PROTOACK is due every ackmark packets from a source", "[flow]") {
  FlowControl fc(3, 5, 2);
  int acks = 0;
  for (int i = 0; i < 10; ++i) acks += fc.received(0, PacketType::data);
  CHECK(acks == 3);
  CHECK_FALSE(fc.received(0, PacketType::protoack));
  CHECK_FALSE(fc.received(0, PacketType::fini));
  CHECK_FALSE(fc.received(1, PacketType::cancelno));
  CHECK_FALSE(fc.received(1, PacketType::cancelyes));
  CHECK(fc.received(1, PacketType::syncack));
}
