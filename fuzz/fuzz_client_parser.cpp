// Fuzz target: what a client makes of the server's broadcasts. Input: the
// first byte picks the number of clients (1..4) and our rank; the rest is
// the server->client command stream. Commands are framed, COLL broadcasts
// decoded, and the job derived; a job that derives must survive the
// encode/decode round trip to the procs unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <span>

#include "startup/impi_job.hpp"
#include "startup/wire/startup_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::startup;
  using namespace impi::startup::wire;
  if (size < 1) return 0;
  int nclients = (data[0] & 3) + 1;
  int me = (data[0] >> 2) % nclients;
  CmdReader r;
  r.feed(std::span(reinterpret_cast<const std::byte *>(data + 1), size - 1));
  std::map<std::int32_t, CollBcast> bcasts;
  for (;;) {
    auto c = r.next();
    if (!c || !c->has_value()) break;
    if ((*c)->header.cmd == kCmdDone) break;
    if ((*c)->header.cmd != kCmdColl) continue;
    auto b = decode_coll_bcast((*c)->payload);
    if (!b) continue;
    bcasts.emplace(b->label, std::move(b.value()));
  }
  auto job = derive_job(nclients, me, bcasts);
  if (job) {
    auto back = decode_job(encode_job(*job));
    if (!back || back->describe() != job->describe()) std::abort();
  }
  return 0;
}
