// Every predefined operator on every type the standard allows it on, and
// the refusal of every other combination.
#include "pack/reduce.hpp"

#include <catch2/catch.hpp>
#include <complex>
#include <cstring>
#include <set>

using namespace impi::pack;

namespace {

TypePtr P(int i) {
  return Datatype::predefined(i);
}

const Op kAll[] = {Op::max, Op::min,  Op::sum,  Op::prod,   Op::land,   Op::band,    Op::lor,
                   Op::bor, Op::lxor, Op::bxor, Op::minloc, Op::maxloc, Op::replace, Op::no_op};

// MPI-3.1 5.9.2, written out independently of the library's class table.
const std::set<int> kCInt = {
    dt::int_,        dt::long_,         dt::short_,    dt::unsigned_short,
    dt::unsigned_,   dt::unsigned_long, dt::long_long, dt::unsigned_long_long,
    dt::signed_char, dt::unsigned_char, dt::int8,      dt::int16,
    dt::int32,       dt::int64,         dt::uint8,     dt::uint16,
    dt::uint32,      dt::uint64};
const std::set<int> kFInt = {dt::integer, dt::integer1, dt::integer2, dt::integer4, dt::integer8};
const std::set<int> kMulti = {dt::aint, dt::offset, dt::count};
const std::set<int> kFloat = {dt::float_,           dt::double_, dt::long_double, dt::real,
                              dt::double_precision, dt::real4,   dt::real8};
const std::set<int> kLogical = {dt::c_bool, dt::cxx_bool, dt::logical};
const std::set<int> kComplex = {
    dt::c_float_complex,   dt::c_double_complex,   dt::c_long_double_complex,
    dt::cxx_float_complex, dt::cxx_double_complex, dt::cxx_long_double_complex,
    dt::complex,           dt::double_complex,     dt::complex8,
    dt::complex16};
const std::set<int> kPairs = {
    dt::float_int,  dt::double_int,      dt::long_int, dt::two_int,
    dt::short_int,  dt::long_double_int, dt::two_real, dt::two_double_precision,
    dt::two_integer};

bool in(const std::set<int> &s, int b) {
  return s.count(b) > 0;
}

bool expected_allowed(Op op, int b) {
  // Beyond the standard, what both Open MPI 4.1 and MPICH 4.0 accept (tried
  // with MPI_ERRORS_RETURN): every integer operation on MPI_CHAR, and the
  // logical ones on MPI_AINT, MPI_OFFSET and MPI_COUNT.
  if (b == dt::char_) b = dt::signed_char;
  if ((op == Op::land || op == Op::lor || op == Op::lxor) && in(kMulti, b)) return true;
  switch (op) {
    case Op::max:
    case Op::min:
      return in(kCInt, b) || in(kFInt, b) || in(kFloat, b) || in(kMulti, b);
    case Op::sum:
    case Op::prod:
      return in(kCInt, b) || in(kFInt, b) || in(kFloat, b) || in(kComplex, b) || in(kMulti, b);
    case Op::land:
    case Op::lor:
    case Op::lxor:
      return in(kCInt, b) || in(kLogical, b);
    case Op::band:
    case Op::bor:
    case Op::bxor:
      return in(kCInt, b) || in(kFInt, b) || b == dt::byte || in(kMulti, b);
    case Op::minloc:
    case Op::maxloc:
      return in(kPairs, b);
    default:
      return false;
  }
}

template <typename T>
void check_values(Op op, int b) {
  INFO(predefined(b).name << " " << op_name(op));
  T a[3] = {T(5), T(2), T(0)}, io[3] = {T(3), T(7), T(1)};
  reduce(op, P(b), 3, a, io);
  auto want = [&](long long x, long long y, long long z) {
    CHECK(io[0] == T(x));
    CHECK(io[1] == T(y));
    CHECK(io[2] == T(z));
  };
  switch (op) {
    case Op::sum:
      want(8, 9, 1);
      break;
    case Op::prod:
      want(15, 14, 0);
      break;
    case Op::max:
      want(5, 7, 1);
      break;
    case Op::min:
      want(3, 2, 0);
      break;
    case Op::land:
      want(1, 1, 0);
      break;
    case Op::lor:
      want(1, 1, 1);
      break;
    case Op::lxor:
      want(0, 0, 1);
      break;
    case Op::band:
      want(1, 2, 0);
      break;
    case Op::bor:
      want(7, 7, 1);
      break;
    case Op::bxor:
      want(6, 5, 1);
      break;
    default:
      FAIL("unexpected op");
  }
}

template <typename T>
void check_complex(Op op, int b) {
  INFO(predefined(b).name << " " << op_name(op));
  T a[1] = {T(1, 2)}, io[1] = {T(3, -1)};
  reduce(op, P(b), 1, a, io);
  CHECK(io[0] == (op == Op::sum ? T(4, 1) : T(5, 5)));
}

template <typename V, typename I = int>
void check_loc(Op op, int b) {
  INFO(predefined(b).name << " " << op_name(op));
  struct Pair {
    V v;
    I i;
  };
  Pair a[3] = {{V(1), 0}, {V(9), 4}, {V(5), 1}}, io[3] = {{V(2), 1}, {V(9), 2}, {V(5), 3}};
  reduce(op, P(b), 3, a, io);
  if (op == Op::minloc) {
    CHECK((io[0].v == V(1) && io[0].i == 0));
  } else {
    CHECK((io[0].v == V(2) && io[0].i == 1));
  }
  CHECK((io[1].v == V(9) && io[1].i == 2));  // a tie keeps the smaller index
  CHECK((io[2].v == V(5) && io[2].i == 1));
}

void check(Op op, int b) {
  switch (b) {
    case dt::signed_char:
    case dt::int8:
    case dt::integer1:
      return check_values<std::int8_t>(op, b);
    case dt::integer2:
      return check_values<std::int16_t>(op, b);
    case dt::integer:
    case dt::integer4:
      return check_values<std::int32_t>(op, b);
    case dt::integer8:
      return check_values<long long>(op, b);
    case dt::real:
    case dt::real4:
      return check_values<float>(op, b);
    case dt::double_precision:
    case dt::real8:
      return check_values<double>(op, b);
    case dt::complex:
    case dt::complex8:
      return check_complex<std::complex<float>>(op, b);
    case dt::double_complex:
    case dt::complex16:
      return check_complex<std::complex<double>>(op, b);
    case dt::two_real:
      return check_loc<float, float>(op, b);
    case dt::two_double_precision:
      return check_loc<double, double>(op, b);
    case dt::two_integer:
      return check_loc<int, int>(op, b);
    case dt::logical: {  // Fortran: any nonzero is true; results are 1 or 0
      std::int32_t a[4] = {7, 1, 0, 0}, io[4] = {-1, 0, 2, 0};
      reduce(op, P(b), 4, a, io);
      for (int k = 0; k < 4; ++k) {
        bool x = k < 2, y = k % 2 == 0;
        CHECK(io[k] == (op == Op::land ? (x && y) : op == Op::lor ? (x || y) : (x != y)));
      }
      return;
    }
    case dt::char_:
      return check_values<char>(op, b);
    case dt::unsigned_char:
    case dt::uint8:
    case dt::byte:
      return check_values<std::uint8_t>(op, b);
    case dt::short_:
    case dt::int16:
      return check_values<std::int16_t>(op, b);
    case dt::unsigned_short:
    case dt::uint16:
      return check_values<std::uint16_t>(op, b);
    case dt::int_:
    case dt::int32:
      return check_values<std::int32_t>(op, b);
    case dt::unsigned_:
    case dt::uint32:
      return check_values<std::uint32_t>(op, b);
    case dt::long_:
      return check_values<long>(op, b);
    case dt::unsigned_long:
      return check_values<unsigned long>(op, b);
    case dt::long_long:
    case dt::int64:
    case dt::offset:
    case dt::count:
      return check_values<long long>(op, b);
    case dt::unsigned_long_long:
    case dt::uint64:
      return check_values<unsigned long long>(op, b);
    case dt::aint:
      return check_values<std::ptrdiff_t>(op, b);
    case dt::float_:
      return check_values<float>(op, b);
    case dt::double_:
      return check_values<double>(op, b);
    case dt::long_double:
      return check_values<long double>(op, b);
    case dt::c_bool:
    case dt::cxx_bool: {
      bool a[4] = {true, true, false, false}, io[4] = {true, false, true, false};
      reduce(op, P(b), 4, a, io);
      bool want[4];
      for (int k = 0; k < 4; ++k) {
        bool x = k < 2, y = k % 2 == 0;
        want[k] = op == Op::land ? (x && y) : op == Op::lor ? (x || y) : (x != y);
      }
      CHECK(std::memcmp(io, want, sizeof io) == 0);
      return;
    }
    case dt::c_float_complex:
    case dt::cxx_float_complex:
      return check_complex<std::complex<float>>(op, b);
    case dt::c_double_complex:
    case dt::cxx_double_complex:
      return check_complex<std::complex<double>>(op, b);
    case dt::c_long_double_complex:
    case dt::cxx_long_double_complex:
      return check_complex<std::complex<long double>>(op, b);
    case dt::float_int:
      return check_loc<float>(op, b);
    case dt::double_int:
      return check_loc<double>(op, b);
    case dt::long_int:
      return check_loc<long>(op, b);
    case dt::two_int:
      return check_loc<int>(op, b);
    case dt::short_int:
      return check_loc<short>(op, b);
    case dt::long_double_int:
      return check_loc<long double>(op, b);
    default:
      FAIL("no value check for " << predefined(b).name);
  }
}

}  // namespace

TEST_CASE("the operator/type table is the standard's plus what both peers accept") {
  for (Op op : kAll)
    for (int b = 1; b < kNumPredefined; ++b) {
      INFO(op_name(op) << " on " << predefined(b).name);
      CHECK(op_allowed(op, b) == expected_allowed(op, b));
      CHECK(check_op(op, P(b)).ok() == expected_allowed(op, b));
    }
}

TEST_CASE("every operator computes the right values on every allowed type") {
  int checked = 0;
  for (Op op : kAll)
    for (int b = 1; b < kNumPredefined; ++b)
      if (op_allowed(op, b)) {
        check(op, b);
        ++checked;
      }
  CHECK(checked > 150);
}

TEST_CASE("reductions over derived types follow the typemap") {
  auto vec = Datatype::vector(2, 1, 2, P(dt::int_), false).value();  // ints 0 and 2 of 3
  int a[6] = {1, 100, 2, 3, 100, 4}, io[6] = {10, -1, 20, 30, -1, 40};
  REQUIRE(check_op(Op::sum, vec).ok());
  reduce(Op::sum, vec, 2, a, io);  // extent 12 bytes: the second instance starts at a[3]
  CHECK(io[0] == 11);
  CHECK(io[1] == -1);  // gap untouched
  CHECK(io[2] == 22);
  CHECK(io[3] == 33);
  CHECK(io[5] == 44);
  auto mixed = Datatype::struct_({1, 1}, {0, 8}, {P(dt::double_), P(dt::c_bool)}).value();
  CHECK_FALSE(check_op(Op::sum, mixed).ok());  // bool has no SUM
  CHECK(check_op(Op::land, Datatype::contiguous(3, P(dt::c_bool)).value()).ok());
}
