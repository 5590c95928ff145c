#include "pack/external32.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "base/byteorder.hpp"

namespace impi::pack {

using base::Errc;

// The integer conversions below read native integers by their low bytes first.
static_assert(std::endian::native == std::endian::little,
              "external32 code assumes a little-endian host");

namespace {

// Native integer of `n` bytes (host order) <-> big-endian of `m` bytes:
// narrowing keeps the low bytes (MPI_LONG to 4 bytes), widening extends
// the sign for signed kinds.
void int_to_be(const std::byte *native, int n, std::byte *ext, int m, bool is_signed) {
  std::uint64_t v = 0;
  std::memcpy(&v, native, static_cast<size_t>(n));  // little-endian host: low bytes first
  if (is_signed && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~std::uint64_t{0} << (8 * n);
  for (int i = 0; i < m; ++i) ext[m - 1 - i] = static_cast<std::byte>((v >> (8 * i)) & 0xff);
}

void be_to_int(const std::byte *ext, int m, std::byte *native, int n, bool is_signed) {
  std::uint64_t v = 0;
  for (int i = 0; i < m; ++i) v = (v << 8) | std::to_integer<std::uint64_t>(ext[i]);
  if (is_signed && m < 8 && (v >> (8 * m - 1)) & 1) v |= ~std::uint64_t{0} << (8 * m);
  std::memcpy(native, &v, static_cast<size_t>(n));
}

void swap_copy(const std::byte *in, std::byte *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

// x87 80-bit extended (in 16 bytes of storage, little-endian) <-> IEEE
// binary128 big-endian. Both have a 15-bit exponent with bias 16383; x87
// keeps an explicit integer bit and 63 fraction bits, binary128 112
// fraction bits. Fractions map by shifting (the low 49 bits of binary128
// are dropped on the way back: x87 cannot hold them).
void ld_to_quad(const std::byte *native, std::byte *ext) {
  std::uint64_t mant = 0;
  std::uint16_t se = 0;
  std::memcpy(&mant, native, 8);
  std::memcpy(&se, native + 8, 2);
  // Encodings the x87 reads but never writes, made canonical without
  // changing the value (dropping their integer bit would): a
  // pseudo-denormal (exponent 0, integer bit set) is the number with
  // exponent 1; an unnormal (integer bit clear) shifts up to normal, or to
  // a denormal.
  std::uint16_t exp = se & 0x7fff;
  if (exp == 0 && (mant >> 63) != 0) {
    exp = 1;
  } else if (exp != 0 && exp != 0x7fff && (mant >> 63) == 0) {
    while ((mant >> 63) == 0 && exp > 1 && mant != 0) {
      mant <<= 1;
      --exp;
    }
    if ((mant >> 63) == 0) exp = 0;
  }
  se = static_cast<std::uint16_t>((se & 0x8000) | exp);
  std::uint64_t frac = mant & 0x7fffffffffffffffull;  // drop the explicit integer bit
  // binary128 = se(16) | frac(112): the 63 x87 fraction bits are the top ones.
  std::uint64_t hi = (static_cast<std::uint64_t>(se) << 48) | (frac >> 15);
  std::uint64_t lo = frac << 49;
  base::store_be<std::uint64_t>(std::span(ext, 8), hi);
  base::store_be<std::uint64_t>(std::span(ext + 8, 8), lo);
}

void quad_to_ld(const std::byte *ext, std::byte *native) {
  std::uint64_t hi = base::load_be<std::uint64_t>(std::span(ext, 8));
  std::uint64_t lo = base::load_be<std::uint64_t>(std::span(ext + 8, 8));
  auto se = static_cast<std::uint16_t>(hi >> 48);
  std::uint64_t frac = ((hi & 0xffffffffffffull) << 15) | (lo >> 49);
  std::uint16_t exp = se & 0x7fff;
  // A NaN whose payload is all in the dropped bits stays a NaN (quiet).
  if (exp == 0x7fff && frac == 0 && ((hi & 0xffffffffffffull) | (lo >> 0)) != 0)
    frac = 0x4000000000000000ull;
  // The integer bit is 1 for normal numbers, infinities and NaNs.
  std::uint64_t mant = frac | (exp != 0 ? 0x8000000000000000ull : 0);
  std::memset(native, 0, 16);
  std::memcpy(native, &mant, 8);
  std::memcpy(native + 8, &se, 2);
}

void real_to(int native_size, const std::byte *native, std::byte *ext) {
  if (native_size == 16 && sizeof(long double) == 16 &&
      std::numeric_limits<long double>::digits == 64)
    ld_to_quad(native, ext);
  else
    swap_copy(native, ext, native_size);
}

void real_from(int native_size, const std::byte *ext, std::byte *native) {
  if (native_size == 16 && sizeof(long double) == 16 &&
      std::numeric_limits<long double>::digits == 64)
    quad_to_ld(ext, native);
  else
    swap_copy(ext, native, native_size);
}

}  // namespace

std::int64_t rep_size(int basic, Rep rep) {
  const Predefined &p = predefined(basic);
  if (rep == Rep::wide) {
    // impi-wide: MPI_LONG and MPI_UNSIGNED_LONG in 8 bytes whatever this
    // machine's long (a fixed layout: the wire must not depend on the build).
    switch (basic) {
      case dt::long_:
      case dt::unsigned_long:
        return 8;
      case dt::long_int:
        return 8 + predefined(dt::int_).ext32_size;
      default:
        break;
    }
  }
  return p.ext32_size;
}

bool may_not_fit(int basic, Rep rep) {
  const Predefined &p = predefined(basic);
  if (p.kind == Kind::pair) return may_not_fit(p.pair_value, rep) || may_not_fit(p.pair_index, rep);
  if (p.kind != Kind::sint && p.kind != Kind::uint && p.kind != Kind::character &&
      p.kind != Kind::boolean)
    return false;
  return p.ext32_size != 0 && rep_size(basic, rep) < p.size;
}

namespace {
// The value of integer element `native` of `basic` (kinds sint, uint,
// character, boolean), "78187493530 (0x123456789a)", if it does not fit in
// `m` bytes; nullopt if it does.
std::optional<std::string> overflow_of(int basic, const std::byte *native, std::int64_t m) {
  const Predefined &p = predefined(basic);
  std::uint64_t v = 0;
  std::memcpy(&v, native, p.size);  // little-endian host: low bytes first
  const int bits = static_cast<int>(8 * m);
  if (bits >= 64 || 8 * p.size <= bits) return std::nullopt;
  if (p.kind == Kind::sint) {
    auto sv = static_cast<std::int64_t>(
        p.size < 8 && (v >> (8 * p.size - 1)) & 1 ? v | (~std::uint64_t{0} << (8 * p.size)) : v);
    const std::int64_t lo = -(std::int64_t{1} << (bits - 1)),
                       hi = (std::int64_t{1} << (bits - 1)) - 1;
    if (sv >= lo && sv <= hi) return std::nullopt;
    return fmt::format("{} ({}0x{:x})", sv, sv < 0 ? "-" : "",
                       sv < 0 ? 0 - static_cast<std::uint64_t>(sv) : v);
  }
  if (v >> bits == 0) return std::nullopt;
  return fmt::format("{} (0x{:x})", v, v);
}
}  // namespace

base::Status check_fits(const TypePtr &t, std::int64_t count, const void *buf, Rep rep) {
  const auto &segs = t->segments();
  bool any = false;
  for (const auto &s : segs) any = any || may_not_fit(s.basic, rep);
  if (!any) return {};
  const auto *base = static_cast<const std::byte *>(buf);
  std::int64_t element = 0;
  for (std::int64_t i = 0; i < count; ++i)
    for (const auto &s : segs) {
      const Predefined &p = predefined(s.basic);
      if (!may_not_fit(s.basic, rep)) {
        element += s.count * elements_in(p);
        continue;
      }
      for (std::int64_t k = 0; k < s.count; ++k, element += elements_in(p)) {
        const std::byte *at = base + i * t->extent() + s.disp + k * p.size;
        // (A pair's parts: its value, then its index.)
        int part = p.kind == Kind::pair ? p.pair_value : s.basic;
        std::optional<std::string> bad = overflow_of(part, at, rep_size(part, rep));
        std::int64_t elem = element;
        if (!bad && p.kind == Kind::pair) {
          part = p.pair_index;
          bad = overflow_of(part, at + p.pair_int_offset, rep_size(part, rep));
          ++elem;
        }
        if (!bad) continue;
        const Predefined &q = predefined(part);
        return {Errc::conversion,
                fmt::format("{} value {} (element {} of the message{}) does not fit in {}'s "
                            "{}-byte {}",
                            q.name, *bad, elem,
                            p.kind == Kind::pair ? fmt::format(", in an {}", p.name) : "",
                            rep_name(rep), rep_size(part, rep), q.name)};
      }
    }
  return {};
}

void to_external32(int basic, const std::byte *native, std::byte *ext, Rep rep) {
  const Predefined &p = predefined(basic);
  const int esz = static_cast<int>(rep_size(basic, rep));
  switch (p.kind) {
    case Kind::real:
      real_to(p.size, native, ext);
      break;
    case Kind::complex: {
      int half = p.size / 2;
      real_to(half, native, ext);
      real_to(half, native + half, ext + p.ext32_size / 2);
      break;
    }
    case Kind::pair:
      to_external32(p.pair_value, native, ext, rep);
      to_external32(p.pair_index, native + p.pair_int_offset, ext + rep_size(p.pair_value, rep),
                    rep);
      break;
    case Kind::sint:
      int_to_be(native, p.size, ext, esz, true);
      break;
    default:  // uint, boolean, character, byte, packed
      int_to_be(native, p.size, ext, esz, false);
      break;
  }
}

void from_external32(int basic, const std::byte *ext, std::byte *native, Rep rep) {
  const Predefined &p = predefined(basic);
  const int esz = static_cast<int>(rep_size(basic, rep));
  switch (p.kind) {
    case Kind::real:
      real_from(p.size, ext, native);
      break;
    case Kind::complex: {
      int half = p.size / 2;
      real_from(half, ext, native);
      real_from(half, ext + p.ext32_size / 2, native + half);
      break;
    }
    case Kind::pair:
      from_external32(p.pair_value, ext, native, rep);
      from_external32(p.pair_index, ext + rep_size(p.pair_value, rep), native + p.pair_int_offset,
                      rep);
      break;
    case Kind::sint:
      be_to_int(ext, esz, native, p.size, true);
      break;
    default:
      be_to_int(ext, esz, native, p.size, false);
      break;
  }
}

base::Result<std::int64_t> external32_size(const TypePtr &t, std::int64_t count, Rep rep) {
  if (t->is_predefined() && predefined(t->predefined_index()).ext32_size == 0)
    return {Errc::not_supported, fmt::format("{} has no external32 representation",
                                             predefined(t->predefined_index()).name)};
  std::int64_t per = 0;
  for (const auto &s : t->segments()) {
    const Predefined &p = predefined(s.basic);
    if (p.ext32_size == 0)
      return {Errc::not_supported, fmt::format("{} has no external32 representation", p.name)};
    per += s.count * rep_size(s.basic, rep);
  }
  return per * count;
}

External32Cursor::External32Cursor(TypePtr type, std::int64_t count, bool native_order, Rep rep)
    : type_(std::move(type)), native_order_(native_order), rep_(rep), count_(count) {
  auto per = external32_size(type_, 1, rep_);
  per_instance_ = per ? *per : 0;
  total_ = per_instance_ * count_;
}

void External32Cursor::seek(std::int64_t offset) {
  pos_ = std::clamp<std::int64_t>(offset, 0, total_);
  seg_ = 0;
  elem_ = in_elem_ = 0;
  if (per_instance_ == 0) return;
  inst_ = pos_ / per_instance_;
  std::int64_t within = pos_ % per_instance_;
  const auto &segs = type_->segments();
  while (seg_ < segs.size()) {
    std::int64_t esz = rep_size(segs[seg_].basic, rep_);
    std::int64_t bytes = segs[seg_].count * esz;
    if (within < bytes) {
      elem_ = within / esz;
      in_elem_ = within % esz;
      return;
    }
    within -= bytes;
    ++seg_;
  }
}

void External32Cursor::advance_element() {
  in_elem_ = 0;
  if (++elem_ == type_->segments()[seg_].count) {
    elem_ = 0;
    if (++seg_ == type_->segments().size()) {
      seg_ = 0;
      ++inst_;
    }
  }
}

namespace {
// Number types whose external32 form is their bytes in big-endian order.
bool bulk_convertible(const Predefined &p) {
  switch (p.kind) {
    case Kind::sint:
    case Kind::uint:
      return p.size <= 8;
    case Kind::real:
      return p.size == 4 || p.size == 8;
    case Kind::byte:
    case Kind::boolean:
    case Kind::character:
      return p.size == 1;
    default:
      return false;
  }
}

template <typename U>
void swap_as(const std::byte *from, std::byte *to, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) {
    U v;
    std::memcpy(&v, from + k * static_cast<std::int64_t>(sizeof(U)), sizeof v);
    if constexpr (sizeof(U) == 2)
      v = __builtin_bswap16(v);
    else if constexpr (sizeof(U) == 4)
      v = __builtin_bswap32(v);
    else
      v = __builtin_bswap64(v);
    std::memcpy(to + k * static_cast<std::int64_t>(sizeof(U)), &v, sizeof v);
  }
}

// `n` elements of `size` bytes from `from` to `to`, each byte-reversed
// (little-endian memory <-> big-endian external32).
void swap_run(const std::byte *from, std::byte *to, std::int64_t n, std::size_t size) {
  if constexpr (std::endian::native == std::endian::big) {
    std::memcpy(to, from, static_cast<std::size_t>(n) * size);
  } else if (size == 2) {
    swap_as<std::uint16_t>(from, to, n);
  } else if (size == 4) {
    swap_as<std::uint32_t>(from, to, n);
  } else {
    swap_as<std::uint64_t>(from, to, n);
  }
}
}  // namespace

template <bool kPack>
std::size_t External32Cursor::run(std::byte *user, std::byte *stream, std::size_t n) {
  n = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(n), total_ - pos_));
  std::size_t done = 0;
  const auto &segs = type_->segments();
  while (done < n) {
    const Segment &s = segs[seg_];
    const Predefined &p = predefined(s.basic);
    std::byte *native = user + inst_ * type_->extent() + s.disp + elem_ * p.size;
    std::size_t esz = static_cast<std::size_t>(rep_size(s.basic, rep_));
    std::size_t take = std::min(esz - static_cast<std::size_t>(in_elem_), n - done);
    const bool raw = native_order_ && esz == p.size;  // the peer's form is our memory's
    if (in_elem_ == 0 && esz == p.size && bulk_convertible(p)) {
      // A run of whole elements of a plain number type: one tight loop (a
      // copy, or a byte swap into big-endian external32).
      // (A type of one run of elements at its origin, e.g. a predefined one:
      // the run goes on into the next instances.)
      const bool one_run = segs.size() == 1 && s.disp == 0 &&
                           type_->extent() == s.count * static_cast<std::int64_t>(p.size);
      const std::int64_t avail = one_run ? (count_ - inst_) * s.count - elem_ : s.count - elem_;
      const std::int64_t whole =
          std::min<std::int64_t>(avail, static_cast<std::int64_t>((n - done) / esz));
      if (whole > 1) {
        std::byte *st = stream + done;
        const std::size_t bytes = static_cast<std::size_t>(whole) * esz;
        if (raw || esz == 1)
          kPack ? std::memcpy(st, native, bytes) : std::memcpy(native, st, bytes);
        else if (kPack)
          swap_run(native, st, whole, esz);
        else
          swap_run(st, native, whole, esz);
        done += bytes;
        if (one_run) {
          const std::int64_t at = inst_ * s.count + elem_ + whole;
          inst_ = at / s.count;
          elem_ = at % s.count;
          in_elem_ = 0;
        } else {
          elem_ += whole - 1;
          advance_element();
        }
        continue;
      }
    }
    auto to_stream = [&](std::byte *out) {
      if (raw)
        std::memcpy(out, native, esz);
      else
        to_external32(s.basic, native, out, rep_);
    };
    auto from_stream = [&](const std::byte *in) {
      if (raw)
        std::memcpy(native, in, esz);
      else
        from_external32(s.basic, in, native, rep_);
    };
    if (in_elem_ == 0 && take == esz) {  // a whole element: no staging
      if constexpr (kPack)
        to_stream(stream + done);
      else
        from_stream(stream + done);
    } else if constexpr (kPack) {  // part of an element: convert whole, copy part
      to_stream(stage_);
      std::memcpy(stream + done, stage_ + in_elem_, take);
    } else {
      std::memcpy(stage_ + in_elem_, stream + done, take);
      std::size_t filled = static_cast<std::size_t>(in_elem_) + take;
      if (filled == esz) {
        from_stream(stage_);
      } else if (p.kind == Kind::pair) {
        // A message may end after a pair's value (one and a half pairs, as
        // a {double, int, double} is): the value is an element of its own.
        auto value = static_cast<std::size_t>(rep_size(p.pair_value, rep_));
        if (static_cast<std::size_t>(in_elem_) < value && filled >= value)
          from_external32(p.pair_value, stage_, native, rep_);
      }
    }
    done += take;
    in_elem_ += static_cast<std::int64_t>(take);
    if (static_cast<std::size_t>(in_elem_) == esz) advance_element();
  }
  pos_ += static_cast<std::int64_t>(n);
  return n;
}

void convert_run(int basic, const std::byte *from, std::byte *to, std::int64_t n, bool to_external,
                 Rep rep) {
  const Predefined &p = predefined(basic);
  if (bulk_convertible(p)) {
    if (p.size == 1) {
      if (to != from) std::memmove(to, from, static_cast<std::size_t>(n));
    } else {
      swap_run(from, to, n, p.size);
    }
    return;
  }
  std::byte tmp[32];
  for (std::int64_t k = 0; k < n; ++k) {
    const std::byte *f = from + k * p.size;
    if (to_external)
      to_external32(basic, f, tmp, rep);
    else
      from_external32(basic, f, tmp, rep);
    std::memcpy(to + k * p.size, tmp, p.size);
  }
}

std::size_t External32Cursor::pack(const void *buf, std::span<std::byte> out) {
  return run<true>(static_cast<std::byte *>(const_cast<void *>(buf)), out.data(), out.size());
}

std::size_t External32Cursor::unpack(void *buf, std::span<const std::byte> in) {
  return run<false>(static_cast<std::byte *>(buf), const_cast<std::byte *>(in.data()), in.size());
}

}  // namespace impi::pack
