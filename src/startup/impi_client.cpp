#include "startup/impi_client.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "base/byteorder.hpp"
#include "base/log.hpp"
#include "base/sha256.hpp"
#include "transport/impi/packet.hpp"

namespace impi::startup {

using base::Errc;
using base::Fd;
using base::Result;
using base::Status;
using namespace wire;

namespace {

// Reads one whole command from the server.
Result<CmdReader::Cmd> read_cmd(int fd, CmdReader &reader, net::Clock::time_point deadline) {
  for (;;) {
    auto next = reader.next();
    if (!next) return {next.error(), "from the server: " + next.message()};
    if (next->has_value()) return std::move(**next);
    std::byte buf[65536];
    pollfd p{fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - net::Clock::now());
    int n = ::poll(&p, 1, left.count() > 0 ? static_cast<int>(left.count()) : 0);
    if (n == 0) return {Errc::timeout, "timed out waiting for the IMPI server"};
    if (n < 0 && errno != EINTR) return {Errc::io_error, std::strerror(errno)};
    if (n < 0) continue;
    ssize_t r = ::read(fd, buf, sizeof buf);
    if (r == 0) return {Errc::peer_died, "the server closed the connection"};
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return {Errc::peer_died, fmt::format("lost the server: {}", std::strerror(errno))};
    }
    reader.feed(std::span(buf, static_cast<size_t>(r)));
  }
}

Status write_all(int fd, const Bytes &b, net::Clock::time_point deadline) {
  return net::write_exact(fd, b, deadline);
}

}  // namespace

namespace {
// IMPI_AUTH_HMAC: a challenge-response, so the key never crosses the wire;
// the server proves it knows it too. `follow_on`: its nonce.
Status prove_hmac(int fd, const AuthConfig &auth, const Bytes &follow_on,
                  net::Clock::time_point deadline) {
  if (follow_on.size() != kAuthNonceSize)
    return {Errc::protocol_error,
            fmt::format("IMPI_AUTH_HMAC: the server sent a {}-byte nonce", follow_on.size())};
  Nonce server_nonce, client_nonce;
  std::copy(follow_on.begin(), follow_on.end(), server_nonce.begin());
  auto n = make_nonce();
  if (!n) return {n.error(), n.message()};
  client_nonce = *n;
  auto mine = hmac_client_proof(*auth.key, server_nonce, client_nonce);
  Bytes msg(client_nonce.begin(), client_nonce.end());
  msg.insert(msg.end(), mine.begin(), mine.end());
  if (auto s = write_all(fd, msg, deadline); !s.ok())
    return {s.error(), "sending the proof: " + s.message()};
  std::array<std::byte, 32> theirs;
  if (auto s = net::read_exact(fd, theirs, deadline); !s.ok())
    return {s.error(),
            s.error() == Errc::peer_died
                ? "Server disconnected (wrong authentication key: the server rejected our "
                  "IMPI_AUTH_HMAC proof)"
                : "waiting for the server's proof: " + s.message()};
  if (!base::digest_equal(theirs, hmac_server_proof(*auth.key, server_nonce, client_nonce)))
    return {Errc::protocol_error,
            "the server's IMPI_AUTH_HMAC proof is wrong: it does not know our IMPI_AUTH_KEY"};
  return {};
}

// AUTH (2.3.3): offers our methods; returns the one the server chose,
// once its step is done.
Result<std::int32_t> authenticate(int fd, const AuthConfig &auth, net::Clock::time_point deadline) {
  if (auto s = write_all(fd, encode_client_auth(auth.mask()), deadline); !s.ok())
    return {s.error(), "sending AUTH: " + s.message()};
  std::byte reply[kServerAuthSize];
  if (auto s = net::read_exact(fd, reply, deadline); !s.ok())
    return {s.error(), s.error() == Errc::peer_died
                           ? "the server closed the connection during authentication (no "
                             "method in common?)"
                           : "waiting for the server's AUTH reply: " + s.message()};
  auto which = static_cast<std::int32_t>(base::load_be<std::uint32_t>(std::span(reply).first(4)));
  auto follow =
      static_cast<std::int32_t>(base::load_be<std::uint32_t>(std::span(reply).subspan(4)));
  if (follow < 0 || follow > 65536)
    return {Errc::protocol_error, fmt::format("server AUTH reply announces {} bytes", follow)};
  Bytes follow_on(static_cast<size_t>(follow));
  if (follow > 0)
    if (auto s = net::read_exact(fd, follow_on, deadline); !s.ok()) return {s.error(), s.message()};
  if (which < 0 || which > 31 || !(auth.mask() & (1u << which)))
    return {Errc::protocol_error,
            fmt::format("the server chose authentication method {}, which this client did not "
                        "offer",
                        which)};
  if (which == kAuthKey) {
    if (auto s = write_all(fd, encode_auth_key(*auth.key), deadline); !s.ok())
      return {s.error(), "sending the key: " + s.message()};
  } else if (which == kAuthHmac) {
    if (auto s = prove_hmac(fd, auth, follow_on, deadline); !s.ok())
      return {s.error(), s.message()};
  }
  return which;
}
}  // namespace

Result<ImpiClient> ImpiClient::join(const net::Endpoint &server, int rank,
                                    const std::string &address, const AuthConfig &auth,
                                    net::Clock::time_point deadline) {
  if (auth.mask() == 0) return {Errc::invalid_argument, std::string(kNoAuthMessage)};
  ImpiClient c;
  c.rank_ = rank;
  c.server_name_ = server.text();
  auto fd = net::connect_tcp(server.address, server.port, address, deadline);
  if (!fd)
    return {fd.error(),
            fmt::format("cannot reach the IMPI server at {}: {}", server.text(), fd.message())};
  c.server_ = std::move(fd.value());
  net::set_nodelay(c.server_.get());
  if (address.empty()) {
    auto local = net::local_endpoint(c.server_.get());
    if (!local) return {local.error(), local.message()};
    c.address_ = local->address;  // the job stays on the network that reaches the server
  } else {
    c.address_ = address;
  }

  auto which = authenticate(c.server_.get(), auth, deadline);
  if (!which) return {which.error(), which.message()};

  // IMPI (2.3.4): our rank, then the job size.
  if (auto s = write_all(c.server_.get(), encode_impi(rank), deadline); !s.ok())
    return {s.error(), "sending the client rank: " + s.message()};
  for (;;) {
    auto cmd = read_cmd(c.server_.get(), c.reader_, deadline);
    if (!cmd) {
      if (cmd.error() == Errc::peer_died)
        return {Errc::peer_died,
                *which == kAuthKey
                    ? "Server disconnected (wrong authentication key, client rank taken, or "
                      "another client failed; the server's messages say which): the server "
                      "closed the connection"
                    : "Server disconnected (client rank taken or out of range, or another "
                      "client failed): the server closed the connection"};
      if (cmd.error() == Errc::timeout)
        return {Errc::timeout,
                fmt::format("timed out waiting for the IMPI server at {} to answer: it answers "
                            "once every client has joined (this is client {}; the server's "
                            "messages name the missing ones)",
                            c.server_name_, rank)};
      return {cmd.error(), cmd.message()};
    }
    if (cmd->header.cmd != kCmdImpi) continue;  // skip what we do not know
    auto size = decode_i32_payload(cmd->payload);
    if (!size || *size < 1 || *size > kMaxClients || rank >= *size)
      return {Errc::protocol_error, "bad IMPI size reply from the server"};
    c.nclients_ = *size;
    return c;
  }
}

Result<std::uint16_t> ImpiClient::listen() {
  auto fd = net::listen_tcp(address_, 0);
  if (!fd) return {fd.error(), fd.message()};
  listener_ = std::move(fd.value());
  auto ep = net::local_endpoint(listener_.get());
  if (!ep) return {ep.error(), ep.message()};
  return ep->port;
}

Result<ImpiJob> ImpiClient::exchange(const ClientAdvert &a, net::Clock::time_point deadline) {
  if (auto s = validate(a); !s.ok()) return {s.error(), s.message()};
  Bytes out;
  for (auto &[label, value] : labels_of(a)) {
    Bytes m = encode_coll_submit(label, value);
    out.insert(out.end(), m.begin(), m.end());
  }
  Bytes done = encode_cmd(kCmdDone);
  out.insert(out.end(), done.begin(), done.end());
  if (auto s = write_all(server_.get(), out, deadline); !s.ok())
    return {s.error(), "sending the startup labels: " + s.message()};
  std::map<std::int32_t, CollBcast> bcasts;
  for (;;) {
    auto cmd = read_cmd(server_.get(), reader_, deadline);
    if (!cmd && cmd.error() == Errc::timeout)
      return {Errc::timeout,
              fmt::format("timed out waiting for the IMPI server at {} to send the job: it "
                          "sends it once all {} clients have joined and sent their startup data "
                          "(this is client {}; the server's messages name the missing ones)",
                          server_name_, nclients_, rank_)};
    if (!cmd) return {cmd.error(), "during the startup exchange: " + cmd.message()};
    if (cmd->header.cmd == kCmdDone) break;
    if (cmd->header.cmd != kCmdColl) continue;
    auto b = decode_coll_bcast(cmd->payload);
    if (!b) return {b.error(), b.message()};
    if (label_name(b->label).empty()) continue;  // a label we do not understand
    if (bcasts.count(b->label))
      return {Errc::protocol_error,
              fmt::format("the server broadcast {} twice", label_name(b->label))};
    bcasts[b->label] = std::move(b.value());
  }
  return derive_job(nclients_, rank_, bcasts);
}

Result<std::vector<Fd>> dance_as_host(int me, Fd &listener, const std::string &address,
                                      const ImpiJob &job, net::Clock::time_point deadline) {
  int nhosts = static_cast<int>(job.hosts.size());
  std::vector<Fd> ch(static_cast<size_t>(nhosts));
  // Higher-ranked host connects, lower-ranked host accepts (2.3.8).
  for (int i = 0; i < me; ++i) {
    const auto &h = job.hosts[static_cast<size_t>(i)];
    std::string addr = format_address(h.address);
    auto fd = net::connect_tcp(addr, static_cast<std::uint16_t>(h.port), address, deadline);
    if (!fd)
      return {fd.error(), fmt::format("dance: cannot connect to host {} at {}:{}: {}", i, addr,
                                      h.port, fd.message())};
    net::set_nodelay(fd->get());
    Bytes rank(4);
    base::store_be<std::uint32_t>(rank, static_cast<std::uint32_t>(me));
    if (auto s = net::write_exact(fd->get(), rank, deadline); !s.ok())
      return {s.error(), fmt::format("dance: host {}: {}", i, s.message())};
    ch[static_cast<size_t>(i)] = std::move(fd.value());
  }
  int expected = nhosts - 1 - me;
  while (expected > 0) {
    pollfd p{listener.get(), POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - net::Clock::now());
    int n = ::poll(&p, 1, left.count() > 0 ? static_cast<int>(left.count()) : 0);
    if (n == 0) {
      std::string missing;
      for (int h = me + 1; h < nhosts; ++h)
        if (!ch[static_cast<size_t>(h)])
          missing += (missing.empty() ? "" : ", ") + job.host_name(static_cast<size_t>(h));
      return {Errc::timeout,
              fmt::format("dance: timed out waiting for {} to connect to this host", missing)};
    }
    if (n < 0) continue;
    Fd c(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!c) continue;
    auto peer = net::peer_endpoint(c.get());
    std::string who = peer ? peer->text() : "?";
    // Identify the caller by the rank it sends, never by its address. A
    // stranger that sends nothing must not stall the dance for long.
    std::byte rb[4];
    auto soon = std::min(deadline, net::Clock::now() + std::chrono::seconds(5));
    if (auto s = net::read_exact(c.get(), rb, soon); !s.ok()) {
      base::log_warn("dance: connection from {} sent no host rank ({}); closed", who, s.message());
      continue;
    }
    auto r = static_cast<std::int64_t>(base::load_be<std::uint32_t>(rb));
    if (r <= me || r >= nhosts || ch[static_cast<size_t>(r)]) {
      base::log_warn("dance: connection from {} claims host rank {}, which is not expected; closed",
                     who, r);
      continue;
    }
    net::set_nodelay(c.get());
    ch[static_cast<size_t>(r)] = std::move(c);
    --expected;
  }
  listener.reset();  // no further connections are part of the protocol
  return ch;
}

Status exchange_fini(std::vector<Fd> &channels, std::uint32_t maxdatalen,
                     net::Clock::time_point deadline) {
  namespace tw = transport::wire;
  tw::Packet fini_packet;
  fini_packet.type = tw::PacketType::fini;
  Bytes fini = tw::encode(fini_packet);
  Status result;
  for (auto &c : channels)
    if (c) {
      if (auto s = net::write_exact(c.get(), fini, deadline); !s.ok()) result = s;
    }
  for (std::size_t h = 0; h < channels.size(); ++h) {
    auto &c = channels[h];
    if (!c) continue;
    // Consume until the peer's FINI (no data flows yet; anything is
    // discarded). The codec frames the stream: only DATA and DATASYNC carry
    // pk_len bytes, whatever a header-only packet's pk_len says.
    for (;;) {
      std::byte hdr[tw::kPacketHeaderSize];
      if (auto s = net::read_exact(c.get(), hdr, deadline); !s.ok()) {
        result = {s.error(),
                  fmt::format("host {} closed its channel without FINI ({})", h, s.message())};
        break;
      }
      auto p = tw::decode(hdr, maxdatalen);
      if (!p) {
        result = {Errc::protocol_error, fmt::format("host {}: {}", h, p.message())};
        break;
      }
      if (p->type == tw::PacketType::fini) break;
      Bytes skip(p->len);
      if (auto s = net::read_exact(c.get(), skip, deadline); !s.ok()) {
        result = s;
        break;
      }
    }
    c.reset();
  }
  return result;
}

Result<std::vector<Fd>> ImpiClient::dance(const ImpiJob &job, net::Clock::time_point deadline) {
  return dance_as_host(job.host_of_me(), listener_, address_, job, deadline);
}

Status ImpiClient::finish(std::vector<Fd> &channels, const ImpiJob &job,
                          net::Clock::time_point deadline, const ChannelCloser &close_channels) {
  Status s = close_channels ? close_channels(channels, job, deadline)
                            : exchange_fini(channels, job.maxdatalen, deadline);
  if (!s.ok()) return s;
  if (auto w = write_all(server_.get(), encode_cmd(kCmdFini), deadline); !w.ok())
    return {w.error(), "sending FINI to the server: " + w.message()};
  server_.reset();
  return {};
}

}  // namespace impi::startup
