#include "pack/cursor.hpp"

#include <algorithm>
#include <cstring>

namespace impi::pack {

PackCursor::PackCursor(TypePtr type, std::int64_t count)
    : type_(std::move(type)), count_(count), total_(type_->size() * count) {}

void PackCursor::seek(std::int64_t offset) {
  pos_ = std::clamp<std::int64_t>(offset, 0, total_);
  if (type_->size() == 0) return;
  inst_ = pos_ / type_->size();
  std::int64_t within = pos_ % type_->size();
  const auto &runs = type_->runs();
  // Runs are few for most types; a linear scan beats building prefix sums.
  run_ = 0;
  while (run_ < runs.size() && within >= runs[run_].len) within -= runs[run_++].len;
  in_run_ = within;
}

template <bool kPack>
std::size_t PackCursor::copy(std::byte *user, std::byte *packed, std::size_t n) {
  n = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(n), remaining()));
  if (n == 0) return 0;
  if (type_->is_contiguous()) {  // fast path: one block from lb
    std::byte *u = user + type_->lb() + pos_;
    if constexpr (kPack)
      std::memcpy(packed, u, n);
    else
      std::memcpy(u, packed, n);
    seek(pos_ + static_cast<std::int64_t>(n));
    return n;
  }
  const auto &runs = type_->runs();
  const std::int64_t ext = type_->extent();
  std::size_t done = 0;
  while (done < n) {
    const ByteRun &r = runs[run_];
    std::size_t take = static_cast<std::size_t>(
        std::min<std::int64_t>(r.len - in_run_, static_cast<std::int64_t>(n - done)));
    std::byte *u = user + inst_ * ext + r.disp + in_run_;
    if constexpr (kPack)
      std::memcpy(packed + done, u, take);
    else
      std::memcpy(u, packed + done, take);
    done += take;
    in_run_ += static_cast<std::int64_t>(take);
    if (in_run_ == r.len) {
      in_run_ = 0;
      if (++run_ == runs.size()) {
        run_ = 0;
        ++inst_;
      }
    }
  }
  pos_ += static_cast<std::int64_t>(n);
  return n;
}

std::size_t PackCursor::pack(const void *buf, std::span<std::byte> out) {
  return copy<true>(static_cast<std::byte *>(const_cast<void *>(buf)), out.data(), out.size());
}

std::size_t PackCursor::unpack(void *buf, std::span<const std::byte> in) {
  return copy<false>(static_cast<std::byte *>(buf), const_cast<std::byte *>(in.data()), in.size());
}

}  // namespace impi::pack
