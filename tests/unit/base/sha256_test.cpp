// SHA-256 against FIPS 180-4 examples, HMAC-SHA-256 against RFC 4231.
#include "base/sha256.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace {
std::string hex(const impi::base::Digest &d) {
  static const char *k = "0123456789abcdef";
  std::string s;
  for (auto b : d) {
    s += k[std::to_integer<int>(b) >> 4];
    s += k[std::to_integer<int>(b) & 15];
  }
  return s;
}
std::vector<std::byte> bytes(std::string_view s) {
  std::vector<std::byte> v;
  for (char c : s) v.push_back(static_cast<std::byte>(c));
  return v;
}
}  // namespace

TEST_CASE("SHA-256 gives the FIPS 180-4 digests") {
  using impi::base::sha256;
  CHECK(hex(sha256(bytes(""))) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(sha256(bytes("abc"))) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(sha256(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::vector<std::byte> million(1000000, std::byte{'a'});
  CHECK(hex(sha256(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // fed in odd pieces: the same digest
  impi::base::Sha256 s;
  auto m = bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
  s.update(std::span(m).first(3));
  s.update(std::span(m).subspan(3, 40));
  s.update(std::span(m).subspan(43));
  CHECK(hex(s.finish()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("HMAC-SHA-256 gives the RFC 4231 values") {
  using impi::base::hmac_sha256;
  std::vector<std::byte> key1(20, std::byte{0x0b});
  CHECK(hex(hmac_sha256(key1, bytes("Hi There"))) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hex(hmac_sha256(bytes("Jefe"), bytes("what do ya want for nothing?"))) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  std::vector<std::byte> key6(131, std::byte{0xaa});  // longer than a block: hashed first
  CHECK(hex(hmac_sha256(key6, bytes("Test Using Larger Than Block-Size Key - Hash Key First"))) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  auto a = hmac_sha256(key1, bytes("x")), b = hmac_sha256(key1, bytes("y"));
  CHECK(impi::base::digest_equal(a, a));
  CHECK_FALSE(impi::base::digest_equal(a, b));
}
