// predefined.hpp - the predefined MPI datatypes: native and external32
// sizes, the class each belongs to for reduction operators, and names.
//
// Indices match mpi.h (IMPI_DT_(i)); index 0 is MPI_DATATYPE_NULL. The
// external32 sizes are the MPI standard's table (MPI-3.1 13.5.2), not this
// machine's: MPI_LONG is 4 bytes there, MPI_LONG_DOUBLE 16, MPI_C_BOOL 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace impi::pack {

// How the bytes of one element are to be understood.
enum class Kind : std::uint8_t {
  none,       // MPI_DATATYPE_NULL
  sint,       // two's complement signed integer
  uint,       // unsigned integer
  boolean,    // C _Bool / C++ bool
  character,  // char, wchar_t: integer data, not for arithmetic reductions
  byte,       // opaque bytes
  packed,     // MPI_PACKED
  real,       // IEEE binary32/64 or x87 80-bit long double
  complex,    // two reals
  pair,       // {value, index} for MINLOC/MAXLOC
};

// Reduction-operator classes of MPI-3.1 5.9.2.
enum class OpClass : std::uint8_t {
  none,
  c_integer,
  fortran_integer,
  floating_point,
  logical,
  complex,
  byte,
  pair,            // MINLOC/MAXLOC only
  multi_language,  // MPI_AINT, MPI_OFFSET, MPI_COUNT
  other,           // char, wchar, packed: no predefined op applies
};

struct Predefined {
  std::string_view name;  // "MPI_INT"
  Kind kind;
  OpClass op_class;
  std::uint16_t size;        // native bytes
  std::uint16_t align;       // native alignment
  std::uint16_t ext32_size;  // external32 bytes (0: no external32 form)
  // For pair types: the value part's predefined index, and the offset of
  // the index part natively (the pair is {value; index} with padding);
  // the index is an int (C's pairs) or of the value's type (MPI_2REAL...).
  std::uint8_t pair_value = 0;
  std::uint16_t pair_int_offset = 0;
  std::uint8_t pair_index = 8;  // dt::int_
};

constexpr int kNumPredefined = 61;  // indices 0..60 (IMPI_DT_LAST_PREDEFINED)

const Predefined &predefined(int index);  // index in [0, kNumPredefined)
std::span<const Predefined> predefined_table();

// The bytes of data in one element: its native size, except for the pair
// types, whose padding is not data (MPI_Type_size(MPI_DOUBLE_INT) is 12,
// its extent 16). A pair is then two elements: the value and the index.
inline std::int64_t data_bytes(const Predefined &p) {
  return p.kind == Kind::pair ? predefined(p.pair_value).size + predefined(p.pair_index).size
                              : p.size;
}
inline std::int64_t elements_in(const Predefined &p) {
  return p.kind == Kind::pair ? 2 : 1;
}

// Predefined indices used by the engine (mirroring mpi.h).
namespace dt {
constexpr int null = 0, char_ = 1, signed_char = 2, unsigned_char = 3, byte = 4, wchar = 5,
              short_ = 6, unsigned_short = 7, int_ = 8, unsigned_ = 9, long_ = 10,
              unsigned_long = 11, long_long = 12, unsigned_long_long = 13, float_ = 14,
              double_ = 15, long_double = 16, c_bool = 17, int8 = 18, int16 = 19, int32 = 20,
              int64 = 21, uint8 = 22, uint16 = 23, uint32 = 24, uint64 = 25, c_float_complex = 26,
              c_double_complex = 27, c_long_double_complex = 28, aint = 29, offset = 30, count = 31,
              packed = 32, float_int = 33, double_int = 34, long_int = 35, two_int = 36,
              short_int = 37, long_double_int = 38, cxx_bool = 39, cxx_float_complex = 40,
              cxx_double_complex = 41, cxx_long_double_complex = 42, character = 43, logical = 44,
              integer = 45, real = 46, double_precision = 47, complex = 48, double_complex = 49,
              two_real = 50, two_double_precision = 51, two_integer = 52, integer1 = 53,
              integer2 = 54, integer4 = 55, integer8 = 56, real4 = 57, real8 = 58, complex8 = 59,
              complex16 = 60;
}  // namespace dt

}  // namespace impi::pack
