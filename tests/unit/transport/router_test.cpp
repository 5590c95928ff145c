// Tests of the host agent's router: two agents joined by a channel, their
// procs played by this test over local links (socketpairs).
#include "transport/impi/router.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <thread>

#include "test_loop.hpp"

using namespace impi::transport::wire;
using impi::base::Fd;

namespace {
ProcId id_of(std::size_t proc) {
  ProcId p;
  p.host[15] = static_cast<std::byte>(proc < 2 ? 1 : 2);  // procs 0, 1 on host 0; 2 on host 1
  p.pid = 1000 + static_cast<std::int64_t>(proc);
  return p;
}
JobLayout layout(int me) {
  return {{id_of(0), id_of(1), id_of(2)}, {0, 0, 1}, 2, me, {}};
}

std::pair<Fd, Fd> pair_of_sockets() {
  int sv[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  return {Fd(sv[0]), Fd(sv[1])};
}

// A proc as the router sees it: the other end of its link.
struct Proc {
  Fd fd;
  PacketReader reader{1 << 16};
  std::vector<PacketReader::Item> got;
  void send(std::size_t from, std::size_t to, std::uint64_t seq, std::uint32_t len) {
    Packet p;
    p.type = PacketType::data;
    p.len = len;
    p.msglen = len;
    p.src = id_of(from);
    p.dest = id_of(to);
    p.srqid = seq;
    auto b = encode(p);
    for (std::uint32_t i = 0; i < len; ++i) b.push_back(static_cast<std::byte>(seq + i + from));
    outbox.insert(outbox.end(), b.begin(), b.end());
    flush();
  }
  // What the link did not take waits here, as in a real proc.
  std::vector<std::byte> outbox;
  void flush() {
    std::size_t off = 0;
    while (off < outbox.size()) {
      ssize_t n =
          ::send(fd.get(), outbox.data() + off, outbox.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    outbox.erase(outbox.begin(), outbox.begin() + static_cast<long>(off));
  }
  void pump() {
    std::byte buf[65536];
    for (;;) {
      ssize_t n = ::recv(fd.get(), buf, sizeof buf, MSG_DONTWAIT);
      if (n <= 0) break;
      reader.feed(std::span(buf, static_cast<std::size_t>(n)));
    }
    while (auto item = reader.next()) {
      REQUIRE(item->ok());
      got.push_back(std::move(item->value()));
    }
  }
};

using Loop = TestLoop;

struct TwoAgents {
  Loop loop;
  std::vector<std::string> errors;
  std::unique_ptr<AgentRouter> a, b;
  Proc p0, p1, p2;
  // `small_links`: agent B's end of proc 2's link buffers about 4 KiB, not
  // the 4 MiB it asks for (which a machine whose net.core.wmem_max allows
  // it grants: then all the test sends fits, and nothing pushes back).
  explicit TwoAgents(std::size_t queue_limit = 0, bool small_links = false) {
    ChannelConfig cfg{32, 2, 2, "", 0, queue_limit};
    auto err = [this](const impi::base::Status &s) { errors.push_back(s.message()); };
    a = std::make_unique<AgentRouter>(loop.base, cfg, layout(0), err);
    b = std::make_unique<AgentRouter>(loop.base, cfg, layout(1), err);
    auto [ca, cb] = pair_of_sockets();
    a->add_channel(1, std::move(ca));
    b->add_channel(0, std::move(cb));
    auto [l0, e0] = pair_of_sockets();
    auto [l1, e1] = pair_of_sockets();
    auto [l2, e2] = pair_of_sockets();
    REQUIRE(a->add_local(0, std::move(l0)).ok());
    REQUIRE(a->add_local(1, std::move(l1)).ok());
    const int agent_end = l2.get();
    REQUIRE(b->add_local(2, std::move(l2)).ok());
    if (small_links) {  // (after add_local, which asks for 4 MiB)
      int size = 4096;
      REQUIRE(::setsockopt(agent_end, SOL_SOCKET, SO_SNDBUF, &size, sizeof size) == 0);
    }
    CHECK_FALSE(b->add_local(0, pair_of_sockets().first).ok());  // not on host 1
    p0.fd = std::move(e0);
    p1.fd = std::move(e1);
    p2.fd = std::move(e2);
  }
};
}  // namespace

TEST_CASE("router: procs on two hosts exchange packets through their agents", "[router]") {
  TwoAgents t;
  constexpr int kN = 300;
  for (int i = 0; i < kN; ++i) {
    t.p0.send(0, 2, static_cast<std::uint64_t>(i), static_cast<std::uint32_t>(i % 33));
    t.p1.send(1, 2, static_cast<std::uint64_t>(i), 1);
    t.p2.send(2, 0, static_cast<std::uint64_t>(i), static_cast<std::uint32_t>((i * 7) % 33));
    t.loop.run_until([] { return true; });
    event_base_loop(t.loop.base, EVLOOP_NONBLOCK);
  }
  REQUIRE(t.loop.run_until([&] {
    t.p0.pump();
    t.p2.pump();
    return t.p0.got.size() == kN && t.p2.got.size() == 2 * kN;
  }));
  CHECK(t.errors.empty());
  std::map<std::int64_t, std::uint64_t> next;  // per source pid
  int bad = 0;
  for (auto *list : {&t.p0.got, &t.p2.got})
    for (auto &it : *list) {
      auto &n = next[it.header.src.pid];
      if (it.header.srqid != n) ++bad;
      for (std::size_t k = 0; k < it.data.size(); ++k)
        if (it.data[k] !=
            static_cast<std::byte>(it.header.srqid + k +
                                   static_cast<std::uint64_t>(it.header.src.pid - 1000)))
          ++bad;
      ++n;
    }
  CHECK(bad == 0);
  CHECK(next[1000] == kN);
  CHECK(next[1001] == kN);
  CHECK(next[1002] == kN);
  // Shutdown: FINI both ways, channels closed cleanly.
  t.a->finish();
  t.b->finish();
  REQUIRE(t.loop.run_until([&] { return t.a->all_closed() && t.b->all_closed(); }));
  CHECK(t.errors.empty());
}

TEST_CASE("router: a proc cannot send as another proc, or to a proc on its own host", "[router]") {
  SECTION("spoofed source") {
    TwoAgents t;
    t.p1.send(0, 2, 1, 4);  // proc 1 claims to be proc 0
    REQUIRE(t.loop.run_until([&] { return !t.errors.empty(); }));
    CHECK_THAT(t.errors[0], Catch::Contains("proc 1 sent a packet it may not send"));
  }
  SECTION("destination on the same host") {
    TwoAgents t;
    t.p1.send(1, 0, 1, 4);
    REQUIRE(t.loop.run_until([&] { return !t.errors.empty(); }));
    CHECK_THAT(t.errors[0], Catch::Contains("which no channel reaches"));
  }
}

TEST_CASE("router: a proc that does not read holds back its senders, not the agent's memory",
          "[router]") {
  // ackmark = hiwater = 2. Proc 2 does not read: agent B writes into its
  // link until the socket is full, and a packet counts as received (ACK)
  // only once written; so agent A must keep the rest queued.
  TwoAgents t;
  constexpr int kN = 60000;  // 60000 x 160 bytes: well past the link's socket buffer (4 MiB asked)
  for (int i = 0; i < kN; ++i) {
    t.p0.send(0, 2, static_cast<std::uint64_t>(i), 32);
    if (i % 64 == 0) event_base_loop(t.loop.base, EVLOOP_NONBLOCK);
  }
  t.loop.run_until([] { return false; }, 300);  // let everything that can move, move
  CHECK(t.a->queued_to(1) > kN / 2);
  REQUIRE(t.loop.run_until([&] {
    t.p2.pump();
    return t.p2.got.size() == kN;
  }));
  for (std::size_t i = 0; i < t.p2.got.size(); ++i)
    if (t.p2.got[i].header.srqid != i) FAIL("packet " << i << " out of order");
  CHECK(t.a->queued_to(1) == 0);
  CHECK(t.errors.empty());
}

TEST_CASE("router: a channel's queue is bounded; the proc's link waits, and nothing is lost",
          "[router]") {
  // As above, with a 8 KiB limit on what agent A queues for one proc: A
  // stops reading proc 0's link instead, so the backlog stays in proc 0.
  constexpr std::size_t kLimit = 8192, kPacket = 128 + 32;
  TwoAgents t(kLimit, true);
  constexpr int kN = 4000;
  for (int i = 0; i < kN; ++i) {
    t.p0.send(0, 2, static_cast<std::uint64_t>(i), 32);
    if (i % 64 == 0) event_base_loop(t.loop.base, EVLOOP_NONBLOCK);
  }
  std::size_t most = 0;
  t.loop.run_until(
      [&] {
        most = std::max(most, t.a->queued_to(1));
        t.p0.flush();
        return false;
      },
      300);
  CHECK(most > 0);
  CHECK(most * kPacket <= kLimit + kPacket);  // the agent's queue for that proc
  CHECK(!t.p0.outbox.empty());                // the rest waits in the proc
  REQUIRE(t.loop.run_until([&] {
    most = std::max(most, t.a->queued_to(1));
    t.p0.flush();
    t.p2.pump();
    return t.p2.got.size() == kN;
  }));
  CHECK(most * kPacket <= kLimit + kPacket);
  for (std::size_t i = 0; i < t.p2.got.size(); ++i)
    if (t.p2.got[i].header.srqid != i) FAIL("packet " << i << " out of order");
  CHECK(t.a->queued_to(1) == 0);
  CHECK(t.errors.empty());
}

TEST_CASE("router: packets for a proc that has not linked yet wait for it", "[router]") {
  Loop loop;
  std::vector<std::string> errors;
  auto err = [&](const impi::base::Status &s) { errors.push_back(s.message()); };
  ChannelConfig cfg{32, 2, 2, ""};
  AgentRouter a(loop.base, cfg, layout(0), err), b(loop.base, cfg, layout(1), err);
  auto [ca, cb] = pair_of_sockets();
  a.add_channel(1, std::move(ca));
  b.add_channel(0, std::move(cb));
  auto [l0, e0] = pair_of_sockets();
  REQUIRE(a.add_local(0, std::move(l0)).ok());
  Proc p0, p2;
  p0.fd = std::move(e0);
  for (int i = 0; i < 10; ++i) p0.send(0, 2, static_cast<std::uint64_t>(i), 8);
  loop.run_until([] { return false; }, 200);  // proc 2 is still "in MPI_Init"
  auto [l2, e2] = pair_of_sockets();
  REQUIRE(b.add_local(2, std::move(l2)).ok());
  p2.fd = std::move(e2);
  REQUIRE(loop.run_until([&] {
    p2.pump();
    return p2.got.size() == 10;
  }));
  for (std::size_t i = 0; i < 10; ++i) CHECK(p2.got[i].header.srqid == i);
  CHECK(errors.empty());
}
