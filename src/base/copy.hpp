#pragma once
// Copies of bulk data (one-sided puts and gets through shared memory).

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

}  // namespace impi::base
