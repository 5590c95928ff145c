// The rendezvous server's protocol logic, driven byte by byte.
#include "startup/server_core.hpp"

#include <catch2/catch.hpp>

#include "base/byteorder.hpp"
#include "startup/auth.hpp"

using namespace impi::startup;
using namespace impi::startup::wire;

namespace {

ServerConfig key_config(int n, std::uint64_t key = 5678) {
  ServerConfig c;
  c.nclients = n;
  c.auth_mask = 1u << kAuthKey;
  c.key = key;
  return c;
}

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto &p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes login(int rank, std::uint64_t key = 5678) {
  return cat({encode_client_auth(0x2), encode_auth_key(key), encode_impi(rank)});
}

// Everything the server sent to `conn`, and whether it closed it.
struct Seen {
  Bytes sent;
  bool closed = false;
};
std::map<ServerCore::ConnId, Seen> drain(ServerCore &s) {
  std::map<ServerCore::ConnId, Seen> out;
  for (auto &a : s.take_actions()) {
    if (a.kind == ServerCore::Action::send)
      out[a.conn].sent.insert(out[a.conn].sent.end(), a.bytes.begin(), a.bytes.end());
    else
      out[a.conn].closed = true;
  }
  return out;
}

// Splits a server->client byte stream into commands (after the 8-byte AUTH reply).
std::vector<CmdReader::Cmd> commands(const Bytes &b, std::size_t skip = kServerAuthSize) {
  CmdReader r;
  r.feed(std::span(b).subspan(skip));
  std::vector<CmdReader::Cmd> out;
  for (;;) {
    auto n = r.next();
    REQUIRE(n.ok());
    if (!n->has_value()) break;
    out.push_back(std::move(**n));
  }
  return out;
}

}  // namespace

TEST_CASE("two clients authenticate, join, exchange labels and finish") {
  ServerCore s(key_config(2));
  s.connected(1, "a");
  s.connected(2, "b");
  s.received(1, login(0));
  auto first = drain(s);
  CHECK(first[1].sent == encode_server_auth(kAuthKey, 0));  // no size yet: client 1 missing
  s.received(2, login(1));
  auto joined = drain(s);
  CHECK(joined[1].sent == encode_impi(2));
  CHECK(commands(joined[2].sent).size() == 1);

  s.received(1, encode_coll_submit(kLabelCNhosts, encode_u32(3)));
  CHECK(drain(s).empty());  // waits for client 1
  s.received(2, encode_coll_submit(kLabelCNhosts, encode_u32(2)));
  auto b = drain(s);
  CHECK(b[1].sent == encode_coll_bcast(kLabelCNhosts, 0x3, cat({encode_u32(3), encode_u32(2)})));
  CHECK(b[2].sent == b[1].sent);

  // Client 1 skips C_DATALEN: detected by its next, higher label.
  s.received(1, encode_coll_submit(kLabelCDatalen, encode_u32(8000)));
  CHECK(drain(s).empty());
  s.received(2, encode_coll_submit(kLabelCTagub, encode_i32(40000)));
  auto skip = drain(s);
  CHECK(skip[1].sent == encode_coll_bcast(kLabelCDatalen, 0x1, encode_u32(8000)));
  s.received(1, encode_cmd(kCmdDone));  // client 0 skips C_TAGUB by finishing
  auto tag = drain(s);
  CHECK(tag[1].sent == encode_coll_bcast(kLabelCTagub, 0x2, encode_i32(40000)));
  CHECK_FALSE(s.startup_complete());
  s.received(2, encode_cmd(kCmdDone));
  auto done = drain(s);
  CHECK(done[1].sent == encode_cmd(kCmdDone));
  CHECK(s.startup_complete());

  s.received(1, encode_cmd(kCmdFini));
  s.disconnected(1);
  CHECK_FALSE(s.finished());
  s.received(2, encode_cmd(kCmdFini));
  CHECK(s.finished());
  CHECK_FALSE(s.failed());
}

TEST_CASE("a wrong key closes that connection and the job waits for the real client") {
  ServerCore s(key_config(1));
  s.connected(1, "rogue");
  s.received(1, login(0, 1234));
  auto d = drain(s);
  CHECK(d[1].closed);
  CHECK_FALSE(s.failed());
  s.connected(2, "real");
  s.received(2, login(0));
  auto ok = drain(s);
  CHECK_FALSE(ok[2].closed);
  CHECK(s.joined_clients() == 1);
}

TEST_CASE("a second connection claiming a taken rank is closed; the first keeps it") {
  ServerCore s(key_config(2));
  s.connected(1, "a");
  s.received(1, login(0));
  s.connected(2, "b");
  s.received(2, login(0));
  auto d = drain(s);
  CHECK(d[2].closed);
  CHECK_FALSE(d[1].closed);
  CHECK(s.joined_clients() == 1);
  CHECK_FALSE(s.failed());
}

TEST_CASE("bad first commands, ranks out of range and garbage are refused") {
  ServerCore s(key_config(2));
  s.connected(1, "x");
  s.received(1, encode_impi(0));  // not AUTH first
  CHECK(drain(s)[1].closed);
  s.connected(2, "y");
  s.received(2, login(7));
  CHECK(drain(s)[2].closed);
  s.connected(3, "z");
  Bytes junk(64, std::byte{0xff});  // a header announcing a negative length
  s.received(3, junk);
  CHECK(drain(s)[3].closed);
  s.connected(4, "w");
  s.received(4, cat({encode_cmd(kCmdAuth, Bytes(3))}));  // AUTH of 3 bytes
  CHECK(drain(s)[4].closed);
  CHECK_FALSE(s.failed());
  CHECK(s.joined_clients() == 0);
}

TEST_CASE("no method in common: the connection is closed") {
  ServerConfig c;
  c.nclients = 1;
  c.auth_mask = 1u << kAuthKey;
  c.key = 1;
  ServerCore s(c);
  s.connected(1, "none-only");
  s.received(1, encode_client_auth(0x1));
  CHECK(drain(s)[1].closed);
}

TEST_CASE("AUTH NONE is accepted when the server has it") {
  ServerConfig c;
  c.nclients = 1;
  c.auth_mask = 1u << kAuthNone;
  ServerCore s(c);
  s.connected(1, "n");
  s.received(1, cat({encode_client_auth(0x3), encode_impi(0)}));
  auto d = drain(s);
  CHECK(Bytes(d[1].sent.begin(), d[1].sent.begin() + 8) == encode_server_auth(kAuthNone, 0));
  CHECK(s.joined_clients() == 1);
}

TEST_CASE("labels out of order or a joined client vanishing fail the job") {
  SECTION("descending labels") {
    ServerCore s(key_config(1));
    s.connected(1, "a");
    s.received(1, login(0));
    s.received(1, encode_coll_submit(kLabelCNprocs, encode_u32(1)));
    s.received(1, encode_coll_submit(kLabelCNhosts, encode_u32(1)));
    CHECK(s.failed());
  }
  SECTION("disconnect before FINI") {
    ServerCore s(key_config(2));
    s.connected(1, "a");
    s.received(1, login(0));
    s.disconnected(1);
    CHECK(s.failed());
    CHECK_THAT(s.failure(), Catch::Contains("client 0") && Catch::Contains("before FINI"));
  }
}

TEST_CASE("unknown commands from a joined client are skipped") {
  ServerCore s(key_config(1));
  s.connected(1, "a");
  s.received(1, cat({login(0), encode_cmd(0x58585858, Bytes(5)), encode_cmd(kCmdDone)}));
  auto d = drain(s);
  CHECK_FALSE(d[1].closed);
  CHECK(s.startup_complete());
}

TEST_CASE("bytes may arrive one at a time") {
  ServerCore s(key_config(1));
  s.connected(1, "slow");
  Bytes all =
      cat({login(0), encode_coll_submit(kLabelCNhosts, encode_u32(1)), encode_cmd(kCmdDone)});
  for (std::byte b : all) s.received(1, std::span(&b, 1));
  CHECK(s.startup_complete());
}

TEST_CASE("auth preference lists and the choice of method") {
  CHECK(parse_auth_preference("3,1-0").value() == std::vector<int>{3, 1, 0});
  CHECK(parse_auth_preference("0-2").value() == std::vector<int>{0, 1, 2});
  CHECK(parse_auth_preference("1").value() == std::vector<int>{1});
  for (const char *bad : {"", ",", "1,", "a", "1-", "-1", "5000"}) {
    INFO(bad);
    CHECK_FALSE(parse_auth_preference(bad).ok());
  }
  CHECK(choose_auth(0x3, 0x3, {}) == kAuthKey);  // strongest first
  CHECK(choose_auth(0x3, 0x3, {0, 1}) == kAuthNone);
  CHECK(choose_auth(0x2, 0x1, {}) == std::nullopt);
  CHECK(choose_auth(0x3, 0x1, {}) == kAuthNone);
}

TEST_CASE("authentication settings come from the environment") {
  auto env = [](std::map<std::string, std::string> vars) {
    static std::map<std::string, std::string> v;
    v = std::move(vars);
    return +[](const char *n) -> const char * {
      auto it = v.find(n);
      return it == v.end() ? nullptr : it->second.c_str();
    };
  };
  auto k = auth_from_env(env({{"IMPI_AUTH_KEY", "5678"}}));
  REQUIRE(k.ok());
  CHECK(k->key == 5678u);
  CHECK(k->mask() == 0x100002);  // IMPI_AUTH_KEY and impi's IMPI_AUTH_HMAC (method 20)
  CHECK(auth_from_env(env({{"IMPI_AUTH_KEY", "0xff"}}))->key == 255u);
  CHECK(auth_from_env(env({{"IMPI_AUTH_NONE", ""}}))->mask() == 0x1);
  CHECK_FALSE(auth_from_env(env({{"IMPI_AUTH_KEY", "12ab"}})).ok());
  CHECK(auth_from_env(env({}))->mask() == 0);
}
