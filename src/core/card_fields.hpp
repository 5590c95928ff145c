// card_fields.hpp - the "tag key=value key=value" line format of our
// cards (contact cards, dynamic cards, port names): one field splitter,
// used by every decoder, which treats the bytes as untrusted.
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>

#include "base/errc.hpp"

namespace impi::core {

// Splits "key=value key=value" after `tag`; calls f(key, value) for each
// field; f returns an error message or "".
template <typename F>
base::Status card_fields(std::string_view bytes, std::string_view tag, std::string_view what, F f) {
  if (bytes.substr(0, tag.size()) != tag || (bytes.size() > tag.size() && bytes[tag.size()] != ' '))
    return {base::Errc::protocol_error, fmt::format("{} has an unknown version tag", what)};
  std::string_view rest = bytes.substr(tag.size());
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
      return {base::Errc::protocol_error, fmt::format("{}: a field without '='", what)};
    std::string err = f(field.substr(0, eq), field.substr(eq + 1));
    if (!err.empty()) return {base::Errc::protocol_error, fmt::format("{}: {}", what, err)};
  }
  return {};
}

}  // namespace impi::core
