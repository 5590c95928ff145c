// dyn_channel.cpp - the channel to procs of other jobs (dyn_channel.hpp).
#include "core/dyn/dyn_channel.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <limits>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "core/p2p.hpp"

namespace impi::core {

using base::Errc;

namespace {
constexpr std::uint64_t kUnixListener = 1,
                        kTcpListener = 2;  // epoll tags; connections use their address

std::span<std::byte, DynFrame::kSize> head_at(std::byte *at) {
  return std::span<std::byte, DynFrame::kSize>(at, DynFrame::kSize);
}

void set_nonblocking(int fd) {
  int fl = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}
}  // namespace

base::Result<DynCard> DynChannel::listen() {
  std::lock_guard<EngineLock> g(e_.mu_);
  if (my_card_) return *my_card_;
  DynCard c;
  c.job = job_;
  c.rank = identity_rank_;
  c.host = host_;
  // A name no other process guesses (getrandom, not std::random_device,
  // whose constructor probes the cpu: trapped by some hypervisors).
  std::uint64_t salt = 0;
  if (::getrandom(&salt, sizeof salt, 0) != static_cast<ssize_t>(sizeof salt))
    salt = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string name = fmt::format("impi-dyn-{}-{:016x}", ::getpid(), salt);
  base::Fd u(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, name.data(), name.size());  // abstract namespace: no file to clean up
  auto alen = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (u && ::bind(u.get(), reinterpret_cast<sockaddr *>(&a), alen) == 0 &&
      ::listen(u.get(), 128) == 0) {
    c.unix_name = name;
    unix_ = std::move(u);
  } else {
    base::log_debug("no Unix listener for dynamic processes: {}", std::strerror(errno));
  }
  std::string addr = base::get_string("dyn_address");
  if (!addr.empty()) {
    sockaddr_storage ss{};
    socklen_t len = 0;
    auto *a4 = reinterpret_cast<sockaddr_in *>(&ss);
    auto *a6 = reinterpret_cast<sockaddr_in6 *>(&ss);
    if (::inet_pton(AF_INET, addr.c_str(), &a4->sin_addr) == 1) {
      a4->sin_family = AF_INET;
      len = sizeof *a4;
    } else if (::inet_pton(AF_INET6, addr.c_str(), &a6->sin6_addr) == 1) {
      a6->sin6_family = AF_INET6;
      len = sizeof *a6;
    } else {
      return {Errc::invalid_argument,
              fmt::format("IMPI_DYN_ADDRESS '{}' is not an IP address", addr)};
    }
    base::Fd t(::socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!t || ::bind(t.get(), reinterpret_cast<sockaddr *>(&ss), len) != 0 ||
        ::listen(t.get(), 128) != 0)
      return {Errc::io_error, fmt::format("cannot listen on {} for dynamic processes: {}", addr,
                                          std::strerror(errno))};
    ::getsockname(t.get(), reinterpret_cast<sockaddr *>(&ss), &len);
    int port = ntohs(ss.ss_family == AF_INET ? a4->sin_port : a6->sin6_port);
    c.tcp = ss.ss_family == AF_INET ? fmt::format("{}:{}", addr, port)
                                    : fmt::format("[{}]:{}", addr, port);
    tcp_ = std::move(t);
  }
  if (!unix_ && !tcp_) return {Errc::io_error, "no socket to listen on for dynamic processes"};
  poll_.reset(::epoll_create1(EPOLL_CLOEXEC));
  if (!poll_) return {Errc::io_error, fmt::format("epoll_create1: {}", std::strerror(errno))};
  for (auto [fd, tag] :
       {std::pair{unix_.get(), kUnixListener}, std::pair{tcp_.get(), kTcpListener}}) {
    if (fd < 0) continue;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    ::epoll_ctl(poll_.get(), EPOLL_CTL_ADD, fd, &ev);
  }
  proxy_ = std::make_unique<RingPeer>();
  my_card_ = c;
  on_.store(true, std::memory_order_release);
  e_.poll_channel(*this, true);
  base::log_debug("listening for dynamic processes: {}", c.encode());
  return c;
}

int DynChannel::register_card(const DynCard &card) {
  std::lock_guard<EngineLock> g(e_.mu_);
  return register_locked(card);
}

int DynChannel::register_locked(const DynCard &card) {
  if (card.job == job_)
    return card.rank < world_size_ ? card.rank : -1;  // our own job: shared memory
  auto key = card.key();
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  if (peers_.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max() - P2P::kDynBase))
    return -1;
  auto p = std::make_unique<Peer>();
  p->card = card;
  int w = P2P::kDynBase + static_cast<int>(peers_.size());
  peers_.push_back(std::move(p));
  index_.emplace(std::move(key), w);
  return w;
}

std::string DynChannel::proc_key(int w) {
  std::lock_guard<EngineLock> g(e_.mu_);
  return proc_key_locked(w);
}

std::string DynChannel::proc_key_locked(int w) {
  if (Peer *p = P2P::dyn(w) ? peer(w) : nullptr) return p->card.key();
  return job_ + "#" + std::to_string(w);
}

std::uint64_t DynChannel::open_port() {
  std::lock_guard<EngineLock> g(e_.mu_);
  std::uint64_t n = next_port_++;
  ports_.emplace(n, Port{});
  return n;
}

bool DynChannel::close_port(std::uint64_t n) {
  std::lock_guard<EngineLock> g(e_.mu_);
  return ports_.erase(n) > 0;  // waiting connections close: their roots see the port gone
}

bool DynChannel::port_open(std::uint64_t n) {
  std::lock_guard<EngineLock> g(e_.mu_);
  return ports_.count(n) > 0;
}

base::Result<base::Fd> DynChannel::accept_port(std::uint64_t n) {
  bool gone = false;
  auto ready = [&] {
    std::lock_guard<EngineLock> g(e_.mu_);
    auto it = ports_.find(n);
    gone = it == ports_.end();
    return gone || !it->second.waiting.empty();
  };
  e_.wait_until(ready);  // as long as it takes: MPI_Comm_accept has no timeout
  std::lock_guard<EngineLock> g(e_.mu_);
  auto it = ports_.find(n);
  if (it == ports_.end())
    return {Errc::not_found, "the port was closed while MPI_Comm_accept waited on it"};
  base::Fd fd = std::move(it->second.waiting.front());
  it->second.waiting.pop_front();
  return fd;
}

bool DynChannel::connect(int w, Peer &p) {
  if (p.out) return true;
  if (p.broken) return false;
  auto fd = dyn_dial(p.card, host_, std::chrono::seconds(base::get_int("dyn_timeout_s")));
  if (!fd) {
    base::log_error("cannot reach rank {} of job {}: {}", p.card.rank, p.card.job, fd.message());
    p.broken = true;
    return false;
  }
  p.out = std::move(fd.value());
  set_nonblocking(p.out.get());
  int sndbuf = 1 << 20;
  ::setsockopt(p.out.get(), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  DynCard mine = *my_card_;
  make_ring(w, p);
  if (p.ring) mine.shm = p.ring->seg.name();
  std::string card = mine.encode();
  queue(p, DynFrame::hello, 0, 0, 0, card.size(), 0,
        [&](std::byte *at) { std::memcpy(at, card.data(), card.size()); });
  return !p.broken;
}

void DynChannel::make_ring(int w, Peer &p) {
  // Same node: offer the peer a ring in shared memory (the socket stays for
  // the handshake and wake-ups). Named under our job, so that the launcher
  // removes it if we die before the peer unlinks it.
  if (p.card.host != host_ || base::get_int("dyn_shm") == 0) return;
  std::string ns = job_.substr(0, job_.find('@'));
  std::string name = fmt::format("/impi-{}-dyn-{}-{}", ns, ::getpid(), next_ring_++);
  auto seg = transport::shm::Segment::create(name, 1, e_.shm_.ring_bytes());
  if (!seg) {
    base::log_debug("no shared-memory ring to rank {} of job {}: {}", p.card.rank, p.card.job,
                    seg.message());
    return;
  }
  p.ring = std::make_unique<RingPeer>();
  p.ring->world = w;
  p.ring->seg = std::move(seg.value());
  p.ring->out = p.ring->seg.ring(0);
}

void DynChannel::wake(Peer &p) {
  // The receiver counts itself in `sleeping` before its last look at the
  // ring; we published before this load: one of us sees the other.
  // (A read-modify-write: a full barrier after our publishing store, which
  // a plain load is not; ThreadSanitizer also models it, unlike a fence.)
  if (p.ring->seg.header().sleeping.fetch_add(0, std::memory_order_seq_cst) > 0)
    queue(p, DynFrame::wake, 0, 0, 0, 0, 0, [](std::byte *) {});
}

void DynChannel::sleeping(int d) {
  for (auto &in : in_)
    if (in->ring && in->ring_on)
      in->ring->seg.header().sleeping.fetch_add(static_cast<std::uint32_t>(d),
                                                std::memory_order_seq_cst);
}

DynChannel::~DynChannel() = default;

DynChannel::Peer *DynChannel::peer(int w) {
  std::size_t i = static_cast<std::size_t>(w - P2P::kDynBase);
  return i < peers_.size() ? peers_[i].get() : nullptr;
}

void DynChannel::pollfds(std::vector<pollfd> &out) const {
  if (on()) out.push_back({poll_.get(), POLLIN, 0});
}

void DynChannel::arrival(int peer, const DynFrame &f, std::span<const std::byte> payload) {
  ShmHeader h{ShmHeader::eager, static_cast<std::uint32_t>(payload.size()), f.source, f.tag,
              f.context,        static_cast<std::int64_t>(payload.size()),  f.id};
  proxy_->world = peer;
  e_.shm_.start_message(*proxy_, h, payload);
}

void DynChannel::bind(const RequestPtr &r, Match::MessageRef u) {
  // Arrivals from other jobs are ring-protocol messages (start_message):
  // the shared-memory channel delivers them, acking through ack(); the
  // rest of a long one then comes through one of our rings.
  e_.shm_.bind(r, u);
  if (!u->complete) rebind_incoming(u, r);
}

void DynChannel::rebind_incoming(const Match::MessageRef &u, const RequestPtr &r) {
  for (auto &in : in_)
    if (in->ring && in->ring->incoming.active && !in->ring->incoming.to_request &&
        in->ring->incoming.unexpected == u)
      in->ring->incoming = {r, {}, true, true};
}

void DynChannel::acked(std::uint64_t id) {
  auto it = awaiting_.find(id);
  if (it == awaiting_.end()) return;
  RequestPtr r = std::move(it->second);
  awaiting_.erase(it);
  r->acked = true;
  r->done = r->moved == r->total;  // through a ring, the last chunks may still be going
}

void DynChannel::queue(Peer &p, std::uint8_t kind, int source, int tag, int context,
                       std::uint64_t len, std::uint64_t id,
                       const std::function<void(std::byte *)> &fill) {
  DynFrame f;
  f.kind = kind;
  f.source = source;
  f.tag = tag;
  f.context = context;
  f.len = len;
  f.id = id;
  if (kind == DynFrame::msg || kind == DynFrame::ack)
    p.outq_data = true;  // (control frames may be lost harmlessly)
  std::byte *at = p.outq.reserve(DynFrame::kSize + len);
  f.encode(head_at(at));
  if (len > 0) fill(at + DynFrame::kSize);
  p.outq.tail += DynFrame::kSize + len;
  flush(p);
}

bool DynChannel::flush(Peer &p) {
  if (p.broken) return false;
  std::string why;
  bool any = p.outq.write_to(p.out.get(), p.broken, why);
  if (p.broken) {
    // Only wake-ups lost (the peer finished after reading its ring): nothing to report.
    if (p.outq_data)
      base::log_error("the connection to rank {} of job {} broke: {}", p.card.rank, p.card.job,
                      why);
    else
      base::log_debug("the connection to rank {} of job {} closed: {}", p.card.rank, p.card.job,
                      why);
    p.out.reset();
  }
  if (p.outq.pending() == 0) p.outq_data = false;
  return any;
}

base::Result<RequestPtr> DynChannel::start_send(const SendArgs &a) {
  std::lock_guard<EngineLock> g(e_.mu_);
  const void *buf = a.buf;
  const std::int64_t count = a.count;
  const pack::TypePtr &type = a.type;
  const int dest = a.dest_world, src_rank = a.src_rank, tag = a.tag, context = a.context;
  const bool sync = a.sync;
  auto r = make_request();
  r->kind = Request::Kind::send;
  r->channel = this;
  r->peer = dest;
  r->tag = tag;
  r->context = context;
  r->sync = sync;
  r->status.source = src_rank;
  pack::PackCursor cur(type, count);
  r->total = cur.total();
  TrafficCounters::add(e_.traffic_.dyn_messages, e_.traffic_.dyn_bytes, r->total);
  Peer *p = peer(dest);
  if (!p || static_cast<std::uint64_t>(r->total) > std::numeric_limits<std::uint32_t>::max() ||
      !connect(dest, *p)) {
    if (p && r->total > static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
      base::log_error(
          "a message of {} bytes to another job is longer than the 4 GiB this transport carries",
          r->total);
    r->status.error = kTransportError;
    r->done = true;
    return r;
  }
  if (sync) {
    r->id = e_.next_id_++;
    awaiting_.emplace(r->id, r);
  }
  if (p->ring_on) {  // same node: through the ring, as to a proc of our own job
    r->send_buf = buf;
    r->count = count;
    r->type = type;
    r->cursor.emplace(r->type, count);
    RingPeer &q = *p->ring;
    q.sendq.push_back(r);
    e_.shm_.count_queued(+1);
    if (q.sendq.size() == 1 && e_.shm_.push_sends(q)) wake(*p);
    return r;
  }
  const auto len = static_cast<std::uint64_t>(r->total);
  queue(*p, DynFrame::msg, src_rank, tag, context, len, sync ? r->id : 0, [&](std::byte *at) {
    std::uint64_t done = 0;
    while (done < len) done += cur.pack(buf, std::span(at + done, len - done));
  });
  r->moved = r->total;
  if (p->broken) {
    awaiting_.erase(r->id);
    r->status.error = kTransportError;
    r->done = true;
  } else if (!sync) {
    r->done = true;  // the bytes are ours now (queued or in the socket)
  }
  return r;
}

void DynChannel::ack(int w, std::uint64_t id) {
  Peer *p = peer(w);
  if (!p || !connect(w, *p)) return;
  if (p->ring_on) {
    e_.shm_.queue_ack(*p->ring, id);
    if (e_.shm_.push_sends(*p->ring)) wake(*p);
    return;
  }
  queue(*p, DynFrame::ack, 0, 0, 0, 0, id, [](std::byte *) {});
}

bool DynChannel::progress() {
  bool any = false;
  epoll_event ev[16];
  int n = ::epoll_wait(poll_.get(), ev, 16, 0);
  for (int i = 0; i < n; ++i) {
    std::uint64_t tag = ev[i].data.u64;
    if (tag == kUnixListener || tag == kTcpListener) {
      int lfd = tag == kUnixListener ? unix_.get() : tcp_.get();
      for (;;) {
        int c = ::accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c < 0) break;
        auto in = std::make_unique<In>();
        in->fd.reset(c);
        epoll_event e{};
        e.events = EPOLLIN | EPOLLRDHUP;
        e.data.ptr = in.get();
        ::epoll_ctl(poll_.get(), EPOLL_CTL_ADD, c, &e);
        in_.push_back(std::move(in));
        any = true;
      }
      continue;
    }
    auto *in = static_cast<In *>(ev[i].data.ptr);
    any = true;
    if (!read(*in)) {
      // The sender is done (it finished its ring sends before closing):
      // what is in its ring is the last of its messages.
      if (in->ring && in->ring_on) e_.shm_.drain(*in->ring);
      if (in->fd) ::epoll_ctl(poll_.get(), EPOLL_CTL_DEL, in->fd.get(), nullptr);
      for (auto it = in_.begin(); it != in_.end(); ++it)
        if (it->get() == in) {
          in_.erase(it);
          break;
        }
    }
  }
  for (auto &in : in_)
    if (in->ring_on) any |= e_.shm_.drain(*in->ring);
  for (auto &p : peers_) {
    if (p->ring_on && (!p->ring->sendq.empty() || !p->ring->control.empty()) &&
        e_.shm_.push_sends(*p->ring)) {
      any = true;
      wake(*p);
    }
    if (p->outq.pending() > 0) any |= flush(*p);
  }
  return any;
}

bool DynChannel::read(In &in) {
  bool open = true;
  for (;;) {
    std::size_t at = in.buf.size();
    in.buf.resize(at + 65536);
    ssize_t n = ::recv(in.fd.get(), in.buf.data() + at, 65536, MSG_DONTWAIT);
    in.buf.resize(at + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    open = false;  // EOF (the peer finalized or disconnected) or an error
    break;
  }
  bool keep = frames(in);
  return keep && open;
}

bool DynChannel::frames(In &in) {
  std::size_t off = 0;
  auto drop = [&](std::string_view why) {
    base::log_warn("closing a connection from {}: {}",
                   in.peer >= 0 ? proc_key_locked(in.peer) : "an unknown process", why);
    return false;
  };
  for (;;) {
    DynFrame fr;
    auto took = dyn_next_frame(std::span<const std::byte>(in.buf).subspan(off), fr);
    if (!took) return drop(took.message());
    if (*took == 0) break;  // the rest is still coming
    const DynFrame *f = &fr;
    std::span<const std::byte> payload(in.buf.data() + off + DynFrame::kSize, fr.len);
    off += *took;
    switch (f->kind) {
      case DynFrame::hello: {
        if (in.peer >= 0) return drop("a second hello");
        auto card = DynCard::decode(
            std::string_view(reinterpret_cast<const char *>(payload.data()), payload.size()));
        if (!card) return drop(card.message());
        in.peer = register_locked(*card);
        if (in.peer < 0) return drop("its card names a rank our job does not have");
        if (!card->shm.empty() && P2P::dyn(in.peer) && card->host == host_ &&
            base::get_int("dyn_shm") != 0) {
          // Its ring for us: map it, take its name out of /dev/shm, say so.
          auto seg = transport::shm::Segment::open(card->shm);
          if (seg && seg->header().nrings == 1) {
            ::shm_unlink(card->shm.c_str());
            in.ring = std::make_unique<RingPeer>();
            in.ring->world = in.peer;
            in.ring->seg = std::move(seg.value());
            in.ring->in = in.ring->seg.ring(0);
            Peer *back = peer(in.peer);
            if (back && connect(in.peer, *back))
              queue(*back, DynFrame::shm_ok, 0, 0, 0, 0, 0, [](std::byte *) {});
          } else {
            base::log_debug("cannot map the ring of rank {} of job {} ({}): using the socket",
                            card->rank, card->job, seg ? "not one ring" : seg.message());
          }
        }
        break;
      }
      case DynFrame::shm_ok: {
        Peer *p = in.peer >= 0 ? peer(in.peer) : nullptr;
        if (!p || !p->ring || p->ring_on) return drop("a ring confirmation for no ring offered");
        queue(*p, DynFrame::shm_switch, 0, 0, 0, 0, 0, [](std::byte *) {});
        p->ring_on = !p->broken;  // from now on our messages to it go through the ring
        break;
      }
      case DynFrame::shm_switch:
        if (!in.ring || in.ring_on) return drop("a switch to a ring it did not offer");
        in.ring_on = true;
        e_.shm_.drain(*in.ring);  // in order: everything before the switch came through the socket
        break;
      case DynFrame::wake:
        break;  // reading it was the point
      case DynFrame::msg:
        if (in.peer < 0) return drop("a message before its hello");
        if (in.ring_on) return drop("a message on the socket after its switch to the ring");
        arrival(in.peer, *f, payload);
        break;
      case DynFrame::ack:
        if (!awaiting_.count(f->id)) return drop("an ack for no synchronous send of ours");
        acked(f->id);
        break;
      case DynFrame::port: {
        if (in.peer >= 0 || off != in.buf.size())
          return drop("a port request in the middle of a connection");
        auto it = ports_.find(f->id);
        if (it == ports_.end()) {
          base::log_debug("a connection for port {}, which is not open: closed", f->id);
          return false;  // the connecting root sees the connection close
        }
        ::epoll_ctl(poll_.get(), EPOLL_CTL_DEL, in.fd.get(), nullptr);
        int fl = ::fcntl(in.fd.get(), F_GETFL);
        ::fcntl(in.fd.get(), F_SETFL, fl & ~O_NONBLOCK);
        it->second.waiting.push_back(std::move(in.fd));
        return false;  // no longer ours to read
      }
      default:
        return drop(fmt::format("a frame of kind {} on a data connection", f->kind));
    }
  }
  in.buf.erase(in.buf.begin(), in.buf.begin() + static_cast<std::ptrdiff_t>(off));
  return true;
}

bool DynChannel::drain_to(const std::vector<int> &procs) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(base::get_int("dyn_timeout_s"));
  for (;;) {
    bool pending = false;
    {
      std::lock_guard<EngineLock> g(e_.mu_);
      for (int w : procs) {
        Peer *p = P2P::dyn(w) ? peer(w) : nullptr;
        if (!p || p->broken) continue;
        if (p->ring_on && (!p->ring->sendq.empty() || !p->ring->control.empty())) {
          if (e_.shm_.push_sends(*p->ring)) wake(*p);
          pending = true;
        }
        if (p->outq.pending() > 0) {
          flush(*p);
          pending |= p->outq.pending() > 0;
        }
      }
    }
    if (!pending) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    e_.progress();
    ::usleep(50);
  }
}

void DynChannel::close() {
  std::lock_guard<EngineLock> g(e_.mu_);
  if (!on_.load(std::memory_order_relaxed)) return;
  // What we queued for procs of other jobs leaves before we do (bounded:
  // a peer that stopped reading must not keep us forever).
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(base::get_int("dyn_timeout_s"));
  for (auto &p : peers_) {
    while (p->ring_on && (!p->ring->sendq.empty() || !p->ring->control.empty()) && !p->broken &&
           std::chrono::steady_clock::now() < deadline) {
      if (e_.shm_.push_sends(*p->ring)) {
        wake(*p);
        continue;
      }
      flush(*p);
      ::usleep(50);  // the receiver is draining its ring
    }
    while (p->outq.pending() > 0 && !p->broken && std::chrono::steady_clock::now() < deadline) {
      if (flush(*p)) continue;
      pollfd pf{p->out.get(), POLLOUT, 0};
      ::poll(&pf, 1, 100);
    }
    // (Only wake-ups left for a peer that finished after reading its ring:
    // nothing lost.)
    if (p->outq.pending() > 0 && p->outq_data)
      base::log_warn("{} bytes for rank {} of job {} were not sent before MPI_Finalize",
                     p->outq.pending(), p->card.rank, p->card.job);
    p->out.reset();
    if (p->ring)
      p->ring->seg.unlink();  // (a peer that never mapped our ring leaves no name behind)
  }
  in_.clear();
  ports_.clear();
  unix_.reset();
  tcp_.reset();
  on_.store(false, std::memory_order_release);
  e_.poll_channel(*this, false);
  poll_.reset();
}

}  // namespace impi::core
