// Datatype construction, bounds, flattening and envelopes.
#include <catch2/catch.hpp>

#include "pack/datatype.hpp"

using namespace impi::pack;
namespace base = impi::base;

namespace {
TypePtr P(int i) { return Datatype::predefined(i); }
TypePtr ok(base::Result<TypePtr> r) {
  REQUIRE(r.ok());
  return r.value();
}
}  // namespace

TEST_CASE("predefined types: native sizes and the standard's external32 sizes") {
  CHECK(predefined(dt::int_).size == 4);
  CHECK(predefined(dt::long_).size == sizeof(long));
  CHECK(predefined(dt::long_).ext32_size == 4);  // 4 in external32 even on LP64
  CHECK(predefined(dt::long_long).ext32_size == 8);
  CHECK(predefined(dt::long_double).ext32_size == 16);
  CHECK(predefined(dt::c_bool).ext32_size == 1);
  CHECK(predefined(dt::wchar).ext32_size == 4);
  CHECK(predefined(dt::double_int).ext32_size == 12);  // no padding
  CHECK(predefined(dt::short_int).ext32_size == 6);
  CHECK(predefined(dt::long_double_int).ext32_size == 20);
  CHECK(predefined(dt::double_int).size == 16);  // natively padded
  CHECK(predefined(dt::double_int).pair_int_offset == 8);
  CHECK(predefined(dt::c_double_complex).ext32_size == 16);
  for (int i = 1; i < kNumPredefined; ++i) {
    INFO(predefined(i).name);
    CHECK(predefined(i).size >= 1);
    CHECK(P(i)->size() == predefined(i).size);
    CHECK(P(i)->extent() == predefined(i).size);
  }
}

TEST_CASE("a struct is padded to its strictest alignment (MPI 4.1.6)") {
  auto t = ok(Datatype::struct_({1, 1}, {0, 8}, {P(dt::double_), P(dt::char_)}));
  CHECK(t->size() == 9);
  CHECK(t->lb() == 0);
  CHECK(t->extent() == 16);
  CHECK(t->true_lb() == 0);
  CHECK(t->true_extent() == 9);
  CHECK(t->elements() == 2);
  CHECK(t->segments().size() == 2);
  CHECK(t->combiner() == Combiner::struct_);
}

TEST_CASE("vector of a struct: the standard's example bounds") {
  // MPI-3.1 Example 4.6: oldtype {(double,0),(char,8)}, extent 16;
  // vector(2, 3, 4): blocks of 3 at 0 and 64.
  auto s = ok(Datatype::struct_({1, 1}, {0, 8}, {P(dt::double_), P(dt::char_)}));
  auto v = ok(Datatype::vector(2, 3, 4, s, false));
  CHECK(v->size() == 54);
  CHECK(v->lb() == 0);
  CHECK(v->extent() == 112);
  CHECK(v->true_extent() == 64 + 32 + 9);
  CHECK(v->segments().size() == 12);
  CHECK(v->envelope_ints() == std::vector<std::int64_t>{2, 3, 4});
  CHECK(v->envelope_types().at(0) == s);
}

TEST_CASE("contiguous runs merge, dense types stay one run") {
  auto c = ok(Datatype::contiguous(1000, P(dt::int_)));
  CHECK(c->is_contiguous());
  CHECK(c->segments().size() == 1);
  CHECK(c->segments()[0].count == 1000);
  auto v = ok(Datatype::vector(10, 2, 2, P(dt::double_), false));  // stride == blocklen
  CHECK(v->is_contiguous());
  CHECK(v->runs().size() == 1);
  auto g = ok(Datatype::vector(10, 2, 3, P(dt::double_), false));
  CHECK_FALSE(g->is_contiguous());
  CHECK(g->runs().size() == 10);
  CHECK(g->extent() == (9 * 3 + 2) * 8);
}

TEST_CASE("resized sets lb and extent, not the true bounds") {
  auto r = ok(Datatype::resized(P(dt::int_), -8, 32));
  CHECK(r->lb() == -8);
  CHECK(r->ub() == 24);
  CHECK(r->true_lb() == 0);
  CHECK(r->true_ub() == 4);
  CHECK(r->envelope_aints() == std::vector<std::int64_t>{-8, 32});
  auto c = ok(Datatype::contiguous(3, r));
  CHECK(c->extent() == 96);
  CHECK(c->size() == 12);
  CHECK(c->segments().size() == 3);
  CHECK(c->segments()[1].disp == 32);
}

TEST_CASE("hvector with a negative stride and hindexed out of order") {
  auto v = ok(Datatype::vector(3, 1, -16, P(dt::int_), true));
  CHECK(v->lb() == -32);
  CHECK(v->ub() == 4);
  CHECK(v->true_lb() == -32);
  CHECK(v->segments()[0].disp == 0);  // typemap order is kept
  CHECK(v->segments()[2].disp == -32);
  CHECK(v->combiner() == Combiner::hvector);
  auto h = ok(Datatype::indexed({2, 1}, {12, 0}, P(dt::int_), true));
  CHECK(h->lb() == 0);
  CHECK(h->ub() == 20);
  CHECK(h->segments()[0].disp == 12);
  CHECK(h->combiner() == Combiner::hindexed);
  CHECK(h->envelope_aints() == std::vector<std::int64_t>{12, 0});
}

TEST_CASE("indexed and indexed_block envelopes") {
  auto i = ok(Datatype::indexed({3, 1}, {4, 0}, P(dt::double_), false));
  CHECK(i->combiner() == Combiner::indexed);
  CHECK(i->envelope_ints() == std::vector<std::int64_t>{2, 3, 1, 4, 0});
  CHECK(i->size() == 32);
  CHECK(i->extent() == 56);
  auto b = ok(Datatype::indexed_block(2, {0, 5}, P(dt::short_), false));
  CHECK(b->combiner() == Combiner::indexed_block);
  CHECK(b->envelope_ints() == std::vector<std::int64_t>{2, 2, 0, 5});
  CHECK(b->extent() == 14);
  auto hb = ok(Datatype::indexed_block(1, {8, 0}, P(dt::int_), true));
  CHECK(hb->combiner() == Combiner::hindexed_block);
  CHECK(hb->envelope_aints() == std::vector<std::int64_t>{8, 0});
  auto d = ok(Datatype::dup(hb));
  CHECK(d->combiner() == Combiner::dup);
  CHECK(d->extent() == hb->extent());
  CHECK(d->envelope_types().at(0) == hb);
}

TEST_CASE("empty and zero-count types") {
  auto z = ok(Datatype::contiguous(0, P(dt::int_)));
  CHECK(z->size() == 0);
  CHECK(z->extent() == 0);
  CHECK(z->is_contiguous());
  auto s = ok(Datatype::struct_({}, {}, {}));
  CHECK(s->size() == 0);
}

TEST_CASE("bad arguments and absurd typemaps are refused") {
  CHECK_FALSE(Datatype::contiguous(-1, P(dt::int_)).ok());
  CHECK_FALSE(Datatype::vector(2, -1, 1, P(dt::int_), false).ok());
  CHECK_FALSE(Datatype::indexed({-1}, {0}, P(dt::int_), false).ok());
  auto v = ok(Datatype::vector(1 << 14, 1, 2, P(dt::char_), false));
  auto huge = Datatype::vector(1 << 14, 1, 1 << 16, v, false);  // 2^28 pieces
  CHECK_FALSE(huge.ok());
  CHECK(huge.error() == base::Errc::no_memory);
  CHECK_FALSE(Datatype::contiguous(std::int64_t{1} << 62, ok(Datatype::contiguous(8, P(dt::double_)))).ok());
}
