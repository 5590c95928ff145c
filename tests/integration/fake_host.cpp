// fake_host.cpp - a fake IMPI peer: client 1 of a two-client job, one host
// with one proc (world rank 1), that talks to our real client 0 (which runs
// fake_peer_prog as world rank 0) packet by packet and checks everything
// our side sends against IMPI 3.x: the field-usage table (unused fields
// and pk_reserved zero), ids, lengths, the short/sync/long protocols,
// cancel, flow control with ackmark = hiwater = 1 and delayed ACKs, and
// the barrier of MPI_Finalize (tag 110 on context 1). It advertises
// datalen 16, so most messages are long.
//
// Packets are parsed here from raw bytes at the spec's offsets, not with
// the library's codec, so a codec bug cannot hide itself.
//
// Usage: fake_host SERVER_HOST:PORT [MODE] ; prints "fake host: ok" on success.
// MODE (fault injection; the real side must end its job, naming this host):
//   stall  after the dance, never read the channel again (its TCP window
//          fills), and stay connected for 60 s;
//   reset  read about 1 MB of packets, then reset the connection (RST).
// Both advertise datalen 65536, ackmark 1000, hiwater 100000, so that the
// real side can fill the window.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "startup/auth.hpp"
#include "startup/impi_client.hpp"
#include "startup/wire/startup_protocol.hpp"

namespace {

using namespace impi::startup;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kDatalen = 16, kAckmark = 1, kHiwater = 1;
enum Type : std::uint32_t { DATA, DATASYNC, PROTOACK, SYNCACK, CANCEL, CANCELYES, CANCELNO, FINI };
const char *const kNames[] = {"DATA",   "DATASYNC",  "PROTOACK", "SYNCACK",
                              "CANCEL", "CANCELYES", "CANCELNO", "FINI"};

[[noreturn]] void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "fake host: FAIL: ");
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, "\n");
  va_end(ap);
  std::exit(1);
}

std::uint64_t be(const std::uint8_t *p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}
void put_be(std::uint8_t *p, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

using Id = std::array<std::uint8_t, 24>;  // p_hostid (16) + p_pid (8), as on the wire

struct Pkt {
  std::uint32_t type = 0, len = 0;
  Id src{}, dest{};
  std::uint64_t srqid = 0, drqid = 0, msglen = 0;
  std::int32_t lsrank = 0, tag = 0;
  std::uint64_t cid = 0;
  std::vector<std::uint8_t> data;
};

struct Peer {
  int fd = -1;
  Id me{}, them{};        // our proc's id, the real client's proc id
  int rx_unacked = 0;     // counting packets from them we have not acknowledged
  int tx_unacked = 0;     // counting packets to them they have not acknowledged
  std::deque<Pkt> inbox;  // read while waiting for an ACK, not consumed yet
  Clock::time_point deadline = Clock::now() + std::chrono::seconds(30);
  int ack_delay_ms = 2;

  void read_exact(std::uint8_t *p, std::size_t n) {
    while (n > 0) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) fail("timed out waiting for a packet from the real host");
      pollfd pf{fd, POLLIN, 0};
      if (::poll(&pf, 1, static_cast<int>(left)) <= 0) continue;
      ssize_t k = ::read(fd, p, n);
      if (k <= 0)
        fail("the real host closed the channel (%s)", k == 0 ? "EOF" : std::strerror(errno));
      p += k;
      n -= static_cast<std::size_t>(k);
    }
  }
  bool readable(int ms) {
    pollfd pf{fd, POLLIN, 0};
    return ::poll(&pf, 1, ms) > 0;
  }

  // Reads one packet and checks it against the field-usage table.
  Pkt read_raw() {
    std::uint8_t h[128];
    read_exact(h, 128);
    Pkt p;
    p.type = static_cast<std::uint32_t>(be(h, 4));
    p.len = static_cast<std::uint32_t>(be(h + 4, 4));
    if (p.type > FINI) fail("unknown pk_type %u", p.type);
    const char *name = kNames[p.type];
    if (p.len > kDatalen) fail("%s with pk_len %u > datalen %u", name, p.len, kDatalen);
    std::memcpy(p.src.data(), h + 8, 24);
    std::memcpy(p.dest.data(), h + 32, 24);
    p.srqid = be(h + 56, 8);
    p.drqid = be(h + 64, 8);
    p.msglen = be(h + 72, 8);
    p.lsrank = static_cast<std::int32_t>(be(h + 80, 4));
    p.tag = static_cast<std::int32_t>(be(h + 84, 4));
    p.cid = be(h + 88, 8);
    // Which byte ranges this type may use (spec table in 3.3).
    bool ids = p.type != FINI, srq = p.type != PROTOACK && p.type != FINI,
         drq = p.type == DATA || p.type == DATASYNC || p.type == SYNCACK,
         msg = p.type == DATA || p.type == DATASYNC;
    auto must_be_zero = [&](int off, int n, const char *field) {
      for (int i = 0; i < n; ++i)
        if (h[off + i] != 0) fail("%s carries a nonzero %s (unused by this type)", name, field);
    };
    if (!ids) must_be_zero(8, 48, "pk_src/pk_dest");
    if (!srq) must_be_zero(56, 8, "pk_srqid");
    if (!drq) must_be_zero(64, 8, "pk_drqid");
    if (!msg) must_be_zero(72, 24, "pk_msglen/pk_lsrank/pk_tag/pk_cid");
    must_be_zero(96, 24, "QoS field (we expect our side to leave them 0)");
    must_be_zero(120, 8, "pk_reserved");
    if (!msg && p.len != 0) fail("%s with pk_len %u", name, p.len);
    if (msg && p.len > p.msglen)
      fail("%s with pk_len %u > pk_msglen %llu", name, p.len, (unsigned long long)p.msglen);
    if (ids && (p.src != them || p.dest != me)) fail("%s with wrong pk_src/pk_dest", name);
    p.data.resize(p.len);
    if (p.len) read_exact(p.data.data(), p.len);
    return p;
  }

  void write_packet(const Pkt &p) {
    std::vector<std::uint8_t> b(128 + p.data.size(), 0);
    put_be(&b[0], p.type, 4);
    put_be(&b[4], p.data.size(), 4);
    std::memcpy(&b[8], me.data(), 24);
    std::memcpy(&b[32], them.data(), 24);
    put_be(&b[56], p.srqid, 8);
    put_be(&b[64], p.drqid, 8);
    put_be(&b[72], p.msglen, 8);
    put_be(&b[80], static_cast<std::uint32_t>(p.lsrank), 4);
    put_be(&b[84], static_cast<std::uint32_t>(p.tag), 4);
    put_be(&b[88], p.cid, 8);
    if (!p.data.empty()) std::memcpy(&b[128], p.data.data(), p.data.size());
    for (std::size_t off = 0; off < b.size();) {
      ssize_t k = ::write(fd, b.data() + off, b.size() - off);
      if (k <= 0) fail("write to the real host failed: %s", std::strerror(errno));
      off += static_cast<std::size_t>(k);
    }
  }

  // Reads the next packet; handles ACKs both ways. A counting packet is
  // acknowledged after ack_delay_ms, during which the real host must send
  // nothing more that counts (hiwater = 1).
  Pkt next_any() {
    for (;;) {
      Pkt p = read_raw();
      if (p.type == PROTOACK) {
        if (tx_unacked < static_cast<int>(kAckmark)) fail("a PROTOACK for packets we did not send");
        tx_unacked -= kAckmark;
        continue;
      }
      if (p.type == FINI) fail("FINI before the job ended");
      if (++rx_unacked > static_cast<int>(kHiwater))
        fail(
            "flow control: %d unacknowledged packets from the real proc (hiwater %u), the last a "
            "%s",
            rx_unacked, kHiwater, kNames[p.type]);
      if (rx_unacked >= static_cast<int>(kAckmark)) {
        auto until = Clock::now() + std::chrono::milliseconds(ack_delay_ms);
        while (Clock::now() < until) {  // anything counting that comes now breaks hiwater
          int ms = static_cast<int>(
              std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count());
          if (!readable(ms > 0 ? ms : 0)) continue;
          // A FINI may come now: it does not count (3.6, 3.8), and a host
          // whose procs are done sends it once its packets are written,
          // acknowledged or not. It stays unread, for the end's exchange.
          std::uint8_t t[4];
          if (::recv(fd, t, 4, MSG_PEEK | MSG_WAITALL) == 4 && be(t, 4) == FINI) break;
          Pkt q = read_raw();
          if (q.type == PROTOACK) {
            if (tx_unacked < static_cast<int>(kAckmark))
              fail("a PROTOACK for packets we did not send");
            tx_unacked -= kAckmark;
            continue;
          }
          fail("flow control: a %s came before we acknowledged the %s before it (hiwater 1)",
               kNames[q.type], kNames[p.type]);
        }
        Pkt ack;
        ack.type = PROTOACK;
        write_packet(ack);
        rx_unacked -= kAckmark;
      }
      return p;
    }
  }
  Pkt next() {
    if (!inbox.empty()) {
      Pkt p = std::move(inbox.front());
      inbox.pop_front();
      return p;
    }
    return next_any();
  }
  // Sends a counting packet once fewer than hiwater are unacknowledged.
  void send(const Pkt &p) {
    while (tx_unacked >= static_cast<int>(kHiwater)) {
      // Packets that arrive meanwhile are kept for the script.
      Pkt q = read_raw();
      if (q.type == PROTOACK) {
        tx_unacked -= kAckmark;
        continue;
      }
      if (q.type == FINI) fail("FINI before the job ended");
      // A counting packet: acknowledge it at once and keep it.
      if (++rx_unacked > static_cast<int>(kHiwater))
        fail("flow control: more than hiwater packets unacknowledged");
      if (rx_unacked >= static_cast<int>(kAckmark)) {
        Pkt ack;
        ack.type = PROTOACK;
        write_packet(ack);
        rx_unacked -= kAckmark;
      }
      inbox.push_back(std::move(q));
    }
    write_packet(p);
    ++tx_unacked;
  }
  // Waits until everything we sent is acknowledged (no packet may arrive meanwhile).
  void drain_acks() {
    while (tx_unacked > 0) {
      Pkt q = read_raw();
      if (q.type != PROTOACK) fail("expected a PROTOACK, got %s", kNames[q.type]);
      tx_unacked -= kAckmark;
    }
  }

  Pkt expect(std::uint32_t type, const char *what) {
    Pkt p = next();
    if (p.type != type)
      fail("%s: expected %s, got %s (tag %d)", what, kNames[type], kNames[p.type], p.tag);
    return p;
  }
  // Receives one message from the real proc, checking its protocol: short
  // (one DATA or DATASYNC), or long (DATASYNC with the first datalen bytes,
  // nothing more until our SYNCACK, then DATA carrying our drqid).
  std::vector<std::uint8_t> recv_message(int tag, std::uint64_t cid, bool sync, int match_delay_ms,
                                         std::uint64_t *srqid_out = nullptr) {
    Pkt first = next();
    if (first.type != DATA && first.type != DATASYNC)
      fail("tag %d: expected a message, got %s", tag, kNames[first.type]);
    if (first.tag != tag || first.cid != cid || first.lsrank != 0 || first.drqid != 0)
      fail("tag %d: first packet has tag %d cid %llu lsrank %d drqid %llu", tag, first.tag,
           (unsigned long long)first.cid, first.lsrank, (unsigned long long)first.drqid);
    bool is_long = first.msglen > kDatalen;
    if (first.len != (is_long ? kDatalen : first.msglen))
      fail("tag %d: first packet carries %u bytes of a %llu-byte message", tag, first.len,
           (unsigned long long)first.msglen);
    if ((sync || is_long) != (first.type == DATASYNC))
      fail("tag %d: a %s for a %s %s message", tag, kNames[first.type],
           sync ? "synchronous" : "standard", is_long ? "long" : "short");
    if ((sync || is_long) && first.srqid == 0) fail("tag %d: a DATASYNC with srqid 0", tag);
    if (srqid_out) *srqid_out = first.srqid;
    std::vector<std::uint8_t> msg = first.data;
    if (first.type == DATASYNC) {
      // A delayed match: the real side must wait for our SYNCACK.
      for (auto until = Clock::now() + std::chrono::milliseconds(match_delay_ms);
           Clock::now() < until;) {
        int ms = static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count());
        if (!readable(ms > 0 ? ms : 0)) continue;
        Pkt q = read_raw();
        if (q.type != PROTOACK)
          fail("tag %d: a %s came before we matched the DATASYNC", tag, kNames[q.type]);
        if (tx_unacked < static_cast<int>(kAckmark)) fail("a PROTOACK for packets we did not send");
        tx_unacked -= kAckmark;
      }
      Pkt ack;
      ack.type = SYNCACK;
      ack.srqid = first.srqid;
      ack.drqid = is_long ? 0xD00D0000u + static_cast<std::uint64_t>(tag) : 0;
      send(ack);
      while (msg.size() < first.msglen) {
        Pkt d = expect(DATA, "the rest of a long message");
        if (d.drqid != ack.drqid || d.srqid != first.srqid || d.msglen != first.msglen ||
            d.tag != tag || d.cid != cid || d.lsrank != 0)
          fail("tag %d: continuation with drqid %llu srqid %llu msglen %llu tag %d", tag,
               (unsigned long long)d.drqid, (unsigned long long)d.srqid,
               (unsigned long long)d.msglen, d.tag);
        std::size_t want = std::min<std::size_t>(kDatalen, first.msglen - msg.size());
        if (d.len != want) fail("tag %d: continuation of %u bytes, expected %zu", tag, d.len, want);
        msg.insert(msg.end(), d.data.begin(), d.data.end());
      }
    }
    return msg;
  }
  // Sends a message to the real proc as an IMPI peer would.
  void send_message(int tag, std::uint64_t cid, const std::vector<std::uint8_t> &msg, bool sync,
                    std::uint64_t srqid) {
    bool is_long = msg.size() > kDatalen;
    Pkt p;
    p.type = sync || is_long ? DATASYNC : DATA;
    p.srqid = srqid;
    p.msglen = msg.size();
    p.lsrank = 1;
    p.tag = tag;
    p.cid = cid;
    p.data.assign(msg.begin(),
                  msg.begin() + static_cast<long>(std::min<std::size_t>(msg.size(), kDatalen)));
    send(p);
    if (p.type == DATA) return;
    Pkt ack = expect(SYNCACK, "the answer to our DATASYNC");
    if (ack.srqid != srqid)
      fail("SYNCACK for srqid %llu, ours is %llu", (unsigned long long)ack.srqid,
           (unsigned long long)srqid);
    if (is_long ? ack.drqid == 0 : ack.drqid != 0)
      fail("SYNCACK for a %s message with drqid %llu", is_long ? "long" : "short",
           (unsigned long long)ack.drqid);
    for (std::size_t off = kDatalen; off < msg.size(); off += kDatalen) {
      Pkt d;
      d.type = DATA;
      d.srqid = srqid;
      d.drqid = ack.drqid;
      d.msglen = msg.size();
      d.lsrank = 1;
      d.tag = tag;
      d.cid = cid;
      d.data.assign(
          msg.begin() + static_cast<long>(off),
          msg.begin() + static_cast<long>(std::min<std::size_t>(msg.size(), off + kDatalen)));
      send(d);
    }
  }
};

Id id_of(const ProcId &p) {
  Id id{};
  for (int i = 0; i < 16; ++i)
    id[static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(p.address[static_cast<std::size_t>(i)]);
  put_be(id.data() + 16, static_cast<std::uint64_t>(p.pid), 8);
  return id;
}

std::vector<std::uint8_t> pattern(std::size_t n, int seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<std::uint8_t>(i * 3 + static_cast<std::size_t>(seed));
  return v;
}

// The conversation; fake_peer_prog.c is the other half, step by step.
void script(Peer &p) {
  // 1. Messages from the real proc at sizes around datalen (tag 1); the
  //    long ones are matched late (50 ms) to see the sender wait.
  for (std::size_t n : {0, 1, 15, 16, 17, 50}) {
    auto m = p.recv_message(1, 0, false, 50);
    if (m != pattern(n, static_cast<int>(n)))
      fail("step 1: the %zu-byte message arrived different (%zu bytes)", n, m.size());
  }
  // 2. Three ints: external32 is big-endian on the wire.
  {
    auto m = p.recv_message(2, 0, false, 0);
    std::vector<std::uint8_t> want = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 1, 2, 3, 4};
    if (m != want) fail("step 2: MPI_INT is not big-endian external32 on the wire");
  }
  // 3. MPI_Ssend of 4 bytes: we match it 200 ms late.
  p.recv_message(3, 0, true, 200);
  // 4. To the real proc: a short DATA with srqid 0 (as LAM/MPI sends them).
  p.send_message(4, 0, pattern(5, 4), false, 0);
  // 5. A long message (40 bytes = 3 packets); the real proc probes first.
  p.send_message(5, 0, pattern(40, 5), false, 77);
  // 6. A short synchronous message.
  p.send_message(6, 0, pattern(3, 6), true, 88);
  // 7. Cancels of the real proc's sends: unmatched DATA (yes), "matched"
  //    DATA (no), unmatched DATASYNC (yes).
  {
    std::uint64_t s1 = 0, s2 = 0, s3 = 0;
    p.recv_message(7, 0, false, 0, &s1);
    Pkt c = p.expect(CANCEL, "step 7a");
    if (c.srqid != s1)
      fail("step 7a: CANCEL for srqid %llu, the message had %llu", (unsigned long long)c.srqid,
           (unsigned long long)s1);
    Pkt yes;
    yes.type = CANCELYES;
    yes.srqid = s1;
    p.send(yes);
    p.recv_message(8, 0, false, 0, &s2);
    c = p.expect(CANCEL, "step 7b");
    if (c.srqid != s2) fail("step 7b: CANCEL for the wrong srqid");
    Pkt no;
    no.type = CANCELNO;
    no.srqid = s2;
    p.send(no);
    Pkt first = p.next();
    if (first.type != DATASYNC || first.tag != 9) fail("step 7c: expected the Issend's DATASYNC");
    s3 = first.srqid;
    c = p.expect(CANCEL, "step 7c");
    if (c.srqid != s3) fail("step 7c: CANCEL for the wrong srqid");
    yes.srqid = s3;
    p.send(yes);
  }
  // 8. Our cancels: of a message the real proc has not matched (yes), of
  //    one it has (no); the cancelled one must never be delivered.
  {
    p.send_message(10, 0, pattern(4, 99), false, 99);
    Pkt c;
    c.type = CANCEL;
    c.srqid = 99;
    p.send(c);
    Pkt a = p.next();
    if (a.type != CANCELYES || a.srqid != 99)
      fail("step 8a: expected CANCELYES for srqid 99, got %s", kNames[a.type]);
    p.send_message(10, 0, pattern(4, 100), false, 100);
    p.send_message(11, 0, pattern(4, 101), false, 101);
    p.recv_message(12, 0, false, 0);  // "received tag 11"
    c.srqid = 101;
    p.send(c);
    a = p.next();
    if (a.type != CANCELNO || a.srqid != 101)
      fail("step 8b: expected CANCELNO for srqid 101, got %s", kNames[a.type]);
  }
  // 9. MPI_Finalize's barrier: 2 masters < MAXLINEAR 4, so linear; we are
  //    master 1: send to master 0 (rank 0), then receive from it. Tag 110
  //    on MPI_COMM_WORLD's collective context 1.
  {
    Pkt b;
    b.type = DATA;
    b.lsrank = 1;
    b.tag = 110;
    b.cid = 1;
    p.send(b);
    auto m = p.recv_message(110, 1, false, 0);
    if (!m.empty()) fail("step 9: the barrier message carries %zu bytes", m.size());
  }
  p.drain_acks();
}

}  // namespace

int main(int argc, char **argv) {
  std::string mode = argc == 3 ? argv[2] : "script";
  if (argc < 2 || argc > 3 || (mode != "script" && mode != "stall" && mode != "reset")) {
    std::fprintf(stderr, "usage: fake_host SERVER_HOST:PORT [stall|reset]\n");
    return 2;
  }
  bool fault = mode != "script";
  std::uint32_t datalen = fault ? 65536 : kDatalen, ackmark = fault ? 1000 : kAckmark,
                hiwater = fault ? 100000 : kHiwater;
  auto server = net::parse_endpoint(argv[1]);
  if (!server) fail("%s", server.message().c_str());
  auto auth = auth_from_env([](const char *n) -> const char * { return std::getenv(n); });
  if (!auth) fail("%s", auth.message().c_str());
  auto deadline = net::Clock::now() + std::chrono::seconds(30);
  auto client = ImpiClient::join(*server, 1, "127.0.0.2", *auth, deadline);
  if (!client) fail("join: %s", client.message().c_str());
  auto port = client->listen();
  if (!port) fail("listen: %s", port.message().c_str());
  auto addr = wire::parse_address(client->address());
  if (!addr) fail("%s", addr.message().c_str());
  ClientAdvert a;
  a.datalen = datalen;
  HostAdvert h;
  h.address = *addr;
  h.port = *port;
  h.nprocs = 1;
  h.ackmark = ackmark;
  h.hiwater = hiwater;
  a.hosts.push_back(h);
  a.procs.push_back({*addr, static_cast<std::int64_t>(::getpid())});
  auto job = client->exchange(a, deadline);
  if (!job) fail("startup: %s", job.message().c_str());
  if (job->maxdatalen != datalen || job->ackmark != ackmark || job->hiwater != hiwater ||
      job->procs.size() != 2)
    fail("the job is not what the test needs (datalen %u ackmark %u hiwater %u, %zu procs)",
         job->maxdatalen, job->ackmark, job->hiwater, job->procs.size());
  auto channels = client->dance(*job, deadline);
  if (!channels) fail("dance: %s", channels.message().c_str());
  if (mode == "stall") {  // take nothing more; the real side must give up on us
    std::printf("fake host: stalling\n");
    std::fflush(stdout);
    ::sleep(60);
    return 0;
  }
  if (mode == "reset") {
    int fd = (*channels)[0].get();
    std::vector<std::uint8_t> buf(65536);
    std::size_t got = 0;
    auto until = Clock::now() + std::chrono::seconds(30);
    while (got < (1u << 20) && Clock::now() < until) {
      pollfd pf{fd, POLLIN, 0};
      if (::poll(&pf, 1, 100) <= 0) continue;
      ssize_t k = ::read(fd, buf.data(), buf.size());
      if (k <= 0) fail("the real host closed the channel first");
      got += static_cast<std::size_t>(k);
    }
    linger l{1, 0};  // close with RST
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    (*channels)[0].reset();
    std::printf("fake host: reset after %zu bytes\n", got);
    std::fflush(stdout);
    ::sleep(30);
    return 0;
  }
  Peer p;
  p.fd = (*channels)[0].get();
  p.me = id_of(job->procs[1].id);
  p.them = id_of(job->procs[0].id);
  script(p);
  auto s = client->finish(*channels, *job, net::Clock::now() + std::chrono::seconds(20));
  if (!s.ok()) fail("FINI: %s", s.message().c_str());
  std::printf("fake host: ok\n");
  return 0;
}
