// The IMPI collectives' masters (spec 4.2) and their per-thread cache; the
// coroutine frame classes; SharedTable.
#include <catch2/catch.hpp>
#include <vector>

#include "collectives/comm_view.hpp"
#include "collectives/impi_masters.hpp"
#include "collectives/task.hpp"

using namespace impi::collectives;

TEST_CASE("masters: the lowest rank of each client, numbered in rank order") {
  // Ranks {0,1,4} on client A, {2,3,5} on B, {6,7} on C (docs' example).
  const std::vector<int> client = {10, 10, 20, 20, 10, 20, 30, 30};
  const Masters m(client);
  REQUIRE(m.num_masters() == 3);
  CHECK(m.master_rank(0) == 0);
  CHECK(m.master_rank(1) == 2);
  CHECK(m.master_rank(2) == 6);
  CHECK(m.master_num(4) == -1);
  CHECK(m.local_master_rank(5) == 2);
  CHECK(m.locals_to_master(0) == std::vector<int>{1, 4});
  CHECK(m.client_ranks(0) == std::vector<int>{0, 1, 4});
  CHECK(m.client_ranks(1) == std::vector<int>{2, 3, 5});
  CHECK(m.client_ranks(2) == std::vector<int>{6, 7});
}

TEST_CASE("masters_of: the same table gives the cached masters, another its own") {
  const std::vector<int> a = {0, 0, 1, 1}, b = {0, 1, 0, 1};
  const auto ma = masters_of(a);
  CHECK(masters_of(a) == ma);  // cached: no rebuild
  const auto mb = masters_of(b);
  CHECK(mb != ma);
  CHECK(mb->client_ranks(0) == std::vector<int>{0, 2});
  CHECK(ma->client_ranks(0) == std::vector<int>{0, 1});
  // Past the cache's size, entries are rebuilt; a held one stays valid.
  for (int k = 0; k < 6; ++k) {
    std::vector<int> t(static_cast<std::size_t>(k + 2), 0);
    t.back() = 1;
    const auto mt = masters_of(t);
    CHECK(mt->num_masters() == 2);
    CHECK(mt->master_rank(1) == k + 1);
  }
  CHECK(ma->client_ranks(1) == std::vector<int>{2, 3});
  CHECK(masters_of(a)->client_ranks(1) == std::vector<int>{2, 3});
}

TEST_CASE("coroutine frame classes: 64-byte steps to 4 KiB, then 1 KiB to 8 KiB") {
  for (std::size_t n = 1; n <= 8192; ++n) {
    const std::size_t k = frame_class(n);
    REQUIRE(k < kFrameClasses);
    REQUIRE(frame_bytes(k) >= n);
    REQUIRE(frame_bytes(k) < n + (n > 4032 ? kCoarseClass : kFrameClass));
  }
  CHECK(frame_class(8193) == kFrameClasses);  // not cached
  // A freed frame is the next one of its class.
  void *p = frame_alloc(5032);
  frame_free(p, 5032);
  CHECK(frame_alloc(5100) == p);
  frame_free(p, 5100);
}

TEST_CASE("SharedTable reads as its vector; empty by default") {
  const SharedTable<int> none;
  CHECK(none.empty());
  CHECK(none.size() == 0);
  const std::vector<int> &as_vector = none;
  CHECK(as_vector.empty());
  SharedTable<int> t;
  t = std::vector<int>{3, 1, 2};
  const SharedTable<int> copy = t;  // shares, no copy of the vector
  CHECK(&copy.get() == &t.get());
  CHECK(copy[1] == 1);
  CHECK(std::vector<int>(copy.begin(), copy.end()) == std::vector<int>{3, 1, 2});
}
