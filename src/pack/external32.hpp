// external32.hpp - MPI's portable data representation (MPI-3.1 13.5.2):
// big-endian, IEEE floats, the standard's fixed sizes (MPI_LONG is 4 bytes,
// MPI_LONG_DOUBLE a 16-byte IEEE binary128, MPI_C_BOOL 1 byte), pair types
// as the concatenation of their parts without padding. The IMPI wire
// carries user data in this form.
//
// Between two impi clients that both advertised it at startup, user data
// travels in impi's *wide* form instead (docs/data-representation.md):
// external32 in every respect except that MPI_LONG and MPI_UNSIGNED_LONG
// take 8 bytes (and MPI_LONG_INT 12), so that this machine's 64-bit longs
// travel whole. A value that external32's 4-byte MPI_LONG cannot hold is
// an error (check_fits), never altered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "base/errc.hpp"
#include "pack/datatype.hpp"

namespace impi::pack {

// The portable forms user data takes between IMPI clients.
enum class Rep : std::uint8_t {
  external32,  // MPI's (the IMPI spec's, 4.1): with any peer that is not impi
  wide,        // impi's: external32 with 8-byte MPI_LONG/MPI_UNSIGNED_LONG
};
constexpr std::string_view rep_name(Rep r) {
  return r == Rep::wide ? "impi-wide" : "external32";
}

// Bytes of one element of predefined `basic` in `rep` (0: no such form).
std::int64_t rep_size(int basic, Rep rep);

// Bytes of `count` instances of `t` in external32 (or `rep`); an error when
// the type contains something without an external32 form.
base::Result<std::int64_t> external32_size(const TypePtr &t, std::int64_t count,
                                           Rep rep = Rep::external32);

// Whether some element of predefined `basic` may not fit in `rep` (its
// integers are narrower there than here: MPI_LONG in external32).
bool may_not_fit(int basic, Rep rep);
// Checks that every element of (`buf`, `count`, `t`) fits in `rep`; else an
// Errc::conversion naming the type, the value and its element, e.g.
// "MPI_LONG value 78187493530 (0x123456789a) of element 0 does not fit in
// external32's 4-byte MPI_LONG". Cheap when nothing may not fit.
base::Status check_fits(const TypePtr &t, std::int64_t count, const void *buf, Rep rep);

// One element of predefined type `basic`: native bytes <-> external32 bytes
// (or `rep`'s). Integers too wide for the form keep their low bytes: call
// check_fits first.
void to_external32(int basic, const std::byte *native, std::byte *ext, Rep rep = Rep::external32);
void from_external32(int basic, const std::byte *ext, std::byte *native, Rep rep = Rep::external32);
// `n` consecutive elements of `basic` from `from` to `to` (both packed),
// into external32 (`to_external`) or back; sizes must be equal in both
// forms (in `rep`). A copy or a byte-swap loop for plain numbers.
void convert_run(int basic, const std::byte *from, std::byte *to, std::int64_t n, bool to_external,
                 Rep rep = Rep::external32);

// Resumable external32 packing of (type, count), like PackCursor: any byte
// offset, any output size (an element split across two buffers is staged).
class External32Cursor {
 public:
  // `type` must have an external32 form. `native_order`: elements whose
  // external32 size is their native size travel as their native bytes (a
  // peer that sends its own byte order, IMPI_NATIVE_ORDER_CLIENTS); the
  // others are still converted. `rep`: the form (external32 or impi-wide).
  External32Cursor(TypePtr type, std::int64_t count, bool native_order = false,
                   Rep rep = Rep::external32);
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
  Rep rep_ = Rep::external32;
  std::int64_t count_, per_instance_ = 0, total_ = 0, pos_ = 0;
  std::int64_t inst_ = 0;
  std::size_t seg_ = 0;
  std::int64_t elem_ = 0;     // element within the segment
  std::int64_t in_elem_ = 0;  // bytes of the current element already done
  std::byte stage_[32];       // one element (the largest: long double complex)
};

}  // namespace impi::pack
