#pragma once
// Copies of bulk data (one-sided puts and gets through shared memory), and
// of the few bytes of a small message.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace impi::base {

// memmove, in pieces of 512 KiB when the ranges do not overlap. glibc's
// memcpy leaves `rep movsb` for a vector loop above its
// rep_movsb_stop_threshold (the L2 size on AMD processors), and that loop
// is the slower one: copies from 1 MiB up run 5-20% faster in pieces.
inline void copy_bytes(void *dst, const void *src, std::size_t n) {
  constexpr std::size_t kPiece = std::size_t{512} << 10;
  auto *d = static_cast<unsigned char *>(dst);
  const auto *s = static_cast<const unsigned char *>(src);
  const auto di = reinterpret_cast<std::uintptr_t>(d), si = reinterpret_cast<std::uintptr_t>(s);
  if (n <= kPiece || (di < si + n && si < di + n)) {
    std::memmove(d, s, n);
    return;
  }
  for (std::size_t at = 0; at < n; at += kPiece)
    std::memcpy(d + at, s + at, n - at < kPiece ? n - at : kPiece);
}

// A copy between non-overlapping ranges, inlined up to 16 bytes: two
// overlapping fixed-size moves instead of a call into memcpy (whose
// dispatch costs as much as a small message's other work).
namespace detail {
// The first and the last sizeof(W) bytes of n (sizeof(W) <= n <= 2 sizeof(W)).
template <typename W>
inline void copy_ends(unsigned char *d, const unsigned char *s, std::size_t n) {
  W a, b;
  std::memcpy(&a, s, sizeof a);
  std::memcpy(&b, s + n - sizeof b, sizeof b);
  std::memcpy(d, &a, sizeof a);
  std::memcpy(d + n - sizeof b, &b, sizeof b);
}
}  // namespace detail

inline void copy_small(void *dst, const void *src, std::size_t n) {
  auto *d = static_cast<unsigned char *>(dst);
  const auto *s = static_cast<const unsigned char *>(src);
  if (n > 16) {
    std::memcpy(d, s, n);
  } else if (n >= 8) {
    detail::copy_ends<std::uint64_t>(d, s, n);
  } else if (n >= 4) {
    detail::copy_ends<std::uint32_t>(d, s, n);
  } else if (n > 0) {
    d[0] = s[0];
    d[n / 2] = s[n / 2];
    d[n - 1] = s[n - 1];
  }
}

}  // namespace impi::base
