// Fuzz target: a host channel's byte stream, as a peer host might send it.
// Input: the first byte picks maxdatalen (1..256) and a chunk size; the rest
// is the stream, fed in chunks. Every packet that comes out must re-encode
// to a header that decodes to the same packet, with its data complete. A
// second reader takes the same chunks in place (space/commit, next_view, as
// the host channels read) and must give exactly the same packets and data.
// A third does so too, and lands every packet whose data is not all in
// (partial, drop_partial: the rest read straight into a place of its own,
// as a host channel with a sink does); it must end with the same packets.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "transport/impi/packet.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::transport::wire;
  if (size < 1) return 0;
  std::uint32_t maxdatalen = (data[0] & 0x3f) * 4u + 1;
  std::size_t chunk = (data[0] >> 6) == 0 ? 1 : (data[0] >> 6) * 61u;
  std::span<const std::byte> in(reinterpret_cast<const std::byte *>(data + 1), size - 1);
  PacketReader r(maxdatalen), inplace(maxdatalen), lander(maxdatalen);
  bool broken = false, lander_broken = false;
  using Got = std::pair<Packet, std::vector<std::byte>>;
  std::vector<Got> want, landed;  // from r, and from the lander
  std::optional<Got> landing;
  std::size_t filled = 0;
  auto land = [&](std::span<const std::byte> piece) {
    while (!piece.empty() && !lander_broken) {
      if (landing) {
        const std::size_t n = std::min(piece.size(), landing->second.size() - filled);
        std::memcpy(landing->second.data() + filled, piece.data(), n);
        filled += n;
        piece = piece.subspan(n);
        if (filled == landing->second.size()) {
          landed.push_back(std::move(*landing));
          landing.reset();
        }
        continue;
      }
      auto room = lander.space(piece.size());
      std::memcpy(room.data(), piece.data(), piece.size());
      lander.commit(piece.size());
      piece = {};
      while (auto v = lander.next_view()) {
        if (!v->ok()) {
          lander_broken = true;
          return;
        }
        landed.push_back({(*v)->header, {(*v)->data.begin(), (*v)->data.end()}});
      }
      if (auto v = lander.partial()) {
        if (v->data.size() >= v->header.len || v->header.len > maxdatalen) std::abort();
        landing = Got{v->header, std::vector<std::byte>(v->header.len)};
        std::memcpy(landing->second.data(), v->data.data(), v->data.size());
        filled = v->data.size();
        lander.drop_partial();
        if (lander.buffered() != 0) std::abort();
      }
    }
  };
  for (std::size_t at = 0; at < in.size() && !broken; at += chunk) {
    auto piece = in.subspan(at, std::min(chunk, in.size() - at));
    r.feed(piece);
    auto room = inplace.space(piece.size());
    if (room.size() < piece.size()) std::abort();
    std::memcpy(room.data(), piece.data(), piece.size());
    inplace.commit(piece.size());
    land(piece);
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
      want.push_back({p, (*item)->data});
      auto again = decode(encode(p), maxdatalen);
      if (!again || !(*again == p)) std::abort();
    }
  }
  if (r.buffered() != inplace.buffered() && !broken) std::abort();
  if (lander_broken != broken || landed.size() != want.size()) std::abort();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(landed[i].first == want[i].first) || landed[i].second != want[i].second) std::abort();
  return 0;
}
