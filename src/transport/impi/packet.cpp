#include "transport/impi/packet.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "base/byteorder.hpp"

namespace impi::transport::wire {

using base::Errc;

namespace {
// Offsets of IMPI_Packet's fields (IMPI 3.4).
constexpr std::size_t kType = 0, kLen = 4, kSrc = 8, kDest = 32, kSrqid = 56, kDrqid = 64,
                      kMsglen = 72, kLsrank = 80, kTag = 84, kCid = 88, kSeqnum = 96, kCount = 104,
                      kDtype = 112, kReserved = 120;
constexpr std::size_t kHostIdSize = 16;

template <typename U>
void put(std::span<std::byte> out, std::size_t at, U v) {
  base::store_be<U>(out.subspan(at, sizeof(U)), v);
}
template <typename U>
U get(std::span<const std::byte> in, std::size_t at) {
  return base::load_be<U>(in.subspan(at, sizeof(U)));
}

void put_proc(std::span<std::byte> out, std::size_t at, const ProcId &p) {
  std::copy(p.host.begin(), p.host.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  put<std::int64_t>(out, at + kHostIdSize, p.pid);
}
ProcId get_proc(std::span<const std::byte> in, std::size_t at) {
  ProcId p;
  std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(at), kHostIdSize, p.host.begin());
  p.pid = get<std::int64_t>(in, at + kHostIdSize);
  return p;
}
}  // namespace

const char *packet_type_name(PacketType t) {
  switch (t) {
    case PacketType::data:
      return "DATA";
    case PacketType::datasync:
      return "DATASYNC";
    case PacketType::protoack:
      return "PROTOACK";
    case PacketType::syncack:
      return "SYNCACK";
    case PacketType::cancel:
      return "CANCEL";
    case PacketType::cancelyes:
      return "CANCELYES";
    case PacketType::cancelno:
      return "CANCELNO";
    case PacketType::fini:
      return "FINI";
  }
  return "?";
}

bool uses_proc_ids(PacketType t) {
  return t != PacketType::fini;
}
bool uses_srqid(PacketType t) {
  return t != PacketType::protoack && t != PacketType::fini;
}
bool uses_message_fields(PacketType t) {
  return t == PacketType::data || t == PacketType::datasync;
}
bool carries_data(PacketType t) {
  return uses_message_fields(t);
}

void encode(const Packet &p, std::span<std::byte, kPacketHeaderSize> out) {
  std::fill(out.begin(), out.end(), std::byte{0});
  put<std::uint32_t>(out, kType, static_cast<std::uint32_t>(p.type));
  put<std::uint32_t>(out, kLen, carries_data(p.type) ? p.len : 0);
  if (uses_proc_ids(p.type)) {
    put_proc(out, kSrc, p.src);
    put_proc(out, kDest, p.dest);
  }
  if (uses_srqid(p.type)) put<std::uint64_t>(out, kSrqid, p.srqid);
  if (uses_message_fields(p.type) || p.type == PacketType::syncack)
    put<std::uint64_t>(out, kDrqid, p.drqid);
  if (uses_message_fields(p.type)) {
    put<std::uint64_t>(out, kMsglen, p.msglen);
    put<std::int32_t>(out, kLsrank, p.lsrank);
    put<std::int32_t>(out, kTag, p.tag);
    put<std::uint64_t>(out, kCid, p.cid);
    put<std::uint64_t>(out, kSeqnum, p.seqnum);
    put<std::int64_t>(out, kCount, p.count);
    put<std::uint64_t>(out, kDtype, p.dtype);
  }
  put<std::uint64_t>(out, kReserved, 0);
}

std::vector<std::byte> encode(const Packet &p) {
  std::vector<std::byte> out(kPacketHeaderSize);
  encode(p, std::span<std::byte, kPacketHeaderSize>(out.data(), kPacketHeaderSize));
  return out;
}

base::Result<Packet> decode(std::span<const std::byte> h, std::uint32_t maxdatalen) {
  if (h.size() < kPacketHeaderSize)
    return {Errc::protocol_error, fmt::format("a packet header is 128 bytes, got {}", h.size())};
  std::uint32_t type = get<std::uint32_t>(h, kType);
  if (type >= kPacketTypeCount)
    return {Errc::protocol_error, fmt::format("unknown packet type {}", type)};
  Packet p;
  p.type = static_cast<PacketType>(type);
  // pk_len has a meaning only where data follows (spec table 3.2): a
  // header-only packet is 128 bytes whatever the field says (LAM/MPI 7.1.4
  // writes 128 there in its PROTOACK, SYNCACK and FINI).
  p.len = carries_data(p.type) ? get<std::uint32_t>(h, kLen) : 0;
  if (p.len > maxdatalen)
    return {Errc::protocol_error, fmt::format("{} packet with pk_len {} > maxdatalen {}",
                                              packet_type_name(p.type), p.len, maxdatalen)};
  if (uses_proc_ids(p.type)) {
    p.src = get_proc(h, kSrc);
    p.dest = get_proc(h, kDest);
  }
  if (uses_srqid(p.type)) p.srqid = get<std::uint64_t>(h, kSrqid);
  if (uses_message_fields(p.type) || p.type == PacketType::syncack)
    p.drqid = get<std::uint64_t>(h, kDrqid);
  if (uses_message_fields(p.type)) {
    p.msglen = get<std::uint64_t>(h, kMsglen);
    p.lsrank = get<std::int32_t>(h, kLsrank);
    p.tag = get<std::int32_t>(h, kTag);
    p.cid = get<std::uint64_t>(h, kCid);
    p.seqnum = get<std::uint64_t>(h, kSeqnum);
    p.count = get<std::int64_t>(h, kCount);
    p.dtype = get<std::uint64_t>(h, kDtype);
    if (p.len > p.msglen)
      return {Errc::protocol_error, fmt::format("{} packet with pk_len {} > pk_msglen {}",
                                                packet_type_name(p.type), p.len, p.msglen)};
  }
  return p;
}

void PacketReader::make_room(std::size_t n) {
  if (off_ == end_) off_ = end_ = 0;
  if (cap_ - end_ >= n) return;
  // Move the unread bytes to the front only when that frees at least as
  // much as it copies (a partial packet moves about once per buffer, not
  // once per read); else grow.
  if (off_ > 0 && off_ >= end_ - off_ && cap_ - (end_ - off_) >= n) {
    std::memmove(buf_.get(), buf_.get() + off_, end_ - off_);
    end_ -= off_;
    off_ = 0;
    return;
  }
  std::size_t ncap = std::max({cap_ * 2, end_ - off_ + n, std::size_t{4} << 16});
  auto nbuf = std::make_unique_for_overwrite<std::byte[]>(ncap);
  if (end_ > off_) std::memcpy(nbuf.get(), buf_.get() + off_, end_ - off_);
  end_ -= off_;
  off_ = 0;
  buf_ = std::move(nbuf);
  cap_ = ncap;
}

void PacketReader::feed(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  make_room(bytes.size());
  std::memcpy(buf_.get() + end_, bytes.data(), bytes.size());
  end_ += bytes.size();
}

std::span<std::byte> PacketReader::space(std::size_t n) {
  make_room(n);
  return {buf_.get() + end_, cap_ - end_};  // at least n
}

std::optional<base::Result<PacketReader::View>> PacketReader::next_view() {
  if (failed_) return base::Result<View>{Errc::protocol_error, "the channel's stream is corrupt"};
  std::span<const std::byte> avail(buf_.get() + off_, end_ - off_);
  if (avail.size() < kPacketHeaderSize) return std::nullopt;
  auto h = decode(avail.first(kPacketHeaderSize), maxdatalen_);
  if (!h) {
    failed_ = true;
    return base::Result<View>{h.error(), h.message()};
  }
  if (avail.size() - kPacketHeaderSize < h->len) return std::nullopt;
  View v{*h, avail.subspan(kPacketHeaderSize, h->len)};
  off_ += kPacketHeaderSize + h->len;
  return base::Result<View>{std::move(v)};
}

std::optional<PacketReader::View> PacketReader::partial() const {
  std::span<const std::byte> avail(buf_.get() + off_, end_ - off_);
  if (failed_ || avail.size() < kPacketHeaderSize) return std::nullopt;
  auto h = decode(avail.first(kPacketHeaderSize), maxdatalen_);
  if (!h || avail.size() - kPacketHeaderSize >= h->len) return std::nullopt;
  return View{*h, avail.subspan(kPacketHeaderSize)};
}

std::optional<base::Result<PacketReader::Item>> PacketReader::next() {
  auto v = next_view();
  if (!v) return std::nullopt;
  if (!v->ok()) return base::Result<Item>{v->error(), v->message()};
  return base::Result<Item>{Item{
      v->value().header, std::vector<std::byte>(v->value().data.begin(), v->value().data.end())}};
}

std::string describe(const Packet &p) {
  auto proc = [](const ProcId &id) {
    std::string s;
    for (std::size_t i = 0; i < id.host.size(); ++i)
      s += fmt::format("{:02x}", static_cast<unsigned>(id.host[i]));
    return fmt::format("{}/{}", s, id.pid);
  };
  std::string out = fmt::format("{} len {}", packet_type_name(p.type), p.len);
  if (uses_proc_ids(p.type)) out += fmt::format(" {} -> {}", proc(p.src), proc(p.dest));
  if (uses_srqid(p.type)) out += fmt::format(" srqid {}", p.srqid);
  if (uses_message_fields(p.type) || p.type == PacketType::syncack)
    out += fmt::format(" drqid {}", p.drqid);
  if (uses_message_fields(p.type))
    out += fmt::format(" msglen {} lsrank {} tag {} cid {}", p.msglen, p.lsrank, p.tag, p.cid);
  return out;
}

}  // namespace impi::transport::wire
