// matching.hpp - the matching engine: posted receives and unexpected
// messages, as MPI matches them (MPI-3.1 3.5, 3.8).
//
// Per context id, a queue of posted receives and a queue of unexpected
// messages, both in arrival order. A message matches the first posted
// receive whose (source, tag) accept it, with kAnySource / kAnyTag as
// wildcards; a receive takes the first unexpected message it accepts.
// Transports hand arrivals over in each sender's order, which with the
// queues' order gives MPI's non-overtaking rule.
//
// The engine knows nothing of transports. An arrival is an envelope, a
// length, and an `Origin`: the transport's handle for the message (which
// sender to acknowledge, where the rest of the data is), kept with an
// unexpected message and handed back when a receive takes it. Delivering
// the data is the transport's job; the engine only says who matched whom.
//
// Not thread-safe: its owner (core::P2P) calls it under its engine lock.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <list>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/tool_events.hpp"
#include "core/request.hpp"

namespace impi::core {

// Who sent a message, with which tag, in which context.
struct Envelope {
  int source = 0;  // the sender's rank in the communicator
  int tag = 0;
  int context = 0;
};

// Whether a receive for (source, tag) accepts a message from `from` with
// tag `tag` (the context is the caller's to compare).
inline bool accepts(int want_source, int want_tag, int from, int tag) {
  return (want_source == kAnySource || want_source == from) &&
         (want_tag == kAnyTag || want_tag == tag);
}

// Bytes that unexpected messages buffer, per sender. A receiver that falls
// behind must not exhaust its memory: past the limit its owner ends the job.
class UnexpectedBytes {
 public:
  // Adds `n` bytes from `sender`; false when that sender now holds more
  // than `limit` (0: no limit; nothing is counted then).
  bool charge(int sender, std::size_t n, std::size_t limit);
  void release(int sender, std::size_t n);  // n bytes charged to `sender` are gone
  std::size_t held(int sender) const;

 private:
  std::unordered_map<int, std::size_t> by_sender_;
};

template <typename Origin>
class MatchEngine {
 public:
  // A message that arrived before a receive took it.
  struct Message {
    Envelope env;
    std::int64_t msg_len = 0;     // the whole message's bytes
    std::vector<std::byte> data;  // what the transport buffered of it so far
    bool complete = false;        // `data` holds all the transport will buffer
    Origin origin{};              // the transport's handle for the rest
    std::uint64_t arrival = 0;    // arrival number (newest_if)
    std::uint64_t claim = 0;      // nonzero: claimed by a matched probe
    int sender = -1;              // whose bytes `data` are (UnexpectedBytes)
    std::size_t counted = 0;      // bytes charged to `sender`
  };
  using MessageRef = typename std::list<Message>::iterator;  // valid until remove()

  // ---- arrivals (transports)

  // The first posted receive that accepts `e`, taken out of its queue, or
  // null: then the caller queues the message with add_unexpected().
  [[gnu::always_inline]] RequestPtr take_posted(const Envelope &e) {
    Queues &q = queues(e.context);
    for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
      if (!accepts((*it)->peer, (*it)->tag, e.source, e.tag)) continue;
      RequestPtr r = std::move(*it);  // no reference-count traffic
      if (it == q.posted.begin())
        q.posted.pop_front();  // the usual case, and cheaper than erase()
      else
        q.posted.erase(it);
      --posted_;
      return r;
    }
    return nullptr;
  }
  // Queues a message no posted receive accepted. The caller fills `data`
  // (charging it with charge()) and `complete`.
  MessageRef add_unexpected(const Envelope &e, std::int64_t msg_len, Origin origin) {
    auto &list = queues(e.context).unexpected;
    if (spare_.empty())
      list.emplace_back();
    else
      list.splice(list.end(), spare_, spare_.begin());  // a node and buffer of before
    Message &m = list.back();
    m.env = e;
    m.msg_len = msg_len;
    m.origin = std::move(origin);
    m.arrival = ++arrivals_;
    ++unexpected_;
    if (base::events::wanted(base::events::kUnexpectedMessage))  // (MPI_T event)
      base::events::raise(base::events::kUnexpectedMessage, {e.source, e.tag, e.context, msg_len});
    return std::prev(list.end());
  }
  // Charges `n` more buffered bytes of `m` to `sender`; false when that
  // sender is past `limit` (0: no limit). They are released with `m`.
  bool charge(Message &m, int sender, std::size_t n, std::size_t limit) {
    m.sender = sender;
    if (limit == 0 || n == 0) return true;
    m.counted += n;
    return bytes_.charge(sender, n, limit);
  }

  // ---- receives

  // The first unexpected message `r` (a receive: peer, tag, context)
  // accepts; when there is none, `r` is posted.
  std::optional<MessageRef> match_or_post(const RequestPtr &r) {
    Queues &q = queues(r->context);
    for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it)
      if (accepts(r->peer, r->tag, it->env.source, it->env.tag)) return it;
    q.posted.push_back(r);
    ++posted_;
    return std::nullopt;
  }
  // The first unexpected message a receive for (source, tag, context) would take.
  std::optional<MessageRef> find(int source, int tag, int context) {
    Queues &q = queues(context);
    for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it)
      if (accepts(source, tag, it->env.source, it->env.tag)) return it;
    return std::nullopt;
  }
  // Takes a posted receive back (MPI_Cancel); false if it is not posted
  // (matched already, or never posted).
  bool cancel_posted(const RequestPtr &r) {
    auto &posted = queues(r->context).posted;
    for (auto it = posted.begin(); it != posted.end(); ++it)
      if (*it == r) {
        posted.erase(it);
        --posted_;
        return true;
      }
    return false;
  }
  // Matched probe (MPI_Improbe): takes `m` out of matching; mrecv finds it
  // again by the id returned (never 0).
  std::uint64_t claim(MessageRef m) {
    m->claim = ++claims_;
    claimed_.splice(claimed_.end(), queues(m->env.context).unexpected, m);
    --unexpected_;
    return m->claim;
  }
  // The message claimed with `id`, if it has not been removed.
  std::optional<MessageRef> claimed(std::uint64_t id) {
    for (auto it = claimed_.begin(); it != claimed_.end(); ++it)
      if (it->claim == id) return it;
    return std::nullopt;
  }
  // Forgets `m` (a receive took it, or its sender cancelled it) and
  // releases its buffered bytes.
  void remove(MessageRef m) {
    if (m->counted > 0) bytes_.release(m->sender, m->counted);
    auto &list = m->claim != 0 ? claimed_ : queues(m->env.context).unexpected;
    if (m->claim == 0) --unexpected_;
    if (spare_.size() >= kSpares || m->data.capacity() > kSpareBytes) {
      list.erase(m);
      return;
    }
    // Kept for the next arrival: an unexpected message costs no allocation
    // then (a node and a buffer, each a malloc and a free per message).
    m->data.clear();
    m->origin = Origin{};  // (drops its references)
    m->complete = false;
    m->claim = 0;
    m->sender = -1;
    m->counted = 0;
    spare_.splice(spare_.end(), list, m);
  }

  // ---- the transports' cancels, and figures

  // The newest unexpected (unclaimed) message for which `pred` holds, in any context.
  template <typename Pred>
  std::optional<MessageRef> newest_if(Pred pred) {
    std::optional<MessageRef> best;
    for (auto &[context, q] : by_context_)
      for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it)
        if ((!best || it->arrival > (*best)->arrival) && pred(*it)) best = it;
    return best;
  }
  std::size_t unexpected_count() const { return unexpected_; }  // unclaimed ones
  bool any_posted() const { return posted_ > 0; }
  // Whether a receive of at least `bytes` from world rank `world` is
  // posted in `context` (one whose caller named its source's world rank).
  bool posted_from(int context, int world, std::int64_t bytes) {
    for (const RequestPtr &r : queues(context).posted)
      if (r->from_world == world && r->total >= bytes) return true;
    return false;
  }
  std::size_t bytes_held(int sender) const { return bytes_.held(sender); }

 private:
  struct Queues {
    std::deque<RequestPtr> posted;  // a deque: no allocation per posted receive
    std::list<Message> unexpected;  // a list: transports hold MessageRefs
  };
  // Almost every call is for the context of the call before (one
  // communicator at a time): one comparison finds its queues then.
  Queues &queues(int context) {
    if (__builtin_expect(context == last_context_, 1)) return *last_;
    last_ = &by_context_[context];  // (elements of an unordered_map never move)
    last_context_ = context;
    return *last_;
  }
  std::unordered_map<int, Queues> by_context_;
  int last_context_ = INT_MIN;  // never a context id
  Queues *last_ = nullptr;
  std::list<Message> claimed_;  // by matched probes, awaiting their receive
  // Nodes of removed messages, with their buffers (up to kSpareBytes).
  static constexpr std::size_t kSpares = 32, kSpareBytes = 8192;
  std::list<Message> spare_;
  std::size_t posted_ = 0, unexpected_ = 0;
  std::uint64_t arrivals_ = 0, claims_ = 0;
  UnexpectedBytes bytes_;
};

}  // namespace impi::core
