// placement.hpp - where a client's procs run on this machine: slots, the
// --nooversubscribe check, and per-rank CPU sets (hwloc), round robin over
// cores, hardware threads or sockets from --core-offset on.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

#include "base/errc.hpp"
#include "startup/launch_options.hpp"

namespace impi::startup {

// The machine's slots when --host/--hostfile give none: one per core
// (Open MPI's default), or per hardware thread when cores are unknown.
int machine_slots();

// Refuses more procs than slots when --nooversubscribe asks for it; the
// message says so as mpirun does. `np`: the procs of the whole machine.
base::Status check_oversubscription(const LaunchOptions &opts, int np);

// Refuses a client of opts.np procs whose shared-memory rings this
// machine cannot hold (transport/shm plan_rings), before anything starts;
// -x IMPI_SHM_RING_BYTES / IMPI_SHM_BUDGET_BYTES count as the procs see them.
base::Status check_shared_memory(const LaunchOptions &opts);

struct Placement {
  std::vector<cpu_set_t> sets;  // per local rank; empty when not binding
};

// Plans the binding of opts.np procs; with --report-bindings, prints one
// line per rank (world rank = world_offset + local rank) on stderr.
base::Result<Placement> plan_placement(const LaunchOptions &opts, int world_offset,
                                       const std::string &host);

}  // namespace impi::startup
