#include "rma/request_codec.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "pack/predefined.hpp"
#include "rma/atomics.hpp"

using namespace impi;
using namespace impi::rma;

namespace {
pack::TypePtr vector_of_doubles() {
  auto v = pack::Datatype::vector(3, 2, 5, pack::Datatype::predefined(pack::dt::double_), false);
  REQUIRE(v.ok());
  return *v;
}
}  // namespace

TEST_CASE("a one-sided request header survives encode/decode with a derived target type") {
  RequestHeader h;
  h.kind = Kind::get_acc;
  h.op = static_cast<std::uint32_t>(pack::Op::sum);
  h.id = 12345;
  h.flags = 0;
  h.disp = 77;
  h.count = 4;
  h.nelem = 24;
  h.basic = pack::dt::double_;
  h.type = vector_of_doubles();
  auto bytes = encode(h);
  auto d = decode(bytes.data(), bytes.size());
  REQUIRE(d);
  CHECK(d->kind == Kind::get_acc);
  CHECK(d->op == h.op);
  CHECK(d->id == 12345u);
  CHECK(d->disp == 77);
  CHECK(d->count == 4);
  CHECK(d->nelem == 24);
  CHECK(d->basic == pack::dt::double_);
  REQUIRE(d->type);
  CHECK(d->type->size() == h.type->size());
  CHECK(d->type->extent() == h.type->extent());
  CHECK(d->type->lb() == h.type->lb());
  REQUIRE(d->type->runs().size() == h.type->runs().size());
  for (std::size_t i = 0; i < d->type->runs().size(); ++i) {
    CHECK(d->type->runs()[i].disp == h.type->runs()[i].disp);
    CHECK(d->type->runs()[i].len == h.type->runs()[i].len);
  }
}

TEST_CASE("predefined target types and typeless requests round-trip") {
  RequestHeader h;
  h.kind = Kind::put;
  h.type = pack::Datatype::predefined(pack::dt::int_);
  auto b = encode(h);
  auto d = decode(b.data(), b.size());
  REQUIRE(d);
  CHECK(d->type == pack::Datatype::predefined(pack::dt::int_));
  h.kind = Kind::lock;
  h.flags = 1;
  h.type = nullptr;
  b = encode(h);
  d = decode(b.data(), b.size());
  REQUIRE(d);
  CHECK(d->kind == Kind::lock);
  CHECK(d->flags == 1u);
  CHECK(!d->type);
}

TEST_CASE("malformed request headers are refused, never read past their end") {
  RequestHeader h;
  h.kind = Kind::acc;
  h.basic = pack::dt::double_;
  h.type = vector_of_doubles();
  auto good = encode(h);
  for (std::size_t n = 0; n < good.size(); ++n)
    CHECK(!decode(good.data(), n));  // every short prefix
  auto bad = good;
  bad[0] = 99;  // unknown kind
  CHECK(!decode(bad.data(), bad.size()));
  bad = good;
  bad[44] = 0x7f;  // a segment count beyond the bytes that follow
  bad[45] = 0x7f;
  CHECK(!decode(bad.data(), bad.size()));
  bad = good;
  bad[40] = static_cast<char>(200);  // basic type index out of range
  CHECK(!decode(bad.data(), bad.size()));
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {  // random bytes and random corruptions decode or refuse
    auto v = good;
    v[rng() % v.size()] = static_cast<char>(rng());
    v.resize(rng() % (v.size() + 8), static_cast<char>(rng()));
    auto r = decode(v.data(), v.size());
    if (r && r->type) CHECK(r->type->size() >= 0);
  }
}

TEST_CASE("accumulate kernels: atomic and plain agree, fetch the old values") {
  long a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, in[4] = {10, 20, 30, 40}, oa[4], ob[4];
  REQUIRE(atomic_capable(pack::dt::long_));
  for (auto op : {pack::Op::sum, pack::Op::prod, pack::Op::max, pack::Op::min, pack::Op::band,
                  pack::Op::bor, pack::Op::bxor, pack::Op::replace, pack::Op::no_op}) {
    apply_elements(op, pack::dt::long_, reinterpret_cast<char *>(a),
                   reinterpret_cast<const char *>(in), reinterpret_cast<char *>(oa), 4, true);
    apply_elements(op, pack::dt::long_, reinterpret_cast<char *>(b),
                   reinterpret_cast<const char *>(in), reinterpret_cast<char *>(ob), 4, false);
    for (int i = 0; i < 4; ++i) {
      CHECK(a[i] == b[i]);
      CHECK(oa[i] == ob[i]);
    }
  }
  double x = 1.5, y = 2.25, old = 0;
  apply_elements(pack::Op::sum, pack::dt::double_, reinterpret_cast<char *>(&x),
                 reinterpret_cast<const char *>(&y), reinterpret_cast<char *>(&old), 1, true);
  CHECK(x == 3.75);
  CHECK(old == 1.5);
  int t = 5, cmp = 5, nv = 9, o = 0;
  compare_swap(pack::dt::int_, reinterpret_cast<char *>(&t), reinterpret_cast<const char *>(&cmp),
               reinterpret_cast<const char *>(&nv), reinterpret_cast<char *>(&o), true);
  CHECK(t == 9);
  CHECK(o == 5);
  compare_swap(pack::dt::int_, reinterpret_cast<char *>(&t), reinterpret_cast<const char *>(&cmp),
               reinterpret_cast<const char *>(&nv), reinterpret_cast<char *>(&o), false);
  CHECK(t == 9);  // 9 != 5: unchanged
  CHECK(o == 9);
  CHECK(!atomic_capable(pack::dt::long_double));
}

TEST_CASE("counts above 2^31 (MPI_Put_c) decode, as target count and in a segment") {
  RequestHeader h;
  h.kind = Kind::put;
  h.id = 3;
  h.count = (std::int64_t{1} << 31) + 4100;
  h.type = pack::Datatype::predefined(pack::dt::byte);
  auto bytes = encode(h);
  auto d = decode(bytes.data(), bytes.size());
  REQUIRE(d);
  CHECK(d->count == h.count);
  auto big = pack::Datatype::contiguous((std::int64_t{1} << 31) + 11,
                                        pack::Datatype::predefined(pack::dt::byte));
  REQUIRE(big.ok());
  h.count = 1;
  h.type = *big;
  bytes = encode(h);
  d = decode(bytes.data(), bytes.size());
  REQUIRE(d);
  REQUIRE(d->type);
  CHECK(d->type->size() == (std::int64_t{1} << 31) + 11);
}
