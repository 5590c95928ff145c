// The matching engine alone, with no transport: arrivals are envelopes
// with a test origin, receives are bare requests.
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "core/matching.hpp"

using namespace impi::core;

namespace {
struct TestOrigin {
  int id = 0;  // which arrival it was
};
using Engine = MatchEngine<TestOrigin>;

RequestPtr recv(int source, int tag, int context) {
  auto r = make_request();
  r->kind = Request::Kind::recv;
  r->peer = source;
  r->tag = tag;
  r->context = context;
  return r;
}

// An arrival: handed to the first posted receive that accepts it, else
// queued. Returns the receive it matched, or null.
RequestPtr arrive(Engine &e, Envelope env, int id, std::size_t bytes = 0) {
  if (RequestPtr r = e.take_posted(env)) {
    r->msg_len = id;  // (tests read which arrival the receive got here)
    return r;
  }
  auto m = e.add_unexpected(env, static_cast<std::int64_t>(bytes), TestOrigin{id});
  m->data.resize(bytes);
  m->complete = true;
  return nullptr;
}

// A receive: the id of the unexpected message it took (removed), or -1
// when it was posted.
int post(Engine &e, const RequestPtr &r) {
  auto m = e.match_or_post(r);
  if (!m) return -1;
  int id = (*m)->origin.id;
  e.remove(*m);
  return id;
}
}  // namespace

TEST_CASE("an arrival takes the first posted receive that accepts it") {
  Engine e;
  auto a = recv(1, 5, 0), b = recv(kAnySource, 5, 0), c = recv(1, kAnyTag, 0);
  REQUIRE(post(e, a) == -1);
  REQUIRE(post(e, b) == -1);
  REQUIRE(post(e, c) == -1);
  CHECK(e.any_posted());
  CHECK(arrive(e, {2, 7, 0}, 1) == nullptr);  // nobody accepts source 2, tag 7
  CHECK(arrive(e, {1, 9, 0}, 2) == c);        // only c takes tag 9
  CHECK(arrive(e, {2, 5, 0}, 3) == b);        // a wants source 1
  CHECK(arrive(e, {1, 5, 0}, 4) == a);
  CHECK_FALSE(e.any_posted());
  CHECK(e.unexpected_count() == 1);
}

TEST_CASE("a receive takes the first unexpected message it accepts") {
  Engine e;
  arrive(e, {1, 5, 0}, 1);
  arrive(e, {2, 6, 0}, 2);
  arrive(e, {1, 6, 0}, 3);
  arrive(e, {1, 5, 0}, 4);
  CHECK(post(e, recv(1, 6, 0)) == 3);
  CHECK(post(e, recv(kAnySource, 6, 0)) == 2);
  CHECK(post(e, recv(kAnySource, kAnyTag, 0)) == 1);  // non-overtaking: the oldest first
  CHECK(post(e, recv(1, kAnyTag, 0)) == 4);
  CHECK(e.unexpected_count() == 0);
  CHECK(post(e, recv(1, 5, 0)) == -1);
  CHECK(e.any_posted());
}

TEST_CASE("contexts never match each other") {
  Engine e;
  auto r0 = recv(kAnySource, kAnyTag, 0);
  REQUIRE(post(e, r0) == -1);
  CHECK(arrive(e, {0, 0, 1}, 1) == nullptr);  // context 1: queued, not for r0
  CHECK(arrive(e, {0, 0, 2}, 2) == nullptr);
  CHECK(e.unexpected_count() == 2);
  CHECK_FALSE(e.find(kAnySource, kAnyTag, 0));
  CHECK(post(e, recv(kAnySource, kAnyTag, 2)) == 2);
  CHECK(post(e, recv(kAnySource, kAnyTag, 1)) == 1);
  CHECK(arrive(e, {0, 0, 0}, 3) == r0);
}

TEST_CASE("probe looks without taking; a matched probe takes the message out of matching") {
  Engine e;
  arrive(e, {3, 1, 4}, 1, 16);
  arrive(e, {3, 1, 4}, 2, 8);
  auto m = e.find(3, kAnyTag, 4);
  REQUIRE(m);
  CHECK((*m)->origin.id == 1);
  CHECK((*m)->msg_len == 16);
  CHECK(e.find(3, kAnyTag, 4) == m);  // still there
  std::uint64_t id = e.claim(*m);
  CHECK(id != 0);
  CHECK(e.unexpected_count() == 1);
  // A receive now takes the second message; the claimed one waits for its mrecv.
  CHECK(post(e, recv(3, 1, 4)) == 2);
  auto c = e.claimed(id);
  REQUIRE(c);
  CHECK((*c)->origin.id == 1);
  e.remove(*c);
  CHECK_FALSE(e.claimed(id));
  CHECK(e.unexpected_count() == 0);
}

TEST_CASE("a removed message's node and buffer serve the next arrival, as new") {
  Engine e;
  auto m = e.add_unexpected({3, 1, 4}, 100, TestOrigin{7});
  m->data.assign(100, std::byte{0x5a});
  m->complete = true;
  const std::byte *buffer = m->data.data();
  std::uint64_t id = e.claim(m);
  CHECK(e.charge(*m, 3, 100, 1000));
  e.remove(m);
  CHECK_FALSE(e.claimed(id));
  CHECK(e.bytes_held(3) == 0);

  auto n = e.add_unexpected({5, 2, 6}, 50, TestOrigin{8});
  CHECK(n->data.empty());  // the old bytes are gone ...
  CHECK(n->data.capacity() >= 100);
  n->data.assign(50, std::byte{1});
  CHECK(n->data.data() == buffer);  // ... and their buffer serves again
  CHECK_FALSE(n->complete);
  CHECK(n->claim == 0);
  CHECK(n->counted == 0);
  CHECK(n->sender == -1);
  CHECK(n->origin.id == 8);
  CHECK(n->msg_len == 50);
  CHECK(e.unexpected_count() == 1);
  auto f = e.find(5, 2, 6);
  REQUIRE(f);
  CHECK(*f == n);
  CHECK_FALSE(e.find(3, 1, 4));

  // A buffer past the limit is not kept.
  auto big = e.add_unexpected({5, 3, 6}, 1 << 20, TestOrigin{9});
  big->data.resize(1 << 20);
  e.remove(big);
  auto next = e.add_unexpected({5, 4, 6}, 10, TestOrigin{10});
  CHECK(next->data.capacity() < (1 << 20));
}

TEST_CASE("a posted receive can be cancelled until it matches") {
  Engine e;
  auto a = recv(1, 1, 0), b = recv(1, 1, 0);
  post(e, a);
  post(e, b);
  CHECK(e.cancel_posted(a));
  CHECK_FALSE(e.cancel_posted(a));              // gone already
  CHECK(arrive(e, {1, 1, 0}, 1) == b);          // the cancelled one no longer matches
  CHECK_FALSE(e.cancel_posted(b));              // matched: too late
  CHECK_FALSE(e.cancel_posted(recv(1, 1, 9)));  // never posted
  CHECK_FALSE(e.any_posted());
}

TEST_CASE("the transports' cancels find the newest message in any context") {
  Engine e;
  arrive(e, {1, 1, 0}, 10);
  arrive(e, {1, 1, 2}, 10);
  arrive(e, {1, 1, 0}, 11);
  auto m = e.newest_if([](const Engine::Message &x) { return x.origin.id == 10; });
  REQUIRE(m);
  CHECK((*m)->env.context == 2);
  e.remove(*m);
  m = e.newest_if([](const Engine::Message &x) { return x.origin.id == 10; });
  REQUIRE(m);
  CHECK((*m)->env.context == 0);
  e.claim(*m);  // claimed: no longer the transports' to cancel
  CHECK_FALSE(e.newest_if([](const Engine::Message &x) { return x.origin.id == 10; }));
}

TEST_CASE("unexpected bytes are counted per sender against the limit, and released") {
  Engine e;
  auto m1 = e.add_unexpected({0, 0, 0}, 600, {1});
  CHECK(e.charge(*m1, 7, 600, 1000));
  auto m2 = e.add_unexpected({0, 0, 0}, 300, {2});
  CHECK(e.charge(*m2, 7, 300, 1000));
  CHECK(e.bytes_held(7) == 900);
  auto m3 = e.add_unexpected({1, 0, 0}, 900, {3});
  CHECK(e.charge(*m3, 8, 900, 1000));        // another sender: its own budget
  CHECK_FALSE(e.charge(*m2, 7, 200, 1000));  // more of m2 arrived: past the limit
  e.remove(m1);
  CHECK(e.bytes_held(7) == 500);
  e.remove(m2);
  CHECK(e.bytes_held(7) == 0);
  CHECK(e.bytes_held(8) == 900);
  // No limit: nothing is counted.
  auto m4 = e.add_unexpected({0, 0, 0}, 5000, {4});
  CHECK(e.charge(*m4, 7, 5000, 0));
  CHECK(e.bytes_held(7) == 0);
  e.remove(m4);
  // Claimed messages release their bytes when received.
  auto m5 = e.add_unexpected({0, 0, 0}, 10, {5});
  CHECK(e.charge(*m5, 9, 10, 1000));
  auto id = e.claim(m5);
  e.remove(*e.claimed(id));
  CHECK(e.bytes_held(9) == 0);
}

namespace {
struct Model {  // MPI matching, written as plainly as possible
  struct Msg {
    int source, tag, context, id;
  };
  struct Recv {
    int source, tag, context, id;
  };
  std::deque<Msg> unexpected;
  std::deque<Recv> posted;
  std::map<int, int> result;  // receive id -> message id
  static bool ok(int want_source, int want_tag, const Msg &m) {
    return (want_source == kAnySource || want_source == m.source) &&
           (want_tag == kAnyTag || want_tag == m.tag);
  }
  void send(const Msg &m) {
    for (auto it = posted.begin(); it != posted.end(); ++it)
      if (it->context == m.context && ok(it->source, it->tag, m)) {
        result[it->id] = m.id;
        posted.erase(it);
        return;
      }
    unexpected.push_back(m);
  }
  void recv(const Recv &r) {
    for (auto it = unexpected.begin(); it != unexpected.end(); ++it)
      if (it->context == r.context && ok(r.source, r.tag, *it)) {
        result[r.id] = it->id;
        unexpected.erase(it);
        return;
      }
    posted.push_back(r);
  }
};
}  // namespace

TEST_CASE("random arrivals and receives match exactly as the reference model") {
  Engine e;
  Model model;
  std::mt19937 rng(7);
  std::map<int, int> got;  // receive id -> message id
  std::vector<RequestPtr> recvs;
  for (int step = 0; step < 20000; ++step) {
    int source = static_cast<int>(rng() % 3), tag = static_cast<int>(rng() % 3);
    int context = static_cast<int>(rng() % 3) * 2;
    if (rng() % 2) {
      if (RequestPtr r = arrive(e, {source, tag, context}, step))
        got[static_cast<int>(r->count)] = step;
      model.send({source, tag, context, step});
    } else {
      int want_source = rng() % 3 == 0 ? kAnySource : source;
      int want_tag = rng() % 3 == 0 ? kAnyTag : tag;
      auto r = recv(want_source, want_tag, context);
      int id = static_cast<int>(recvs.size());
      r->count = id;
      recvs.push_back(r);
      if (int m = post(e, r); m >= 0) got[id] = m;
      model.recv({want_source, want_tag, context, id});
    }
  }
  CHECK(got == model.result);
  CHECK(e.unexpected_count() == model.unexpected.size());
  CHECK(e.any_posted() == !model.posted.empty());
}
