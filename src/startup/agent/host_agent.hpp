// host_agent.hpp - the host agent of `impirun -client` (docs/impi-data-path.md):
// a thread with its own libevent loop that owns the host channels (through
// transport's AgentRouter) for the whole job, and a Unix socket on which
// this host's procs connect their local links in MPI_Init (the link's
// records: transport/impi/agent_link.hpp).
//
// A proc's link is attached to the router, or, with direct channels
// (IMPI_AGENT_DIRECT, default on) on a host with a single proc, that proc
// gets the host channels from the dance and runs them itself (the same
// HostChannel code, src/core/impi/direct.cpp): a message to another client
// costs one TCP trip instead of three hand-offs. The agent keeps watching
// the server; the link stays open, carrying nothing, until the proc ends.
// After the job, close() has the router exchange FINI on every channel
// (IMPI 3.8) and reports how that went.
//
// When the job cannot go on (a peer host, the server or a watched
// connection is lost), the agent says why and makes end_event() readable:
// the launcher's loop (LocalJob) ends the job.
//
// Threading: the agent thread alone touches the router and the links; the
// main thread only starts it and, through a pipe, asks it to finish.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "startup/impi_job.hpp"
#include "startup/launcher.hpp"
#include "startup/net.hpp"

namespace impi::startup {

class HostAgent {
 public:
  HostAgent();
  HostAgent(const HostAgent &) = delete;
  HostAgent &operator=(const HostAgent &) = delete;
  ~HostAgent();

  // Takes the host channels of the dance: for each host this impirun runs
  // (job.my_nhosts, from job.host_of_me()), one per global host (invalid
  // for itself). Listens for the procs (IMPI_AGENT_SOCKET, which they
  // inherit) and starts the agent thread.
  base::Status start(std::vector<std::vector<base::Fd>> &channels, const ImpiJob &job);

  // Watches a connection that must stay open during the job: the IMPI
  // server's, and those between the hosts of a client on several machines
  // (call before start(); the agent thread's loop owns the events). They
  // carry nothing between the dance and the end, so readiness means the
  // other side closed or died: that ends the job like a lost peer host
  // (every client ends within seconds, naming what died). Bytes are only
  // peeked at, never consumed (the caller still owns the connection; bytes
  // mean the normal end has begun). `what`: "the IMPI server ADDR".
  void watch_server(int fd, std::string what);

  // Readable once the agent has ended the job (it has said why); valid
  // from construction on.
  int end_event() const;

  // After a failed job: ends the agent thread at once, without FINI (the
  // job is over; peers learn it from the closed channels), before the
  // caller closes the descriptors the thread watches.
  void stop();

  // Removes the socket and its directory (idempotent; any thread).
  void remove_socket();

  // After the procs: FINI on every channel, within `deadline`.
  base::Status close(net::Clock::time_point deadline);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The hooks through which run_client_job() and run_host_agent() use `agent`.
AgentHooks agent_hooks(HostAgent &agent);

}  // namespace impi::startup
