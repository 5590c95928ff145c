// Writes seed inputs for the fuzz targets: the byte streams a real 2-client
// startup puts on the wire (the encoders are checked against the spec's
// golden bytes), framed the way each target expects.
#include <cstdio>
#include <fstream>
#include <string>

#include "startup/impi_job.hpp"
#include "startup/wire/startup_protocol.hpp"
#include "transport/impi/packet.hpp"

using namespace impi::startup;
using namespace impi::startup::wire;

namespace {
void write(const std::string &path, const Bytes &b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
}
void append(Bytes &out, const Bytes &b) {
  out.insert(out.end(), b.begin(), b.end());
}
ClientAdvert advert(int np, std::uint32_t port, const char *addr, std::int64_t pid) {
  ClientAdvert a;
  HostAdvert h;
  h.address = parse_address(addr).value();
  h.port = port;
  h.nprocs = static_cast<std::uint32_t>(np);
  a.hosts.push_back(h);
  for (int i = 0; i < np; ++i) a.procs.push_back({h.address, pid + i});
  return a;
}
// Server-core framing: [conn][len][bytes] chunks of at most 255 bytes.
void chunk(Bytes &out, int conn, const Bytes &b) {
  for (std::size_t i = 0; i < b.size(); i += 255) {
    std::size_t n = std::min<std::size_t>(255, b.size() - i);
    out.push_back(static_cast<std::byte>(conn));
    out.push_back(static_cast<std::byte>(n));
    out.insert(out.end(), b.begin() + static_cast<long>(i), b.begin() + static_cast<long>(i + n));
  }
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: make_seeds DIR (writes DIR/server_core, DIR/client_parser, DIR/agent)\n");
    return 1;
  }
  std::string dir = argv[1];
  std::vector<ClientAdvert> clients = {advert(2, 4001, "127.0.0.1", 100),
                                       advert(1, 4002, "127.0.0.2", 200)};
  // Client -> server sessions, both clients interleaved label by label.
  Bytes session;
  for (int c = 0; c < 2; ++c) {
    Bytes login = encode_client_auth(0x2);
    append(login, encode_auth_key(5678));
    append(login, encode_impi(c));
    chunk(session, c, login);
  }
  auto l0 = labels_of(clients[0]), l1 = labels_of(clients[1]);
  for (std::size_t i = 0; i < l0.size(); ++i) {
    chunk(session, 0, encode_coll_submit(l0[i].first, l0[i].second));
    chunk(session, 1, encode_coll_submit(l1[i].first, l1[i].second));
  }
  chunk(session, 0, encode_cmd(kCmdDone));
  chunk(session, 1, encode_cmd(kCmdDone));
  chunk(session, 0, encode_cmd(kCmdFini));
  chunk(session, 1, encode_cmd(kCmdFini));
  write(dir + "/server_core/two_clients_key", session);
  Bytes none;
  Bytes nl = encode_client_auth(0x1);
  append(nl, encode_impi(0));
  chunk(none, 0, nl);
  write(dir + "/server_core/auth_none", none);

  // Server -> client stream: the broadcasts of that job, then DONE.
  Bytes stream{std::byte{0x05}};  // 2 clients, we are client 1
  std::map<std::int32_t, CollBcast> m;
  for (std::size_t c = 0; c < clients.size(); ++c)
    for (auto &[label, value] : labels_of(clients[c])) {
      m[label].client_mask |= 1u << c;
      append(m[label].data, value);
    }
  append(stream, encode_impi(2));
  for (auto &[label, b] : m) append(stream, encode_coll_bcast(label, b.client_mask, b.data));
  append(stream, encode_cmd(kCmdDone));
  write(dir + "/client_parser/two_clients", stream);
  // The agent's router (fuzz_agent): a proc's link and a peer host's
  // channel, as the library encodes them. Layout: procs 0 and 1 on our host
  // (host id ...01, pids 1000 and 1001), proc 2 on the peer (...02, 1002).
  {
    namespace tw = impi::transport::wire;
    auto id = [](int proc) {
      tw::ProcId p;
      p.host[15] = static_cast<std::byte>(proc < 2 ? 1 : 2);
      p.pid = 1000 + proc;
      return p;
    };
    auto pkt = [&](Bytes &out, tw::PacketType t, int src, int dst, std::uint64_t srq,
                   std::uint64_t drq, std::size_t len, std::uint64_t msglen, int tag) {
      tw::Packet p;
      p.type = t;
      p.len = static_cast<std::uint32_t>(len);
      if (t != tw::PacketType::fini) {
        p.src = id(src);
        p.dest = id(dst);
      }
      p.srqid = srq;
      p.drqid = drq;
      if (t == tw::PacketType::data || t == tw::PacketType::datasync) {
        p.msglen = msglen;
        p.tag = tag;
        p.cid = 1;
      }
      auto h = tw::encode(p);
      append(out, Bytes(h.begin(), h.end()));
      for (std::size_t i = 0; i < len; ++i) out.push_back(static_cast<std::byte>(i * 7 + srq));
    };
    using T = tw::PacketType;
    Bytes link, peer;  // datalen 57 (byte 0 = 7), ackmark = hiwater = 2 (bits 5-7 = 1)
    pkt(link, T::data, 0, 2, 1, 0, 12, 12, 5);       // a short message
    pkt(link, T::datasync, 0, 2, 2, 0, 57, 150, 6);  // a long one's first packet
    pkt(link, T::data, 0, 2, 2, 9, 57, 150, 6);      // ... the rest, after the SYNCACK (drqid 9)
    pkt(link, T::data, 0, 2, 2, 9, 36, 150, 6);
    pkt(link, T::syncack, 0, 2, 7, 0, 0, 0, 0);  // for the peer's DATASYNC 7
    pkt(link, T::cancel, 0, 2, 1, 0, 0, 0, 0);
    pkt(peer, T::datasync, 2, 0, 7, 0, 20, 20, 3);
    pkt(peer, T::protoack, 2, 0, 0, 0, 0, 0, 0);
    pkt(peer, T::syncack, 2, 0, 2, 9, 0, 0, 0);
    pkt(peer, T::data, 2, 1, 8, 0, 4, 4, 4);  // for proc 1, which never links
    pkt(peer, T::protoack, 2, 0, 0, 0, 0, 0, 0);
    pkt(peer, T::cancelno, 2, 0, 1, 0, 0, 0, 0);
    pkt(peer, T::fini, 0, 0, 0, 0, 0, 0, 0);
    Bytes seed{std::byte{7 | 0x20}, static_cast<std::byte>(link.size() >> 8),
               static_cast<std::byte>(link.size() & 0xff)};
    append(seed, link);
    append(seed, peer);
    write(dir + "/agent/encoded_exchange", seed);
  }
  std::printf("seeds written to %s\n", dir.c_str());
  return 0;
}
