#include "transport/impi/router.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/log.hpp"

namespace impi::transport::wire {

using base::Errc;
using base::Status;

AgentRouter::AgentRouter(event_base *base, ChannelConfig cfg, JobLayout layout,
                         std::function<void(const Status &)> on_error)
    : base_(base),
      cfg_(std::move(cfg)),
      layout_(std::move(layout)),
      on_error_(std::move(on_error)) {
  members_.resize(static_cast<std::size_t>(layout_.nhosts));
  dense_.resize(layout_.procs.size());
  for (std::size_t p = 0; p < layout_.procs.size(); ++p) {
    auto &m = members_[static_cast<std::size_t>(layout_.host_of[p])];
    dense_[p] = m.size();
    m.push_back(p);
  }
  for (std::size_t p = 0; p < layout_.procs.size(); ++p)
    index_.emplace(layout_.procs[p], p);  // (the first of duplicates, as the scan found)
  channels_.resize(members_.size());
  links_.resize(members_[static_cast<std::size_t>(layout_.my_host)].size());
}

AgentRouter::~AgentRouter() = default;

std::optional<std::size_t> AgentRouter::proc_of(const ProcId &id) const {
  // Every packet is looked up (routing, and both ids on arrival): by map,
  // not a scan of the job's procs.
  auto it = index_.find(id);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void AgentRouter::add_channel(int host, base::Fd fd) {
  auto h = static_cast<std::size_t>(host);
  auto resolver = [this](std::size_t on_host) {
    return [this, on_host](const ProcId &id) -> std::optional<std::size_t> {
      auto p = proc_of(id);
      if (!p || static_cast<std::size_t>(layout_.host_of[*p]) != on_host) return std::nullopt;
      return dense_[*p];
    };
  };
  ChannelConfig cfg = cfg_;
  cfg.peer = h < layout_.host_names.size() ? layout_.host_names[h] : fmt::format("host {}", host);
  auto me = static_cast<std::size_t>(layout_.my_host);
  channels_[h] = std::make_unique<HostChannel>(
      base_, std::move(fd), cfg, members_[me].size(), members_[h].size(), resolver(me), resolver(h),
      [this, host](std::size_t local, std::size_t remote, const Packet &p,
                   std::span<const std::byte> data) { deliver(host, local, remote, p, data); },
      [this](const Status &s) {
        if (!s.ok()) on_error_(s);
      });
  channels_[h]->set_peer_host(host);
  channels_[h]->defer_acks();
  // on_room comes from inside the channel's output loop: resume from the
  // event loop, not re-entrantly.
  channels_[h]->set_backpressure(cfg_.queue_limit, [this](std::size_t src) {
    if (src < links_.size() && links_[src] && links_[src]->resume_ev)
      event_active(links_[src]->resume_ev.get(), EV_TIMEOUT, 1);
  });
}

void AgentRouter::resume(std::size_t dense) {
  if (dense >= links_.size() || !links_[dense]) return;
  Link &l = *links_[dense];
  if (!l.paused || l.closed) return;
  for (auto &c : channels_)
    if (c && c->over_limit(dense)) return;  // still held by another channel
  l.paused = false;
  if (!route_packets(l)) return;  // what was read before the pause
  event_add(l.rev.get(), nullptr);
}

Status AgentRouter::add_local(std::size_t proc, base::Fd fd) {
  if (proc >= layout_.procs.size() || layout_.host_of[proc] != layout_.my_host)
    return {Errc::invalid_argument, fmt::format("proc {} is not on this host", proc)};
  auto &slot = links_[dense_[proc]];
  if (slot && (slot->fd || slot->closed))
    return {Errc::invalid_argument, fmt::format("proc {} is already connected", proc)};
  if (!slot) slot = std::make_unique<Link>();  // else: packets came before the proc (kept in `out`)
  Link &l = *slot;
  l.proc = proc;
  l.fd = std::move(fd);
  l.router = this;
  l.reader = std::make_unique<PacketReader>(cfg_.maxdatalen);
  ::fcntl(l.fd.get(), F_SETFL, ::fcntl(l.fd.get(), F_GETFL) | O_NONBLOCK);
  // Room for many long-message packets toward the proc: fewer wake-ups per
  // MiB delivered. The proc's end toward us keeps 1 MiB: more there made
  // the funnel slower (bench/p2p.sh with 2 clients).
  int sndbuf = 4 << 20;
  ::setsockopt(l.fd.get(), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  l.rev.reset(event_new(base_, l.fd.get(), EV_READ | EV_PERSIST, &AgentRouter::on_link_event, &l));
  l.wev.reset(event_new(base_, l.fd.get(), EV_WRITE | EV_PERSIST, &AgentRouter::on_link_event, &l));
  l.resume_ev.reset(evtimer_new(
      base_,
      [](evutil_socket_t, short, void *arg) {
        auto &lk = *static_cast<Link *>(arg);
        lk.router->resume(lk.router->dense_[lk.proc]);
      },
      &l));
  event_add(l.rev.get(), nullptr);
  if (!l.out.empty()) {
    l.writing = true;
    event_add(l.wev.get(), nullptr);
  }
  return {};
}

void AgentRouter::on_link_event(evutil_socket_t, short what, void *arg) {
  auto &l = *static_cast<Link *>(arg);
  if (what & EV_READ) l.router->link_readable(l);
  if (!l.closed && (what & EV_WRITE)) l.router->link_writable(l);
}

void AgentRouter::link_readable(Link &l) {
  constexpr std::size_t kChunk = 64 * 1024;
  for (int i = 0; i < 16 && !l.closed && !l.paused; ++i) {
    auto space = l.reader->space(kChunk);  // read in place: no copy
    ssize_t n = ::recv(l.fd.get(), space.data(), std::min(space.size(), kChunk), 0);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      if (errno == EINTR) continue;
      link_failed(
          l, {Errc::io_error, fmt::format("proc {}'s link: {}", l.proc, std::strerror(errno))});
      return;
    }
    if (n == 0) {  // the proc is gone (normally after MPI_Finalize)
      l.closed = true;
      l.rev.reset();
      l.wev.reset();
      l.fd.reset();
      return;
    }
    ++activity_;
    l.reader->commit(static_cast<std::size_t>(n));
    if (!route_packets(l)) return;
  }
}

bool AgentRouter::route_packets(Link &l) {
  while (auto item = l.reader->next_view()) {  // (each packet's data in the reader: send copies it)
    if (!item->ok()) {
      link_failed(l, {Errc::protocol_error, fmt::format("proc {}: {}", l.proc, item->message())});
      return false;
    }
    auto &it = item->value();
    const Packet &p = it.header;
    auto dest = proc_of(p.dest);
    if (!(p.src == layout_.procs[l.proc]) || !dest || p.type == PacketType::protoack ||
        p.type == PacketType::fini) {
      link_failed(l,
                  {Errc::protocol_error,
                   fmt::format("proc {} sent a packet it may not send ({})", l.proc, describe(p))});
      return false;
    }
    auto host = static_cast<std::size_t>(layout_.host_of[*dest]);
    if (host == static_cast<std::size_t>(layout_.my_host) || !channels_[host]) {
      link_failed(l, {Errc::protocol_error,
                      fmt::format("proc {} sent a packet to proc {}, which no channel reaches",
                                  l.proc, *dest)});
      return false;
    }
    auto src = dense_[l.proc];
    if (trace_ && (p.type == PacketType::data || p.type == PacketType::datasync) && p.drqid == 0) {
      auto line = fmt::format("{} {} {} {} {}\n", l.proc, *dest, p.tag, p.cid, p.msglen);
      [[maybe_unused]] ssize_t n =
          ::write(trace_.get(), line.data(), line.size());  // O_APPEND: whole lines
    }
    if (auto s = channels_[host]->send(src, dense_[*dest], p, it.data); !s.ok()) {
      on_error_(s);
      return false;
    }
    if (channels_[host]->over_limit(src)) {
      // Backpressure: the rest stays in the reader and the socket, so the
      // proc's writes wait instead of this agent's memory growing.
      l.paused = true;
      event_del(l.rev.get());
      base::log_debug(
          "proc {}'s link paused: over {} bytes queued for {}", l.proc, cfg_.queue_limit,
          layout_.host_names.size() > host ? layout_.host_names[host] : std::to_string(host));
      return false;
    }
  }
  return true;
}

void AgentRouter::deliver(int host, std::size_t local, std::size_t remote, const Packet &p,
                          std::span<const std::byte> data) {
  if (local >= links_.size()) return;  // (the channel checked the proc)
  if (!links_[local]) {
    // The proc has not linked yet (it may still be in MPI_Init): keep the
    // packet for it. Its ACK waits too, so flow control bounds what we keep.
    links_[local] = std::make_unique<Link>();
    links_[local]->router = this;
    links_[local]->proc = members_[static_cast<std::size_t>(layout_.my_host)][local];
  }
  Link *l = links_[local].get();
  if (l->closed) {
    // The proc is gone (after MPI_Finalize): count the packet as consumed so
    // that its sender is not held back for ever.
    base::log_debug("dropping {} for a proc that has left", describe(p));
    channels_[static_cast<std::size_t>(host)]->consumed(local, remote, p);
    return;
  }
  ++activity_;
  std::size_t written = 0;
  if (l->out.empty() && !l->writing && l->fd) {
    // Nothing queued for the proc: straight into its link from the
    // channel's read buffer, header and data in one call, without a copy.
    std::byte head[kPacketHeaderSize];
    encode(p, std::span<std::byte, kPacketHeaderSize>(head));
    iovec iov[2] = {{head, kPacketHeaderSize}, {const_cast<std::byte *>(data.data()), data.size()}};
    msghdr m{};
    m.msg_iov = iov;
    m.msg_iovlen = data.empty() ? 1 : 2;
    ssize_t n = ::sendmsg(l->fd.get(), &m, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n == static_cast<ssize_t>(kPacketHeaderSize + data.size())) {
      channels_[static_cast<std::size_t>(host)]->consumed(local, remote, p);
      return;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      const int err = errno;
      channels_[static_cast<std::size_t>(host)]->consumed(local, remote,
                                                          p);  // as for a closed link
      link_failed(*l,
                  {Errc::io_error, fmt::format("proc {}'s link: {}", l->proc, std::strerror(err))});
      return;
    }
    written = n > 0 ? static_cast<std::size_t>(n) : 0;  // the rest waits in `out`
  }
  Out o{spare_.take(), host, local, remote, p};
  o.bytes.resize(kPacketHeaderSize);
  encode(p, std::span<std::byte, kPacketHeaderSize>(o.bytes.data(), kPacketHeaderSize));
  o.bytes.insert(o.bytes.end(), data.begin(), data.end());
  l->out.push_back(std::move(o));
  if (written > 0) l->off = written;  // (out was empty: this packet is its front)
  if (!l->writing && l->fd) {
    l->writing = true;
    link_writable(*l);  // now if the link takes it; else when it is writable
    if (!l->closed && !l->out.empty()) event_add(l->wev.get(), nullptr);
  }
}

void AgentRouter::link_writable(Link &l) {
  while (!l.out.empty()) {
    Out &o = l.out.front();
    ssize_t n = ::send(l.fd.get(), o.bytes.data() + l.off, o.bytes.size() - l.off, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      if (errno == EINTR) continue;
      link_failed(
          l, {Errc::io_error, fmt::format("proc {}'s link: {}", l.proc, std::strerror(errno))});
      return;
    }
    l.off += static_cast<std::size_t>(n);
    if (l.off < o.bytes.size()) continue;
    channels_[static_cast<std::size_t>(o.host)]->consumed(o.local, o.remote, o.header);
    spare_.give(std::move(o.bytes));
    l.out.pop_front();
    l.off = 0;
  }
  l.writing = false;
  event_del(l.wev.get());
}

void AgentRouter::link_failed(Link &l, const Status &s) {
  l.closed = true;
  l.rev.reset();
  l.wev.reset();
  l.fd.reset();
  for (auto &o : l.out)
    channels_[static_cast<std::size_t>(o.host)]->consumed(o.local, o.remote, o.header);
  l.out.clear();
  (on_link_error_ ? on_link_error_ : on_error_)(s);
}

void AgentRouter::finish() {
  for (auto &c : channels_)
    if (c) c->finish();
}

std::size_t AgentRouter::queued_to(int host) const {
  auto &c = channels_.at(static_cast<std::size_t>(host));
  return c ? c->queued_packets() : 0;
}

bool AgentRouter::all_closed() const {
  for (std::size_t h = 0; h < channels_.size(); ++h)
    if (static_cast<int>(h) != layout_.my_host && (!channels_[h] || !channels_[h]->is_closed()))
      return false;
  return true;
}

}  // namespace impi::transport::wire
