#include "pack/datatype.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <limits>

namespace impi::pack {

using base::Errc;
using base::Result;

namespace {

bool mul(std::int64_t a, std::int64_t b, std::int64_t &out) {
  return !__builtin_mul_overflow(a, b, &out);
}
bool add(std::int64_t a, std::int64_t b, std::int64_t &out) {
  return !__builtin_add_overflow(a, b, &out);
}

// The bytes a segment's elements span natively: copies of a type made of
// one segment, one extent apart, are one longer segment when the extent is
// this (not the type's size: a pair's padding is no data, MPI_DOUBLE_INT
// resized to 12 bytes leaves its copies 12 bytes apart, not 16).
std::int64_t native_span(const Segment &s) {
  return s.count * pack::predefined(s.basic).size;
}

Result<TypePtr> overflow(const char *what) {
  return {Errc::invalid_argument, fmt::format("{}: sizes overflow 64 bits", what)};
}

}  // namespace

const TypePtr &Datatype::predefined(int index) {
  static const std::array<TypePtr, kNumPredefined> table = [] {
    std::array<TypePtr, kNumPredefined> t;
    for (int i = 0; i < kNumPredefined; ++i) {
      auto d = std::shared_ptr<Datatype>(new Datatype);
      const auto &p = pack::predefined(i);
      d->predefined_ = i;
      d->size_ = data_bytes(p);
      d->ub_ = p.size;
      d->align_ = p.align;
      if (i != 0) d->segments_.push_back({0, 1, i});
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
  auto add_run = [this](std::int64_t disp, std::int64_t len) {
    if (!runs_.empty() && runs_.back().disp + runs_.back().len == disp)
      runs_.back().len += len;
    else
      runs_.push_back({disp, len});
  };
  for (const auto &s : segments_) {
    const Predefined &p = pack::predefined(s.basic);
    std::int64_t stride = p.size, data = data_bytes(p);
    // Data ends `data` bytes into the last element, except in a pair (its index).
    std::int64_t tail =
        p.kind == Kind::pair ? p.pair_int_offset + pack::predefined(p.pair_index).size : data;
    std::int64_t end = s.disp + (s.count - 1) * stride + tail;
    true_lb_ = &s == &segments_.front() ? s.disp : std::min(true_lb_, s.disp);
    true_ub_ = &s == &segments_.front() ? end : std::max(true_ub_, end);
    elements_ += s.count * elements_in(p);
    if (p.kind != Kind::pair) {
      add_run(s.disp, s.count * stride);
      continue;
    }
    for (std::int64_t k = 0; k < s.count; ++k) {  // value, index; not the padding
      add_run(s.disp + k * stride, pack::predefined(p.pair_value).size);
      add_run(s.disp + k * stride + p.pair_int_offset, pack::predefined(p.pair_index).size);
    }
  }
  contiguous_ = size_ == 0 || (runs_.size() == 1 && runs_[0].disp == lb_ && extent() == size_);
  strided_ = {};
  if (runs_.size() >= 2) {
    std::int64_t len = runs_[0].len, stride = runs_[1].disp - runs_[0].disp;
    bool uniform = true;
    for (std::size_t i = 1; i < runs_.size() && uniform; ++i)
      uniform = runs_[i].len == len && runs_[i].disp - runs_[i - 1].disp == stride;
    if (uniform) strided_ = {runs_[0].disp, stride, len};
  }
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
    bool dense = t->segments_.size() == 1 && t->extent() == native_span(t->segments_[0]);
    std::size_t copies = dense ? 1 : static_cast<std::size_t>(blocklens[i]);
    if (copies > kMaxSegments || t->segments_.size() > kMaxSegments)
      nseg = kMaxSegments + 1;
    else
      nseg += copies * t->segments_.size();
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
    bool dense = t->segments_.size() == 1 && ext == native_span(t->segments_[0]);
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
    return {Errc::invalid_argument,
            fmt::format("negative count {} or block length {}", count, blocklen)};
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

Result<TypePtr> Datatype::indexed_block(std::int64_t blocklen,
                                        const std::vector<std::int64_t> &disps, const TypePtr &old,
                                        bool disp_bytes) {
  if (blocklen < 0)
    return {Errc::invalid_argument, fmt::format("negative block length {}", blocklen)};
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
  d->large_ = false;
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
  d->large_ = false;
  d->ints_.clear();
  d->aints_.clear();
  d->types_ = {old};
  return TypePtr(d);
}

}  // namespace impi::pack

namespace impi::pack {

TypePtr Datatype::with_envelope(const TypePtr &t, Combiner c, std::vector<std::int64_t> ints,
                                std::vector<TypePtr> types) {
  auto d = std::shared_ptr<Datatype>(new Datatype(*t));
  d->predefined_ = -1;
  d->combiner_ = c;
  d->large_ = false;
  d->ints_ = std::move(ints);
  d->aints_.clear();
  d->types_ = std::move(types);
  return d;
}

TypePtr Datatype::with_large_counts(const TypePtr &t) {
  auto d = std::shared_ptr<Datatype>(new Datatype(*t));
  d->large_ = true;
  return d;
}

TypePtr Datatype::f90(Combiner c, std::vector<std::int64_t> args, int basic) {
  return with_envelope(predefined(basic), c, std::move(args), {});
}

// Places `t` at byte displacement `disp` inside a frame [0, extent).
static Result<TypePtr> framed(const TypePtr &t, std::int64_t disp, std::int64_t extent) {
  auto at = Datatype::indexed({1}, {disp}, t, true);
  if (!at) return at;
  return Datatype::resized(at.value(), 0, extent);
}

Result<TypePtr> Datatype::subarray(const std::vector<std::int64_t> &sizes,
                                   const std::vector<std::int64_t> &subsizes,
                                   const std::vector<std::int64_t> &starts, bool order_c,
                                   const TypePtr &old) {
  const std::size_t n = sizes.size();
  if (n == 0 || subsizes.size() != n || starts.size() != n)
    return {Errc::invalid_argument, "subarray needs ndims >= 1 and matching arrays"};
  for (std::size_t i = 0; i < n; ++i)
    if (sizes[i] < 1 || subsizes[i] < 1 || subsizes[i] > sizes[i] || starts[i] < 0 ||
        starts[i] > sizes[i] - subsizes[i])
      return {Errc::invalid_argument,
              fmt::format("dimension {}: size {}, subsize {}, start {} do not fit", i, sizes[i],
                          subsizes[i], starts[i])};
  // Dimensions from the fastest-varying outwards.
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = order_c ? n - 1 - i : i;
  std::int64_t ext = old->extent(), stride = ext, disp = 0, total = ext;
  TypePtr t = old;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t d = order[k];
    auto next = k == 0 ? contiguous(subsizes[d], t) : vector(subsizes[d], 1, stride, t, true);
    if (!next) return next;
    t = next.value();
    std::int64_t off;
    if (!mul(starts[d], stride, off) || !add(disp, off, disp) || !mul(total, sizes[d], total) ||
        !mul(stride, sizes[d], stride))
      return overflow("subarray");
    if (k == 0) total = ext * sizes[d];
  }
  auto r = framed(t, disp, total);
  if (!r) return r;
  std::vector<std::int64_t> ints{static_cast<std::int64_t>(n)};
  ints.insert(ints.end(), sizes.begin(), sizes.end());
  ints.insert(ints.end(), subsizes.begin(), subsizes.end());
  ints.insert(ints.end(), starts.begin(), starts.end());
  ints.push_back(order_c ? 56 : 57);  // MPI_ORDER_C / MPI_ORDER_FORTRAN
  return with_envelope(r.value(), Combiner::subarray, std::move(ints), {old});
}

// MPI-3.1 4.1.4 (distributed arrays), after the standard's reference
// construction: each dimension's local part is a block or a cyclic pattern
// of elements, built from the fastest-varying dimension outwards; the
// result spans the whole global array (lb 0, extent = product of gsizes).
Result<TypePtr> Datatype::darray(int size, int rank, const std::vector<DarrayDim> &dims,
                                 bool order_c, const TypePtr &old) {
  const std::size_t n = dims.size();
  if (n == 0) return {Errc::invalid_argument, "darray needs ndims >= 1"};
  std::int64_t procs = 1;
  for (const auto &d : dims) {
    if (d.gsize < 1 || d.psize < 1 || d.distrib < 0 || d.distrib > 2)
      return {Errc::invalid_argument, "darray: bad gsize, psize or distribution"};
    if (d.distrib == 0 && d.psize != 1)
      return {Errc::invalid_argument, "darray: MPI_DISTRIBUTE_NONE needs psize 1"};
    procs *= d.psize;
  }
  if (procs != size || rank < 0 || rank >= size)
    return {Errc::invalid_argument,
            fmt::format("darray: the process grid has {} processes, not {}", procs, size)};
  // Process coordinates: the grid is row-major (like MPI_Cart_create).
  std::vector<std::int64_t> coords(n);
  std::int64_t rem = rank, span = size;
  for (std::size_t i = 0; i < n; ++i) {
    span /= dims[i].psize;
    coords[i] = rem / span;
    rem %= span;
  }
  const std::int64_t ext = old->extent();
  TypePtr t = old;
  std::int64_t disp = 0, stride = ext, total = ext;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t d = order_c ? n - 1 - k : k;
    const DarrayDim &dim = dims[d];
    bool innermost = k == 0;
    std::int64_t g = dim.gsize, p = dim.psize, c = coords[d];
    // The global indices this process owns in this dimension, as runs.
    std::vector<std::int64_t> lens, firsts;
    if (dim.distrib != 2) {  // BLOCK (NONE is a block over one process)
      std::int64_t blk = dim.darg == -1 || dim.distrib == 0 ? (g + p - 1) / p : dim.darg;
      if (blk < 1 || blk * p < g)
        return {Errc::invalid_argument,
                fmt::format("darray: block size {} cannot cover {} elements on {} processes", blk,
                            g, p)};
      std::int64_t mine = std::max<std::int64_t>(0, std::min(blk, g - blk * c));
      if (mine > 0) {
        lens.push_back(mine);
        firsts.push_back(blk * c);
      }
    } else {  // CYCLIC(darg): blocks of blk, every p*blk, starting at c*blk
      std::int64_t blk = dim.darg == -1 ? 1 : dim.darg;
      if (blk < 1) return {Errc::invalid_argument, "darray: cyclic block size must be positive"};
      for (std::int64_t at = c * blk; at < g; at += p * blk) {
        lens.push_back(std::min(blk, g - at));
        firsts.push_back(at);
      }
    }
    std::int64_t start = firsts.empty() ? 0 : firsts[0];
    std::vector<std::int64_t> byte_disps;
    for (std::int64_t f : firsts) byte_disps.push_back((f - start) * stride);
    // Consecutive elements of this dimension lie `stride` bytes apart.
    TypePtr unit = t;
    if (!innermost) {
      auto u = resized(t, t->lb(), stride);
      if (!u) return u;
      unit = u.value();
    }
    auto next = indexed(lens, byte_disps, unit, true);
    if (!next) return next;
    t = next.value();
    std::int64_t off;
    if (!mul(start, stride, off) || !add(disp, off, disp)) return overflow("darray");
    if (!mul(stride, g, stride)) return overflow("darray");
    total = stride;
  }
  auto r = framed(t, disp, total);
  if (!r) return r;
  std::vector<std::int64_t> ints{size, rank, static_cast<std::int64_t>(n)};
  for (const auto &d : dims) ints.push_back(d.gsize);
  for (const auto &d : dims) ints.push_back(d.distrib == 0 ? 123 : d.distrib == 1 ? 121 : 122);
  for (const auto &d : dims) ints.push_back(d.darg == -1 ? -49767 : d.darg);
  for (const auto &d : dims) ints.push_back(d.psize);
  ints.push_back(order_c ? 56 : 57);
  return with_envelope(r.value(), Combiner::darray, std::move(ints), {old});
}

}  // namespace impi::pack
