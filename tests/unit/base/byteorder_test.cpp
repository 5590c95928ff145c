#include "base/byteorder.hpp"

#include <array>
#include <catch2/catch.hpp>

using namespace impi::base;

TEST_CASE("big-endian store and load are exact and inverse") {
  std::array<std::byte, 8> buf{};
  store_be<std::uint32_t>(buf, 0x01020304u);
  CHECK(buf[0] == std::byte{1});
  CHECK(buf[3] == std::byte{4});
  CHECK(load_be<std::uint32_t>(buf) == 0x01020304u);
  store_be<std::uint64_t>(buf, 0x8877665544332211ull);
  CHECK(buf[0] == std::byte{0x88});
  CHECK(buf[7] == std::byte{0x11});
  CHECK(load_be<std::uint64_t>(buf) == 0x8877665544332211ull);
  store_be<std::uint16_t>(buf, 0xbeef);
  CHECK(load_be<std::uint16_t>(buf) == 0xbeef);
}
