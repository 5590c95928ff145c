#include "pack/cursor.hpp"

#include <algorithm>
#include <cstring>

namespace impi::pack {

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

template <bool kPack, int kLen>
std::size_t PackCursor::strided_runs(std::byte *user, std::byte *packed, std::size_t n) {
  const auto &sv = type_->strided();
  const std::size_t nruns = type_->runs().size();
  const std::int64_t ext = type_->extent();
  std::size_t done = 0;
  // Finish a run begun by an earlier call byte-wise: the generic loop does it.
  if (in_run_ != 0) return 0;
  while (done + kLen <= n) {
    std::byte *base = user + inst_ * ext + sv.first;
    std::size_t can = std::min((n - done) / kLen, nruns - run_);
    std::byte *u = base + static_cast<std::int64_t>(run_) * sv.stride;
    std::byte *p = packed + done;
    for (std::size_t k = 0; k < can; ++k, u += sv.stride, p += kLen) {
      if constexpr (kPack)
        std::memcpy(p, u, kLen);
      else
        std::memcpy(u, p, kLen);
    }
    done += can * kLen;
    run_ += can;
    if (run_ == nruns) {
      run_ = 0;
      ++inst_;
    }
  }
  return done;
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
  const auto &sv = type_->strided();
  if (sv.len > 0 && sv.len <= 16) {
    // Small runs at a fixed stride: whole runs with a constant-size copy
    // (one load and one store for 8 bytes), addresses computed.
    switch (sv.len) {
      case 1:
        done = strided_runs<kPack, 1>(user, packed, n);
        break;
      case 2:
        done = strided_runs<kPack, 2>(user, packed, n);
        break;
      case 4:
        done = strided_runs<kPack, 4>(user, packed, n);
        break;
      case 8:
        done = strided_runs<kPack, 8>(user, packed, n);
        break;
      case 16:
        done = strided_runs<kPack, 16>(user, packed, n);
        break;
      default:
        break;
    }
  }
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
