// attach_table.cpp - dynamic windows' attach tables (attach_table.hpp).
#include "rma/attach_table.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>

namespace impi::rma {

namespace {

// A segment: a header line, then the entries.
struct Entry {
  std::atomic<std::uint64_t> base;
  std::atomic<std::uint64_t> size;
};
constexpr std::size_t kHeader = 64;  // holds the capacity (entries)
constexpr std::uint64_t kFirstCapacity = 256;

std::atomic<std::uint64_t> g_serial{0};  // this process's segments

std::string segment_name(const std::string &prefix, std::int64_t pid, std::uint64_t serial) {
  return fmt::format("{}{}-{}", prefix, pid, serial);
}

Entry *entries(char *seg) {
  return reinterpret_cast<Entry *>(seg + kHeader);
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

// ---- the owner

AttachTable::AttachTable(AttachCtl *ctl, std::string prefix)
    : ctl_(ctl), prefix_(std::move(prefix)) {
  ctl_->pid.store(::getpid(), std::memory_order_relaxed);
}

AttachTable::~AttachTable() = default;  // (the segments unlink their names)

std::size_t AttachTable::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return regions_.size();
}

base::Status AttachTable::attach(std::uint64_t base, std::uint64_t size) {
  std::lock_guard<std::mutex> lk(mu_);
  if (size == 0) return {};
  if (base + size < base)
    return {base::Errc::invalid_argument, "the region wraps around the address space"};
  // The first region that ends after `base`: it must begin at or after our end.
  auto at =
      std::lower_bound(regions_.begin(), regions_.end(), base,
                       [](const auto &r, std::uint64_t b) { return r.first + r.second <= b; });
  if (at != regions_.end() && at->first < base + size)
    return {base::Errc::invalid_argument,
            fmt::format("{:#x}..{:#x} overlaps the attached region {:#x}..{:#x}", base, base + size,
                        at->first, at->first + at->second)};
  const auto from = static_cast<std::size_t>(at - regions_.begin());
  regions_.insert(at, {base, size});
  if (base::Status s = publish(from); !s.ok()) {
    regions_.erase(regions_.begin() + static_cast<std::ptrdiff_t>(from));
    return s;
  }
  return {};
}

base::Status AttachTable::detach(std::uint64_t base) {
  std::lock_guard<std::mutex> lk(mu_);
  auto at = std::lower_bound(regions_.begin(), regions_.end(), base,
                             [](const auto &r, std::uint64_t b) { return r.first < b; });
  if (at == regions_.end() || at->first != base)
    return {base::Errc::not_found, "no region is attached at that address"};
  const auto from = static_cast<std::size_t>(at - regions_.begin());
  regions_.erase(at);
  return publish(from);  // (shrinking needs no new segment)
}

base::Status AttachTable::publish(std::size_t from) {
  const std::uint64_t n = regions_.size();
  if (n > capacity_) {  // a new segment, filled before anyone can see it
    std::uint64_t cap = std::max(kFirstCapacity, capacity_ * 2);
    while (cap < n) cap *= 2;
    const std::uint64_t serial = g_serial.fetch_add(1, std::memory_order_relaxed) + 1;
    auto seg = SharedRegion::create(segment_name(prefix_, ::getpid(), serial),
                                    kHeader + cap * sizeof(Entry));
    if (!seg)
      return {base::Errc::no_memory,
              fmt::format("no room for a table of {} attached regions: {}", cap, seg.message())};
    std::memcpy(seg->base(), &cap, sizeof cap);
    Entry *e = entries(seg->base());
    for (std::uint64_t i = 0; i < n; ++i) {
      e[i].base.store(regions_[i].first, std::memory_order_release);
      e[i].size.store(regions_[i].second, std::memory_order_release);
    }
    const std::uint64_t s = ctl_->seq.load(std::memory_order_relaxed);
    ctl_->seq.store(s + 1, std::memory_order_relaxed);
    ctl_->serial.store(serial, std::memory_order_release);
    ctl_->count.store(n, std::memory_order_release);
    ctl_->seq.store(s + 2, std::memory_order_release);
    if (!segments_.empty()) segments_.back().unlink();  // (mapped until the window goes)
    segments_.push_back(std::move(*seg));
    capacity_ = cap;
    return {};
  }
  Entry *e = entries(segments_.back().base());
  const std::uint64_t s = ctl_->seq.load(std::memory_order_relaxed);
  ctl_->seq.store(s + 1, std::memory_order_relaxed);
  for (std::uint64_t i = from; i < n; ++i) {
    e[i].base.store(regions_[i].first, std::memory_order_release);
    e[i].size.store(regions_[i].second, std::memory_order_release);
  }
  ctl_->count.store(n, std::memory_order_release);
  ctl_->seq.store(s + 2, std::memory_order_release);
  return {};
}

// ---- readers

struct AttachView::Mapping {
  std::uint64_t serial = 0;
  SharedRegion seg;
  const Entry *entries = nullptr;
  std::uint64_t capacity = 0;
};

AttachView::AttachView(std::string prefix) : prefix_(std::move(prefix)) {}
AttachView::~AttachView() = default;

const AttachView::Mapping *AttachView::mapping(std::int64_t pid, std::uint64_t serial) {
  const Mapping *m = current_.load(std::memory_order_acquire);
  if (m && m->serial == serial) return m;
  std::lock_guard<std::mutex> lk(mu_);
  for (const auto &k : mappings_)
    if (k->serial == serial) {
      current_.store(k.get(), std::memory_order_release);
      return k.get();
    }
  auto seg = SharedRegion::open(segment_name(prefix_, pid, serial));
  if (!seg || seg->bytes() < kHeader) return nullptr;  // (replaced meanwhile, or gone)
  auto k = std::make_unique<Mapping>();
  k->serial = serial;
  std::memcpy(&k->capacity, seg->base(), sizeof k->capacity);
  k->capacity = std::min<std::uint64_t>(k->capacity, (seg->bytes() - kHeader) / sizeof(Entry));
  k->entries = entries(seg->base());
  k->seg = std::move(*seg);
  current_.store(k.get(), std::memory_order_release);
  mappings_.push_back(std::move(k));
  return mappings_.back().get();
}

base::Result<bool> AttachView::covers(const AttachCtl &ctl, std::uint64_t lo, std::uint64_t hi) {
  for (;;) {
    const std::uint64_t s = ctl.seq.load(std::memory_order_acquire);
    if (s & 1) {
      cpu_relax();
      continue;
    }
    const std::uint64_t serial = ctl.serial.load(std::memory_order_acquire);
    std::uint64_t n = ctl.count.load(std::memory_order_acquire);
    bool found = false;
    if (serial != 0 && n != 0) {
      const Mapping *m = mapping(ctl.pid.load(std::memory_order_relaxed), serial);
      if (!m) {
        if (ctl.seq.load(std::memory_order_acquire) != s) continue;  // (it grew meanwhile)
        return {base::Errc::io_error, "the table of attached regions cannot be mapped"};
      }
      n = std::min(n, m->capacity);
      const Entry *e = m->entries;
      // The last region that begins at or before `lo`, then the ones that touch it.
      std::uint64_t first = 0, count = n;
      while (count > 0) {
        std::uint64_t half = count / 2;
        if (e[first + half].base.load(std::memory_order_acquire) <= lo) {
          first += half + 1;
          count -= half + 1;
        } else {
          count = half;
        }
      }
      if (first > 0) {
        std::uint64_t i = first - 1;
        std::uint64_t end =
            e[i].base.load(std::memory_order_acquire) + e[i].size.load(std::memory_order_acquire);
        while (end < hi && ++i < n && e[i].base.load(std::memory_order_acquire) == end)
          end += e[i].size.load(std::memory_order_acquire);
        found = lo < end && hi <= end;
      }
    }
    // The acquire loads above keep this re-check after them: if any of them
    // saw a writer's store, this sees its odd sequence (no fence: TSan has none).
    if (ctl.seq.load(std::memory_order_relaxed) == s) return found;
  }
}

}  // namespace impi::rma
