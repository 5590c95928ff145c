// Writes seed inputs for the fuzz targets: the byte streams a real 2-client
// startup puts on the wire (the encoders are checked against the spec's
// golden bytes), framed the way each target expects.
#include <cstdio>
#include <fstream>
#include <string>

#include "startup/impi_job.hpp"
#include "startup/wire/startup_protocol.hpp"

using namespace impi::startup;
using namespace impi::startup::wire;

namespace {
void write(const std::string &path, const Bytes &b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
}
void append(Bytes &out, const Bytes &b) { out.insert(out.end(), b.begin(), b.end()); }
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
    std::fprintf(stderr, "usage: make_seeds DIR (writes DIR/server_core, DIR/client_parser)\n");
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
  std::printf("seeds written to %s\n", dir.c_str());
  return 0;
}
