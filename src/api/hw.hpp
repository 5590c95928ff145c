// hw.hpp - the hardware resource types of MPI_Get_hw_resource_info and
// MPI_COMM_TYPE_HW_GUIDED (hw.cpp).
#pragma once

namespace impi::api {

// For the hwloc resource type `type` ("Core", "L3Cache" ...): 1 and in
// *color the logical index of the one instance the calling process may run
// on, or MPI_UNDEFINED when it may run on several; 0: not a type of this
// machine; -1: hwloc could not read the topology.
int hw_resource_color(const char *type, int *color);

}  // namespace impi::api
