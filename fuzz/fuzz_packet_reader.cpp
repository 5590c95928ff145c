// Fuzz target: a host channel's byte stream, as a peer host might send it.
// Input: the first byte picks maxdatalen (1..256) and a chunk size; the rest
// is the stream, fed in chunks. Every packet that comes out must re-encode
// to a header that decodes to the same packet, with its data complete. A
// second reader takes the same chunks in place (space/commit, next_view, as
// the host channels read) and must give exactly the same packets and data.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "transport/impi/packet.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::transport::wire;
  if (size < 1) return 0;
  std::uint32_t maxdatalen = (data[0] & 0x3f) * 4u + 1;
  std::size_t chunk = (data[0] >> 6) == 0 ? 1 : (data[0] >> 6) * 61u;
  std::span<const std::byte> in(reinterpret_cast<const std::byte *>(data + 1), size - 1);
  PacketReader r(maxdatalen), inplace(maxdatalen);
  bool broken = false;
  for (std::size_t at = 0; at < in.size() && !broken; at += chunk) {
    auto piece = in.subspan(at, std::min(chunk, in.size() - at));
    r.feed(piece);
    auto room = inplace.space(piece.size());
    if (room.size() < piece.size()) std::abort();
    std::memcpy(room.data(), piece.data(), piece.size());
    inplace.commit(piece.size());
    for (;;) {
      auto item = r.next();
      auto view = inplace.next_view();
      if (item.has_value() != view.has_value()) std::abort();
      if (!item) break;
      if (item->ok() != view->ok()) std::abort();
      if (!item->ok()) {
        broken = true;  // a corrupt stream ends here
        break;
      }
      const auto &p = (*item)->header;
      if ((*item)->data.size() != p.len || p.len > maxdatalen) std::abort();
      if (!((*view)->header == p) || (*view)->data.size() != p.len ||
          (p.len > 0 && std::memcmp((*view)->data.data(), (*item)->data.data(), p.len) != 0))
        std::abort();
      auto again = decode(encode(p), maxdatalen);
      if (!again || !(*again == p)) std::abort();
    }
  }
  if (r.buffered() != inplace.buffered() && !broken) std::abort();
  return 0;
}
