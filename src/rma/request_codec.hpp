// request_codec.hpp - the header of a one-sided request sent as a message
// (window.hpp's message path): which operation, where, and the target
// datatype's typemap, little-endian, as MPI_BYTE data. The target decodes
// it as untrusted input: every length and index is checked.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pack/datatype.hpp"

namespace impi::rma {

// batch: several inline puts and accumulates, each [u32 length][request],
// answered once.
enum class Kind : std::uint32_t { put = 1, get, acc, get_acc, cas, lock, unlock, batch };

struct RequestHeader {
  Kind kind = Kind::put;
  std::uint32_t op = 0;     // pack::Op for accumulates
  std::uint32_t id = 0;     // names the data and answer messages (window.cpp's tags)
  std::uint32_t flags = 0;  // lock: kExclusive; put, acc: kInline
  std::int64_t disp = 0;    // target displacement (dynamic windows: an address)
  std::int64_t count = 0;   // of the target datatype
  std::int64_t nelem = 0;   // accumulates: elements of `basic` in the data
  std::int32_t basic = 0;   // accumulates: the predefined element type
  pack::TypePtr type;       // the target datatype (null for lock, unlock)
  std::size_t length = 0;   // decode: bytes of the header (an inline payload follows)
};
constexpr std::uint32_t kExclusive = 1;
// Small puts and accumulates carry their data after the header, packed
// (external32 toward another client) instead of in a message of their own.
constexpr std::uint32_t kInline = 2;
// Lock requests: the target sends no answer (the origin does not wait for
// the lock; the unlock's answer, which comes after, covers it).
constexpr std::uint32_t kNoAnswer = 4;
constexpr std::int64_t kInlineBytes = 16384;
// A batch is sent when it reaches this many bytes (or before anything else
// to its target, and when the origin waits for completion).
constexpr std::size_t kBatchBytes = 32768;

std::vector<char> encode(const RequestHeader &h);
// nullopt: malformed (short, an unknown kind or type, too many segments).
std::optional<RequestHeader> decode(const char *data, std::size_t len);

// Message tags in a window's context: requests, post and complete
// notices, then per operation id a data tag (origin to target) and an
// answer tag (target to origin).
constexpr int kRequestTag = 0, kPostTag = 1, kCompleteTag = 2;
inline int data_tag(std::uint32_t id) {
  return 16 + 2 * static_cast<int>(id);
}
inline int answer_tag(std::uint32_t id) {
  return 17 + 2 * static_cast<int>(id);
}

}  // namespace impi::rma
