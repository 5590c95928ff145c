// launcher.hpp - impirun's local mode: run one job of N processes here.
//
// The launcher hosts an OpenPMIx server (the processes are its clients),
// forks the processes, forwards their output line by line, binds them to
// cores when asked, and decides the job's exit status (exit_policy.hpp).
// A process that fails or calls MPI_Abort ends the whole job: the others
// get SIGTERM, then SIGKILL after the kill_grace_ms tunable.
//
// Threading: run_local_job() owns the calling thread (a libevent loop).
// PMIx module callbacks run on PMIx's progress thread; they only post
// events to that loop.
#pragma once

#include <functional>
#include <vector>

#include "startup/impi_client.hpp"
#include "startup/launch_options.hpp"
#include "startup/rendezvous_server.hpp"

namespace impi::startup {

// Runs the job to completion; returns the launcher's exit status. After a
// failed job PMIx may still run threads: the caller must leave with _exit().
int run_local_job(const LaunchOptions &opts);

// `impirun -client R HOST:PORT`: IMPI startup with the server, the dance,
// then the local procs as this client's part of MPI_COMM_WORLD, then the
// FINI exchanges. Returns the exit status.
// The host agent lives above this layer (transport); impirun hands it in:
//  - start: after the dance, before the procs start; it takes the channels
//    and makes itself reachable by the procs (the environment they inherit);
//  - close: after the procs exit; FINI on the channels (its result decides
//    our exit status, and whether we send FINI to the server).
// Empty hooks: no agent, startup's own FINI exchange.
struct AgentHooks {
  // (channels: per host this impirun runs, one per global host)
  std::function<base::Status(std::vector<std::vector<base::Fd>> &, const ImpiJob &)> start;
  ImpiClient::ChannelCloser close;
  // Optional: watch the server connection (fd, "address") during the job.
  std::function<void(int, std::string)> watch_server;
  // Optional: after a failed job, end the agent without FINI (before the
  // server connection it watches is closed).
  std::function<void()> stop;
  // Optional: a descriptor that becomes readable when the agent ends the
  // job (a peer host or the server is lost; it has said why). The
  // launcher's loop watches it while the procs run.
  std::function<int()> end_event;
};
int run_client_job(const LaunchOptions &opts, const AgentHooks &agent = {});
// `impirun --host-agent ...`: another host of a client (host_agents.hpp).
int run_host_agent(const LaunchOptions &opts, const AgentHooks &agent);

// `impirun -np N --clients K`: a server and K clients on this machine.
int run_multi_client_job(const LaunchOptions &opts, const char *self_exe);

// `impirun -server N -file F` (IMPI 2.2.3): the server, and the clients F
// lists, started here or through $IMPI_LAUNCH_AGENT; supervised together.
int run_appfile_job(const ServerOptions &o, const char *self_exe);

}  // namespace impi::startup
