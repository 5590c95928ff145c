#include "core/contact_card.hpp"

#include <catch2/catch.hpp>
#include <random>

using impi::core::ContactCard;

TEST_CASE("a contact card survives encode/decode") {
  ContactCard c{"node-7", 4242, "/impi-seg-1"};
  auto d = ContactCard::decode(c.encode());
  REQUIRE(d.ok());
  CHECK(d->host == "node-7");
  CHECK(d->pid == 4242);
  CHECK(d->shm == "/impi-seg-1");
  ContactCard plain{"n", 1, ""};
  CHECK(ContactCard::decode(plain.encode())->shm.empty());
}

TEST_CASE("unknown fields from newer peers are skipped") {
  auto d = ContactCard::decode("impi-card/1 shm=/x host=h pid=9 tcp=1.2.3.4:5");
  REQUIRE(d.ok());
  CHECK(d->host == "h");
}

TEST_CASE("malformed cards are rejected with a reason") {
  for (const char *bad :
       {"", "impi-card/2 host=h pid=1", "impi-card/1", "impi-card/1 host=h",
        "impi-card/1 host= pid=1", "impi-card/1 host=h pid=-4", "impi-card/1 host=h pid=12x",
        "impi-card/1 host=h pidless", "impi-card/1x host=h pid=1"}) {
    INFO(bad);
    auto d = ContactCard::decode(bad);
    CHECK_FALSE(d.ok());
    CHECK_FALSE(d.message().empty());
  }
  CHECK_FALSE(ContactCard::decode(std::string(ContactCard::kMaxEncoded + 1, 'a')).ok());
}

TEST_CASE("random bytes never crash the decoder") {
  std::mt19937 rng(12345);
  std::string alphabet = "impi-card/1 host=pid=0123456789x\n\0";
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 64, ' ');
    for (auto &ch : s) ch = alphabet[rng() % alphabet.size()];
    if (rng() % 2) s = "impi-card/1 " + s;
    (void)ContactCard::decode(s);
  }
  SUCCEED("decoder survived");
}
