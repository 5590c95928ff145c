// reduce.hpp - the predefined reduction operators (MPI-3.1 5.9.2) and
// their kernels: inout[i] = in[i] op inout[i], over any datatype whose
// typemap holds only types the operator allows.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/errc.hpp"
#include "pack/datatype.hpp"

namespace impi::pack {

// Values match mpi.h's IMPI_OP_(i).
enum class Op : int {
  max = 1,
  min,
  sum,
  prod,
  land,
  band,
  lor,
  bor,
  lxor,
  bxor,
  minloc,
  maxloc,
  replace,
  no_op,
};
constexpr int kNumOps = 15;  // 1..14

std::string_view op_name(Op op);

// Whether `op` may reduce elements of predefined type `basic`.
bool op_allowed(Op op, int basic);

// Checks every type in the typemap of `t`; the error names the first offender.
base::Status check_op(Op op, const TypePtr &t);

// inout = in op inout, for `count` instances of `t` (check_op first).
void reduce(Op op, const TypePtr &t, std::int64_t count, const void *in, void *inout);

}  // namespace impi::pack
