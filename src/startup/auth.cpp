#include "startup/auth.hpp"

#include <fmt/core.h>

#include <charconv>

#include "base/tunables.hpp"
#include "startup/wire/startup_protocol.hpp"

namespace impi::startup {

using base::Errc;

std::uint32_t AuthConfig::mask() const {
  return (none ? 1u << wire::kAuthNone : 0u) | (key ? 1u << wire::kAuthKey : 0u);
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
  const std::vector<int> strongest_first = {wire::kAuthKey, wire::kAuthNone};
  for (int m : preference.empty() ? strongest_first : preference)
    if (m < 32 && (both & (1u << m))) return m;
  return std::nullopt;
}

std::string_view auth_name(int method) {
  switch (method) {
    case wire::kAuthNone: return "IMPI_AUTH_NONE";
    case wire::kAuthKey: return "IMPI_AUTH_KEY";
  }
  return "unknown";
}

}  // namespace impi::startup
