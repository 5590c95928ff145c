// impi_channel.cpp - the IMPI message protocols between clients (spec
// 3.7) over the link to the host agent (impi_channel.hpp); direct.cpp runs
// the host channels instead on a host whose only proc this is.
#include "core/impi/impi_channel.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "base/log.hpp"
#include "base/sys.hpp"
#include "core/p2p.hpp"
#include "pack/external32.hpp"
#include "pack/predefined.hpp"

namespace impi::core {

using base::Errc;
using transport::wire::kPacketHeaderSize;
using transport::wire::Packet;
using transport::wire::PacketType;

namespace {
constexpr std::size_t kLinkHighWater = std::size_t{1} << 20;  // stop packing streams above this

// Whether `t`'s external32 form is its native bytes: contiguous, and made
// only of one-byte elements (no byte order to change, no size to adapt).
bool external32_is_identity(const pack::Datatype &t) {
  if (!t.is_contiguous()) return false;
  for (const auto &seg : t.segments()) {
    const auto &p = pack::predefined(seg.basic);
    if (p.size != 1 || p.ext32_size != 1) return false;
  }
  return true;
}

// Native bytes that `ext` bytes of `t` in `rep` stand for (sizes differ
// for some types, e.g. MPI_LONG: 4 bytes in external32, 8 here).
std::int64_t native_bytes(const pack::Datatype &t, const pack::TypePtr &tp, std::int64_t ext,
                          pack::Rep rep) {
  auto one = pack::external32_size(tp, 1, rep);
  std::int64_t per = one && *one > 0 ? *one : 1;
  return ext / per * t.size() + ext % per;
}

std::span<std::byte, kPacketHeaderSize> header_at(std::byte *at) {
  return std::span<std::byte, kPacketHeaderSize>(at, kPacketHeaderSize);
}
}  // namespace

std::byte *LinkOut::reserve(std::size_t n) {
  if (head == tail) head = tail = 0;
  if (tail + n > cap) {
    if (head > 0) {
      std::memmove(buf.get(), buf.get() + head, tail - head);
      tail -= head;
      head = 0;
    }
    if (tail + n > cap) {
      std::size_t ncap = std::max({cap * 2, tail + n, std::size_t{65536}});
      auto nbuf = std::make_unique<std::byte[]>(ncap);
      if (tail > 0) std::memcpy(nbuf.get(), buf.get(), tail);
      buf = std::move(nbuf);
      cap = ncap;
    }
  }
  return buf.get() + tail;
}

void ImpiChannel::attach_agent(base::Fd link, std::uint32_t maxdatalen,
                               std::vector<transport::wire::ProcId> ids) {
  int fl = ::fcntl(link.get(), F_GETFL);
  ::fcntl(link.get(), F_SETFL, fl | O_NONBLOCK);
  // Room for a few long-message packets in flight to the agent.
  int sndbuf = 1 << 20;
  ::setsockopt(link.get(), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  agent_ = std::move(link);
  maxdatalen_ = maxdatalen;
  ids_ = std::move(ids);
  agent_reader_ = std::make_unique<transport::wire::PacketReader>(maxdatalen);
}

void ImpiChannel::set_native_order(std::vector<transport::wire::ProcId> procs) {
  native_order_ = std::move(procs);
}

void ImpiChannel::set_external32_only(std::vector<transport::wire::ProcId> procs) {
  external32_only_ = std::move(procs);
}

pack::Rep ImpiChannel::rep_of(const transport::wire::ProcId &p) const {
  // (The list is empty unless the job has clients that are not impi.)
  return std::find(external32_only_.begin(), external32_only_.end(), p) != external32_only_.end()
             ? pack::Rep::external32
             : pack::Rep::wide;
}

pack::Rep ImpiChannel::wire_rep(int w) const {
  if (w < 0 || w >= static_cast<int>(ids_.size())) return pack::Rep::external32;
  return rep_of(ids_[static_cast<std::size_t>(w)]);
}

bool LinkOut::write_to(int fd, bool &broken, std::string &why) {
  bool any = false;
  while (pending() > 0) {
    ssize_t n = base::sys_send(fd, buf.get() + head, pending(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      head += static_cast<std::size_t>(n);
      any = true;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      break;
    } else {
      why = n == 0 ? "closed" : std::strerror(errno);
      broken = true;
      head = tail = 0;  // nothing more can go
      break;
    }
  }
  return any;
}

bool ImpiChannel::flush_link() {
  if (link_broken_) {
    link_out_.head = link_out_.tail = 0;
    return false;
  }
  if (direct_) return direct_flush();
  std::string why;
  bool any = link_out_.write_to(agent_.get(), link_broken_, why);
  // The agent is gone: the launcher ends the job; nothing more can go.
  if (link_broken_) base::log_error("the link to the host agent broke: {}", why);
  return any;
}

ImpiChannel::~ImpiChannel() = default;

bool ImpiChannel::native_order(const transport::wire::ProcId &p) const {
  return !native_order_.empty() &&
         std::find(native_order_.begin(), native_order_.end(), p) != native_order_.end();
}

bool ImpiChannel::progress() {
  if (!agent_) return false;
  bool any = poll_agent();
  if (!streams_.empty()) any |= push_streams();
  if (link_out_.pending() > 0) any |= flush_link();
  return any;
}

void ImpiChannel::pollfds(std::vector<pollfd> &out) const {
  if (!agent_) return;
  out.push_back(
      {agent_.get(),
       static_cast<short>(link_out_.pending() > 0 && !direct_ ? POLLIN | POLLOUT : POLLIN), 0});
  if (direct_) direct_pollfds(out);
}

void ImpiChannel::bind(const RequestPtr &r, Match::MessageRef u) {
  const Origin &o = u->origin;
  start_recv(r, o.remote_src, o.remote_srqid, o.remote_sync, u->msg_len, u->data);
}

void ImpiChannel::close() {
  std::lock_guard<EngineLock> g(e_.mu_);
  if (!agent_) return;
  if (direct_) close_direct();
  while (link_out_.pending() > 0 && !link_broken_) {
    if (flush_link()) continue;
    pollfd p{agent_.get(), POLLOUT, 0};
    ::poll(&p, 1, 100);
  }
  agent_.reset();
  sends_.clear();
  recvs_.clear();
  streams_.clear();
}

void ImpiChannel::send_control(PacketType type, const transport::wire::ProcId &to,
                               std::uint64_t srqid, std::uint64_t drqid) {
  Packet a;
  a.type = type;
  a.src = ids_[static_cast<std::size_t>(e_.me_)];
  a.dest = to;
  a.srqid = srqid;
  a.drqid = drqid;
  encode(a, header_at(link_out_.reserve(kPacketHeaderSize)));
  link_out_.tail += kPacketHeaderSize;
  flush_link();
}

namespace {
RemoteSend remote_send(const RequestPtr &r, const SendArgs &a) {
  RemoteSend s;
  s.req = r;
  s.dest = a.dest_world;
  s.lsrank = a.src_rank;
  s.tag = a.tag;
  s.context = a.context;
  s.buf = a.buf;
  s.type = a.type;
  s.count = a.count;
  return s;
}
}  // namespace

base::Result<RequestPtr> ImpiChannel::start_send(const SendArgs &a) {
  const void *buf = a.buf;
  const std::int64_t count = a.count;
  const pack::TypePtr &type = a.type;
  const int dest_world = a.dest_world;
  const bool sync = a.sync;
  std::lock_guard<EngineLock> g(e_.mu_);
  if (link_broken_) return {Errc::io_error, "the link to the host agent is broken"};
  const pack::Rep rep = rep_of(ids_[static_cast<std::size_t>(dest_world)]);
  auto len = pack::external32_size(type, count, rep);
  if (!len) return {len.error(), len.message()};
  // A value the peer's form cannot hold (an 8-byte long in external32's 4
  // bytes) fails the send before anything goes out: never altered.
  if (rep == pack::Rep::external32 && !external32_is_identity(*type))
    if (auto s = pack::check_fits(type, count, buf, rep); !s.ok())
      return {s.error(),
              fmt::format("{}; world rank {}'s client takes only external32: nothing was sent",
                          s.message(), dest_world)};
  TrafficCounters::add(e_.traffic_.impi_messages, e_.traffic_.impi_bytes, *len);
  auto r = make_request();
  r->kind = Request::Kind::send;
  r->peer = dest_world;
  r->total = *len;
  r->sync = sync;
  r->id = e_.next_id_++;  // pk_srqid: never reused
  bool long_msg = *len > static_cast<std::int64_t>(maxdatalen_);
  std::size_t first = long_msg ? maxdatalen_ : static_cast<std::size_t>(*len);
  Packet p;
  // Synchronous sends and the first packet of a long message are DATASYNC.
  p.type = sync || long_msg ? PacketType::datasync : PacketType::data;
  p.len = static_cast<std::uint32_t>(first);
  p.src = ids_[static_cast<std::size_t>(e_.me_)];
  p.dest = ids_[static_cast<std::size_t>(dest_world)];
  p.srqid = r->id;
  p.msglen = static_cast<std::uint64_t>(*len);
  p.lsrank = a.src_rank;
  p.tag = a.tag;
  p.cid = static_cast<std::uint64_t>(a.context);
  r->channel = this;
  if (!sync && !long_msg && lend_short(r, p, a)) return r;
  std::byte *at = link_out_.reserve(kPacketHeaderSize + first);
  encode(p, header_at(at));
  std::optional<pack::External32Cursor> cursor;
  if (external32_is_identity(*type)) {  // bytes: one copy
    if (first > 0)
      std::memcpy(at + kPacketHeaderSize, static_cast<const std::byte *>(buf) + type->lb(), first);
  } else {
    cursor.emplace(type, count, native_order(p.dest), rep);
    cursor->pack(buf, std::span(at + kPacketHeaderSize, first));
  }
  link_out_.tail += kPacketHeaderSize + first;
  flush_link();
  r->moved = static_cast<std::int64_t>(first);
  if (!sync && !long_msg) {
    r->done = true;  // the data is on its way: ours, not the user's
    return r;
  }
  RemoteSend s = remote_send(r, a);
  s.cursor = std::move(cursor);
  s.sent = static_cast<std::int64_t>(first);
  s.total = *len;
  sends_.emplace(r->id, std::move(s));
  return r;
}

// A large one-packet message of bytes over direct channels goes as the
// packets of a long message do: lent to the channel as it is, a copy less
// (the request completes once the channel has written it). False: not
// such a message; the caller copies it.
bool ImpiChannel::lend_short(const RequestPtr &r, const Packet &p, const SendArgs &a) {
  if (!direct_ || p.len < kLendShortMin || !external32_is_identity(*a.type) || direct_in_channel())
    return false;
  if (link_out_.pending() > 0) direct_flush();  // (what was queued before goes first)
  if (link_out_.pending() > 0 || link_broken_) return false;
  RemoteSend s = remote_send(r, a);
  s.sent = s.total = static_cast<std::int64_t>(p.len);
  s.phase = RemoteSend::Phase::packed;  // (no SYNCACK is due)
  s.lent_short = true;
  auto it = sends_.emplace(r->id, std::move(s)).first;
  auto data = std::span(static_cast<const std::byte *>(a.buf) + a.type->lb(), p.len);
  if (!direct_lend(it->second, p, data)) {
    sends_.erase(it);
    return false;  // (the copy path meets the broken link and says so)
  }
  r->moved = static_cast<std::int64_t>(p.len);
  direct_written();
  return true;
}

void ImpiChannel::send_done(RemoteSend &s) {
  if (s.phase != RemoteSend::Phase::packed || s.cancel == RemoteSend::Cancel::asked ||
      s.inflight > 0)
    return;
  RequestPtr r = std::move(s.req);
  sends_.erase(r->id);
  r->done = true;
}

bool ImpiChannel::push_streams() {
  if (direct_) {
    // Not from inside a channel's callback (the next pass does it), and
    // after what link_out_ holds.
    if (direct_in_channel()) return false;
    if (link_out_.pending() > 0) direct_flush();
  }
  bool any = false;
  if (direct_) direct_cork(true);  // (the packets below go in as few writes as the socket takes)
  while (!streams_.empty() && backlog() < kLinkHighWater && !link_broken_) {
    std::uint64_t id = streams_.front();
    streams_.pop_front();
    auto it = sends_.find(id);
    if (it == sends_.end()) continue;
    RemoteSend &s = it->second;
    std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(maxdatalen_, s.total - s.sent));
    Packet p;
    p.type = PacketType::data;
    p.len = static_cast<std::uint32_t>(n);
    p.src = ids_[static_cast<std::size_t>(e_.me_)];
    p.dest = ids_[static_cast<std::size_t>(s.dest)];
    p.srqid = id;
    p.drqid = s.drqid;
    p.msglen = static_cast<std::uint64_t>(s.total);
    p.lsrank = s.lsrank;
    p.tag = s.tag;
    p.cid = static_cast<std::uint64_t>(s.context);
    if (direct_ && !s.cursor) {
      // Bytes, with direct channels: lent to the channel as they are (the
      // request completes once the channel has written them).
      auto from = std::span(static_cast<const std::byte *>(s.buf) + s.type->lb() + s.sent, n);
      if (!direct_lend(s, p, from)) break;
      s.sent += static_cast<std::int64_t>(n);
    } else {
      std::byte *at = link_out_.reserve(kPacketHeaderSize + n);
      encode(p, header_at(at));
      if (s.cursor)
        s.cursor->pack(s.buf, std::span(at + kPacketHeaderSize, n));
      else
        std::memcpy(at + kPacketHeaderSize,
                    static_cast<const std::byte *>(s.buf) + s.type->lb() + s.sent, n);
      link_out_.tail += kPacketHeaderSize + n;
      s.sent += static_cast<std::int64_t>(n);
      flush_link();
    }
    s.req->moved = s.sent;
    any = true;
    if (s.sent < s.total) {
      streams_.push_back(id);  // round robin between long messages
    } else {
      s.phase = RemoteSend::Phase::packed;
      send_done(s);
    }
  }
  if (direct_) {
    direct_cork(false);
    direct_written();
  }
  return any;
}

bool ImpiChannel::cancel_send(const RequestPtr &r) {
  auto it = sends_.find(r->id);
  if (it != sends_.end()) {
    RemoteSend &s = it->second;
    if (s.cancel == RemoteSend::Cancel::asked) return true;
    // Matched (SYNCACK in): too late; the send completes normally. A lent
    // short send is in the short-send window (its CANCEL goes behind its
    // DATA on the same pair), once.
    if (s.lent_short ? r->acked : s.phase != RemoteSend::Phase::syncack) return false;
    s.cancel = RemoteSend::Cancel::asked;
    send_control(PacketType::cancel, ids_[static_cast<std::size_t>(s.dest)], r->id);
    return true;
  }
  // A short standard send: complete here, perhaps not received there. Ask
  // once (acked marks an answered cancel).
  if (!r->done || r->cancelled || r->sync || r->acked ||
      r->total > static_cast<std::int64_t>(maxdatalen_))
    return false;
  RemoteSend s;
  s.req = r;
  s.dest = r->peer;
  s.phase = RemoteSend::Phase::packed;
  s.sent = s.total = r->total;
  s.cancel = RemoteSend::Cancel::asked;
  sends_.emplace(r->id, std::move(s));
  r->done = false;  // until the answer comes
  send_control(PacketType::cancel, ids_[static_cast<std::size_t>(r->peer)], r->id);
  return true;
}

bool ImpiChannel::poll_agent() {
  if (direct_) return direct_poll();
  // Read in place (no copy through a stack buffer) and deliver each packet
  // from the reader's buffer (arrival copies what it keeps).
  constexpr std::size_t kChunk = 64 * 1024;
  bool any = false;
  for (int i = 0; i < 8; ++i) {
    auto space = agent_reader_->space(kChunk);
    ssize_t n =
        base::sys_recv(agent_.get(), space.data(), std::min(space.size(), kChunk), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      // The agent (our impirun) is gone while the job runs: nobody can end
      // the job for us, and no message can come or go any more.
      base::log_error("the host agent's link closed during the job ({}): impirun is gone; exiting",
                      n == 0 ? "EOF" : std::strerror(errno));
      std::_Exit(1);
    }
    if (n < 0) break;
    agent_reader_->commit(static_cast<std::size_t>(n));
    while (auto item = agent_reader_->next_view()) {
      if (!item->ok()) {
        base::log_error("the host agent's link is corrupt: {}", item->message());
        std::abort();
      }
      auto &it = item->value();
      arrival(it.header, it.data);
      any = true;
    }
    if (static_cast<std::size_t>(n) < kChunk) break;
  }
  return any;
}

namespace {
const pack::TypePtr &type_of(const Request &r) {
  return r.type ? r.type : pack::Datatype::predefined(r.cursor->type().predefined_index());
}
// Where the next bytes of `rr`'s message go in its receive buffer (byte
// types, no cursor: they are copied as they come).
std::byte *place_of(const RemoteRecv &rr) {
  return static_cast<std::byte *>(rr.req->recv_buf) + type_of(*rr.req)->lb() + rr.received;
}
}  // namespace

void ImpiChannel::recv_bytes(RemoteRecv &rr, std::span<const std::byte> data) {
  Request &r = *rr.req;
  std::int64_t room = std::max<std::int64_t>(0, rr.capacity - rr.received);
  std::size_t take = std::min<std::size_t>(data.size(), static_cast<std::size_t>(room));
  const pack::TypePtr &t = type_of(r);
  if (take > 0) {
    if (rr.cursor)
      rr.cursor->unpack(r.recv_buf, data.first(take));
    else if (std::byte *at = place_of(rr); data.data() != at)  // (else landed: landing_place)
      std::memcpy(at, data.data(), take);
  }
  rr.received += static_cast<std::int64_t>(data.size());
  if (rr.received < rr.msglen) return;
  std::int64_t got = std::min(rr.msglen, rr.capacity);
  r.moved = native_bytes(*t, t, got, rr.rep);
  r.msg_len = native_bytes(*t, t, rr.msglen, rr.rep);
  r.status.bytes = r.moved;
  if (rr.msglen > rr.capacity && r.status.error == 0) r.status.error = kTruncated;
  r.done = true;
}

RemoteRecv *ImpiChannel::continuation(const Packet &p, std::size_t len) {
  if (p.type != PacketType::data || p.drqid == 0) return nullptr;
  auto it = recvs_.find(p.drqid);
  if (it == recvs_.end() || !(it->second.src == p.src) || it->second.srqid != p.srqid ||
      it->second.received + static_cast<std::int64_t>(len) > it->second.msglen)
    return nullptr;
  return &it->second;
}

std::span<std::byte> ImpiChannel::landing_place(const Packet &p) {
  // Only what arrival() will take as it is: the next bytes of a message of
  // byte types that the receive buffer holds whole.
  RemoteRecv *rr = continuation(p, p.len);
  if (!rr || rr->cursor || rr->received + static_cast<std::int64_t>(p.len) > rr->capacity)
    return {};
  return {place_of(*rr), p.len};
}

void ImpiChannel::start_recv(const RequestPtr &r, const transport::wire::ProcId &src,
                             std::uint64_t srqid, bool sync, std::int64_t msglen,
                             std::span<const std::byte> first) {
  const pack::TypePtr &t = type_of(*r);
  RemoteRecv rr;
  rr.req = r;
  rr.src = src;
  rr.msglen = msglen;
  rr.rep = rep_of(src);
  auto cap = pack::external32_size(t, r->count, rr.rep);
  rr.capacity = cap ? *cap : 0;
  if (!external32_is_identity(*t)) rr.cursor.emplace(t, r->count, native_order(src), rr.rep);
  if (msglen <= static_cast<std::int64_t>(first.size())) {  // short: complete now
    if (sync) send_control(PacketType::syncack, src, srqid, 0);
    recv_bytes(rr, first);
    return;
  }
  // Long: the rest comes as DATA packets naming our request (drqid).
  std::uint64_t drqid = e_.next_id_++;
  rr.srqid = srqid;
  auto [it, fresh] = recvs_.emplace(drqid, std::move(rr));
  recv_bytes(it->second, first);
  send_control(PacketType::syncack, src, srqid, drqid);
}

void ImpiChannel::syncack(const Packet &p) {
  auto it = sends_.find(p.srqid);
  if (it == sends_.end() || it->second.phase != RemoteSend::Phase::syncack ||
      !(p.src == ids_[static_cast<std::size_t>(it->second.dest)])) {
    base::log_warn("a SYNCACK from another client for no send of ours awaiting one (srqid {})",
                   p.srqid);
    return;
  }
  RemoteSend &s = it->second;
  s.phase = RemoteSend::Phase::packed;
  s.req->acked = true;
  if (s.sent < s.total) {  // long: stream the rest to the receiver's request
    if (p.drqid == 0)
      base::log_warn("a SYNCACK for a long message carries no drqid (srqid {})", p.srqid);
    s.drqid = p.drqid;
    s.phase = RemoteSend::Phase::streaming;
    streams_.push_back(p.srqid);
    push_streams();
    return;
  }
  send_done(s);
  return;
}

void ImpiChannel::cancel_answer(const Packet &p) {
  auto it = sends_.find(p.srqid);
  if (it == sends_.end() || it->second.cancel != RemoteSend::Cancel::asked ||
      !(p.src == ids_[static_cast<std::size_t>(it->second.dest)])) {
    base::log_warn("a {} from another client for no cancel of ours (srqid {})",
                   transport::wire::packet_type_name(p.type), p.srqid);
    return;
  }
  RemoteSend &s = it->second;
  s.cancel = RemoteSend::Cancel::none;
  s.req->acked = true;  // answered: no second CANCEL
  if (p.type == PacketType::cancelyes) {
    if (s.phase == RemoteSend::Phase::streaming)
      streams_.erase(std::remove(streams_.begin(), streams_.end(), p.srqid), streams_.end());
    if (s.inflight > 0) {  // (lent data not all written: it completes once it has gone)
      s.req->cancelled = true;
      return;
    }
    RequestPtr r = std::move(s.req);
    sends_.erase(it);
    r->cancelled = true;
    r->done = true;
    return;
  }
  send_done(s);
  return;
}

void ImpiChannel::arrival(const Packet &p, std::span<const std::byte> data) {
  switch (p.type) {
    case PacketType::syncack:
      syncack(p);
      return;
    case PacketType::cancel: {
      // Newest first: only the most recent of several buffered messages
      // with this srqid may be cancelled (IMPI 3.7.4).
      auto u = e_.match_.newest_if([&](const Unexpected &m) {
        return m.origin.ext32 && m.origin.remote_srqid == p.srqid && m.origin.remote_src == p.src;
      });
      if (u) e_.match_.remove(*u);
      // (Not there: matched, or unknown.)
      send_control(u ? PacketType::cancelyes : PacketType::cancelno, p.src, p.srqid);
      return;
    }
    case PacketType::cancelyes:
    case PacketType::cancelno:
      cancel_answer(p);
      return;
    case PacketType::data:
    case PacketType::datasync:
      break;
    default:
      base::log_warn("ignoring a {} packet on the agent's link",
                     transport::wire::packet_type_name(p.type));
      return;
  }
  if (p.drqid != 0) {  // the rest of a long message we matched
    RemoteRecv *rr = continuation(p, data.size());
    if (!rr) {
      base::log_warn("ignoring a {} packet from another client for no message of ours (drqid {})",
                     transport::wire::packet_type_name(p.type), p.drqid);
      return;
    }
    recv_bytes(*rr, data);
    if (rr->received >= rr->msglen) recvs_.erase(p.drqid);
    return;
  }
  bool sync = p.type == PacketType::datasync;
  auto msglen = static_cast<std::int64_t>(p.msglen);
  // (No message of ours is longer than 2^48 bytes: a bigger pk_msglen is a
  // corrupt or hostile packet, which must not size any allocation.)
  if ((msglen > static_cast<std::int64_t>(p.len) && !sync) || (p.len == 0 && msglen > 0) ||
      msglen < 0 || msglen > (std::int64_t{1} << 48) ||
      p.cid > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    base::log_warn("ignoring a malformed first packet from another client: {}",
                   transport::wire::describe(p));
    return;
  }
  int source = p.lsrank, tag = p.tag, context = static_cast<int>(p.cid);
  if (RequestPtr r = e_.match_.take_posted({source, tag, context})) {
    r->status.source = source;
    r->status.tag = tag;
    start_recv(r, p.src, p.srqid, sync, msglen, data);
    return;
  }
  Origin o;
  o.via = this;
  o.ext32 = true;
  o.remote_sync = sync;
  o.remote_srqid = p.srqid;
  o.remote_src = p.src;
  auto u = e_.match_.add_unexpected({source, tag, context}, msglen, std::move(o));
  u->data.assign(data.begin(), data.end());
  u->complete = true;
  int from = -1;
  for (std::size_t w = 0; w < ids_.size() && from < 0; ++w)
    if (ids_[w] == p.src) from = static_cast<int>(w);
  e_.charge(*u, from, data.size());
}

}  // namespace impi::core
