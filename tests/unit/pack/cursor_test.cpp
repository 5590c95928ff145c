// The resumable pack cursor: whole-message round trips over random nested
// types, and every split point of small messages.
#include "pack/cursor.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

using namespace impi::pack;
namespace base = impi::base;

namespace {

TypePtr P(int i) {
  return Datatype::predefined(i);
}

// A random derived type, depth-limited, with non-negative displacements.
TypePtr random_type(std::mt19937 &rng, int depth) {
  static const int basics[] = {dt::char_,       dt::short_,     dt::int_,  dt::double_,
                               dt::long_double, dt::double_int, dt::c_bool};
  if (depth == 0 || rng() % 4 == 0) return P(basics[rng() % std::size(basics)]);
  TypePtr old = random_type(rng, depth - 1);
  auto n = [&](int max) { return static_cast<std::int64_t>(rng() % max); };
  base::Result<TypePtr> r{base::Errc::internal};
  switch (rng() % 7) {
    case 0:
      r = Datatype::contiguous(1 + n(4), old);
      break;
    case 1:
      r = Datatype::vector(1 + n(3), 1 + n(3), 3 + n(3), old, false);
      break;
    case 2:
      r = Datatype::vector(1 + n(3), 1, old->extent() + 1 + n(9), old, true);
      break;
    case 3: {
      std::vector<std::int64_t> lens, disps;
      std::int64_t at = n(3);
      for (int i = 0, k = 1 + static_cast<int>(n(3)); i < k; ++i) {
        lens.push_back(n(3));
        disps.push_back(at);
        at += lens.back() + n(3);
      }
      r = Datatype::indexed(lens, disps, old, false);
      break;
    }
    case 4:
      r = Datatype::indexed_block(1 + n(2), {n(2) * 4, 6 + n(3)}, old, false);
      break;
    case 5: {
      TypePtr other = random_type(rng, depth - 1);
      std::int64_t second = old->extent() * 2 + n(16);
      r = Datatype::struct_({1 + n(2), 1 + n(2)}, {0, second}, {old, other});
      break;
    }
    default:
      r = Datatype::resized(old, 0, old->extent() + n(16));
      break;
  }
  REQUIRE(r.ok());
  return r.value();
}

// Bytes a (type, count) covers in the user buffer, from the typemap itself.
std::vector<bool> covered(const TypePtr &t, std::int64_t count, std::size_t bufsize) {
  std::vector<bool> m(bufsize, false);
  for (std::int64_t i = 0; i < count; ++i)
    for (const auto &s : t->segments()) {
      const Predefined &p = predefined(s.basic);
      auto mark = [&](std::int64_t from, std::int64_t len) {
        for (std::int64_t b = 0; b < len; ++b)
          m[static_cast<size_t>(i * t->extent() + s.disp + from + b)] = true;
      };
      if (p.kind != Kind::pair) {
        mark(0, s.count * p.size);
        continue;
      }
      for (std::int64_t k = 0; k < s.count; ++k) {  // a pair's padding is not data
        mark(k * p.size, predefined(p.pair_value).size);
        mark(k * p.size + p.pair_int_offset, predefined(p.pair_index).size);
      }
    }
  return m;
}

}  // namespace

TEST_CASE("pack then unpack restores every byte of the typemap and no gap byte") {
  std::mt19937 rng(4242);
  for (int iter = 0; iter < 400; ++iter) {
    TypePtr t = random_type(rng, 3);
    std::int64_t count = 1 + static_cast<std::int64_t>(rng() % 4);
    REQUIRE(t->lb() >= 0);
    std::size_t bufsize = static_cast<size_t>(t->extent() * count + t->true_ub() + 8);
    std::vector<std::byte> src(bufsize), dst(bufsize, std::byte{0xAA});
    for (auto &b : src) b = static_cast<std::byte>(rng());
    PackCursor pc(t, count);
    REQUIRE(pc.total() == t->size() * count);
    std::vector<std::byte> packed(static_cast<size_t>(pc.total()));
    REQUIRE(pc.pack(src.data(), packed) == packed.size());
    PackCursor uc(t, count);
    REQUIRE(uc.unpack(dst.data(), packed) == packed.size());
    auto mask = covered(t, count, bufsize);
    for (std::size_t i = 0; i < bufsize; ++i) {
      if (mask[i])
        REQUIRE(dst[i] == src[i]);
      else
        REQUIRE(dst[i] == std::byte{0xAA});
    }
  }
}

TEST_CASE("a message packs identically from every split point") {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 60; ++iter) {
    TypePtr t = random_type(rng, 2);
    std::int64_t count = 1 + static_cast<std::int64_t>(rng() % 3);
    std::size_t bufsize = static_cast<size_t>(t->extent() * count + t->true_ub() + 8);
    std::vector<std::byte> src(bufsize);
    for (auto &b : src) b = static_cast<std::byte>(rng());
    PackCursor whole(t, count);
    std::vector<std::byte> ref(static_cast<size_t>(whole.total()));
    whole.pack(src.data(), ref);
    for (std::int64_t k = 0; k <= whole.total(); ++k) {
      std::vector<std::byte> out(ref.size());
      PackCursor a(t, count);
      CHECK(a.pack(src.data(), std::span(out).first(static_cast<size_t>(k))) ==
            static_cast<size_t>(k));
      PackCursor b(t, count);
      b.seek(k);
      CHECK(b.pack(src.data(), std::span(out).subspan(static_cast<size_t>(k))) ==
            out.size() - static_cast<size_t>(k));
      REQUIRE(out == ref);
      // And in small pieces: 3 bytes at a time from k.
      PackCursor c(t, count);
      c.seek(k);
      std::vector<std::byte> tail;
      std::byte piece[3];
      while (std::size_t n = c.pack(src.data(), piece)) tail.insert(tail.end(), piece, piece + n);
      REQUIRE(std::equal(tail.begin(), tail.end(), ref.begin() + k));
    }
  }
}

TEST_CASE("the contiguous fast path honours lb and resumes") {
  auto t = Datatype::contiguous(4, P(dt::int_)).value();
  int src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8] = {};
  PackCursor pc(t, 2);
  std::byte buf[32];
  CHECK(pc.pack(src, std::span(buf).first(5)) == 5);
  CHECK(pc.pack(src, std::span(buf).subspan(5)) == 27);
  CHECK(pc.pack(src, buf) == 0);
  PackCursor uc(t, 2);
  CHECK(uc.unpack(dst, buf) == 32);
  CHECK(std::memcmp(src, dst, sizeof src) == 0);
}
