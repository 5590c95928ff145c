// agent.hpp - the host agent of `impirun -client` (docs/impi-data-path.md):
// a thread with its own libevent loop that owns the host channels (through
// transport's AgentRouter) for the whole job, and a Unix socket on which
// this host's procs connect their local links in MPI_Init.
//
// Link handshake: the proc sends its IMPI proc index (its MPI_COMM_WORLD
// rank) as 8 bytes big-endian; the agent answers one byte, 'A' (accepted),
// once the link is attached to the router, or closes it (unknown proc,
// already connected). After the job, close() has the router exchange FINI
// on every channel (IMPI 3.8) and reports how that went.
//
// Direct channels (IMPI_AGENT_DIRECT, default on): when this host has a
// single proc, there is nothing to multiplex, so the agent hands that proc
// the host channels from the dance instead of the 'A': one message 'D',
// count (4 bytes big-endian), then each channel's host index (4 bytes
// big-endian), the descriptors attached (SCM_RIGHTS), in that order. The
// proc then runs the channels itself (flow control, FINI: the same
// HostChannel code, src/core/p2p_direct.cpp): a message to another client
// costs one TCP trip instead of three hand-offs. The agent keeps watching
// the server; the link stays open, carrying nothing, until the proc ends.
//
// Threading: the agent thread alone touches the router and the links; the
// main thread only starts it and, through a pipe, asks it to finish.
#pragma once

#include <event2/event.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/byteorder.hpp"
#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/impi_client.hpp"
#include "startup/impi_job.hpp"
#include "transport/impi/router.hpp"

namespace impi::startup {

class HostAgent {
 public:
  HostAgent() = default;
  HostAgent(const HostAgent &) = delete;
  HostAgent &operator=(const HostAgent &) = delete;
  ~HostAgent() {
    if (thread_.joinable()) {
      request_finish();
      thread_.join();
    }
    cleanup_socket();
  }

  base::Status start(std::vector<base::Fd> &channels, const ImpiJob &job) {
    namespace tw = transport::wire;
    tw::JobLayout layout;
    for (const auto &p : job.procs) {
      tw::ProcId id;
      std::copy(p.id.address.begin(), p.id.address.end(), id.host.begin());
      id.pid = p.id.pid;
      layout.procs.push_back(id);
      layout.host_of.push_back(p.host);
    }
    layout.nhosts = static_cast<int>(job.hosts.size());
    for (std::size_t h = 0; h < job.hosts.size(); ++h)
      layout.host_names.push_back(job.host_name(h));
    layout.my_host = job.host_of_me();
    nprocs_ = layout.procs.size();
    if (auto s = listen_socket(); !s.ok()) return s;
    int p[2];
    if (::pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
      return {base::Errc::io_error, fmt::format("pipe: {}", std::strerror(errno))};
    finish_r_.reset(p[0]);
    finish_w_.reset(p[1]);
    base_.reset(event_base_new());
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
          // here too: the launcher's loop takes SIGUSR2 as "end the job".
          if (!finishing_) {
            ending_ = true;
            base::log_error("the job cannot go on without that host; ending it");
            ::kill(::getpid(), SIGUSR2);  // LocalJob ends the job
          }
        });
    if (const char *t = std::getenv("IMPI_AGENT_TRACE"); t && *t) {
      base::Fd f(::open(t, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
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
    std::size_t here = 0;
    for (auto h : layout.host_of) here += h == layout.my_host ? 1 : 0;
    const bool traced = std::getenv("IMPI_AGENT_TRACE") && *std::getenv("IMPI_AGENT_TRACE");
    direct_ =
        base::get_int("agent_direct") != 0 && here == 1 && !traced && channels.size() <= kMaxDirect;
    for (std::size_t h = 0; h < channels.size(); ++h) {
      if (!channels[h]) continue;
      if (direct_)
        direct_fds_.emplace_back(static_cast<std::uint32_t>(h), std::move(channels[h]));
      else
        router_->add_channel(static_cast<int>(h), std::move(channels[h]));
    }
    for (std::size_t i = 0; i < layout.procs.size(); ++i)
      if (layout.host_of[i] == layout.my_host) my_proc_ = i;
    ::setenv("IMPI_AGENT_SOCKET", path_.c_str(), 1);  // the procs inherit it
    accept_ev_.reset(
        event_new(base_.get(), listener_.get(), EV_READ | EV_PERSIST, &HostAgent::on_accept, this));
    event_add(accept_ev_.get(), nullptr);
    finish_ev_.reset(
        event_new(base_.get(), finish_r_.get(), EV_READ | EV_PERSIST, &HostAgent::on_finish, this));
    event_add(finish_ev_.get(), nullptr);
    for (auto &w : watched_) {
      w->self = this;
      w->ev.reset(
          event_new(base_.get(), w->fd, EV_READ | EV_PERSIST, &HostAgent::on_watched, w.get()));
      event_add(w->ev.get(), nullptr);
    }
    thread_ = std::thread([this] { run(); });
    return {};
  }

  // Watches a connection that must stay open during the job: the IMPI
  // server's, and those between the hosts of a client on several machines
  // (call before start(); the agent thread's loop owns the events). They
  // carry nothing between the dance and the end, so readiness means the
  // other side closed or died: that ends the job like a lost peer host
  // (every client ends within seconds, naming what died). Bytes are only
  // peeked at, never consumed (the caller still owns the connection; bytes
  // mean the normal end has begun). `what`: "the IMPI server ADDR".
  void watch_server(int fd, std::string what) {
    auto w = std::make_unique<Watched>();
    w->fd = fd;
    w->what = std::move(what);
    watched_.push_back(std::move(w));
  }

  // After a failed job: ends the agent thread at once, without FINI (the
  // job is over; peers learn it from the closed channels), before the
  // caller closes the descriptors the thread watches.
  void stop() {
    if (!thread_.joinable()) return;
    stop_ = true;
    request_finish();
    thread_.join();
    cleanup_socket();
  }

  // Removes the socket and its directory (idempotent; any thread).
  void remove_socket() { cleanup_socket(); }

  // After the procs: FINI on every channel, within `deadline`.
  base::Status close(net::Clock::time_point deadline) {
    deadline_ = deadline;
    request_finish();
    if (thread_.joinable()) thread_.join();
    cleanup_socket();
    if (error_) return *error_;
    return {};
  }

 private:
  struct Pending {
    base::Fd fd;
    std::unique_ptr<event, void (*)(event *)> ev{nullptr, event_free};
    std::byte hello[8]{};
    std::size_t got = 0;
  };

  base::Status listen_socket() {
    const char *tmp = std::getenv("TMPDIR");
    // Named like a session directory, so that the next impirun sweeps it
    // if this one is killed outright (sweep_dead_sessions).
    std::string tmpl =
        fmt::format("{}/impirun.{}.agent-XXXXXX", tmp && *tmp ? tmp : "/tmp", ::getpid());
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
      return {base::Errc::io_error,
              fmt::format("listening on {}: {}", path_, std::strerror(errno))};
    return {};
  }

  void cleanup_socket() {
    if (!path_.empty()) ::unlink(path_.c_str());
    if (!dir_.empty()) ::rmdir(dir_.c_str());
    path_.clear();
    dir_.clear();
  }

  void request_finish() {
    if (finish_w_) {
      char c = 'F';
      [[maybe_unused]] ssize_t n = ::write(finish_w_.get(), &c, 1);
    }
  }

  void run() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals belong to the launcher's loop
    // While packets flow, poll without blocking (yielding the core between
    // passes) for IMPI_AGENT_SPIN_US after the last one: a blocked thread's
    // wake-up costs more than a message's whole trip. Then block.
    const auto spin = std::chrono::microseconds(base::get_int("agent_spin_us"));
    std::uint64_t seen = router_->activity();
    auto busy_until = net::Clock::now();
    while (!stop_ && !(finishing_ && (direct_ || router_->all_closed())) &&
           !(finishing_ && error_)) {
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
    direct_link_.reset();
    for (auto &w : watched_) w->ev.reset();
    accept_ev_.reset();
    finish_ev_.reset();
    router_.reset();
    base_.reset();
  }

  static void on_finish(evutil_socket_t fd, short, void *arg) {
    auto *self = static_cast<HostAgent *>(arg);
    char c;
    while (::read(fd, &c, 1) > 0) {
    }
    if (self->stop_) return;
    if (!self->finishing_) {
      self->finishing_ = true;
      self->router_->finish();
    }
  }

  static void on_watched(evutil_socket_t fd, short, void *arg) {
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
    ::kill(::getpid(), SIGUSR2);  // LocalJob ends the job
  }

  static void on_accept(evutil_socket_t fd, short, void *arg) {
    auto *self = static_cast<HostAgent *>(arg);
    for (;;) {
      int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (c < 0) return;
      auto p = std::make_unique<Pending>();
      p->fd.reset(c);
      p->ev.reset(
          event_new(self->base_.get(), c, EV_READ | EV_PERSIST, &HostAgent::on_hello, self));
      event_add(p->ev.get(), nullptr);
      self->pending_[c] = std::move(p);
    }
  }

  static void on_hello(evutil_socket_t fd, short, void *arg) {
    auto *self = static_cast<HostAgent *>(arg);
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
    auto index = base::load_be<std::uint64_t>(std::span<const std::byte>(p.hello, 8));
    base::Fd link = std::move(p.fd);
    self->pending_.erase(it);
    if (self->direct_) {
      self->hand_over(index, std::move(link));
      return;
    }
    int raw = link.get();
    auto s = index < self->nprocs_
                 ? self->router_->add_local(static_cast<std::size_t>(index), std::move(link))
                 : base::Status{base::Errc::protocol_error, "no such proc"};
    if (!s.ok()) {
      base::log_error("host agent: a link claiming proc {} was refused: {}", index, s.message());
      return;  // the link is closed: the proc's MPI_Init reports it
    }
    char ok = 'A';
    [[maybe_unused]] ssize_t w = ::send(raw, &ok, 1, MSG_NOSIGNAL);  // the router owns it now
    base::log_debug("host agent: proc {} connected", index);
  }

  // Direct channels: the host channels go to the proc (see the top).
  void hand_over(std::uint64_t index, base::Fd link) {
    if (index != my_proc_ || direct_link_ || handed_) {
      base::log_error("host agent: a link claiming proc {} was refused: {}", index,
                      index != my_proc_ ? "it is not this host's proc" : "it is already connected");
      return;
    }
    std::vector<std::byte> msg(5 + 4 * direct_fds_.size());
    msg[0] = std::byte{'D'};
    base::store_be<std::uint32_t>(std::span(msg).subspan(1, 4),
                                  static_cast<std::uint32_t>(direct_fds_.size()));
    std::vector<int> fds;
    for (std::size_t i = 0; i < direct_fds_.size(); ++i) {
      base::store_be<std::uint32_t>(std::span(msg).subspan(5 + 4 * i, 4), direct_fds_[i].first);
      fds.push_back(direct_fds_[i].second.get());
    }
    iovec iov{msg.data(), msg.size()};
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
    if (::sendmsg(link.get(), &mh, MSG_NOSIGNAL) != static_cast<ssize_t>(msg.size())) {
      base::log_error("host agent: handing the host channels to proc {} failed: {}", index,
                      std::strerror(errno));
      return;
    }
    handed_ = true;
    // Ours are closed: when the proc dies, its peers see the channels end.
    direct_fds_.clear();
    direct_link_ = std::move(link);
    base::log_debug("host agent: proc {} connected (it runs this host's channels itself)", index);
  }

  static constexpr std::size_t kMaxDirect = 250;  // descriptors in one message (SCM_MAX_FD is 253)
  bool direct_ = false, handed_ = false;
  std::size_t my_proc_ = 0;
  std::vector<std::pair<std::uint32_t, base::Fd>> direct_fds_;
  base::Fd direct_link_;

  std::unique_ptr<event_base, void (*)(event_base *)> base_{nullptr, event_base_free};
  std::unique_ptr<transport::wire::AgentRouter> router_;
  std::unique_ptr<event, void (*)(event *)> accept_ev_{nullptr, event_free},
      finish_ev_{nullptr, event_free};
  struct Watched {
    int fd = -1;
    std::string what;
    HostAgent *self = nullptr;
    std::unique_ptr<event, void (*)(event *)> ev{nullptr, event_free};
  };
  std::vector<std::unique_ptr<Watched>> watched_;
  std::map<int, std::unique_ptr<Pending>> pending_;
  base::Fd listener_, finish_r_, finish_w_;
  std::string dir_, path_;
  std::size_t nprocs_ = 0;
  std::thread thread_;
  std::atomic<bool> finishing_{false}, stop_{false};
  bool ending_ = false;  // the job is being ended (agent thread only)
  std::optional<base::Status> error_;
  net::Clock::time_point deadline_ = net::Clock::now() + std::chrono::hours(24 * 365);
};

}  // namespace impi::startup
