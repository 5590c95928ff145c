// cma_reads.cpp - single copy between the procs of one node: the receiver
// of a large message reads it straight from the sender's buffer
// (transport/shm/cma.hpp), in batches of several small ones, or split in
// two halves with the sender, which writes the second one into ours.
#include <fmt/core.h>
#include <sched.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/log.hpp"
#include "core/communicator.hpp"
#include "core/p2p.hpp"
#include "core/shm/shm_channel.hpp"
#include "transport/shm/cma.hpp"

namespace impi::core {

using transport::shm::cma_read;
using transport::shm::cma_write;
using transport::shm::mark_defined;

std::int64_t ShmChannel::split_threshold_for(const Request &r, const RingPeer &p,
                                             std::int64_t len) const {
  // In an exchange both ways (we are sending to that peer as well) its core
  // is busy with its own receives: there the split pays only for large
  // halves (measured with bibw: 0.8-0.94x at 256 KiB, 1.2x at 1 MiB), so it
  // has a threshold of its own.
  bool two_way = std::any_of(awaiting_ack_.begin(), awaiting_ack_.end(), [&](const RequestPtr &q) {
    return q->rendezvous && q->peer == p.world;
  });
  // Nor beyond the largest two-way size: there the sender's half crosses
  // the cores' caches (L2 here: 2 MiB) both ways, and at 4 MiB a split took
  // 0.96x of Open MPI's bidirectional bandwidth, none 1.01x.
  if (two_way && split_two_way_max_ > 0 && len > split_two_way_max_) return 0;
  std::int64_t threshold = two_way ? split_two_way_ : split_threshold_;
  // A collective's message is mostly reduced or forwarded at once, from our
  // core's cache.
  if (is_collective_context(r.context))
    threshold = coll_split_threshold_ == 0 ? 0 : std::max(threshold, coll_split_threshold_);
  return threshold;
}

bool ShmChannel::batch_read(const RequestPtr &r, int peer_local, std::uint64_t addr,
                            std::int64_t len, std::uint64_t id) {
  // (The cheap tests first: the split test scans the sends awaiting acks,
  // and read_remote() repeats it for a message not batched.)
  if (read_batch_max_ <= 1 || peer_local < 0 || peer_local != batch_peer_ || len > r->total ||
      len >= kBatchBytes /* the call's cost is small beside the copy */ ||
      !r->cursor->type().is_contiguous())
    return false;
  const RingPeer &p = peers_[static_cast<size_t>(peer_local)];
  std::int64_t threshold = split_threshold_for(*r, p, len);
  if (threshold > 0 && len >= threshold && id != 0) return false;  // read_remote() offers a split
  r->moved = len;
  read_batch_.push_back({r, addr, id});
  batch_bytes_ += len;
  // (Its first message waits for the last one: its sender's request too.)
  if (read_batch_.size() >= read_batch_max_ || batch_bytes_ >= kBatchBytes) flush_reads();
  return true;
}

void ShmChannel::flush_reads() {
  if (read_batch_.empty()) return;
  RingPeer &p = peers_[static_cast<size_t>(batch_peer_)];
  iovec local[kReadBatch], remote[kReadBatch];
  std::size_t n = read_batch_.size(), want = 0;
  for (std::size_t i = 0; i < n; ++i) {
    Request &r = *read_batch_[i].r;
    local[i] = {static_cast<std::byte *>(r.recv_buf) + r.cursor->type().lb(),
                static_cast<std::size_t>(r.moved)};
    remote[i] = {reinterpret_cast<void *>(read_batch_[i].addr), local[i].iov_len};
    want += local[i].iov_len;
  }
  ssize_t got = ::process_vm_readv(static_cast<pid_t>(p.pid), local, n, remote, n, 0);
  if (n > 1)
    base::log_debug("read {} messages ({} bytes) from rank {} in one call", n, want, p.world);
  // Short (or failed): the kernel stops at the first fault, or after about
  // 2 GiB (MAX_RW_COUNT) a call; the bytes it did move are in place. Read
  // the rest of each message on its own then, and report the ones that
  // cannot be read.
  const bool whole = got >= 0 && static_cast<std::size_t>(got) == want;
  std::size_t moved = got > 0 ? static_cast<std::size_t>(got) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    Request &r = *read_batch_[i].r;
    const std::size_t have = std::min(moved, local[i].iov_len);
    moved -= have;
    if (!whole && have < local[i].iov_len &&
        !cma_read(p.pid, read_batch_[i].addr + have,
                  static_cast<std::byte *>(local[i].iov_base) + have, local[i].iov_len - have)) {
      base::log_error("reading a {}-byte message from rank {} failed: {}", r.moved, p.world,
                      std::strerror(errno));
      r.status.error = kTransportError;
    }
    matched(batch_peer_, read_batch_[i].sync_id, nullptr);  // the ack releases the sender's buffer
    P2P::finish_recv(r);
  }
  read_batch_.clear();
  batch_bytes_ = 0;
}

bool ShmChannel::run_deferred_reads() {
  auto reads = std::move(deferred_reads_);
  deferred_reads_.clear();
  for (DeferredRead &d : reads) {
    count_queued(-1);
    read_remote(*d.r, d.peer_local, d.addr, d.len, d.sync_id);
    matched(d.peer_local, d.sync_id, nullptr);
    P2P::finish_recv(*d.r);
  }
  return !reads.empty();
}

void ShmChannel::read_remote(Request &r, int peer_local, std::uint64_t addr, std::int64_t len,
                             std::uint64_t id) {
  RingPeer &p = peers_[static_cast<size_t>(peer_local)];
  std::int64_t want = std::min(len, r.total);
  bool ok;
  std::int64_t threshold = split_threshold_for(r, p, len);
  if (threshold > 0 && len >= threshold && want == len && id != 0 &&
      r.cursor->type().is_contiguous()) {
    auto *dst = static_cast<std::byte *>(r.recv_buf) + r.cursor->type().lb();
    Split &s = p.in.counters().split;
    std::int64_t half = (len / 2) & ~std::int64_t{4095};
    s.to = reinterpret_cast<std::uint64_t>(dst + half);
    s.from = static_cast<std::uint64_t>(half);
    s.len = static_cast<std::uint64_t>(len - half);
    std::uint64_t offered = (id << 3) | Split::kOffered;
    s.state.store(offered, std::memory_order_release);
    p.seg.ring_doorbell();  // the sender may be asleep in a wait
    ok = cma_read(p.pid, addr, dst, static_cast<std::size_t>(half));
    if (s.state.compare_exchange_strong(offered, 0, std::memory_order_acq_rel)) {
      // Not taken: the rest is ours too.
      base::log_debug("split copy of {} bytes from rank {}: the sender was busy, read it all", len,
                      p.world);
      ok = cma_read(p.pid, addr + static_cast<std::uint64_t>(half), dst + half,
                    static_cast<std::size_t>(len - half)) &&
           ok;
    } else {
      // Taken: the sender is copying now, inside an MPI call of its own.
      std::uint64_t st;
      for (int spins = 0; ((st = s.state.load(std::memory_order_acquire)) & 7) == Split::kTaken;)
        if (++spins > 256) sched_yield();
      base::log_debug("split copy of {} bytes from rank {}: the sender wrote the second half ({})",
                      len, p.world, (st & 7) == Split::kDone ? "ok" : "failed");
      if ((st & 7) != Split::kDone)  // it could not write to us: read it ourselves
        ok = cma_read(p.pid, addr + static_cast<std::uint64_t>(half), dst + half,
                      static_cast<std::size_t>(len - half)) &&
             ok;
      else  // another process wrote it: tell memcheck, which cannot see that
        mark_defined(dst + half, static_cast<std::size_t>(len - half));
      s.state.store(0, std::memory_order_relaxed);
    }
  } else if (r.cursor->type().is_contiguous()) {
    ok = cma_read(p.pid, addr, static_cast<std::byte *>(r.recv_buf) + r.cursor->type().lb(),
                  static_cast<std::size_t>(want));
  } else {
    std::vector<std::byte> tmp(static_cast<size_t>(want));
    ok = cma_read(p.pid, addr, tmp.data(), tmp.size());
    if (ok) r.cursor->unpack(r.recv_buf, tmp);
  }
  r.moved = len;
  if (!ok) {
    base::log_error("reading a {}-byte message from rank {} failed: {}", len, p.world,
                    std::strerror(errno));
    r.status.error = kTransportError;
  }
}

bool ShmChannel::serve_split_offers() {
  // Only when we expect no data ourselves: a sender with receives posted
  // (an exchange both ways) keeps its core for those (measured: bidirectional
  // bandwidth drops otherwise); the receiver takes its offer back as soon as
  // its own half is done.
  if (e_.match_.any_posted()) return false;
  bool any = false;
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    RingPeer &p = peers_[i];
    if (static_cast<int>(i) == my_local_ || !p.cma) continue;
    Split &s = p.out.counters().split;  // the receiver's offers for our messages
    std::uint64_t st = s.state.load(std::memory_order_acquire);
    if ((st & 7) != Split::kOffered) continue;
    std::uint64_t id = st >> 3;
    auto it = std::find_if(awaiting_ack_.begin(), awaiting_ack_.end(), [&](const RequestPtr &r) {
      return r->rendezvous && r->id == id && r->peer == p.world;
    });
    if (it == awaiting_ack_.end()) continue;
    if (!s.state.compare_exchange_strong(st, (id << 3) | Split::kTaken, std::memory_order_acq_rel))
      continue;  // the receiver took it back
    const Request &r = **it;
    bool ok = s.from <= static_cast<std::uint64_t>(r.total) &&
              s.len <= static_cast<std::uint64_t>(r.total) - s.from &&
              cma_write(p.pid, s.to,
                        static_cast<const std::byte *>(r.send_buf) + r.type->lb() + s.from, s.len);
    s.state.store((id << 3) | (ok ? Split::kDone : Split::kFailed), std::memory_order_release);
    any = true;
  }
  return any;
}

}  // namespace impi::core
