// shm_channel.cpp - the shared-memory protocol between the procs of one
// client on one node (shm_channel.hpp; records: record.hpp), and sends to
// ourselves.
//
// Sender: a message of at most `eager` bytes is one record; a longer one a
// first record and chunks; from the single-copy threshold on, an rts
// record naming our buffer, which the receiver reads (cma_reads.cpp) before
// it acks. Receiver: drain() reads each ring in order and hands every
// message's start to the matching engine (start_message). Cancel asks the
// receiver with a record after the message's last one.
#include "core/shm/shm_channel.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "base/copy.hpp"
#include "base/log.hpp"
#include "base/tunables.hpp"
#include "core/p2p.hpp"
#include "core/shm/record.hpp"
#include "transport/shm/cma.hpp"

namespace impi::core {

using base::Errc;

base::Result<RequestPtr> ShmChannel::start_send(const SendArgs &a) {
  return isend(a.buf, a.count, a.type, a.dest_world, a.src_rank, a.tag, a.context, a.sync,
               a.collective);
}

RequestPtr ShmChannel::isend(const void *buf, std::int64_t count, pack::TypePtr type,
                             int dest_world, int src_rank, int tag, int context, bool sync,
                             bool collective) {
  std::lock_guard<EngineLock> g(e_.mu_);
  TrafficCounters::add(e_.traffic_.shm_messages, e_.traffic_.shm_bytes, type->size() * count);
  auto r = make_request();
  r->sync = sync;
  if (sync) {
    r->id = e_.next_id_++;
    if (dest_world != e_.me_) {
      awaiting_ack_.push_back(r);
      note_awaiting();
    }
  }
  r->kind = Request::Kind::send;
  r->channel = this;
  r->send_buf = buf;
  r->count = count;
  r->peer = dest_world;
  r->tag = tag;
  r->context = context;
  r->status.source = src_rank;  // carried in the header
  r->type = std::move(type);
  r->cursor.emplace(r->type, count);
  r->total = r->cursor->total();
  if (dest_world == e_.me_) {
    deliver_self(r);
    return r;
  }
  RingPeer &p = peer_of(dest_world);
  if (p.cma && r->total >= (collective ? coll_cma_threshold_ : cma_threshold_) &&
      r->type->is_contiguous() && !exchange_via_ring(context, dest_world)) {
    // Single copy: the receiver reads our buffer when it matches, then acks.
    r->rendezvous = true;
    if (!sync) {
      r->id = e_.next_id_++;
      awaiting_ack_.push_back(r);
      note_awaiting();
    }
  }
  p.sendq.push_back(r);
  count_queued(+1);
  if (p.sendq.size() == 1) push_sends(p);  // fast path: nothing queued ahead
  return r;
}

bool ShmChannel::exchange_via_ring(int context, int dest_world) {
  // In an exchange of large messages both cores copy anyway. Through the
  // ring the two copies of each message overlap, from cache, while a
  // single-copy read spends about as long again pinning the sender's
  // pages. Measured with bibw, ring against single copy: 43 against 29
  // GB/s at 512 KiB, 29 against 28 at 4 MiB, 21 against 14 at 16 MiB.
  // One way the single copy wins (22 against 25-29 GB/s from 256 KiB).
  // An exchange: a receive from dest_world is posted, or one of ours is
  // taking a large message from it through its ring right now (it came
  // before our receive was posted, and matched it at once).
  if (exchange_ring_ == 0) return false;
  RingPeer &p = peer_of(dest_world);
  if (exchange_ring_ == 2) {
    // Automatic: not when the two cores are far apart. There the ring's
    // two copies each move the data between the caches and single copy
    // measured 1.03-1.10x of them (bibw from 256 KiB, this VM's slow mode).
    p.out.reload_tail();
    if (p.out.far()) {
      base::log_debug("a large message to rank {} goes single copy: its core is far from ours",
                      dest_world);
      return false;
    }
  }
  const Incoming &in = p.incoming;
  const bool streaming =
      in.active && in.to_request && in.req->context == context && in.req->msg_len >= cma_threshold_;
  if (!streaming && !e_.match_.posted_from(context, dest_world, cma_threshold_)) return false;
  base::log_debug("a large message to rank {} goes through the ring: a receive from it is posted",
                  dest_world);
  return true;
}

void ShmChannel::deliver_self(const RequestPtr &s) {
  // Self-sends skip the channel: pack once, then handle as an arrival.
  std::vector<std::byte> bytes(static_cast<size_t>(s->total));
  s->cursor->pack(s->send_buf, bytes);
  Header h{Header::eager,
           static_cast<std::uint32_t>(bytes.size()),
           s->status.source,
           s->tag,
           s->context,
           s->total,
           0};
  RingPeer self;
  self.seq_in = s->seq = e_.next_id_++;  // names it for cancel_self()
  s->moved = s->total;
  s->done = !s->sync;  // a synchronous self-send completes when matched
  start_message(self, h, bytes, s->sync ? s : nullptr);
}

base::Result<std::string> ShmChannel::create_segment(const std::string &job_id, int local_rank,
                                                     int nlocal) {
  auto ring_or = transport::shm::plan_rings(nlocal, base::get_int("shm_ring_bytes"),
                                            base::get_int("shm_budget_bytes"));
  if (!ring_or) return {ring_or.error(), ring_or.message()};
  const std::uint64_t ring = *ring_or;
  ring_bytes_ = ring;
  eager_ = std::min<std::uint64_t>(static_cast<std::uint64_t>(base::get_int("shm_eager_limit")),
                                   ring / 4);
  chunk_ = std::max<std::uint64_t>(std::min<std::uint64_t>(ring / 4, 64 * 1024), 1024);
  cma_threshold_ = base::get_int("shm_cma_threshold");
  coll_cma_threshold_ = std::max(cma_threshold_, base::get_int("coll_cma_threshold"));
  if (cma_threshold_ == 0) coll_cma_threshold_ = 0;  // (0: no single copy at all)
  split_threshold_ = base::get_int("shm_split_threshold");
  read_batch_max_ = static_cast<std::size_t>(
      std::clamp<std::int64_t>(base::get_int("shm_cma_batch"), 1, kReadBatch));
  split_two_way_ = std::max(split_threshold_, base::get_int("shm_split_two_way"));
  split_two_way_max_ = base::get_int("shm_split_two_way_max");
  exchange_ring_ =
      static_cast<int>(std::clamp<std::int64_t>(base::get_int("shm_exchange_ring"), 0, 2));
  transport::shm::Ring::far_cycles =
      static_cast<std::uint64_t>(std::max<std::int64_t>(base::get_int("shm_far_cycles"), 0));
  prefetch_lines_ = static_cast<std::uint64_t>(
      std::clamp<std::int64_t>(base::get_int("shm_prefetch_lines"), 0, 64));
  coll_split_threshold_ = split_threshold_ == 0 ? 0 : base::get_int("coll_split_threshold");
  std::string name = fmt::format("/impi-{}-{}-{}", job_id, local_rank, ::getpid());
  std::replace(name.begin() + 1, name.end(), '/', '_');  // one path component
  auto seg = transport::shm::Segment::create(name, static_cast<std::uint32_t>(nlocal), ring);
  if (!seg) return {seg.error(), seg.message()};
  own_ = std::move(seg.value());
  my_local_ = local_rank;
  return name;
}

base::Status ShmChannel::attach(int, const std::vector<int> &local_world_ranks,
                                const std::vector<std::string> &names,
                                const std::vector<std::int64_t> &pids,
                                const std::vector<std::uint64_t> &probes) {
  peers_.resize(local_world_ranks.size());
  read_pos_ = std::make_unique<std::atomic<std::uint64_t>[]>(local_world_ranks.size());
  int max_world = 0;
  for (int w : local_world_ranks) max_world = std::max(max_world, w);
  local_of_world_.assign(static_cast<size_t>(max_world) + 1, -1);
  for (std::size_t i = 0; i < local_world_ranks.size(); ++i) {
    local_of_world_[static_cast<size_t>(local_world_ranks[i])] = static_cast<int>(i);
    RingPeer &p = peers_[i];
    p.world = local_world_ranks[i];
    if (static_cast<int>(i) == my_local_) continue;
    auto seg = transport::shm::Segment::open(names[i]);
    if (!seg)
      return {seg.error(), fmt::format("rank {}'s shared memory: {}", p.world, seg.message())};
    p.seg = std::move(seg.value());
    if (p.seg.header().nrings != local_world_ranks.size())
      return {Errc::protocol_error,
              fmt::format("rank {}'s segment has {} rings, expected {}", p.world,
                          p.seg.header().nrings, local_world_ranks.size())};
    p.out = p.seg.ring(static_cast<std::uint32_t>(my_local_));
    p.in = own_.ring(static_cast<std::uint32_t>(i));
    if (i < pids.size() && i < probes.size() && probes[i] != 0 && cma_threshold_ > 0) {
      p.pid = pids[i];
      p.cma = transport::shm::cma_permitted(p.pid, probes[i]);
      if (!p.cma)
        base::log_debug(
            "cross-memory attach to rank {} is not permitted; large messages are copied "
            "through the ring",
            p.world);
    }
  }
  return {};
}

bool ShmChannel::world_slots(int world_size, bool multi_client) const {
  int known = world_slots_.load(std::memory_order_relaxed);
  if (known < 0) {  // fixed once MPI_Init attached the peers (threads compute the same)
    bool ok =
        !multi_client && own_.mapped() && static_cast<int>(local_of_world_.size()) >= world_size;
    for (int w = 0; ok && w < world_size; ++w)
      if (w != e_.me_ &&
          (local_of_world_[static_cast<size_t>(w)] < 0 ||
           !peers_[static_cast<size_t>(local_of_world_[static_cast<size_t>(w)])].seg.mapped()))
        ok = false;
    known = ok ? 1 : 0;
    world_slots_.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

transport::shm::SegmentHeader &ShmChannel::header_of(int world) {
  auto &seg = world == e_.me_
                  ? own_
                  : peers_[static_cast<size_t>(local_of_world_[static_cast<size_t>(world)])].seg;
  return seg.header();
}

void ShmChannel::ring_all_doorbells() {
  for (std::size_t i = 0; i < peers_.size(); ++i)
    if (peers_[i].world >= 0 && peers_[i].world != e_.me_ && peers_[i].seg.mapped())
      peers_[i].seg.ring_doorbell();
}

bool ShmChannel::progress() {
  bool any = false;
  if (!deferred_reads_.empty()) any |= run_deferred_reads();
  if (!awaiting_ack_.empty()) any |= serve_split_offers();
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    if (static_cast<int>(i) == my_local_) continue;
    RingPeer &p = peers_[i];
    any |= drain(p);
    if (!p.sendq.empty()) any |= push_sends(p);
  }
  return any;
}

void ShmChannel::bind(const RequestPtr &r, Match::MessageRef u) {
  const Origin &o = u->origin;
  if (o.rndv_addr != 0) {
    deferred_reads_.push_back({r, o.peer_local, o.rndv_addr, u->msg_len, o.sync_id});
    count_queued(+1);
    return;
  }
  matched(o.peer_local, o.sync_id, o.self_sync);
  r->cursor->unpack(r->recv_buf, u->data);
  r->moved = static_cast<std::int64_t>(u->data.size());
  if (u->complete) {
    P2P::finish_recv(*r);
    return;
  }
  // The rest is still arriving: to the receive from now on.
  for (auto &p : peers_)
    if (p.incoming.active && !p.incoming.to_request && p.incoming.unexpected == u)
      p.incoming = {r, {}, true, true};
}

void ShmChannel::matched(int peer_local, std::uint64_t sync_id, const RequestPtr &self_sync) {
  if (self_sync) {
    self_sync->acked = true;
    self_sync->done = true;
  } else if (sync_id != 0 && peer_local <= -2) {
    e_.dyn_.ack(P2P::kDynBase + (-2 - peer_local), sync_id);
  } else if (sync_id != 0 && peer_local >= 0) {
    RingPeer &p = peers_[static_cast<size_t>(peer_local)];
    queue_ack(p, sync_id);
    push_sends(p);
  }
}

void ShmChannel::queue_control(RingPeer &p, std::uint32_t kind, std::uint64_t id) {
  p.control.push_back({kind, id});
  count_queued(+1);
}

void ShmChannel::queue_ack(RingPeer &p, std::uint64_t sync_id) {
  queue_control(p, Header::ack, sync_id);
}

bool ShmChannel::push_sends(RingPeer &p) {
  using transport::shm::pad_line;
  bool moved = false;
  auto put_control = [&] {
    while (!p.control.empty()) {
      Header a{p.control.front().kind, 0, 0, 0, 0, 0, p.control.front().id};
      std::uint64_t rec = pad_line(payload_at(a.kind, a.sync_id, 0));
      if (!p.out.has_room(rec)) break;
      put_header(p.out, a);
      p.out.publish(rec);
      p.control.pop_front();
      count_queued(-1);
      moved = true;
    }
  };
  put_control();
  while (!p.sendq.empty()) {
    Request &r = *p.sendq.front();
    if (r.rendezvous) {
      Header h{Header::rts, 8, r.status.source, r.tag, r.context, r.total, r.id};
      std::uint64_t at = payload_at(h.kind, h.sync_id, 8), rec = pad_line(at + 8);
      if (!p.out.has_room(rec)) break;
      std::uint64_t addr = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(
          static_cast<const std::byte *>(r.send_buf) + r.type->lb()));
      put_header(p.out, h);
      p.out.write_at(at, std::as_bytes(std::span(&addr, 1)));
      p.out.publish(rec);
      r.seq = ++p.seq_out;
      r.moved = r.total;
      r.done = r.acked;  // normally later, when the receiver's ack comes
      p.sendq.pop_front();
      count_queued(-1);
      moved = true;
      continue;
    }
    bool first = r.moved == 0;
    bool whole = static_cast<std::uint64_t>(r.total) <= eager_;
    std::uint64_t left = static_cast<std::uint64_t>(r.total - r.moved);
    std::uint64_t payload = first && whole ? left : std::min(left, chunk_);
    Header h{first ? (whole ? Header::eager : Header::first) : Header::chunk,
             static_cast<std::uint32_t>(payload),
             r.status.source,
             r.tag,
             r.context,
             r.total,
             first && r.sync ? r.id : 0};
    std::uint64_t at = payload_at(h.kind, h.sync_id, payload), rec = pad_line(at + payload);
    if (!p.out.has_room(rec)) break;  // the receiver has not drained yet
    put_header(p.out, h);
    std::uint64_t done = 0;
    while (done < payload) {  // pack straight into the ring (two windows at the wrap)
      auto w = p.out.window(at + done, payload - done);
      done += r.cursor->pack(r.send_buf, w);
    }
    p.out.publish(rec);
    if (first) r.seq = ++p.seq_out;
    r.moved += static_cast<std::int64_t>(payload);
    moved = true;
    if (r.moved == r.total) {
      if (r.cancel == Request::Cancel::pending) {
        // Cancelled while being written: the cancel follows its last record.
        queue_control(p, Header::cancel, r.seq);
      } else {
        r.done = !r.sync || r.acked;
      }
      p.sendq.pop_front();
      count_queued(-1);
    }
  }
  if (!p.control.empty()) put_control();
  if (moved) p.seg.ring_doorbell();
  return moved;
}

void ShmChannel::start_message(RingPeer &p, const Header &h, std::span<const std::byte> payload,
                               const RequestPtr &self_sync) {
  // peer_local: the sender's local rank; -1 for none (self); -2 - i for
  // dynamic peer i (its acks go over its connection).
  int peer_local = p.world < 0         ? -1
                   : P2P::dyn(p.world) ? -2 - (p.world - P2P::kDynBase)
                                       : local_of_world_[static_cast<size_t>(p.world)];
  if (RequestPtr r = e_.match_.take_posted({h.source, h.tag, h.context})) {
    r->status.source = h.source;
    r->status.tag = h.tag;
    r->msg_len = h.msg_len;
    if (h.kind == Header::rts) {
      std::uint64_t addr = 0;
      std::memcpy(&addr, payload.data(), sizeof addr);
      if (!self_sync && batch_read(r, peer_local, addr, h.msg_len, h.sync_id)) return;
      read_remote(*r, peer_local, addr, h.msg_len, h.sync_id);
      matched(peer_local, h.sync_id, self_sync);  // the ack releases the sender's buffer
      P2P::finish_recv(*r);
      return;
    }
    if (h.sync_id != 0 || self_sync) matched(peer_local, h.sync_id, self_sync);
    if (fill_posted(*r, h, payload))
      P2P::finish_recv(*r);
    else
      p.incoming = {r, {}, true, true};
    return;
  }
  queue_unexpected(p, h, payload, self_sync, peer_local);
}

void ShmChannel::queue_unexpected(RingPeer &p, const Header &h, std::span<const std::byte> payload,
                                  const RequestPtr &self_sync, int peer_local) {
  Origin o;
  o.via = P2P::dyn(p.world) ? static_cast<Channel *>(&e_.dyn_) : this;
  o.peer_local = peer_local;
  o.sync_id = h.sync_id;
  o.self_sync = self_sync;
  o.seq = p.seq_in;
  if (h.kind == Header::rts) {  // the data stays with the sender until a receive matches
    std::memcpy(&o.rndv_addr, payload.data(), sizeof o.rndv_addr);
    e_.match_.add_unexpected({h.source, h.tag, h.context}, h.msg_len, std::move(o))->complete =
        true;
    return;
  }
  auto u = e_.match_.add_unexpected({h.source, h.tag, h.context}, h.msg_len, std::move(o));
  u->data.assign(payload.begin(), payload.end());
  u->complete = h.kind == Header::eager;
  e_.charge(*u, p.world < 0 ? e_.me_ : p.world, payload.size());
  if (h.kind != Header::eager) p.incoming = {nullptr, u, false, true};
}

void ShmChannel::add_bytes(RingPeer &p, std::span<const std::byte> payload) {
  Incoming &in = p.incoming;
  if (!in.active) return;  // a chunk with no message: cannot happen with our own senders
  if (in.to_request) {
    Request &r = *in.req;
    r.cursor->unpack(r.recv_buf, payload);
    r.moved += static_cast<std::int64_t>(payload.size());
    if (r.moved >= r.msg_len) {
      P2P::finish_recv(r);
      in = {};
    }
  } else {
    Unexpected &u = *in.unexpected;
    u.data.insert(u.data.end(), payload.begin(), payload.end());
    e_.charge(u, u.sender, payload.size());
    if (static_cast<std::int64_t>(u.data.size()) >= u.msg_len) {
      u.complete = true;
      in = {};
    }
  }
}

bool ShmChannel::drain(RingPeer &p) {
  bool any = false;
  std::vector<std::byte> joined;
  const bool ours = &p >= peers_.data() &&
                    &p < peers_.data() + peers_.size();  // (rings of other jobs: not in peers_)
  batch_peer_ = ours && p.cma ? static_cast<int>(&p - peers_.data()) : -1;
  while (p.in.ready()) {
    Header h;
    std::uint64_t at = get_header(p.in, h);
    if (h.payload > p.in.capacity() - at || h.kind < Header::eager || h.kind > Header::cancel_no ||
        ((h.kind == Header::first || h.kind == Header::rts) && h.msg_len < h.payload)) {
      base::log_error("corrupt record from rank {} in shared memory (kind {}, {} bytes)", p.world,
                      h.kind, h.payload);
      std::abort();  // a local peer wrote garbage into our segment: nothing to trust any more
    }
    std::uint64_t rec = transport::shm::pad_line(at + h.payload);
    // The payload may straddle the wrap point: join the two windows then.
    auto w = p.in.read_window(at, h.payload);
    std::span<const std::byte> payload = w;
    if (w.size() < h.payload) {
      joined.resize(h.payload);
      p.in.read_at(at, joined.data(), h.payload);
      payload = joined;
    }
    if (h.kind == Header::ack) {
      bool found = false;
      for (auto it = awaiting_ack_.begin(); it != awaiting_ack_.end(); ++it)
        if ((*it)->id == h.sync_id) {
          (*it)->acked = true;
          // (With a cancel pending, its answer completes the request.)
          (*it)->done = (*it)->moved == (*it)->total && (*it)->cancel != Request::Cancel::pending;
          awaiting_ack_.erase(it);
          note_awaiting();
          found = true;
          break;
        }
      if (!found && P2P::dyn(p.world))
        e_.dyn_.acked(h.sync_id);  // a synchronous send to another job
    } else if (h.kind == Header::chunk) {
      add_bytes(p, payload);
    } else if (h.kind >= Header::cancel) {
      // (Our own senders send cancels only to procs of this client.)
      if (!ours)
        base::log_warn("ignoring a cancel record from a process of another job");
      else if (h.kind == Header::cancel)
        answer_cancel(p, h.sync_id);
      else
        cancel_answered(p, h.sync_id, h.kind == Header::cancel_yes);
    } else if (h.kind == Header::eager && h.sync_id == 0 && ours) {
      // The common case, a small message nobody waits to hear was matched:
      // start_message()'s work without its questions.
      ++p.seq_in;
      if (RequestPtr r = e_.match_.take_posted({h.source, h.tag, h.context})) {
        fill_posted(*r, h, payload);
        P2P::finish_recv(*r);
      } else {
        queue_unexpected(p, h, payload, nullptr,
                         local_of_world_[static_cast<std::size_t>(p.world)]);
      }
    } else {
      ++p.seq_in;
      start_message(p, h, payload);
    }
    p.in.consume(rec);
    any = true;
  }
  flush_reads();
  batch_peer_ = -1;
  if (any) p.send_run = 0;  // (an answer came: no stream of sends)
  // The sender may be waiting for room (asleep; dozing, it polls anyway).
  if (any && p.in.release()) p.seg.ring_doorbell(false);
  if (any && ours)
    read_pos_[static_cast<size_t>(&p - peers_.data())].store(p.in.position(),
                                                             std::memory_order_relaxed);
  return any;
}

std::uint64_t ShmChannel::send_now(const void *buf, std::int64_t count, const pack::TypePtr &type,
                                   int dest_world, int src_rank, int tag, int context) {
  std::lock_guard<EngineLock> g(e_.mu_);
  if (!reaches(dest_world)) return 0;
  RingPeer &p = peer_of(dest_world);
  if (!p.sendq.empty() || !p.control.empty()) return 0;  // keep the order of what is queued
  std::int64_t total = type->size() * count;
  if (static_cast<std::uint64_t>(total) > eager_ || (p.cma && total >= cma_threshold_)) return 0;
  Header h{Header::eager, static_cast<std::uint32_t>(total), src_rank, tag, context, total, 0};
  std::uint64_t at = payload_at(h.kind, 0, static_cast<std::uint64_t>(total)),
                rec = transport::shm::pad_line(at + static_cast<std::uint64_t>(total));
  if (!p.out.has_room(rec)) return 0;
  TrafficCounters::add(e_.traffic_.shm_messages, e_.traffic_.shm_bytes, total);
  put_header(p.out, h);
  if (total == 0) {
    // nothing to copy
  } else if (type->is_contiguous()) {
    p.out.write_at(at, std::span(static_cast<const std::byte *>(buf) + type->lb(),
                                 static_cast<std::size_t>(total)));
  } else {
    pack::PackCursor c(type, count);
    std::uint64_t done = 0;
    while (done < static_cast<std::uint64_t>(total))
      done += c.pack(buf, p.out.window(at + done, static_cast<std::uint64_t>(total) - done));
  }
  p.out.publish(rec);
  // A second send in a row: a stream, whose next records' lines we want
  // owned before we write them (in a ping-pong that measured slower).
  if (p.send_run < 2) ++p.send_run;
  if (p.send_run == 2 && prefetch_lines_ > 0) p.out.prefetch_ahead(prefetch_lines_);
  p.seg.ring_doorbell();
  return ++p.seq_out;
}

bool ShmChannel::cancel_send(const RequestPtr &r) {
  if (r->cancelled || r->cancel == Request::Cancel::pending) return true;
  if (r->cancel == Request::Cancel::refused) return false;
  if (r->peer == e_.me_) return cancel_self(r);
  return cancel_ring(r);
}

bool ShmChannel::cancel_self(const RequestPtr &r) {
  if (r->seq == 0) return false;  // (not a message of ours)
  auto u = e_.match_.newest_if([&](const Unexpected &m) {
    return m.origin.via == this && m.origin.peer_local == -1 && m.origin.seq == r->seq;
  });
  // Matched (or claimed by a matched probe): complete, or completes on its match.
  if (!u) return false;
  e_.match_.remove(*u);  // (a synchronous one holds `r` there: dropped too)
  r->cancelled = true;
  r->done = true;
  return true;
}

bool ShmChannel::cancel_ring(const RequestPtr &r) {
  RingPeer &p = peer_of(r->peer);
  auto it = std::find(p.sendq.begin(), p.sendq.end(), r);
  if (it != p.sendq.end() && r->moved == 0) {  // not started: take it back
    p.sendq.erase(it);
    count_queued(-1);
    awaiting_ack_.erase(std::remove(awaiting_ack_.begin(), awaiting_ack_.end(), r),
                        awaiting_ack_.end());
    note_awaiting();
    r->cancelled = true;
    r->done = true;
    return true;
  }
  // Matched already (its ack came), or not a message of ours (MPI_PROC_NULL).
  if (r->seq == 0 || ((r->sync || r->rendezvous) && r->acked)) return false;
  // In the receiver's ring (a long one perhaps in part: push_sends() asks
  // once its last record is in).
  r->cancel = Request::Cancel::pending;
  r->done = false;  // (a standard send completes when written: now with the answer)
  p.cancelling.push_back(r);
  if (it == p.sendq.end()) ask_cancel(p, r);
  return true;
}

void ShmChannel::ask_cancel(RingPeer &p, const RequestPtr &r) {
  queue_control(p, Header::cancel, r->seq);
  push_sends(p);
}

RequestPtr ShmChannel::cancel_sent(int dest_world, std::uint64_t seq) {
  std::lock_guard<EngineLock> g(e_.mu_);
  auto r = make_request();
  r->kind = Request::Kind::send;
  r->channel = this;
  r->peer = dest_world;
  r->seq = seq;
  r->cancel = Request::Cancel::pending;
  RingPeer &p = peer_of(dest_world);
  p.cancelling.push_back(r);
  ask_cancel(p, r);
  return r;
}

void ShmChannel::answer_cancel(RingPeer &p, std::uint64_t seq) {
  // The cancel follows the message's last record in this ring: the message
  // is wholly here, in the unexpected queue unless a receive (or a matched
  // probe) took it.
  const int from = static_cast<int>(&p - peers_.data());
  auto u = e_.match_.newest_if([&](const Unexpected &m) {
    return m.origin.via == this && m.origin.peer_local == from && m.origin.seq == seq;
  });
  bool found = u && (*u)->complete;
  if (found) {
    // Its buffered bytes go; a single-copy message's data never left the
    // sender, and no ack is owed: the sender drops it on our answer.
    e_.match_.remove(*u);
  }
  base::log_debug("rank {}: cancel of message {} from rank {}: {}", e_.me_, seq, p.world,
                  found ? "removed" : "matched already");
  queue_control(p, found ? Header::cancel_yes : Header::cancel_no, seq);
  push_sends(p);
}

void ShmChannel::cancel_answered(RingPeer &p, std::uint64_t seq, bool cancelled) {
  auto it = std::find_if(p.cancelling.begin(), p.cancelling.end(),
                         [&](const RequestPtr &r) { return r->seq == seq; });
  if (it == p.cancelling.end()) {
    base::log_warn("rank {} answered a cancel of message {} that we did not ask for", p.world, seq);
    return;
  }
  RequestPtr r = std::move(*it);
  p.cancelling.erase(it);
  if (cancelled) {
    awaiting_ack_.erase(std::remove(awaiting_ack_.begin(), awaiting_ack_.end(), r),
                        awaiting_ack_.end());
    note_awaiting();
    r->cancel = Request::Cancel::none;
    r->cancelled = true;
    r->done = true;
    return;
  }
  // Matched: the send completes as it would have (a synchronous or
  // single-copy one on its ack, which may come before or after this).
  r->cancel = Request::Cancel::refused;
  r->done = r->moved == r->total && (!(r->sync || r->rendezvous) || r->acked);
}

}  // namespace impi::core
