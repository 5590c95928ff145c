// byteorder.hpp - explicit big-endian load/store for wire formats.
//
// Wire layouts are encoded field by field through these helpers, never by
// casting a struct onto a buffer, so the layout cannot change with the
// compiler or the host's byte order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace impi::base {

template <typename U>
constexpr U load_be(std::span<const std::byte> in) noexcept {
  U v = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i)
    v = static_cast<U>((v << 8) | std::to_integer<U>(in[i]));
  return v;
}

template <typename U>
constexpr void store_be(std::span<std::byte> out, U v) noexcept {
  for (std::size_t i = 0; i < sizeof(U); ++i)
    out[sizeof(U) - 1 - i] = static_cast<std::byte>((v >> (8 * i)) & 0xff);
}

}  // namespace impi::base
