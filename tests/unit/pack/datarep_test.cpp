// The forms of user data between IMPI clients (docs/data-representation.md):
// impi-wide (external32 with 8-byte MPI_LONG/MPI_UNSIGNED_LONG) keeps every
// long whole; external32 refuses, with Errc::conversion naming the type
// and the value, a long that its 4 bytes cannot hold; long doubles convert
// exactly to binary128 and back.
#include <catch2/catch.hpp>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "pack/datatype.hpp"
#include "pack/external32.hpp"
#include "pack/predefined.hpp"

using namespace impi::pack;

namespace {
constexpr long kBig = 0x123456789aL;

std::vector<std::byte> bytes(std::initializer_list<int> b) {
  std::vector<std::byte> out;
  for (int x : b) out.push_back(static_cast<std::byte>(x));
  return out;
}

struct LongInt {
  long v;
  int i;
};

// Packs (buf, count, t) in `rep` `chunk` bytes at a time.
std::vector<std::byte> pack_in_chunks(const TypePtr &t, std::int64_t count, const void *buf,
                                      Rep rep, std::size_t chunk) {
  External32Cursor c(t, count, false, rep);
  std::vector<std::byte> out(static_cast<std::size_t>(c.total()));
  for (std::size_t at = 0; at < out.size(); at += chunk)
    c.pack(buf, std::span(out).subspan(at, std::min(chunk, out.size() - at)));
  return out;
}

long double x87(std::uint64_t mant, std::uint16_t se) {
  long double v;
  std::memset(&v, 0, sizeof v);
  std::memcpy(&v, &mant, 8);
  std::memcpy(reinterpret_cast<char *>(&v) + 8, &se, 2);
  return v;
}

long double through_quad(long double v) {
  std::byte q[16];
  to_external32(dt::long_double, reinterpret_cast<const std::byte *>(&v), q);
  long double back = 0;
  from_external32(dt::long_double, q, reinterpret_cast<std::byte *>(&back));
  return back;
}
}  // namespace

TEST_CASE("impi-wide: only MPI_LONG, MPI_UNSIGNED_LONG and MPI_LONG_INT differ from external32") {
  CHECK(rep_size(dt::long_, Rep::external32) == 4);
  CHECK(rep_size(dt::unsigned_long, Rep::external32) == 4);
  CHECK(rep_size(dt::long_int, Rep::external32) == 8);
  CHECK(rep_size(dt::long_, Rep::wide) == 8);
  CHECK(rep_size(dt::unsigned_long, Rep::wide) == 8);
  CHECK(rep_size(dt::long_int, Rep::wide) == 12);
  for (int b = 0; b < kNumPredefined; ++b) {
    INFO(predefined(b).name);
    if (b != dt::long_ && b != dt::unsigned_long && b != dt::long_int)
      CHECK(rep_size(b, Rep::wide) == rep_size(b, Rep::external32));
    // In impi-wide nothing of this machine is narrower than natively.
    CHECK_FALSE(may_not_fit(b, Rep::wide));
  }
  // In external32 only the 8-byte longs (and the pair holding one) may not fit.
  for (int b = 0; b < kNumPredefined; ++b) {
    INFO(predefined(b).name);
    CHECK(may_not_fit(b, Rep::external32) ==
          (b == dt::long_ || b == dt::unsigned_long || b == dt::long_int));
  }
  auto n = external32_size(Datatype::predefined(dt::long_int), 3, Rep::wide);
  REQUIRE(n.ok());
  CHECK(*n == 36);
}

TEST_CASE("impi-wide golden bytes: 8-byte big-endian longs, 12-byte MPI_LONG_INT") {
  std::byte out[16];
  long l = kBig;
  to_external32(dt::long_, reinterpret_cast<const std::byte *>(&l), out, Rep::wide);
  CHECK(std::vector<std::byte>(out, out + 8) ==
        bytes({0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9a}));
  long back = 0;
  from_external32(dt::long_, out, reinterpret_cast<std::byte *>(&back), Rep::wide);
  CHECK(back == kBig);
  l = LONG_MIN;
  to_external32(dt::long_, reinterpret_cast<const std::byte *>(&l), out, Rep::wide);
  CHECK(std::vector<std::byte>(out, out + 8) == bytes({0x80, 0, 0, 0, 0, 0, 0, 0}));
  from_external32(dt::long_, out, reinterpret_cast<std::byte *>(&back), Rep::wide);
  CHECK(back == LONG_MIN);
  unsigned long u = ULONG_MAX, uback = 0;
  to_external32(dt::unsigned_long, reinterpret_cast<const std::byte *>(&u), out, Rep::wide);
  CHECK(std::vector<std::byte>(out, out + 8) ==
        bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  from_external32(dt::unsigned_long, out, reinterpret_cast<std::byte *>(&uback), Rep::wide);
  CHECK(uback == ULONG_MAX);
  LongInt li{kBig, -2}, liback{0, 0};
  to_external32(dt::long_int, reinterpret_cast<const std::byte *>(&li), out, Rep::wide);
  CHECK(std::vector<std::byte>(out, out + 12) ==
        bytes({0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xff, 0xff, 0xff, 0xfe}));
  from_external32(dt::long_int, out, reinterpret_cast<std::byte *>(&liback), Rep::wide);
  CHECK(liback.v == kBig);
  CHECK(liback.i == -2);
  // external32 is unchanged: 4 bytes, the low ones (after check_fits).
  l = -2;
  to_external32(dt::long_, reinterpret_cast<const std::byte *>(&l), out);
  CHECK(std::vector<std::byte>(out, out + 4) == bytes({0xff, 0xff, 0xff, 0xfe}));
}

TEST_CASE("impi-wide cursor: resumable at every byte, longs whole") {
  // {long; int; long} x 3 with a hole, and MPI_LONG_INT pairs.
  struct S {
    long a;
    int b;
    long c;
  } s[3];
  for (int i = 0; i < 3; ++i) s[i] = {kBig * (i + 1), -i, LONG_MIN + i};
  auto st = Datatype::struct_({1, 1, 1}, {offsetof(S, a), offsetof(S, b), offsetof(S, c)},
                              {Datatype::predefined(dt::long_), Datatype::predefined(dt::int_),
                               Datatype::predefined(dt::long_)});
  REQUIRE(st.ok());
  auto t = *st;
  auto whole = pack_in_chunks(t, 3, s, Rep::wide, 1 << 20);
  REQUIRE(whole.size() == 3 * 20);
  for (std::size_t chunk = 1; chunk < 25; ++chunk) {
    INFO("chunk " << chunk);
    CHECK(pack_in_chunks(t, 3, s, Rep::wide, chunk) == whole);
    S back[3];
    std::memset(back, 0, sizeof back);
    External32Cursor c(t, 3, false, Rep::wide);
    for (std::size_t at = 0; at < whole.size(); at += chunk)
      c.unpack(back,
               std::span<const std::byte>(whole).subspan(at, std::min(chunk, whole.size() - at)));
    for (int i = 0; i < 3; ++i) {
      CHECK(back[i].a == kBig * (i + 1));
      CHECK(back[i].b == -i);
      CHECK(back[i].c == LONG_MIN + i);
    }
  }
  LongInt li[4] = {{kBig, 1}, {-kBig, 2}, {LONG_MAX, 3}, {LONG_MIN, 4}}, liback[4];
  const auto &lit = Datatype::predefined(dt::long_int);
  auto p = pack_in_chunks(lit, 4, li, Rep::wide, 5);
  REQUIRE(p.size() == 48);
  External32Cursor c(lit, 4, false, Rep::wide);
  std::memset(liback, 0, sizeof liback);
  c.unpack(liback, p);
  for (int i = 0; i < 4; ++i) {
    CHECK(liback[i].v == li[i].v);
    CHECK(liback[i].i == li[i].i);
  }
}

TEST_CASE("external32: a long that 4 bytes cannot hold is a conversion error naming it") {
  const auto &lt = Datatype::predefined(dt::long_);
  long fits[4] = {INT32_MAX, INT32_MIN, -1, 0};
  CHECK(check_fits(lt, 4, fits, Rep::external32).ok());
  long v[4] = {1, 2, kBig, 3};
  auto s = check_fits(lt, 4, v, Rep::external32);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error() == impi::base::Errc::conversion);
  CHECK(s.message() ==
        "MPI_LONG value 78187493530 (0x123456789a) (element 2 of the message) does not fit in "
        "external32's 4-byte MPI_LONG");
  CHECK(check_fits(lt, 4, v, Rep::wide).ok());
  long neg[1] = {static_cast<long>(INT32_MIN) - 1};
  s = check_fits(lt, 1, neg, Rep::external32);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("MPI_LONG value -2147483649 (-0x80000001)") == 0);

  const auto &ut = Datatype::predefined(dt::unsigned_long);
  unsigned long ufits[2] = {0xffffffffUL, 0};
  CHECK(check_fits(ut, 2, ufits, Rep::external32).ok());
  unsigned long ubig[1] = {ULONG_MAX};
  s = check_fits(ut, 1, ubig, Rep::external32);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find("MPI_UNSIGNED_LONG value 18446744073709551615 (0xffffffffffffffff)") == 0);

  LongInt li[2] = {{5, 1}, {-kBig, 2}};
  s = check_fits(Datatype::predefined(dt::long_int), 2, li, Rep::external32);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() ==
        "MPI_LONG value -78187493530 (-0x123456789a) (element 2 of the message, in an "
        "MPI_LONG_INT) does not fit in external32's 4-byte MPI_LONG");

  // Types without a long: nothing to check.
  double d[2] = {1e300, -1};
  CHECK(check_fits(Datatype::predefined(dt::double_), 2, d, Rep::external32).ok());
  long long ll[1] = {LLONG_MIN};
  CHECK(check_fits(Datatype::predefined(dt::long_long), 1, ll, Rep::external32).ok());
}

TEST_CASE("long double: binary128 holds every x87 value, odd encodings too") {
  for (long double v : {1.0L / 3, -1.0L / 7, LDBL_MAX, LDBL_MIN, LDBL_MIN / 1024, LDBL_TRUE_MIN,
                        -0.0L, 0.0L, static_cast<long double>(INFINITY)}) {
    INFO(static_cast<double>(v));
    long double back = through_quad(v);
    CHECK(back == v);
    CHECK(std::signbit(back) == std::signbit(v));
  }
  CHECK(std::isnan(through_quad(std::nanl(""))));
  // A pseudo-denormal (exponent 0, integer bit set) is the number with
  // exponent 1 (dropping the integer bit would change its value).
  long double pseudo = x87(0x8000000000000001ull, 0);
  CHECK(through_quad(pseudo) == x87(0x8000000000000001ull, 1));
  // An unnormal (integer bit clear, exponent > 0) keeps its value.
  long double unnormal = x87(0x4000000000000000ull, 5);
  CHECK(through_quad(unnormal) == x87(0x8000000000000000ull, 4));
  long double tiny_unnormal = x87(0x0000000000000003ull, 2);  // ends as a denormal
  CHECK(through_quad(tiny_unnormal) == x87(0x0000000000000006ull, 0));
}

TEST_CASE("binary128 NaN whose payload is only in the bits x87 lacks stays a NaN") {
  std::byte q[16] = {};
  q[0] = std::byte{0x7f};
  q[1] = std::byte{0xff};
  q[15] = std::byte{0x01};  // lowest fraction bit only
  long double back = 0;
  from_external32(dt::long_double, q, reinterpret_cast<std::byte *>(&back));
  CHECK(std::isnan(back));
}
