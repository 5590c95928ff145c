#include "startup/wire/startup_protocol.hpp"

#include <arpa/inet.h>
#include <fmt/core.h>

#include <cstring>

#include "base/byteorder.hpp"

namespace impi::startup::wire {

using base::Errc;
using base::load_be;
using base::store_be;

std::string_view cmd_name(std::int32_t cmd) {
  switch (cmd) {
    case kCmdAuth:
      return "AUTH";
    case kCmdImpi:
      return "IMPI";
    case kCmdColl:
      return "COLL";
    case kCmdDone:
      return "DONE";
    case kCmdFini:
      return "FINI";
  }
  return {};
}

std::string_view label_name(std::int32_t label) {
  switch (label) {
    case kLabelCVersion:
      return "IMPI_C_VERSION";
    case kLabelCNhosts:
      return "IMPI_C_NHOSTS";
    case kLabelCNprocs:
      return "IMPI_C_NPROCS";
    case kLabelCDatalen:
      return "IMPI_C_DATALEN";
    case kLabelCTagub:
      return "IMPI_C_TAGUB";
    case kLabelCCollXsize:
      return "IMPI_C_COLL_XSIZE";
    case kLabelCCollMaxlinear:
      return "IMPI_C_COLL_MAXLINEAR";
    case kLabelHIpv6:
      return "IMPI_H_IPV6";
    case kLabelHPort:
      return "IMPI_H_PORT";
    case kLabelHNprocs:
      return "IMPI_H_NPROCS";
    case kLabelHAckmark:
      return "IMPI_H_ACKMARK";
    case kLabelHHiwater:
      return "IMPI_H_HIWATER";
    case kLabelPIpv6:
      return "IMPI_P_IPV6";
    case kLabelPPid:
      return "IMPI_P_PID";
  }
  return {};
}

namespace {
template <typename T>
void append_be(Bytes &out, T v) {
  std::size_t at = out.size();
  out.resize(at + sizeof(T));
  store_be<std::make_unsigned_t<T>>(std::span(out).subspan(at, sizeof(T)),
                                    static_cast<std::make_unsigned_t<T>>(v));
}
}  // namespace

Bytes encode_cmd(std::int32_t cmd, std::span<const std::byte> payload) {
  Bytes out;
  out.reserve(kCmdHeaderSize + payload.size());
  append_be(out, cmd);
  append_be(out, static_cast<std::int32_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

Bytes encode_client_auth(std::uint32_t auth_mask) {
  return encode_cmd(kCmdAuth, encode_u32(auth_mask));
}

Bytes encode_server_auth(std::int32_t which, std::int32_t len) {
  Bytes out;
  append_be(out, which);
  append_be(out, len);
  return out;
}

Bytes encode_auth_key(std::uint64_t key) {
  Bytes out;
  append_be(out, key);
  return out;
}

Bytes encode_impi(std::int32_t v) {
  return encode_cmd(kCmdImpi, encode_i32(v));
}

Bytes encode_coll_submit(std::int32_t label, std::span<const std::byte> value) {
  Bytes p;
  append_be(p, label);
  p.insert(p.end(), value.begin(), value.end());
  return encode_cmd(kCmdColl, p);
}

Bytes encode_coll_bcast(std::int32_t label, std::uint32_t client_mask,
                        std::span<const std::byte> concatenated) {
  Bytes p;
  p.reserve(8 + concatenated.size());
  append_be(p, label);
  append_be(p, client_mask);
  p.insert(p.end(), concatenated.begin(), concatenated.end());
  return encode_cmd(kCmdColl, p);
}

Bytes encode_u32(std::uint32_t v) {
  Bytes out;
  append_be(out, v);
  return out;
}
Bytes encode_i32(std::int32_t v) {
  Bytes out;
  append_be(out, v);
  return out;
}
Bytes encode_u32s(std::span<const std::uint32_t> v) {
  Bytes out;
  for (auto x : v) append_be(out, x);
  return out;
}
Bytes encode_i64s(std::span<const std::int64_t> v) {
  Bytes out;
  for (auto x : v) append_be(out, x);
  return out;
}
Bytes encode_versions(std::span<const std::pair<std::uint32_t, std::uint32_t>> v) {
  Bytes out;
  for (auto [major, minor] : v) {
    append_be(out, major);
    append_be(out, minor);
  }
  return out;
}

CmdHeader decode_cmd_header(std::span<const std::byte, kCmdHeaderSize> in) {
  return {static_cast<std::int32_t>(load_be<std::uint32_t>(in.first(4))),
          static_cast<std::int32_t>(load_be<std::uint32_t>(in.subspan(4, 4)))};
}

base::Status check_cmd_header(const CmdHeader &h) {
  if (h.len < 0 || static_cast<std::size_t>(h.len) > kMaxPayload)
    return {Errc::protocol_error,
            fmt::format("command 0x{:08x} announces {} payload bytes (limit {})",
                        static_cast<std::uint32_t>(h.cmd), h.len, kMaxPayload)};
  return {};
}

base::Result<CollBcast> decode_coll_bcast(std::span<const std::byte> payload) {
  if (payload.size() < 8)
    return {Errc::protocol_error, fmt::format("COLL broadcast of {} bytes (< 8)", payload.size())};
  CollBcast b;
  b.label = static_cast<std::int32_t>(load_be<std::uint32_t>(payload.first(4)));
  b.client_mask = load_be<std::uint32_t>(payload.subspan(4, 4));
  b.data.assign(payload.begin() + 8, payload.end());
  return b;
}

base::Result<CollSubmit> decode_coll_submit(std::span<const std::byte> payload) {
  if (payload.size() < 4)
    return {Errc::protocol_error, fmt::format("COLL command of {} bytes (< 4)", payload.size())};
  CollSubmit s;
  s.label = static_cast<std::int32_t>(load_be<std::uint32_t>(payload.first(4)));
  s.value.assign(payload.begin() + 4, payload.end());
  return s;
}

base::Result<std::int32_t> decode_i32_payload(std::span<const std::byte> payload) {
  if (payload.size() != 4)
    return {Errc::protocol_error, fmt::format("expected 4 payload bytes, got {}", payload.size())};
  return static_cast<std::int32_t>(load_be<std::uint32_t>(payload));
}

base::Result<std::vector<std::span<const std::byte>>> split_items(std::span<const std::byte> data,
                                                                  std::size_t count,
                                                                  std::size_t item) {
  if (item == 0 || data.size() != count * item)
    return {Errc::protocol_error, fmt::format("{} bytes where {} items of {} bytes were expected",
                                              data.size(), count, item)};
  std::vector<std::span<const std::byte>> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(data.subspan(i * item, item));
  return out;
}

std::optional<Bytes> CmdReader::take_raw(std::size_t n) {
  if (buf_.size() < n) return std::nullopt;
  Bytes out(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(n));
  buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

std::optional<CmdHeader> CmdReader::peek_header() const {
  if (buf_.size() < kCmdHeaderSize) return std::nullopt;
  return decode_cmd_header(std::span<const std::byte, kCmdHeaderSize>(buf_.data(), kCmdHeaderSize));
}

base::Result<std::optional<CmdReader::Cmd>> CmdReader::next() {
  if (buf_.size() < kCmdHeaderSize) return std::optional<Cmd>{};
  CmdHeader h =
      decode_cmd_header(std::span<const std::byte, kCmdHeaderSize>(buf_.data(), kCmdHeaderSize));
  if (auto s = check_cmd_header(h); !s.ok()) return {s.error(), s.message()};
  std::size_t total = kCmdHeaderSize + static_cast<std::size_t>(h.len);
  if (buf_.size() < total) return std::optional<Cmd>{};
  Cmd c{h, Bytes(buf_.begin() + kCmdHeaderSize, buf_.begin() + static_cast<std::ptrdiff_t>(total))};
  buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(total));
  return std::optional<Cmd>{std::move(c)};
}

bool is_ipv4_mapped(const Ipv6 &a) {
  for (int i = 0; i < 10; ++i)
    if (a[i] != std::byte{0}) return false;
  return a[10] == std::byte{0xff} && a[11] == std::byte{0xff};
}

bool is_ipv4_compatible(const Ipv6 &a) {
  for (int i = 0; i < 12; ++i)
    if (a[i] != std::byte{0}) return false;
  // ::a.b.c.d with a != 0: "::" (unspecified) and "::1" (loopback) and the
  // rest of 0.0.0.0/8, which no host has, stay IPv6.
  return a[12] != std::byte{0};
}

bool is_ipv4(const Ipv6 &a) {
  return is_ipv4_mapped(a) || is_ipv4_compatible(a);
}

base::Result<Ipv6> parse_address(std::string_view text) {
  std::string t(text);
  Ipv6 out{};
  in_addr v4{};
  if (::inet_pton(AF_INET, t.c_str(), &v4) == 1) {
    out[10] = out[11] = std::byte{0xff};
    std::memcpy(out.data() + 12, &v4, 4);  // network order already
    return out;
  }
  in6_addr v6{};
  if (::inet_pton(AF_INET6, t.c_str(), &v6) == 1) {
    std::memcpy(out.data(), &v6, 16);
    return out;
  }
  return {Errc::invalid_argument, fmt::format("'{}' is not an IPv4 or IPv6 address", text)};
}

std::string format_address(const Ipv6 &a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (is_ipv4(a)) {
    ::inet_ntop(AF_INET, a.data() + 12, buf, sizeof buf);
  } else {
    ::inet_ntop(AF_INET6, a.data(), buf, sizeof buf);
  }
  return buf;
}

}  // namespace impi::startup::wire
