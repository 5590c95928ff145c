// Fuzz target: the host agent's router (transport/impi/router.*) with
// hostile bytes on both of its inputs, over real sockets and a libevent
// loop: a local proc's link (the agent's local-proc protocol) and the
// channel from a peer host (a peer host's packet stream). The job: procs 0
// and 1 on our host, proc 2 on the peer host.
//
// Input: byte 0 picks maxdatalen and ackmark/hiwater; bytes 1-2 (big endian)
// how many of the rest go to proc 0's link; the remainder comes from the
// peer host. Invariants checked on what the agent writes out:
//  - to the peer host: only well-formed packets whose source is proc 0 (the
//    only proc that wrote: no proc can speak for another) or PROTOACK/FINI;
//  - to proc 0's link: only well-formed packets addressed to proc 0.
// Nothing may crash, leak or hang.
// The link's handshake records (transport/impi/agent_link.hpp) are decoded
// from the whole input too, as each end would parse them: whatever decodes
// must encode back to the same bytes.
#include <event2/event.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "base/log.hpp"
#include "transport/impi/agent_link.hpp"
#include "transport/impi/router.hpp"

namespace {
using namespace impi::transport::wire;

ProcId id_of(std::size_t proc) {
  ProcId p;
  p.host[15] = static_cast<std::byte>(proc < 2 ? 1 : 2);
  p.pid = 1000 + static_cast<std::int64_t>(proc);
  return p;
}

void write_some(int fd, std::span<const std::uint8_t> &left) {
  while (!left.empty()) {
    ssize_t n = ::send(fd, left.data(), left.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n <= 0) return;
    left = left.subspan(static_cast<std::size_t>(n));
  }
}

void check_link_records(std::span<const std::byte> in) {
  namespace al = agent_link;
  if (in.size() >= al::kHelloSize) {
    auto hello = in.first(al::kHelloSize);
    auto index = al::decode_hello(hello);
    if (!index) std::abort();  // every 8 bytes are some proc's index
    auto again = al::encode_hello(*index);
    if (!std::equal(again.begin(), again.end(), hello.begin())) std::abort();
  }
  auto len = al::reply_length(in);
  if (!len || *len > in.size()) return;
  auto reply = in.first(*len);
  auto r = al::decode_reply(reply);
  if (!r) std::abort();  // reply_length vouched for it
  if (r->kind == al::Reply::accept) {
    if (reply.size() != 1 || reply[0] != al::kAccept) std::abort();
    return;
  }
  auto again = al::encode_direct(r->hosts);
  if (!again || !std::equal(again->begin(), again->end(), reply.begin(), reply.end())) std::abort();
}

// Reads what the agent wrote and checks each packet with `ok`.
template <typename Ok>
void read_check(int fd, PacketReader &r, bool &corrupt, Ok ok) {
  std::byte buf[65536];
  for (;;) {
    ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0) break;
    r.feed(std::span(buf, static_cast<std::size_t>(n)));
  }
  while (!corrupt) {
    auto item = r.next();
    if (!item) break;
    if (!*item) std::abort();  // the agent wrote a malformed packet
    ok((*item)->header);
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static bool quiet = [] {
    impi::base::set_log_level(impi::base::Level::error);
    return true;
  }();
  (void)quiet;
  check_link_records(std::as_bytes(std::span(data, size)));
  if (size < 3) return 0;
  std::uint32_t maxdatalen = (data[0] & 0x1f) * 8u + 1;
  std::uint32_t flow = (data[0] >> 5) + 1;  // ackmark = hiwater = 1..8
  std::size_t to_link =
      std::min<std::size_t>(static_cast<std::size_t>(data[1]) << 8 | data[2], size - 3);
  std::span<const std::uint8_t> link_in(data + 3, to_link),
      peer_in(data + 3 + to_link, size - 3 - to_link);

  event_base *base = event_base_new();
  int ch[2], lk[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ch) != 0 ||
      ::socketpair(AF_UNIX, SOCK_STREAM, 0, lk) != 0)
    std::abort();
  {
    JobLayout layout{{id_of(0), id_of(1), id_of(2)}, {0, 0, 1}, 2, 0, {}};
    ChannelConfig cfg{maxdatalen, flow, flow, "", 0, 4096};
    std::vector<std::string> errors;
    AgentRouter router(base, cfg, layout,
                       [&](const impi::base::Status &s) { errors.push_back(s.message()); });
    router.add_channel(1, impi::base::Fd(ch[0]));
    if (!router.add_local(0, impi::base::Fd(lk[0])).ok()) std::abort();
    PacketReader from_agent_to_peer(maxdatalen), from_agent_to_proc(maxdatalen);
    bool peer_corrupt = false, proc_corrupt = false;
    std::size_t to_peer = 0, to_proc = 0;  // packets seen (FUZZ_AGENT_DEBUG prints them)
    for (int pass = 0; pass < 64 && (!link_in.empty() || !peer_in.empty() || pass < 4); ++pass) {
      write_some(lk[1], link_in);
      write_some(ch[1], peer_in);
      event_base_loop(base, EVLOOP_NONBLOCK);
      read_check(ch[1], from_agent_to_peer, peer_corrupt, [&](const Packet &p) {
        ++to_peer;
        if (p.type == PacketType::protoack || p.type == PacketType::fini) return;
        if (!(p.src == id_of(0)) || !(p.dest == id_of(2))) std::abort();  // spoofed or misrouted
      });
      read_check(lk[1], from_agent_to_proc, proc_corrupt, [&](const Packet &p) {
        ++to_proc;
        if (!(p.dest == id_of(0)) || !(p.src == id_of(2))) std::abort();  // not for this proc
      });
    }
    if (std::getenv("FUZZ_AGENT_DEBUG"))
      std::fprintf(stderr, "to peer: %zu packets, to proc 0: %zu packets, errors: %zu%s%s\n",
                   to_peer, to_proc, errors.size(),
                   errors.empty() ? "" : ", first: ", errors.empty() ? "" : errors[0].c_str());
    router.finish();
    for (int pass = 0; pass < 4; ++pass) event_base_loop(base, EVLOOP_NONBLOCK);
  }
  ::close(ch[1]);
  ::close(lk[1]);
  event_base_free(base);
  return 0;
}
