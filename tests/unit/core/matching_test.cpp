// The matching engine against a reference model: random self-sends and
// receives (with wildcards), through the real engine in one process.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <random>

#include "core/p2p.hpp"

using namespace impi::core;
using impi::pack::Datatype;

namespace {
struct Model {  // MPI matching, written as plainly as possible
  struct Msg {
    int tag, value;
  };
  struct Recv {
    int tag, id;
  };
  std::deque<Msg> unexpected;
  std::deque<Recv> posted;
  std::map<int, int> result;  // receive id -> value it got
  static bool ok(int want, int tag) { return want == kAnyTag || want == tag; }
  void send(int tag, int value) {
    for (auto it = posted.begin(); it != posted.end(); ++it)
      if (ok(it->tag, tag)) {
        result[it->id] = value;
        posted.erase(it);
        return;
      }
    unexpected.push_back({tag, value});
  }
  void recv(int tag, int id) {
    for (auto it = unexpected.begin(); it != unexpected.end(); ++it)
      if (ok(tag, it->tag)) {
        result[id] = it->value;
        unexpected.erase(it);
        return;
      }
    posted.push_back({tag, id});
  }
};
}  // namespace

TEST_CASE("random sends and receives match exactly as the reference model") {
  P2P engine;
  auto seg = engine.create_segment("unit" + std::to_string(::getpid()), 0, 1);
  REQUIRE(seg.ok());
  REQUIRE(engine.attach(0, {0}, {*seg}).ok());
  engine.shm().unlink_segment();
  auto INT = Datatype::predefined(impi::pack::dt::int_);
  std::mt19937 rng(99);
  Model model;
  std::vector<RequestPtr> recvs;
  std::vector<int> values(5000, -1);
  std::vector<int> sent;
  sent.reserve(5000);
  for (int step = 0; step < 5000; ++step) {
    int tag = static_cast<int>(rng() % 4);
    if (rng() % 2) {
      sent.push_back(step);
      engine.shm().isend(&sent.back(), 1, INT, 0, 0, tag, 7, false, false);
      model.send(tag, step);
    } else {
      int want = rng() % 3 == 0 ? kAnyTag : tag;
      int id = static_cast<int>(recvs.size());
      recvs.push_back(engine.irecv(&values[static_cast<size_t>(id)], 1, INT, kAnySource, want, 7));
      model.recv(want, id);
    }
  }
  for (std::size_t id = 0; id < recvs.size(); ++id) {
    auto it = model.result.find(static_cast<int>(id));
    INFO("receive " << id);
    if (it == model.result.end()) {
      CHECK_FALSE(recvs[id]->done);
    } else {
      REQUIRE(recvs[id]->done);
      CHECK(values[id] == it->second);
    }
  }
  CHECK_FALSE(engine.iprobe(kAnySource, kAnyTag, 8).has_value());  // another context sees nothing
}

TEST_CASE("a receive too small for the message is truncated, status filled") {
  P2P engine;
  auto seg = engine.create_segment("unitt" + std::to_string(::getpid()), 0, 1);
  REQUIRE(seg.ok());
  REQUIRE(engine.attach(3, {3}, {*seg}).ok());
  auto INT = Datatype::predefined(impi::pack::dt::int_);
  int big[4] = {1, 2, 3, 4}, small[2] = {0, 0};
  engine.shm().isend(big, 4, INT, 3, 3, 9, 0, false, false);
  auto r = engine.irecv(small, 2, INT, 3, 9, 0);
  REQUIRE(r->done);
  CHECK(r->status.error == kTruncated);
  CHECK(r->status.bytes == 8);
  CHECK(r->msg_len == 16);
  CHECK(small[1] == 2);
}
