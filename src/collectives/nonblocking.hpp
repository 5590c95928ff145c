// nonblocking.hpp - non-blocking collectives: each operation is the same
// coroutine (task.hpp) as its blocking form, kept alive and advanced by the
// progress engine's hook until it finishes. Operations on one communicator
// run one after another in the order they were started (as MPI requires
// all ranks to start them), so their messages match as the blocking ones'
// do; a blocking collective first waits for the communicator's queue.
#pragma once

#include "collectives/task.hpp"
#include "core/p2p.hpp"

namespace impi::collectives {

// Installs the progress hooks (MPI_Init): this file's, and the slot
// operations' (fast_native.hpp).
void install_progress_hook(core::P2P &p2p);
// Queues `t` on the communicator identified by `key`; the returned request
// completes when the operation has (status.error: 0, or kTruncated /
// kTransportError).
core::RequestPtr start_nonblocking(const void *key, core::P2P &p2p, Task t);
// Waits until every operation queued on `key` has finished.
void drain(const void *key, core::P2P &p2p);

}  // namespace impi::collectives
