// external32 bytes of every predefined C type, written out by hand from
// the MPI-3.1 table (13.5.2): big-endian, IEEE, fixed sizes.
#include <catch2/catch.hpp>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>

#include "pack/external32.hpp"

using namespace impi::pack;

namespace {

std::vector<std::byte> hex(const std::string &h) {
  std::vector<std::byte> out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2) {
    if (h[i] == ' ') {
      --i;
      continue;
    }
    out.push_back(static_cast<std::byte>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

template <typename V>
struct Pair;

// Equality that ignores padding (x87 long doubles carry 6 bytes of it).
template <typename T>
bool same(const T &a, const T &b) {
  if constexpr (std::is_same_v<T, long double> || std::is_same_v<T, std::complex<long double>>)
    return a == b;
  else if constexpr (std::is_same_v<T, Pair<long double>>)
    return a.v == b.v && a.i == b.i;
  else
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
void golden(int basic, T value, const std::string &expect) {
  INFO(predefined(basic).name);
  auto want = hex(expect);
  REQUIRE(want.size() == predefined(basic).ext32_size);
  std::vector<std::byte> got(want.size());
  to_external32(basic, reinterpret_cast<const std::byte *>(&value), got.data());
  CHECK(got == want);
  T back{};
  std::memset(static_cast<void *>(&back), 0, sizeof back);
  from_external32(basic, want.data(), reinterpret_cast<std::byte *>(&back));
  CHECK(same(back, value));
}

template <typename V>
struct Pair {
  V v;
  int i;
};

template <typename V>
Pair<V> pair(V v, int i) {
  Pair<V> p;
  std::memset(static_cast<void *>(&p), 0, sizeof p);  // padding compares equal
  p.v = v;
  p.i = i;
  return p;
}

long double ld(long double v) {
  long double out;
  std::memset(&out, 0, sizeof out);  // x87 padding bytes are zero after a round trip
  out = v;
  return out;
}

}  // namespace

TEST_CASE("external32 golden bytes of every predefined C type") {
  golden<char>(dt::char_, 'A', "41");
  golden<signed char>(dt::signed_char, -2, "fe");
  golden<unsigned char>(dt::unsigned_char, 200, "c8");
  golden<unsigned char>(dt::byte, 0x5a, "5a");
  golden<wchar_t>(dt::wchar, L'\u20ac', "000020ac");
  golden<short>(dt::short_, -3, "fffd");
  golden<unsigned short>(dt::unsigned_short, 0xbeef, "beef");
  golden<int>(dt::int_, 0x01020304, "01020304");
  golden<unsigned>(dt::unsigned_, 0xfedcba98u, "fedcba98");
  golden<long>(dt::long_, -2, "fffffffe");  // 4 bytes, not 8
  golden<long>(dt::long_, 0x12345678, "12345678");
  golden<unsigned long>(dt::unsigned_long, 0x89abcdefUL, "89abcdef");
  golden<long long>(dt::long_long, -1234567890123LL, "fffffee08e04fb35");
  golden<unsigned long long>(dt::unsigned_long_long, 0x0123456789abcdefULL, "0123456789abcdef");
  golden<float>(dt::float_, 1.0f, "3f800000");
  golden<float>(dt::float_, -0.15625f, "be200000");
  golden<double>(dt::double_, 1.0, "3ff0000000000000");
  golden<double>(dt::double_, -2.5, "c004000000000000");
  golden<long double>(dt::long_double, ld(1.0L), "3fff0000000000000000000000000000");
  golden<long double>(dt::long_double, ld(-2.5L), "c0004000000000000000000000000000");
  golden<long double>(dt::long_double, ld(0.0L), "00000000000000000000000000000000");
  golden<bool>(dt::c_bool, true, "01");
  golden<bool>(dt::cxx_bool, false, "00");
  golden<std::int8_t>(dt::int8, -128, "80");
  golden<std::int16_t>(dt::int16, 0x1234, "1234");
  golden<std::int32_t>(dt::int32, -1, "ffffffff");
  golden<std::int64_t>(dt::int64, 0x0102030405060708LL, "0102030405060708");
  golden<std::uint8_t>(dt::uint8, 0xff, "ff");
  golden<std::uint16_t>(dt::uint16, 0x8001, "8001");
  golden<std::uint32_t>(dt::uint32, 0xdeadbeefu, "deadbeef");
  golden<std::uint64_t>(dt::uint64, 0xfedcba9876543210ULL, "fedcba9876543210");
  golden<std::complex<float>>(dt::c_float_complex, {1.0f, -1.0f}, "3f800000bf800000");
  golden<std::complex<double>>(dt::c_double_complex, {1.0, 2.0},
                               "3ff00000000000004000000000000000");
  golden<std::complex<long double>>(
      dt::c_long_double_complex, {ld(1.0L), ld(-2.5L)},
      "3fff0000000000000000000000000000c0004000000000000000000000000000");
  golden<std::ptrdiff_t>(dt::aint, -16, "fffffffffffffff0");
  golden<long long>(dt::offset, 1LL << 40, "0000010000000000");
  golden<long long>(dt::count, 7, "0000000000000007");
  golden<unsigned char>(dt::packed, 0x7e, "7e");
  // Pairs: the parts back to back, no padding.
  golden(dt::float_int, pair(1.0f, 7), "3f80000000000007");
  golden(dt::double_int, pair(-2.5, 3), "c00400000000000000000003");
  golden(dt::long_int, pair(-1L, 2), "ffffffff00000002");
  golden(dt::two_int, pair(5, -5), "00000005fffffffb");
  golden(dt::short_int, pair<short>(-1, 2), "ffff00000002");
  golden(dt::long_double_int, pair(ld(1.0L), 9), "3fff000000000000000000000000000000000009");
  golden<std::complex<float>>(dt::cxx_float_complex, {0.0f, 1.0f}, "000000003f800000");
}

TEST_CASE("long double subnormals, infinities and NaNs survive binary128") {
  for (long double v :
       {std::numeric_limits<long double>::denorm_min(),
        std::numeric_limits<long double>::infinity(), -std::numeric_limits<long double>::max(),
        std::numeric_limits<long double>::min()}) {
    long double in = ld(v), out = ld(0);
    std::byte e[16];
    to_external32(dt::long_double, reinterpret_cast<std::byte *>(&in), e);
    from_external32(dt::long_double, e, reinterpret_cast<std::byte *>(&out));
    CHECK(std::memcmp(&in, &out, 10) == 0);
  }
  long double nan = ld(std::numeric_limits<long double>::quiet_NaN()), back = ld(0);
  std::byte e[16];
  to_external32(dt::long_double, reinterpret_cast<std::byte *>(&nan), e);
  CHECK(e[0] == std::byte{0x7f});
  CHECK(e[1] == std::byte{0xff});
  from_external32(dt::long_double, e, reinterpret_cast<std::byte *>(&back));
  CHECK(back != back);
}

TEST_CASE("external32 of a derived type, resumable at every byte") {
  struct S {
    long l;
    double d;
    short s;
  };
  auto t = Datatype::struct_({1, 1, 1}, {0, 8, 16},
                             {Datatype::predefined(dt::long_), Datatype::predefined(dt::double_),
                              Datatype::predefined(dt::short_)})
               .value();
  CHECK(external32_size(t, 2).value() == 2 * (4 + 8 + 2));
  S src[2] = {{-2, 1.0, 3}, {7, -2.5, -1}}, dst[2] = {};
  auto want = hex("fffffffe 3ff0000000000000 0003 00000007 c004000000000000 ffff");
  External32Cursor whole(t, 2);
  std::vector<std::byte> out(static_cast<size_t>(whole.total()));
  CHECK(whole.pack(src, out) == out.size());
  CHECK(out == want);
  for (std::int64_t k = 0; k <= whole.total(); ++k) {
    std::vector<std::byte> a(out.size());
    External32Cursor c1(t, 2), c2(t, 2);
    c1.pack(src, std::span(a).first(static_cast<size_t>(k)));
    c2.seek(k);
    c2.pack(src, std::span(a).subspan(static_cast<size_t>(k)));
    REQUIRE(a == want);
    // Unpack in two pieces split at k, continuing one cursor.
    std::memset(static_cast<void *>(dst), 0, sizeof dst);
    External32Cursor u(t, 2);
    u.unpack(dst, std::span<const std::byte>(want).first(static_cast<size_t>(k)));
    u.unpack(dst, std::span<const std::byte>(want).subspan(static_cast<size_t>(k)));
    REQUIRE(dst[1].l == 7);
    REQUIRE(dst[1].d == -2.5);
    REQUIRE(dst[0].s == 3);
  }
}

TEST_CASE("native order (IMPI_NATIVE_ORDER_CLIENTS): same-size elements as their memory") {
  // A peer that sends its own byte order (LAM/MPI 7.1.4 in a single-node
  // universe): int, double and short travel as this machine's bytes; long
  // (8 bytes here, 4 in external32) is still converted.
  struct S {
    long l;
    double d;
    short s;
  };
  auto t = Datatype::struct_({1, 1, 1}, {0, 8, 16},
                             {Datatype::predefined(dt::long_), Datatype::predefined(dt::double_),
                              Datatype::predefined(dt::short_)})
               .value();
  S src[2] = {{-2, 1.0, 3}, {7, -2.5, -1}}, dst[2] = {};
  External32Cursor whole(t, 2, true);
  std::vector<std::byte> out(static_cast<size_t>(whole.total()));
  REQUIRE(out.size() == 2 * (4 + 8 + 2));
  CHECK(whole.pack(src, out) == out.size());
  std::vector<std::byte> want;
  auto put = [&](const void *p, std::size_t n) {
    auto *b = static_cast<const std::byte *>(p);
    want.insert(want.end(), b, b + n);
  };
  for (const S &e : src) {
    auto ext = hex(e.l == -2 ? "fffffffe" : "00000007");  // long: still external32
    want.insert(want.end(), ext.begin(), ext.end());
    put(&e.d, 8);
    put(&e.s, 2);
  }
  CHECK(out == want);
  for (std::int64_t k = 0; k <= whole.total(); ++k) {  // split anywhere, both ways
    std::memset(static_cast<void *>(dst), 0, sizeof dst);
    External32Cursor u(t, 2, true);
    u.unpack(dst, std::span<const std::byte>(want).first(static_cast<size_t>(k)));
    u.unpack(dst, std::span<const std::byte>(want).subspan(static_cast<size_t>(k)));
    REQUIRE(dst[0].l == -2);
    REQUIRE(dst[1].d == -2.5);
    REQUIRE(dst[1].s == -1);
    std::vector<std::byte> a(out.size());
    External32Cursor c1(t, 2, true), c2(t, 2, true);
    c1.pack(src, std::span(a).first(static_cast<size_t>(k)));
    c2.seek(k);
    c2.pack(src, std::span(a).subspan(static_cast<size_t>(k)));
    REQUIRE(a == want);
  }
}

TEST_CASE("external32 golden bytes of the Fortran types (gfortran's default kinds)") {
  golden<char>(dt::character, 'z', "7a");
  golden<std::int32_t>(dt::logical, 1, "00000001");
  golden<std::int32_t>(dt::integer, -2, "fffffffe");
  golden<std::int8_t>(dt::integer1, -2, "fe");
  golden<std::int16_t>(dt::integer2, 258, "0102");
  golden<std::int64_t>(dt::integer8, -2, "fffffffffffffffe");
  golden<float>(dt::real, 1.0f, "3f800000");
  golden<double>(dt::double_precision, -2.5, "c004000000000000");
  golden<float>(dt::real4, 2.0f, "40000000");
  golden<double>(dt::real8, 1.0, "3ff0000000000000");
  golden<std::complex<float>>(dt::complex, {1.0f, 2.0f}, "3f800000 40000000");
  golden<std::complex<double>>(dt::complex16, {1.0, -2.5}, "3ff0000000000000 c004000000000000");
  // Fortran's pairs: the index has the value's type, no padding.
  struct TwoReal {
    float v, i;
  };
  golden<TwoReal>(dt::two_real, {1.0f, 3.0f}, "3f800000 40400000");
  struct TwoDouble {
    double v, i;
  };
  golden<TwoDouble>(dt::two_double_precision, {-2.5, 1.0}, "c004000000000000 3ff0000000000000");
  struct TwoInteger {
    std::int32_t v, i;
  };
  golden<TwoInteger>(dt::two_integer, {-2, 7}, "fffffffe 00000007");
}

TEST_CASE("MPI_DATATYPE_NULL has no external32 form") {
  CHECK_FALSE(external32_size(Datatype::predefined(dt::null), 1).ok());
}
