// The job every client derives from the broadcasts: negotiation rules of
// IMPI 2.3.5 and 3.9, and rejection of inconsistent broadcasts.
#include "startup/impi_job.hpp"

#include <catch2/catch.hpp>

using namespace impi::startup;
using namespace impi::startup::wire;

namespace {
ClientAdvert advert(int nprocs, std::uint32_t port, std::uint32_t datalen, std::int32_t tagub,
                    std::uint32_t ack, std::uint32_t hi, std::int64_t pid_base) {
  ClientAdvert a;
  a.datalen = datalen;
  a.tagub = tagub;
  HostAdvert h;
  h.address = parse_address("127.0.0.1").value();
  h.port = port;
  h.nprocs = static_cast<std::uint32_t>(nprocs);
  h.ackmark = ack;
  h.hiwater = hi;
  a.hosts.push_back(h);
  for (int i = 0; i < nprocs; ++i) a.procs.push_back({h.address, pid_base + i});
  return a;
}

// What a server would broadcast for these clients (all labels, all clients).
std::map<std::int32_t, CollBcast> broadcast(const std::vector<ClientAdvert> &clients) {
  std::map<std::int32_t, CollBcast> out;
  for (std::size_t c = 0; c < clients.size(); ++c)
    for (auto &[label, value] : labels_of(clients[c])) {
      auto &b = out[label];
      b.label = label;
      b.client_mask |= 1u << c;
      b.data.insert(b.data.end(), value.begin(), value.end());
    }
  return out;
}
}  // namespace

TEST_CASE("labels go out in ascending order, all 14 mandated ones") {
  auto l = labels_of(advert(2, 4000, 100, 40000, 10, 20, 1));
  REQUIRE(l.size() == 14);
  for (std::size_t i = 1; i < l.size(); ++i) CHECK(l[i - 1].first < l[i].first);
}

TEST_CASE("the job takes minima, agreed values and numbers ranks client by client") {
  std::vector<ClientAdvert> c = {advert(2, 4001, 8000, 50000, 10, 20, 100),
                                 advert(3, 4002, 4000, 40000, 5, 30, 200)};
  auto m = broadcast(c);
  auto j = derive_job(2, 1, m);
  REQUIRE(j.ok());
  CHECK(j->version_major == 0);
  CHECK(j->maxdatalen == 4000);
  CHECK(j->tag_ub == 40000);
  CHECK(j->coll_xsize == 1024);   // -1 -> the 0.0 default
  CHECK(j->coll_maxlinear == 4);  // -1 -> the 0.0 default
  CHECK(j->ackmark == 5);
  CHECK(j->hiwater == 20);  // job-wide minima, per the errata
  REQUIRE(j->procs.size() == 5);
  CHECK(j->procs[0].client == 0);
  CHECK(j->procs[2].client == 1);
  CHECK(j->procs[4].id.pid == 202);
  CHECK(j->world_offset(1) == 2);
  CHECK(j->hosts[1].port == 4002);
  CHECK(j->hosts[1].first_proc == 2);
  // The procs' copy decodes to the same description.
  auto back = decode_job(encode_job(*j));
  REQUIRE(back.ok());
  CHECK(back->describe() == j->describe());
}

TEST_CASE("the highest version every client lists wins") {
  auto a = advert(1, 4001, 100, 40000, 1, 1, 1);
  auto b = advert(1, 4002, 100, 40000, 1, 1, 2);
  a.versions = {{0, 0}, {0, 1}, {1, 0}};
  b.versions = {{0, 0}, {0, 1}, {0, 2}};
  auto j = derive_job(2, 0, broadcast({a, b}));
  REQUIRE(j.ok());
  CHECK(j->version_major == 0);
  CHECK(j->version_minor == 1);
}

TEST_CASE("disagreeing XSIZE or MAXLINEAR is a startup error") {
  auto a = advert(1, 4001, 100, 40000, 1, 1, 1);
  auto b = advert(1, 4002, 100, 40000, 1, 1, 2);
  b.xsize = 2048;
  auto j = derive_job(2, 0, broadcast({a, b}));
  REQUIRE_FALSE(j.ok());
  CHECK_THAT(j.message(), Catch::Contains("IMPI_C_COLL_XSIZE") && Catch::Contains("disagree"));
  b.xsize = -1;
  b.maxlinear = 8;
  CHECK_FALSE(derive_job(2, 0, broadcast({a, b})).ok());
}

TEST_CASE("inconsistent broadcasts are rejected with a reason") {
  std::vector<ClientAdvert> c = {advert(2, 4001, 100, 40000, 10, 20, 1),
                                 advert(1, 4002, 100, 40000, 10, 20, 9)};
  SECTION("a mandated label missing from one client") {
    auto m = broadcast(c);
    m[kLabelCDatalen].client_mask = 0x1;
    m[kLabelCDatalen].data.resize(4);
    auto j = derive_job(2, 0, m);
    REQUIRE_FALSE(j.ok());
    CHECK_THAT(j.message(), Catch::Contains("client 1 sent no value"));
  }
  SECTION("wrong number of per-proc items") {
    auto m = broadcast(c);
    m[kLabelPPid].data.resize(8);
    CHECK_FALSE(derive_job(2, 0, m).ok());
  }
  SECTION("hosts that do not add up to C_NPROCS") {
    auto m = broadcast(c);
    m[kLabelCNprocs].data = encode_u32s(std::vector<std::uint32_t>{5, 1});
    CHECK_FALSE(derive_job(2, 0, m).ok());
  }
  SECTION("tag_ub below 32767") {
    auto m = broadcast(c);
    m[kLabelCTagub].data = encode_u32s(std::vector<std::uint32_t>{40000, 100});
    CHECK_THAT(derive_job(2, 0, m).message(), Catch::Contains("below the minimum"));
  }
  SECTION("duplicate proc ids") {
    c[1].procs[0].pid = 1;  // same address and pid as client 0's first proc
    CHECK_THAT(derive_job(2, 0, broadcast(c)).message(), Catch::Contains("unique"));
  }
  SECTION("an absurd host count is refused before allocating") {
    auto m = broadcast(c);
    m[kLabelCNhosts].data = encode_u32s(std::vector<std::uint32_t>{0x7fffffff, 1});
    CHECK_FALSE(derive_job(2, 0, m).ok());
  }
  SECTION("ackmark above hiwater") {
    auto m = broadcast(c);
    m[kLabelHAckmark].data = encode_u32s(std::vector<std::uint32_t>{30, 30});
    CHECK_FALSE(derive_job(2, 0, m).ok());
  }
}

TEST_CASE("a client's own bad settings are refused before sending") {
  auto a = advert(1, 4001, 100, 40000, 10, 20, 1);
  CHECK(validate(a).ok());
  a.tagub = 1000;
  CHECK_FALSE(validate(a).ok());
  a = advert(1, 4001, 100, 40000, 30, 20, 1);
  CHECK_FALSE(validate(a).ok());
  a = advert(1, 4001, 0, 40000, 1, 1, 1);
  CHECK_FALSE(validate(a).ok());
}

TEST_CASE("decode_job refuses truncated or garbage input") {
  std::vector<ClientAdvert> c = {advert(2, 4001, 100, 40000, 10, 20, 1)};
  auto enc = encode_job(derive_job(1, 0, broadcast(c)).value());
  for (std::size_t n = 0; n < enc.size(); ++n)
    CHECK_FALSE(decode_job(std::span(enc).first(n)).ok());
  enc.push_back(std::byte{0});
  CHECK_FALSE(decode_job(enc).ok());
}

TEST_CASE("impi-wide is a pair's: both clients list impi's version in IMPI_C_VERSION") {
  auto wide = advert(1, 4001, 100, 40000, 10, 20, 1);
  wide.versions.push_back(kVersionImpiWide);
  auto l = labels_of(wide);
  REQUIRE(l.size() == 14);  // no label of our own: LAM fails on any broadcast it did not ask for
  CHECK(l.front().second == encode_versions(wide.versions));
  auto spec = advert(1, 4002, 100, 40000, 10, 20, 2);  // a client that is not impi
  auto wide2 = advert(1, 4003, 100, 40000, 10, 20, 3);
  wide2.versions.push_back(kVersionImpiWide);
  // Clients 0 and 2 are impi, client 1 is not: the job's version stays 0.0.
  auto j = derive_job(3, 0, broadcast({wide, spec, wide2}));
  REQUIRE(j.ok());
  CHECK(j->version_major == 0);
  CHECK(j->version_minor == 0);
  CHECK(j->wide_clients == 0x5u);
  CHECK(j->wide_between(0, 2));
  CHECK_FALSE(j->wide_between(0, 1));
  CHECK_FALSE(j->wide_between(1, 1));
  auto back = decode_job(encode_job(*j));
  REQUIRE(back.ok());
  CHECK(back->wide_clients == 0x5u);
  CHECK(back->describe() == j->describe());
  // Every client impi: the job's version is impi's (the highest all list).
  auto all = derive_job(2, 1, broadcast({wide, wide2}));
  REQUIRE(all.ok());
  CHECK(all->version_minor == kVersionImpiWide.second);
  CHECK(all->wide_clients == 0x3u);
  // No client lists it (spec-only peers): external32 everywhere.
  auto none = derive_job(2, 0, broadcast({spec, advert(1, 4004, 100, 40000, 10, 20, 4)}));
  REQUIRE(none.ok());
  CHECK(none->wide_clients == 0u);
  // Another version besides 0.0 that is not ours: not wide.
  auto other = advert(1, 4005, 100, 40000, 10, 20, 5);
  other.versions.push_back({0, 1});
  auto j2 = derive_job(2, 0, broadcast({wide, other}));
  REQUIRE(j2.ok());
  CHECK(j2->wide_clients == 0x1u);
  CHECK(j2->version_minor == 0);
}
