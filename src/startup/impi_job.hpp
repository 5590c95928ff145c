// impi_job.hpp - what a client advertises at IMPI startup, and the job all
// clients agree on from the server's broadcasts (IMPI 2.3.5, 3.6, 3.9).
//
// Pure data and validation, no sockets: the rendezvous client feeds it the
// broadcasts it received. Broadcast contents come from other clients and
// are untrusted: every count and length is checked before use.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/errc.hpp"
#include "startup/wire/startup_protocol.hpp"

namespace impi::startup {

using wire::Ipv6;

// Defaults of the job-level tunables (documented in impirun --help).
constexpr std::uint32_t kDefaultDatalen = 65536;  // user bytes per packet: big enough for
                                                  // near-wire-speed TCP, small enough to interleave
constexpr std::int32_t kDefaultTagub = 2147483647;  // the largest the spec allows
constexpr std::uint32_t kDefaultAckmark = 10;       // as LAM/MPI
constexpr std::uint32_t kDefaultHiwater = 20;       // as LAM/MPI
constexpr std::int32_t kDefaultXsize = 1024;        // IMPI 0.0 default for -1
constexpr std::int32_t kDefaultMaxlinear = 4;       // IMPI 0.0 default for -1
constexpr std::int32_t kMinTagub = 32767;           // IMPI 3.9

struct HostAdvert {
  Ipv6 address{};
  std::uint32_t port = 0;
  std::uint32_t nprocs = 0;
  std::uint32_t ackmark = kDefaultAckmark;
  std::uint32_t hiwater = kDefaultHiwater;
};

struct ProcId {
  Ipv6 address{};        // P_IPV6
  std::int64_t pid = 0;  // P_PID, unique among procs sharing the address
  bool operator==(const ProcId &) const = default;
};

// What this client sends.
struct ClientAdvert {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> versions{{0, 0}};
  std::uint32_t datalen = kDefaultDatalen;
  std::int32_t tagub = kDefaultTagub;
  std::int32_t xsize = -1;      // -1: the protocol's default
  std::int32_t maxlinear = -1;  // -1: the protocol's default
  std::vector<HostAdvert> hosts;
  std::vector<ProcId> procs;  // host order
};

// Checks a client's own settings before anything is sent.
base::Status validate(const ClientAdvert &a);

// Every mandated label with its value, in ascending label order.
std::vector<std::pair<std::int32_t, wire::Bytes>> labels_of(const ClientAdvert &a);

struct JobHost {
  int client = 0;
  Ipv6 address{};
  std::uint32_t port = 0;
  std::uint32_t nprocs = 0;
  std::uint32_t ackmark = 0;
  std::uint32_t hiwater = 0;
  std::uint32_t first_proc = 0;  // world rank of its first proc
};

struct JobProc {
  int client = 0;
  int host = 0;  // global host index
  ProcId id;
};

// The job every client derives identically from the broadcasts.
struct ImpiJob {
  std::uint32_t version_major = 0, version_minor = 0;
  int nclients = 0;
  int my_client = 0;
  std::uint32_t maxdatalen = 0;  // min C_DATALEN
  std::int32_t tag_ub = 0;       // min C_TAGUB
  std::int32_t coll_xsize = 0;   // agreed, -1 resolved to the default
  std::int32_t coll_maxlinear = 0;
  std::uint32_t ackmark = 0;  // job-wide minimum of H_ACKMARK
  std::uint32_t hiwater = 0;  // job-wide minimum of H_HIWATER
  std::vector<std::uint32_t> client_nhosts, client_nprocs;
  // Bit c: client c listed impi's version wire::kVersionImpiWide. Typed
  // data between two such clients travels impi-wide, else external32.
  std::uint32_t wide_clients = 0;
  bool wide_between(int a, int b) const {
    return (wide_clients >> a & 1) && (wide_clients >> b & 1);
  }
  std::vector<JobHost> hosts;  // global host order
  std::vector<JobProc> procs;  // MPI_COMM_WORLD order

  // The host this agent (and its procs) runs: a global host index of
  // my_client's; -1 until set, meaning the client's first host.
  int my_host = -1;
  // How many hosts this impirun runs, from my_host on: 1, or one per proc
  // when this machine advertises each of its procs as a host of its own
  // (IMPI_SPLIT_HOSTS, docs/impi-data-path.md).
  int my_nhosts = 1;
  int host_of_me() const { return my_host >= 0 ? my_host : first_host_of(my_client); }
  // The procs this impirun runs: world ranks first_local_proc() onwards.
  std::uint32_t first_local_proc() const;
  std::uint32_t local_nprocs() const;
  int first_host_of(int client) const;
  // "host H (client C, ADDR:PORT)": how messages name a host.
  std::string host_name(std::size_t h) const;
  std::uint32_t world_offset(int client) const;  // first world rank of a client
  // One line per fact, identical on every proc of every client (for tests).
  std::string describe() const;
};

// Derives the job from the broadcasts (label -> broadcast) once DONE came.
base::Result<ImpiJob> derive_job(int nclients, int my_client,
                                 const std::map<std::int32_t, wire::CollBcast> &bcasts);

// Compact binary form handed to the procs (through PMIx); decoding is checked.
wire::Bytes encode_job(const ImpiJob &j);
base::Result<ImpiJob> decode_job(std::span<const std::byte> in);

}  // namespace impi::startup
