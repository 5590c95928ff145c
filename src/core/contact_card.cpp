#include "core/contact_card.hpp"

#include <fmt/core.h>

#include <charconv>

#include "base/tunables.hpp"
#include "core/card_fields.hpp"

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
  ContactCard c;
  bool have_host = false, have_pid = false;
  auto st = card_fields(
      bytes, kTag, "contact card", [&](std::string_view key, std::string_view val) -> std::string {
        if (key == "host") {
          if (val.empty()) return "an empty host";
          c.host = std::string(val);
          have_host = true;
        } else if (key == "pid") {
          auto v = base::parse_int(val);
          if (!v || *v <= 0) return "a bad pid";
          c.pid = *v;
          have_pid = true;
        } else if (key == "shm") {
          if (val.empty() || val[0] != '/' || val.size() > 255) return "a bad shm name";
          c.shm = std::string(val);
        } else if (key == "cma") {
          std::uint64_t v = 0;
          auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), v, 16);
          if (ec != std::errc() || p != val.data() + val.size()) return "a bad cma address";
          c.cma = v;
        }
        return "";  // unknown keys are skipped: newer peers may add fields
      });
  if (!st.ok()) return {st.error(), st.message()};
  if (!have_host || !have_pid) return {Errc::protocol_error, "contact card lacks host or pid"};
  return c;
}

}  // namespace impi::core
