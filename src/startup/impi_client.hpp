// impi_client.hpp - the client side of IMPI startup (IMPI 2.3) and the
// host dance (2.3.8), for `impirun -client R HOST:PORT`.
//
// Blocking calls with deadlines: startup happens before the job runs, and
// every wait is bounded, so a silent server or peer becomes a clear error.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "startup/auth.hpp"
#include "startup/impi_job.hpp"
#include "startup/net.hpp"

namespace impi::startup {

// The dance (2.3.8) for global host `me`: connects (from `address`) to
// every lower host and sends its rank; accepts every higher one on
// `listener`, identified by the rank it sends. One channel per global host
// index (an invalid Fd for our own). `listener` is closed afterwards.
base::Result<std::vector<base::Fd>> dance_as_host(int me, base::Fd &listener,
                                                  const std::string &address, const ImpiJob &job,
                                                  net::Clock::time_point deadline);

class ImpiClient {
 public:
  // Connects to the server (binding to `address` when given), authenticates,
  // sends the client rank and waits for the job size.
  static base::Result<ImpiClient> join(const net::Endpoint &server, int rank,
                                       const std::string &address, const AuthConfig &auth,
                                       net::Clock::time_point deadline);

  // The address this client's host advertises and listens on.
  const std::string &address() const { return address_; }
  int nclients() const { return nclients_; }
  int rank() const { return rank_; }

  // Opens the host's listening socket (before H_PORT is sent).
  base::Result<std::uint16_t> listen();

  // Sends every label of `a` and DONE, collects the broadcasts until the
  // server's DONE, and derives the job.
  base::Result<ImpiJob> exchange(const ClientAdvert &a, net::Clock::time_point deadline);

  // The dance: connects to every lower host, accepts every higher one.
  // Returns one channel per global host index (invalid Fd for our own).
  base::Result<std::vector<base::Fd>> dance(const ImpiJob &job, net::Clock::time_point deadline);

  // After the job: FINI packets on every channel (3.8), then FINI to the
  // server. `close_channels` does the first part when given (the host
  // agent's channels live above this layer); exchange_fini() otherwise.
  using ChannelCloser =
      std::function<base::Status(std::vector<base::Fd> &, const ImpiJob &, net::Clock::time_point)>;
  base::Status finish(std::vector<base::Fd> &channels, const ImpiJob &job,
                      net::Clock::time_point deadline, const ChannelCloser &close_channels = {});

  int server_fd() const { return server_.get(); }

 private:
  ImpiClient() = default;
  base::Fd server_;
  base::Fd listener_;
  std::string address_;
  int rank_ = 0;
  int nclients_ = 0;
  std::string server_name_;  // "host:port", for messages
  wire::CmdReader reader_;
};

// Closes host channels with the FINI packet exchange (IMPI 3.8): send an
// IMPI_PK_FINI to each, then consume packets until the peer's FINI.
base::Status exchange_fini(std::vector<base::Fd> &channels, std::uint32_t maxdatalen,
                           net::Clock::time_point deadline);

}  // namespace impi::startup
