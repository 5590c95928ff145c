#include "startup/rendezvous_server.hpp"

#include <event2/event.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include "base/fd.hpp"
#include "base/log.hpp"
#include "startup/auth.hpp"
#include "startup/event_owner.hpp"
#include "startup/net.hpp"
#include "startup/server_core.hpp"

namespace impi::startup {

namespace {

class Server {
 public:
  Server(const ServerOptions &o, ServerCore core) : opts_(o), core_(std::move(core)) {}
  int run(base::Fd listener);

 private:
  struct Conn {
    base::Fd fd;
    EventPtr ev, join_timer;
    wire::Bytes out;  // not yet written
    EventPtr wev;
    bool closing = false;
  };
  static void on_accept(evutil_socket_t, short, void *);
  static void on_read(evutil_socket_t, short, void *);
  static void on_write(evutil_socket_t, short, void *);
  static void on_join_timeout(evutil_socket_t, short, void *);
  static void on_startup_timeout(evutil_socket_t, short, void *);
  static void on_signal(evutil_socket_t, short, void *);
  void apply();
  void close_conn(ServerCore::ConnId id);
  void flush(ServerCore::ConnId id);
  void check_end();

  const ServerOptions &opts_;
  ServerCore core_;
  EventBasePtr base_{event_base_new()};
  base::Fd listener_;
  EventPtr accept_ev_, startup_timer_;
  std::vector<EventPtr> signal_evs_;
  std::map<ServerCore::ConnId, std::unique_ptr<Conn>> conns_;
  ServerCore::ConnId next_id_ = 1;
  int exit_code_ = 0;
};

// Timer callbacks need (server, connection id).
struct TimerArg {
  void *server;
  ServerCore::ConnId id;
};

void Server::on_accept(evutil_socket_t fd, short, void *arg) {
  auto *s = static_cast<Server *>(arg);
  for (;;) {
    int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (c < 0) return;  // EAGAIN, or a transient error: wait for the next event
    auto id = s->next_id_++;
    auto conn = std::make_unique<Conn>();
    conn->fd.reset(c);
    auto peer = net::peer_endpoint(c);
    std::string name = peer ? peer->text() : "unknown peer";
    conn->ev.reset(
        event_new(s->base_.get(), c, EV_READ | EV_PERSIST, on_read, new TimerArg{s, id}));
    event_add(conn->ev.get(), nullptr);
    auto *targ = new TimerArg{s, id};
    conn->join_timer.reset(evtimer_new(s->base_.get(), on_join_timeout, targ));
    timeval tv{s->opts_.join_timeout_s, 0};
    evtimer_add(conn->join_timer.get(), &tv);
    s->conns_[id] = std::move(conn);
    s->core_.connected(id, name);
    base::log_debug("connection {} from {}", id, name);
  }
}

void Server::on_read(evutil_socket_t fd, short, void *arg) {
  // Copy what we need: closing the connection frees `arg`.
  auto *s = static_cast<Server *>(static_cast<TimerArg *>(arg)->server);
  ServerCore::ConnId id = static_cast<TimerArg *>(arg)->id;
  std::byte buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      s->core_.received(id, std::span(buf, static_cast<size_t>(n)));
      s->apply();
      if (!s->conns_.count(id)) return;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    s->core_.disconnected(id);
    s->close_conn(id);
    s->apply();
    return;
  }
}

void Server::on_write(evutil_socket_t, short, void *arg) {
  auto *s = static_cast<Server *>(static_cast<TimerArg *>(arg)->server);
  ServerCore::ConnId id = static_cast<TimerArg *>(arg)->id;
  s->flush(id);
}

void Server::on_join_timeout(evutil_socket_t, short, void *arg) {
  auto *s = static_cast<Server *>(static_cast<TimerArg *>(arg)->server);
  ServerCore::ConnId id = static_cast<TimerArg *>(arg)->id;
  if (s->core_.is_pending(id)) {
    base::log_error("a connection did not authenticate and join within {} s; closed",
                    s->opts_.join_timeout_s);
    s->core_.disconnected(id);
    s->close_conn(id);
    s->apply();
  }
}

void Server::on_startup_timeout(evutil_socket_t, short, void *arg) {
  auto *s = static_cast<Server *>(arg);
  if (s->core_.startup_complete()) return;
  std::string missing;
  for (int r = 0; r < s->opts_.nclients; ++r)
    if (!s->core_.has_joined(r)) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
  base::log_error("startup did not complete within {} s ({} of {} clients joined{}{}); giving up",
                  s->opts_.startup_timeout_s, s->core_.joined_clients(), s->opts_.nclients,
                  missing.empty() ? "" : "; waiting for client ", missing);
  s->exit_code_ = 1;
  event_base_loopbreak(s->base_.get());
}

void Server::on_signal(evutil_socket_t sig, short, void *arg) {
  auto *s = static_cast<Server *>(arg);
  base::log_error("caught signal {} ({}); shutting down", static_cast<int>(sig),
                  ::strsignal(static_cast<int>(sig)));
  s->exit_code_ = 128 + static_cast<int>(sig);
  event_base_loopbreak(s->base_.get());
}

void Server::flush(ServerCore::ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn &c = *it->second;
  while (!c.out.empty()) {
    ssize_t n = ::send(c.fd.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        if (!c.wev)
          c.wev.reset(
              event_new(base_.get(), c.fd.get(), EV_WRITE, on_write, new TimerArg{this, id}));
        event_add(c.wev.get(), nullptr);
        return;
      }
      core_.disconnected(id);
      close_conn(id);
      return;
    }
    c.out.erase(c.out.begin(), c.out.begin() + n);
  }
  if (c.closing) close_conn(id);
}

void Server::close_conn(ServerCore::ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  // The TimerArgs are owned by the events' callbacks: free them with the events.
  for (EventPtr *e : {&it->second->ev, &it->second->join_timer, &it->second->wev})
    if (*e) delete static_cast<TimerArg *>(event_get_callback_arg(e->get()));
  conns_.erase(it);
}

void Server::apply() {
  for (auto &a : core_.take_actions()) {
    auto it = conns_.find(a.conn);
    if (it == conns_.end()) continue;
    if (a.kind == ServerCore::Action::send) {
      it->second->out.insert(it->second->out.end(), a.bytes.begin(), a.bytes.end());
      flush(a.conn);
    } else {
      it->second->closing = true;
      core_.disconnected(a.conn);
      flush(a.conn);  // closes once the last reply is out
    }
  }
  check_end();
}

void Server::check_end() {
  if (core_.failed() && !core_.startup_complete()) {
    exit_code_ = 1;  // the exchange cannot complete: let every client know now
    event_base_loopbreak(base_.get());
  } else if (core_.finished()) {
    event_base_loopbreak(base_.get());
  } else if (core_.failed() && core_.joined_clients() == 0) {
    exit_code_ = 1;
    event_base_loopbreak(base_.get());
  }
}

int Server::run(base::Fd listener) {
  listener_ = std::move(listener);
  evutil_make_socket_nonblocking(listener_.get());
  accept_ev_.reset(event_new(base_.get(), listener_.get(), EV_READ | EV_PERSIST, on_accept, this));
  event_add(accept_ev_.get(), nullptr);
  startup_timer_.reset(evtimer_new(base_.get(), on_startup_timeout, this));
  timeval tv{opts_.startup_timeout_s, 0};
  evtimer_add(startup_timer_.get(), &tv);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    signal_evs_.emplace_back(evsignal_new(base_.get(), sig, on_signal, this));
    event_add(signal_evs_.back().get(), nullptr);
  }
  event_base_dispatch(base_.get());
  if (core_.failed()) exit_code_ = exit_code_ ? exit_code_ : 1;
  std::vector<ServerCore::ConnId> ids;
  for (auto &[id, c] : conns_) ids.push_back(id);
  for (auto id : ids) close_conn(id);
  if (exit_code_ == 0) base::log_info("every client sent FINI; exiting");
  return exit_code_;
}

const char *lookup_env(const char *n) {
  return std::getenv(n);
}

}  // namespace

int run_server(const ServerOptions &o) {
  ::signal(SIGPIPE, SIG_IGN);
  auto auth = auth_from_env(lookup_env);
  if (!auth) {
    base::log_error("{}", auth.message());
    return 1;
  }
  ServerConfig cfg;
  cfg.nclients = o.nclients;
  cfg.auth_mask = auth->mask();
  cfg.key = auth->key;
  if (!o.auth_list.empty()) {
    auto pref = parse_auth_preference(o.auth_list);
    if (!pref) {
      base::log_error("{}", pref.message());
      return 1;
    }
    cfg.preference = *pref;
    std::uint32_t usable = 0;
    for (int m : cfg.preference)
      if (m < 32) usable |= 1u << m;
    cfg.auth_mask &= usable;
  }
  if (cfg.auth_mask == 0) {
    base::log_error("{}", kNoAuthMessage);
    return 1;
  }
  std::string address = o.address.empty() ? net::primary_address() : o.address;
  auto fd = net::listen_tcp(address, static_cast<std::uint16_t>(o.port));
  if (!fd) {
    base::log_error("{}", fd.message());
    return 1;
  }
  auto ep = net::local_endpoint(fd->get());
  if (!ep) {
    base::log_error("{}", ep.message());
    return 1;
  }
  std::printf("%s\n", ep->text().c_str());
  std::fflush(stdout);
  Server s(o, ServerCore(cfg));
  return s.run(std::move(fd.value()));
}

}  // namespace impi::startup
