// atomics.hpp - the element-wise arithmetic of accumulate operations
// (MPI-3.1 11.3.4): with one processor atomic per element where the
// element's size allows, so that procs sharing a window's memory update it
// at once without a lock; otherwise plain, under the target's lock.
#pragma once

#include <cstdint>

#include "pack/reduce.hpp"

namespace impi::rma {

// Whether an element of predefined type `basic` takes any accumulate
// operator as one atomic read-modify-write (1, 2, 4 or 8 bytes, one value).
bool atomic_capable(int basic);

// For `n` elements of `basic`: `old` (if not null) gets the target's values
// before, then target = in op target (MPI_REPLACE: in; MPI_NO_OP: unchanged).
// `atomic` (atomic_capable must hold): each element with one atomic.
void apply_elements(pack::Op op, int basic, char *target, const char *in, char *old, std::int64_t n,
                    bool atomic);

// MPI_Compare_and_swap on one element: old = target; if old == compare,
// target = in.
void compare_swap(int basic, char *target, const char *compare, const char *in, char *old,
                  bool atomic);

}  // namespace impi::rma
