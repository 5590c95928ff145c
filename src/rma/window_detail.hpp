// window_detail.hpp - what window.cpp, sync.cpp and target.cpp share:
// the records of operations in flight and the local data movers.
#pragma once

#include <cstring>
#include <vector>

#include "core/p2p.hpp"
#include "pack/cursor.hpp"
#include "pack/predefined.hpp"
#include "rma/atomics.hpp"
#include "rma/request_codec.hpp"
#include "rma/window.hpp"

namespace impi::rma {

// An operation of ours on the message path, until its answer is in.
struct Window::Pending {
  int target = 0;
  std::vector<char> header;
  char status[4] = {};      // an acknowledgement's status (little-endian MPI error class)
  core::RequestPtr answer;  // the acknowledgement, or the data (gets)
  std::vector<core::RequestPtr> sends;
  std::vector<char> data;    // compare-and-swap's two elements
  std::int64_t expect = -1;  // data answers: bytes (fewer: the target refused)
  bool answered = true;      // false: a request the target does not answer (kNoAnswer)
};

// An operation for us (message path), from header to answer.
struct Window::Incoming {
  enum class Stage { header, data, lock_wait } stage = Stage::header;
  std::vector<char> buf;  // the header's bytes
  core::RequestPtr req;   // the receive in progress
  RequestHeader h;
  char *addr = nullptr;
  int error = 0;
  std::vector<char> tmp;  // accumulate data
};

namespace detail {

inline const pack::TypePtr &byte_type() {
  return pack::Datatype::predefined(pack::dt::byte);
}

inline std::uint32_t id_of(const std::vector<char> &header) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(header[8 + i])) << (8 * i);
  return v;
}

inline std::vector<char> pack_all(const void *buf, std::int64_t count, const pack::TypePtr &type) {
  pack::PackCursor c(type, count);
  std::vector<char> out(static_cast<std::size_t>(c.total()));
  c.pack(buf, {reinterpret_cast<std::byte *>(out.data()), out.size()});
  return out;
}

inline void unpack_all(const std::vector<char> &in, void *buf, std::int64_t count,
                       const pack::TypePtr &type) {
  pack::PackCursor c(type, count);
  c.unpack(buf, {reinterpret_cast<const std::byte *>(in.data()), in.size()});
}

// dst (dcount of dtype) = src (scount of stype); the sizes match. Buffers
// are the address of instance 0's origin: a contiguous type's data starts
// at its lower bound, which need not be 0.
inline void copy_typed(const char *src, std::int64_t scount, const pack::TypePtr &stype, char *dst,
                       std::int64_t dcount, const pack::TypePtr &dtype) {
  if (scount * stype->size() == 0) return;
  if (stype->is_contiguous() && dtype->is_contiguous()) {
    base::copy_bytes(dst + dtype->lb(), src + stype->lb(),
                     static_cast<std::size_t>(scount * stype->size()));
    return;
  }
  unpack_all(pack_all(src, scount, stype), dst, dcount, dtype);
}

// Accumulates compute on arrays of elements of their predefined type
// `basic` in its native layout: one element every predefined(basic).size
// bytes (atomics.hpp). The packed form of a type leaves out what is not
// data, so the two differ for the pair types (MPI_DOUBLE_INT: 12 bytes
// packed, 16 natively, the index at 8): the data of an accumulate is
// sized and converted by the type map, never as bytes.
inline const pack::TypePtr &element_type(int basic) {
  return pack::Datatype::predefined(basic);
}
inline std::int64_t element_stride(int basic) {  // native bytes of one element
  return pack::predefined(basic).size;
}
inline std::int64_t element_data(int basic) {  // its packed bytes
  return pack::Datatype::predefined(basic)->size();
}
// Whether `nelem` elements packed are their native array, byte for byte.
inline bool packed_is_native(int basic) {
  return element_stride(basic) == element_data(basic);
}
// `count` of `type` at `buf` as the native array of their `nelem` elements.
inline std::vector<char> gather_elements(const void *buf, std::int64_t count,
                                         const pack::TypePtr &type, int basic, std::int64_t nelem) {
  std::vector<char> out(static_cast<std::size_t>(nelem * element_stride(basic)));
  copy_typed(static_cast<const char *>(buf), count, type, out.data(), nelem, element_type(basic));
  return out;
}
// `nelem` packed elements as their native array (pairs only: the others are already).
inline std::vector<char> unpack_elements(const char *packed, std::int64_t nelem, int basic) {
  std::vector<char> out(static_cast<std::size_t>(nelem * element_stride(basic)));
  pack::PackCursor c(element_type(basic), nelem);
  c.unpack(out.data(), {reinterpret_cast<const std::byte *>(packed),
                        static_cast<std::size_t>(nelem * element_data(basic))});
  return out;
}
// The native array of `nelem` elements packed (pairs only).
inline void pack_elements(const char *elems, std::int64_t nelem, int basic, char *packed) {
  pack::PackCursor c(element_type(basic), nelem);
  c.pack(elems, {reinterpret_cast<std::byte *>(packed),
                 static_cast<std::size_t>(nelem * element_data(basic))});
}
// The native array of `nelem` elements into `count` of `type` at `buf`.
inline void scatter_elements(const char *elems, std::int64_t nelem, int basic, void *buf,
                             std::int64_t count, const pack::TypePtr &type) {
  copy_typed(elems, nelem, element_type(basic), static_cast<char *>(buf), count, type);
}

// Converts a packed stream of `count` of `type` between our representation
// and external32 or impi-wide (`rep`: the channel's form for that peer),
// element by element in place (the inline payloads of the message path,
// toward another client: IMPI 4.1). Only for types whose elements have one
// size in both (inline_convertible).
void convert_packed(char *buf, std::int64_t count, const pack::Datatype &type, bool to_external,
                    pack::Rep rep);
bool inline_convertible(const pack::Datatype &type, pack::Rep rep);
// Whether every element of `type` is of predefined type `basic`.
bool elements_of(const pack::Datatype &type, int basic);

// Accumulates the native array of elements `in` (null: MPI_NO_OP) into
// `count` of `type` at `addr` in our memory (the address of instance 0's
// origin), element-wise atomic or under `ctl`'s accumulate lock; `old`, if
// not null, gets the values before, as a native array.
void apply_local(char *addr, std::int64_t count, const pack::Datatype &type, pack::Op op, int basic,
                 const char *in, char *old, bool atomic, MemberCtl *ctl);

// The error an answered operation reports (none, a refusal, a broken link).
Error outcome(const Window::Pending &p, const Target &t);

}  // namespace detail
}  // namespace impi::rma
