#include "pack/datatype.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <limits>

namespace impi::pack {

using base::Errc;
using base::Result;

namespace {

bool mul(std::int64_t a, std::int64_t b, std::int64_t &out) { return !__builtin_mul_overflow(a, b, &out); }
bool add(std::int64_t a, std::int64_t b, std::int64_t &out) { return !__builtin_add_overflow(a, b, &out); }

Result<TypePtr> overflow(const char *what) {
  return {Errc::invalid_argument, fmt::format("{}: sizes overflow 64 bits", what)};
}

}  // namespace

TypePtr Datatype::predefined(int index) {
  static const std::array<TypePtr, kNumPredefined> table = [] {
    std::array<TypePtr, kNumPredefined> t;
    for (int i = 0; i < kNumPredefined; ++i) {
      auto d = std::shared_ptr<Datatype>(new Datatype);
      const auto &p = pack::predefined(i);
      d->predefined_ = i;
      d->size_ = d->ub_ = p.size;
      d->align_ = p.align;
      if (i != 0 && p.kind != Kind::fortran) d->segments_.push_back({0, 1, i});
      d->finish();
      t[static_cast<size_t>(i)] = d;
    }
    return t;
  }();
  return table[static_cast<size_t>(index)];
}

void Datatype::finish() {
  runs_.clear();
  elements_ = 0;
  true_lb_ = true_ub_ = 0;
  for (const auto &s : segments_) {
    std::int64_t len = s.count * pack::predefined(s.basic).size;
    true_lb_ = &s == &segments_.front() ? s.disp : std::min(true_lb_, s.disp);
    true_ub_ = &s == &segments_.front() ? s.disp + len : std::max(true_ub_, s.disp + len);
    elements_ += s.count;
    if (!runs_.empty() && runs_.back().disp + runs_.back().len == s.disp)
      runs_.back().len += len;
    else
      runs_.push_back({s.disp, len});
  }
  contiguous_ = size_ == 0 || (runs_.size() == 1 && runs_[0].disp == lb_ && extent() == size_);
}

Result<TypePtr> Datatype::from_blocks(Combiner c, const std::vector<std::int64_t> &blocklens,
                                      const std::vector<std::int64_t> &byte_disps,
                                      const std::vector<TypePtr> &types) {
  auto d = std::shared_ptr<Datatype>(new Datatype);
  d->combiner_ = c;
  bool have_bounds = false;
  std::int64_t lb = 0, ub = 0;
  // Refuse a typemap too large to flatten before building any of it.
  std::size_t nseg = 0;
  for (std::size_t i = 0; i < blocklens.size(); ++i) {
    const TypePtr &t = types[i];
    if (blocklens[i] <= 0) continue;
    bool dense = t->segments_.size() == 1 && t->extent() == t->size_;
    std::size_t copies = dense ? 1 : static_cast<std::size_t>(blocklens[i]);
    if (copies > kMaxSegments || t->segments_.size() > kMaxSegments) nseg = kMaxSegments + 1;
    else nseg += copies * t->segments_.size();
    if (nseg > kMaxSegments)
      return {Errc::no_memory,
              fmt::format("the typemap would flatten to more than {} pieces", kMaxSegments)};
  }
  for (std::size_t i = 0; i < blocklens.size(); ++i) {
    const TypePtr &t = types[i];
    std::int64_t n = blocklens[i];
    if (n < 0) return {Errc::invalid_argument, fmt::format("negative block length {}", n)};
    d->align_ = std::max(d->align_, t->align_);
    d->explicit_bounds_ = d->explicit_bounds_ || t->explicit_bounds_;
    if (n == 0) continue;
    std::int64_t ext = t->extent(), bytes, last, lo, hi;
    if (!mul(n, t->size_, bytes) || !add(d->size_, bytes, d->size_) || !mul(n - 1, ext, last))
      return overflow("datatype");
    // Bounds of the first and the last copy (extent may be negative).
    if (!add(byte_disps[i], t->lb_, lo) || !add(lo, last, hi)) return overflow("datatype");
    std::int64_t block_lb = std::min(lo, hi), block_ub = std::max(lo, hi) + ext;
    lb = have_bounds ? std::min(lb, block_lb) : block_lb;
    ub = have_bounds ? std::max(ub, block_ub) : block_ub;
    have_bounds = true;
    // Flatten: n copies of t's segments, one extent apart, merging neighbours.
    bool dense = t->segments_.size() == 1 && ext == t->size_;
    std::size_t copies = dense ? 1 : static_cast<std::size_t>(n);
    for (std::size_t j = 0; j < copies; ++j) {
      for (const auto &s : t->segments_) {
        Segment seg{byte_disps[i] + static_cast<std::int64_t>(j) * ext + s.disp,
                    dense ? s.count * n : s.count, s.basic};
        auto &v = d->segments_;
        if (!v.empty() && v.back().basic == seg.basic &&
            v.back().disp + v.back().count * pack::predefined(seg.basic).size == seg.disp)
          v.back().count += seg.count;
        else
          v.push_back(seg);
      }
    }
  }
  d->lb_ = lb;
  d->ub_ = ub;
  // MPI 4.1.6: a struct's extent is padded to its strictest alignment
  // (unless a constituent has explicitly set bounds).
  if (c == Combiner::struct_ && !d->explicit_bounds_ && d->align_ > 1) {
    std::int64_t e = d->ub_ - d->lb_, r = e % d->align_;
    if (r != 0) d->ub_ += d->align_ - r;
  }
  d->finish();
  return TypePtr(d);
}

Result<TypePtr> Datatype::contiguous(std::int64_t count, const TypePtr &old) {
  if (count < 0) return {Errc::invalid_argument, fmt::format("negative count {}", count)};
  auto r = from_blocks(Combiner::contiguous, {count}, {0}, {old});
  if (!r) return r;
  auto d = std::const_pointer_cast<Datatype>(r.value());
  d->ints_ = {count};
  d->types_ = {old};
  return r;
}

Result<TypePtr> Datatype::vector(std::int64_t count, std::int64_t blocklen, std::int64_t stride,
                                 const TypePtr &old, bool stride_bytes) {
  if (count < 0 || blocklen < 0)
    return {Errc::invalid_argument, fmt::format("negative count {} or block length {}", count, blocklen)};
  std::vector<std::int64_t> lens(static_cast<size_t>(count), blocklen), disps;
  disps.reserve(static_cast<size_t>(count));
  std::int64_t step;
  if (!mul(stride, stride_bytes ? 1 : old->extent(), step)) return overflow("vector");
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t disp;
    if (!mul(i, step, disp)) return overflow("vector");
    disps.push_back(disp);
  }
  auto r = from_blocks(stride_bytes ? Combiner::hvector : Combiner::vector, lens, disps,
                       std::vector<TypePtr>(static_cast<size_t>(count), old));
  if (!r) return r;
  auto d = std::const_pointer_cast<Datatype>(r.value());
  d->ints_ = stride_bytes ? std::vector<std::int64_t>{count, blocklen}
                          : std::vector<std::int64_t>{count, blocklen, stride};
  if (stride_bytes) d->aints_ = {stride};
  d->types_ = {old};
  return r;
}

Result<TypePtr> Datatype::indexed(const std::vector<std::int64_t> &blocklens,
                                  const std::vector<std::int64_t> &disps, const TypePtr &old,
                                  bool disp_bytes) {
  std::vector<std::int64_t> bd(disps.size());
  for (std::size_t i = 0; i < disps.size(); ++i)
    if (!mul(disps[i], disp_bytes ? 1 : old->extent(), bd[i])) return overflow("indexed");
  auto r = from_blocks(disp_bytes ? Combiner::hindexed : Combiner::indexed, blocklens, bd,
                       std::vector<TypePtr>(blocklens.size(), old));
  if (!r) return r;
  auto d = std::const_pointer_cast<Datatype>(r.value());
  d->ints_ = {static_cast<std::int64_t>(blocklens.size())};
  d->ints_.insert(d->ints_.end(), blocklens.begin(), blocklens.end());
  if (disp_bytes)
    d->aints_ = disps;
  else
    d->ints_.insert(d->ints_.end(), disps.begin(), disps.end());
  d->types_ = {old};
  return r;
}

Result<TypePtr> Datatype::indexed_block(std::int64_t blocklen, const std::vector<std::int64_t> &disps,
                                        const TypePtr &old, bool disp_bytes) {
  if (blocklen < 0) return {Errc::invalid_argument, fmt::format("negative block length {}", blocklen)};
  std::vector<std::int64_t> bd(disps.size());
  for (std::size_t i = 0; i < disps.size(); ++i)
    if (!mul(disps[i], disp_bytes ? 1 : old->extent(), bd[i])) return overflow("indexed_block");
  auto r = from_blocks(disp_bytes ? Combiner::hindexed_block : Combiner::indexed_block,
                       std::vector<std::int64_t>(disps.size(), blocklen), bd,
                       std::vector<TypePtr>(disps.size(), old));
  if (!r) return r;
  auto d = std::const_pointer_cast<Datatype>(r.value());
  d->ints_ = {static_cast<std::int64_t>(disps.size()), blocklen};
  if (disp_bytes)
    d->aints_ = disps;
  else
    d->ints_.insert(d->ints_.end(), disps.begin(), disps.end());
  d->types_ = {old};
  return r;
}

Result<TypePtr> Datatype::struct_(const std::vector<std::int64_t> &blocklens,
                                  const std::vector<std::int64_t> &disps,
                                  const std::vector<TypePtr> &types) {
  auto r = from_blocks(Combiner::struct_, blocklens, disps, types);
  if (!r) return r;
  auto d = std::const_pointer_cast<Datatype>(r.value());
  d->ints_ = {static_cast<std::int64_t>(blocklens.size())};
  d->ints_.insert(d->ints_.end(), blocklens.begin(), blocklens.end());
  d->aints_ = disps;
  d->types_ = types;
  return r;
}

Result<TypePtr> Datatype::resized(const TypePtr &old, std::int64_t lb, std::int64_t extent) {
  auto d = std::shared_ptr<Datatype>(new Datatype(*old));
  d->predefined_ = -1;
  d->combiner_ = Combiner::resized;
  d->lb_ = lb;
  if (!add(lb, extent, d->ub_)) return overflow("resized");
  d->explicit_bounds_ = true;
  d->ints_.clear();
  d->aints_ = {lb, extent};
  d->types_ = {old};
  d->finish();
  return TypePtr(d);
}

Result<TypePtr> Datatype::dup(const TypePtr &old) {
  auto d = std::shared_ptr<Datatype>(new Datatype(*old));
  d->predefined_ = -1;
  d->combiner_ = Combiner::dup;
  d->ints_.clear();
  d->aints_.clear();
  d->types_ = {old};
  return TypePtr(d);
}

}  // namespace impi::pack
