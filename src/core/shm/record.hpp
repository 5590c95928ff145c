// record.hpp - the records of the shared-memory protocol on a ring
// (transport/shm/ring.hpp), between the procs of one client on one node.
//
// A record header, decoded, is a ShmHeader. On the ring (after the ring's
// 8-byte stamp) it is a WireHead, then a WireExt unless the record is a
// chunk or a plain eager message (whose length is its payload), then the
// payload (from the second line when it is large: payload_at()); the
// record is padded to whole 64-byte lines. A small eager message with its
// 32-byte head and up to 32 payload bytes is one line.
// Messages are eager, first (+ chunks) and rts records; each one starts
// the next message on its ring, numbered from 1 on both sides (RingPeer::
// seq_out, seq_in), so a cancel names a message with no id on the ring.
// Control records (one line, no payload, sync_id carries the id): ack (a
// synchronous or single-copy message was matched), cancel (the sender asks
// to cancel message sync_id), cancel_yes / cancel_no (the answer).
#pragma once

#include <cstdint>

#include "transport/shm/ring.hpp"

namespace impi::core {

struct ShmHeader {
  enum : std::uint32_t {
    eager = 1,
    first = 2,
    chunk = 3,
    ack = 4,
    rts = 5,
    cancel = 6,
    cancel_yes = 7,
    cancel_no = 8
  };
  std::uint32_t kind;
  std::uint32_t payload;
  std::int32_t source;  // sender's rank in the communicator
  std::int32_t tag;
  std::int32_t context;
  std::int64_t msg_len;
  std::uint64_t sync_id;  // synchronous send: echoed in the receiver's ack
};

namespace shm_record {
struct WireHead {
  std::uint32_t kind;  // low 8 bits: ShmHeader kind; kHasExt: a WireExt follows
  std::uint32_t payload;
  std::int32_t source, tag, context;
  std::uint32_t reserved;
};
struct WireExt {
  std::int64_t msg_len;
  std::uint64_t sync_id;
};
constexpr std::uint32_t kHasExt = 0x100;
constexpr std::uint64_t kHeadAt = transport::shm::Ring::kStamp;
static_assert(kHeadAt + sizeof(WireHead) == 32 && sizeof(WireExt) == 16);

inline bool has_ext(std::uint32_t kind, std::uint64_t sync_id) {
  return kind != ShmHeader::chunk && !(kind == ShmHeader::eager && sync_id == 0);
}
}  // namespace shm_record

// Where the payload of a record of `kind` with `payload` bytes starts:
// right after the header, or on the record's second line when the payload
// is large (kAlignedFrom). A copy to a 64-byte aligned destination runs a
// third faster than one to the header's end (memcpy of 8 KiB within the
// cache, this machine), and the sender's copy into the ring is one.
constexpr std::uint64_t kAlignedFrom = 1024;
// (The rule both sides apply, given where the header ends.)
inline std::uint64_t payload_start(std::uint64_t header_end, std::uint64_t payload) {
  return payload >= kAlignedFrom ? transport::shm::kLine : header_end;
}
inline std::uint64_t payload_at(std::uint32_t kind, std::uint64_t sync_id, std::uint64_t payload) {
  using namespace shm_record;
  return payload_start(kHeadAt + sizeof(WireHead) + (has_ext(kind, sync_id) ? sizeof(WireExt) : 0),
                       payload);
}

// Writes `h` into the record being built; returns the payload's offset.
inline std::uint64_t put_header(transport::shm::Ring &out, const ShmHeader &h) {
  using namespace shm_record;
  bool ext = has_ext(h.kind, h.sync_id);
  WireHead w{h.kind | (ext ? kHasExt : 0), h.payload, h.source, h.tag, h.context, 0};
  out.put(kHeadAt, w);
  if (ext) out.put(kHeadAt + sizeof w, WireExt{h.msg_len, h.sync_id});
  return payload_at(h.kind, h.sync_id, h.payload);
}

// Reads the current record's header; returns the payload's offset.
inline std::uint64_t get_header(const transport::shm::Ring &in, ShmHeader &h) {
  using namespace shm_record;
  WireHead w;
  in.get(kHeadAt, w);
  h = {w.kind & 0xff, w.payload, w.source, w.tag, w.context, w.payload, 0};
  std::uint64_t at = kHeadAt + sizeof w;
  if (w.kind & kHasExt) {
    WireExt e;
    in.get(at, e);
    h.msg_len = e.msg_len;
    h.sync_id = e.sync_id;
    at += sizeof e;
  }
  return payload_start(at, w.payload);
}

}  // namespace impi::core
