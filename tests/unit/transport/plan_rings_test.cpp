// The size of a host's shared-memory rings: 512 KiB for few procs, smaller
// as they grow (memory grows far slower than np squared MiB), a set size
// as given, and a clear refusal of what the machine cannot hold.
#include <catch2/catch.hpp>

#include "transport/shm/segment.hpp"

using impi::transport::shm::plan_rings;

TEST_CASE("automatic rings shrink with the procs of a host") {
  const std::int64_t budget = 256ll << 20;
  CHECK(plan_rings(2, 0, budget).value() == 512u << 10);
  CHECK(plan_rings(16, 0, budget).value() == 512u << 10);  // 256 rings of 512 KiB: half the budget
  CHECK(plan_rings(32, 0, budget).value() == 256u << 10);  // 1024 rings: the budget
  CHECK(plan_rings(64, 0, budget).value() == 64u << 10);   // 4096 rings: 256 MiB in all
  CHECK(plan_rings(256, 0, budget).value() == 16u << 10);  // the floor: 1 GiB in all
  CHECK(plan_rings(4, 0, 1 << 20).value() == 64u << 10);   // a small budget
}

TEST_CASE("a ring size that is set is kept, or refused when invalid") {
  CHECK(plan_rings(64, 4096, 0).value() == 4096u);
  auto bad = plan_rings(2, 5000, 0);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Catch::Contains("IMPI_SHM_RING_BYTES=5000"));
}

TEST_CASE("a host that cannot hold its rings is refused with what it would need") {
  auto r = plan_rings(100000, 0, 256ll << 20);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.message(), Catch::Contains("100000 procs on one host need") &&
                              Catch::Contains("start fewer procs per host"));
}
