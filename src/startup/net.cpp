#include "startup/net.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
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

// A literal IPv4 or IPv6 address.
bool is_literal(const std::string &s) {
  in6_addr a6;
  in_addr a4;
  return ::inet_pton(AF_INET, s.c_str(), &a4) == 1 || ::inet_pton(AF_INET6, s.c_str(), &a6) == 1;
}

base::Result<SockAddr> literal_addr(std::string_view address, std::uint16_t port) {
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

// A literal address, or the first address a host name resolves to.
base::Result<SockAddr> make_addr(std::string_view address, std::uint16_t port) {
  auto all = resolve(address);
  if (!all) return {all.error(), all.message()};
  return literal_addr(all->front(), port);
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

base::Result<std::vector<std::string>> resolve(std::string_view host) {
  std::string h(host);
  if (!h.empty() && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  if (h.empty()) return {Errc::invalid_argument, "an empty host name"};
  if (is_literal(h)) return std::vector<std::string>{h};
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *res = nullptr;
  int rc = ::getaddrinfo(h.c_str(), nullptr, &hints, &res);
  if (rc != 0)
    return {Errc::invalid_argument,
            fmt::format("cannot resolve the host name '{}': {}", h, ::gai_strerror(rc))};
  std::vector<std::string> v4, v6;
  for (addrinfo *r = res; r; r = r->ai_next) {
    if (r->ai_family != AF_INET && r->ai_family != AF_INET6) continue;
    sockaddr_storage ss{};
    std::memcpy(&ss, r->ai_addr, std::min<std::size_t>(r->ai_addrlen, sizeof ss));
    auto &list = r->ai_family == AF_INET ? v4 : v6;
    std::string a = to_endpoint(ss).address;
    if (std::find(list.begin(), list.end(), a) == list.end()) list.push_back(a);
  }
  ::freeaddrinfo(res);
  v4.insert(v4.end(), v6.begin(), v6.end());  // IPv4 first, as most peers listen there
  if (v4.empty())
    return {Errc::invalid_argument, fmt::format("the host name '{}' has no IP address", h)};
  return v4;
}

base::Result<std::string> resolve_one(std::string_view host) {
  auto all = resolve(host);
  if (!all) return {all.error(), all.message()};
  return all->front();
}

bool is_local_address(const std::string &address) {
  if (address.rfind("127.", 0) == 0 || address == "::1" || address == "::ffff:127.0.0.1")
    return true;
  ifaddrs *ifs = nullptr;
  if (::getifaddrs(&ifs) != 0) return false;
  bool found = false;
  for (ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
    if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
      continue;
    sockaddr_storage ss{};
    std::memcpy(&ss, i->ifa_addr,
                i->ifa_addr->sa_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6));
    found = to_endpoint(ss).address == address;
  }
  ::freeifaddrs(ifs);
  return found;
}

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
  if (host.empty()) return {Errc::invalid_argument, fmt::format("no host in '{}'", text)};
  if (auto r = resolve(host); !r) return {r.error(), r.message()};
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

namespace {
base::Result<Fd> connect_one(std::string_view address, std::uint16_t port,
                             std::string_view bind_address, Clock::time_point deadline) {
  auto a = literal_addr(address, port);
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
}  // namespace

base::Result<Fd> connect_tcp(std::string_view address, std::uint16_t port,
                             std::string_view bind_address, Clock::time_point deadline) {
  // A host name may have several addresses: the first that answers wins.
  auto all = resolve(address);
  if (!all) return {all.error(), all.message()};
  // Bound to an address of one family, only that family can connect.
  if (!bind_address.empty()) {
    const bool v6 = std::string(bind_address).find(':') != std::string::npos;
    std::vector<std::string> same;
    for (const auto &a : *all)
      if ((a.find(':') != std::string::npos) == v6) same.push_back(a);
    if (!same.empty()) *all = same;
  }
  base::Result<Fd> r{Errc::io_error, "no address"};
  for (const auto &a : *all) {
    r = connect_one(a, port, bind_address, deadline);
    if (r || r.error() == Errc::timeout) break;
  }
  if (!r && all->size() > 1 && !is_literal(std::string(address)))
    return {r.error(), fmt::format("{} (host name {})", r.message(), address)};
  return r;
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
