// rendezvous_server.hpp - `impirun -server N`: the IMPI rendezvous server.
//
// Listens on one TCP address, prints "ip:port" as its first and only
// stdout line, runs ServerCore over a libevent loop, and exits 0 after
// every client's FINI. Nonzero when the job failed: a client that
// disconnected before FINI, startup that did not complete in time.
#pragma once

#include <string>
#include <vector>

namespace impi::startup {

struct ServerOptions {
  int nclients = 0;
  int port = 0;                 // 0: any free port
  std::string address;          // empty: the machine's primary address
  std::string auth_list;        // -auth preference, empty: strongest first
  int join_timeout_s = 10;      // a connection must have joined by then
  int startup_timeout_s = 300;  // all clients must have sent DONE by then
  std::string appfile;          // -file F: also start the clients F lists (spec 2.2.3)
  std::vector<std::string>
      server_args;  // the -server arguments, less -file F (for the server child)
};

int run_server(const ServerOptions &o);

}  // namespace impi::startup
