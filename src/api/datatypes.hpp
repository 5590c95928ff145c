// datatypes.hpp - MPI_Datatype handles <-> pack::Datatype objects.
//
// Predefined handles (index 1..IMPI_DT_LAST_PREDEFINED) are fixed; derived
// types get indices from 64 up. A handle owns one reference to its type;
// MPI_Type_free drops it, while anything still using the type (a derived
// type built on it, a pending request) keeps its own reference.
// Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/handles.hpp"
#include "mpi.h"
#include "pack/datatype.hpp"
#include "pack/predefined.hpp"

namespace impi::api {

struct TypeRef {
  pack::TypePtr type;
  bool committed = false;
};

// A predefined (non-Fortran) type's table entry, or nullptr for any other
// handle (no reference counting: for hot paths).
inline const pack::TypePtr *lookup_predefined_type(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return nullptr;
  const std::uint32_t idx = handle_index(h);
  if (idx < 1 || idx >= pack::kNumPredefined) return nullptr;
  static const pack::TypePtr *const table = &pack::Datatype::predefined(0);  // (an array)
  return table + idx;
}

// The type behind a handle; nullopt for null, freed or wrong-kind handles.
std::optional<TypeRef> lookup_type(MPI_Datatype h);
// A new handle for a (derived) type; `committed` for types returned ready to use.
MPI_Datatype new_type_handle(pack::TypePtr t, bool committed = false);
bool commit_type(MPI_Datatype h);
bool free_type(MPI_Datatype h);  // false for predefined or invalid handles
// The handle of the MPI_Type_create_f90_* type (combiner c) with arguments
// p and r (p: 0 for f90_integer), predefined type `basic` inside: made,
// committed and named `name` on the first request, the same handle on
// every later one (MPI-3.1 17.1.9), never freed.
MPI_Datatype f90_type(pack::Combiner c, int p, int r, int basic, std::string_view name);
// A named predefined type or an f90 type (MPI_Type_free refuses both).
bool is_predefined_type(MPI_Datatype h);
bool set_type_name(MPI_Datatype h, std::string name);
std::optional<std::string> type_name(MPI_Datatype h);
// The handle of predefined type `index` of the pack layer.
MPI_Datatype predefined_handle(int index);
// A datatype argument, checked (valid, committed; else MPI_ERR_TYPE,
// reported for `fn` on `comm`): `keep` holds the type alive for the
// operation, however soon the user frees the handle.
int check_type(const char *fn, MPI_Comm comm, MPI_Datatype datatype, pack::TypePtr &keep);
// The same for calls without a communicator: false (and the reported
// error in rc) unless `h` names a live (and, if asked, committed) datatype.
bool get_type(MPI_Datatype h, const char *fn, pack::TypePtr &out, int &rc,
              bool need_commit = false);
// The same without reporting (for calls that report through another
// object's handler, a file's): nullptr, or why `h` is refused.
const char *find_type(MPI_Datatype h, pack::TypePtr &out, bool need_commit = false);
// False unless count is negative (then MPI_ERR_COUNT is reported into rc).
bool bad_count(MPI_Count count, const char *fn, int &rc);

}  // namespace impi::api
