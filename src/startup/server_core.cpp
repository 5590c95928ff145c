#include "startup/server_core.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <limits>

#include "base/byteorder.hpp"
#include "base/log.hpp"
#include "base/sha256.hpp"
#include "startup/auth.hpp"

namespace impi::startup {

using namespace wire;

ServerCore::ServerCore(ServerConfig cfg) : cfg_(std::move(cfg)) {}

void ServerCore::connected(ConnId c, std::string peer) {
  conns_[c].peer = std::move(peer);
}

bool ServerCore::is_pending(ConnId c) const {
  auto it = conns_.find(c);
  return it != conns_.end() && it->second.phase != Phase::joined &&
         it->second.phase != Phase::closed;
}

bool ServerCore::finished() const {
  return done_sent_ && static_cast<int>(fini_ranks_.size()) == cfg_.nclients;
}

std::vector<ServerCore::Action> ServerCore::take_actions() {
  std::vector<Action> out;
  out.swap(actions_);
  return out;
}

void ServerCore::received(ConnId id, std::span<const std::byte> bytes) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.phase == Phase::closed) return;
  it->second.reader.feed(bytes);
  process(id, it->second);
}

void ServerCore::disconnected(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn &c = it->second;
  if (c.phase == Phase::joined && !c.fini)
    fail(fmt::format("client {} ({}) disconnected before FINI", c.rank, c.peer));
  else if (c.phase != Phase::joined && c.phase != Phase::closed)
    base::log_info("connection from {} closed before joining the job", c.peer);
  if (c.rank >= 0) {
    auto r = by_rank_.find(c.rank);
    if (r != by_rank_.end() && r->second == id) by_rank_.erase(r);
  }
  conns_.erase(it);
}

void ServerCore::drop(ConnId id, Conn &c, const std::string &why) {
  base::log_error("{}; connection from {} closed", why, c.peer);
  if (c.phase == Phase::joined && !c.fini)
    fail(fmt::format("client {} ({}) broke the startup protocol: {}", c.rank, c.peer, why));
  c.phase = Phase::closed;
  actions_.push_back({Action::close, id, {}});
}

void ServerCore::fail(const std::string &why) {
  // Every loss is logged, not only the first: when a client dies, the others
  // end their parts and close too, and their closes may reach us first.
  base::log_error("{}", why);
  if (failure_.empty()) failure_ = why;
}

void ServerCore::process(ConnId id, Conn &c) {
  while (c.phase != Phase::closed) {
    if (c.phase == Phase::want_key) {
      auto raw = c.reader.take_raw(kAuthKeySize);
      if (!raw) return;
      if (base::load_be<std::uint64_t>(*raw) != *cfg_.key) {
        drop(id, c, "wrong IMPI_AUTH_KEY");
        return;
      }
      c.phase = Phase::want_rank;
      continue;
    }
    if (c.phase == Phase::want_hmac) {
      // The client's nonce and its proof that it knows the key; then ours.
      auto raw = c.reader.take_raw(2 * kAuthNonceSize);
      if (!raw) return;
      Nonce client_nonce;
      std::copy_n(raw->begin(), kAuthNonceSize, client_nonce.begin());
      auto want = hmac_client_proof(*cfg_.key, c.nonce, client_nonce);
      if (!base::digest_equal(want, std::span(*raw).subspan(kAuthNonceSize))) {
        drop(id, c, "wrong IMPI_AUTH_KEY (IMPI_AUTH_HMAC proof)");
        return;
      }
      auto mine = hmac_server_proof(*cfg_.key, c.nonce, client_nonce);
      send(id, Bytes(mine.begin(), mine.end()));
      base::log_info("{} authenticated with IMPI_AUTH_HMAC", c.peer);
      c.phase = Phase::want_rank;
      continue;
    }
    if (c.phase == Phase::want_auth) {
      // Name a stranger by what it sent before judging any length it announces.
      auto h = c.reader.peek_header();
      if (h && h->cmd != kCmdAuth) {
        drop(id, c,
             fmt::format("first command was 0x{:08x}, not AUTH",
                         static_cast<std::uint32_t>(h->cmd)));
        return;
      }
    }
    auto next = c.reader.next();
    if (!next) {
      drop(id, c, next.message());
      return;
    }
    if (!next->has_value()) return;
    if (!handle_cmd(id, c, **next)) return;
  }
}

bool ServerCore::handle_cmd(ConnId id, Conn &c, const CmdReader::Cmd &cmd) {
  if (c.phase == Phase::want_auth) return handle_auth(id, c, cmd);
  if (c.phase == Phase::want_rank) return handle_join(id, c, cmd);
  return handle_joined(id, c, cmd);
}

// AUTH: the method both sides have (and the server prefers), then its
// first step.
bool ServerCore::handle_auth(ConnId id, Conn &c, const CmdReader::Cmd &cmd) {
  const auto &p = cmd.payload;
  if (cmd.header.cmd != kCmdAuth) {
    drop(id, c,
         fmt::format("first command was 0x{:08x}, not AUTH",
                     static_cast<std::uint32_t>(cmd.header.cmd)));
    return false;
  }
  if (p.size() < 4 || p.size() % 4 != 0 || p.size() > 128) {
    drop(id, c, fmt::format("AUTH with {} payload bytes", p.size()));
    return false;
  }
  // Methods beyond 31 (later masks) are not known to this server.
  std::uint32_t client_mask = base::load_be<std::uint32_t>(std::span(p).first(4));
  auto which = choose_auth(cfg_.auth_mask, client_mask, cfg_.preference);
  if (!which) {
    drop(id, c,
         fmt::format("no authentication method in common (client offers 0x{:x}, "
                     "server 0x{:x})",
                     client_mask, cfg_.auth_mask));
    return false;
  }
  if (*which == kAuthHmac) {
    auto nonce = make_nonce();
    if (!nonce) {
      drop(id, c, nonce.message());
      return false;
    }
    c.nonce = *nonce;
    Bytes reply = encode_server_auth(kAuthHmac, static_cast<std::int32_t>(kAuthNonceSize));
    reply.insert(reply.end(), c.nonce.begin(), c.nonce.end());
    send(id, std::move(reply));
    c.phase = Phase::want_hmac;
    return true;
  }
  send(id, encode_server_auth(*which, 0));
  if (*which == kAuthNone) {
    base::log_warn("{} has authenticated with IMPI_AUTH_NONE", c.peer);
    c.phase = Phase::want_rank;
  } else {
    base::log_info("{} authenticates with IMPI_AUTH_KEY (the key crosses the wire in clear)",
                   c.peer);
    c.phase = Phase::want_key;
  }
  return true;
}

// IMPI: the client's rank; once every client joined, the job's size.
bool ServerCore::handle_join(ConnId id, Conn &c, const CmdReader::Cmd &cmd) {
  const auto &p = cmd.payload;
  if (cmd.header.cmd != kCmdImpi) {
    drop(id, c,
         fmt::format("expected IMPI after AUTH, got 0x{:08x}",
                     static_cast<std::uint32_t>(cmd.header.cmd)));
    return false;
  }
  auto rank = decode_i32_payload(p);
  if (!rank) {
    drop(id, c, "IMPI command: " + rank.message());
    return false;
  }
  if (*rank < 0 || *rank >= cfg_.nclients) {
    drop(id, c, fmt::format("client rank {} out of range 0..{}", *rank, cfg_.nclients - 1));
    return false;
  }
  if (by_rank_.count(*rank)) {
    drop(id, c,
         fmt::format("client rank {} is already taken by {}", *rank,
                     conns_.at(by_rank_.at(*rank)).peer));
    return false;
  }
  c.rank = *rank;
  c.phase = Phase::joined;
  by_rank_[c.rank] = id;
  base::log_info("client {} joined from {}", c.rank, c.peer);
  if (static_cast<int>(by_rank_.size()) == cfg_.nclients && !size_sent_) {
    size_sent_ = true;
    for (auto [r, cid] : by_rank_) send(cid, encode_impi(cfg_.nclients));
    try_broadcast();
  }
  return true;
}

// COLL, DONE and FINI from a client that joined.
bool ServerCore::handle_joined(ConnId id, Conn &c, const CmdReader::Cmd &cmd) {
  const auto &p = cmd.payload;
  switch (cmd.header.cmd) {
    case kCmdColl: {
      if (c.done) {
        drop(id, c, "COLL after DONE");
        return false;
      }
      auto s = decode_coll_submit(p);
      if (!s) {
        drop(id, c, s.message());
        return false;
      }
      if (s->label <= c.last_label) {
        drop(id, c,
             fmt::format("label 0x{:x} after 0x{:x}: labels must ascend",
                         static_cast<std::uint32_t>(s->label),
                         static_cast<std::uint32_t>(c.last_label)));
        return false;
      }
      c.last_label = s->label;
      pending_[s->label][c.rank] = std::move(s->value);
      try_broadcast();
      return true;
    }
    case kCmdDone:
      if (!p.empty()) {
        drop(id, c, "DONE with a payload");
        return false;
      }
      c.done = true;
      c.last_label = std::numeric_limits<std::int64_t>::max();
      try_broadcast();
      return true;
    case kCmdFini:
      c.fini = true;
      fini_ranks_.insert(c.rank);
      base::log_info("client {} sent FINI", c.rank);
      return true;
    default:
      // Forward compatibility (2.3.2): commands we do not know are skipped.
      base::log_debug("skipping unknown command 0x{:08x} from client {}",
                      static_cast<std::uint32_t>(cmd.header.cmd), c.rank);
      return true;
  }
}

void ServerCore::try_broadcast() {
  if (!size_sent_) return;
  while (!pending_.empty()) {
    auto &[label, values] = *pending_.begin();
    // Complete once every client contributed or has moved past the label.
    for (auto [rank, id] : by_rank_) {
      const Conn &c = conns_.at(id);
      if (!values.count(rank) && c.last_label <= label) return;
    }
    std::uint32_t mask = 0;
    Bytes concat;
    for (auto &[rank, v] : values) {
      mask |= 1u << rank;
      concat.insert(concat.end(), v.begin(), v.end());
    }
    if (concat.size() + 8 > kMaxPayload) {
      fail(fmt::format("label 0x{:x}: {} bytes are too many to broadcast", label, concat.size()));
      return;
    }
    Bytes msg = encode_coll_bcast(label, mask, concat);
    for (auto [rank, id] : by_rank_) send(id, msg);
    pending_.erase(pending_.begin());
  }
  bool all_done = true;
  for (auto [rank, id] : by_rank_) all_done = all_done && conns_.at(id).done;
  if (all_done && !done_sent_) {
    done_sent_ = true;
    for (auto [rank, id] : by_rank_) send(id, encode_cmd(kCmdDone));
    base::log_info("startup complete: DONE sent to {} clients", by_rank_.size());
  }
}

}  // namespace impi::startup
