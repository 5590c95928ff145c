// Golden bytes of the IMPI startup messages, from the worked examples of
// IMPI 2.3.3-2.3.5 (the 3-client job: client 0 has 3 hosts, clients 1 and
// 2 have 2 each).
#include <catch2/catch.hpp>
#include <initializer_list>

#include "startup/impi_job.hpp"
#include "startup/wire/startup_protocol.hpp"

using namespace impi::startup::wire;

namespace {
Bytes be32(std::initializer_list<std::uint32_t> words) {
  Bytes b;
  for (auto w : words)
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::byte>((w >> s) & 0xff));
  return b;
}
}  // namespace

TEST_CASE("AUTH NONE exchange (2.3.3)") {
  // Client sends IMPI_Cmd{AUTH,4} IMPI_Client_auth{0x0001}; server IMPI_Server_auth{0,0}.
  CHECK(encode_client_auth(0x1) == be32({0x41555448, 4, 0x1}));
  CHECK(encode_server_auth(kAuthNone, 0) == be32({0, 0}));
}

TEST_CASE("AUTH KEY exchange (2.3.3)") {
  // Client: Cmd{AUTH,4} {0x0002}; server {1,0}; client IMPI_Auth_key{5678}.
  CHECK(encode_client_auth(0x2) == be32({0x41555448, 4, 0x2}));
  CHECK(encode_server_auth(kAuthKey, 0) == be32({1, 0}));
  CHECK(encode_auth_key(5678) == be32({0, 5678}));
}

TEST_CASE("IMPI exchange of the 3-client job (2.3.4)") {
  CHECK(encode_impi(0) == be32({0x494D5049, 4, 0}));
  CHECK(encode_impi(1) == be32({0x494D5049, 4, 1}));
  CHECK(encode_impi(2) == be32({0x494D5049, 4, 2}));
  CHECK(encode_impi(3) == be32({0x494D5049, 4, 3}));  // the size, back to each client
}

TEST_CASE("C_NHOSTS exchange: len 20, mask 0x7 (2.3.5)") {
  CHECK(encode_coll_submit(kLabelCNhosts, encode_u32(3)) == be32({0x434F4C4C, 8, 0x1100, 3}));
  CHECK(encode_coll_submit(kLabelCNhosts, encode_u32(2)) == be32({0x434F4C4C, 8, 0x1100, 2}));
  Bytes values = be32({3, 2, 2});
  Bytes bcast = encode_coll_bcast(kLabelCNhosts, 0x7, values);
  CHECK(bcast == be32({0x434F4C4C, 20, 0x1100, 0x7, 3, 2, 2}));
  auto d = decode_coll_bcast(std::span(bcast).subspan(8));
  REQUIRE(d.ok());
  CHECK(d->label == kLabelCNhosts);
  CHECK(d->client_mask == 0x7);
  CHECK(d->data == values);
}

TEST_CASE("C_DATALEN exchange, all clients and with client 1 missing (2.3.5)") {
  CHECK(encode_coll_submit(kLabelCDatalen, encode_u32(8000)) ==
        be32({0x434F4C4C, 8, 0x1300, 8000}));
  CHECK(encode_coll_bcast(kLabelCDatalen, 0x7, be32({8000, 4000, 4000})) ==
        be32({0x434F4C4C, 20, 0x1300, 0x7, 8000, 4000, 4000}));
  CHECK(encode_coll_bcast(kLabelCDatalen, 0x5, be32({8000, 4000})) ==
        be32({0x434F4C4C, 16, 0x1300, 0x5, 8000, 4000}));
}

TEST_CASE("H_PORT exchange: len 36 (2.3.5)") {
  std::uint32_t p0[] = {5001, 5002, 5003};
  std::uint32_t p1[] = {6001, 6002};
  CHECK(encode_coll_submit(kLabelHPort, encode_u32s(p0)) ==
        be32({0x434F4C4C, 16, 0x2100, 5001, 5002, 5003}));
  CHECK(encode_coll_submit(kLabelHPort, encode_u32s(p1)) ==
        be32({0x434F4C4C, 12, 0x2100, 6001, 6002}));
  CHECK(encode_coll_bcast(kLabelHPort, 0x7, be32({5001, 5002, 5003, 6001, 6002, 7001, 7002})) ==
        be32({0x434F4C4C, 36, 0x2100, 0x7, 5001, 5002, 5003, 6001, 6002, 7001, 7002}));
}

TEST_CASE("DONE and FINI carry no payload") {
  CHECK(encode_cmd(kCmdDone) == be32({0x444F4E45, 0}));
  CHECK(encode_cmd(kCmdFini) == be32({0x46494E49, 0}));
}

TEST_CASE("command names match their ASCII values") {
  CHECK(cmd_name(kCmdAuth) == "AUTH");
  CHECK(cmd_name(kCmdColl) == "COLL");
  CHECK(label_name(kLabelPPid) == "IMPI_P_PID");
  CHECK(cmd_name(0x12345678).empty());
}

TEST_CASE("IPv4 addresses travel IPv4-mapped") {
  auto a = parse_address("127.0.0.2");
  REQUIRE(a.ok());
  Bytes expect = be32({0, 0, 0xffff, 0x7f000002});
  CHECK(Bytes(a->begin(), a->end()) == expect);
  CHECK(format_address(*a) == "127.0.0.2");
  auto v6 = parse_address("::1");
  REQUIRE(v6.ok());
  CHECK(format_address(*v6) == "::1");
  CHECK_FALSE(parse_address("not-an-address").ok());
}

TEST_CASE("host ids: both IPv4 forms are read as IPv4, IPv6 stays IPv6") {
  auto id = [](std::initializer_list<int> bytes) {
    Ipv6 a{};
    std::size_t i = 0;
    for (int b : bytes) a[i++] = static_cast<std::byte>(b);
    return a;
  };
  // IPv4-mapped ::ffff:127.0.0.2 (what we write)
  Ipv6 mapped = id({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 2});
  CHECK(is_ipv4_mapped(mapped));
  CHECK_FALSE(is_ipv4_compatible(mapped));
  CHECK(is_ipv4(mapped));
  CHECK(format_address(mapped) == "127.0.0.2");
  // IPv4-compatible ::127.0.0.1 (what LAM/MPI 7.1.4 writes)
  Ipv6 compat = id({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1});
  CHECK_FALSE(is_ipv4_mapped(compat));
  CHECK(is_ipv4_compatible(compat));
  CHECK(format_address(compat) == "127.0.0.1");
  Ipv6 compat10 = id({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3});
  CHECK(format_address(compat10) == "10.1.2.3");
  // ::1 and :: are IPv6 (loopback, unspecified), not 0.0.0.1 / 0.0.0.0
  Ipv6 loop6 = id({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  CHECK_FALSE(is_ipv4(loop6));
  CHECK(format_address(loop6) == "::1");
  CHECK_FALSE(is_ipv4(Ipv6{}));
  CHECK(format_address(Ipv6{}) == "::");
  // a global IPv6 address whose last 4 bytes look like IPv4
  Ipv6 global = id({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1});
  CHECK_FALSE(is_ipv4(global));
  CHECK(format_address(global) == "2001:db8::7f00:1");
  // an IPv4-mapped-looking prefix with other bytes set is IPv6
  Ipv6 almost = id({0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 127, 0, 0, 1});
  CHECK_FALSE(is_ipv4(almost));
  // parse_address of either text gives the mapped form back for IPv4
  auto p = parse_address("127.0.0.1");
  REQUIRE(p.ok());
  CHECK(is_ipv4_mapped(*p));
}

TEST_CASE("the command reader frames a byte stream and bounds lengths") {
  CmdReader r;
  Bytes two = encode_impi(7);
  Bytes done = encode_cmd(kCmdDone);
  two.insert(two.end(), done.begin(), done.end());
  r.feed(std::span(two).first(5));
  auto none = r.next();
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  r.feed(std::span(two).subspan(5));
  auto c1 = r.next();
  REQUIRE((c1.ok() && c1->has_value()));
  CHECK((*c1)->header.cmd == kCmdImpi);
  CHECK(decode_i32_payload((*c1)->payload).value() == 7);
  auto c2 = r.next();
  REQUIRE((c2.ok() && c2->has_value()));
  CHECK((*c2)->header.cmd == kCmdDone);
  CHECK(r.buffered() == 0);

  CmdReader bad;
  bad.feed(be32({0x434F4C4C, 0x7fffffff}));  // 2 GiB announced: refused before any allocation
  CHECK_FALSE(bad.next().ok());
  CmdReader neg;
  neg.feed(be32({0x434F4C4C, 0xffffffff}));
  CHECK_FALSE(neg.next().ok());
}
