// Fuzz target: the rendezvous server's command stream (ServerCore).
// Input: a sequence of [conn byte][len byte][len bytes] chunks delivered to
// up to 4 connections of a 2-client job; conn byte with bit 7 set closes
// that connection instead. Every byte is untrusted; nothing may crash, and
// the server's bookkeeping must stay within bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "base/log.hpp"
#include "startup/server_core.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::startup;
  // Messages about bad input are expected by the thousand: silence them.
  impi::base::set_log_level(impi::base::Level::off);
  ServerConfig cfg;
  cfg.nclients = 2;
  cfg.auth_mask = 0x3;
  cfg.key = 5678;
  ServerCore s(cfg);
  bool open[4] = {};
  std::size_t i = 0;
  while (i + 2 <= size) {
    std::uint8_t sel = data[i];
    std::size_t len = data[i + 1];
    i += 2;
    int conn = sel & 3;
    if (!open[conn]) {
      s.connected(static_cast<ServerCore::ConnId>(conn), "fuzz");
      open[conn] = true;
    }
    if (sel & 0x80) {
      s.disconnected(static_cast<ServerCore::ConnId>(conn));
      open[conn] = false;
      continue;
    }
    len = std::min(len, size - i);
    s.received(static_cast<ServerCore::ConnId>(conn),
               std::span(reinterpret_cast<const std::byte *>(data + i), len));
    i += len;
    for (auto &a : s.take_actions())
      if (a.kind == ServerCore::Action::close && open[a.conn & 3]) {
        s.disconnected(a.conn);
        open[a.conn & 3] = false;
      }
    if (s.joined_clients() > cfg.nclients) std::abort();
  }
  return 0;
}
