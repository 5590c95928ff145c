// pm_client.hpp - how an MPI process learns who it is and finds its peers.
//
// The MPI library is a PMIx client when a PMIx launcher started it (our
// impirun, Open MPI's mpirun, Slurm --mpi=pmix); otherwise it is a singleton
// (rank 0 of 1). Detection: PMIx's own environment variables
// (PMIX_NAMESPACE / PMIX_SERVER_URI*); when they are present but the server
// cannot be reached, that is an error, not a silent singleton.
//
// Threading: one ProcessManager per process, used from the thread that
// called MPI_Init. PMIx runs its own progress thread internally.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/errc.hpp"
#include "startup/impi_job.hpp"

namespace impi::startup {

// The PMIx job-level key under which an IMPI client hands its procs the
// IMPI job description (impi_job.hpp, encode_job).
constexpr const char *kImpiJobKey = "impi.job";

// The namespace of process set members that are MPI_COMM_WORLD ranks (what
// impirun --clients gives its clients): members in the proc's own
// namespace are ranks of its client's part of the world instead.
constexpr const char *kWorldPsetNspace = "impi.world";

// The life pipe: impirun gives each proc the write end of a pipe
// (IMPI_LIFE_FD) on which the library writes kLifeInit when MPI_Init has
// reached the launcher and kLifeFinalize when MPI_Finalize is about to
// leave it. impirun reads it when the proc ends, so an exit after
// MPI_Finalize is never mistaken for one without it, however late PMIx's
// notices come.
constexpr char kLifeInit = 'I';
constexpr char kLifeFinalize = 'F';

// A process set the launcher defines (MPI sessions), members as
// MPI_COMM_WORLD ranks in ascending order of the launcher's list.
struct LauncherPset {
  std::string name;
  std::vector<std::uint32_t> world_ranks;
};

struct JobInfo {
  std::string nspace;      // PMIx namespace ("singleton" when alone)
  std::uint32_t rank = 0;  // rank in the job (MPI_COMM_WORLD)
  std::uint32_t size = 1;  // job size
  std::uint32_t local_rank = 0;
  std::uint32_t local_size = 1;
  std::uint32_t universe_size = 0;  // MPI_UNIVERSE_SIZE (0: not known, the attribute is not set)
  std::uint32_t appnum = 0;
  std::string hostname;  // as the launcher names this node
  bool singleton = true;
  // MPI_COMM_WORLD: equal to rank/size, except in an IMPI job, where the
  // PMIx job is this client's part of the world.
  std::uint32_t world_rank = 0;
  std::uint32_t world_size = 1;
  std::optional<ImpiJob> impi;  // present in a job launched by `impirun -client`
};

// One program of MPI_Comm_spawn(_multiple).
struct SpawnSpec {
  std::string command;
  std::vector<std::string> argv;  // after the command
  int maxprocs = 1;
  std::vector<std::string> env;  // KEY=VALUE for the new procs
  std::string wdir;              // "" : the launcher's
};

class ProcessManager {
 public:
  virtual ~ProcessManager() = default;
  virtual const JobInfo &job() const = 0;
  // Publishes key=value for every peer of the job (visible after fence()).
  virtual base::Status put(std::string_view key, std::string_view value) = 0;
  // Job-wide barrier; with collect=true also exchanges everything put().
  virtual base::Status fence(bool collect) = 0;
  // Reads a value another rank put() before the last collecting fence.
  virtual base::Result<std::string> get(std::uint32_t rank, std::string_view key) = 0;
  // Asks the launcher to end the whole job with this exit code. Returns
  // only if the launcher could not be told (then the caller exits itself).
  virtual void abort(int code, std::string_view message) = 0;
  // Leaves the job cleanly. Idempotent.
  virtual base::Status finalize() = 0;
  // Dynamic processes, through the launcher. Errors: not_supported without
  // one (singleton), not_found for a program or name that does not exist.
  // spawn returns the new job's namespace.
  virtual base::Result<std::string> spawn(const std::vector<SpawnSpec> &apps) = 0;
  virtual base::Status publish(const std::string &key, const std::string &value) = 0;
  virtual base::Result<std::string> lookup(const std::string &key) = 0;
  virtual base::Status unpublish(const std::string &key) = 0;
  // The launcher's process sets (PMIx_Query_info: PMIX_QUERY_PSET_NAMES and
  // PMIX_QUERY_PSET_MEMBERSHIP); empty when it defines none or cannot say.
  // Sets with members outside MPI_COMM_WORLD are left out.
  virtual std::vector<LauncherPset> psets() { return {}; }
};

// True when the environment says a PMIx launcher started us.
bool launched_by_pmix();

// Connects to the launcher, or returns a singleton manager when there is none.
base::Result<std::unique_ptr<ProcessManager>> connect_process_manager();

}  // namespace impi::startup
