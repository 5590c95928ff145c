#include "core/dyn_card.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include "base/byteorder.hpp"
#include "base/tunables.hpp"
#include "core/card_fields.hpp"

namespace impi::core {

using base::Errc;

namespace {
// A field value: printable, no spaces, bounded.
bool clean(std::string_view v, std::size_t max = 200) {
  return !v.empty() && v.size() <= max &&
         std::all_of(v.begin(), v.end(), [](char c) { return c > ' ' && c < 127; });
}

}  // namespace

std::string DynCard::encode() const {
  std::string s = fmt::format("{} job={} rank={} host={}", kTag, job, rank, host);
  if (!unix_name.empty()) s += " unix=" + unix_name;
  if (!tcp.empty()) s += " tcp=" + tcp;
  if (!shm.empty()) s += " shm=" + shm;
  return s;
}

base::Result<DynCard> DynCard::decode(std::string_view bytes) {
  if (bytes.size() > kMaxEncoded) return {Errc::protocol_error, "dynamic card too long"};
  DynCard c;
  bool have_rank = false;
  auto st = card_fields(bytes, kTag, "dynamic card",
                        [&](std::string_view k, std::string_view v) -> std::string {
                          if (k == "job" || k == "host" || k == "unix" || k == "tcp") {
                            if (!clean(v)) return fmt::format("bad {}", k);
                            (k == "job"    ? c.job
                             : k == "host" ? c.host
                             : k == "unix" ? c.unix_name
                                           : c.tcp) = std::string(v);
                          } else if (k == "shm") {
                            if (!clean(v) || v[0] != '/') return "bad shm";
                            c.shm = std::string(v);
                          } else if (k == "rank") {
                            auto r = base::parse_int(v);
                            if (!r || *r < 0 || *r >= (1 << 24)) return "bad rank";
                            c.rank = static_cast<int>(*r);
                            have_rank = true;
                          }
                          return "";  // unknown keys: from newer peers
                        });
  if (!st.ok()) return {st.error(), st.message()};
  if (c.job.empty() || c.host.empty() || !have_rank)
    return {Errc::protocol_error, "dynamic card lacks job, rank or host"};
  if (c.unix_name.empty() && c.tcp.empty())
    return {Errc::protocol_error, "dynamic card names no socket"};
  return c;
}

std::string PortName::encode() const {
  return fmt::format("{} port={} {}", kTag, port, card.encode());
}

base::Result<PortName> PortName::decode(std::string_view bytes) {
  if (bytes.size() > kTag.size() + DynCard::kMaxEncoded + 32)
    return {Errc::protocol_error, "port name too long"};
  // "impi-port/1 port=N impi-dyn/1 ...": the card starts at its tag.
  auto at = bytes.find(DynCard::kTag);
  if (at == std::string_view::npos)
    return {Errc::protocol_error, "not a port name of this MPI (no card)"};
  PortName p;
  bool have_port = false;
  auto st = card_fields(bytes.substr(0, at), kTag, "port name",
                        [&](std::string_view k, std::string_view v) -> std::string {
                          if (k == "port") {
                            auto n = base::parse_int(v);
                            if (!n || *n <= 0) return "bad port number";
                            p.port = static_cast<std::uint64_t>(*n);
                            have_port = true;
                          }
                          return "";
                        });
  if (!st.ok()) return {st.error(), st.message()};
  if (!have_port) return {Errc::protocol_error, "port name lacks its port number"};
  auto card = DynCard::decode(bytes.substr(at));
  if (!card) return {card.error(), card.message()};
  p.card = std::move(card.value());
  return p;
}

void DynFrame::encode(std::span<std::byte, kSize> out) const {
  std::fill(out.begin(), out.end(), std::byte{0});
  base::store_be<std::uint32_t>(out.subspan(0, 4), kMagic);
  out[4] = static_cast<std::byte>(kind);
  base::store_be<std::uint32_t>(out.subspan(8, 4), static_cast<std::uint32_t>(source));
  base::store_be<std::uint32_t>(out.subspan(12, 4), static_cast<std::uint32_t>(tag));
  base::store_be<std::uint32_t>(out.subspan(16, 4), static_cast<std::uint32_t>(context));
  base::store_be<std::uint64_t>(out.subspan(24, 8), len);
  base::store_be<std::uint64_t>(out.subspan(32, 8), id);
}

std::optional<DynFrame> DynFrame::decode(std::span<const std::byte, kSize> in) {
  if (base::load_be<std::uint32_t>(in.subspan(0, 4)) != kMagic) return std::nullopt;
  DynFrame f;
  f.kind = std::to_integer<std::uint8_t>(in[4]);
  if (f.kind < hello || f.kind > wake) return std::nullopt;
  f.source = static_cast<std::int32_t>(base::load_be<std::uint32_t>(in.subspan(8, 4)));
  f.tag = static_cast<std::int32_t>(base::load_be<std::uint32_t>(in.subspan(12, 4)));
  f.context = static_cast<std::int32_t>(base::load_be<std::uint32_t>(in.subspan(16, 4)));
  f.len = base::load_be<std::uint64_t>(in.subspan(24, 8));
  f.id = base::load_be<std::uint64_t>(in.subspan(32, 8));
  return f;
}

base::Result<std::size_t> dyn_next_frame(std::span<const std::byte> buf, DynFrame &f) {
  if (buf.size() < DynFrame::kSize) return std::size_t{0};
  auto d = DynFrame::decode(buf.first<DynFrame::kSize>());
  if (!d) return {Errc::protocol_error, "not a frame of this MPI (bad magic or kind)"};
  std::uint64_t max = d->kind == DynFrame::msg     ? 0xffffffffull
                      : d->kind == DynFrame::hello ? DynCard::kMaxEncoded
                      : d->kind == DynFrame::group ? (1ull << 30)
                                                   : 0;
  if (d->len > max)
    return {Errc::protocol_error, fmt::format("a frame of kind {} with {} bytes", d->kind, d->len)};
  if (buf.size() - DynFrame::kSize < d->len) return std::size_t{0};
  f = *d;
  return static_cast<std::size_t>(DynFrame::kSize + d->len);
}

std::vector<std::byte> encode_group(const DynGroup &g) {
  std::vector<std::byte> out(12);
  base::store_be<std::uint64_t>(std::span(out).subspan(0, 8), g.maxcid);
  base::store_be<std::uint32_t>(std::span(out).subspan(8, 4),
                                static_cast<std::uint32_t>(g.cards.size()));
  for (const auto &c : g.cards) {
    std::size_t at = out.size();
    out.resize(at + 2 + c.size());
    base::store_be<std::uint16_t>(std::span(out).subspan(at, 2),
                                  static_cast<std::uint16_t>(c.size()));
    std::memcpy(out.data() + at + 2, c.data(), c.size());
  }
  return out;
}

base::Result<DynGroup> decode_group(std::span<const std::byte> in) {
  constexpr std::uint32_t kMaxGroup = 1u << 20;
  if (in.size() < 12) return {Errc::protocol_error, "the group description is cut short"};
  DynGroup g;
  g.maxcid = base::load_be<std::uint64_t>(in.subspan(0, 8));
  std::uint32_t n = base::load_be<std::uint32_t>(in.subspan(8, 4));
  if (n == 0 || n > kMaxGroup) return {Errc::protocol_error, fmt::format("a group of {} procs", n)};
  std::size_t at = 12;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (in.size() - at < 2) return {Errc::protocol_error, "the group description is cut short"};
    std::size_t len = base::load_be<std::uint16_t>(in.subspan(at, 2));
    at += 2;
    if (in.size() - at < len || len > DynCard::kMaxEncoded)
      return {Errc::protocol_error, "the group description is cut short"};
    std::string card(reinterpret_cast<const char *>(in.data() + at), len);
    at += len;
    if (auto c = DynCard::decode(card); !c) return {c.error(), "a bad card: " + c.message()};
    g.cards.push_back(std::move(card));
  }
  if (at != in.size()) return {Errc::protocol_error, "the group description has trailing bytes"};
  return g;
}

namespace {
base::Status wait_fd(int fd, short events, std::chrono::steady_clock::time_point deadline,
                     const char *what, DynIdle idle = nullptr) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {Errc::timeout, fmt::format("timed out {}", what)};
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), idle ? 1 : 1000)));
    if (n > 0) return {};
    if (idle) idle();
    if (n < 0 && errno != EINTR)
      return {Errc::io_error, fmt::format("{}: {}", what, std::strerror(errno))};
  }
}
}  // namespace

base::Result<base::Fd> dyn_dial(const DynCard &c, const std::string &my_host,
                                std::chrono::milliseconds timeout) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  std::string where;
  if (c.host == my_host && !c.unix_name.empty()) {
    auto *a = reinterpret_cast<sockaddr_un *>(&ss);
    a->sun_family = AF_UNIX;
    if (c.unix_name.size() + 1 > sizeof a->sun_path)
      return {Errc::protocol_error, "socket name too long"};
    std::memcpy(a->sun_path + 1, c.unix_name.data(), c.unix_name.size());  // abstract: leading NUL
    len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + c.unix_name.size());
    where = "@" + c.unix_name;
  } else if (!c.tcp.empty()) {
    auto colon = c.tcp.rfind(':');
    auto port = colon == std::string::npos
                    ? std::nullopt
                    : base::parse_int(std::string_view(c.tcp).substr(colon + 1));
    if (!port || *port <= 0 || *port > 65535)
      return {Errc::protocol_error, fmt::format("bad TCP address {}", c.tcp)};
    std::string host = c.tcp.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    auto *a4 = reinterpret_cast<sockaddr_in *>(&ss);
    auto *a6 = reinterpret_cast<sockaddr_in6 *>(&ss);
    if (::inet_pton(AF_INET, host.c_str(), &a4->sin_addr) == 1) {
      a4->sin_family = AF_INET;
      a4->sin_port = htons(static_cast<std::uint16_t>(*port));
      len = sizeof *a4;
    } else if (::inet_pton(AF_INET6, host.c_str(), &a6->sin6_addr) == 1) {
      a6->sin6_family = AF_INET6;
      a6->sin6_port = htons(static_cast<std::uint16_t>(*port));
      len = sizeof *a6;
    } else {
      return {Errc::protocol_error, fmt::format("bad TCP address {}", c.tcp)};
    }
    where = c.tcp;
  } else {
    return {Errc::io_error, fmt::format("rank {} of job {} runs on {} and has no TCP listener",
                                        c.rank, c.job, c.host)};
  }
  base::Fd fd(::socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) return {Errc::io_error, fmt::format("socket: {}", std::strerror(errno))};
  auto deadline = std::chrono::steady_clock::now() + timeout;
  if (::connect(fd.get(), reinterpret_cast<sockaddr *>(&ss), len) != 0) {
    if (errno != EINPROGRESS && errno != EAGAIN)
      return {Errc::io_error, fmt::format("cannot connect to {} (rank {} of job {}): {}", where,
                                          c.rank, c.job, std::strerror(errno))};
    if (auto s = wait_fd(fd.get(), POLLOUT, deadline, "connecting"); !s.ok())
      return {s.error(), s.message()};
    int err = 0;
    socklen_t el = sizeof err;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &el);
    if (err != 0)
      return {Errc::io_error, fmt::format("cannot connect to {} (rank {} of job {}): {}", where,
                                          c.rank, c.job, std::strerror(err))};
  }
  if (ss.ss_family != AF_UNIX) {
    int one = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  int fl = ::fcntl(fd.get(), F_GETFL);
  ::fcntl(fd.get(), F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

base::Status dyn_write(int fd, std::span<const std::byte> data,
                       std::chrono::steady_clock::time_point deadline, DynIdle idle) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      data = data.subspan(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      if (auto s = wait_fd(fd, POLLOUT, deadline, "sending to the other root", idle); !s.ok())
        return s;
    } else {
      return {Errc::io_error, fmt::format("sending to the other root: {}", std::strerror(errno))};
    }
  }
  return {};
}

base::Status dyn_read(int fd, std::span<std::byte> data,
                      std::chrono::steady_clock::time_point deadline, DynIdle idle) {
  while (!data.empty()) {
    ssize_t n = ::recv(fd, data.data(), data.size(), MSG_DONTWAIT);
    if (n > 0) {
      data = data.subspan(static_cast<std::size_t>(n));
    } else if (n == 0) {
      return {Errc::io_error, "the other root closed the connection"};
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      if (auto s = wait_fd(fd, POLLIN, deadline, "waiting for the other root", idle); !s.ok())
        return s;
    } else {
      return {Errc::io_error,
              fmt::format("receiving from the other root: {}", std::strerror(errno))};
    }
  }
  return {};
}

}  // namespace impi::core
