// The dozing hint of a shared-memory segment (segment.hpp): a proc bound
// to the same core may poll instead of yielding only while the owner dozes
// and nothing was published to it since its last look.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "transport/shm/segment.hpp"

using impi::transport::shm::Segment;

TEST_CASE("a segment is stalled only while its owner dozes with nothing new") {
  const std::string name = "/impi-doze-test-" + std::to_string(::getpid());
  auto made = Segment::create(name, 2, 4096);
  REQUIRE(made);
  Segment owner = std::move(*made);
  auto opened = Segment::open(name);
  REQUIRE(opened);
  Segment peer = std::move(*opened);
  owner.unlink();

  CHECK_FALSE(peer.stalled());  // not dozing
  owner.begin_doze();
  CHECK_FALSE(peer.stalled());  // dozing, but it has not looked yet
  owner.doze_mark(false);
  CHECK(peer.stalled());
  peer.ring_doorbell(false);  // ring space handed back: no news for a dozer
  CHECK(peer.stalled());
  peer.ring_doorbell();  // a record: the owner must look
  CHECK_FALSE(peer.stalled());
  owner.doze_mark(false);  // looked
  CHECK(peer.stalled());
  owner.doze_mark(true);  // it has sends waiting for ring space
  CHECK_FALSE(peer.stalled());
  owner.doze_mark(false);
  owner.end_doze();
  CHECK_FALSE(peer.stalled());
  {
    Segment::Dozing scope(&owner);  // begin_doze() .. end_doze() for a scope
    owner.doze_mark(false);
    CHECK(peer.stalled());
  }
  CHECK_FALSE(peer.stalled());
}
