// client_job.cpp - impirun as an IMPI client: `impirun -client R HOST:PORT`
// (startup with the server, the host agents of the client's other hosts,
// the dance, this host's procs, the FINI exchanges) and `impirun
// --host-agent` (another host of such a client).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/host_agents.hpp"
#include "startup/impi_client.hpp"
#include "startup/launcher.hpp"
#include "startup/local_job.hpp"

namespace impi::startup {

namespace {
const char *lookup_env(const char *n) {
  return std::getenv(n);
}

// Authentication, the server's address and ours, then joining the server.
// `deadline`: the startup's, which starts once those are known.
base::Result<ImpiClient> join_server(const LaunchOptions &opts, net::Clock::time_point &deadline) {
  auto auth = auth_from_env(lookup_env);
  if (!auth) return {auth.error(), auth.message()};
  if (auth->mask() == 0) return {base::Errc::invalid_argument, std::string(kNoAuthMessage)};
  auto server = net::parse_endpoint(opts.client->server);
  if (!server) return {server.error(), server.message()};
  // --address may name the host: the IMPI wire carries its IP address.
  std::string address = opts.impi.address;
  if (!address.empty()) {
    auto ip = net::resolve_one(address);
    if (!ip) return {ip.error(), "--address: " + ip.message()};
    address = *ip;
  }
  deadline = net::Clock::now() + std::chrono::seconds(opts.impi.startup_timeout_s);
  return ImpiClient::join(*server, opts.client->rank, address, *auth, deadline);
}

// A client on several hosts: this machine is host 0; the agents of the
// others start now and report their addresses and ports (host_agents.hpp).
// `local` gets this host's share of the procs.
base::Result<std::vector<RemoteHost>> start_remotes(const LaunchOptions &opts,
                                                    const std::string &address,
                                                    net::Clock::time_point deadline,
                                                    LaunchOptions &local) {
  if (opts.remote_hosts.empty()) return std::vector<RemoteHost>{};
  auto counts = place_procs(opts.np, opts.slots, opts.remote_hosts);
  local.np = counts[0];
  char exe[4096] = {};
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  return start_host_agents(opts, opts.remote_hosts, counts, address, n > 0 ? exe : "impirun",
                           deadline);
}

// The IMPI hosts this machine runs (docs/impi-data-path.md, "Split
// hosts"): one for all its procs, whose agent funnels their packets; or,
// with 2 to IMPI_SPLIT_HOSTS procs and direct channels on, one per proc,
// each proc then running its own host's channels. Each has its address,
// listening socket and port.
struct LocalHosts {
  std::vector<std::string> address;
  std::vector<base::Fd> listener;  // (the coordinator's [0] is its ImpiClient's)
  std::vector<std::uint16_t> port;
  std::size_t size() const { return address.size(); }
};

base::Result<LocalHosts> open_hosts(ImpiClient &client, int count) {
  LocalHosts lh;
  auto port = client.listen();
  if (!port)
    return {port.error(), fmt::format("cannot listen on {}: {}", client.address(), port.message())};
  lh.address.push_back(client.address());
  lh.listener.emplace_back();  // (the client's)
  lh.port.push_back(*port);
  for (int i = 1; i < count; ++i) {
    std::string addr = split_address(client.address(), i);
    auto fd = net::listen_tcp(addr, 0);
    if (!fd) return {fd.error(), fmt::format("cannot listen on {}: {}", addr, fd.message())};
    auto ep = net::local_endpoint(fd->get());
    if (!ep) return {ep.error(), ep.message()};
    lh.address.push_back(addr);
    lh.listener.push_back(std::move(fd.value()));
    lh.port.push_back(ep->port);
  }
  return lh;
}

// What this client advertises: its values, each host (ours first) and
// every proc.
base::Result<ClientAdvert> make_advert(const LaunchOptions &opts, const LocalHosts &lh,
                                       const std::vector<RemoteHost> &remotes) {
  ClientAdvert a;
  a.datalen = static_cast<std::uint32_t>(opts.impi.datalen);
  a.tagub = static_cast<std::int32_t>(opts.impi.tag_ub);
  a.xsize = static_cast<std::int32_t>(opts.impi.coll_xsize);
  a.maxlinear = static_cast<std::int32_t>(opts.impi.coll_maxlinear);
  // IMPI_C_VERSION: 0.0, and impi-wide unless told to act as a client
  // that is not impi (docs/data-representation.md).
  if (base::get_int("wide_datarep") != 0) a.versions.push_back(wire::kVersionImpiWide);
  HostAdvert h;
  h.ackmark = static_cast<std::uint32_t>(opts.impi.ackmark);
  h.hiwater = static_cast<std::uint32_t>(opts.impi.hiwater);
  // P_PID: unique among procs sharing an address, across clients on one
  // machine too: our own pid (unique here) and the local index.
  const auto per_host = static_cast<int>(opts.np / static_cast<int>(lh.size()));
  for (std::size_t i = 0; i < lh.size(); ++i) {
    auto addr = wire::parse_address(lh.address[i]);
    if (!addr) return {addr.error(), addr.message()};
    h.address = *addr;
    h.port = lh.port[i];
    h.nprocs = static_cast<std::uint32_t>(per_host);
    a.hosts.push_back(h);
    for (int r = 0; r < per_host; ++r) {
      auto local = static_cast<std::int64_t>(i) * per_host + r;
      a.procs.push_back({*addr, (static_cast<std::int64_t>(::getpid()) << 20) + local});
    }
  }
  for (const auto &rh : remotes) {
    if (!rh.more.empty()) {  // split hosts: one proc each
      HostAdvert x = h;
      x.nprocs = 1;
      std::vector<std::pair<std::string, std::uint32_t>> all{{rh.address, rh.port}};
      all.insert(all.end(), rh.more.begin(), rh.more.end());
      for (std::size_t i = 0; i < all.size(); ++i) {
        auto raddr = wire::parse_address(all[i].first);
        if (!raddr) return {raddr.error(), fmt::format("host {}: {}", rh.name, raddr.message())};
        x.address = *raddr;
        x.port = all[i].second;
        a.hosts.push_back(x);
        a.procs.push_back({*raddr, (rh.pid << 20) + static_cast<std::int64_t>(i)});
      }
      continue;
    }
    auto raddr = wire::parse_address(rh.address);
    if (!raddr) return {raddr.error(), fmt::format("host {}: {}", rh.name, raddr.message())};
    HostAdvert x = h;
    x.address = *raddr;
    x.port = rh.port;
    x.nprocs = static_cast<std::uint32_t>(rh.nprocs);
    a.hosts.push_back(x);
    for (int r = 0; r < rh.nprocs; ++r) a.procs.push_back({*raddr, (rh.pid << 20) + r});
  }
  return a;
}

// The job, negotiated with the server, and handed to our other hosts.
base::Result<ImpiJob> negotiate(ImpiClient &client, const ClientAdvert &a, int nlocal,
                                std::vector<RemoteHost> &remotes, net::Clock::time_point deadline) {
  auto job = client.exchange(a, deadline);
  if (!job) return {job.error(), fmt::format("IMPI startup failed: {}", job.message())};
  job->my_host = job->first_host_of(job->my_client);
  job->my_nhosts = nlocal;
  int at = job->my_host + nlocal;  // each remote machine's first host
  for (auto &rh : remotes) {
    if (auto s = send_job(rh, *job, at, deadline); !s.ok())
      return {s.error(), fmt::format("host {}: {}", rh.name, s.message())};
    at += 1 + static_cast<int>(rh.more.size());
  }
  return job;
}

// The dance for each of our hosts, at once (each accepts its higher hosts
// while it connects to its lower ones, ours included): their channels, by
// local host.
// (`client`: the first host's listener is the ImpiClient's; null on another
// machine of the client, whose listeners are all in `lh`.)
base::Result<std::vector<std::vector<base::Fd>>> dance_all(ImpiClient *client, LocalHosts &lh,
                                                           const ImpiJob &job,
                                                           net::Clock::time_point deadline) {
  std::vector<std::vector<base::Fd>> out;
  if (lh.size() == 1 && client) {
    auto ch = client->dance(job, deadline);
    if (!ch) return {ch.error(), ch.message()};
    out.push_back(std::move(ch.value()));
    return out;
  }
  std::vector<std::optional<base::Result<std::vector<base::Fd>>>> got(lh.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < lh.size(); ++i)
    threads.emplace_back([&, i] {
      got[i] = i == 0 && client ? client->dance(job, deadline)
                                : dance_as_host(job.my_host + static_cast<int>(i), lh.listener[i],
                                                lh.address[i], job, deadline);
    });
  for (auto &t : threads) t.join();
  for (auto &g : got) {
    if (!g->ok()) return {g->error(), g->message()};
    out.push_back(std::move(g->value()));
  }
  return out;
}

// This host's part of an IMPI job, once the dance is done: the host agent
// (watching `watched`: descriptors that must stay open, and what they are)
// and our procs. Stops the agent without FINI when the procs failed.
// Returns their exit status (1: the agent could not start).
int run_this_host(const LaunchOptions &opts, ImpiJob &job,
                  std::vector<std::vector<base::Fd>> &channels, const AgentHooks &agent,
                  const std::vector<std::pair<int, std::string>> &watched) {
  // While the procs run, LocalJob's loop handles termination signals (it
  // passes them on). Once they are gone, what is left (the FINI exchanges)
  // is bounded by a deadline, and a late SIGTERM from a supervisor must not
  // replace our status: libevent restores the disposition it found, so
  // ignoring the signals now makes them ignored after the loop, in every
  // thread (PMIx's too). The procs get default dispositions back at fork.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(sig, SIG_IGN);
  if (agent.start) {
    if (agent.watch_server)
      for (const auto &[fd, what] : watched) agent.watch_server(fd, what);
    if (auto s = agent.start(channels, job); !s.ok()) {
      base::log_error("the host agent could not start: {}", s.message());
      return 1;
    }
  }
  int rc = 0;
  {
    local::LocalJob local(opts, &job, agent.end_event ? agent.end_event() : -1);
    rc = local.run();
  }
  if (rc != 0 && agent.stop) agent.stop();
  return rc;
}

int fail(const std::string &message) {
  base::log_error("{}", message);
  return 1;
}
}  // namespace

int run_client_job(const LaunchOptions &opts_in, const AgentHooks &agent) {
  if (opts_in.verbose) base::set_log_level(base::Level::debug);
  base::set_log_prefix(fmt::format("impirun[client {}]", opts_in.client->rank));
  ::signal(SIGPIPE, SIG_IGN);
  net::Clock::time_point deadline;
  auto client = join_server(opts_in, deadline);
  if (!client) return fail(client.message());
  LaunchOptions opts = opts_in;
  auto started = start_remotes(opts_in, client->address(), deadline, opts);
  if (!started) return fail(started.message());
  std::vector<RemoteHost> remotes = std::move(started.value());
  struct EndRemotes {  // whatever happens, no agent outlives us unreaped
    std::vector<RemoteHost> &r;
    bool failed = true;
    ~EndRemotes() { end_host_agents(r, failed); }
  } end_remotes{remotes};
  auto hosts = open_hosts(*client, split_count(opts.np, static_cast<bool>(agent.start)));
  if (!hosts) return fail(hosts.message());
  auto advert = make_advert(opts, *hosts, remotes);
  if (!advert) return fail(advert.message());
  const int nlocal = static_cast<int>(hosts->size());
  auto job = negotiate(*client, *advert, nlocal, remotes, deadline);
  if (!job) return fail(job.message());
  base::log_debug("startup complete: {} clients, {} procs, world ranks {}..{} are ours",
                  job->nclients, job->procs.size(), job->world_offset(job->my_client),
                  job->world_offset(job->my_client) + static_cast<std::uint32_t>(opts_in.np) - 1);
  auto channels = dance_all(&*client, *hosts, *job, deadline);
  if (!channels) return fail(channels.message());
  std::vector<std::pair<int, std::string>> watched{
      {client->server_fd(), "the IMPI server " + opts.client->server}};
  for (auto &rh : remotes) watched.emplace_back(rh.ctl.get(), "the agent of host " + rh.name);
  if (int rc = run_this_host(opts, *job, *channels, agent, watched); rc != 0)
    return rc;  // no FINI: the server reports our failure
  // Our channels' FINI, then every other host's DONE, then the server's FINI.
  auto s =
      client->finish((*channels)[0], *job, net::Clock::now() + std::chrono::seconds(30),
                     [&](std::vector<base::Fd> &ch, const ImpiJob &j, net::Clock::time_point dl) {
                       base::Status st = agent.close ? agent.close(ch, j, dl) : base::Status{};
                       if (st.ok() && !remotes.empty()) st = wait_done(remotes, dl);
                       return st;
                     });
  if (!s.ok()) return fail(fmt::format("shutdown: {}", s.message()));
  end_remotes.failed = false;
  return 0;
}

// `impirun --host-agent ADDR:PORT --host-token T -np N -- prog`: the agent
// and procs of one more host of a client (host_agents.hpp).
int run_host_agent(const LaunchOptions &opts, const AgentHooks &agent) {
  if (opts.verbose) base::set_log_level(base::Level::debug);
  ::signal(SIGPIPE, SIG_IGN);
  auto deadline = net::Clock::now() + std::chrono::seconds(opts.impi.startup_timeout_s);
  const int nhosts = split_count(opts.np, static_cast<bool>(agent.start));
  auto link = contact_coordinator(*opts.host_agent, nhosts, deadline);
  if (!link) return fail(link.message());
  auto job = receive_job(link->ctl.get(), deadline);
  if (!job) return fail(job.message());
  base::set_log_prefix(fmt::format("impirun[client {} host {}]", job->my_client, job->my_host));
  if (job->my_nhosts != nhosts || job->local_nprocs() != static_cast<std::uint32_t>(opts.np))
    return fail(fmt::format("the job gives this machine {} hosts with {} procs, not {} with {}",
                            job->my_nhosts, job->local_nprocs(), nhosts, opts.np));
  LocalHosts lh;
  lh.address = link->addresses;
  lh.listener = std::move(link->listeners);
  lh.port.assign(lh.address.size(), 0);  // (advertised already)
  auto danced = dance_all(nullptr, lh, *job, deadline);
  if (!danced) return fail(danced.message());
  std::vector<std::vector<base::Fd>> channels = std::move(danced.value());
  if (int rc = run_this_host(
          opts, *job, channels, agent,
          {{link->ctl.get(), "the client's impirun at " + opts.host_agent->coordinator}});
      rc != 0) {
    send_done(link->ctl.get(), false);
    return rc;
  }
  base::Status s =
      agent.close ? agent.close(channels[0], *job, net::Clock::now() + std::chrono::seconds(30))
                  : base::Status{};
  if (!s.ok()) base::log_error("shutdown: {}", s.message());
  send_done(link->ctl.get(), s.ok());
  return s.ok() ? 0 : 1;
}

}  // namespace impi::startup
