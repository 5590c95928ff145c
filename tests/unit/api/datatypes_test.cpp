// MPI datatypes through the C API: constructors, queries, envelopes,
// MPI_Pack/Unpack, error classes.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "unit/api/init.hpp"

namespace {
void init() {
  impi::test::init_mpi();
}
}  // namespace

TEST_CASE("predefined sizes, extents and names") {
  init();
  int size = 0;
  CHECK(MPI_Type_size(MPI_DOUBLE, &size) == MPI_SUCCESS);
  CHECK(size == 8);
  CHECK(MPI_Type_size(MPI_DOUBLE_INT, &size) == MPI_SUCCESS);
  CHECK(size == 12);  // the members' sizes; the extent is the C struct's (16)
  MPI_Aint lb = -1, ext = -1;
  CHECK(MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext) == MPI_SUCCESS);
  CHECK(ext == 16);
  CHECK(MPI_Type_size(MPI_SHORT_INT, &size) == MPI_SUCCESS);
  CHECK(size == 6);
  CHECK(MPI_Type_size(MPI_LONG_INT, &size) == MPI_SUCCESS);
  CHECK(size == 12);
  CHECK(MPI_Type_size(MPI_LONG_DOUBLE_INT, &size) == MPI_SUCCESS);
  CHECK(size == 20);
  {
    // Elements of a pair: the value and the int. 1.5 pairs' bytes: 3 elements.
    MPI_Status st;
    int n = -1;
    REQUIRE(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3) == MPI_SUCCESS);
    CHECK(MPI_Get_count(&st, MPI_DOUBLE_INT, &n) == MPI_SUCCESS);
    CHECK(n == MPI_UNDEFINED);
    CHECK(MPI_Get_elements(&st, MPI_DOUBLE_INT, &n) == MPI_SUCCESS);
    CHECK(n == 3);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &n) == MPI_SUCCESS);
    CHECK(n == 20);  // 12 + 8
    REQUIRE(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 4) == MPI_SUCCESS);
    CHECK(MPI_Get_count(&st, MPI_DOUBLE_INT, &n) == MPI_SUCCESS);
    CHECK(n == 2);
  }
  CHECK(MPI_Type_get_extent(MPI_SHORT, &lb, &ext) == MPI_SUCCESS);
  CHECK(lb == 0);
  CHECK(ext == 2);
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK(MPI_Type_get_name(MPI_UNSIGNED_LONG_LONG, name, &len) == MPI_SUCCESS);
  CHECK(std::string(name) == "MPI_UNSIGNED_LONG_LONG");
  // MPI_C_FLOAT_COMPLEX is a synonym of MPI_C_COMPLEX: the one name fits both.
  CHECK(MPI_Type_get_name(MPI_C_FLOAT_COMPLEX, name, &len) == MPI_SUCCESS);
  CHECK(std::string(name) == "MPI_C_COMPLEX");
  int ni, na, nd, comb;
  CHECK(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_NAMED);
  MPI_Datatype m;
  CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m) == MPI_SUCCESS);
  CHECK(m == MPI_DOUBLE);
  CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &m) == MPI_ERR_ARG);
}

TEST_CASE("a struct type: extent, envelope, contents, name, pack and unpack") {
  init();
  struct Item {
    double d;
    char c;
    int i[2];
  };
  int lens[3] = {1, 1, 2};
  MPI_Aint disps[3] = {offsetof(Item, d), offsetof(Item, c), offsetof(Item, i)};
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_CHAR, MPI_INT};
  MPI_Datatype item;
  REQUIRE(MPI_Type_create_struct(3, lens, disps, types, &item) == MPI_SUCCESS);
  MPI_Aint lb, ext;
  CHECK(MPI_Type_get_extent(item, &lb, &ext) == MPI_SUCCESS);
  CHECK(ext == static_cast<MPI_Aint>(sizeof(Item)));
  int size;
  CHECK(MPI_Type_size(item, &size) == MPI_SUCCESS);
  CHECK(size == 8 + 1 + 8);

  int ni, na, nd, comb;
  REQUIRE(MPI_Type_get_envelope(item, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_STRUCT);
  CHECK(ni == 4);
  CHECK(na == 3);
  CHECK(nd == 3);
  std::vector<int> ints(ni);
  std::vector<MPI_Aint> aints(na);
  std::vector<MPI_Datatype> dts(nd);
  REQUIRE(MPI_Type_get_contents(item, ni, na, nd, ints.data(), aints.data(), dts.data()) ==
          MPI_SUCCESS);
  CHECK(ints == std::vector<int>{3, 1, 1, 2});
  CHECK(aints[2] == disps[2]);
  CHECK(dts[0] == MPI_DOUBLE);
  CHECK(dts[2] == MPI_INT);

  CHECK(MPI_Type_set_name(item, "item") == MPI_SUCCESS);
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  CHECK(MPI_Type_get_name(item, name, &len) == MPI_SUCCESS);
  CHECK(std::string(name) == "item");

  Item src[3] = {{1.5, 'a', {1, 2}}, {2.5, 'b', {3, 4}}, {3.5, 'c', {5, 6}}}, dst[3];
  std::memset(dst, 0, sizeof dst);
  char buf[256];
  int pos = 0;
  CHECK(MPI_Pack(src, 3, item, buf, sizeof buf, &pos, MPI_COMM_WORLD) ==
        MPI_ERR_TYPE);  // not committed
  REQUIRE(MPI_Type_commit(&item) == MPI_SUCCESS);
  int need = 0;
  CHECK(MPI_Pack_size(3, item, MPI_COMM_WORLD, &need) == MPI_SUCCESS);
  CHECK(need == 3 * 17);
  REQUIRE(MPI_Pack(src, 3, item, buf, sizeof buf, &pos, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(pos == 51);
  int upos = 0;
  REQUIRE(MPI_Unpack(buf, pos, &upos, dst, 3, item, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(upos == 51);
  for (int k = 0; k < 3; ++k) {
    CHECK(dst[k].d == src[k].d);
    CHECK(dst[k].c == src[k].c);
    CHECK(dst[k].i[1] == src[k].i[1]);
  }
  int small = 0;
  CHECK(MPI_Pack(src, 3, item, buf, 50, &small, MPI_COMM_WORLD) == MPI_ERR_TRUNCATE);
  CHECK(MPI_Type_free(&item) == MPI_SUCCESS);
  CHECK(item == MPI_DATATYPE_NULL);
  MPI_Datatype d = MPI_INT;
  CHECK(MPI_Type_free(&d) == MPI_ERR_TYPE);  // predefined
}

TEST_CASE("vector, hvector, indexed, resized and dup") {
  init();
  MPI_Datatype v, hv, ix, rs, dp, blk;
  REQUIRE(MPI_Type_vector(3, 2, 4, MPI_INT, &v) == MPI_SUCCESS);
  MPI_Aint lb, ext, tlb, text;
  CHECK(MPI_Type_get_extent(v, &lb, &ext) == MPI_SUCCESS);
  CHECK(ext == (2 * 4 + 2) * 4);
  REQUIRE(MPI_Type_create_hvector(2, 1, -8, MPI_DOUBLE, &hv) == MPI_SUCCESS);
  CHECK(MPI_Type_get_extent(hv, &lb, &ext) == MPI_SUCCESS);
  CHECK(lb == -8);
  CHECK(ext == 16);
  int bl[2] = {1, 2}, dis[2] = {5, 0};
  REQUIRE(MPI_Type_indexed(2, bl, dis, MPI_SHORT, &ix) == MPI_SUCCESS);
  int ni, na, nd, comb;
  CHECK(MPI_Type_get_envelope(ix, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_INDEXED);
  CHECK(ni == 5);
  REQUIRE(MPI_Type_create_resized(MPI_INT, -4, 16, &rs) == MPI_SUCCESS);
  CHECK(MPI_Type_get_extent(rs, &lb, &ext) == MPI_SUCCESS);
  CHECK(lb == -4);
  CHECK(ext == 16);
  CHECK(MPI_Type_get_true_extent(rs, &tlb, &text) == MPI_SUCCESS);
  CHECK(tlb == 0);
  CHECK(text == 4);
  REQUIRE(MPI_Type_dup(v, &dp) == MPI_SUCCESS);
  CHECK(MPI_Type_get_envelope(dp, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_DUP);
  int blocks[2] = {0, 3};
  REQUIRE(MPI_Type_create_indexed_block(2, 2, blocks, MPI_INT, &blk) == MPI_SUCCESS);
  CHECK(MPI_Type_get_envelope(blk, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_INDEXED_BLOCK);

  // Pack a strided column: 3 blocks of 2 ints out of 4.
  MPI_Type_commit(&v);
  int src[12], dst[12] = {0};
  for (int i = 0; i < 12; ++i) src[i] = i;
  int packed[6], pos = 0;
  REQUIRE(MPI_Pack(src, 1, v, packed, sizeof packed, &pos, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(std::vector<int>(packed, packed + 6) == std::vector<int>{0, 1, 4, 5, 8, 9});
  pos = 0;
  REQUIRE(MPI_Unpack(packed, sizeof packed, &pos, dst, 1, v, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(dst[4] == 4);
  CHECK(dst[2] == 0);  // a gap stays untouched

  // Freeing a type others were built on leaves them usable.
  MPI_Datatype outer;
  REQUIRE(MPI_Type_contiguous(2, v, &outer) == MPI_SUCCESS);
  CHECK(MPI_Type_free(&v) == MPI_SUCCESS);
  MPI_Type_commit(&outer);
  int s2 = 0;
  CHECK(MPI_Type_size(outer, &s2) == MPI_SUCCESS);
  CHECK(s2 == 48);
  for (MPI_Datatype *t : {&hv, &ix, &rs, &dp, &blk, &outer}) CHECK(MPI_Type_free(t) == MPI_SUCCESS);
}

TEST_CASE("bad datatype arguments return the right classes") {
  init();
  MPI_Datatype t;
  int size;
  CHECK(MPI_Type_contiguous(-1, MPI_INT, &t) == MPI_ERR_COUNT);
  CHECK(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t) == MPI_ERR_TYPE);
  CHECK(MPI_Type_size(reinterpret_cast<MPI_Datatype>(MPI_COMM_WORLD), &size) == MPI_ERR_TYPE);
  MPI_Datatype freed;
  REQUIRE(MPI_Type_contiguous(2, MPI_INT, &freed) == MPI_SUCCESS);
  MPI_Datatype copy = freed;
  REQUIRE(MPI_Type_free(&freed) == MPI_SUCCESS);
  CHECK(MPI_Type_size(copy, &size) == MPI_ERR_TYPE);  // a stale handle
  CHECK(MPI_Type_get_contents(MPI_INT, 0, 0, 0, nullptr, nullptr, nullptr) == MPI_ERR_TYPE);
}

TEST_CASE("counts and elements from a status") {
  init();
  MPI_Status st;
  CHECK(MPI_Status_set_elements(&st, MPI_INT, 5) == MPI_SUCCESS);
  int n = 0;
  CHECK(MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS);
  CHECK(n == 5);
  CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n) == MPI_SUCCESS);
  CHECK(n == MPI_UNDEFINED);  // 20 bytes are not whole doubles
  MPI_Datatype pair;
  int lens[2] = {1, 1};
  MPI_Aint disps[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  REQUIRE(MPI_Type_create_struct(2, lens, disps, types, &pair) == MPI_SUCCESS);
  CHECK(MPI_Status_set_elements(&st, pair, 3) == MPI_SUCCESS);  // one pair and a double
  CHECK(MPI_Get_elements(&st, pair, &n) == MPI_SUCCESS);
  CHECK(n == 3);
  CHECK(MPI_Get_count(&st, pair, &n) == MPI_SUCCESS);
  CHECK(n == MPI_UNDEFINED);
  MPI_Type_free(&pair);
}

TEST_CASE("MPI_Pack_external writes the standard's external32") {
  init();
  long vals[2] = {-2, 0x01020304};
  MPI_Aint size = 0;
  REQUIRE(MPI_Pack_external_size("external32", 2, MPI_LONG, &size) == MPI_SUCCESS);
  CHECK(size == 8);  // MPI_LONG is 4 bytes in external32
  unsigned char buf[8];
  MPI_Aint pos = 0;
  REQUIRE(MPI_Pack_external("external32", vals, 2, MPI_LONG, buf, sizeof buf, &pos) == MPI_SUCCESS);
  CHECK(pos == 8);
  const unsigned char want[8] = {0xff, 0xff, 0xff, 0xfe, 0x01, 0x02, 0x03, 0x04};
  CHECK(std::memcmp(buf, want, 8) == 0);
  long back[2] = {0, 0};
  pos = 0;
  REQUIRE(MPI_Unpack_external("external32", buf, 8, &pos, back, 2, MPI_LONG) == MPI_SUCCESS);
  CHECK(back[0] == -2);
  CHECK(back[1] == 0x01020304);
  CHECK(MPI_Pack_external("native", vals, 2, MPI_LONG, buf, 8, &pos) ==
        MPI_ERR_UNSUPPORTED_DATAREP);
  pos = 0;
  CHECK(MPI_Pack_external("external32", vals, 2, MPI_LONG, buf, 7, &pos) == MPI_ERR_TRUNCATE);
}

namespace {
// A non-commutative user operator: inout = in - inout, elementwise.
void minus(void *in, void *inout, int *len, MPI_Datatype *) {
  auto *a = static_cast<int *>(in), *b = static_cast<int *>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] - b[i];
}
}  // namespace

TEST_CASE("MPI_Reduce_local with predefined and user operators") {
  init();
  int a[3] = {1, 5, -2}, b[3] = {4, 1, 3};
  REQUIRE(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_MAX) == MPI_SUCCESS);
  CHECK(std::vector<int>(b, b + 3) == std::vector<int>{4, 5, 3});
  double d[2] = {1.5, 2.0}, e[2] = {2.0, 0.25};
  REQUIRE(MPI_Reduce_local(d, e, 2, MPI_DOUBLE, MPI_PROD) == MPI_SUCCESS);
  CHECK(e[0] == 3.0);
  CHECK(e[1] == 0.5);
  struct {
    double v;
    int i;
  } p[1] = {{1.0, 3}}, q[1] = {{1.0, 2}};
  REQUIRE(MPI_Reduce_local(p, q, 1, MPI_DOUBLE_INT, MPI_MAXLOC) == MPI_SUCCESS);
  CHECK(q[0].i == 2);

  CHECK(MPI_Reduce_local(d, e, 2, MPI_DOUBLE, MPI_BAND) == MPI_ERR_OP);
  CHECK(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_MINLOC) == MPI_ERR_OP);
  // MPI_CHAR sums as Open MPI and MPICH sum it; MPI_WCHAR, which both
  // reject, stays an error.
  char c1 = 3, c2 = 4;
  CHECK(MPI_Reduce_local(&c1, &c2, 1, MPI_CHAR, MPI_SUM) == MPI_SUCCESS);
  CHECK(c2 == 7);
  wchar_t w1 = 1, w2 = 2;
  CHECK(MPI_Reduce_local(&w1, &w2, 1, MPI_WCHAR, MPI_SUM) == MPI_ERR_OP);
  CHECK(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_REPLACE) == MPI_ERR_OP);
  CHECK(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_OP_NULL) == MPI_ERR_OP);

  MPI_Op op;
  REQUIRE(MPI_Op_create(minus, 0, &op) == MPI_SUCCESS);
  int commute = -1;
  CHECK(MPI_Op_commutative(op, &commute) == MPI_SUCCESS);
  CHECK(commute == 0);
  CHECK(MPI_Op_commutative(MPI_SUM, &commute) == MPI_SUCCESS);
  CHECK(commute == 1);
  int x[2] = {10, 20}, y[2] = {1, 2};
  REQUIRE(MPI_Reduce_local(x, y, 2, MPI_INT, op) == MPI_SUCCESS);
  CHECK(y[0] == 9);
  CHECK(y[1] == 18);
  CHECK(MPI_Op_free(&op) == MPI_SUCCESS);
  CHECK(op == MPI_OP_NULL);
  MPI_Op sum = MPI_SUM;
  CHECK(MPI_Op_free(&sum) == MPI_ERR_OP);
}

TEST_CASE("subarray and darray through the C API, with their envelopes") {
  init();
  int sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Datatype sa;
  REQUIRE(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sa) ==
          MPI_SUCCESS);
  MPI_Type_commit(&sa);
  int full[20], packed[6], pos = 0;
  for (int i = 0; i < 20; ++i) full[i] = i;
  REQUIRE(MPI_Pack(full, 1, sa, packed, sizeof packed, &pos, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(std::vector<int>(packed, packed + 6) == std::vector<int>{7, 8, 9, 12, 13, 14});
  int ni, na, nd, comb;
  CHECK(MPI_Type_get_envelope(sa, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_SUBARRAY);
  CHECK(ni == 3 * 2 + 2);
  std::vector<int> ints(ni);
  MPI_Datatype inner;
  CHECK(MPI_Type_get_contents(sa, ni, 0, 1, ints.data(), nullptr, &inner) == MPI_SUCCESS);
  CHECK(ints.back() == MPI_ORDER_C);
  CHECK(inner == MPI_INT);
  CHECK(MPI_Type_create_subarray(2, sizes, subs, starts, 99, MPI_INT, &sa) == MPI_ERR_ARG);

  int gs[1] = {8}, dist[1] = {MPI_DISTRIBUTE_CYCLIC}, darg[1] = {2}, ps[1] = {2};
  MPI_Datatype da;
  REQUIRE(MPI_Type_create_darray(2, 1, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &da) ==
          MPI_SUCCESS);
  MPI_Type_commit(&da);
  int out[4];
  pos = 0;
  REQUIRE(MPI_Pack(full, 1, da, out, sizeof out, &pos, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{2, 3, 6, 7});
  CHECK(MPI_Type_get_envelope(da, &ni, &na, &nd, &comb) == MPI_SUCCESS);
  CHECK(comb == MPI_COMBINER_DARRAY);
  int blk[1] = {MPI_DISTRIBUTE_DFLT_DARG}, bd[1] = {MPI_DISTRIBUTE_BLOCK};
  MPI_Datatype db;
  REQUIRE(MPI_Type_create_darray(2, 0, 1, gs, bd, blk, ps, MPI_ORDER_C, MPI_INT, &db) ==
          MPI_SUCCESS);
  MPI_Aint lb, ext;
  CHECK(MPI_Type_get_extent(db, &lb, &ext) == MPI_SUCCESS);
  CHECK(ext == 32);
  for (MPI_Datatype *t : {&sa, &da, &db}) CHECK(MPI_Type_free(t) == MPI_SUCCESS);
}

namespace {
struct Envelope {
  int ni = -1, na = -1, nd = -1, combiner = -1;
};
Envelope envelope(MPI_Datatype t) {
  Envelope e;
  REQUIRE(MPI_Type_get_envelope(t, &e.ni, &e.na, &e.nd, &e.combiner) == MPI_SUCCESS);
  return e;
}
std::string type_name(MPI_Datatype t) {
  char name[MPI_MAX_OBJECT_NAME] = "";
  int len = -1;
  REQUIRE(MPI_Type_get_name(t, name, &len) == MPI_SUCCESS);
  return std::string(name, static_cast<std::size_t>(len));
}
}  // namespace

TEST_CASE("MPI_Type_create_f90_real/complex: combiner F90_*, p and r as passed, one handle") {
  init();
  // MPICH's f90types/createf90types cases, and mpi4py's testCreateF90*.
  const int cases[][3] = {{3, 10, 4}, {3, MPI_UNDEFINED, 4}, {MPI_UNDEFINED, 10, 4},
                          {7, 30, 8}, {7, MPI_UNDEFINED, 8}, {MPI_UNDEFINED, 30, 4},
                          {6, 30, 4}, {15, 300, 8},          {MPI_UNDEFINED, 300, 8},
                          {-4, -4, 4}};
  for (bool complex : {false, true}) {
    for (const auto &c : cases) {
      const int p = c[0], r = c[1], bytes = c[2] * (complex ? 2 : 1);
      CAPTURE(complex, p, r);
      auto create = complex ? MPI_Type_create_f90_complex : MPI_Type_create_f90_real;
      MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
      REQUIRE(create(p, r, &t) == MPI_SUCCESS);
      Envelope e = envelope(t);
      CHECK(e.combiner == (complex ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL));
      CHECK(e.ni == 2);
      CHECK(e.na == 0);
      CHECK(e.nd == 0);
      int ints[2] = {0, 0};
      MPI_Aint aint = 0;
      MPI_Datatype inner = MPI_DATATYPE_NULL;
      REQUIRE(MPI_Type_get_contents(t, 2, 0, 1, ints, &aint, &inner) == MPI_SUCCESS);
      CHECK(ints[0] == p);
      CHECK(ints[1] == r);
      int size = -1;
      CHECK(MPI_Type_size(t, &size) == MPI_SUCCESS);
      CHECK(size == bytes);
      MPI_Aint lb = -1, ext = -1;
      CHECK(MPI_Type_get_extent(t, &lb, &ext) == MPI_SUCCESS);
      CHECK((lb == 0 && ext == bytes));
      // The same (p, r) gives the same handle back (MPI-3.1 17.1.9).
      REQUIRE(create(p, r, &again) == MPI_SUCCESS);
      CHECK(again == t);
      // Committed already; committing again is harmless.
      CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
      CHECK(again == t);
    }
  }
  MPI_Datatype a = MPI_DATATYPE_NULL, b = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_create_f90_real(6, 30, &a) == MPI_SUCCESS);
  REQUIRE(MPI_Type_create_f90_real(6, 20, &b) == MPI_SUCCESS);
  CHECK(a != b);  // same kind, other arguments: its own handle (contents differ)
  CHECK(a != MPI_REAL4);
  REQUIRE(MPI_Type_create_f90_complex(6, 30, &b) == MPI_SUCCESS);
  CHECK(a != b);
  CHECK(type_name(a) == "MPI_Type_create_f90_real(6, 30)");
  REQUIRE(MPI_Type_create_f90_complex(MPI_UNDEFINED, 300, &b) == MPI_SUCCESS);
  CHECK(type_name(b) == "MPI_Type_create_f90_complex(MPI_UNDEFINED, 300)");
}

TEST_CASE("MPI_Type_create_f90_integer: combiner F90_INTEGER, r as passed") {
  init();
  const int cases[][2] = {
      {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4}, {9, 4}, {10, 8}, {18, 8}, {MPI_UNDEFINED, 1}, {0, 1}};
  for (const auto &c : cases) {
    const int r = c[0];
    CAPTURE(r);
    MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
    REQUIRE(MPI_Type_create_f90_integer(r, &t) == MPI_SUCCESS);
    Envelope e = envelope(t);
    CHECK(e.combiner == MPI_COMBINER_F90_INTEGER);
    CHECK(e.ni == 1);
    CHECK(e.na == 0);
    CHECK(e.nd == 0);
    int ints[2] = {0, 0};
    REQUIRE(MPI_Type_get_contents(t, 1, 0, 0, ints, nullptr, nullptr) == MPI_SUCCESS);
    CHECK(ints[0] == r);
    int size = -1;
    CHECK(MPI_Type_size(t, &size) == MPI_SUCCESS);
    CHECK(size == c[1]);
    REQUIRE(MPI_Type_create_f90_integer(r, &again) == MPI_SUCCESS);
    CHECK(again == t);
  }
  MPI_Datatype t = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_create_f90_integer(9, &t) == MPI_SUCCESS);
  CHECK(type_name(t) == "MPI_Type_create_f90_integer(9)");
  CHECK(t != MPI_INTEGER4);
}

TEST_CASE("f90 types are predefined: not freeable, dup'ed as themselves, errors for no kind") {
  init();
  MPI_Datatype t = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_create_f90_real(15, 300, &t) == MPI_SUCCESS);
  MPI_Datatype h = t;
  int cls = -1;
  MPI_Error_class(MPI_Type_free(&h), &cls);
  CHECK(cls == MPI_ERR_TYPE);
  CHECK(h == t);  // untouched, and still a valid type
  int size = -1;
  CHECK(MPI_Type_size(t, &size) == MPI_SUCCESS);
  CHECK(size == 8);
  MPI_Datatype again = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_create_f90_real(15, 300, &again) == MPI_SUCCESS);
  CHECK(again == t);

  // A dup is an ordinary derived type whose constituent is the f90 handle.
  MPI_Datatype d = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_dup(t, &d) == MPI_SUCCESS);
  Envelope e = envelope(d);
  CHECK(e.combiner == MPI_COMBINER_DUP);
  CHECK((e.ni == 0 && e.na == 0 && e.nd == 1));
  MPI_Datatype inner = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_get_contents(d, 0, 0, 1, nullptr, nullptr, &inner) == MPI_SUCCESS);
  CHECK(inner == t);
  CHECK(MPI_Type_size(d, &size) == MPI_SUCCESS);
  CHECK(size == 8);
  CHECK(MPI_Type_free(&d) == MPI_SUCCESS);
  CHECK(MPI_Type_size(t, &size) == MPI_SUCCESS);  // the f90 type lives on

  // A derived type built on it holds it as a constituent.
  MPI_Datatype v = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_contiguous(3, t, &v) == MPI_SUCCESS);
  REQUIRE(MPI_Type_get_contents(v, 1, 0, 1, &size, nullptr, &inner) == MPI_SUCCESS);
  CHECK(inner == t);
  CHECK(MPI_Type_free(&v) == MPI_SUCCESS);

  // Communication sizes are those of the matching sized type.
  int pack = -1, pack8 = -2;
  CHECK(MPI_Pack_size(5, t, MPI_COMM_WORLD, &pack) == MPI_SUCCESS);
  CHECK(MPI_Pack_size(5, MPI_REAL8, MPI_COMM_WORLD, &pack8) == MPI_SUCCESS);
  CHECK(pack == pack8);
  MPI_Aint ext32 = -1;
  CHECK(MPI_Pack_external_size("external32", 5, t, &ext32) == MPI_SUCCESS);
  CHECK(ext32 == 40);
  REQUIRE(MPI_Type_create_f90_integer(2, &t) == MPI_SUCCESS);
  CHECK(MPI_Pack_external_size("external32", 5, t, &ext32) == MPI_SUCCESS);
  CHECK(ext32 == 5);

  // No kind with this much precision or range: MPI_ERR_ARG.
  MPI_Datatype none = MPI_DATATYPE_NULL;
  MPI_Error_class(MPI_Type_create_f90_real(16, MPI_UNDEFINED, &none), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Error_class(MPI_Type_create_f90_complex(MPI_UNDEFINED, 400, &none), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Error_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &none), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Error_class(MPI_Type_create_f90_integer(19, &none), &cls);
  CHECK(cls == MPI_ERR_ARG);
}

TEST_CASE("f90 types in local communication and reductions") {
  init();
  MPI_Datatype r8 = MPI_DATATYPE_NULL, c8 = MPI_DATATYPE_NULL, i1 = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r8) == MPI_SUCCESS);
  REQUIRE(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &c8) == MPI_SUCCESS);
  REQUIRE(MPI_Type_create_f90_integer(2, &i1) == MPI_SUCCESS);
  double d[3] = {1.5, -2.25, 1e300}, dr[3] = {0, 0, 0};
  MPI_Request rq[2];
  REQUIRE(MPI_Irecv(dr, 3, r8, 0, 5, MPI_COMM_SELF, &rq[0]) == MPI_SUCCESS);
  REQUIRE(MPI_Isend(d, 3, r8, 0, 5, MPI_COMM_SELF, &rq[1]) == MPI_SUCCESS);
  MPI_Status st[2];
  REQUIRE(MPI_Waitall(2, rq, st) == MPI_SUCCESS);
  CHECK(std::memcmp(d, dr, sizeof d) == 0);
  int n = -1;
  CHECK(MPI_Get_count(&st[0], r8, &n) == MPI_SUCCESS);
  CHECK(n == 3);
  float c[4] = {1, 2, 3, 4}, cs[4] = {0, 0, 0, 0};
  CHECK(MPI_Allreduce(c, cs, 2, c8, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS);
  CHECK(std::memcmp(c, cs, sizeof c) == 0);
  signed char b[2] = {-5, 100}, bm[2] = {0, 0};
  CHECK(MPI_Allreduce(b, bm, 2, i1, MPI_MAX, MPI_COMM_SELF) == MPI_SUCCESS);
  CHECK((bm[0] == -5 && bm[1] == 100));
  CHECK(MPI_Reduce_local(b, bm, 2, i1, MPI_SUM) == MPI_SUCCESS);
  CHECK((bm[0] == -10 && bm[1] == -56));  // (200 wraps in one byte)
  int cls = -1;
  MPI_Error_class(MPI_Reduce_local(c, cs, 2, c8, MPI_MAX), &cls);
  CHECK(cls == MPI_ERR_OP);  // complex has no MAX: the class is the sized type's
}

extern "C" void ignore_errors(MPI_Comm *, int *, ...) {}

TEST_CASE("MPI-1 names that MPI-3.0 removed still work (as in MPICH)") {
  init();
  double d[4] = {0, 0, 0, 0};
  MPI_Aint a0 = 0, a2 = 0;
  CHECK(MPI_Address(&d[0], &a0) == MPI_SUCCESS);
  CHECK(MPI_Address(&d[2], &a2) == MPI_SUCCESS);
  CHECK(a2 - a0 == 2 * static_cast<MPI_Aint>(sizeof(double)));

  MPI_Datatype hv = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_hvector(3, 2, 40, MPI_INT, &hv) == MPI_SUCCESS);
  MPI_Aint ext = -1, lb = -1, ub = -1;
  CHECK(MPI_Type_extent(hv, &ext) == MPI_SUCCESS);
  CHECK(ext == 2 * 40 + 2 * 4);
  int ni = 0, na = 0, nd = 0, combiner = 0;
  CHECK(MPI_Type_get_envelope(hv, &ni, &na, &nd, &combiner) == MPI_SUCCESS);
  CHECK(combiner == MPI_COMBINER_HVECTOR);

  int lens[2] = {1, 2};
  MPI_Aint disps[2] = {8, 24};
  MPI_Datatype hi = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_hindexed(2, lens, disps, MPI_DOUBLE, &hi) == MPI_SUCCESS);
  CHECK(MPI_Type_lb(hi, &lb) == MPI_SUCCESS);
  CHECK(MPI_Type_ub(hi, &ub) == MPI_SUCCESS);
  CHECK(lb == 8);
  CHECK(ub == 40);

  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Aint sdisps[2] = {0, 8};
  int slens[2] = {1, 1};
  MPI_Datatype st = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_struct(2, slens, sdisps, types, &st) == MPI_SUCCESS);
  int size = 0;
  CHECK(MPI_Type_size(st, &size) == MPI_SUCCESS);
  CHECK(size == 12);
  CHECK(MPI_Type_extent(MPI_DATATYPE_NULL, &ext) == MPI_ERR_TYPE);
  MPI_Type_free(&hv);
  MPI_Type_free(&hi);
  MPI_Type_free(&st);

  MPI_Errhandler eh = MPI_ERRHANDLER_NULL, old = MPI_ERRHANDLER_NULL;
  CHECK(MPI_Errhandler_get(MPI_COMM_SELF, &old) == MPI_SUCCESS);
  CHECK(MPI_Errhandler_create(ignore_errors, &eh) == MPI_SUCCESS);
  CHECK(MPI_Errhandler_set(MPI_COMM_SELF, eh) == MPI_SUCCESS);
  MPI_Errhandler now = MPI_ERRHANDLER_NULL;
  CHECK(MPI_Errhandler_get(MPI_COMM_SELF, &now) == MPI_SUCCESS);
  CHECK(now == eh);
  CHECK(MPI_Errhandler_set(MPI_COMM_SELF, old) == MPI_SUCCESS);
  MPI_Errhandler_free(&eh);
  MPI_Errhandler_free(&now);
  MPI_Errhandler_free(&old);
}
