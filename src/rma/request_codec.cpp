#include "rma/request_codec.hpp"

#include <cstring>

#include "pack/predefined.hpp"

namespace impi::rma {

namespace {

template <typename T>
void put_le(std::vector<char> &out, T v) {
  auto u = static_cast<std::make_unsigned_t<T>>(v);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
}

struct Reader {
  const unsigned char *p;
  std::size_t left;
  bool ok = true;
  template <typename T>
  T get() {
    if (left < sizeof(T)) {
      ok = false;
      return T{};
    }
    std::make_unsigned_t<T> u = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      u |= static_cast<std::make_unsigned_t<T>>(static_cast<std::make_unsigned_t<T>>(p[i])
                                                << (8 * i));
    p += sizeof(T);
    left -= sizeof(T);
    return static_cast<T>(u);
  }
};

constexpr std::size_t kSegmentBytes = 8 + 8 + 4;

}  // namespace

std::vector<char> encode(const RequestHeader &h) {
  std::vector<char> out;
  out.reserve(64);
  put_le(out, static_cast<std::uint32_t>(h.kind));
  put_le(out, h.op);
  put_le(out, h.id);
  put_le(out, h.flags);
  put_le(out, h.disp);
  put_le(out, h.count);
  put_le(out, h.nelem);
  put_le(out, h.basic);
  if (!h.type) {
    put_le(out, std::int32_t{0});
    return out;
  }
  if (h.type->is_predefined()) {
    put_le(out, std::int32_t{-h.type->predefined_index()});
    return out;
  }
  const auto &segs = h.type->segments();
  put_le(out, static_cast<std::int32_t>(segs.size()));
  put_le(out, h.type->lb());
  put_le(out, h.type->extent());
  out.reserve(out.size() + segs.size() * kSegmentBytes);
  for (const auto &s : segs) {
    put_le(out, s.disp);
    put_le(out, s.count);
    put_le(out, static_cast<std::int32_t>(s.basic));
  }
  return out;
}

std::optional<RequestHeader> decode(const char *data, std::size_t len) {
  Reader r{reinterpret_cast<const unsigned char *>(data), len};
  RequestHeader h;
  auto kind = r.get<std::uint32_t>();
  h.op = r.get<std::uint32_t>();
  h.id = r.get<std::uint32_t>();
  h.flags = r.get<std::uint32_t>();
  h.disp = r.get<std::int64_t>();
  h.count = r.get<std::int64_t>();
  h.nelem = r.get<std::int64_t>();
  h.basic = r.get<std::int32_t>();
  auto nseg = r.get<std::int32_t>();
  if (!r.ok || kind < 1 || kind > static_cast<std::uint32_t>(Kind::batch)) return std::nullopt;
  h.kind = static_cast<Kind>(kind);
  // (Counts are MPI_Count since MPI_Put_c & co.: bounded as displacements are.)
  if (h.id >= (1u << 29) || h.count < 0 || h.count > (std::int64_t{1} << 48) || h.nelem < 0 ||
      h.nelem > (std::int64_t{1} << 40) || h.op > 14)
    return std::nullopt;
  if (h.basic < 0 || h.basic >= pack::kNumPredefined) return std::nullopt;
  if (nseg < 0) {
    if (nseg <= -pack::kNumPredefined || pack::predefined(-nseg).kind == pack::Kind::none)
      return std::nullopt;
    h.type = pack::Datatype::predefined(-nseg);
    h.length = len - r.left;
    return h;
  }
  if (nseg == 0) {
    h.length = len - r.left;
    return h;
  }
  auto lb = r.get<std::int64_t>();
  auto extent = r.get<std::int64_t>();
  if (!r.ok || static_cast<std::size_t>(nseg) > r.left / kSegmentBytes || extent < 0)
    return std::nullopt;
  std::vector<std::int64_t> lens, disps;
  std::vector<pack::TypePtr> types;
  // Bounds on counts (MPI_Count ones: MPI_Type_contiguous_c), and on pair
  // elements, which flatten to two runs each: building the type must stay cheap.
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 48, kMaxPairs = std::int64_t{1} << 20;
  constexpr std::int64_t kMaxDisp = std::int64_t{1} << 48;
  std::int64_t pairs = 0;
  if (lb < -kMaxDisp || lb > kMaxDisp || extent > kMaxDisp) return std::nullopt;
  for (int i = 0; i < nseg; ++i) {
    auto d = r.get<std::int64_t>();
    auto c = r.get<std::int64_t>();
    auto b = r.get<std::int32_t>();
    if (c < 0 || c > kMaxCount || d < -kMaxDisp || d > kMaxDisp || b <= 0 ||
        b >= pack::kNumPredefined || pack::predefined(b).kind == pack::Kind::none)
      return std::nullopt;
    if (pack::predefined(b).kind == pack::Kind::pair && (pairs += c) > kMaxPairs)
      return std::nullopt;
    disps.push_back(d);
    lens.push_back(c);
    types.push_back(pack::Datatype::predefined(b));
  }
  auto st = pack::Datatype::struct_(lens, disps, types);
  if (!st) return std::nullopt;
  auto sized = pack::Datatype::resized(*st, lb, extent);
  if (!sized) return std::nullopt;
  h.type = *sized;
  if (static_cast<__int128>(h.count) * h.type->size() > (std::int64_t{1} << 40))
    return std::nullopt;  // (more than a window can hold; keeps count * size in range)
  h.length = len - r.left;
  return h;
}

}  // namespace impi::rma
