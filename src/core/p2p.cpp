// p2p.cpp - the matching side of point-to-point: receives, probes,
// cancels, delivery of unexpected messages to their transport, and the
// progress pass. The protocols: p2p_shm.cpp (shared memory and self),
// p2p_cma.cpp (single copy), p2p_remote.cpp and p2p_direct.cpp (other
// IMPI clients), p2p_dyn.cpp (other jobs).
#include "core/p2p.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "core/runtime.hpp"

namespace impi::core {

void P2P::charge(Unexpected &u, int from_world, std::size_t n) {
  // Read at the first unexpected message: MPI_T may set it before MPI_Init.
  static const auto limit = static_cast<std::size_t>(base::get_int("unexpected_limit_bytes"));
  if (match_.charge(u, from_world, n, limit)) return;
  std::string who =
      dyn(from_world) ? "a process of another job" : fmt::format("rank {}", from_world);
  Runtime::instance().abort(
      1, fmt::format(
             "impi fatal: rank {}: the messages from {} that no receive has matched yet hold more "
             "than {} bytes "
             "(IMPI_UNEXPECTED_LIMIT_BYTES). That limit keeps a receiver that falls behind from "
             "exhausting memory: post the receives earlier, or raise it (0: no limit)",
             me_, who, limit));
}

bool P2P::progress_locked() {
  bool any = false;
  if (dyn_on_.load(std::memory_order_relaxed)) any |= progress_dyn();
  if (agent_) {
    any |= poll_agent();
    if (!remote_streams_.empty()) any |= push_streams();
    if (link_out_.pending() > 0) any |= flush_link();
  }
  if (!awaiting_ack_.empty()) any |= serve_split_offers();
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    if (static_cast<int>(i) == my_local_) continue;
    Peer &p = peers_[i];
    any |= drain(p);
    if (!p.sendq.empty()) any |= push_sends(p);
  }
  return any;
}

void P2P::bind(const RequestPtr &r, Match::MessageRef u) {
  r->status.source = u->env.source;
  r->status.tag = u->env.tag;
  r->msg_len = u->msg_len;
  const Origin &o = u->origin;
  if (o.ext32) {  // from another client: its first packet
    start_remote_recv(r, o.remote_src, o.remote_srqid, o.remote_sync, u->msg_len, u->data);
    match_.remove(u);
    return;
  }
  if (o.rndv_addr != 0) {
    read_remote(*r, o.peer_local, o.rndv_addr, u->msg_len, o.sync_id);
    matched(o.peer_local, o.sync_id, o.self_sync);
    finish_recv(*r);
    match_.remove(u);
    return;
  }
  matched(o.peer_local, o.sync_id, o.self_sync);
  r->cursor->unpack(r->recv_buf, u->data);
  r->moved = static_cast<std::int64_t>(u->data.size());
  if (u->complete) {
    finish_recv(*r);
  } else {
    for (auto &p : peers_)
      if (p.incoming.active && !p.incoming.to_request && p.incoming.unexpected == u)
        p.incoming = {r, {}, true, true};
    for (auto &in : dyn_in_)
      if (in->ring && in->ring->incoming.active && !in->ring->incoming.to_request &&
          in->ring->incoming.unexpected == u)
        in->ring->incoming = {r, {}, true, true};
  }
  match_.remove(u);
}

RequestPtr P2P::irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source, int tag,
                      int context, Request *storage) {
  std::lock_guard<EngineLock> g(mu_);
  // A caller-provided request (freshly constructed) is referenced without
  // ownership (aliasing constructor): no allocation, no reference counting.
  auto r = storage ? RequestPtr(RequestPtr(), storage) : make_request();
  r->kind = Request::Kind::recv;
  r->recv_buf = buf;
  r->count = count;
  r->peer = source;
  r->tag = tag;
  r->context = context;
  if (!storage || !type->is_predefined()) r->type = type;  // predefined types live forever
  r->cursor.emplace(type, count);
  r->total = r->cursor->total();
  if (auto u = match_.match_or_post(r)) bind(r, *u);
  return r;
}

bool P2P::has_message(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  return match_.find(source, tag, context).has_value();
}

std::optional<MsgStatus> P2P::iprobe(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  progress_locked();
  auto u = match_.find(source, tag, context);
  if (!u) return std::nullopt;
  return MsgStatus{(*u)->env.source, (*u)->env.tag, (*u)->msg_len, 0};
}

std::optional<std::pair<MsgStatus, std::uint64_t>> P2P::improbe(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  progress_locked();
  auto u = match_.find(source, tag, context);
  if (!u) return std::nullopt;
  MsgStatus st{(*u)->env.source, (*u)->env.tag, (*u)->msg_len, 0};
  return std::make_pair(st, match_.claim(*u));
}

RequestPtr P2P::mrecv(std::uint64_t message, void *buf, std::int64_t count, pack::TypePtr type) {
  std::lock_guard<EngineLock> g(mu_);
  auto u = match_.claimed(message);
  if (!u) return nullptr;
  auto r = make_request();
  r->kind = Request::Kind::recv;
  r->recv_buf = buf;
  r->count = count;
  r->type = std::move(type);
  r->cursor.emplace(r->type, count);
  r->total = r->cursor->total();
  r->peer = (*u)->env.source;
  r->tag = (*u)->env.tag;
  r->context = (*u)->env.context;
  bind(r, *u);
  return r;
}

// ---- cancel (MPI-3.1 3.8.4)

bool P2P::cancel(const RequestPtr &r) {
  std::lock_guard<EngineLock> g(mu_);
  // A send to another client may be cancelled remotely even once complete
  // here (IMPI 3.7.4); its ids are never 0.
  const Route route_to = route(r->peer);
  if (r->kind == Request::Kind::send && r->id != 0 && route_to == Route::impi)
    return cancel_remote(r);
  if (r->kind == Request::Kind::recv) {
    if (r->done) return false;
    if (!match_.cancel_posted(r)) return false;  // matched already: it will complete
    r->cancelled = true;
    r->done = true;
    return true;
  }
  if (r->cancelled || r->cancel == Request::Cancel::pending) return true;
  if (r->cancel == Request::Cancel::refused) return false;
  if (route_to == Route::self) return cancel_self(r);
  return route_to == Route::shm && cancel_shm(r);  // (other jobs: no cancel)
}

bool P2P::cancel_self(const RequestPtr &r) {
  if (r->seq == 0) return false;  // (not a message of ours: MPI_PROC_NULL, say)
  auto u = match_.newest_if([&](const Unexpected &m) {
    return !m.origin.ext32 && m.origin.peer_local == -1 && m.origin.seq == r->seq;
  });
  // Matched (or claimed by a matched probe): complete, or completes on its match.
  if (!u) return false;
  match_.remove(*u);  // (a synchronous one holds `r` there: dropped too)
  r->cancelled = true;
  r->done = true;
  return true;
}

}  // namespace impi::core
