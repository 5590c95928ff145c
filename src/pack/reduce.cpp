#include "pack/reduce.hpp"

#include <fmt/core.h>

#include <complex>
#include <cstddef>
#include <cstring>

namespace impi::pack {

std::string_view op_name(Op op) {
  static constexpr std::string_view names[kNumOps] = {
      "",         "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD",
      "MPI_LAND", "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR",
      "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};
  int i = static_cast<int>(op);
  return i > 0 && i < kNumOps ? names[i] : "?";
}

bool op_allowed(Op op, int basic) {
  // MPI_CHAR: the standard gives it no operation, but Open MPI and MPICH
  // both reduce it as a C integer (the OSU benchmarks sum MPI_CHAR).
  if (basic == dt::char_) basic = dt::signed_char;
  OpClass c = predefined(basic).op_class;
  switch (op) {
    case Op::max:
    case Op::min:
      return c == OpClass::c_integer || c == OpClass::fortran_integer ||
             c == OpClass::floating_point || c == OpClass::multi_language;
    case Op::sum:
    case Op::prod:
      return c == OpClass::c_integer || c == OpClass::fortran_integer ||
             c == OpClass::floating_point || c == OpClass::complex || c == OpClass::multi_language;
    case Op::land:
    case Op::lor:
    case Op::lxor:  // (MPI_AINT, MPI_OFFSET, MPI_COUNT too: both peers accept them)
      return c == OpClass::c_integer || c == OpClass::logical || c == OpClass::multi_language;
    case Op::band:
    case Op::bor:
    case Op::bxor:
      return c == OpClass::c_integer || c == OpClass::fortran_integer || c == OpClass::byte ||
             c == OpClass::multi_language;
    case Op::minloc:
    case Op::maxloc:
      return c == OpClass::pair;
    case Op::replace:
    case Op::no_op:
      return false;  // one-sided accumulate only, not reductions
  }
  return false;
}

base::Status check_op(Op op, const TypePtr &t) {
  for (const auto &s : t->segments())
    if (!op_allowed(op, s.basic))
      return {base::Errc::invalid_argument,
              fmt::format("{} is not defined on {}", op_name(op), predefined(s.basic).name)};
  return {};
}

namespace {

// Kernels over contiguous arrays: the compiler vectorizes these loops
// (reduce.cpp is built with -O3).
template <typename T>
[[gnu::always_inline]] inline void arith(Op op, const T *__restrict in, T *__restrict io,
                                         std::int64_t n) {
  switch (op) {
    case Op::sum:
      for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] + io[i]);
      return;
    case Op::prod:
      for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] * io[i]);
      return;
    default:
      break;
  }
  if constexpr (!std::is_same_v<T, std::complex<float>> &&
                !std::is_same_v<T, std::complex<double>> &&
                !std::is_same_v<T, std::complex<long double>>) {
    switch (op) {
      case Op::max:
        for (std::int64_t i = 0; i < n; ++i) io[i] = in[i] > io[i] ? in[i] : io[i];
        return;
      case Op::min:
        for (std::int64_t i = 0; i < n; ++i) io[i] = in[i] < io[i] ? in[i] : io[i];
        return;
      case Op::land:
        for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] && io[i]);
        return;
      case Op::lor:
        for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] || io[i]);
        return;
      case Op::lxor:
        for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(!in[i] != !io[i]);
        return;
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case Op::band:
          for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] & io[i]);
          return;
        case Op::bor:
          for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] | io[i]);
          return;
        case Op::bxor:
          for (std::int64_t i = 0; i < n; ++i) io[i] = static_cast<T>(in[i] ^ io[i]);
          return;
        default:
          break;
      }
    }
  }
}

// bool: only the logical operators apply.
void logical(Op op, const bool *in, bool *io, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    switch (op) {
      case Op::land:
        io[i] = in[i] && io[i];
        break;
      case Op::lor:
        io[i] = in[i] || io[i];
        break;
      case Op::lxor:
        io[i] = in[i] != io[i];
        break;
      default:
        break;
    }
  }
}

// MINLOC/MAXLOC on {value, index} pairs: ties keep the smaller index.
template <typename V, typename I = int>
void loc(Op op, const std::byte *in, std::byte *io, std::int64_t n, std::size_t stride,
         std::size_t int_off) {
  for (std::int64_t i = 0; i < n; ++i, in += stride, io += stride) {
    V a, b;
    I ai, bi;
    std::memcpy(&a, in, sizeof a);
    std::memcpy(&b, io, sizeof b);
    std::memcpy(&ai, in + int_off, sizeof ai);
    std::memcpy(&bi, io + int_off, sizeof bi);
    bool take = op == Op::minloc ? (a < b || (a == b && ai < bi)) : (a > b || (a == b && ai < bi));
    if (take) {  // (the bytes, not the value: a long double's padding stays as it was in `in`)
      std::memcpy(io, in, sizeof a);
      std::memcpy(io + int_off, in + int_off, sizeof ai);
    }
  }
}

// Fortran LOGICAL: an integer, zero false; results are 1 or 0.
void fortran_logical(Op op, const std::int32_t *in, std::int32_t *io, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    bool a = in[i] != 0, b = io[i] != 0;
    switch (op) {
      case Op::land:
        io[i] = a && b;
        break;
      case Op::lor:
        io[i] = a || b;
        break;
      case Op::lxor:
        io[i] = a != b;
        break;
      default:
        break;
    }
  }
}

template <typename T>
void typed(Op op, const std::byte *in, std::byte *io, std::int64_t n) {
  arith<T>(op, reinterpret_cast<const T *>(in), reinterpret_cast<T *>(io), n);
}

// The plain integer and floating types again, built for the widest vector
// unit the processor has (chosen once, at load): the baseline x86-64 build
// has SSE2 only, and an accumulate of 64 KiB of doubles runs about twice as
// fast with AVX-512.
// (Not under ThreadSanitizer: its runtime is not up yet when the loader
// runs the clones' resolvers, and the process dies there.)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define IMPI_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define IMPI_VECTOR_CLONES
#endif
#define IMPI_WIDE_KERNEL(name, T)                                                           \
  IMPI_VECTOR_CLONES void name(Op op, const std::byte *in, std::byte *io, std::int64_t n) { \
    arith<T>(op, reinterpret_cast<const T *>(in), reinterpret_cast<T *>(io), n);            \
  }
IMPI_WIDE_KERNEL(wide_i8, std::int8_t)
IMPI_WIDE_KERNEL(wide_u8, std::uint8_t)
IMPI_WIDE_KERNEL(wide_i16, std::int16_t)
IMPI_WIDE_KERNEL(wide_u16, std::uint16_t)
IMPI_WIDE_KERNEL(wide_i32, std::int32_t)
IMPI_WIDE_KERNEL(wide_u32, std::uint32_t)
IMPI_WIDE_KERNEL(wide_i64, std::int64_t)
IMPI_WIDE_KERNEL(wide_u64, std::uint64_t)
IMPI_WIDE_KERNEL(wide_f32, float)
IMPI_WIDE_KERNEL(wide_f64, double)
#undef IMPI_WIDE_KERNEL

void kernel(Op op, int basic, const std::byte *in, std::byte *io, std::int64_t n) {
  const Predefined &p = predefined(basic);
  switch (basic) {
    case dt::char_:
      return typed<char>(op, in, io, n);
    case dt::signed_char:
    case dt::int8:
    case dt::integer1:
      return wide_i8(op, in, io, n);
    case dt::unsigned_char:
    case dt::uint8:
    case dt::byte:
      return wide_u8(op, in, io, n);
    case dt::short_:
    case dt::int16:
    case dt::integer2:
      return wide_i16(op, in, io, n);
    case dt::unsigned_short:
    case dt::uint16:
      return wide_u16(op, in, io, n);
    case dt::int_:
    case dt::int32:
    case dt::integer:
    case dt::integer4:
      return wide_i32(op, in, io, n);
    case dt::unsigned_:
    case dt::uint32:
      return wide_u32(op, in, io, n);
    case dt::long_:
      return typed<long>(op, in, io, n);
    case dt::unsigned_long:
      return typed<unsigned long>(op, in, io, n);
    case dt::long_long:
    case dt::int64:
    case dt::offset:
    case dt::count:
    case dt::integer8:
      return wide_i64(op, in, io, n);
    case dt::unsigned_long_long:
    case dt::uint64:
      return wide_u64(op, in, io, n);
    case dt::aint:
      return typed<std::ptrdiff_t>(op, in, io, n);
    case dt::float_:
    case dt::real:
    case dt::real4:
      return wide_f32(op, in, io, n);
    case dt::double_:
    case dt::double_precision:
    case dt::real8:
      return wide_f64(op, in, io, n);
    case dt::long_double:
      return typed<long double>(op, in, io, n);
    case dt::c_float_complex:
    case dt::cxx_float_complex:
    case dt::complex:
    case dt::complex8:
      return typed<std::complex<float>>(op, in, io, n);
    case dt::c_double_complex:
    case dt::cxx_double_complex:
    case dt::double_complex:
    case dt::complex16:
      return typed<std::complex<double>>(op, in, io, n);
    case dt::c_long_double_complex:
    case dt::cxx_long_double_complex:
      return typed<std::complex<long double>>(op, in, io, n);
    case dt::c_bool:
    case dt::cxx_bool:
      return logical(op, reinterpret_cast<const bool *>(in), reinterpret_cast<bool *>(io), n);
    case dt::float_int:
      return loc<float>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::double_int:
      return loc<double>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::long_int:
      return loc<long>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::two_int:
      return loc<int>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::short_int:
      return loc<short>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::long_double_int:
      return loc<long double>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::two_real:
      return loc<float, float>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::two_double_precision:
      return loc<double, double>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::two_integer:
      return loc<std::int32_t, std::int32_t>(op, in, io, n, p.size, p.pair_int_offset);
    case dt::logical:
      return fortran_logical(op, reinterpret_cast<const std::int32_t *>(in),
                             reinterpret_cast<std::int32_t *>(io), n);
    default:
      return;  // check_op rejected everything else
  }
}

}  // namespace

void reduce(Op op, const TypePtr &t, std::int64_t count, const void *in, void *inout) {
  auto *src = static_cast<const std::byte *>(in);
  auto *dst = static_cast<std::byte *>(inout);
  if (t->is_contiguous() && t->segments().size() == 1) {  // one run of one type
    const Segment &s = t->segments()[0];
    kernel(op, s.basic, src + s.disp, dst + s.disp, s.count * count);
    return;
  }
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t base = i * t->extent();
    for (const auto &s : t->segments())
      kernel(op, s.basic, src + base + s.disp, dst + base + s.disp, s.count);
  }
}

}  // namespace impi::pack
