#include "startup/agent/host_agent.hpp"

#include <event2/event.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <thread>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/host_agents.hpp"
#include "startup/session_dir.hpp"
#include "transport/impi/agent_link.hpp"
#include "transport/impi/router.hpp"

namespace impi::startup {

namespace {
using EventPtr = std::unique_ptr<event, void (*)(event *)>;
EventPtr no_event() {
  return {nullptr, event_free};
}

namespace tw = transport::wire;
namespace al = transport::wire::agent_link;

tw::JobLayout layout_of(const ImpiJob &job) {
  tw::JobLayout layout;
  for (const auto &p : job.procs) {
    tw::ProcId id;
    std::copy(p.id.address.begin(), p.id.address.end(), id.host.begin());
    id.pid = p.id.pid;
    layout.procs.push_back(id);
    layout.host_of.push_back(p.host);
  }
  layout.nhosts = static_cast<int>(job.hosts.size());
  for (std::size_t h = 0; h < job.hosts.size(); ++h) layout.host_names.push_back(job.host_name(h));
  layout.my_host = job.host_of_me();
  return layout;
}
}  // namespace

struct HostAgent::Impl {
  // A link that has not said which proc it is yet.
  struct Pending {
    base::Fd fd;
    EventPtr ev = no_event();
    std::byte hello[al::kHelloSize]{};
    std::size_t got = 0;
  };
  struct Watched {
    int fd = -1;
    std::string what;
    Impl *self = nullptr;
    EventPtr ev = no_event();
  };

  base::Status start(std::vector<std::vector<base::Fd>> &channels, const ImpiJob &job);
  base::Status make_router(const ImpiJob &job, const tw::JobLayout &layout);
  base::Status take_channels(std::vector<std::vector<base::Fd>> &channels, const ImpiJob &job);
  void add_events();
  base::Status listen_socket();
  void cleanup_socket();
  void request_finish();
  void end_the_job();
  void run();
  void on_hello_complete(std::uint64_t index, base::Fd link);
  void hand_over(std::uint64_t index, base::Fd link);
  static void on_finish(evutil_socket_t fd, short, void *arg);
  static void on_watched(evutil_socket_t fd, short, void *arg);
  static void on_accept(evutil_socket_t fd, short, void *arg);
  static void on_hello(evutil_socket_t fd, short, void *arg);

  // Direct channels: each of our hosts' only proc (by world index) gets
  // that host's channels; its link stays open, carrying nothing.
  bool direct_ = false;
  std::map<std::size_t, std::vector<std::pair<std::uint32_t, base::Fd>>> direct_fds_;
  std::map<std::size_t, base::Fd> direct_links_;

  std::unique_ptr<event_base, void (*)(event_base *)> base_{nullptr, event_base_free};
  std::unique_ptr<tw::AgentRouter> router_;
  EventPtr accept_ev_ = no_event(), finish_ev_ = no_event();
  std::vector<std::unique_ptr<Watched>> watched_;
  std::map<int, std::unique_ptr<Pending>> pending_;
  base::Fd listener_, finish_r_, finish_w_;
  base::Fd end_event_;  // eventfd: readable once the agent ended the job
  std::string dir_, path_;
  std::size_t nprocs_ = 0;
  std::thread thread_;
  std::atomic<bool> finishing_{false}, stop_{false};
  bool ending_ = false;  // the job is being ended (agent thread only)
  std::optional<base::Status> error_;
  net::Clock::time_point deadline_ = net::Clock::now() + std::chrono::hours(24 * 365);
};

// ------------------------------------------------------------------ starting
base::Status HostAgent::Impl::start(std::vector<std::vector<base::Fd>> &channels,
                                    const ImpiJob &job) {
  if (!end_event_) return {base::Errc::io_error, fmt::format("eventfd: {}", std::strerror(errno))};
  tw::JobLayout layout = layout_of(job);
  nprocs_ = layout.procs.size();
  if (auto s = listen_socket(); !s.ok()) return s;
  int p[2];
  if (::pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
    return {base::Errc::io_error, fmt::format("pipe: {}", std::strerror(errno))};
  finish_r_.reset(p[0]);
  finish_w_.reset(p[1]);
  base_.reset(event_base_new());
  if (auto s = make_router(job, layout); !s.ok()) return s;
  if (auto s = take_channels(channels, job); !s.ok()) return s;
  ::setenv("IMPI_AGENT_SOCKET", path_.c_str(), 1);  // the procs inherit it
  add_events();
  thread_ = std::thread([this] { run(); });
  return {};
}

// The router, with what it does when a channel or a link fails.
base::Status HostAgent::Impl::make_router(const ImpiJob &job, const tw::JobLayout &layout) {
  router_ = std::make_unique<tw::AgentRouter>(
      base_.get(),
      tw::ChannelConfig{job.maxdatalen, job.ackmark, job.hiwater, "",
                        static_cast<int>(base::get_int("peer_stall_s")),
                        static_cast<std::size_t>(base::get_int("agent_queue_bytes"))},
      layout, [this](const base::Status &s) {
        if (!error_) error_ = s;
        if (ending_) {  // echoes of the first failure (packets for the closed channel)
          base::log_debug("host agent: {}", s.message());
          return;
        }
        base::log_error("host agent: {}", s.message());
        // During the job a broken channel (a peer host died) ends the job
        // here too.
        if (!finishing_) {
          ending_ = true;
          base::log_error("the job cannot go on without that host; ending it");
          end_the_job();
        }
      });
  if (std::string t = base::get_string("agent_trace"); !t.empty()) {
    base::Fd f(::open(t.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
    if (!f)
      return {base::Errc::io_error,
              fmt::format("IMPI_AGENT_TRACE {}: {}", t, std::strerror(errno))};
    router_->set_trace(std::move(f));
  }
  router_->set_link_error_handler([this](const base::Status &s) {
    // The proc's launcher sees it die (or it exits when its link closes)
    // and ends the job naming its rank; nothing to end here.
    if (!error_) error_ = s;
    base::log_error("host agent: {}", s.message());
  });
  return {};
}

// The host channels go to the router, or, with direct channels, wait for
// their host's only proc. `channels[i]` are those of host my_host + i (one
// per global host; invalid for itself). Several hosts (split hosts) need
// direct channels: the router serves one host.
base::Status HostAgent::Impl::take_channels(std::vector<std::vector<base::Fd>> &channels,
                                            const ImpiJob &job) {
  const int first = job.host_of_me();
  if (channels.size() != static_cast<std::size_t>(job.my_nhosts))
    return {base::Errc::invalid_argument, "the host agent got channels for other hosts"};
  direct_ = direct_channels_on() && job.hosts.size() <= al::kMaxDirectChannels + 1;
  for (int i = 0; i < job.my_nhosts; ++i)
    direct_ = direct_ && job.hosts[static_cast<std::size_t>(first + i)].nprocs == 1;
  if (!direct_ && job.my_nhosts > 1)
    return {base::Errc::invalid_argument,
            job.hosts.size() > al::kMaxDirectChannels + 1
                ? fmt::format("this job has {} IMPI hosts (this machine splits into one per proc, "
                              "IMPI_SPLIT_HOSTS), and a proc can hold the channels of at most {} "
                              "others; run the clients with IMPI_SPLIT_HOSTS=0",
                              job.hosts.size(), al::kMaxDirectChannels)
                : std::string("split hosts (IMPI_SPLIT_HOSTS) need direct channels "
                              "(IMPI_AGENT_DIRECT=1, no IMPI_AGENT_TRACE)")};
  for (std::size_t i = 0; i < channels.size(); ++i) {
    auto proc = static_cast<std::size_t>(job.hosts[static_cast<std::size_t>(first) + i].first_proc);
    auto &mine = direct_fds_[proc];  // (unused without direct channels)
    for (std::size_t h = 0; h < channels[i].size(); ++h) {
      if (!channels[i][h]) continue;
      if (direct_)
        mine.emplace_back(static_cast<std::uint32_t>(h), std::move(channels[i][h]));
      else
        router_->add_channel(static_cast<int>(h), std::move(channels[i][h]));
    }
  }
  if (!direct_) direct_fds_.clear();
  return {};
}

void HostAgent::Impl::add_events() {
  accept_ev_.reset(
      event_new(base_.get(), listener_.get(), EV_READ | EV_PERSIST, &Impl::on_accept, this));
  event_add(accept_ev_.get(), nullptr);
  finish_ev_.reset(
      event_new(base_.get(), finish_r_.get(), EV_READ | EV_PERSIST, &Impl::on_finish, this));
  event_add(finish_ev_.get(), nullptr);
  for (auto &w : watched_) {
    w->self = this;
    w->ev.reset(event_new(base_.get(), w->fd, EV_READ | EV_PERSIST, &Impl::on_watched, w.get()));
    event_add(w->ev.get(), nullptr);
  }
}

base::Status HostAgent::Impl::listen_socket() {
  // Named like a session directory, so that the next impirun sweeps it
  // if this one is killed outright (sweep_dead_sessions).
  std::string tmpl = fmt::format("{}/impirun.{}.agent-XXXXXX", session_root(), ::getpid());
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    return {base::Errc::io_error, fmt::format("mkdtemp: {}", std::strerror(errno))};
  dir_ = buf.data();
  path_ = dir_ + "/agent.sock";
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path_.size() >= sizeof a.sun_path)
    return {base::Errc::invalid_argument, fmt::format("socket path too long: {}", path_)};
  std::memcpy(a.sun_path, path_.c_str(), path_.size() + 1);
  listener_.reset(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!listener_ || ::bind(listener_.get(), reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
      ::listen(listener_.get(), 128) != 0)
    return {base::Errc::io_error, fmt::format("listening on {}: {}", path_, std::strerror(errno))};
  return {};
}

void HostAgent::Impl::cleanup_socket() {
  if (!path_.empty()) ::unlink(path_.c_str());
  if (!dir_.empty()) ::rmdir(dir_.c_str());
  path_.clear();
  dir_.clear();
}

void HostAgent::Impl::request_finish() {
  if (finish_w_) {
    char c = 'F';
    [[maybe_unused]] ssize_t n = ::write(finish_w_.get(), &c, 1);
  }
}

// The launcher's loop watches end_event_ and ends the job (LocalJob).
void HostAgent::Impl::end_the_job() {
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(end_event_.get(), &one, sizeof one);
}

// ------------------------------------------------------------------ the thread
void HostAgent::Impl::run() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals belong to the launcher's loop
  // While packets flow, poll without blocking (yielding the core between
  // passes) for IMPI_AGENT_SPIN_US after the last one: a blocked thread's
  // wake-up costs more than a message's whole trip. Then block.
  const auto spin = std::chrono::microseconds(base::get_int("agent_spin_us"));
  std::uint64_t seen = router_->activity();
  auto busy_until = net::Clock::now();
  while (!stop_ && !(finishing_ && (direct_ || router_->all_closed())) && !(finishing_ && error_)) {
    auto now = net::Clock::now();
    if (finishing_ && now > deadline_) {
      error_ =
          base::Status{base::Errc::timeout, "the host channels did not close in time (no FINI)"};
      break;
    }
    if (now < busy_until) {
      event_base_loop(base_.get(), EVLOOP_NONBLOCK);
    } else {
      timeval slice{0, 50000};
      event_base_loopexit(base_.get(), &slice);
      event_base_loop(base_.get(), EVLOOP_ONCE);
    }
    if (router_->activity() != seen) {
      seen = router_->activity();
      busy_until = net::Clock::now() + spin;
    } else if (now < busy_until) {
      sched_yield();
    }
  }
  pending_.clear();
  direct_fds_.clear();
  direct_links_.clear();
  for (auto &w : watched_) w->ev.reset();
  accept_ev_.reset();
  finish_ev_.reset();
  router_.reset();
  base_.reset();
}

void HostAgent::Impl::on_finish(evutil_socket_t fd, short, void *arg) {
  auto *self = static_cast<Impl *>(arg);
  char c;
  while (::read(fd, &c, 1) > 0) {
  }
  if (self->stop_) return;
  if (!self->finishing_) {
    self->finishing_ = true;
    self->router_->finish();
  }
}

void HostAgent::Impl::on_watched(evutil_socket_t fd, short, void *arg) {
  auto *w = static_cast<Watched *>(arg);
  auto *self = w->self;
  char c;
  ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  std::string what = w->what;
  w->ev.reset();  // once: closed, failed, or bytes its owner will judge
  if (n > 0 || self->finishing_ || self->ending_) return;
  self->ending_ = true;
  std::string why = n == 0 ? "closed its connection"
                           : fmt::format("connection failed ({})", std::strerror(errno));
  base::log_error("{} {} during the job; the job cannot finish without it; ending it", what, why);
  if (!self->error_) self->error_ = base::Status{base::Errc::io_error, what + " was lost"};
  self->end_the_job();
}

// ------------------------------------------------------------------ the procs' links
void HostAgent::Impl::on_accept(evutil_socket_t fd, short, void *arg) {
  auto *self = static_cast<Impl *>(arg);
  for (;;) {
    int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (c < 0) return;
    auto p = std::make_unique<Pending>();
    p->fd.reset(c);
    p->ev.reset(event_new(self->base_.get(), c, EV_READ | EV_PERSIST, &Impl::on_hello, self));
    event_add(p->ev.get(), nullptr);
    self->pending_[c] = std::move(p);
  }
}

void HostAgent::Impl::on_hello(evutil_socket_t fd, short, void *arg) {
  auto *self = static_cast<Impl *>(arg);
  auto it = self->pending_.find(fd);
  if (it == self->pending_.end()) return;
  Pending &p = *it->second;
  ssize_t n = ::recv(fd, p.hello + p.got, sizeof p.hello - p.got, 0);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (n <= 0) {
    self->pending_.erase(it);  // gone before saying who it is
    return;
  }
  p.got += static_cast<std::size_t>(n);
  if (p.got < sizeof p.hello) return;
  auto index = al::decode_hello(p.hello);
  base::Fd link = std::move(p.fd);
  self->pending_.erase(it);
  if (!index) {
    base::log_error("host agent: a link was refused: {}", index.message());
    return;
  }
  self->on_hello_complete(*index, std::move(link));
}

// A proc said which it is: its link joins the router ('A'), or it gets the
// host channels (direct).
void HostAgent::Impl::on_hello_complete(std::uint64_t index, base::Fd link) {
  if (direct_) {
    hand_over(index, std::move(link));
    return;
  }
  int raw = link.get();
  auto s = index < nprocs_ ? router_->add_local(static_cast<std::size_t>(index), std::move(link))
                           : base::Status{base::Errc::protocol_error, "no such proc"};
  if (!s.ok()) {
    base::log_error("host agent: a link claiming proc {} was refused: {}", index, s.message());
    return;  // the link is closed: the proc's MPI_Init reports it
  }
  auto accept = al::encode_accept();
  [[maybe_unused]] ssize_t w =
      ::send(raw, accept.data(), accept.size(), MSG_NOSIGNAL);  // the router owns it now
  base::log_debug("host agent: proc {} connected", index);
}

// Direct channels: the host channels go to the proc, descriptors attached.
void HostAgent::Impl::hand_over(std::uint64_t index, base::Fd link) {
  auto mine = direct_fds_.find(index);
  if (mine == direct_fds_.end() || direct_links_.count(index) != 0) {
    base::log_error(
        "host agent: a link claiming proc {} was refused: {}", index,
        mine == direct_fds_.end() ? "it is not this host's proc" : "it is already connected");
    return;
  }
  std::vector<std::uint32_t> hosts;
  std::vector<int> fds;
  for (const auto &[host, fd] : mine->second) {
    hosts.push_back(host);
    fds.push_back(fd.get());
  }
  auto msg = al::encode_direct(hosts);  // (at most kMaxDirectChannels: see take_channels)
  if (!msg) {
    base::log_error("host agent: handing the host channels to proc {} failed: {}", index,
                    msg.message());
    return;
  }
  iovec iov{msg->data(), msg->size()};
  std::vector<char> ctl(CMSG_SPACE(sizeof(int) * std::max<std::size_t>(fds.size(), 1)));
  msghdr mh{};
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  if (!fds.empty()) {
    mh.msg_control = ctl.data();
    mh.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  // The link is non-blocking and empty: a message this small goes at once.
  if (::sendmsg(link.get(), &mh, MSG_NOSIGNAL) != static_cast<ssize_t>(msg->size())) {
    base::log_error("host agent: handing the host channels to proc {} failed: {}", index,
                    std::strerror(errno));
    return;
  }
  // Ours are closed: when the proc dies, its peers see the channels end.
  direct_fds_.erase(mine);
  direct_links_[index] = std::move(link);
  base::log_debug("host agent: proc {} connected (it runs this host's channels itself)", index);
}

// ------------------------------------------------------------------ HostAgent
HostAgent::HostAgent() : impl_(std::make_unique<Impl>()) {
  impl_->end_event_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
}

HostAgent::~HostAgent() {
  if (impl_->thread_.joinable()) {
    impl_->request_finish();
    impl_->thread_.join();
  }
  impl_->cleanup_socket();
}

base::Status HostAgent::start(std::vector<std::vector<base::Fd>> &channels, const ImpiJob &job) {
  return impl_->start(channels, job);
}

void HostAgent::watch_server(int fd, std::string what) {
  auto w = std::make_unique<Impl::Watched>();
  w->fd = fd;
  w->what = std::move(what);
  impl_->watched_.push_back(std::move(w));
}

int HostAgent::end_event() const {
  return impl_->end_event_.get();
}

void HostAgent::stop() {
  if (!impl_->thread_.joinable()) return;
  impl_->stop_ = true;
  impl_->request_finish();
  impl_->thread_.join();
  impl_->cleanup_socket();
}

void HostAgent::remove_socket() {
  impl_->cleanup_socket();
}

base::Status HostAgent::close(net::Clock::time_point deadline) {
  impl_->deadline_ = deadline;
  impl_->request_finish();
  if (impl_->thread_.joinable()) impl_->thread_.join();
  impl_->cleanup_socket();
  if (impl_->error_) return *impl_->error_;
  return {};
}

AgentHooks agent_hooks(HostAgent &agent) {
  AgentHooks hooks;
  hooks.start = [&agent](std::vector<std::vector<base::Fd>> &ch, const ImpiJob &job) {
    return agent.start(ch, job);
  };
  hooks.close = [&agent](std::vector<base::Fd> &, const ImpiJob &,
                         net::Clock::time_point deadline) { return agent.close(deadline); };
  hooks.watch_server = [&agent](int fd, std::string name) {
    agent.watch_server(fd, std::move(name));
  };
  hooks.stop = [&agent] { agent.stop(); };
  hooks.end_event = [&agent] { return agent.end_event(); };
  return hooks;
}

}  // namespace impi::startup
