#include "transport/impi/channel.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/log.hpp"
#include "base/sys.hpp"
#include "base/tool_events.hpp"
#include "base/tunables.hpp"

namespace impi::transport::wire {

using base::Errc;
using base::Status;

namespace {
constexpr std::size_t kOutLowWater = 256 * 1024;  // refill the output buffer below this
constexpr std::size_t kReadChunk =
    16 * 1024;                      // per recv: a long one holds the socket lock, and the
                                    // sender's delivery waits; a short one costs syscalls
constexpr int kReadsPerEvent = 64;  // then let other channels run
// DATA packets at least this long may be read straight to their place (Sink).
constexpr std::uint32_t kLandingMin = 4096;
constexpr int kIov = 64;  // packets per sendmsg
}  // namespace

namespace {
bool loopback(const sockaddr_storage &a) {
  if (a.ss_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in &>(a).sin_addr.s_addr) >> 24) == 127;
  if (a.ss_family == AF_INET6) {
    const auto &s6 = reinterpret_cast<const sockaddr_in6 &>(a).sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&s6)) return true;
    return IN6_IS_ADDR_V4MAPPED(&s6) && s6.s6_addr[12] == 127;
  }
  return false;
}

// On a loopback channel, BBR (a common default congestion control) paces
// some connections well below loopback's speed: it models a bottleneck
// that loopback does not have. Such channels ask for `channel_congestion`
// (cubic). Channels between machines keep the system's choice.
void choose_congestion_control(int fd) {
  static const std::string cc = base::get_string("channel_congestion");
  if (cc.empty()) return;
  sockaddr_storage me{}, peer{};
  socklen_t ml = sizeof me, pl = sizeof peer;
  if (::getsockname(fd, reinterpret_cast<sockaddr *>(&me), &ml) != 0 ||
      ::getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &pl) != 0 || !loopback(me) ||
      !loopback(peer))
    return;
  if (::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc.data(), static_cast<socklen_t>(cc.size())) !=
      0)
    base::log_debug("channel: congestion control {} not available: {}", cc, std::strerror(errno));
}
}  // namespace

HostChannel::HostChannel(event_base *base, base::Fd fd, ChannelConfig cfg, std::size_t nlocal,
                         std::size_t nremote, Resolve local, Resolve remote, Deliver deliver,
                         Closed closed)
    : base_(base),
      fd_(std::move(fd)),
      cfg_(std::move(cfg)),
      nremote_(nremote),
      local_(std::move(local)),
      remote_(std::move(remote)),
      deliver_(std::move(deliver)),
      closed_cb_(std::move(closed)),
      reader_(cfg_.maxdatalen),
      flow_(nlocal, FlowControl(cfg_.ackmark, cfg_.hiwater, nremote)),
      bytes_from_(nlocal, 0),
      over_(nlocal, false) {
  int fl = ::fcntl(fd_.get(), F_GETFL);
  ::fcntl(fd_.get(), F_SETFL, fl | O_NONBLOCK);
  choose_congestion_control(fd_.get());
  rev_.reset(event_new(base_, fd_.get(), EV_READ | EV_PERSIST, &HostChannel::on_event, this));
  wev_.reset(event_new(base_, fd_.get(), EV_WRITE | EV_PERSIST, &HostChannel::on_event, this));
  event_add(rev_.get(), nullptr);
  if (cfg_.stall_s > 0) stall_ev_.reset(evtimer_new(base_, &HostChannel::on_stall_check, this));
}

HostChannel::~HostChannel() = default;

void HostChannel::arm_stall_check(std::chrono::steady_clock::duration after) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(after).count();
  if (us < 1000) us = 1000;
  timeval tv{static_cast<time_t>(us / 1000000), static_cast<suseconds_t>(us % 1000000)};
  evtimer_add(stall_ev_.get(), &tv);
}

void HostChannel::on_stall_check(evutil_socket_t, short, void *self) {
  auto *c = static_cast<HostChannel *>(self);
  if (c->closed_ || !c->writing_) return;  // output drained since: nothing to judge
  auto limit = std::chrono::seconds(c->cfg_.stall_s);
  auto idle = std::chrono::steady_clock::now() - c->last_write_;
  if (idle < limit) {
    c->arm_stall_check(limit - idle);
    return;
  }
  c->fail({Errc::timeout,
           fmt::format("{} took none of our data for {} s (it stopped reading its channel); "
                       "closing the channel",
                       c->cfg_.peer, c->cfg_.stall_s)});
}

void HostChannel::on_event(evutil_socket_t, short what, void *self) {
  auto *c = static_cast<HostChannel *>(self);
  if (what & EV_READ) c->on_readable();
  if (!c->closed_ && (what & EV_WRITE)) c->on_writable();
}

Status HostChannel::send(std::size_t src, std::size_t dest, const Packet &p,
                         std::span<const std::byte> data) {
  if (p.len != data.size() || p.len > cfg_.maxdatalen)
    return {Errc::invalid_argument, fmt::format("pk_len {} with {} data bytes (maxdatalen {})",
                                                p.len, data.size(), cfg_.maxdatalen)};
  std::vector<std::byte> bytes = take_buffer();  // (a written packet's memory: no page faults)
  bytes.reserve(kPacketHeaderSize + data.size());
  bytes.resize(kPacketHeaderSize);
  encode(p, std::span<std::byte, kPacketHeaderSize>(bytes.data(), kPacketHeaderSize));
  bytes.insert(bytes.end(), data.begin(), data.end());
  return send_bytes(src, dest, p, std::move(bytes));
}

Status HostChannel::send_borrowed(std::size_t src, std::size_t dest, const Packet &p,
                                  std::span<const std::byte> body, std::uint64_t token) {
  if (token == 0 || !written_)
    return {Errc::invalid_argument, "borrowed data needs a token and a written hook"};
  auto head = take_buffer();
  head.resize(kPacketHeaderSize);
  encode(p, std::span<std::byte, kPacketHeaderSize>(head.data(), kPacketHeaderSize));
  return queue(src, dest, p, Out{std::move(head), p.type, body, token});
}

Status HostChannel::send_bytes(std::size_t src, std::size_t dest, const Packet &p,
                               std::vector<std::byte> bytes) {
  return queue(src, dest, p, Out{std::move(bytes), p.type, {}, 0});
}

Status HostChannel::queue(std::size_t src, std::size_t dest, const Packet &p, Out o) {
  if (closed_) return {Errc::io_error, fmt::format("the channel to {} is closed", cfg_.peer)};
  if (finishing_)
    return {Errc::invalid_argument, fmt::format("the channel to {} is finishing", cfg_.peer)};
  if (p.type == PacketType::protoack || p.type == PacketType::fini)
    return {Errc::invalid_argument, "PROTOACK and FINI are the channel's own packets"};
  if (src >= flow_.size() || dest >= nremote_)
    return {Errc::invalid_argument,
            fmt::format("no proc pair ({}, {}) on this channel", src, dest)};
  if (p.len > cfg_.maxdatalen || o.size() != kPacketHeaderSize + p.len)
    return {Errc::invalid_argument, fmt::format("pk_len {} with {} bytes in all (maxdatalen {})",
                                                p.len, o.size(), cfg_.maxdatalen)};
  auto &pq = pairs_[{src, dest}];
  bytes_from_[src] += o.size();
  if (limit_ > 0 && bytes_from_[src] > limit_) over_[src] = true;
  pq.q.push_back(std::move(o));
  ++queued_;
  if (!pq.listed) {
    pq.listed = true;
    ready_.emplace_back(src, dest);
  }
  fill_output();
  if (!corked_) on_writable();  // write now if the socket takes it: no loop round trip per packet
  return {};
}

void HostChannel::uncork() {
  corked_ = false;
  if (closed_) return;
  fill_output();
  on_writable();
}

void HostChannel::finish() {
  if (finishing_ || closed_) return;
  finishing_ = true;
  // A packet still landing was for a receive that MPI_Finalize left
  // incomplete (an erroneous program): its user may free that buffer now,
  // so the rest of the packet goes to a scratch buffer instead.
  if (landing_) {
    landing_scratch_.resize(landing_->place.size());
    landing_->place = landing_scratch_;
  }
  fill_output();
  update_write_interest();
}

void HostChannel::fill_output() {
  auto room = [&] { return outq_bytes_ - out_off_ < kOutLowWater; };
  // Waiting ACKs stay while nothing else would go now (they go first in
  // the write of our next packet).
  const bool hold = acks_wait_ && !finishing_ && outq_.empty() && ready_.empty();
  while (!hold && !acks_.empty() && room()) {  // ACKs first, always (they go even after our FINI)
    push_out(std::move(acks_.front().bytes));
    acks_.pop_front();
  }
  if (acks_.empty()) {
    acks_wait_ = false;
    waiting_pairs_.clear();
  }
  // Round robin over the pairs with packets, one packet per turn; a pair
  // held by flow control goes to the back. Stop after a full turn of
  // nothing sendable.
  std::size_t idle_turns = 0;
  while (!fini_sent_ && !ready_.empty() && room() && idle_turns < ready_.size()) {
    auto key = ready_.front();
    ready_.pop_front();
    auto &pq = pairs_[key];
    if (!flow_[key.first].may_send(key.second, pq.q.front().type)) {
      if (!pq.held) {
        g_flow_stalls.fetch_add(1, std::memory_order_relaxed);
        if (base::events::wanted(base::events::kFlowStall)) {  // (MPI_T event)
          std::int64_t pending = 0;
          for (const Out &o : pq.q) pending += static_cast<std::int64_t>(o.size());
          base::events::raise(base::events::kFlowStall,
                              {peer_host_, static_cast<std::int64_t>(key.first),
                               static_cast<std::int64_t>(key.second), pending});
        }
      }
      pq.held = true;
      ready_.push_back(key);
      ++idle_turns;
      continue;
    }
    idle_turns = 0;
    pq.held = false;
    Out o = std::move(pq.q.front());
    pq.q.pop_front();
    --queued_;
    flow_[key.first].sent(key.second, o.type);
    bytes_from_[key.first] -= o.size();
    push_out(std::move(o));
    if (over_[key.first] && bytes_from_[key.first] <= limit_ / 2) {
      over_[key.first] = false;
      if (on_room_) on_room_(key.first);
    }
    if (pq.q.empty())
      pq.listed = false;
    else
      ready_.push_back(key);
  }
  if (finishing_ && !fini_sent_ && queued_ == 0) {
    Packet fini;
    fini.type = PacketType::fini;
    push_out(encode(fini));
    fini_sent_ = true;
  }
}

void HostChannel::update_write_interest() {
  if (closed_) return;
  bool want = !outq_.empty();
  if (want && !writing_) {
    event_add(wev_.get(), nullptr);
    if (stall_ev_) {
      last_write_ = std::chrono::steady_clock::now();
      arm_stall_check(std::chrono::seconds(cfg_.stall_s));
    }
  }
  if (!want && writing_) {
    event_del(wev_.get());
    if (stall_ev_) evtimer_del(stall_ev_.get());
  }
  writing_ = want;
}

void HostChannel::on_writable() {
  while (!outq_.empty()) {
    // The queued packets as they are (no copy into one buffer), up to kIov.
    iovec iov[kIov];
    int niov = 0;
    std::size_t skip = out_off_;  // of the front packet
    for (auto it = outq_.begin(); it != outq_.end() && niov + 2 <= kIov; ++it) {
      if (skip < it->bytes.size()) iov[niov++] = {it->bytes.data() + skip, it->bytes.size() - skip};
      std::size_t bskip = skip > it->bytes.size() ? skip - it->bytes.size() : 0;
      if (bskip < it->body.size())
        iov[niov++] = {const_cast<std::byte *>(it->body.data()) + bskip, it->body.size() - bskip};
      skip = 0;
    }
    msghdr mh{};
    mh.msg_iov = iov;
    mh.msg_iovlen = static_cast<std::size_t>(niov);
    ssize_t n = base::sys_sendmsg(fd_.get(), &mh, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) continue;
      fail({Errc::io_error, fmt::format("writing to {}: {}", cfg_.peer, std::strerror(errno))});
      return;
    }
    consume_out(static_cast<std::size_t>(n));
    if (stall_ev_) last_write_ = std::chrono::steady_clock::now();
    if (outq_bytes_ - out_off_ < kOutLowWater) fill_output();  // more may be sendable now
  }
  update_write_interest();
  maybe_close();
}

void HostChannel::push_out(Out o) {
  outq_bytes_ += o.size();
  outq_.push_back(std::move(o));
}

void HostChannel::consume_out(std::size_t n) {
  out_off_ += n;
  while (!outq_.empty() && out_off_ >= outq_.front().size()) {
    Out &o = outq_.front();
    out_off_ -= o.size();
    outq_bytes_ -= o.size();
    if (o.token != 0) written_(o.token, o.body.size());
    spare_.give(std::move(o.bytes));
    outq_.pop_front();
  }
}

std::size_t HostChannel::backlog() const {
  std::size_t n = outq_bytes_ - out_off_;
  for (auto b : bytes_from_) n += b;
  return n;
}

void HostChannel::pump(bool readable) {
  if (closed_) return;
  if (readable)
    on_readable();
  else if (acks_wait_)
    flush_waiting_acks();  // nothing came: our proc waits, and so may the sender
  if (!closed_ && !outq_.empty()) on_writable();
}

void HostChannel::pumped_only() {
  event_del(rev_.get());
  ride_acks_ = !defer_acks_;  // (consumed()'s ACKs have no pump(false) to flush them)
}

void HostChannel::flush_waiting_acks() {
  acks_wait_ = false;
  fill_output();
  on_writable();
  update_write_interest();
}

// A PROTOACK just due from `local` to `remote` (for packet `p`) may wait
// when the sender, counting only what we have read, stays below hiwater
// without it: at most one waits per pair, and hiwater is at least twice
// ackmark. When the sender is held at hiwater, the packets it sent arrive,
// the pair's next ACK falls due and both go at once; so no wait can block
// a sender for good.
bool HostChannel::ack_may_wait(std::size_t local, std::size_t remote, const Packet &p) {
  if (!ride_acks_ || finishing_ || (!acks_.empty() && !acks_wait_)) return false;
  // Only after short packets: a stream of long ones gains nothing from
  // sparing one write per ackmark packets, and a receiver that never
  // finds its socket empty would hold the sender at hiwater once a round.
  if (p.len > kAckRideMax) return false;
  const FlowControl &f = flow_[local];
  if (f.hiwater() < 2 * f.ackmark()) return false;
  const std::pair<std::size_t, std::size_t> key{local, remote};
  if (std::find(waiting_pairs_.begin(), waiting_pairs_.end(), key) != waiting_pairs_.end())
    return false;
  waiting_pairs_.push_back(key);
  return true;
}

void HostChannel::queue_ack(std::size_t local, std::size_t remote, const Packet &p) {
  Packet ack;
  ack.type = PacketType::protoack;
  ack.src = p.dest;
  ack.dest = p.src;
  acks_wait_ = ack_may_wait(local, remote, p);
  acks_.push_back({encode(ack), PacketType::protoack, {}, 0});
}

void HostChannel::on_readable() {
  for (int i = 0; i < kReadsPerEvent && !closed_; ++i) {
    // Into the landing packet's place, all of its rest in one call (measured
    // faster than 16 KiB at a time with both procs on one core, no slower
    // across cores), and the next packet's header alone into the read
    // buffer: a stream of long packets then lands each one whole, with no
    // copy through the buffer and one call per packet. Otherwise into the
    // read buffer (in place: no copy).
    std::size_t want;
    ssize_t n;
    if (landing_) {
      std::span<std::byte> rest = landing_->place.subspan(landing_->filled);
      std::span<std::byte> next = reader_.space(kPacketHeaderSize);
      iovec iov[2] = {{rest.data(), rest.size()}, {next.data(), kPacketHeaderSize}};
      msghdr m{};
      m.msg_iov = iov;
      m.msg_iovlen = 2;
      want = rest.size() + kPacketHeaderSize;
      n = base::sys_recvmsg(fd_.get(), &m, 0);
    } else {
      std::span<std::byte> into = reader_.space(kReadChunk);
      want = std::min(into.size(), kReadChunk);
      n = base::sys_recv(fd_.get(), into.data(), want, 0);
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) continue;
      fail({Errc::io_error, fmt::format("reading from {}: {}", cfg_.peer, std::strerror(errno))});
      return;
    }
    if (n == 0) {
      if (!fini_received_)
        fail({Errc::io_error, fmt::format("{} closed its channel without FINI", cfg_.peer)});
      else if (queued_ > 0 || !outq_.empty())
        fail({Errc::io_error,
              fmt::format("{} closed its channel before taking our packets", cfg_.peer)});
      else
        fail({});  // a clean end
      return;
    }
    if (landing_) {
      const std::size_t got = static_cast<std::size_t>(n);
      const std::size_t rest = landing_->place.size() - landing_->filled;
      landing_->filled += std::min(got, rest);
      if (landing_->filled == landing_->place.size()) {
        Landing l = *landing_;
        landing_.reset();
        handle(l.header, l.place);
        if (closed_) return;
        if (got > rest) {  // the next packet's header came too
          reader_.commit(got - rest);
          if (!read_buffered()) return;
        }
      }
    } else {
      reader_.commit(static_cast<std::size_t>(n));
      if (!read_buffered()) return;
    }
    // PROTOACKs go at once, not after the whole batch: the sender may be
    // waiting for one (hiwater) while we read on.
    if (!acks_.empty()) {
      fill_output();
      on_writable();
      if (closed_) return;
    }
    // Less than asked: the socket is empty for now (the loop's next event,
    // or the next poll, says when more came). Saves a recv per message.
    if (static_cast<std::size_t>(n) < want) break;
  }
  fill_output();
  update_write_interest();
  maybe_close();
}

bool HostChannel::read_buffered() {
  while (auto item = reader_.next_view()) {
    if (!item->ok()) {
      fail({Errc::protocol_error, fmt::format("from {}: {}", cfg_.peer, item->message())});
      return false;
    }
    auto &it = item->value();
    landing_declined_ = false;  // (a decision about the packet before)
    handle(it.header, it.data);
    if (closed_) return false;
  }
  try_landing();
  return true;
}

void HostChannel::try_landing() {
  if (!sink_ || landing_declined_ || finishing_) return;
  auto v = reader_.partial();
  if (!v) return;
  // Asked once per packet: a packet declined stays so until it is read.
  landing_declined_ = true;
  if (v->header.type != PacketType::data || v->header.len < kLandingMin) return;
  auto s = remote_(v->header.src);
  auto d = local_(v->header.dest);
  if (!s || !d || *s >= nremote_ || *d >= flow_.size()) return;  // handle() will say so
  std::span<std::byte> place = sink_(*d, *s, v->header);
  if (place.size() != v->header.len) return;
  landing_declined_ = false;
  std::memcpy(place.data(), v->data.data(), v->data.size());
  landing_ = Landing{v->header, place, v->data.size()};
  reader_.drop_partial();
}

void HostChannel::handle(const Packet &p, std::span<const std::byte> data) {
  if (p.type == PacketType::fini) {
    fini_received_ = true;
    return;
  }
  auto s = remote_(p.src);
  auto d = local_(p.dest);
  if (!s || !d || *s >= nremote_ || *d >= flow_.size()) {
    fail({Errc::protocol_error,
          fmt::format("{} sent a packet between unknown procs ({})", cfg_.peer, describe(p))});
    return;
  }
  if (p.type == PacketType::protoack) {
    if (auto st = flow_[*d].acked(*s); !st.ok()) {
      fail({Errc::protocol_error,
            fmt::format("from {}: {} ({})", cfg_.peer, st.message(), describe(p))});
      return;
    }
    return;  // fill_output() after the batch sends what it released
  }
  if (!defer_acks_ && flow_[*d].received(*s, p.type)) queue_ack(*d, *s, p);
  deliver_(*d, *s, p, data);
}

void HostChannel::consumed(std::size_t local, std::size_t remote, const Packet &p) {
  if (closed_ || local >= flow_.size() || remote >= nremote_) return;
  if (!flow_[local].received(remote, p.type)) return;
  queue_ack(local, remote, p);
  fill_output();
  update_write_interest();
}

void HostChannel::maybe_close() {
  if (closed_ || !fini_sent_ || !fini_received_ || !outq_.empty() || !acks_.empty()) return;
  // Both FINIs are through: stop writing, and read (ignoring) until the
  // peer closes too, so that no unread byte turns our close into a reset.
  ::shutdown(fd_.get(), SHUT_WR);
}

void HostChannel::fail(const Status &s) {
  if (closed_) return;
  closed_ = true;
  // Once both FINIs are through, a reset or an early close loses nothing.
  Status result = fini_sent_ && fini_received_ && outq_.empty() ? Status{} : s;
  if (!result.ok()) base::log_debug("channel to {}: {}", cfg_.peer, result.message());
  rev_.reset();
  wev_.reset();
  stall_ev_.reset();
  fd_.reset();
  closed_cb_(result);
}

}  // namespace impi::transport::wire
