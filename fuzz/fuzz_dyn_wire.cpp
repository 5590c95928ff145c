// Fuzz target: what a proc of another job may send us (dynamic processes):
// the byte stream of a dynamic connection, cut into frames; hello cards;
// port names; the group description the roots swap. The first byte picks
// the parser. Whatever decodes must re-encode to something that decodes
// to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "core/dyn_card.hpp"

namespace {
using namespace impi::core;

void same_card(const DynCard &a, const DynCard &b) {
  if (a.job != b.job || a.rank != b.rank || a.host != b.host || a.unix_name != b.unix_name ||
      a.tcp != b.tcp || a.shm != b.shm)
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 1) return 0;
  std::span<const std::byte> in(reinterpret_cast<const std::byte *>(data + 1), size - 1);
  std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
  switch (data[0] % 4) {
    case 0: {  // a connection's stream
      std::size_t off = 0;
      for (;;) {
        DynFrame f;
        auto took = dyn_next_frame(in.subspan(off), f);
        if (!took || *took == 0) break;
        if (*took != DynFrame::kSize + f.len || off + *took > in.size()) std::abort();
        std::byte again[DynFrame::kSize];
        f.encode(again);
        auto g = DynFrame::decode(again);
        if (!g || g->kind != f.kind || g->len != f.len || g->id != f.id || g->source != f.source ||
            g->tag != f.tag || g->context != f.context)
          std::abort();
        if (f.kind == DynFrame::hello) {
          auto c = DynCard::decode(std::string_view(
              reinterpret_cast<const char *>(in.data() + off + DynFrame::kSize), f.len));
          if (c) {
            auto c2 = DynCard::decode(c->encode());
            if (!c2) std::abort();
            same_card(*c, *c2);
          }
        }
        off += *took;
      }
      break;
    }
    case 1: {
      auto c = DynCard::decode(text);
      if (c) {
        auto c2 = DynCard::decode(c->encode());
        if (!c2) std::abort();
        same_card(*c, *c2);
      }
      break;
    }
    case 2: {
      auto p = PortName::decode(text);
      if (p) {
        auto p2 = PortName::decode(p->encode());
        if (!p2 || p2->port != p->port) std::abort();
        same_card(p->card, p2->card);
      }
      break;
    }
    default: {
      auto g = decode_group(in);
      if (g) {
        auto g2 = decode_group(encode_group(*g));
        if (!g2 || g2->maxcid != g->maxcid || g2->cards != g->cards) std::abort();
      }
      break;
    }
  }
  return 0;
}
