// datatype.hpp - MPI datatypes: predefined and derived, flattened.
//
// A Datatype is immutable once built. Its typemap is kept flattened in
// typemap order as `segments` (runs of elements of one predefined type,
// for conversions such as external32) and `runs` (merged contiguous byte
// ranges, for native packing). Derived types keep their envelope (the
// constructor and its arguments) for MPI_Type_get_envelope/get_contents.
//
// Ownership: types are shared (std::shared_ptr); a request or a derived
// type that uses a type holds a reference, so MPI_Type_free while a
// message is in flight is safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/errc.hpp"
#include "pack/predefined.hpp"

namespace impi::pack {

// MPI_COMBINER_* values, mirrored to keep mpi.h out of this layer.
enum class Combiner : int {
  named = 1,
  dup = 2,
  contiguous = 3,
  vector = 4,
  hvector = 6,
  indexed = 7,
  hindexed = 9,
  indexed_block = 10,
  struct_ = 12,
  subarray = 13,
  darray = 14,
  f90_real = 15,
  f90_complex = 16,
  f90_integer = 17,
  resized = 18,
  hindexed_block = 19,
};

struct Segment {
  std::int64_t disp;   // bytes from the type's origin
  std::int64_t count;  // elements of `basic`
  int basic;           // predefined index
};

struct ByteRun {
  std::int64_t disp;
  std::int64_t len;
};

class Datatype;
using TypePtr = std::shared_ptr<const Datatype>;

class Datatype {
 public:
  static const TypePtr &predefined(int index);

  // Constructors (MPI_Type_*). Arguments are validated; errors name the
  // problem. Displacements in elements of the old type's extent for
  // vector/indexed, in bytes for the h* forms and struct.
  static base::Result<TypePtr> contiguous(std::int64_t count, const TypePtr &old);
  static base::Result<TypePtr> vector(std::int64_t count, std::int64_t blocklen,
                                      std::int64_t stride, const TypePtr &old, bool stride_bytes);
  static base::Result<TypePtr> indexed(const std::vector<std::int64_t> &blocklens,
                                       const std::vector<std::int64_t> &disps, const TypePtr &old,
                                       bool disp_bytes);
  static base::Result<TypePtr> indexed_block(std::int64_t blocklen,
                                             const std::vector<std::int64_t> &disps,
                                             const TypePtr &old, bool disp_bytes);
  static base::Result<TypePtr> struct_(const std::vector<std::int64_t> &blocklens,
                                       const std::vector<std::int64_t> &disps,
                                       const std::vector<TypePtr> &types);
  static base::Result<TypePtr> resized(const TypePtr &old, std::int64_t lb, std::int64_t extent);
  // MPI_Type_create_subarray; order_c: MPI_ORDER_C (else Fortran order).
  static base::Result<TypePtr> subarray(const std::vector<std::int64_t> &sizes,
                                        const std::vector<std::int64_t> &subsizes,
                                        const std::vector<std::int64_t> &starts, bool order_c,
                                        const TypePtr &old);
  // MPI_Type_create_darray. distribs: 0 none, 1 block, 2 cyclic; dargs: -1 default.
  struct DarrayDim {
    std::int64_t gsize;
    int distrib;
    std::int64_t darg;
    std::int64_t psize;
  };
  static base::Result<TypePtr> darray(int size, int rank, const std::vector<DarrayDim> &dims,
                                      bool order_c, const TypePtr &old);
  static base::Result<TypePtr> dup(const TypePtr &old);
  // MPI_Type_create_f90_real/complex/integer (MPI-3.1 17.1.9): predefined
  // type `basic` under combiner f90_* with the arguments as passed, {p, r}
  // or {r}; it has no constituent types.
  static TypePtr f90(Combiner c, std::vector<std::int64_t> args, int basic);

  std::int64_t size() const { return size_; }
  std::int64_t lb() const { return lb_; }
  std::int64_t ub() const { return ub_; }
  std::int64_t extent() const { return ub_ - lb_; }
  std::int64_t true_lb() const { return true_lb_; }
  std::int64_t true_ub() const { return true_ub_; }
  std::int64_t true_extent() const { return true_ub_ - true_lb_; }
  // Number of predefined elements in one instance (MPI_Get_elements).
  std::int64_t elements() const { return elements_; }
  const std::vector<Segment> &segments() const { return segments_; }
  const std::vector<ByteRun> &runs() const { return runs_; }
  // One byte run at displacement 0 covering the whole extent.
  bool is_contiguous() const { return contiguous_; }
  // Runs of one length at one stride (a vector's shape): packing computes
  // addresses instead of reading the run table. len == 0: not strided.
  struct Strided {
    std::int64_t first = 0, stride = 0, len = 0;
  };
  const Strided &strided() const { return strided_; }
  bool is_predefined() const { return predefined_ >= 0; }
  int predefined_index() const { return predefined_; }

  // Envelope.
  Combiner combiner() const { return combiner_; }
  const std::vector<std::int64_t> &envelope_ints() const { return ints_; }
  const std::vector<std::int64_t> &envelope_aints() const { return aints_; }
  const std::vector<TypePtr> &envelope_types() const { return types_; }
  // Made by a large-count constructor (MPI_Type_contiguous_c ..): the
  // envelope reports its counts as large counts (MPI-4.0 5.1.13).
  bool large_counts() const { return large_; }
  static TypePtr with_large_counts(const TypePtr &t);

 private:
  Datatype() = default;
  void finish();  // computes runs_, elements_, contiguous_ from segments_
  // A copy of `t` that reports itself as made by `c` with these arguments.
  static TypePtr with_envelope(const TypePtr &t, Combiner c, std::vector<std::int64_t> ints,
                               std::vector<TypePtr> types);
  static base::Result<TypePtr> from_blocks(Combiner c, const std::vector<std::int64_t> &blocklens,
                                           const std::vector<std::int64_t> &byte_disps,
                                           const std::vector<TypePtr> &types);

  std::int64_t size_ = 0, lb_ = 0, ub_ = 0, true_lb_ = 0, true_ub_ = 0, elements_ = 0;
  std::vector<Segment> segments_;
  std::vector<ByteRun> runs_;
  bool contiguous_ = false;
  Strided strided_;
  int predefined_ = -1;
  std::int64_t align_ = 1;        // strictest alignment of the constituents
  bool explicit_bounds_ = false;  // a resized type is inside: no struct padding
  Combiner combiner_ = Combiner::named;
  std::vector<std::int64_t> ints_, aints_;
  std::vector<TypePtr> types_;
  bool large_ = false;
};

// Most segments a flattened type may have: a guard against typemaps that
// would exhaust memory (e.g. a vector of a vector of 10^9 small blocks).
constexpr std::size_t kMaxSegments = std::size_t{1} << 26;

}  // namespace impi::pack
