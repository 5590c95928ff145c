// slurm.hpp - impirun inside a Slurm allocation (salloc, sbatch), as
// Open MPI's mpirun behaves there: the default process count is the
// allocation's task count, the hosts and their slots come from its node
// list and tasks per node, and other nodes' host agents start with srun.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "startup/launch_options.hpp"

namespace impi::startup {

// "n[1-3,07],m,x[2]" -> n1 n2 n3 n07 m x2 (Slurm's host list syntax, one
// bracket group per name). nullopt when malformed.
std::optional<std::vector<std::string>> expand_slurm_hostlist(const std::string &list);
// "2(x3),1" -> 2 2 2 1 (SLURM_TASKS_PER_NODE). nullopt when malformed.
std::optional<std::vector<int>> expand_slurm_counts(const std::string &counts);

struct SlurmAllocation {
  int ntasks = 0;
  std::vector<HostSlots> nodes;  // in the allocation's order, with their task counts
};

// The allocation impirun runs in, or nullopt outside one (or inside a job
// step, where srun already launched us). `lookup_env` reads variables.
std::optional<SlurmAllocation> slurm_allocation(const char *(*lookup_env)(const char *));

// The launch agent for other nodes of an allocation: srun, one task on
// the named node, sharing the allocation's resources with the job.
constexpr const char *kSrunAgent = "srun --overlap --mpi=none -N1 -n1 -w";

}  // namespace impi::startup
