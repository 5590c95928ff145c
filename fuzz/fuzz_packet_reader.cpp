// Fuzz target: a host channel's byte stream, as a peer host might send it.
// Input: the first byte picks maxdatalen (1..256) and a chunk size; the rest
// is the stream, fed in chunks. Every packet that comes out must re-encode
// to a header that decodes to the same packet, with its data complete.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "transport/impi/packet.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::transport::wire;
  if (size < 1) return 0;
  std::uint32_t maxdatalen = (data[0] & 0x3f) * 4u + 1;
  std::size_t chunk = (data[0] >> 6) == 0 ? 1 : (data[0] >> 6) * 61u;
  std::span<const std::byte> in(reinterpret_cast<const std::byte *>(data + 1), size - 1);
  PacketReader r(maxdatalen);
  for (std::size_t at = 0; at < in.size(); at += chunk) {
    r.feed(in.subspan(at, std::min(chunk, in.size() - at)));
    while (auto item = r.next()) {
      if (!*item) return 0;  // a corrupt stream ends here
      const auto &p = (*item)->header;
      if ((*item)->data.size() != p.len || p.len > maxdatalen) std::abort();
      auto again = decode(encode(p), maxdatalen);
      if (!again || !(*again == p)) std::abort();
    }
  }
  return 0;
}
