// datatypes.cpp - MPI_Type_* constructors and queries, MPI_Get_elements and
// friends (MPI_Pack/Unpack: packing.cpp).
#include "api/datatypes.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "api/attr.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "mpi.h"
#include "pack/cursor.hpp"
#include "pack/external32.hpp"

using impi::api::lookup_type;
using impi::api::report;
using impi::pack::Datatype;
using impi::pack::TypePtr;

namespace impi::api {

const char *find_type(MPI_Datatype h, TypePtr &out, bool need_commit) {
  if (const TypePtr *p = lookup_predefined_type(h)) {  // (committed; no table lock)
    out = *p;
    return nullptr;
  }
  auto t = lookup_type(h);
  if (!t) return h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "not a valid datatype";
  if (need_commit && !t->committed) return "the datatype is not committed";
  out = t->type;
  return nullptr;
}

bool get_type(MPI_Datatype h, const char *fn, TypePtr &out, int &rc, bool need_commit) {
  if (const char *why = find_type(h, out, need_commit)) {
    rc = report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, why);
    return false;
  }
  return true;
}

bool bad_count(MPI_Count count, const char *fn, int &rc) {
  if (count >= 0) return false;
  rc = report(MPI_COMM_NULL, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  return true;
}

}  // namespace impi::api

using impi::api::bad_count;
using impi::api::get_type;

namespace {

// The data bytes of element `e` of a segment of predefined type `basic`
// (a pair's elements alternate: the value, then the index).
std::int64_t element_bytes(int basic, std::int64_t e) {
  const auto &p = impi::pack::predefined(basic);
  if (p.kind != impi::pack::Kind::pair) return p.size;
  return impi::pack::predefined(e % 2 == 0 ? p.pair_value : p.pair_index).size;
}

int store(impi::base::Result<TypePtr> r, MPI_Datatype *newtype, const char *fn) {
  if (!newtype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
  if (!r) {
    int cls = r.error() == impi::base::Errc::no_memory ? MPI_ERR_NO_MEM : MPI_ERR_ARG;
    return report(MPI_COMM_NULL, cls, fn, r.message());
  }
  *newtype = impi::api::new_type_handle(std::move(r.value()));
  return MPI_SUCCESS;
}

// Gathers arrays of old types; reports the first invalid one.
bool get_types(std::int64_t count, const MPI_Datatype types[], const char *fn,
               std::vector<TypePtr> &out, int &rc) {
  out.resize(static_cast<size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    if (!get_type(types[i], fn, out[static_cast<size_t>(i)], rc)) return false;
  return true;
}

template <typename T>
std::vector<std::int64_t> widen(std::int64_t count, const T *a) {
  return std::vector<std::int64_t>(a, a + count);
}

int type_extent(MPI_Datatype h, const char *fn, bool true_extent, MPI_Count *lb, MPI_Count *ext) {
  TypePtr t;
  int rc;
  if (!get_type(h, fn, t, rc)) return rc;
  if (!lb || !ext) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  *lb = true_extent ? t->true_lb() : t->lb();
  *ext = true_extent ? t->true_extent() : t->extent();
  return MPI_SUCCESS;
}

// The handle of the f90 type (combiner c, arguments p and r), named after
// the call that makes it: "MPI_Type_create_f90_real(6, MPI_UNDEFINED)".
MPI_Datatype f90_handle(impi::pack::Combiner c, int p, int r, int basic) {
  auto arg = [](int v) {
    return v == MPI_UNDEFINED ? std::string("MPI_UNDEFINED") : std::to_string(v);
  };
  std::string name =
      c == impi::pack::Combiner::f90_integer
          ? fmt::format("MPI_Type_create_f90_integer({})", arg(r))
          : fmt::format("MPI_Type_create_f90_{}({}, {})",
                        c == impi::pack::Combiner::f90_real ? "real" : "complex", arg(p), arg(r));
  return impi::api::f90_type(c, p, r, basic, name);
}

// The f90 type's handle when `t` is one (a constituent of a dup), else
// MPI_DATATYPE_NULL.
MPI_Datatype f90_handle_of(const Datatype &t) {
  using impi::pack::Combiner;
  Combiner c = t.combiner();
  if (c != Combiner::f90_real && c != Combiner::f90_complex && c != Combiner::f90_integer)
    return MPI_DATATYPE_NULL;
  const auto &a = t.envelope_ints();
  int p = c == Combiner::f90_integer ? 0 : static_cast<int>(a.front());
  return f90_handle(c, p, static_cast<int>(a.back()), t.segments().front().basic);
}

// REAL4 holds 6 digits and exponents to 37, REAL8 15 and 307.
int f90_real_kind(impi::pack::Combiner c, int p, int r, int single, int dbl, const char *fn,
                  MPI_Datatype *newtype) {
  if (!newtype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "p and r cannot both be MPI_UNDEFINED");
  auto fits = [&](int maxp, int maxr) {
    return (p == MPI_UNDEFINED || p <= maxp) && (r == MPI_UNDEFINED || r <= maxr);
  };
  if (fits(6, 37))
    *newtype = f90_handle(c, p, r, single);
  else if (fits(15, 307))
    *newtype = f90_handle(c, p, r, dbl);
  else
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  fmt::format("no real kind has precision {} and range {}", p, r));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

// ---- constructors: one template per constructor, for the int and the
// large-count (`_c`, MPI_Count) forms; a `_c` type reports its counts as
// large counts in MPI_Type_get_envelope_c.
}  // extern "C"

namespace {

template <typename C>
int store_c(impi::base::Result<TypePtr> r, MPI_Datatype *newtype, const char *fn) {
  if (std::is_same_v<C, MPI_Count> && r) r = TypePtr(Datatype::with_large_counts(r.value()));
  return store(std::move(r), newtype, fn);
}

template <typename C>
int type_contiguous(const char *fn, C count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
  TypePtr old;
  int rc;
  if (bad_count(count, fn, rc) || !get_type(oldtype, fn, old, rc)) return rc;
  return store_c<C>(Datatype::contiguous(count, old), newtype, fn);
}

template <typename C, typename S>
int type_vector(const char *fn, C count, C blocklength, S stride, MPI_Datatype oldtype,
                MPI_Datatype *newtype, bool bytes) {
  TypePtr old;
  int rc;
  if (bad_count(count, fn, rc) || !get_type(oldtype, fn, old, rc)) return rc;
  return store_c<C>(Datatype::vector(count, blocklength, stride, old, bytes), newtype, fn);
}

template <typename C, typename D>
int type_indexed(const char *fn, C count, const C blocklengths[], const D displacements[],
                 MPI_Datatype oldtype, MPI_Datatype *newtype, bool bytes) {
  TypePtr old;
  int rc;
  if (bad_count(count, fn, rc) || !get_type(oldtype, fn, old, rc)) return rc;
  if (count > 0 && (!blocklengths || !displacements))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL array");
  return store_c<C>(
      Datatype::indexed(widen(count, blocklengths), widen(count, displacements), old, bytes),
      newtype, fn);
}

template <typename C, typename D>
int type_indexed_block(const char *fn, C count, C blocklength, const D displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype, bool bytes) {
  TypePtr old;
  int rc;
  if (bad_count(count, fn, rc) || !get_type(oldtype, fn, old, rc)) return rc;
  if (count > 0 && !displacements) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL array");
  return store_c<C>(Datatype::indexed_block(blocklength, widen(count, displacements), old, bytes),
                    newtype, fn);
}

template <typename C, typename D>
int type_struct(const char *fn, C count, const C blocklengths[], const D displacements[],
                const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
  int rc;
  if (bad_count(count, fn, rc)) return rc;
  if (count > 0 && (!blocklengths || !displacements || !array_of_types))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL array");
  std::vector<TypePtr> types;
  if (!get_types(count, array_of_types, fn, types, rc)) return rc;
  return store_c<C>(
      Datatype::struct_(widen(count, blocklengths), widen(count, displacements), types), newtype,
      fn);
}

template <typename C>
int type_resized(const char *fn, MPI_Datatype oldtype, C lb, C extent, MPI_Datatype *newtype) {
  TypePtr old;
  int rc;
  if (!get_type(oldtype, fn, old, rc)) return rc;
  return store_c<C>(Datatype::resized(old, lb, extent), newtype, fn);
}

template <typename C>
int type_subarray(const char *fn, int ndims, const C sizes[], const C subsizes[], const C starts[],
                  int order, MPI_Datatype oldtype, MPI_Datatype *newtype) {
  TypePtr old;
  int rc;
  if (!get_type(oldtype, fn, old, rc)) return rc;
  if (ndims < 1 || !sizes || !subsizes || !starts)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "ndims must be positive, arrays not NULL");
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "order must be MPI_ORDER_C or MPI_ORDER_FORTRAN");
  return store_c<C>(Datatype::subarray(widen(ndims, sizes), widen(ndims, subsizes),
                                       widen(ndims, starts), order == MPI_ORDER_C, old),
                    newtype, fn);
}

template <typename C>
int type_darray(const char *fn, int size, int rank, int ndims, const C array_of_gsizes[],
                const int array_of_distribs[], const int array_of_dargs[],
                const int array_of_psizes[], int order, MPI_Datatype oldtype,
                MPI_Datatype *newtype) {
  TypePtr old;
  int rc;
  if (!get_type(oldtype, fn, old, rc)) return rc;
  if (ndims < 1 || !array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "ndims must be positive, arrays not NULL");
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "order must be MPI_ORDER_C or MPI_ORDER_FORTRAN");
  std::vector<Datatype::DarrayDim> dims;
  for (int i = 0; i < ndims; ++i) {
    int dist = array_of_distribs[i] == MPI_DISTRIBUTE_NONE     ? 0
               : array_of_distribs[i] == MPI_DISTRIBUTE_BLOCK  ? 1
               : array_of_distribs[i] == MPI_DISTRIBUTE_CYCLIC ? 2
                                                               : -1;
    if (dist < 0)
      return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                    fmt::format("bad distribution in dimension {}", i));
    int darg = array_of_dargs[i];
    dims.push_back({static_cast<std::int64_t>(array_of_gsizes[i]), dist,
                    darg == MPI_DISTRIBUTE_DFLT_DARG ? -1 : darg, array_of_psizes[i]});
  }
  return store_c<C>(Datatype::darray(size, rank, dims, order == MPI_ORDER_C, old), newtype, fn);
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_contiguous("MPI_Type_contiguous", count, oldtype, newtype);
}
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_contiguous("MPI_Type_contiguous_c", count, oldtype, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype) {
  return type_vector("MPI_Type_vector", count, blocklength, stride, oldtype, newtype, false);
}
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_vector("MPI_Type_vector_c", count, blocklength, stride, oldtype, newtype, false);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype) {
  return type_vector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype, true);
}
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_vector("MPI_Type_create_hvector_c", count, blocklength, stride, oldtype, newtype,
                     true);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype) {
  return type_indexed("MPI_Type_indexed", count, array_of_blocklengths, array_of_displacements,
                      oldtype, newtype, false);
}
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype) {
  return type_indexed("MPI_Type_indexed_c", count, array_of_blocklengths, array_of_displacements,
                      oldtype, newtype, false);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
  return type_indexed("MPI_Type_create_hindexed", count, array_of_blocklengths,
                      array_of_displacements, oldtype, newtype, true);
}
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype) {
  return type_indexed("MPI_Type_create_hindexed_c", count, array_of_blocklengths,
                      array_of_displacements, oldtype, newtype, true);
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_indexed_block("MPI_Type_create_indexed_block", count, blocklength,
                            array_of_displacements, oldtype, newtype, false);
}
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype) {
  return type_indexed_block("MPI_Type_create_indexed_block_c", count, blocklength,
                            array_of_displacements, oldtype, newtype, false);
}

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype) {
  return type_indexed_block("MPI_Type_create_hindexed_block", count, blocklength,
                            array_of_displacements, oldtype, newtype, true);
}
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype) {
  return type_indexed_block("MPI_Type_create_hindexed_block_c", count, blocklength,
                            array_of_displacements, oldtype, newtype, true);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
  return type_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
  return type_struct("MPI_Type_create_struct_c", count, array_of_blocklengths,
                     array_of_displacements, array_of_types, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype) {
  return type_resized<MPI_Aint>("MPI_Type_create_resized", oldtype, lb, extent, newtype);
}
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype) {
  return type_resized<MPI_Count>("MPI_Type_create_resized_c", oldtype, lb, extent, newtype);
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
  return type_subarray("MPI_Type_create_subarray", ndims, array_of_sizes, array_of_subsizes,
                       array_of_starts, order, oldtype, newtype);
}
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype) {
  return type_subarray("MPI_Type_create_subarray_c", ndims, array_of_sizes, array_of_subsizes,
                       array_of_starts, order, oldtype, newtype);
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype) {
  return type_darray("MPI_Type_create_darray", size, rank, ndims, array_of_gsizes,
                     array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype);
}
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
  return type_darray("MPI_Type_create_darray_c", size, rank, ndims, array_of_gsizes,
                     array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) {
  const char *fn = "MPI_Type_dup";
  auto t = lookup_type(oldtype);
  if (!t) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!newtype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
  auto r = Datatype::dup(t->type);
  if (!r) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, r.message());
  *newtype = impi::api::new_type_handle(r.value(), t->committed);  // a dup keeps the commit
  if (int rc = impi::api::copy_type_attrs(oldtype, *newtype); rc != MPI_SUCCESS) {
    impi::api::delete_type_attrs(*newtype);
    impi::api::free_type(*newtype);
    *newtype = MPI_DATATYPE_NULL;
    return report(MPI_COMM_NULL, rc, fn, "an attribute copy callback failed");
  }
  return MPI_SUCCESS;
}

int PMPI_Type_commit(MPI_Datatype *datatype) {
  if (!datatype || !impi::api::commit_type(*datatype))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_commit", "not a valid datatype");
  return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype *datatype) {
  const char *fn = "MPI_Type_free";
  if (!datatype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  auto t = lookup_type(*datatype);
  if (t && impi::api::is_predefined_type(*datatype))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "predefined datatypes cannot be freed");
  if (!t) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (int rc = impi::api::delete_type_attrs(*datatype); rc != MPI_SUCCESS)
    return report(MPI_COMM_NULL, rc, fn, "an attribute delete callback failed");
  if (!impi::api::free_type(*datatype))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

// MPI-4.1 5.1.12 (for MPI_MINLOC / MPI_MAXLOC): the predefined pair type of
// a value type and an index type, MPI_DATATYPE_NULL when there is none.
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype *pair_type) {
  const char *fn = "MPI_Type_get_value_index";
  TypePtr v, i;
  int rc;
  if (!get_type(value_type, fn, v, rc) || !get_type(index_type, fn, i, rc)) return rc;
  if (!pair_type) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "pair_type is NULL");
  struct Pair {
    MPI_Datatype value, index, pair;
  };
  static const Pair kPairs[] = {
      {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
      {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
      {MPI_LONG, MPI_INT, MPI_LONG_INT},
      {MPI_INT, MPI_INT, MPI_2INT},
      {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
      {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
      {MPI_REAL, MPI_REAL, MPI_2REAL},
      {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
      {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
  };
  *pair_type = MPI_DATATYPE_NULL;
  for (const Pair &p : kPairs)
    if (p.value == value_type && p.index == index_type) *pair_type = p.pair;
  return MPI_SUCCESS;
}

// ---- queries
int PMPI_Type_size(MPI_Datatype datatype, int *size) {
  TypePtr t;
  int rc;
  if (!get_type(datatype, "MPI_Type_size", t, rc)) return rc;
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
  *size = t->size() > std::numeric_limits<int>::max() ? MPI_UNDEFINED : static_cast<int>(t->size());
  return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size) {
  TypePtr t;
  int rc;
  if (!get_type(datatype, "MPI_Type_size_x", t, rc)) return rc;
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_size_x", "size is NULL");
  *size = t->size();
  return MPI_SUCCESS;
}

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size) {
  TypePtr t;
  int rc;
  if (!get_type(datatype, "MPI_Type_size_c", t, rc)) return rc;
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_size_c", "size is NULL");
  *size = t->size();
  return MPI_SUCCESS;
}

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) {
  return type_extent(datatype, "MPI_Type_get_extent_c", false, lb, extent);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) {
  return type_extent(datatype, "MPI_Type_get_true_extent_c", true, true_lb, true_extent);
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent) {
  MPI_Count l = 0, e = 0;
  int rc = type_extent(datatype, "MPI_Type_get_extent", false, &l, &e);
  if (rc == MPI_SUCCESS) {
    if (!lb || !extent)
      return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_get_extent", "NULL argument");
    *lb = static_cast<MPI_Aint>(l);
    *extent = static_cast<MPI_Aint>(e);
  }
  return rc;
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) {
  return type_extent(datatype, "MPI_Type_get_extent_x", false, lb, extent);
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent) {
  MPI_Count l = 0, e = 0;
  int rc = type_extent(datatype, "MPI_Type_get_true_extent", true, &l, &e);
  if (rc == MPI_SUCCESS) {
    if (!true_lb || !true_extent)
      return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_get_true_extent", "NULL argument");
    *true_lb = static_cast<MPI_Aint>(l);
    *true_extent = static_cast<MPI_Aint>(e);
  }
  return rc;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) {
  return type_extent(datatype, "MPI_Type_get_true_extent_x", true, true_lb, true_extent);
}

}  // extern "C"

namespace {

// A type's envelope as MPI-4.0 5.1.13 lays it out: a type from an int
// constructor has no large counts; one from a `_c` constructor has its
// counts, block lengths and displacements (all MPI_Count there) as large
// counts, and only the int arguments of subarray/darray (ndims, order,
// distributions ..) as integers.
struct Envelope {
  std::vector<std::int64_t> ints, aints, large;
};

Envelope envelope_of(const Datatype &t) {
  using impi::pack::Combiner;
  const auto &ints = t.envelope_ints();
  const auto &aints = t.envelope_aints();
  Envelope e;
  if (!t.large_counts()) {
    e.ints = ints;
    e.aints = aints;
    return e;
  }
  if (t.combiner() == Combiner::subarray) {  // ndims, sizes, subsizes, starts, order
    const auto n = static_cast<std::size_t>(ints.front());
    e.ints = {ints.front(), ints.back()};
    e.large.assign(ints.begin() + 1, ints.begin() + 1 + 3 * static_cast<std::ptrdiff_t>(n));
  } else if (t.combiner() == Combiner::darray) {
    // size, rank, ndims, gsizes, distribs, dargs, psizes, order: gsizes are large
    const auto n = static_cast<std::ptrdiff_t>(ints[2]);
    e.ints.assign(ints.begin(), ints.begin() + 3);
    e.ints.insert(e.ints.end(), ints.begin() + 3 + n, ints.end());
    e.large.assign(ints.begin() + 3, ints.begin() + 3 + n);
  } else {
    e.large = ints;
    e.large.insert(e.large.end(), aints.begin(), aints.end());
  }
  return e;
}

bool fits_int(const std::vector<std::int64_t> &v) {
  return std::all_of(v.begin(), v.end(), [](std::int64_t x) {
    return x >= std::numeric_limits<int>::min() && x <= std::numeric_limits<int>::max();
  });
}

// The datatypes of get_contents: predefined types (f90 ones too) come back
// as themselves; derived ones as new handles the caller frees (MPI 4.1.13).
void contents_types(const Datatype &t, MPI_Datatype array_of_datatypes[]) {
  const auto &types = t.envelope_types();
  for (std::size_t i = 0; i < types.size(); ++i) {
    const TypePtr &inner = types[i];
    if (inner->is_predefined())
      array_of_datatypes[i] = impi::api::predefined_handle(inner->predefined_index());
    else if (MPI_Datatype f = f90_handle_of(*inner); f != MPI_DATATYPE_NULL)
      array_of_datatypes[i] = f;
    else
      array_of_datatypes[i] = impi::api::new_type_handle(inner, true);
  }
}

}  // namespace

extern "C" {

// The int forms: a type made by a `_c` constructor is reported in the int
// layout when its arguments all fit in an int; otherwise MPI_ERR_TYPE (the
// program must use MPI_Type_get_envelope_c / MPI_Type_get_contents_c).
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner) {
  const char *fn = "MPI_Type_get_envelope";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (!num_integers || !num_addresses || !num_datatypes || !combiner)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  if (!fits_int(t->envelope_ints()))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                  "the type's arguments do not fit in an int: use MPI_Type_get_envelope_c");
  *num_integers = static_cast<int>(t->envelope_ints().size());
  *num_addresses = static_cast<int>(t->envelope_aints().size());
  *num_datatypes = static_cast<int>(t->envelope_types().size());
  *combiner = static_cast<int>(t->combiner());
  return MPI_SUCCESS;
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner) {
  const char *fn = "MPI_Type_get_envelope_c";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  Envelope e = envelope_of(*t);
  *num_integers = static_cast<MPI_Count>(e.ints.size());
  *num_addresses = static_cast<MPI_Count>(e.aints.size());
  *num_large_counts = static_cast<MPI_Count>(e.large.size());
  *num_datatypes = static_cast<MPI_Count>(t->envelope_types().size());
  *combiner = static_cast<int>(t->combiner());
  return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  const char *fn = "MPI_Type_get_contents";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (t->combiner() == impi::pack::Combiner::named)
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "a predefined datatype has no contents");
  const auto &ints = t->envelope_ints();
  const auto &aints = t->envelope_aints();
  const auto &types = t->envelope_types();
  if (!fits_int(ints))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn,
                  "the type's arguments do not fit in an int: use MPI_Type_get_contents_c");
  if (max_integers < static_cast<int>(ints.size()) ||
      max_addresses < static_cast<int>(aints.size()) ||
      max_datatypes < static_cast<int>(types.size()))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "arrays smaller than MPI_Type_get_envelope said");
  for (std::size_t i = 0; i < ints.size(); ++i) array_of_integers[i] = static_cast<int>(ints[i]);
  for (std::size_t i = 0; i < aints.size(); ++i)
    array_of_addresses[i] = static_cast<MPI_Aint>(aints[i]);
  contents_types(*t, array_of_datatypes);
  return MPI_SUCCESS;
}

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes,
                             int array_of_integers[], MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
  const char *fn = "MPI_Type_get_contents_c";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (t->combiner() == impi::pack::Combiner::named)
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "a predefined datatype has no contents");
  Envelope e = envelope_of(*t);
  if (max_integers < static_cast<MPI_Count>(e.ints.size()) ||
      max_addresses < static_cast<MPI_Count>(e.aints.size()) ||
      max_large_counts < static_cast<MPI_Count>(e.large.size()) ||
      max_datatypes < static_cast<MPI_Count>(t->envelope_types().size()))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  "arrays smaller than MPI_Type_get_envelope_c said");
  for (std::size_t i = 0; i < e.ints.size(); ++i)
    array_of_integers[i] = static_cast<int>(e.ints[i]);
  for (std::size_t i = 0; i < e.aints.size(); ++i)
    array_of_addresses[i] = static_cast<MPI_Aint>(e.aints[i]);
  for (std::size_t i = 0; i < e.large.size(); ++i) array_of_large_counts[i] = e.large[i];
  contents_types(*t, array_of_datatypes);
  return MPI_SUCCESS;
}

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name) {
  const char *fn = "MPI_Type_set_name";
  if (!type_name) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL name");
  std::string n(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  if (!impi::api::set_type_name(datatype, n))
    return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen) {
  const char *fn = "MPI_Type_get_name";
  if (!type_name || !resultlen) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  auto n = impi::api::type_name(datatype);
  if (!n) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  std::size_t len = std::min<std::size_t>(n->size(), MPI_MAX_OBJECT_NAME - 1);
  std::memcpy(type_name, n->data(), len);
  type_name[len] = '\0';
  *resultlen = static_cast<int>(len);
  return MPI_SUCCESS;
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype) {
  const char *fn = "MPI_Type_match_size";
  if (!datatype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  namespace dt = impi::pack::dt;
  const int *candidates = nullptr;
  static const int reals[] = {dt::float_, dt::double_, dt::long_double, -1};
  static const int ints[] = {dt::signed_char, dt::short_, dt::int_, dt::long_, dt::long_long, -1};
  static const int complexes[] = {dt::c_float_complex, dt::c_double_complex,
                                  dt::c_long_double_complex, -1};
  switch (typeclass) {
    case MPI_TYPECLASS_REAL:
      candidates = reals;
      break;
    case MPI_TYPECLASS_INTEGER:
      candidates = ints;
      break;
    case MPI_TYPECLASS_COMPLEX:
      candidates = complexes;
      break;
    default:
      return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                    fmt::format("unknown type class {}", typeclass));
  }
  for (const int *c = candidates; *c >= 0; ++c)
    if (impi::pack::predefined(*c).size == size) {
      *datatype = impi::api::predefined_handle(*c);
      return MPI_SUCCESS;
    }
  return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                fmt::format("no type of this class has {} bytes", size));
}

// ---- Fortran 90 parameterized types (MPI-3.1 17.1.9): the smallest sized
// type with the requested decimal precision p and exponent range r
// (MPI_UNDEFINED: any), by gfortran's kinds. Each (p, r) has one handle,
// made on first use: a predefined type (committed, not to be freed) that
// communicates and reduces as the sized type it matches (MPI_REAL4...)
// and whose envelope is MPI_COMBINER_F90_* with p and r as passed.
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype) {
  const char *fn = "MPI_Type_create_f90_integer";
  if (!newtype) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "newtype is NULL");
  namespace dt = impi::pack::dt;
  static const std::pair<int, int> kinds[] = {
      {2, dt::integer1}, {4, dt::integer2}, {9, dt::integer4}, {18, dt::integer8}};
  for (auto [range, index] : kinds)
    if (r == MPI_UNDEFINED || r <= range) {
      *newtype = f90_handle(impi::pack::Combiner::f90_integer, 0, r, index);
      return MPI_SUCCESS;
    }
  return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                fmt::format("no integer kind has a range of {} digits", r));
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype) {
  return f90_real_kind(impi::pack::Combiner::f90_real, p, r, impi::pack::dt::real4,
                       impi::pack::dt::real8, "MPI_Type_create_f90_real", newtype);
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype) {
  return f90_real_kind(impi::pack::Combiner::f90_complex, p, r, impi::pack::dt::complex8,
                       impi::pack::dt::complex16, "MPI_Type_create_f90_complex", newtype);
}

// ---- Fortran statuses: MPI_F_STATUS_SIZE integers, MPI_Status's own layout.
static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status) {
  if (!c_status || !f_status)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_c2f",
                  "a status is NULL or MPI_STATUS_IGNORE");
  std::memcpy(f_status, c_status, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status) {
  if (!c_status || !f_status)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_f2c",
                  "a status is NULL or MPI_F_STATUS_IGNORE");
  std::memcpy(c_status, f_status, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

// ---- mpi_f08 statuses (MPI-4.1 19.3.5): the same six integers again.
static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status));

static int status_copy(const void *from, void *to, const char *fn) {
  if (!from || !to) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "a status is NULL or ignored");
  std::memcpy(to, from, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status) {
  return status_copy(f08_status, c_status, "MPI_Status_f082c");
}

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status) {
  return status_copy(c_status, f08_status, "MPI_Status_c2f08");
}

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status) {
  return status_copy(f08_status, f_status, "MPI_Status_f082f");
}

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status) {
  return status_copy(f_status, f08_status, "MPI_Status_f2f08");
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
  const char *fn = "MPI_Get_elements_x";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (!status || !count) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  MPI_Count bytes = status->impi_count;
  if (t->size() == 0) {
    *count = 0;
    return MPI_SUCCESS;
  }
  // Whole instances, then the predefined elements of the partial one.
  MPI_Count whole = bytes / t->size(), rest = bytes % t->size(), elements = whole * t->elements();
  for (const auto &s : t->segments()) {
    for (std::int64_t e = 0;
         e < s.count * impi::pack::elements_in(impi::pack::predefined(s.basic)) && rest > 0; ++e) {
      std::int64_t esz = element_bytes(s.basic, e);
      if (rest < esz) break;
      ++elements;
      rest -= esz;
    }
    if (rest <= 0) break;
  }
  *count = rest == 0 ? elements : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
  return PMPI_Get_elements_x(status, datatype, count);
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count) {
  MPI_Count c = 0;
  int rc = PMPI_Get_elements_x(status, datatype, &c);
  if (rc != MPI_SUCCESS) return rc;
  if (!count) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Get_elements", "count is NULL");
  *count = c > std::numeric_limits<int>::max() ? MPI_UNDEFINED : static_cast<int>(c);
  return MPI_SUCCESS;
}

// The count of whole `datatype` items in the status; MPI_UNDEFINED when
// the bytes are not a whole number of them.
static int get_count(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                     MPI_Count *count) {
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (!status || !count) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  MPI_Count bytes = status->impi_count;
  if (t->size() == 0)
    *count = bytes == 0 ? 0 : MPI_UNDEFINED;
  else
    *count = bytes % t->size() != 0 ? MPI_UNDEFINED : bytes / t->size();
  return MPI_SUCCESS;
}

// A count above INT_MAX is MPI_UNDEFINED here (MPI-4.0 3.2.5): never a
// truncated value.
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count) {
  MPI_Count n = 0;
  if (int rc = get_count("MPI_Get_count", status, datatype, &n); rc != MPI_SUCCESS) return rc;
  *count = n > std::numeric_limits<int>::max() ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
  return get_count("MPI_Get_count_c", status, datatype, count);
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count) {
  const char *fn = "MPI_Status_set_elements_x";
  TypePtr t;
  int rc;
  if (!get_type(datatype, fn, t, rc)) return rc;
  if (!status || count < 0) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad status or count");
  // Whole instances only are representable exactly for derived types;
  // elements of a predefined type map to bytes directly.
  if (t->elements() == 0) {
    status->impi_count = 0;
  } else if (count % t->elements() == 0) {
    status->impi_count = count / t->elements() * t->size();
  } else {
    MPI_Count whole = count / t->elements(), rest = count % t->elements(),
              bytes = whole * t->size();
    for (const auto &s : t->segments()) {
      for (std::int64_t e = 0;
           e < s.count * impi::pack::elements_in(impi::pack::predefined(s.basic)) && rest > 0;
           ++e, --rest)
        bytes += element_bytes(s.basic, e);
      if (rest == 0) break;
    }
    status->impi_count = bytes;
  }
  return MPI_SUCCESS;
}

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count) {
  return PMPI_Status_set_elements_x(status, datatype, count);
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count) {
  return PMPI_Status_set_elements_x(status, datatype, count);
}

}  // extern "C"

int impi::api::check_type(const char *fn, MPI_Comm comm, MPI_Datatype datatype, TypePtr &keep) {
  if (const auto *pre = lookup_predefined_type(datatype)) {
    keep = *pre;
    return MPI_SUCCESS;
  }
  auto ty = lookup_type(datatype);
  if (!ty) return report(comm, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!ty->committed) return report(comm, MPI_ERR_TYPE, fn, "the datatype is not committed");
  keep = std::move(ty->type);
  return MPI_SUCCESS;
}

#include "api/generated/datatypes_aliases.inc"
