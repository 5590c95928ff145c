// external32.hpp - MPI's portable data representation (MPI-3.1 13.5.2):
// big-endian, IEEE floats, the standard's fixed sizes (MPI_LONG is 4 bytes,
// MPI_LONG_DOUBLE a 16-byte IEEE binary128, MPI_C_BOOL 1 byte), pair types
// as the concatenation of their parts without padding. The IMPI wire
// carries user data in this form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/errc.hpp"
#include "pack/datatype.hpp"

namespace impi::pack {

// Bytes of `count` instances of `t` in external32; an error when the type
// contains something without an external32 form.
base::Result<std::int64_t> external32_size(const TypePtr &t, std::int64_t count);

// One element of predefined type `basic`: native bytes <-> external32 bytes.
void to_external32(int basic, const std::byte *native, std::byte *ext);
void from_external32(int basic, const std::byte *ext, std::byte *native);
// `n` consecutive elements of `basic` from `from` to `to` (both packed),
// into external32 (`to_external`) or back; sizes must be equal in both
// forms. A copy or a byte-swap loop for plain numbers.
void convert_run(int basic, const std::byte *from, std::byte *to, std::int64_t n, bool to_external);

// Resumable external32 packing of (type, count), like PackCursor: any byte
// offset, any output size (an element split across two buffers is staged).
class External32Cursor {
 public:
  // `type` must have an external32 form. `native_order`: elements whose
  // external32 size is their native size travel as their native bytes (a
  // peer that sends its own byte order, IMPI_NATIVE_ORDER_CLIENTS); the
  // others are still converted.
  External32Cursor(TypePtr type, std::int64_t count, bool native_order = false);
  std::int64_t total() const { return total_; }
  std::int64_t position() const { return pos_; }
  void seek(std::int64_t offset);
  std::size_t pack(const void *buf, std::span<std::byte> out);
  std::size_t unpack(void *buf, std::span<const std::byte> in);

 private:
  template <bool kPack>
  std::size_t run(std::byte *user, std::byte *stream, std::size_t n);
  void advance_element();

  TypePtr type_;
  bool native_order_ = false;
  std::int64_t count_, per_instance_ = 0, total_ = 0, pos_ = 0;
  std::int64_t inst_ = 0;
  std::size_t seg_ = 0;
  std::int64_t elem_ = 0;     // element within the segment
  std::int64_t in_elem_ = 0;  // bytes of the current element already done
  std::byte stage_[32];       // one element (the largest: long double complex)
};

}  // namespace impi::pack
