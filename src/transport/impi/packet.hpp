// packet.hpp - the IMPI data-transfer packet (IMPI 3.4), byte-exact.
//
// Every message between two hosts is a 128-byte big-endian header,
// `IMPI_Packet`, followed by `pk_len` bytes of user data. This file only
// encodes and decodes (no sockets): fields are written and read one by one
// at their offsets, never by casting a struct over the bytes, and decoding
// treats its input as untrusted.
//
// Offsets (bytes): 0 pk_type, 4 pk_len, 8 pk_src (16-byte host id, 8-byte
// pid), 32 pk_dest (same), 56 pk_srqid, 64 pk_drqid, 72 pk_msglen,
// 80 pk_lsrank, 84 pk_tag, 88 pk_cid, 96 pk_seqnum, 104 pk_count,
// 112 pk_dtype, 120 pk_reserved.
//
// Be liberal in what you accept: a field a packet type does not use (spec
// table 3.2) may carry anything; decode() returns it as 0, so nothing
// downstream can come to depend on it.
#pragma once

#include <array>
#include <cassert>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/errc.hpp"

namespace impi::transport::wire {

constexpr std::size_t kPacketHeaderSize = 128;

enum class PacketType : std::uint32_t {
  data = 0,       // a message, or a later part of a long one
  datasync = 1,   // a synchronous short message, or the first part of a long one
  protoack = 2,   // flow control: `ackmark` packets received
  syncack = 3,    // a DATASYNC matched a receive (carries the receiver's drqid)
  cancel = 4,     // cancel the message with this srqid
  cancelyes = 5,  // cancelled
  cancelno = 6,   // too late: it matched
  fini = 7,       // no more packets on this channel, except ACKs
};
constexpr std::uint32_t kPacketTypeCount = 8;
const char *packet_type_name(PacketType t);

// A proc's IMPI identity (IMPI_Proc): the host's 16-byte IPv6 id and a pid.
// The host id is opaque: compare it, never interpret it.
struct ProcId {
  std::array<std::byte, 16> host{};
  std::int64_t pid = 0;
  bool operator==(const ProcId &) const = default;
  auto operator<=>(const ProcId &) const = default;  // (a map key)
};

// A decoded header. Fields the type does not use are 0.
struct Packet {
  PacketType type = PacketType::data;
  std::uint32_t len = 0;     // pk_len: data bytes that follow the header
  ProcId src, dest;          // not used by FINI
  std::uint64_t srqid = 0;   // DATA, DATASYNC, SYNCACK, CANCEL*, the sender's request
  std::uint64_t drqid = 0;   // DATA, DATASYNC, SYNCACK: the receiver's request (long messages)
  std::uint64_t msglen = 0;  // DATA, DATASYNC: the whole message's length
  std::int32_t lsrank = 0;   // DATA, DATASYNC: sender's rank in the communicator
  std::int32_t tag = 0;      // DATA, DATASYNC
  std::uint64_t cid = 0;     // DATA, DATASYNC: context id
  std::uint64_t seqnum = 0;  // DATA, DATASYNC: optional (quality of service)
  std::int64_t count = 0;    // DATA, DATASYNC: optional
  std::uint64_t dtype = 0;   // DATA, DATASYNC: optional
  bool operator==(const Packet &) const = default;
};

// Which fields a type uses (spec table 3.2).
bool uses_proc_ids(PacketType t);        // all but FINI
bool uses_srqid(PacketType t);           // DATA, DATASYNC, SYNCACK, CANCEL, CANCELYES, CANCELNO
bool uses_message_fields(PacketType t);  // DATA, DATASYNC: drqid, msglen, lsrank, tag, cid, QoS
// Whether pk_len bytes of data follow the header: DATA and DATASYNC only.
// Every other type is exactly 128 bytes, whatever its pk_len field says.
bool carries_data(PacketType t);
inline bool counts_for_flow_control(PacketType t) {
  return t != PacketType::protoack && t != PacketType::fini;
}

// Writes the 128-byte header (unused fields as 0, pk_reserved 0; pk_len 0
// for a type that carries no data).
void encode(const Packet &p, std::span<std::byte, kPacketHeaderSize> out);
std::vector<std::byte> encode(const Packet &p);

// Decodes and checks a header from a peer: the type is known, pk_len is at
// most `maxdatalen` (so a reader may then allocate it), and for DATA and
// DATASYNC pk_len does not exceed pk_msglen. Unused fields come back as 0,
// and so does pk_len for a type that carries no data: callers frame the
// stream by `len`, which is then right for every type.
base::Result<Packet> decode(std::span<const std::byte> header, std::uint32_t maxdatalen);

// Splits a byte stream from a host channel into packets. Feed it what the
// socket gave; next() returns a packet once its header and data are all
// there, nothing while more is needed, or an error (the channel is then
// unusable: the stream cannot be resynchronised).
class PacketReader {
 public:
  explicit PacketReader(std::uint32_t maxdatalen) : maxdatalen_(maxdatalen) {}
  void feed(std::span<const std::byte> bytes);
  struct Item {
    Packet header;
    std::vector<std::byte> data;
  };
  std::optional<base::Result<Item>> next();
  // Without copies: read straight into space(n) (n bytes or more), then
  // commit() what came; next_view() gives each packet's data in place,
  // valid until the next call to space, feed, next or next_view.
  std::span<std::byte> space(std::size_t n);
  void commit(std::size_t n) { end_ += n; }
  struct View {
    Packet header;
    std::span<const std::byte> data;
  };
  std::optional<base::Result<View>> next_view();
  std::size_t buffered() const { return end_ - off_; }
  // The packet at the front once next_view() has said its data is not all
  // here: its checked header and the data bytes buffered so far. A caller
  // that reads the rest of the data itself then drops them (drop_partial).
  std::optional<View> partial() const;
  void drop_partial() {
    assert(partial());  // (else it would drop whole packets)
    off_ = end_;
  }

 private:
  void make_room(std::size_t n);  // n free bytes at the end (moves or grows)
  std::uint32_t maxdatalen_;
  std::unique_ptr<std::byte[]> buf_;
  std::size_t cap_ = 0, end_ = 0, off_ = 0;  // unread bytes: [off_, end_)
  bool failed_ = false;
};

// Written packets' buffers, kept for the next packets: a fresh 64 KiB
// buffer per packet costs page faults. At most `keep` are kept.
class SpareBuffers {
 public:
  explicit SpareBuffers(std::size_t keep) : keep_(keep) {}
  std::vector<std::byte> take() {  // empty, with a written packet's capacity when there is one
    if (spares_.empty()) return {};
    auto b = std::move(spares_.back());
    spares_.pop_back();
    b.clear();
    return b;
  }
  void give(std::vector<std::byte> &&b) {
    if (spares_.size() < keep_ && b.capacity() >= kPacketHeaderSize)
      spares_.push_back(std::move(b));
  }

 private:
  std::size_t keep_;
  std::vector<std::vector<std::byte>> spares_;
};

std::string describe(const Packet &p);  // one line, for logs and test failures

}  // namespace impi::transport::wire
