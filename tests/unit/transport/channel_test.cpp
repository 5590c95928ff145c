// Tests of the IMPI host channel over a socketpair: two channels talking
// to each other, and one channel driven by a fake peer host written here
// (raw bytes, so every packet we send is checked field by field).
#include "transport/impi/channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "base/byteorder.hpp"
#include "test_loop.hpp"

using namespace impi::transport::wire;
using impi::base::Fd;

namespace {
ProcId proc(int side, std::size_t index) {
  ProcId p;
  p.host[15] = static_cast<std::byte>(side);
  p.pid = static_cast<std::int64_t>(index) + 100;
  return p;
}
HostChannel::Resolve resolver(int side, std::size_t n) {
  return [side, n](const ProcId &p) -> std::optional<std::size_t> {
    if (p.host[15] != static_cast<std::byte>(side) || p.pid < 100 ||
        p.pid >= 100 + static_cast<std::int64_t>(n))
      return std::nullopt;
    return static_cast<std::size_t>(p.pid - 100);
  };
}

using Loop = TestLoop;

Packet data_packet(int from_side, std::size_t src, int to_side, std::size_t dest, std::uint64_t seq,
                   std::uint32_t len) {
  Packet p;
  p.type = PacketType::data;
  p.len = len;
  p.src = proc(from_side, src);
  p.dest = proc(to_side, dest);
  p.srqid = seq;
  p.msglen = len;
  p.tag = static_cast<std::int32_t>(seq % 1000);
  return p;
}
std::vector<std::byte> payload(std::uint64_t seq, std::uint32_t len) {
  std::vector<std::byte> d(len);
  for (std::uint32_t i = 0; i < len; ++i) d[i] = static_cast<std::byte>(seq * 7 + i);
  return d;
}

// The bytes of DATA packets 0, 1, ... from remote proc 1 to local proc 0,
// packet `seq` of lens[seq] bytes with its payload().
std::vector<std::byte> data_stream(const std::vector<std::uint32_t> &lens) {
  std::vector<std::byte> stream;
  for (std::uint64_t seq = 0; seq < lens.size(); ++seq) {
    auto bytes = encode(data_packet(2, 1, 1, 0, seq, lens[seq]));
    auto data = payload(seq, lens[seq]);
    stream.insert(stream.end(), bytes.begin(), bytes.end());
    stream.insert(stream.end(), data.begin(), data.end());
  }
  return stream;
}

// The fake peer: reads whole packets from the raw end of the socketpair.
struct FakePeer {
  explicit FakePeer(int f) : fd(f) {}
  int fd;
  PacketReader reader{1 << 20};
  std::vector<PacketReader::Item> got;
  void pump() {
    std::byte buf[65536];
    for (;;) {
      ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n <= 0) break;
      reader.feed(std::span(buf, static_cast<std::size_t>(n)));
    }
    while (auto item = reader.next()) {
      REQUIRE(item->ok());
      got.push_back(std::move(item->value()));
    }
  }
  void put(const Packet &p, std::span<const std::byte> data = {}) {
    auto h = encode(p);
    h.insert(h.end(), data.begin(), data.end());
    REQUIRE(::send(fd, h.data(), h.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(h.size()));
  }
};

std::pair<Fd, Fd> socket_pair() {
  int sv[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  return {Fd(sv[0]), Fd(sv[1])};
}

// A channel to a fake peer host, `here` procs on our side (host side 1)
// and `there` on the peer's (side 2), counting the packets delivered to us.
std::unique_ptr<HostChannel> counting_channel(Loop &loop, Fd fd, ChannelConfig config,
                                              std::size_t here, std::size_t there, int &delivered) {
  return std::make_unique<HostChannel>(
      loop.base, std::move(fd), std::move(config), here, there, resolver(1, here),
      resolver(2, there), [&delivered](auto, auto, auto &, auto) { ++delivered; }, [](auto &) {});
}
}  // namespace

TEST_CASE("channel: two hosts exchange packets of every pair with ackmark = hiwater = 1",
          "[channel]") {
  Loop loop;
  auto [fa, fb] = socket_pair();
  ChannelConfig cfg{16, 1, 1, "host B"};
  constexpr std::size_t kA = 2, kB = 3;
  constexpr std::uint64_t kPerPair = 300;
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> next_a,
      next_b;  // expected seq per pair
  int bad = 0, closed_ok = 0;
  auto check = [&](std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> &next) {
    return
        [&](std::size_t dest, std::size_t src, const Packet &p, std::span<const std::byte> data) {
          auto &n = next[{src, dest}];
          if (p.srqid != n ||
              std::vector<std::byte>(data.begin(), data.end()) != payload(p.srqid, p.len))
            ++bad;
          ++n;
        };
  };
  auto on_closed = [&](const impi::base::Status &s) {
    if (s.ok())
      ++closed_ok;
    else
      FAIL(s.message());
  };
  HostChannel a(loop.base, std::move(fa), cfg, kA, kB, resolver(1, kA), resolver(2, kB),
                check(next_a), on_closed);
  cfg.peer = "host A";
  HostChannel b(loop.base, std::move(fb), cfg, kB, kA, resolver(2, kB), resolver(1, kA),
                check(next_b), on_closed);
  for (std::uint64_t seq = 0; seq < kPerPair; ++seq)
    for (std::size_t i = 0; i < kA; ++i)
      for (std::size_t j = 0; j < kB; ++j) {
        std::uint32_t len = static_cast<std::uint32_t>((seq + i + j) % 17);
        REQUIRE(a.send(i, j, data_packet(1, i, 2, j, seq, len), payload(seq, len)).ok());
        REQUIRE(b.send(j, i, data_packet(2, j, 1, i, seq, len), payload(seq, len)).ok());
      }
  auto all = [&](auto &next, std::size_t n) {
    std::uint64_t total = 0;
    for (auto &[k, v] : next) total += v;
    return total == n * kPerPair;
  };
  REQUIRE(loop.run_until([&] { return all(next_a, kA * kB) && all(next_b, kA * kB); }));
  CHECK(bad == 0);
  a.finish();
  b.finish();
  REQUIRE(loop.run_until([&] { return a.is_closed() && b.is_closed(); }));
  CHECK(closed_ok == 2);
}

TEST_CASE("channel: never more than hiwater unacknowledged packets to a proc", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  int delivered = 0;
  auto a =
      counting_channel(loop, std::move(fa), ChannelConfig{64, 2, 3, "fake host"}, 2, 2, delivered);
  for (std::uint64_t seq = 0; seq < 10; ++seq)
    REQUIRE(a->send(0, 1, data_packet(1, 0, 2, 1, seq, 4), payload(seq, 4)).ok());
  REQUIRE(a->send(1, 1, data_packet(1, 1, 2, 1, 99, 0), {}).ok());  // another pair is not held up
  loop.spin();
  peer.pump();
  REQUIRE(peer.got.size() == 4);  // 3 from the held pair, 1 from the other
  int held = 0;
  for (auto &it : peer.got) {
    if (it.header.src == proc(1, 0)) {
      CHECK(it.header.srqid == static_cast<std::uint64_t>(held));
      CHECK(it.header.dest == proc(2, 1));
      CHECK(it.header.msglen == 4);
      CHECK(it.data == payload(it.header.srqid, 4));
      ++held;
    }
  }
  CHECK(held == 3);
  // One PROTOACK lowers the count by ackmark (2): two more may go.
  Packet ack;
  ack.type = PacketType::protoack;
  ack.src = proc(2, 1);
  ack.dest = proc(1, 0);
  peer.put(ack);
  loop.spin();
  peer.pump();
  CHECK(peer.got.size() == 6);
  CHECK(peer.got.back().header.srqid == 4);
  CHECK(a->queued_packets() == 5);
}

TEST_CASE("channel: a PROTOACK goes back every ackmark packets from a proc", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  std::vector<std::uint64_t> delivered;
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{64, 2, 4, "fake host"}, 1, 2, resolver(1, 1),
      resolver(2, 2),
      [&](std::size_t dest, std::size_t src, const Packet &p, std::span<const std::byte>) {
        CHECK(dest == 0);
        CHECK(src == 1);
        delivered.push_back(p.srqid);
      },
      [](auto &) {});
  for (std::uint64_t seq = 0; seq < 5; ++seq)
    peer.put(data_packet(2, 1, 1, 0, seq, 3), payload(seq, 3));
  loop.spin();
  peer.pump();
  CHECK(delivered == std::vector<std::uint64_t>{0, 1, 2, 3, 4});
  REQUIRE(peer.got.size() == 2);
  for (auto &it : peer.got) {
    CHECK(it.header.type == PacketType::protoack);
    CHECK(it.header.src == proc(1, 0));
    CHECK(it.header.dest == proc(2, 1));
    CHECK(it.header.len == 0);
    CHECK(encode(it.header) == encode(it.header));  // unused fields travel as zero
  }
}

TEST_CASE("channel: run by pump, a PROTOACK rides with our next packet, never past hiwater",
          "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  std::vector<std::pair<std::size_t, std::uint64_t>> delivered;  // (remote, srqid)
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{64, 2, 4, "fake host"}, 1, 2, resolver(1, 1),
      resolver(2, 2),
      [&](std::size_t, std::size_t src, const Packet &p, std::span<const std::byte>) {
        delivered.emplace_back(src, p.srqid);
      },
      [](auto &) {});
  a.pumped_only();
  auto from = [&](std::size_t remote, std::uint64_t first, int n) {
    for (std::uint64_t seq = first; seq < first + static_cast<std::uint64_t>(n); ++seq)
      peer.put(data_packet(2, remote, 1, 0, seq, 3), payload(seq, 3));
  };
  auto settle = [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
  auto is_ack_to = [](const PacketReader::Item &it, std::size_t remote) {
    return it.header.type == PacketType::protoack && it.header.src == proc(1, 0) &&
           it.header.dest == proc(2, remote);
  };

  // Reads come through pump() only (no read event in the loop).
  from(1, 0, 2);
  settle();
  loop.spin(5);
  CHECK(delivered.empty());
  a.pump(true);
  REQUIRE(delivered.size() == 2);
  // The PROTOACK due (ackmark 2) waits ...
  loop.spin(5);
  peer.pump();
  CHECK(peer.got.empty());
  // ... and goes ahead of our next packet, in the same write.
  REQUIRE(a.send(0, 1, data_packet(1, 0, 2, 1, 50, 4), payload(50, 4)).ok());
  peer.pump();
  REQUIRE(peer.got.size() == 2);
  CHECK(is_ack_to(peer.got[0], 1));
  CHECK(peer.got[1].header.type == PacketType::data);
  CHECK(peer.got[1].header.srqid == 50);
  peer.got.clear();

  // A pump that finds nothing to read sends a waiting ACK.
  from(1, 2, 2);
  settle();
  a.pump(true);
  peer.pump();
  CHECK(peer.got.empty());
  a.pump(false);
  peer.pump();
  REQUIRE(peer.got.size() == 1);
  CHECK(is_ack_to(peer.got[0], 1));
  peer.got.clear();

  // hiwater (4) packets from one proc, read in one pump: the pair's second
  // ACK falls due, and both go without any other event (the sender is held).
  from(1, 4, 4);
  settle();
  a.pump(true);
  peer.pump();
  REQUIRE(peer.got.size() == 2);
  CHECK(is_ack_to(peer.got[0], 1));
  CHECK(is_ack_to(peer.got[1], 1));
  peer.got.clear();

  // One ACK waits per pair: two pairs, one each; then finish() sends them
  // ahead of FINI.
  from(0, 100, 2);
  from(1, 8, 2);
  settle();
  a.pump(true);
  peer.pump();
  CHECK(peer.got.empty());
  a.finish();
  loop.spin(5);
  peer.pump();
  REQUIRE(peer.got.size() == 3);
  CHECK(is_ack_to(peer.got[0], 0));
  CHECK(is_ack_to(peer.got[1], 1));
  CHECK(peer.got[2].header.type == PacketType::fini);
  CHECK(delivered.size() == 12);
}

TEST_CASE("channel: two channels run by pump stream both ways at hiwater = 2 * ackmark",
          "[channel]") {
  // Each side sends more than hiwater packets to the other while ACKs
  // ride (b far fewer: once its queue is empty, its ACKs for a's packets
  // have nothing to ride with). Driven as a proc drives them (poll, then
  // pump what is readable and pump(false) the rest), every packet
  // arrives, in order.
  Loop loop;
  auto [fa, fb] = socket_pair();
  constexpr int kN = 57, kFew = 7;
  std::vector<std::uint64_t> got_a, got_b;
  auto rec = [](std::vector<std::uint64_t> &v) {
    return [&v](std::size_t, std::size_t, const Packet &p, std::span<const std::byte> d) {
      CHECK(std::vector<std::byte>(d.begin(), d.end()) == payload(p.srqid, p.len));
      v.push_back(p.srqid);
    };
  };
  bool failed = false;
  auto closed = [&](const impi::base::Status &st) { failed |= !st.ok(); };
  HostChannel a(loop.base, std::move(fa), ChannelConfig{64, 2, 4, "host b"}, 1, 1, resolver(1, 1),
                resolver(2, 1), rec(got_a), closed);
  HostChannel b(loop.base, std::move(fb), ChannelConfig{64, 2, 4, "host a"}, 1, 1, resolver(2, 1),
                resolver(1, 1), rec(got_b), closed);
  a.pumped_only();
  b.pumped_only();
  for (std::uint64_t seq = 0; seq < kN; ++seq) {
    const auto len = static_cast<std::uint32_t>(seq % 5);
    REQUIRE(a.send(0, 0, data_packet(1, 0, 2, 0, seq, len), payload(seq, len)).ok());
    if (seq < kFew)
      REQUIRE(b.send(0, 0, data_packet(2, 0, 1, 0, seq, len), payload(seq, len)).ok());
  }
  CHECK(a.queued_packets() > 0);  // (held by flow control: hiwater 4)
  for (int i = 0; i < 20000 && !failed && (got_a.size() < kFew || got_b.size() < kN); ++i) {
    pollfd p[2] = {{a.fd(), POLLIN, 0}, {b.fd(), POLLIN, 0}};
    REQUIRE(::poll(p, 2, 10) >= 0);
    a.pump(p[0].revents != 0);
    b.pump(p[1].revents != 0);
    event_base_loop(loop.base, EVLOOP_NONBLOCK);
  }
  CHECK_FALSE(failed);
  std::vector<std::uint64_t> want(kN);
  for (int i = 0; i < kN; ++i) want[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(i);
  CHECK(got_a == std::vector<std::uint64_t>(want.begin(), want.begin() + kFew));
  CHECK(got_b == want);
  CHECK(a.queued_packets() == 0);
  CHECK(b.queued_packets() == 0);
}

TEST_CASE("channel: run by pump, the PROTOACK for a long packet does not wait", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  int delivered = 0;
  auto a = counting_channel(loop, std::move(fa), ChannelConfig{1 << 16, 2, 4, "fake host"}, 1, 1,
                            delivered);
  a->pumped_only();
  const std::uint32_t lens[] = {100, HostChannel::kAckRideMax + 1};
  for (std::uint64_t seq = 0; seq < 2; ++seq)
    peer.put(data_packet(2, 0, 1, 0, seq, lens[seq]), payload(seq, lens[seq]));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < 1000 && delivered < 2; ++i) a->pump(true);
  REQUIRE(delivered == 2);
  peer.pump();
  REQUIRE(peer.got.size() == 1);
  CHECK(peer.got[0].header.type == PacketType::protoack);
}

TEST_CASE("channel: run by pump with ackmark = hiwater, no PROTOACK waits", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  int delivered = 0;
  auto a =
      counting_channel(loop, std::move(fa), ChannelConfig{64, 3, 3, "fake host"}, 1, 1, delivered);
  a->pumped_only();
  for (std::uint64_t seq = 0; seq < 3; ++seq)
    peer.put(data_packet(2, 0, 1, 0, seq, 3), payload(seq, 3));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  a->pump(true);
  CHECK(delivered == 3);
  peer.pump();
  REQUIRE(peer.got.size() == 1);
  CHECK(peer.got[0].header.type == PacketType::protoack);
}

TEST_CASE("channel: DATA read straight into the sink's place, whole, in order, acknowledged",
          "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  constexpr std::uint32_t kLen = 20000;  // long enough to land (at least 4 KiB)
  std::vector<std::byte> places(8 * kLen, std::byte{0xee});
  std::vector<std::uint64_t> asked, delivered;
  int bad = 0;
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{1 << 16, 1, 1, "fake host"}, 1, 2, resolver(1, 1),
      resolver(2, 2),
      [&](std::size_t dest, std::size_t src, const Packet &p, std::span<const std::byte> data) {
        delivered.push_back(p.srqid);
        const bool landed = data.data() == places.data() + p.srqid * kLen;
        // 0, 2 and 4 had a place; 6 one of the wrong size, the others none.
        if (landed != (p.srqid % 2 == 0 && p.srqid != 6) || dest != 0 || src != 1 ||
            std::vector<std::byte>(data.begin(), data.end()) != payload(p.srqid, p.len))
          ++bad;
      },
      [](auto &) {});
  a.set_sink([&](std::size_t dest, std::size_t src, const Packet &p) -> std::span<std::byte> {
    asked.push_back(p.srqid);
    if (dest != 0 || src != 1 || p.srqid % 2 != 0) return {};
    if (p.srqid == 6) return std::span(places).subspan(p.srqid * kLen, p.len - 1);  // wrong size
    return std::span(places).subspan(p.srqid * kLen, p.len);
  });
  // (3 is a short one: never asked)
  const auto stream = data_stream({kLen, kLen, kLen, 100, kLen, kLen, kLen, kLen});
  // In pieces cut across packets, so that a header comes alone, split,
  // with part of its data, or behind the end of the packet before it.
  const std::size_t cuts[] = {64, 3001, 7, 20000, 129, 5000, 16500, 200};
  for (std::size_t at = 0, i = 0; at < stream.size(); ++i) {
    const std::size_t n = std::min(stream.size() - at, cuts[i % std::size(cuts)]);
    REQUIRE(::send(raw.get(), stream.data() + at, n, MSG_NOSIGNAL) == static_cast<ssize_t>(n));
    at += n;
    loop.spin(1);
  }
  REQUIRE(loop.run_until([&] { return delivered.size() == 8; }));
  CHECK(bad == 0);
  CHECK(delivered == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(std::find(asked.begin(), asked.end(), 3) == asked.end());
  for (std::uint64_t seq : {0, 2, 4}) CHECK(std::count(asked.begin(), asked.end(), seq) == 1);
  // Outside the places given, nothing was written.
  for (std::uint64_t seq : {1, 3, 5, 6, 7})
    CHECK(std::all_of(places.begin() + static_cast<std::ptrdiff_t>(seq * kLen),
                      places.begin() + static_cast<std::ptrdiff_t>((seq + 1) * kLen),
                      [](std::byte b) { return b == std::byte{0xee}; }));
  loop.spin();
  peer.pump();
  CHECK(peer.got.size() == 8);  // a PROTOACK per packet (ackmark 1), landed or not
  for (auto &it : peer.got) CHECK(it.header.type == PacketType::protoack);
}

TEST_CASE("channel: back-to-back long packets each land whole, then a short one is read",
          "[channel]") {
  // All in the socket at once: each landing read also takes the next
  // packet's header, which must start the next landing (or be read on).
  // Packet 1 lands after a partial copy; 2 to 5 land from their header on.
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  constexpr std::uint32_t kLen = 9000;
  constexpr std::uint64_t kLong = 6;
  std::vector<std::byte> places(kLong * kLen, std::byte{0xee});
  std::vector<std::uint64_t> delivered;
  int bad = 0;
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{1 << 16, 8, 16, "fake host"}, 1, 2, resolver(1, 1),
      resolver(2, 2),
      [&](std::size_t, std::size_t, const Packet &p, std::span<const std::byte> data) {
        delivered.push_back(p.srqid);
        // (The first read takes packet 0 whole, with packet 1's start:
        // those two come through the read buffer.)
        const bool landed = p.srqid < kLong && data.data() == places.data() + p.srqid * kLen;
        if (landed != (p.srqid >= 1 && p.srqid < kLong) ||
            std::vector<std::byte>(data.begin(), data.end()) != payload(p.srqid, p.len))
          ++bad;
      },
      [](auto &) {});
  a.set_sink([&](std::size_t, std::size_t, const Packet &p) -> std::span<std::byte> {
    if (p.srqid >= kLong) return {};
    return std::span(places).subspan(p.srqid * kLen, p.len);
  });
  std::vector<std::uint32_t> lens(kLong, kLen);
  lens.push_back(40);  // the last one short
  const auto stream = data_stream(lens);
  REQUIRE(::send(raw.get(), stream.data(), stream.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(stream.size()));
  REQUIRE(loop.run_until([&] { return delivered.size() == kLong + 1; }));
  CHECK(bad == 0);
  CHECK(delivered == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6});
}

TEST_CASE("channel: a packet landing when the channel finishes ends in scratch, not its place",
          "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  constexpr std::uint32_t kLen = 30000;
  std::vector<std::byte> place(kLen, std::byte{0xee});
  int delivered = 0;
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{1 << 16, 1, 1, "fake host"}, 1, 1, resolver(1, 1),
      resolver(2, 1),
      [&](std::size_t, std::size_t, const Packet &p, std::span<const std::byte> data) {
        ++delivered;
        CHECK(p.srqid == 5);
        CHECK(data.size() == kLen);
        CHECK(data.data() != place.data());
      },
      [](auto &) {});
  a.set_sink([&](std::size_t, std::size_t, const Packet &) { return std::span(place); });
  auto bytes = encode(data_packet(2, 0, 1, 0, 5, kLen));
  auto data = payload(5, kLen);
  bytes.insert(bytes.end(), data.begin(), data.end());
  const std::size_t first = 128 + 10000;  // the header and a third of the data
  REQUIRE(::send(raw.get(), bytes.data(), first, MSG_NOSIGNAL) == static_cast<ssize_t>(first));
  loop.spin();
  CHECK(std::equal(place.begin(), place.begin() + 10000, data.begin()));  // landing
  a.finish();  // (MPI_Finalize with that receive incomplete)
  REQUIRE(::send(raw.get(), bytes.data() + first, bytes.size() - first, MSG_NOSIGNAL) ==
          static_cast<ssize_t>(bytes.size() - first));
  REQUIRE(loop.run_until([&] { return delivered == 1; }));
  CHECK(std::all_of(place.begin() + 10000, place.end(),
                    [](std::byte b) { return b == std::byte{0xee}; }));
}

TEST_CASE("channel: one busy pair does not starve another", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{16, 1000, 100000, "fake host"}, 2, 1, resolver(1, 2),
      resolver(2, 1), [](auto, auto, auto &, auto) {}, [](auto &) {});
  for (std::uint64_t seq = 0; seq < 20000; ++seq)
    REQUIRE(a.send(0, 0, data_packet(1, 0, 2, 0, seq, 16), payload(seq, 16)).ok());
  REQUIRE(a.send(1, 0, data_packet(1, 1, 2, 0, 7, 0), {}).ok());
  REQUIRE(loop.run_until([&] {
    loop.spin(1);
    peer.pump();
    return peer.got.size() >= 20001;
  }));
  std::size_t at = 0;
  while (at < peer.got.size() && !(peer.got[at].header.src == proc(1, 1))) ++at;
  REQUIRE(at < peer.got.size());
  // It was queued last, behind 20000 packets, and went out within the
  // first output buffer's worth (about 1800 packets of 144 bytes).
  CHECK(at < 2500);
}

TEST_CASE("channel: FINI handshake, and the ways a peer can break it", "[channel]") {
  Loop loop;
  auto [fa, raw] = socket_pair();
  FakePeer peer(raw.get());
  std::optional<impi::base::Status> result;
  HostChannel a(
      loop.base, std::move(fa), ChannelConfig{64, 1, 1, "host 7"}, 1, 1, resolver(1, 1),
      resolver(2, 1), [](auto, auto, auto &, auto) {}, [&](auto &s) { result = s; });
  SECTION("FINI both ways closes cleanly; data that arrives meanwhile is still acknowledged") {
    REQUIRE(a.send(0, 0, data_packet(1, 0, 2, 0, 1, 8), payload(1, 8)).ok());
    a.finish();
    CHECK_FALSE(a.send(0, 0, data_packet(1, 0, 2, 0, 2, 0), {}).ok());  // finishing: no more data
    loop.spin();
    peer.pump();
    REQUIRE(peer.got.size() == 2);
    CHECK(peer.got[0].header.type == PacketType::data);
    CHECK(peer.got[1].header.type == PacketType::fini);
    Packet fini_only;
    fini_only.type = PacketType::fini;
    CHECK(encode(peer.got[1].header) == encode(fini_only));
    peer.put(data_packet(2, 0, 1, 0, 5, 1), payload(5, 1));
    Packet fini;
    fini.type = PacketType::fini;
    peer.put(fini);
    loop.spin();
    peer.pump();
    REQUIRE(peer.got.size() == 3);
    CHECK(peer.got[2].header.type == PacketType::protoack);  // ACKs may follow our FINI
    ::shutdown(raw.get(), SHUT_WR);
    REQUIRE(loop.run_until([&] { return result.has_value(); }));
    CHECK(result->ok());
  }
  SECTION("the connection ends before the peer's FINI") {
    raw.reset();
    REQUIRE(loop.run_until([&] { return result.has_value(); }));
    REQUIRE_FALSE(result->ok());
    CHECK_THAT(result->message(), Catch::Contains("host 7 closed its channel without FINI"));
  }
  SECTION("garbage instead of a packet") {
    std::vector<std::byte> junk(128, std::byte{0x5a});
    REQUIRE(::send(raw.get(), junk.data(), junk.size(), 0) == 128);
    REQUIRE(loop.run_until([&] { return result.has_value(); }));
    REQUIRE_FALSE(result->ok());
    CHECK_THAT(result->message(), Catch::Contains("from host 7"));
    CHECK(a.is_closed());
  }
  SECTION("a packet for a proc that does not exist") {
    peer.put(data_packet(2, 0, 1, 5, 0, 0));
    REQUIRE(loop.run_until([&] { return result.has_value(); }));
    REQUIRE_FALSE(result->ok());
    CHECK_THAT(result->message(), Catch::Contains("unknown procs"));
  }
  SECTION("a PROTOACK for packets never sent") {
    Packet ack;
    ack.type = PacketType::protoack;
    ack.src = proc(2, 0);
    ack.dest = proc(1, 0);
    peer.put(ack);
    REQUIRE(loop.run_until([&] { return result.has_value(); }));
    REQUIRE_FALSE(result->ok());
    CHECK_THAT(result->message(), Catch::Contains("never sent"));
  }
}
