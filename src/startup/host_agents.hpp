// host_agents.hpp - an IMPI client on several hosts (issue 11): the
// client's impirun (the coordinator, host 0 of the client) starts one
// `impirun --host-agent` per other host through the launch agent
// ($IMPI_LAUNCH_AGENT, default ssh), and each reports to it over a TCP
// control connection:
//
//   agent -> coordinator  "HELLO <token> <address> <port> <pid>[ <address>
//                         <port>]...\n" (a token per host, on its command
//                         line; its address: the local side of this
//                         connection; its port: where it accepts the dance;
//                         the pairs after the pid: the further split hosts
//                         of a machine that runs one host per proc)
//   coordinator -> agent  "JOB <n>\n" + n bytes: the IMPI job (encode_job,
//                         with the agent's own host as my_host)
//   agent -> coordinator  "DONE <0|1>\n" once its procs ended and its
//                         channels exchanged FINI
//
// Either side closing the connection early ends the other's part of the
// job (the host agents watch it like the server connection). Each host
// runs its own procs with its own PMIx server; procs on different hosts of
// the client talk through their host agents' channels, as procs of
// different clients do (the dance connects every pair of hosts, 2.3.8).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "startup/impi_job.hpp"
#include "startup/launch_options.hpp"
#include "startup/net.hpp"

namespace impi::startup {

// Where `np` procs go: one on every host (IMPI hosts have procs), then
// this machine (`local_slots`) first and the other hosts in order up to
// their slots; what is left round robin over all of them.
// Returns the count per host, this machine's first.
std::vector<int> place_procs(int np, int local_slots, const std::vector<HostSlots> &remote);

// Whether a host's only proc may run its host channels itself (direct
// channels: IMPI_AGENT_DIRECT on, no IMPI_AGENT_TRACE); the host agent and
// split_count ask the same.
bool direct_channels_on();
// Split hosts (docs/impi-data-path.md): how many IMPI hosts a machine with
// `np` procs advertises, one, or one per proc (2 to IMPI_SPLIT_HOSTS procs,
// direct channels on, and a host agent to hand them over).
int split_count(int np, bool have_agent);
// Split host i's address: on loopback (127.b.c.d) a distinct one per host,
// 127.(b+i).c.d, because a peer may tell hosts apart by the source address
// of their connections (LAM/MPI does); elsewhere `first` itself.
std::string split_address(const std::string &first, int i);

struct RemoteHost {
  std::string name;
  int nprocs = 0;
  pid_t launcher = -1;  // the launch agent's process (ours)
  base::Fd ctl;
  std::string address;  // its IMPI address and dance port, from its HELLO
  std::uint32_t port = 0;
  // Split hosts: the machine's further hosts, one proc each (its first
  // host, above, has one proc too then).
  std::vector<std::pair<std::string, std::uint32_t>> more;
  std::int64_t pid = 0;  // its impirun's pid (unique P_PID values)
};

// Coordinator: starts the agents of `remote` (with `counts[i]` procs) and
// waits for each one's HELLO. `bind` is our address (the agents connect to
// it); `self_exe` the impirun to run there.
base::Result<std::vector<RemoteHost>> start_host_agents(
    const LaunchOptions &opts, const std::vector<HostSlots> &remote, const std::vector<int> &counts,
    const std::string &bind, const std::string &self_exe, net::Clock::time_point deadline);
// Sends host `h` its copy of the job (my_host = `host_index`, and its
// split hosts after it).
base::Status send_job(RemoteHost &h, ImpiJob job, int host_index, net::Clock::time_point deadline);
// After our own FINI: every agent's DONE; an error names the first failure.
base::Status wait_done(std::vector<RemoteHost> &hosts, net::Clock::time_point deadline);
// Ends the agents' launchers (after a failure) and reaps them.
void end_host_agents(std::vector<RemoteHost> &hosts, bool kill_them);

// Agent side: connects to the coordinator, opens the dance listener of
// each of its `nhosts` hosts (split_count) on the address that connection
// uses (split_address), says HELLO.
struct CoordinatorLink {
  base::Fd ctl;
  std::vector<base::Fd> listeners;  // by local host
  std::vector<std::string> addresses;
};
base::Result<CoordinatorLink> contact_coordinator(const HostAgentRole &role, int nhosts,
                                                  net::Clock::time_point deadline);
base::Result<ImpiJob> receive_job(int ctl, net::Clock::time_point deadline);
void send_done(int ctl, bool ok);

}  // namespace impi::startup
