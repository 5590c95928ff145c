#include "core/contact_card.hpp"

#include <fmt/core.h>

#include <charconv>

#include "base/tunables.hpp"

namespace impi::core {

using base::Errc;

std::string ContactCard::encode() const {
  std::string s = fmt::format("{} host={} pid={}", kTag, host, pid);
  if (!shm.empty()) s += " shm=" + shm;
  if (cma != 0) s += fmt::format(" cma={:x}", cma);
  return s;
}

base::Result<ContactCard> ContactCard::decode(std::string_view bytes) {
  if (bytes.size() > kMaxEncoded) return {Errc::protocol_error, "contact card too long"};
  if (bytes.substr(0, kTag.size()) != kTag ||
      (bytes.size() > kTag.size() && bytes[kTag.size()] != ' '))
    return {Errc::protocol_error, "contact card has an unknown version tag"};
  ContactCard c;
  bool have_host = false, have_pid = false;
  std::string_view rest = bytes.substr(kTag.size());
  while (!rest.empty()) {
    if (rest[0] == ' ') {
      rest.remove_prefix(1);
      continue;
    }
    auto sp = rest.find(' ');
    std::string_view field = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp);
    auto eq = field.find('=');
    if (eq == std::string_view::npos)
      return {Errc::protocol_error, "contact card field without '='"};
    std::string_view key = field.substr(0, eq), val = field.substr(eq + 1);
    if (key == "host") {
      if (val.empty()) return {Errc::protocol_error, "contact card has an empty host"};
      c.host = std::string(val);
      have_host = true;
    } else if (key == "pid") {
      auto v = base::parse_int(val);
      if (!v || *v <= 0) return {Errc::protocol_error, "contact card has a bad pid"};
      c.pid = *v;
      have_pid = true;
    } else if (key == "shm") {
      if (val.empty() || val[0] != '/' || val.size() > 255)
        return {Errc::protocol_error, "contact card has a bad shm name"};
      c.shm = std::string(val);
    } else if (key == "cma") {
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), v, 16);
      if (ec != std::errc() || p != val.data() + val.size())
        return {Errc::protocol_error, "contact card has a bad cma address"};
      c.cma = v;
    }
    // Unknown keys are skipped: newer peers may add fields.
  }
  if (!have_host || !have_pid) return {Errc::protocol_error, "contact card lacks host or pid"};
  return c;
}

}  // namespace impi::core
