// launch_options.hpp - impirun's command line, parsed into plain data.
//
// Accepts the habits of Open MPI's mpirun and MPICH's mpiexec:
//   impirun -server N [-port P] [-auth LIST] [--address A]   the IMPI server
//   impirun -client R HOST:PORT [options] prog args          one IMPI client
//   impirun -np N --clients K prog args                      server + K clients here
//   impirun -np N | -n N | --np N      number of processes
//   --bind-to core|none                process binding (default: core, round
//                                      robin, several per core when oversubscribed)
//   --tag-output                       prefix each output line with [job,rank]<stream>:
//   --timestamp-output                 prefix each output line with the time
//   --stdin RANK|all|none              who reads impirun's stdin (default: rank 0)
//   -x VAR | -x VAR=value              export a variable to the procs
//   --timeout SECONDS                  end the job (nonzero exit) after this long
//                                      (default: $MPIEXEC_TIMEOUT, as mpirun and hydra)
//   --map-by core|slot|hwthread|socket place ranks round robin on these
//   --report-bindings                  print each rank's binding on stderr
//   --output-filename DIR              each rank's output in DIR/1/rank.R/stdout|stderr
//   --hostfile FILE, --host LIST       this machine only (slots: universe size)
//   --oversubscribe, --nooversubscribe more procs than cores: allowed by
//                                      default (as MPICH); refused with --nooversubscribe
//   --verbose / -v                     launcher diagnostics
//   --help / -h, --version / -V
//   [--] prog [args...]
//   ... prog1 [args] : -np M [-x V] [--wdir D] [--pset NAME] prog2 [args]
//                                      MPMD: one job of several programs (app
//                                      contexts), MPI_APPNUM 0, 1, ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "startup/rendezvous_server.hpp"

namespace impi::startup {

enum class BindPolicy { automatic, core, none };
enum class MapBy { core, hwthread, socket };

// Values a client advertises at IMPI startup (flags override IMPI_* variables).
struct ImpiSettings {
  std::int64_t datalen = 0, tag_ub = 0, coll_xsize = 0, coll_maxlinear = 0, ackmark = 0,
               hiwater = 0;
  std::string address;  // empty: the local address of the server connection
  int startup_timeout_s = 300;
};

struct ClientRole {
  int rank = 0;
  std::string server;  // "host:port"
};

// A host of --host/--hostfile: its name and slots.
struct HostSlots {
  std::string name;
  int slots = 1;
};

// `impirun --host-agent ADDR:PORT --host-token T ...` (started by an
// `impirun -client` whose client spans several hosts, through the launch
// agent): the host agent of one of its other hosts.
struct HostAgentRole {
  std::string coordinator;  // the client's impirun, "addr:port"
  std::string token;        // proves we were started by it
};

// Who reads impirun's stdin: one world rank (Open MPI's and MPICH's
// default: rank 0), every rank, or none (/dev/null).
struct StdinTarget {
  enum Kind { one, all, none } kind = one;
  int rank = 0;
};

// One app context of an MPMD command line (prog1 : prog2 ...): its own
// process count, program, variables, directory and process sets.
struct AppContext {
  int np = 1;
  std::vector<std::string> argv;   // program and its arguments
  std::vector<std::string> env;    // -x/-env given in this context
  std::string wdir;                // --wdir: "" = impirun's
  std::vector<std::string> psets;  // --pset NAME
  int appnum = -1;                 // (internal, --appnum: a client's slice of a job) -1: its index
};

// A process set of the whole job, in MPI_COMM_WORLD ranks (internal
// --world-pset NAME=r,r,...: impirun --clients gives each client all of them).
struct WorldPset {
  std::string name;
  std::vector<int> ranks;
};

struct LaunchOptions {
  int np = 0;                        // the whole job's (every app context's)
  int clients = 1;                   // --clients K: local server + K clients
  std::optional<ClientRole> client;  // -client R HOST:PORT
  ImpiSettings impi;
  int core_offset = 0;  // --core-offset: first core for binding
  int core_blocks = 0;  // --core-blocks N: ranks are procs core_offset.. of N, in blocks per core
  BindPolicy bind = BindPolicy::automatic;
  MapBy map_by = MapBy::core;
  bool report_bindings = false;
  std::string output_dir;               // --output-filename: "" = forward to our stdout/stderr
  int slots = 0;                        // --hostfile/--host slots on this machine (0: not given)
  std::vector<HostSlots> remote_hosts;  // -client only: other machines of this client, in order
  std::optional<HostAgentRole> host_agent;
  bool slurm = false;  // inside a Slurm allocation: its hosts; other hosts' agents through srun
  bool no_oversubscribe = false;  // --nooversubscribe
  bool tag_output = false;
  bool timestamp_output = false;
  StdinTarget stdin_target;
  bool verbose = false;
  int timeout_s = 0;              // 0 = no limit
  bool timeout_from_env = false;  // timeout_s came from MPIEXEC_TIMEOUT
  std::vector<std::string> env;   // "VAR=value" entries for the procs
  std::vector<std::string> argv;  // program and its arguments (the first app context's)
  std::vector<AppContext> apps;   // every app context, argv's first; np = their sum
  std::vector<WorldPset> world_psets;
};

// The process sets impirun defines for a job of these app contexts:
// impi://app/K for each, and each --pset name (its contexts' ranks).
std::vector<WorldPset> app_psets(const std::vector<AppContext> &apps, int first_rank = 0);

struct HelpRequest {};
struct VersionRequest {};
struct UsageError {
  std::string message;  // one line, no program name prefix
};

using ParsedCommandLine =
    std::variant<LaunchOptions, ServerOptions, HelpRequest, VersionRequest, UsageError>;

// Parses impirun's arguments (argv[0] excluded). `lookup_env` resolves
// `-x VAR` without a value; it returns nullptr when VAR is unset.
ParsedCommandLine parse_launch_options(const std::vector<std::string> &args,
                                       const char *(*lookup_env)(const char *));

// The options an `impirun -client` started for one client of `--clients K`
// needs to act as `opts` asks (everything but the IMPI roles, the process
// count and placement offsets, which the caller adds).
std::vector<std::string> forwarded_options(const LaunchOptions &opts);

// Whether a host name means this machine (localhost, 127.x, ::1, our name).
bool is_this_host(const std::string &h);

// The --help text.
const char *launch_usage();

}  // namespace impi::startup
