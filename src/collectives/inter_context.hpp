// inter_context.hpp - the context-id agreement of a communicator made from
// an intercommunicator (MPI_Comm_split, MPI_Comm_create, MPI_Comm_idup on
// one), and the exchange of per-rank entries that split and create need.
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

// The new context id (*cid): MAX of IMPI_max_cid (made odd) over both
// groups: an Allreduce in each group on its collective context, the
// leaders (rank 0) swap their groups' maxima, and each leader broadcasts
// the larger (IMPI 4.3's rule, as for intracommunicators; rounds repeat as
// collectives/context_id.hpp says). When `mine` is not empty,
// every rank's entries (mine.size() ints each) travel the same way: each
// rank ends with its group's table (`local_table`, by local rank) and the
// other group's (`remote_table`, by remote rank). `local` is the
// intercommunicator's own group (view_of), `remote` the other one
// (remote_view_of).
Task inter_agree(CommView local, CommView remote, std::vector<int> mine, int *cid,
                 std::vector<int> *local_table, std::vector<int> *remote_table);

}  // namespace impi::collectives
