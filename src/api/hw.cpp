// hw.cpp - MPI-4.1's hardware resource information (MPI_Get_hw_resource_info)
// and the hardware resource types MPI_COMM_TYPE_HW_GUIDED splits by, both
// from hwloc and the calling process's CPU binding at the moment of the call.
//
// The info object has one key per resource type: "mpi_shared_memory" (the
// procs of one impirun host, as MPI_COMM_TYPE_SHARED) and hwloc's object
// types present on this machine ("Package", "NUMANode", "L3Cache",
// "L2Cache", "L1Cache", "Core", "PU"; "Machine" too). Each value is the
// number of instances of that resource the process may run on now ("1":
// restricted to one, as after --bind-to core). HW_GUIDED accepts each key
// as its mpi_hw_resource_type: the procs restricted to one instance are
// split by it (within their shared-memory domain), the others get
// MPI_COMM_NULL (MPI-4.0 7.4.2).
#include "api/hw.hpp"

#include <fmt/core.h>
#include <hwloc.h>

#include <memory>
#include <string>
#include <vector>

#include "api/errors.hpp"
#include "mpi.h"

using impi::api::check_initialized;
using impi::api::report;

namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDeleter>;
struct BitmapDeleter {
  void operator()(hwloc_bitmap_s *b) const { hwloc_bitmap_free(b); }
};
using BitmapPtr = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

// The types reported, outermost first.
constexpr hwloc_obj_type_t kTypes[] = {HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
                                       HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
                                       HWLOC_OBJ_CORE,    HWLOC_OBJ_PU};

struct Machine {
  TopologyPtr topo;
  BitmapPtr bound;  // where the process may run now
};

bool load(Machine &m) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return false;
  m.topo.reset(raw);
  if (hwloc_topology_load(raw) != 0) return false;
  m.bound.reset(hwloc_bitmap_alloc());
  if (!m.bound) return false;
  if (hwloc_get_cpubind(raw, m.bound.get(), HWLOC_CPUBIND_PROCESS) != 0 ||
      hwloc_bitmap_iszero(m.bound.get()))
    hwloc_bitmap_copy(m.bound.get(), hwloc_topology_get_topology_cpuset(raw));
  return true;
}

// The instances of `type` the process may run on: how many, and the
// logical index of the first.
struct Count {
  int n = 0;
  int first = -1;
};
Count instances(const Machine &m, hwloc_obj_type_t type) {
  Count c;
  const int all = hwloc_get_nbobjs_by_type(m.topo.get(), type);
  for (int i = 0; i < all; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(m.topo.get(), type, static_cast<unsigned>(i));
    if (!o || !o->cpuset || !hwloc_bitmap_intersects(o->cpuset, m.bound.get())) continue;
    if (c.n++ == 0) c.first = static_cast<int>(o->logical_index);
  }
  return c;
}

}  // namespace

namespace impi::api {

int hw_resource_color(const char *type, int *color) {
  Machine m;
  if (!load(m)) return -1;
  for (hwloc_obj_type_t t : kTypes) {
    if (std::string_view(hwloc_obj_type_string(t)) != type) continue;
    if (hwloc_get_nbobjs_by_type(m.topo.get(), t) <= 0) return 0;
    Count c = instances(m, t);
    *color = c.n == 1 ? c.first : MPI_UNDEFINED;
    return 1;
  }
  return 0;
}

}  // namespace impi::api

extern "C" {

int PMPI_Get_hw_resource_info(MPI_Info *hw_info) {
  const char *fn = "MPI_Get_hw_resource_info";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!hw_info) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "hw_info is NULL");
  Machine m;
  if (!load(m))
    return report(MPI_COMM_NULL, MPI_ERR_OTHER, fn, "hwloc could not read the machine's topology");
  MPI_Info info;
  if (int rc = PMPI_Info_create(&info); rc != MPI_SUCCESS) return rc;
  PMPI_Info_set(info, "mpi_shared_memory", "1");
  for (hwloc_obj_type_t t : kTypes) {
    if (hwloc_get_nbobjs_by_type(m.topo.get(), t) <= 0) continue;
    PMPI_Info_set(info, hwloc_obj_type_string(t), std::to_string(instances(m, t).n).c_str());
  }
  *hw_info = info;
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/hw_aliases.inc"
