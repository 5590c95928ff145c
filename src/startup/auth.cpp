#include "startup/auth.hpp"

#include <fmt/core.h>
#include <sys/random.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "base/byteorder.hpp"
#include "base/sha256.hpp"
#include "base/tunables.hpp"
#include "startup/wire/startup_protocol.hpp"

namespace impi::startup {

using base::Errc;

std::uint32_t AuthConfig::mask() const {
  // A key enables both methods that use it: the spec's (key in clear) and ours (HMAC).
  return (none ? 1u << wire::kAuthNone : 0u) |
         (key ? (1u << wire::kAuthKey) | (1u << wire::kAuthHmac) : 0u);
}

namespace {
std::array<std::byte, 32> proof(std::uint64_t key, std::string_view label, const Nonce &first,
                                const Nonce &second) {
  std::array<std::byte, 8> k;
  base::store_be<std::uint64_t>(k, key);
  std::vector<std::byte> msg;
  for (char ch : label) msg.push_back(static_cast<std::byte>(ch));
  msg.insert(msg.end(), first.begin(), first.end());
  msg.insert(msg.end(), second.begin(), second.end());
  return base::hmac_sha256(k, msg);
}
}  // namespace

std::array<std::byte, 32> hmac_client_proof(std::uint64_t key, const Nonce &server_nonce,
                                            const Nonce &client_nonce) {
  return proof(key, "impi-auth-hmac-v1 client", server_nonce, client_nonce);
}

std::array<std::byte, 32> hmac_server_proof(std::uint64_t key, const Nonce &server_nonce,
                                            const Nonce &client_nonce) {
  return proof(key, "impi-auth-hmac-v1 server", client_nonce, server_nonce);
}

base::Result<Nonce> make_nonce() {
  Nonce n;
  std::size_t got = 0;
  while (got < n.size()) {
    ssize_t r = ::getrandom(n.data() + got, n.size() - got, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return {Errc::io_error, fmt::format("getrandom: {}", std::strerror(errno))};
    }
    got += static_cast<std::size_t>(r);
  }
  return n;
}

base::Result<AuthConfig> auth_from_env(const char *(*lookup_env)(const char *)) {
  AuthConfig c;
  c.none = lookup_env("IMPI_AUTH_NONE") != nullptr;
  if (const char *k = lookup_env("IMPI_AUTH_KEY"); k && *k) {
    std::string_view s(k);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      s.remove_prefix(2);
    }
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || p != s.data() + s.size())
      return {Errc::invalid_argument,
              "IMPI_AUTH_KEY must hold a 64-bit number (decimal, or hex with 0x)"};
    c.key = v;
  }
  return c;
}

base::Result<std::vector<int>> parse_auth_preference(std::string_view text) {
  std::vector<int> out;
  auto bad = [&] {
    return base::Result<std::vector<int>>{
        Errc::invalid_argument,
        fmt::format("bad -auth list '{}': expected values or ranges such as 3,1-0", text)};
  };
  if (text.empty()) return bad();
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (comma != std::string_view::npos && text.empty()) return bad();
    auto dash = item.find('-');
    auto lo = base::parse_int(item.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : base::parse_int(item.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < 0 || *lo > 1023 || *hi > 1023) return bad();
    int step = *lo <= *hi ? 1 : -1;
    for (int v = static_cast<int>(*lo);; v += step) {
      out.push_back(v);
      if (v == static_cast<int>(*hi)) break;
    }
  }
  return out;
}

std::optional<int> choose_auth(std::uint32_t server_mask, std::uint32_t client_mask,
                               const std::vector<int> &preference) {
  std::uint32_t both = server_mask & client_mask;
  const std::vector<int> strongest_first = {wire::kAuthHmac, wire::kAuthKey, wire::kAuthNone};
  for (int m : preference.empty() ? strongest_first : preference)
    if (m < 32 && (both & (1u << m))) return m;
  return std::nullopt;
}

std::string_view auth_name(int method) {
  switch (method) {
    case wire::kAuthNone:
      return "IMPI_AUTH_NONE";
    case wire::kAuthKey:
      return "IMPI_AUTH_KEY";
    case wire::kAuthHmac:
      return "IMPI_AUTH_HMAC (impi: HMAC-SHA-256 challenge-response)";
  }
  return "unknown";
}

}  // namespace impi::startup
