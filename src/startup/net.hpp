// net.hpp - the TCP plumbing of startup: listen, connect, exact reads and
// writes with deadlines. Addresses are text ("127.0.0.1", "::1").
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"

namespace impi::startup::net {

using Clock = std::chrono::steady_clock;

// A listening socket on address:port (port 0: any), close-on-exec.
base::Result<base::Fd> listen_tcp(std::string_view address, std::uint16_t port, int backlog = 64);
// Connects to address:port, first binding to `bind_address` when not empty.
base::Result<base::Fd> connect_tcp(std::string_view address, std::uint16_t port,
                                   std::string_view bind_address, Clock::time_point deadline);

struct Endpoint {
  std::string address;
  std::uint16_t port = 0;
  std::string text() const;  // "a.b.c.d:p" or "[v6]:p"
};
base::Result<Endpoint> local_endpoint(int fd);
base::Result<Endpoint> peer_endpoint(int fd);
// The addresses of a host: a literal IPv4/IPv6 address as it is, or what a
// host name resolves to (IPv4 first). Fails with a clear message.
base::Result<std::vector<std::string>> resolve(std::string_view host);
base::Result<std::string> resolve_one(std::string_view host);
// Whether an address (literal) is loopback or one of this machine's.
bool is_local_address(const std::string &address);

// "host:port" or "[v6]:port" into parts; the host may be a name (it must
// resolve; it is kept as given).
base::Result<Endpoint> parse_endpoint(std::string_view text);

// The machine's primary address: the first IPv4 address of an interface
// that is up and not loopback; 127.0.0.1 when there is none.
std::string primary_address();

// Reads/writes exactly `buf.size()` bytes or fails (EOF, error, deadline).
base::Status read_exact(int fd, std::span<std::byte> buf, Clock::time_point deadline);
base::Status write_exact(int fd, std::span<const std::byte> buf, Clock::time_point deadline);

void set_nodelay(int fd);

}  // namespace impi::startup::net
