// hex.hpp - golden bytes written as hex text ("0000ffff 7f000001"): every
// pair of hex digits is one byte; anything else (spaces) is ignored.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

namespace impi::test {

inline std::vector<std::byte> hex(const std::string &s) {
  std::vector<std::byte> out;
  std::string digits;
  for (char c : s)
    if (std::isxdigit(static_cast<unsigned char>(c))) digits += c;
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(static_cast<std::byte>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

}  // namespace impi::test
