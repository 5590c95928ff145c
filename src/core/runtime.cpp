#include "core/runtime.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "transport/impi/agent_link.hpp"
#include "transport/shm/cma.hpp"

namespace impi::core {

using base::Errc;

Runtime &Runtime::create() {
  // Never destroyed: exit() must not tear down PMIx behind the program's back.
  static Runtime *rt = [] {
    auto *r = new Runtime;
    instance_.store(r, std::memory_order_release);
    return r;
  }();
  return *rt;
}

base::Result<int> Runtime::init(int required) {
  if (state_ == State::initialized) return {Errc::invalid_argument, "MPI is already initialized"};
  if (state_ == State::finalized)
    return {Errc::invalid_argument, "MPI cannot be initialized again after MPI_Finalize"};
  base::set_log_level(
      static_cast<base::Level>(std::clamp<std::int64_t>(base::get_int("verbose") + 1, 1, 3)));
  auto pm = startup::connect_process_manager();
  if (!pm) return {pm.error(), pm.message()};
  pm_ = std::move(pm.value());
  const auto &j = pm_->job();
  base::set_log_prefix(fmt::format("impi[rank {}]", j.world_rank));
  processor_name_ = j.hostname;
  main_thread_ = std::this_thread::get_id();
  thread_level_ = std::clamp(required, kThreadSingle, kThreadMaxProvided);
  g_atomic_request_refs = thread_level_ == kThreadMultiple;
  if (thread_level_ == kThreadMultiple) p2p_.enable_threads();
  p2p_.set_identity(
      fmt::format("{}@{}", j.singleton ? fmt::format("singleton-{}", ::getpid()) : j.nspace,
                  j.hostname),
      static_cast<int>(j.world_rank), static_cast<int>(j.world_size), j.hostname);

  if (auto s = exchange_cards(); !s.ok()) {
    p2p_.shm().unlink_segment();  // leave nothing in /dev/shm
    return {s.error(), s.message()};
  }
  if (j.impi && j.impi->hosts.size() > 1) {  // other hosts: through the IMPI agent
    if (auto s = connect_agent(j.world_rank); !s.ok()) return {s.error(), s.message()};
    std::vector<transport::wire::ProcId> ids;
    for (const auto &p : j.impi->procs) {
      transport::wire::ProcId id;
      std::copy(p.id.address.begin(), p.id.address.end(), id.host.begin());
      id.pid = p.id.pid;
      ids.push_back(id);
    }
    std::vector<bool> native_clients = base::get_index_set("native_order_clients");
    std::vector<transport::wire::ProcId> native;
    for (std::size_t r = 0; r < ids.size(); ++r) {
      auto c = static_cast<std::size_t>(j.impi->procs[r].client);
      if (c < native_clients.size() && native_clients[c]) native.push_back(ids[r]);
    }
    p2p_.impi().set_native_order(std::move(native));
    // impi-wide with every proc of a client that advertised it as we did;
    // external32 with the others (docs/data-representation.md).
    std::vector<transport::wire::ProcId> ext32_only;
    for (std::size_t r = 0; r < ids.size(); ++r)
      if (!j.impi->wide_between(j.impi->my_client, j.impi->procs[r].client))
        ext32_only.push_back(ids[r]);
    p2p_.impi().set_external32_only(std::move(ext32_only));
    p2p_.attach_agent(std::move(agent_), j.impi->maxdatalen, std::move(ids));
    if (!direct_.empty()) {
      if (auto s = attach_direct(*j.impi); !s.ok()) return {s.error(), s.message()};
    }
  }

  world_.rank = static_cast<int>(j.world_rank);
  world_.size = static_cast<int>(j.world_size);
  world_.context_id = 0;
  world_.name = "MPI_COMM_WORLD";
  for (int r = 0; r < world_.size; ++r) {
    world_.world.push_back(r);
    world_.client.push_back(j.impi ? j.impi->procs[static_cast<std::size_t>(r)].client : 0);
  }
  world_.note_clients();
  world_.note_hosts([this](int w) { return p2p_.reachable(w); });
  world_.set_routes([this](int w) { return p2p_.route(w); });
  self_.rank = 0;
  self_.size = 1;
  self_.context_id = 2;  // never on the IMPI wire: self-sends stay in the proc
  self_.name = "MPI_COMM_SELF";
  self_.world = {world_.rank};
  self_.client = {world_.client[static_cast<std::size_t>(world_.rank)]};
  self_.set_routes([this](int w) { return p2p_.route(w); });
  state_ = State::initialized;
  if (j.impi && base::get_int("show_job") != 0) {
    // One write, so lines of different procs do not interleave.
    std::string out;
    std::string d = j.impi->describe();
    for (std::size_t at = 0; at < d.size();) {
      auto nl = d.find('\n', at);
      out += fmt::format("impi-job[{}] {}\n", j.world_rank, d.substr(at, nl - at));
      at = nl + 1;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
  }
  return thread_level_;
}

base::Status Runtime::exchange_cards() {
  const auto &j = pm_->job();
  ContactCard mine{j.hostname, static_cast<std::int64_t>(::getpid()), {}};
  if (!j.singleton) {
    // Our receive segment exists before anyone can learn its name.
    auto name = p2p_.create_segment(j.nspace, static_cast<int>(j.rank), static_cast<int>(j.size));
    if (!name) return {name.error(), "shared memory: " + name.message()};
    mine.shm = *name;
    mine.cma = transport::shm::cma_probe_address();
  }
  if (auto s = pm_->put("impi.card", mine.encode()); !s.ok()) return s;
  if (auto s = pm_->fence(true); !s.ok()) {
    if (s.error() == Errc::peer_died) wait_for_teardown();
    return s;
  }
  peers_.clear();
  peers_.reserve(j.size);
  for (std::uint32_t r = 0; r < j.size; ++r) {
    if (r == j.rank) {
      peers_.push_back(mine);
      continue;
    }
    auto raw = pm_->get(r, "impi.card");
    if (!raw)
      return {raw.error(), fmt::format("no contact card from rank {}: {}", r, raw.message())};
    auto card = ContactCard::decode(*raw);
    if (!card)
      return {card.error(), fmt::format("bad contact card from rank {}: {}", r, card.message())};
    peers_.push_back(std::move(card.value()));
  }
  // Procs on other hosts are reached only through an IMPI client's host
  // agents (impirun); a PMIx launcher that spreads one job over several
  // hosts (srun --mpi=pmix -N2) gives them no path.
  if (!j.impi)
    for (std::uint32_t r = 0; r < j.size; ++r)
      if (peers_[r].host != mine.host)
        return {Errc::not_supported,
                fmt::format("rank {} runs on host {}, this rank on {}: impi reaches processes on "
                            "other hosts only through the host agents of impirun. Start a job on "
                            "several nodes with impirun (in a Slurm allocation: salloc -N2 "
                            "impirun prog), not with srun across nodes",
                            r, peers_[r].host, mine.host)};
  // Shared memory with every proc of this client on this host (PMIx rank r
  // is world rank offset + r).
  std::uint32_t offset = j.world_rank - j.rank;
  std::vector<int> worlds;
  std::vector<std::string> names;
  std::vector<std::int64_t> pids;
  std::vector<std::uint64_t> probes;
  for (std::uint32_t r = 0; r < j.size; ++r) {
    bool here = peers_[r].host == mine.host;
    worlds.push_back(static_cast<int>(offset + r));
    names.push_back(here ? peers_[r].shm : std::string());
    pids.push_back(peers_[r].pid);
    probes.push_back(here ? peers_[r].cma : 0);
  }
  if (j.singleton) return p2p_.attach(static_cast<int>(j.world_rank), worlds, names);
  if (auto s = p2p_.attach(static_cast<int>(j.world_rank), worlds, names, pids, probes); !s.ok())
    return s;
  // Once everyone has mapped every segment, the names can go: nothing is
  // left in /dev/shm even if the job dies later.
  if (auto s = pm_->fence(false); !s.ok()) return s;
  p2p_.shm().unlink_segment();
  return {};
}

void Runtime::wait_for_teardown() {
  // A peer ended while we waited for it: the launcher is about to end the
  // job and report that peer. Failing here ourselves would put our exit
  // beside the cause and blur the report, so give the launcher time first.
  p2p_.shm().unlink_segment();  // we may be killed while we wait
  if (pm_->job().singleton) return;
  std::int64_t limit_ms = base::get_int("peer_death_wait_ms");
  for (std::int64_t waited = 0; waited < limit_ms; waited += 10) ::usleep(10 * 1000);
}

base::Status Runtime::connect_agent(std::uint64_t my_index) {
  const char *path = std::getenv("IMPI_AGENT_SOCKET");
  if (!path || !*path)
    return {Errc::invalid_argument,
            "a job across IMPI clients needs its host agent, but IMPI_AGENT_SOCKET is not set "
            "(start the job with impirun)"};
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof a.sun_path)
    return {Errc::invalid_argument, fmt::format("host agent socket path too long: {}", path)};
  std::strcpy(a.sun_path, path);
  base::Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd || ::connect(fd.get(), reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
    return {Errc::io_error,
            fmt::format("cannot reach the host agent at {}: {}", path, std::strerror(errno))};
  namespace al = transport::wire::agent_link;
  auto hello = al::encode_hello(my_index);
  if (::send(fd.get(), hello.data(), hello.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(hello.size()))
    return {Errc::io_error, fmt::format("the host agent at {}: {}", path, std::strerror(errno))};
  pollfd p{fd.get(), POLLIN, 0};
  int timeout_ms = static_cast<int>(base::get_int("pmix_timeout_s") * 1000);
  // ACCEPT (the agent funnels our packets), or DIRECT with the host
  // channels (this host's only proc runs them itself): agent_link.hpp.
  // One byte first: after an ACCEPT, packets may follow at once.
  std::vector<std::byte> reply(1);
  alignas(cmsghdr) char ctl[CMSG_SPACE(sizeof(int) * 256)];
  iovec iov{reply.data(), 1};
  msghdr mh{};
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  mh.msg_control = ctl;
  mh.msg_controllen = sizeof ctl;
  ssize_t n = ::poll(&p, 1, timeout_ms) == 1 ? ::recvmsg(fd.get(), &mh, MSG_CMSG_CLOEXEC) : -1;
  std::vector<base::Fd> fds;
  for (cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&mh) : nullptr; c; c = CMSG_NXTHDR(&mh, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      for (std::size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); ++i) {
        int f;
        std::memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof f);
        fds.emplace_back(f);
      }
  auto refused = [&] {
    return base::Status{Errc::protocol_error,
                        fmt::format("the host agent at {} did not accept rank {}", path, my_index)};
  };
  // The rest of a DIRECT, which the agent sent as one (blocking reads).
  auto read_exact = [&](std::byte *to, std::size_t len) {
    for (std::size_t got = 0; got < len;) {
      if (::poll(&p, 1, timeout_ms) != 1) return false;
      ssize_t r = ::recv(fd.get(), to + got, len - got, 0);
      if (r <= 0) return false;
      got += static_cast<std::size_t>(r);
    }
    return true;
  };
  if (n != 1 || (mh.msg_flags & MSG_CTRUNC)) return refused();
  for (;;) {
    auto len = al::reply_length(reply);
    if (!len) return refused();
    if (*len <= reply.size()) break;
    std::size_t have = reply.size();
    reply.resize(*len);
    if (!read_exact(reply.data() + have, *len - have)) return refused();
  }
  auto r = al::decode_reply(reply);
  if (!r) return refused();
  if (r->kind == al::Reply::direct) {
    if (r->hosts.size() != fds.size()) return refused();
    for (std::size_t i = 0; i < fds.size(); ++i)
      direct_.emplace_back(r->hosts[i], std::move(fds[i]));
  } else if (!fds.empty()) {
    return refused();
  }
  agent_ = std::move(fd);
  return {};
}

base::Status Runtime::attach_direct(const startup::ImpiJob &job) {
  if (direct_.empty()) return {};
  core::DirectLayout d;
  d.my_host =
      job.procs[static_cast<std::size_t>(pm_->job().world_rank)].host;  // (split hosts: ours)
  d.maxdatalen = job.maxdatalen;
  d.ackmark = job.ackmark;
  d.hiwater = job.hiwater;
  for (const auto &p : job.procs) d.host_of.push_back(p.host);
  for (std::size_t h = 0; h < job.hosts.size(); ++h) d.host_names.push_back(job.host_name(h));
  for (int h = job.host_of_me(); h < job.host_of_me() + job.my_nhosts; ++h)
    if (h != d.my_host) d.sibling_hosts.push_back(h);
  for (auto &[h, fd] : direct_) {
    if (h >= job.hosts.size() || static_cast<int>(h) == d.my_host)
      return {
          Errc::protocol_error,
          fmt::format("the host agent handed over a channel to host {}, which is not a peer", h)};
    d.channels.emplace_back(static_cast<int>(h), std::move(fd));
  }
  direct_.clear();
  return p2p_.impi().attach_direct(std::move(d));
}

base::Status Runtime::finalize() {
  if (state_ != State::initialized)
    return {Errc::invalid_argument, state_ == State::finalized ? "MPI_Finalize was already called"
                                                               : "MPI_Finalize before MPI_Init"};
  // Every process reaches this point before any leaves (MPI_Finalize is collective).
  base::Status s = pm_->fence(false);
  if (!s.ok() && s.error() == Errc::peer_died) wait_for_teardown();
  p2p_.jobs().close();  // what we queued for procs of other jobs goes first
  base::Status f = pm_->finalize();
  p2p_.impi().close();  // the agent sees the link close: this proc is done
  state_ = State::finalized;
  if (!s.ok()) return s;
  return f;
}

void Runtime::abort(int code, std::string_view why) {
  // Once: a second thread (a channel watcher, a user thread) would race the
  // first's report with an exit of its own. It waits for the end instead.
  static std::atomic<bool> aborting{false};
  if (aborting.exchange(true))
    for (;;) ::pause();
  std::fflush(nullptr);  // the launcher may kill us before exit() would flush stdio
  p2p_.shm().unlink_segment();
  if (pm_ && !pm_->job().singleton) {
    pm_->abort(code, why);  // the launcher ends the job (us included)
  } else {
    constexpr std::string_view kFatal = "impi fatal: ";
    base::log_error("{}", why.rfind(kFatal, 0) == 0 ? why.substr(kFatal.size()) : why);
  }
  ::_exit(code & 0xff);
}

}  // namespace impi::core
