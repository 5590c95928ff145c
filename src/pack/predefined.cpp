#include "pack/predefined.hpp"

#include <complex>
#include <cstddef>
#include <cwchar>

namespace impi::pack {

namespace {

template <typename V>
struct PairOf {
  V value;
  int index;
};
template <typename V>
constexpr std::uint16_t pair_int_offset() {
  return static_cast<std::uint16_t>(offsetof(PairOf<V>, index));
}

#define IMPI_SZ(T) static_cast<std::uint16_t>(sizeof(T)), static_cast<std::uint16_t>(alignof(T))

// external32 sizes: MPI-3.1 table 13.2 (C types) and 13.5.2's rules for
// pairs (the concatenation of the parts, no padding).
constexpr Predefined kTable[kNumPredefined] = {
    {"MPI_DATATYPE_NULL", Kind::none, OpClass::none, 0, 1, 0},
    {"MPI_CHAR", Kind::character, OpClass::other, IMPI_SZ(char), 1},
    {"MPI_SIGNED_CHAR", Kind::sint, OpClass::c_integer, IMPI_SZ(signed char), 1},
    {"MPI_UNSIGNED_CHAR", Kind::uint, OpClass::c_integer, IMPI_SZ(unsigned char), 1},
    {"MPI_BYTE", Kind::byte, OpClass::byte, 1, 1, 1},
    {"MPI_WCHAR", Kind::character, OpClass::other, IMPI_SZ(wchar_t), 4},
    {"MPI_SHORT", Kind::sint, OpClass::c_integer, IMPI_SZ(short), 2},
    {"MPI_UNSIGNED_SHORT", Kind::uint, OpClass::c_integer, IMPI_SZ(unsigned short), 2},
    {"MPI_INT", Kind::sint, OpClass::c_integer, IMPI_SZ(int), 4},
    {"MPI_UNSIGNED", Kind::uint, OpClass::c_integer, IMPI_SZ(unsigned), 4},
    {"MPI_LONG", Kind::sint, OpClass::c_integer, IMPI_SZ(long), 4},
    {"MPI_UNSIGNED_LONG", Kind::uint, OpClass::c_integer, IMPI_SZ(unsigned long), 4},
    {"MPI_LONG_LONG_INT", Kind::sint, OpClass::c_integer, IMPI_SZ(long long), 8},
    {"MPI_UNSIGNED_LONG_LONG", Kind::uint, OpClass::c_integer, IMPI_SZ(unsigned long long), 8},
    {"MPI_FLOAT", Kind::real, OpClass::floating_point, IMPI_SZ(float), 4},
    {"MPI_DOUBLE", Kind::real, OpClass::floating_point, IMPI_SZ(double), 8},
    {"MPI_LONG_DOUBLE", Kind::real, OpClass::floating_point, IMPI_SZ(long double), 16},
    {"MPI_C_BOOL", Kind::boolean, OpClass::logical, IMPI_SZ(bool), 1},
    {"MPI_INT8_T", Kind::sint, OpClass::c_integer, IMPI_SZ(std::int8_t), 1},
    {"MPI_INT16_T", Kind::sint, OpClass::c_integer, IMPI_SZ(std::int16_t), 2},
    {"MPI_INT32_T", Kind::sint, OpClass::c_integer, IMPI_SZ(std::int32_t), 4},
    {"MPI_INT64_T", Kind::sint, OpClass::c_integer, IMPI_SZ(std::int64_t), 8},
    {"MPI_UINT8_T", Kind::uint, OpClass::c_integer, IMPI_SZ(std::uint8_t), 1},
    {"MPI_UINT16_T", Kind::uint, OpClass::c_integer, IMPI_SZ(std::uint16_t), 2},
    {"MPI_UINT32_T", Kind::uint, OpClass::c_integer, IMPI_SZ(std::uint32_t), 4},
    {"MPI_UINT64_T", Kind::uint, OpClass::c_integer, IMPI_SZ(std::uint64_t), 8},
    {"MPI_C_COMPLEX", Kind::complex, OpClass::complex, IMPI_SZ(std::complex<float>), 8},
    {"MPI_C_DOUBLE_COMPLEX", Kind::complex, OpClass::complex, IMPI_SZ(std::complex<double>), 16},
    {"MPI_C_LONG_DOUBLE_COMPLEX", Kind::complex, OpClass::complex,
     IMPI_SZ(std::complex<long double>), 32},
    {"MPI_AINT", Kind::sint, OpClass::multi_language, IMPI_SZ(std::ptrdiff_t), 8},
    {"MPI_OFFSET", Kind::sint, OpClass::multi_language, IMPI_SZ(long long), 8},
    {"MPI_COUNT", Kind::sint, OpClass::multi_language, IMPI_SZ(long long), 8},
    {"MPI_PACKED", Kind::packed, OpClass::other, 1, 1, 1},
    {"MPI_FLOAT_INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<float>), 8, dt::float_,
     pair_int_offset<float>()},
    {"MPI_DOUBLE_INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<double>), 12, dt::double_,
     pair_int_offset<double>()},
    {"MPI_LONG_INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<long>), 8, dt::long_,
     pair_int_offset<long>()},
    {"MPI_2INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<int>), 8, dt::int_,
     pair_int_offset<int>()},
    {"MPI_SHORT_INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<short>), 6, dt::short_,
     pair_int_offset<short>()},
    {"MPI_LONG_DOUBLE_INT", Kind::pair, OpClass::pair, IMPI_SZ(PairOf<long double>), 20,
     dt::long_double, pair_int_offset<long double>()},
    {"MPI_CXX_BOOL", Kind::boolean, OpClass::logical, IMPI_SZ(bool), 1},
    {"MPI_CXX_FLOAT_COMPLEX", Kind::complex, OpClass::complex, IMPI_SZ(std::complex<float>), 8},
    {"MPI_CXX_DOUBLE_COMPLEX", Kind::complex, OpClass::complex, IMPI_SZ(std::complex<double>), 16},
    {"MPI_CXX_LONG_DOUBLE_COMPLEX", Kind::complex, OpClass::complex,
     IMPI_SZ(std::complex<long double>), 32},
    // Fortran types with gfortran's default sizes: INTEGER, LOGICAL and
    // REAL are 4 bytes, DOUBLE PRECISION 8; LOGICAL is an integer (0 false).
    {"MPI_CHARACTER", Kind::character, OpClass::other, 1, 1, 1},
    {"MPI_LOGICAL", Kind::sint, OpClass::logical, 4, 4, 4},
    {"MPI_INTEGER", Kind::sint, OpClass::fortran_integer, 4, 4, 4},
    {"MPI_REAL", Kind::real, OpClass::floating_point, 4, 4, 4},
    {"MPI_DOUBLE_PRECISION", Kind::real, OpClass::floating_point, 8, 8, 8},
    {"MPI_COMPLEX", Kind::complex, OpClass::complex, 8, 4, 8},
    {"MPI_DOUBLE_COMPLEX", Kind::complex, OpClass::complex, 16, 8, 16},
    {"MPI_2REAL", Kind::pair, OpClass::pair, 8, 4, 8, dt::real, 4, dt::real},
    {"MPI_2DOUBLE_PRECISION", Kind::pair, OpClass::pair, 16, 8, 16, dt::double_precision, 8,
     dt::double_precision},
    {"MPI_2INTEGER", Kind::pair, OpClass::pair, 8, 4, 8, dt::integer, 4, dt::integer},
    {"MPI_INTEGER1", Kind::sint, OpClass::fortran_integer, 1, 1, 1},
    {"MPI_INTEGER2", Kind::sint, OpClass::fortran_integer, 2, 2, 2},
    {"MPI_INTEGER4", Kind::sint, OpClass::fortran_integer, 4, 4, 4},
    {"MPI_INTEGER8", Kind::sint, OpClass::fortran_integer, 8, 8, 8},
    {"MPI_REAL4", Kind::real, OpClass::floating_point, 4, 4, 4},
    {"MPI_REAL8", Kind::real, OpClass::floating_point, 8, 8, 8},
    {"MPI_COMPLEX8", Kind::complex, OpClass::complex, 8, 4, 8},
    {"MPI_COMPLEX16", Kind::complex, OpClass::complex, 16, 8, 16},
};
#undef IMPI_SZ

}  // namespace

const Predefined &predefined(int index) {
  return kTable[index];
}
std::span<const Predefined> predefined_table() {
  return kTable;
}

}  // namespace impi::pack
