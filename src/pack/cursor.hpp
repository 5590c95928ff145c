// cursor.hpp - resumable packing of `count` instances of a datatype.
//
// The packed stream of (type, count) is the concatenation of the type's
// byte runs, instance after instance (native representation). A cursor
// can start at any byte offset of that stream and fill or drain buffers
// of any size, so a transport packs exactly what fits in a packet without
// staging the whole message. Contiguous types take a single memcpy.
//
// Not thread-safe; one cursor per message direction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pack/datatype.hpp"

namespace impi::pack {

class PackCursor {
 public:
  // Does not own the type: the caller keeps it alive while the cursor is used.
  PackCursor(const TypePtr &type, std::int64_t count)
      : type_(type.get()), count_(count), total_(type_->size() * count) {}
  PackCursor(TypePtr &&, std::int64_t) = delete;  // a temporary would dangle

  const Datatype &type() const { return *type_; }

  std::int64_t total() const { return total_; }   // bytes of the packed stream
  std::int64_t position() const { return pos_; }  // next packed byte
  std::int64_t remaining() const { return total_ - pos_; }
  // Moves to packed byte `offset` (clamped to [0, total]).
  void seek(std::int64_t offset);

  // Packs from the user buffer `buf` (the address of instance 0's origin)
  // into `out`; returns bytes written: min(out.size(), remaining()).
  std::size_t pack(const void *buf, std::span<std::byte> out);
  // Unpacks `in` into the user buffer; returns bytes consumed.
  std::size_t unpack(void *buf, std::span<const std::byte> in);

 private:
  template <bool kPack>
  std::size_t copy(std::byte *user, std::byte *packed, std::size_t n);
  template <bool kPack, int kLen>
  std::size_t strided_runs(std::byte *user, std::byte *packed, std::size_t n);

  const Datatype *type_;
  std::int64_t count_;
  std::int64_t total_;
  std::int64_t pos_ = 0;
  std::int64_t inst_ = 0;    // current instance
  std::size_t run_ = 0;      // current run within the instance
  std::int64_t in_run_ = 0;  // bytes of that run already done
};

}  // namespace impi::pack
