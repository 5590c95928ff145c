// Golden bytes from LAM/MPI 7.1.4, the other IMPI implementation: packets
// its agent (impid) wrote on a host channel to an impi host. They must
// frame and decode: LAM writes pk_len 128 in header-only packets (spec
// table 3.2 gives pk_len a meaning only for DATA and DATASYNC) and junk in
// the fields a type does not use.
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "transport/impi/packet.hpp"
#include "wire/frame.hpp"
#include "wire/hex.hpp"

using namespace impi::transport::wire;

namespace {
using impi::test::hex;

// Bytes LAM/MPI 7.1.4's agent wrote on a host channel to an impi host,
// captured with tcpdump on loopback (tests/interop/lam, phases short sync
// stream): header-only packets carry pk_len 128 and junk in unused fields;
// LAM's host id is IPv4-compatible (::127.0.0.1).
// SYNCACK, DATASYNC (100 data bytes), SYNCACK, PROTOACK
const char *kLamSyncStream =
    "00000003 00000080 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000004"
    "00000000 00000000 00000000 00000080 ffffffff ffffffff 49000000 00000000"
    "00000000 00000004 ffffffff ffffffff 00000000 00000000 00000000 00000000"
    "00000001 00000064 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000001"
    "00000000 00000000 00000000 00000064 00000001 00000006 00000000 00000000"
    "00000000 00000005 00000000 00000000 00000000 00000000 00000000 00000000"
    "a7aeb5bc c3cad1d8 dfe6edf4 fb020910 171e252c 333a4148 4f565d64 6b727980"
    "878e959c a3aab1b8 bfc6cdd4 dbe2e9f0 f7fe050c 131a2128 2f363d44 4b525960"
    "676e757c 838a9198 9fa6adb4 bbc2c9d0 d7dee5ec f3fa0108 0f161d24 2b323940"
    "474e555c 00000003 00000080 00000000 00000000 00000000 7f000001 00000000"
    "0000771d 00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000"
    "00000005 00000000 00000002 00000000 00000080 ffffffff ffffffff 49000000"
    "00000000 00000000 00000006 ffffffff ffffffff 00000000 00000000 00000000"
    "00000000 00000002 00000080 00000000 00000000 00000000 7f000001 00000000"
    "0000771d 00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000"
    "00000000 00000000 00000000 00000000 00000080 ffffffff ffffffff 49000000"
    "00000000 00000000 00000007 ffffffff ffffffff 00000000 00000000 00000000"
    "00000000";
// PROTOACK, PROTOACK, DATA (64 bytes), DATA (64 bytes)
const char *kLamAckStream =
    "00000002 00000080 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000000"
    "00000000 00000000 00000000 00000080 ffffffff ffffffff 49000000 00000000"
    "00000000 0000001f ffffffff ffffffff 00000000 00000000 00000000 00000000"
    "00000002 00000080 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000000"
    "00000000 00000000 00000000 00000080 ffffffff ffffffff 49000000 00000000"
    "00000000 00000020 ffffffff ffffffff 00000000 00000000 00000000 00000000"
    "00000000 00000040 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000000"
    "00000000 00000000 00000000 00000040 00000001 00000064 00000000 00000000"
    "00000000 00000021 00000000 00000000 00000000 00000000 00000000 00000000"
    "00070e15 1c232a31 383f464d 545b6269 70777e85 8c939aa1 a8afb6bd c4cbd2d9"
    "e0e7eef5 fc030a11 181f262d 343b4249 50575e65 6c737a81 888f969d a4abb2b9"
    "00000000 00000040 00000000 00000000 00000000 7f000001 00000000 0000771d"
    "00000000 00000000 0000ffff 7f000002 00000007 71800000 00000000 00000000"
    "00000000 00000000 00000000 00000040 00000001 00000065 00000000 00000000"
    "00000000 00000022 00000000 00000000 00000000 00000000 00000000 00000000"
    "838a9198 9fa6adb4 bbc2c9d0 d7dee5ec f3fa0108 0f161d24 2b323940 474e555c"
    "636a7178 7f868d94 9ba2a9b0 b7bec5cc d3dae1e8 eff6fd04 0b121920 272e353c";
// FINI
const char *kLamFini =
    "00000007 00000080 00000000 00000000 00000000 00000000 ffffffff ffffffff"
    "00000000 00000000 00000000 00000000 ffffffff ffffffff 00000000 00000000"
    "00000000 00000000 00000000 00000080 ffffffff ffffffff 00000000 00000000"
    "00000000 000000ea ffffffff ffffffff 00000000 00000000 00000000 00000000";

std::vector<PacketReader::Item> frame(const std::vector<std::byte> &stream, std::size_t chunk) {
  return impi::test::frame(stream, chunk, 65536);
}

// lam_interop.c's payload byte i for a seed.
std::byte pattern(int seed, int i) {
  return static_cast<std::byte>((seed * 131 + i * 7) & 0xff);
}
}  // namespace

TEST_CASE("LAM bytes: SYNCACK and PROTOACK with pk_len 128 around a DATASYNC", "[packet][lam]") {
  auto stream = hex(kLamSyncStream);
  REQUIRE(stream.size() == 128 + 228 + 128 + 128);
  for (std::size_t chunk : {1u, 100u, 128u, 4096u}) {
    CAPTURE(chunk);
    auto got = frame(stream, chunk);
    REQUIRE(got.size() == 4);
    CHECK(got[0].header.type == PacketType::syncack);
    CHECK(got[0].header.len == 0);
    CHECK(got[0].header.srqid == 4);
    CHECK(got[0].data.empty());
    const Packet &ds = got[1].header;
    CHECK(ds.type == PacketType::datasync);
    CHECK(ds.len == 100);
    CHECK(ds.msglen == 100);
    CHECK(ds.srqid == 1);
    CHECK(ds.lsrank == 1);
    CHECK(ds.tag == 6);
    CHECK(ds.cid == 0);
    REQUIRE(got[1].data.size() == 100);
    for (int i = 0; i < 100; ++i) CHECK(got[1].data[static_cast<std::size_t>(i)] == pattern(13, i));
    CHECK(got[2].header.type == PacketType::syncack);
    CHECK(got[3].header.type == PacketType::protoack);
    CHECK(got[3].header.srqid == 0);  // junk in unused fields reads as 0
    // LAM's host id: IPv4-compatible ::127.0.0.1, pid 0x771d
    ProcId lam;
    lam.host[12] = std::byte{127};
    lam.host[15] = std::byte{1};
    lam.pid = 0x771d;
    for (const auto &it : got) CHECK(it.header.src == lam);
  }
}

TEST_CASE("LAM bytes: PROTOACKs between 64-byte DATA packets", "[packet][lam]") {
  auto got = frame(hex(kLamAckStream), 7);
  REQUIRE(got.size() == 4);
  CHECK(got[0].header.type == PacketType::protoack);
  CHECK(got[1].header.type == PacketType::protoack);
  for (int k = 2; k < 4; ++k) {
    CHECK(got[static_cast<std::size_t>(k)].header.type == PacketType::data);
    CHECK(got[static_cast<std::size_t>(k)].header.len == 64);
    CHECK(got[static_cast<std::size_t>(k)].data.size() == 64);
  }
}

TEST_CASE("LAM bytes: FINI with pk_len 128 is a 128-byte packet", "[packet][lam]") {
  auto fini = hex(kLamFini);
  REQUIRE(fini.size() == 128);
  auto p = decode(fini, 1024);
  REQUIRE(p);
  CHECK(p->type == PacketType::fini);
  CHECK(p->len == 0);
  // Followed at once by anything: the next packet starts right after.
  auto stream = fini;
  auto more = hex(kLamFini);
  stream.insert(stream.end(), more.begin(), more.end());
  CHECK(frame(stream, 128).size() == 2);
}
