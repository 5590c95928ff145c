// comm_internal.hpp - group and communicator helpers shared by comm.cpp,
// group.cpp, intercomm.cpp and dynamic.cpp (construction, checks).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/errc.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/criss_cross.hpp"
#include "core/communicator.hpp"
#include "mpi.h"

namespace impi::api::comm_shared {

using impi::core::Communicator;

// A group: an ordered list of world ranks (group.cpp).
struct Group {
  std::vector<int> world;
  std::uintptr_t session = 0;  // from MPI_Group_from_session_pset (handle value; 0: none)
};
// The group behind a handle; nullptr for invalid ones.
const Group *lookup_group(MPI_Group h);
// A new handle for a group (MPI_GROUP_EMPTY when `world` is empty).
// `session`: the session it derives from (a handle value; 0: none).
MPI_Group new_group(std::vector<int> world, std::uintptr_t session = 0);
int check_group(const char *fn, MPI_Group h, const Group *&g);

int my_world_rank();
// Rank of world index `w` in `world`, or MPI_UNDEFINED.
int rank_in(const std::vector<int> &world, int w);
// The IMPI client of world index `w` (procs of other jobs: ours).
int client_of(int w);
int check_comm(const char *fn, MPI_Comm h, Communicator *&c);
// A new intracommunicator over `world` (ordered), for the caller if it is in it.
MPI_Comm make_comm(const Communicator &parent, const std::vector<int> &world, int context);
MPI_Comm make_intercomm(const Communicator &parent, std::vector<int> local, std::vector<int> remote,
                        int context);
int fail(MPI_Comm comm, const char *fn, const impi::base::Status &s);
// MPI_Comm_dup's communicator alone: the same groups (and topology) on a
// new context agreed as IMPI 4.3 and 4.6 say, with the parent's error
// handler, but none of its attributes or info hints. `c` is `comm`'s.
int bare_dup(const char *fn, MPI_Comm comm, const Communicator &c, MPI_Comm *newcomm);

// ---- intercommunicators (IMPI 4.5, 4.6, 4.8, 4.9)
constexpr int kDupTag = 210, kMergeTag = 220;
using impi::collectives::kCommFreeTag;

// MPI_Comm_free's synchronization (IMPI 4.5): a barrier, on an
// intercommunicator by point-to-point (IMPI_COMM_FREE_TAG).
impi::base::Status free_barrier(const Communicator &c);
// The same in the background; MPI_Finalize waits for every one started
// (finish_free_barriers).
void start_free_barrier(const Communicator &c);
impi::base::Status finish_free_barriers();

// ---- constructors on intercommunicators (intercomm.cpp)
int inter_split(const char *fn, MPI_Comm comm, const Communicator &c, int color, int key,
                MPI_Comm *newcomm);
// `group`: the world ranks of the caller's group argument (a subset of its side).
int inter_create(const char *fn, MPI_Comm comm, const Communicator &c,
                 const std::vector<int> &group, MPI_Comm *newcomm);
// `with_info`/`hints`: as apply_dup_info's.
int inter_idup(MPI_Comm comm, Communicator &c, MPI_Comm *newcomm, MPI_Request *request,
               bool with_info = false, MPI_Info hints = MPI_INFO_NULL);
// A duplicate's info hints: the parent's, or (`with_info`, MPI_Comm_(i)dup_with_info)
// those of `hints` (MPI_INFO_NULL: none), which this frees.
void apply_dup_info(MPI_Comm parent, MPI_Comm dup, bool with_info, MPI_Info hints);

}  // namespace impi::api::comm_shared
