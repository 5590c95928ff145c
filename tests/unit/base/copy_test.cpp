// Tests of the copies in base/copy.hpp: every length of the inlined small
// copy lands exactly its bytes, at any alignment, and no byte around them.
#include "base/copy.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <vector>

TEST_CASE("copy_small: every length from 0 to 40 bytes, at every alignment", "[copy]") {
  std::vector<unsigned char> src(64), dst(80);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  for (std::size_t n = 0; n <= 40; ++n)
    for (std::size_t off = 0; off < 8; ++off) {
      std::fill(dst.begin(), dst.end(), 0xee);
      impi::base::copy_small(dst.data() + 8 + off, src.data() + off, n);
      for (std::size_t i = 0; i < dst.size(); ++i) {
        bool inside = i >= 8 + off && i < 8 + off + n;
        unsigned char want = inside ? src[i - 8] : 0xee;
        INFO("n " << n << " offset " << off << " byte " << i);
        REQUIRE(dst[i] == want);
      }
    }
}

TEST_CASE("copy_bytes: pieces of a long copy, and overlapping ranges", "[copy]") {
  std::vector<unsigned char> a((std::size_t{3} << 20) + 5);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 13);
  std::vector<unsigned char> b(a.size());
  impi::base::copy_bytes(b.data(), a.data(), a.size());
  REQUIRE(a == b);
  // Overlapping: a memmove.
  std::vector<unsigned char> c(a.begin(), a.begin() + 1000);
  impi::base::copy_bytes(c.data() + 10, c.data(), 900);
  for (std::size_t i = 0; i < 900; ++i) REQUIRE(c[10 + i] == a[i]);
}
