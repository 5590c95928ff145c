#include "startup/net.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace impi::startup::net {

using base::Errc;
using base::Fd;

namespace {

struct SockAddr {
  sockaddr_storage ss{};
  socklen_t len = 0;
};

base::Result<SockAddr> make_addr(std::string_view address, std::uint16_t port) {
  SockAddr a;
  std::string s(address);
  auto *v4 = reinterpret_cast<sockaddr_in *>(&a.ss);
  auto *v6 = reinterpret_cast<sockaddr_in6 *>(&a.ss);
  if (::inet_pton(AF_INET, s.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    a.len = sizeof *v4;
    return a;
  }
  if (::inet_pton(AF_INET6, s.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    a.len = sizeof *v6;
    return a;
  }
  return {Errc::invalid_argument, fmt::format("'{}' is not an IP address", address)};
}

Endpoint to_endpoint(const sockaddr_storage &ss) {
  char buf[INET6_ADDRSTRLEN] = {};
  Endpoint e;
  if (ss.ss_family == AF_INET) {
    auto *v4 = reinterpret_cast<const sockaddr_in *>(&ss);
    ::inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
    e.port = ntohs(v4->sin_port);
  } else {
    auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&ss);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
    e.port = ntohs(v6->sin6_port);
  }
  e.address = buf;
  return e;
}

int remaining_ms(Clock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

}  // namespace

std::string Endpoint::text() const {
  return address.find(':') != std::string::npos ? fmt::format("[{}]:{}", address, port)
                                                : fmt::format("{}:{}", address, port);
}

base::Result<Endpoint> parse_endpoint(std::string_view text) {
  std::string_view host, port;
  if (!text.empty() && text[0] == '[') {
    auto close = text.find("]:");
    if (close == std::string_view::npos)
      return {Errc::invalid_argument, fmt::format("'{}' is not [ipv6]:port", text)};
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return {Errc::invalid_argument, fmt::format("'{}' is not host:port", text)};
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  int p = 0;
  for (char c : port) {
    if (c < '0' || c > '9' || p > 65535)
      return {Errc::invalid_argument, fmt::format("bad port in '{}'", text)};
    p = p * 10 + (c - '0');
  }
  if (port.empty() || p < 1 || p > 65535)
    return {Errc::invalid_argument, fmt::format("bad port in '{}'", text)};
  if (!make_addr(host, 0))
    return {Errc::invalid_argument, fmt::format("'{}' is not an IP address", host)};
  return Endpoint{std::string(host), static_cast<std::uint16_t>(p)};
}

base::Result<Fd> listen_tcp(std::string_view address, std::uint16_t port, int backlog) {
  auto a = make_addr(address, port);
  if (!a) return {a.error(), a.message()};
  Fd fd(::socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) return {Errc::io_error, fmt::format("socket: {}", std::strerror(errno))};
  int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&a->ss), a->len) != 0)
    return {Errc::io_error,
            fmt::format("cannot listen on {}:{}: {}", address, port, std::strerror(errno))};
  if (::listen(fd.get(), backlog) != 0)
    return {Errc::io_error, fmt::format("listen: {}", std::strerror(errno))};
  return fd;
}

base::Result<Fd> connect_tcp(std::string_view address, std::uint16_t port,
                             std::string_view bind_address, Clock::time_point deadline) {
  auto a = make_addr(address, port);
  if (!a) return {a.error(), a.message()};
  Fd fd(::socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) return {Errc::io_error, fmt::format("socket: {}", std::strerror(errno))};
  if (!bind_address.empty()) {
    auto b = make_addr(bind_address, 0);
    if (!b) return {b.error(), b.message()};
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&b->ss), b->len) != 0)
      return {Errc::io_error,
              fmt::format("cannot bind to {}: {}", bind_address, std::strerror(errno))};
  }
  if (::connect(fd.get(), reinterpret_cast<sockaddr *>(&a->ss), a->len) != 0) {
    if (errno != EINPROGRESS)
      return {Errc::io_error,
              fmt::format("cannot connect to {}:{}: {}", address, port, std::strerror(errno))};
    pollfd p{fd.get(), POLLOUT, 0};
    int n = ::poll(&p, 1, remaining_ms(deadline));
    if (n == 0) return {Errc::timeout, fmt::format("timed out connecting to {}:{}", address, port)};
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (n < 0 || err != 0)
      return {Errc::io_error, fmt::format("cannot connect to {}:{}: {}", address, port,
                                          std::strerror(err ? err : errno))};
  }
  int flags = ::fcntl(fd.get(), F_GETFL);
  ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

base::Result<Endpoint> local_endpoint(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len) != 0)
    return {Errc::io_error, std::strerror(errno)};
  return to_endpoint(ss);
}

base::Result<Endpoint> peer_endpoint(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getpeername(fd, reinterpret_cast<sockaddr *>(&ss), &len) != 0)
    return {Errc::io_error, std::strerror(errno)};
  return to_endpoint(ss);
}

std::string primary_address() {
  ifaddrs *ifs = nullptr;
  std::string out = "127.0.0.1";
  if (::getifaddrs(&ifs) != 0) return out;
  for (ifaddrs *i = ifs; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
    char buf[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr, buf, sizeof buf);
    out = buf;
    break;
  }
  ::freeifaddrs(ifs);
  return out;
}

base::Status read_exact(int fd, std::span<std::byte> buf, Clock::time_point deadline) {
  std::size_t got = 0;
  while (got < buf.size()) {
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, remaining_ms(deadline));
    if (n == 0) return {Errc::timeout, "timed out waiting for data"};
    if (n < 0) {
      if (errno == EINTR) continue;
      return {Errc::io_error, std::strerror(errno)};
    }
    ssize_t r = ::read(fd, buf.data() + got, buf.size() - got);
    if (r == 0) return {Errc::peer_died, "connection closed by the peer"};
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return {Errc::peer_died, std::strerror(errno)};
    }
    got += static_cast<std::size_t>(r);
  }
  return {};
}

base::Status write_exact(int fd, std::span<const std::byte> buf, Clock::time_point deadline) {
  std::size_t put = 0;
  while (put < buf.size()) {
    pollfd p{fd, POLLOUT, 0};
    int n = ::poll(&p, 1, remaining_ms(deadline));
    if (n == 0) return {Errc::timeout, "timed out sending"};
    if (n < 0) {
      if (errno == EINTR) continue;
      return {Errc::io_error, std::strerror(errno)};
    }
    ssize_t w = ::send(fd, buf.data() + put, buf.size() - put, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return {Errc::peer_died, std::strerror(errno)};
    }
    put += static_cast<std::size_t>(w);
  }
  return {};
}

void set_nodelay(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace impi::startup::net
