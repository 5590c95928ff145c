// direct.cpp - direct channels: a host whose only proc is this one.
//
// The host agent (src/startup/agent/host_agent.hpp) has nothing to multiplex on a
// host with a single proc, so it hands that proc the TCP channels from the
// dance, and the proc runs them itself with the agent's own HostChannel
// (flow control per proc pair, ACKs ahead of data, FINI, the stall check).
// The packets on the wire are the same; what goes away is the trip through
// the agent: a proc-to-proc message costs one TCP hop instead of a Unix
// socket, a thread hand-off and a copy on each side.
//
// The protocol engine (impi_channel.cpp) is unchanged: it still encodes its
// packets into link_out_; direct_flush() hands each to the channel of its
// destination's host instead of writing the link. Arrivals come from the
// channels' Deliver callbacks into arrival(). Packets the engine
// sends from inside a callback (a SYNCACK on a match) wait in link_out_
// until the channel has returned.
//
// Failures: a channel that fails during the job ends the job (the proc
// reports it as its fatal error, naming the host, like the agent would).
// A proc outside MPI calls reads nothing, so a watcher thread polls the
// channels (without reading) for their end: a peer closes only after our
// FINI, so an end before we finish means the peer host died.
// At MPI_Finalize, close_direct() sends FINI on every channel and reads
// (dropping data, acknowledging) until each peer's FINI (IMPI 3.8).
#include <event2/event.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

#include "base/log.hpp"
#include "base/sys.hpp"
#include "base/tunables.hpp"
#include "core/impi/impi_channel.hpp"
#include "core/p2p.hpp"
#include "core/runtime.hpp"
#include "transport/impi/channel.hpp"

namespace impi::core {

namespace tw = transport::wire;
using base::Errc;

struct ImpiChannel::Direct {
  std::unique_ptr<event_base, void (*)(event_base *)> base{nullptr, event_base_free};
  std::vector<std::unique_ptr<tw::HostChannel>> channels;  // by host index (null: none)
  std::vector<int> host_of;                                // by world rank
  std::vector<std::size_t> dense;      // world rank -> index among its host's procs
  std::map<tw::ProcId, int> world_of;  // IMPI proc id -> world rank
  std::vector<std::string> names;
  std::vector<bool> sibling;           // by host index: run by our own impirun (DirectLayout)
  int in_channel = 0;                  // inside a channel's callback
  std::atomic<bool> finishing{false};  // MPI_Finalize: arrivals are dropped
  std::atomic<bool> failing{false};    // a channel failed: this proc reports it, not the watcher
  std::uint64_t delivered = 0;
  unsigned passes = 0;
  std::vector<std::uint64_t> written;  // sends (srqid) whose lent data has all gone
  std::string finish_error;            // a channel that failed during the FINI exchange
  std::vector<pollfd> pfds;            // direct_poll's, reused
  std::vector<tw::HostChannel *> pchan;
  // The watcher: its own copies of the channels' descriptors, and a pipe
  // that stops it.
  std::thread watcher;
  std::atomic<bool> done{false};
  base::Fd stop_r, stop_w;

  ~Direct() { stop_watcher(); }
  void stop_watcher() {
    done = true;
    if (watcher.joinable()) {
      char c = 'x';
      [[maybe_unused]] ssize_t n = ::write(stop_w.get(), &c, 1);
      watcher.join();
    }
  }

  std::optional<int> world(const tw::ProcId &id) const {
    auto it = world_of.find(id);
    if (it == world_of.end()) return std::nullopt;
    return it->second;
  }
};

// Starts the watcher (see the top) over the channels of `x`.
base::Status ImpiChannel::start_watcher(Direct &x, int me) {
  int pp[2];
  if (::pipe2(pp, O_CLOEXEC) != 0)
    return {Errc::io_error, fmt::format("pipe: {}", std::strerror(errno))};
  x.stop_r.reset(pp[0]);
  x.stop_w.reset(pp[1]);
  std::vector<std::pair<std::size_t, base::Fd>> watched;
  for (std::size_t h = 0; h < x.channels.size(); ++h)
    if (x.channels[h]) {
      base::Fd copy(::fcntl(x.channels[h]->fd(), F_DUPFD_CLOEXEC, 0));
      if (!copy) return {Errc::io_error, fmt::format("dup: {}", std::strerror(errno))};
      watched.emplace_back(h, std::move(copy));
    }
  Direct *raw = &x;
  x.watcher = std::thread([raw, me, watched = std::move(watched)]() mutable {
    // Looks every kWatchMs, without waiting on the sockets: a wait would
    // put an entry on each socket's wait queue, which every arrival then
    // wakes (on the sender's core) for nothing (8 B between two clients:
    // about 0.1 us a message).
    constexpr int kWatchMs = 100;
    pollfd stop{raw->stop_r.get(), POLLIN, 0};
    std::vector<pollfd> fds;
    std::vector<std::size_t> host;
    for (auto &[h, fd] : watched) {
      fds.push_back({fd.get(), POLLRDHUP, 0});
      host.push_back(h);
    }
    while (!raw->done) {
      if (int n = ::poll(&stop, 1, kWatchMs); n != 0) {
        if (n > 0) return;
        continue;  // (EINTR)
      }
      if (::poll(fds.data(), fds.size(), 0) <= 0) continue;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (fds[i].fd < 0 || (fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) continue;
        fds[i].fd = -1;
        // A proc inside MPI reports it itself, from its channel; give it the
        // chance, so that the message is the channel's own. A sibling's
        // death is our launcher's to report (it kills us meanwhile).
        ::usleep(raw->sibling[host[i]] ? 3000 * 1000 : 500 * 1000);
        if (raw->done || raw->finishing || raw->failing) return;
        Runtime::instance().abort(
            1, fmt::format(
                   "impi fatal: rank {}: {} closed its channel without FINI; the job cannot go on "
                   "without that host",
                   me, raw->names[host[i]]));
      }
    }
  });
  return {};
}

base::Status ImpiChannel::attach_direct(DirectLayout d) {
  std::lock_guard<EngineLock> g(e_.mu_);
  if (!agent_) return {Errc::invalid_argument, "direct channels need the agent's link first"};
  auto x = std::make_shared<Direct>();
  x->base.reset(event_base_new());
  if (!x->base) return {Errc::io_error, "event_base_new failed"};
  const std::size_t nhosts = d.host_names.size();
  if (d.host_of.size() != ids_.size() || d.my_host < 0 ||
      static_cast<std::size_t>(d.my_host) >= nhosts)
    return {Errc::invalid_argument, "direct channels: the job layout does not match"};
  x->host_of = d.host_of;
  x->names = d.host_names;
  x->sibling.assign(nhosts, false);
  for (int h : d.sibling_hosts)
    if (h >= 0 && static_cast<std::size_t>(h) < nhosts)
      x->sibling[static_cast<std::size_t>(h)] = true;
  std::vector<std::size_t> count(nhosts, 0);
  x->dense.resize(ids_.size());
  for (std::size_t w = 0; w < ids_.size(); ++w) {
    auto h = static_cast<std::size_t>(d.host_of[w]);
    if (h >= nhosts) return {Errc::invalid_argument, "direct channels: a proc on no host"};
    x->dense[w] = count[h]++;
    x->world_of[ids_[w]] = static_cast<int>(w);
  }
  if (count[static_cast<std::size_t>(d.my_host)] != 1 ||
      d.host_of[static_cast<std::size_t>(e_.me_)] != d.my_host)
    return {Errc::invalid_argument, "direct channels are for a host's only proc"};
  x->channels.resize(nhosts);
  Direct *raw = x.get();
  auto resolver = [raw](int host) {
    return [raw, host](const tw::ProcId &id) -> std::optional<std::size_t> {
      auto w = raw->world(id);
      if (!w || raw->host_of[static_cast<std::size_t>(*w)] != host) return std::nullopt;
      return raw->dense[static_cast<std::size_t>(*w)];
    };
  };
  const int stall_s = static_cast<int>(base::get_int("peer_stall_s"));
  // Lent data (push_streams): the channel says when it has gone. Called
  // from inside the channel: it only counts; direct_written() completes.
  auto written = [this, raw](std::uint64_t srqid, std::size_t n) {
    auto it = sends_.find(srqid);
    if (it == sends_.end()) return;
    it->second.inflight -= static_cast<std::int64_t>(n);
    if (it->second.inflight == 0) raw->written.push_back(srqid);
  };
  for (auto &[h, fd] : d.channels) {
    auto hh = static_cast<std::size_t>(h);
    if (hh >= nhosts || h == d.my_host || x->channels[hh])
      return {Errc::invalid_argument, fmt::format("direct channels: no peer host {}", h)};
    tw::ChannelConfig cfg{d.maxdatalen, d.ackmark, d.hiwater, d.host_names[hh], stall_s, 0};
    x->channels[hh] = std::make_unique<tw::HostChannel>(
        x->base.get(), std::move(fd), cfg, 1, count[hh], resolver(d.my_host), resolver(h),
        [this, raw](std::size_t, std::size_t, const tw::Packet &p,
                    std::span<const std::byte> data) {
          ++raw->delivered;
          if (raw->finishing) return;  // after the finalize barrier: destroyed (IMPI 3.8)
          ++raw->in_channel;
          arrival(p, data);
          --raw->in_channel;
        },
        [this, raw, hh](const base::Status &s) {
          if (s.ok()) return;
          if (raw->finishing) {  // close_direct() reports it
            if (raw->finish_error.empty()) raw->finish_error = s.message();
            return;
          }
          if (raw->sibling[hh]) {  // a sibling proc died: the watcher's delay, then the launcher
            base::log_debug("{}", s.message());
            return;
          }
          // A peer host died (or broke the protocol): the job cannot finish.
          // Its own launcher names the cause (a proc killed) if given a
          // moment first; ours would otherwise race it, and a client that
          // loses us next would name us instead of the cause.
          raw->failing = true;
          ::usleep(250 * 1000);
          Runtime::instance().abort(
              1, fmt::format("impi fatal: rank {}: {}; the job cannot go on without that host",
                             e_.me_, s.message()));
        });
    x->channels[hh]->set_peer_host(h);
    x->channels[hh]->pumped_only();  // (direct_poll and close_direct pump it)
    x->channels[hh]->set_written_hook(written);
    x->channels[hh]->set_sink([this, raw](std::size_t, std::size_t, const tw::Packet &p) {
      return raw->finishing ? std::span<std::byte>{} : landing_place(p);
    });
  }
  if (auto st = start_watcher(*x, e_.me_); !st.ok()) return st;
  direct_ = std::move(x);
  e_.relayed_ = false;  // (no agent thread to yield the core to)
  return {};
}

std::size_t ImpiChannel::backlog() const {
  std::size_t n = link_out_.pending();
  if (direct_)
    for (const auto &c : direct_->channels)
      if (c) n += c->backlog();
  return n;
}

bool ImpiChannel::direct_flush() {
  Direct &x = *direct_;
  if (x.in_channel > 0) return false;  // the channel is in a callback: after it returns
  bool any = false;
  while (link_out_.pending() >= tw::kPacketHeaderSize) {
    std::byte *at = link_out_.buf.get() + link_out_.head;
    auto p = tw::decode(std::span<const std::byte>(at, tw::kPacketHeaderSize), maxdatalen_);
    // Our own encoding: a failure here is a bug, not input.
    if (!p.ok() || link_out_.pending() < tw::kPacketHeaderSize + p.value().len) {
      base::log_error("direct channels: a packet of ours does not decode: {}",
                      p.ok() ? "short" : p.message());
      std::abort();
    }
    const tw::Packet &pk = p.value();
    auto w = x.world(pk.dest);
    tw::HostChannel *c =
        w ? x.channels[static_cast<std::size_t>(x.host_of[static_cast<std::size_t>(*w)])].get()
          : nullptr;
    base::Status s;
    if (c) {
      auto bytes = c->take_buffer();
      bytes.assign(at, at + tw::kPacketHeaderSize + pk.len);
      s = c->send_bytes(0, x.dense[static_cast<std::size_t>(*w)], pk, std::move(bytes));
    } else {
      s = {Errc::invalid_argument, fmt::format("no channel for {}", tw::describe(pk))};
    }
    if (!s.ok()) {
      // Only a closed channel refuses: its failure is being reported.
      base::log_error("direct channels: {}", s.message());
      link_broken_ = true;
      link_out_.head = link_out_.tail = 0;
      return any;
    }
    link_out_.head += tw::kPacketHeaderSize + pk.len;
    any = true;
  }
  return any;
}

void ImpiChannel::direct_cork(bool on) {
  for (auto &c : direct_->channels)
    if (c) on ? c->cork() : c->uncork();
}

bool ImpiChannel::direct_in_channel() const {
  return direct_->in_channel > 0;
}

bool ImpiChannel::direct_lend(RemoteSend &s, const tw::Packet &p, std::span<const std::byte> data) {
  Direct &x = *direct_;
  auto w = static_cast<std::size_t>(s.dest);
  tw::HostChannel *c = x.channels[static_cast<std::size_t>(x.host_of[w])].get();
  s.inflight += static_cast<std::int64_t>(data.size());  // (the hook may run inside the call)
  base::Status st = c ? c->send_borrowed(0, x.dense[w], p, data, p.srqid)
                      : base::Status{Errc::invalid_argument, "no channel to that host"};
  if (!st.ok()) {
    s.inflight -= static_cast<std::int64_t>(data.size());
    base::log_error("direct channels: {}", st.message());
    link_broken_ = true;
    return false;
  }
  return true;
}

void ImpiChannel::direct_written() {
  Direct &x = *direct_;
  while (!x.written.empty()) {
    std::uint64_t id = x.written.back();
    x.written.pop_back();
    auto it = sends_.find(id);
    if (it != sends_.end()) send_done(it->second);
  }
}

bool ImpiChannel::direct_poll() {
  Direct &x = *direct_;
  const std::uint64_t before = x.delivered;
  bool writing = false;
  // Which channels have bytes (poll: no socket lock, unlike a recv).
  x.pfds.clear();
  x.pchan.clear();
  for (std::size_t h = 0; h < x.channels.size(); ++h)
    if (auto &c = x.channels[h]; c && !c->is_closed() && !x.sibling[h]) {
      x.pfds.push_back({c->fd(), POLLIN, 0});
      x.pchan.push_back(c.get());
    }
  if (!x.pfds.empty() && base::sys_poll(x.pfds.data(), x.pfds.size(), 0) < 0)
    for (auto &p : x.pfds) p.revents = POLLIN;  // (EINTR: try them all)
  for (std::size_t i = 0; i < x.pchan.size(); ++i) {
    x.pchan[i]->pump(x.pfds[i].revents != 0);
    writing |= x.pchan[i]->wants_write();
  }
  // The loop dispatches blocked writes and the stall check's timer.
  if (writing || (++x.passes & 63) == 0) event_base_loop(x.base.get(), EVLOOP_NONBLOCK);
  if ((x.passes & 1023) == 0) {
    // The link carries nothing now; its end means our impirun is gone.
    char c;
    ssize_t n = ::recv(agent_.get(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      base::log_error("the host agent's link closed during the job: impirun is gone; exiting");
      std::_Exit(1);
    }
  }
  if (link_out_.pending() > 0) direct_flush();  // what callbacks queued
  const bool completed = !x.written.empty();
  direct_written();
  return x.delivered != before || completed;
}

// The open channels' descriptors for a blocking wait; `siblings`: also
// those to our sibling split hosts, which carry nothing until the FINI
// exchange (close_direct() waits on them, the progress engine does not).
void ImpiChannel::channel_pollfds(const Direct &x, bool siblings, std::vector<pollfd> &out) {
  for (std::size_t h = 0; h < x.channels.size(); ++h)
    if (const auto &c = x.channels[h]; c && !c->is_closed() && (siblings || !x.sibling[h]))
      out.push_back({c->fd(), static_cast<short>(c->wants_write() ? POLLIN | POLLOUT : POLLIN), 0});
}

void ImpiChannel::direct_pollfds(std::vector<pollfd> &out) const {
  channel_pollfds(*direct_, false, out);
}

void ImpiChannel::close_direct() {
  Direct &x = *direct_;
  direct_flush();
  // Test hook (impi_startup_fini_lost): this proc dies where its FINI would go.
  if (const char *t = std::getenv("IMPI_TEST_EXIT_BEFORE_FINI"); t && *t == '1') ::_exit(3);
  x.finishing = true;
  x.stop_watcher();  // its copies of the descriptors close with it
  for (auto &c : x.channels)
    if (c) c->finish();
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(base::get_int("pmix_timeout_s"));
  for (;;) {
    bool open = false;
    for (auto &c : x.channels)
      if (c && !c->is_closed()) {
        c->pump();
        open |= !c->is_closed();
      }
    if (!open) break;
    if (std::chrono::steady_clock::now() > deadline) {
      for (std::size_t h = 0; h < x.channels.size(); ++h)
        if (x.channels[h] && !x.channels[h]->is_closed() && x.finish_error.empty())
          x.finish_error =
              fmt::format("{} sent no FINI in {} s", x.names[h], base::get_int("pmix_timeout_s"));
      break;
    }
    std::vector<pollfd> fds;
    channel_pollfds(x, true, fds);
    ::poll(fds.data(), fds.size(), 10);
    event_base_loop(x.base.get(), EVLOOP_NONBLOCK);
  }
  // A peer host lost during the FINI exchange: the job did not end well
  // (the agent would have failed the client); say so and fail this rank
  // (the process manager is finalized by now: stderr and the exit code).
  if (!x.finish_error.empty()) {
    base::log_error("finishing the host channels: {}; the job did not end cleanly", x.finish_error);
    std::fflush(nullptr);
    ::_exit(1);
  }
  direct_.reset();
}

}  // namespace impi::core
