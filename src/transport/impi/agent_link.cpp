#include "transport/impi/agent_link.hpp"

#include <fmt/core.h>

#include "base/byteorder.hpp"

namespace impi::transport::wire::agent_link {

using base::Errc;

std::array<std::byte, kHelloSize> encode_hello(std::uint64_t proc_index) {
  std::array<std::byte, kHelloSize> out;
  base::store_be<std::uint64_t>(out, proc_index);
  return out;
}

base::Result<std::uint64_t> decode_hello(std::span<const std::byte> in) {
  if (in.size() != kHelloSize)
    return {Errc::protocol_error,
            fmt::format("agent link: a hello has {} bytes, not {}", in.size(), kHelloSize)};
  return base::load_be<std::uint64_t>(in);
}

std::array<std::byte, 1> encode_accept() {
  return {kAccept};
}

base::Result<std::vector<std::byte>> encode_direct(std::span<const std::uint32_t> hosts) {
  if (hosts.size() > kMaxDirectChannels)
    return {Errc::invalid_argument,
            fmt::format("agent link: {} channels in one message (at most {})", hosts.size(),
                        kMaxDirectChannels)};
  std::vector<std::byte> out(kDirectHeaderSize + 4 * hosts.size());
  std::span<std::byte> s(out);
  s[0] = kDirect;
  base::store_be<std::uint32_t>(s.subspan(1, 4), static_cast<std::uint32_t>(hosts.size()));
  for (std::size_t i = 0; i < hosts.size(); ++i)
    base::store_be<std::uint32_t>(s.subspan(kDirectHeaderSize + 4 * i, 4), hosts[i]);
  return out;
}

base::Result<std::size_t> reply_length(std::span<const std::byte> in) {
  if (in.empty()) return std::size_t{1};
  if (in[0] == kAccept) return std::size_t{1};
  if (in[0] != kDirect)
    return {Errc::protocol_error,
            fmt::format("agent link: unknown reply 0x{:02x}", std::to_integer<unsigned>(in[0]))};
  if (in.size() < kDirectHeaderSize) return kDirectHeaderSize;
  auto count = base::load_be<std::uint32_t>(in.subspan(1, 4));
  if (count > kMaxDirectChannels)
    return {Errc::protocol_error, fmt::format("agent link: {} channels in one message (at most {})",
                                              count, kMaxDirectChannels)};
  return kDirectHeaderSize + 4 * std::size_t{count};
}

base::Result<Reply> decode_reply(std::span<const std::byte> in) {
  auto len = reply_length(in);
  if (!len) return {len.error(), len.message()};
  if (in.size() != *len)
    return {Errc::protocol_error,
            fmt::format("agent link: a reply of {} bytes where {} were due", in.size(), *len)};
  Reply r;
  if (in[0] == kAccept) return r;
  r.kind = Reply::direct;
  for (std::size_t at = kDirectHeaderSize; at < in.size(); at += 4)
    r.hosts.push_back(base::load_be<std::uint32_t>(in.subspan(at, 4)));
  return r;
}

}  // namespace impi::transport::wire::agent_link
