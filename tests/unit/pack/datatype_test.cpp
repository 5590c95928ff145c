// Datatype construction, bounds, flattening and envelopes.
#include "pack/datatype.hpp"

#include <catch2/catch.hpp>

using namespace impi::pack;
namespace base = impi::base;

namespace {
TypePtr P(int i) {
  return Datatype::predefined(i);
}
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
    CHECK(P(i)->size() == data_bytes(predefined(i)));
    CHECK(P(i)->extent() == predefined(i).size);
  }
  // A pair's size is its members' (MPI-3.1 4.1.5), its extent the C struct's.
  CHECK(P(dt::double_int)->size() == 12);
  CHECK(P(dt::double_int)->extent() == 16);
  CHECK(P(dt::double_int)->true_extent() == 12);
  CHECK(P(dt::double_int)->elements() == 2);
  CHECK(P(dt::short_int)->size() == 6);
  CHECK(P(dt::short_int)->extent() == 8);
  CHECK(P(dt::long_int)->size() == 12);
  CHECK(P(dt::long_double_int)->size() == 20);
  CHECK(P(dt::long_double_int)->extent() == 32);
  CHECK(P(dt::two_int)->size() == 8);
  CHECK(P(dt::two_int)->is_contiguous());
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

TEST_CASE("copies of a pair resized to its data stay apart by the extent") {
  // MPI_DOUBLE_INT is 12 bytes of data in 16; resized to 12, its copies are
  // 12 bytes apart: they are not one segment of pairs (16 bytes apart).
  auto r = ok(Datatype::resized(P(dt::double_int), 0, 12));
  auto c = ok(Datatype::contiguous(3, r));
  CHECK(c->size() == 36);
  CHECK(c->extent() == 36);
  REQUIRE(c->segments().size() == 3);
  CHECK(c->segments()[1].disp == 12);
  CHECK(c->segments()[2].disp == 24);
  REQUIRE(c->runs().size() == 1);
  CHECK(c->runs()[0].len == 36);
  // At its own extent a pair's copies are one segment.
  auto d = ok(Datatype::contiguous(3, P(dt::double_int)));
  CHECK(d->segments().size() == 1);
  CHECK(d->segments()[0].count == 3);
  CHECK(d->runs().size() == 3);
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
  CHECK_FALSE(
      Datatype::contiguous(std::int64_t{1} << 62, ok(Datatype::contiguous(8, P(dt::double_))))
          .ok());
}

namespace {
// Byte offsets of every int element in the typemap (for 4-byte ints).
std::vector<std::int64_t> int_offsets(const TypePtr &t) {
  std::vector<std::int64_t> out;
  for (const auto &s : t->segments())
    for (std::int64_t k = 0; k < s.count; ++k) out.push_back((s.disp + k * 4) / 4);
  return out;
}
}  // namespace

TEST_CASE("subarray: a 2x3 block of a 4x5 array, C and Fortran order") {
  auto c = ok(Datatype::subarray({4, 5}, {2, 3}, {1, 2}, true, P(dt::int_)));
  CHECK(c->lb() == 0);
  CHECK(c->extent() == 4 * 5 * 4);
  CHECK(int_offsets(c) == std::vector<std::int64_t>{7, 8, 9, 12, 13, 14});  // rows 1-2, cols 2-4
  CHECK(c->combiner() == Combiner::subarray);
  CHECK(c->envelope_ints() == std::vector<std::int64_t>{2, 4, 5, 2, 3, 1, 2, 56});
  auto f = ok(Datatype::subarray({4, 5}, {2, 3}, {1, 2}, false, P(dt::int_)));
  // Fortran order: the first index varies fastest; element (i,j) at i + 4j.
  CHECK(int_offsets(f) == std::vector<std::int64_t>{9, 10, 13, 14, 17, 18});
  CHECK_FALSE(Datatype::subarray({4}, {5}, {0}, true, P(dt::int_)).ok());
  CHECK_FALSE(Datatype::subarray({4}, {2}, {3}, true, P(dt::int_)).ok());
}

TEST_CASE("darray: block-block and cyclic distributions") {
  using D = Datatype::DarrayDim;
  // 4x4 ints on a 2x2 grid, BLOCK x BLOCK: rank 3 holds rows 2-3, cols 2-3.
  auto b = ok(Datatype::darray(4, 3, {D{4, 1, -1, 2}, D{4, 1, -1, 2}}, true, P(dt::int_)));
  CHECK(int_offsets(b) == std::vector<std::int64_t>{10, 11, 14, 15});
  CHECK(b->lb() == 0);
  CHECK(b->extent() == 64);
  CHECK(b->combiner() == Combiner::darray);
  // 8 ints, CYCLIC(2) over 2 procs: rank 1 holds 2,3,6,7.
  auto cy = ok(Datatype::darray(2, 1, {D{8, 2, 2, 2}}, true, P(dt::int_)));
  CHECK(int_offsets(cy) == std::vector<std::int64_t>{2, 3, 6, 7});
  // 7 ints: the last block is partial.
  auto part = ok(Datatype::darray(2, 1, {D{7, 2, 2, 2}}, true, P(dt::int_)));
  CHECK(int_offsets(part) == std::vector<std::int64_t>{2, 3, 6});
  CHECK(part->extent() == 28);
  // 3x4 on a 1x2 grid: NONE x CYCLIC(1); rank 0 holds columns 0 and 2 of every row.
  auto nc = ok(Datatype::darray(2, 0, {D{3, 0, -1, 1}, D{4, 2, -1, 2}}, true, P(dt::int_)));
  CHECK(int_offsets(nc) == std::vector<std::int64_t>{0, 2, 4, 6, 8, 10});
  // Fortran order, BLOCK over 2 procs in the first dimension of a 4x2 array.
  auto fo = ok(Datatype::darray(2, 1, {D{4, 1, -1, 2}, D{2, 0, -1, 1}}, false, P(dt::int_)));
  CHECK(int_offsets(fo) == std::vector<std::int64_t>{2, 3, 6, 7});
  // A grid that does not match the number of processes.
  CHECK_FALSE(Datatype::darray(3, 0, {D{4, 1, -1, 2}}, true, P(dt::int_)).ok());
  CHECK_FALSE(Datatype::darray(2, 0, {D{9, 1, 2, 2}}, true, P(dt::int_)).ok());  // blocks too small
}
