// The schedules of src/collectives/schedule.hpp, run on a simulated
// network for every size up to 70 (every root): each rank gets through its
// steps, no message is left over, and the outcome is the operation's.
// Sends are eager; messages between two ranks arrive in order (one tag per
// operation, so that is MPI's matching).
#include "collectives/schedule.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

using namespace impi::collectives;

namespace {

struct Sim {
  struct Msg {
    std::vector<int> value;
    std::vector<bool> heard;
  };
  int p;
  std::vector<Schedule> s;
  // Per rank: the parts, and which ranks' start it has heard of (through
  // the messages it received, transitively).
  std::vector<std::vector<int>> data, tmp;
  std::vector<std::vector<bool>> heard;
  std::map<std::pair<int, int>, std::deque<Msg>> wire;  // (from, to)

  explicit Sim(int procs)
      : p(procs),
        s(static_cast<std::size_t>(procs)),
        data(s.size()),
        tmp(s.size()),
        heard(s.size(), std::vector<bool>(s.size())) {
    for (std::size_t r = 0; r < s.size(); ++r) heard[r][r] = true;
  }
  std::vector<int> &part(int r, Part x) {
    return (x == Part::data ? data : tmp)[static_cast<std::size_t>(r)];
  }
  void send(int r, int to, Part x) {
    wire[{r, to}].push_back({part(r, x), heard[static_cast<std::size_t>(r)]});
  }
  bool recv(int r, int from, Part x) {
    auto &q = wire[{from, r}];
    if (q.empty()) return false;
    part(r, x) = q.front().value;
    auto &h = heard[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = h[i] || q.front().heard[i];
    q.pop_front();
    return true;
  }
  // Runs every rank as far as it can until none moves; true if all finished.
  bool run() {
    std::vector<const Step *> at(s.size());
    std::vector<bool> sent(s.size());
    for (std::size_t r = 0; r < s.size(); ++r) at[r] = s[r].begin();
    for (bool moved = true; moved;) {
      moved = false;
      for (int r = 0; r < p; ++r) {
        auto i = static_cast<std::size_t>(r);
        for (; at[i] != s[i].end(); ++at[i], moved = true) {
          const Step &st = *at[i];
          if (st.kind == Step::Kind::fold) {
            for (std::size_t k = 0; k < data[i].size(); ++k) data[i][k] += tmp[i][k];
          } else if (st.kind == Step::Kind::send) {
            send(r, st.to, st.out);
          } else {
            if (st.kind == Step::Kind::exchange && !sent[i]) {
              send(r, st.to, st.out);
              sent[i] = true;
            }
            if (!recv(r, st.from, st.in)) break;
            sent[i] = false;
          }
        }
      }
    }
    for (std::size_t r = 0; r < s.size(); ++r)
      if (at[r] != s[r].end()) return false;
    for (auto &[link, q] : wire)
      if (!q.empty()) return false;
    return true;
  }
};

}  // namespace

TEST_CASE("dissemination barrier: no rank leaves before every rank came") {
  for (int p = 1; p <= 70; ++p) {
    Sim sim(p);
    for (int r = 0; r < p; ++r) dissemination_barrier(sim.s[static_cast<std::size_t>(r)], r, p);
    REQUIRE(sim.run());
    for (auto &h : sim.heard)
      for (bool b : h) REQUIRE(b);
  }
}

TEST_CASE("binomial bcast: every rank gets the root's data, whatever the root") {
  for (int p = 1; p <= 70; ++p)
    for (int root = 0; root < p; ++root) {
      Sim sim(p);
      // Positions name ranks in reverse (as a list of ranks would).
      auto rank_of = [p](std::size_t pos) { return p - 1 - static_cast<int>(pos); };
      for (int r = 0; r < p; ++r) {
        auto pos = static_cast<std::size_t>(p - 1 - r);
        binomial_bcast(sim.s[static_cast<std::size_t>(r)], static_cast<std::size_t>(p), pos,
                       static_cast<std::size_t>(root), rank_of);
        sim.data[static_cast<std::size_t>(r)] = {r == rank_of(static_cast<std::size_t>(root))};
      }
      REQUIRE(sim.run());
      for (auto &d : sim.data) REQUIRE(d == std::vector<int>{1});
    }
}

TEST_CASE("recursive doubling allreduce: every rank folds every rank's vector once") {
  for (int p = 1; p <= 70; ++p) {
    Sim sim(p);
    for (int r = 0; r < p; ++r) {
      auto i = static_cast<std::size_t>(r);
      recursive_doubling_allreduce(sim.s[i], r, p);
      sim.data[i].assign(static_cast<std::size_t>(p), 0);
      sim.data[i][i] = 1;
    }
    REQUIRE(sim.run());
    for (auto &d : sim.data) REQUIRE(d == std::vector<int>(static_cast<std::size_t>(p), 1));
  }
}

TEST_CASE("schedules stay within Schedule::kMax steps for any int size") {
  for (int p : {1 << 20, (1 << 30) + 7, 2147483647})
    for (int r : {0, 1, 2, p / 2, p - 2, p - 1}) {
      Schedule s;
      recursive_doubling_allreduce(s, r, p);
      REQUIRE(s.end() - s.begin() <= Schedule::kMax);
    }
}
