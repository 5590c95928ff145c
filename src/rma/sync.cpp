// sync.cpp - a window's life and its epochs (MPI-3.1 11.5): fence,
// post/start/complete/wait, lock/unlock, flush; attach and detach.
#include <fmt/core.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "mpi.h"
#include "rma/window.hpp"
#include "rma/window_detail.hpp"

namespace impi::rma {

namespace {
std::mutex g_windows_mu;  // the windows the message server visits
std::vector<Window *> g_windows;
// (its size, read without the lock: the progress hook returns at once while empty)
std::atomic<std::size_t> g_nwindows{0};
}  // namespace

void Window::install(core::P2P &p2p) {
  p2p.add_hook([] { return Window::serve_all(); });
}

Window::Window(Config c) : cfg_(std::move(c)) {
  locked_.assign(cfg_.targets.size(), 0);
  if (cfg_.flavor == Flavor::dynamic) {
    attach_views_.resize(cfg_.targets.size());
    for (std::size_t r = 0; r < cfg_.targets.size(); ++r)
      if (cfg_.targets[r].ctl) attach_views_[r] = std::make_unique<AttachView>(cfg_.attach_prefix);
    if (MemberCtl *ctl = target(cfg_.rank).ctl)
      attach_table_ = std::make_unique<AttachTable>(&ctl->attach, cfg_.attach_prefix);
  }
  std::lock_guard<std::mutex> lk(g_windows_mu);
  g_windows.push_back(this);
  g_nwindows.store(g_windows.size(), std::memory_order_release);
  cfg_.p2p->hook_work().fetch_add(1, std::memory_order_relaxed);
}

Window::~Window() {
  {
    std::lock_guard<std::mutex> lk(g_windows_mu);
    g_windows.erase(std::remove(g_windows.begin(), g_windows.end(), this), g_windows.end());
    g_nwindows.store(g_windows.size(), std::memory_order_release);
  }
  cfg_.p2p->hook_work().fetch_sub(1, std::memory_order_relaxed);
}

bool Window::serve_all() {
  if (g_nwindows.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lk(g_windows_mu);
  bool any = false;
  for (Window *w : g_windows) any |= w->serve();
  return any;
}

Error Window::close() {
  Guard g(*this);
  bool locks = lock_all_ || std::any_of(locked_.begin(), locked_.end(), [](auto v) { return v; });
  if (locks || access_open_ || exposure_open_)
    return {MPI_ERR_RMA_SYNC, fmt::format("the window is freed with {} epoch still open",
                                          locks          ? "a lock"
                                          : access_open_ ? "an access (start)"
                                                         : "an exposure (post)")};
  if (Error e = wait_pending(-1)) return e;
  sync();
  if (!cfg_.barrier()) return {MPI_ERR_OTHER, "the barrier of MPI_Win_free failed"};
  // Every origin has its answers: what remains of ours is leaving.
  auto quiet = [&] {
    std::lock_guard<std::mutex> lk(g_windows_mu);
    for (auto &s : sends_)
      if (!cfg_.p2p->completed(*s.first)) return false;
    return incoming_.empty();
  };
  cfg_.p2p->wait_until(quiet);
  return {};
}

// ---- fence

Error Window::fence(int assert) {
  Guard g(*this);
  if (lock_all_ || access_open_ || exposure_open_ ||
      std::any_of(locked_.begin(), locked_.end(), [](auto v) { return v; }))
    return {MPI_ERR_RMA_SYNC, "MPI_Win_fence inside a lock, start or post epoch"};
  Error e = wait_pending(-1);
  sync();
  if (cfg_.one_region)
    region_barrier();
  else if (!cfg_.barrier())
    return {MPI_ERR_OTHER, "the barrier of MPI_Win_fence failed"};
  sync();
  fence_open_ = !(assert &MPI_MODE_NOSUCCEED);
  return e;
}

// A barrier in the shared region (every proc of the window maps it):
// the last to arrive starts the next generation. Waiters make a progress
// pass now and then (the window's own requests, other communicators').
void Window::region_barrier() {
  MemberCtl *c0 = cfg_.targets[0].ctl;
  const std::int32_t gen = c0->bar_generation.load(std::memory_order_acquire);
  if (c0->bar_arrived.fetch_add(1, std::memory_order_acq_rel) == size() - 1) {
    c0->bar_arrived.store(0, std::memory_order_relaxed);
    c0->bar_generation.store(gen + 1, std::memory_order_release);
    return;
  }
  for (unsigned spins = 1; c0->bar_generation.load(std::memory_order_acquire) == gen; ++spins) {
    if ((spins & 255) == 0) {
      cfg_.p2p->progress();
      if (cfg_.p2p->oversubscribed()) sched_yield();
    } else {
      __builtin_ia32_pause();
    }
  }
}

// ---- general active target: post/start/complete/wait

namespace {
bool all_done(core::P2P &p2p, const std::vector<core::RequestPtr> &rs) {
  for (auto &r : rs)
    if (!p2p.completed(*r)) return false;
  return true;
}
}  // namespace

Error Window::post(const std::vector<int> &group, int assert) {
  Guard g(*this);
  (void)assert;
  if (exposure_open_) return {MPI_ERR_RMA_SYNC, "MPI_Win_post while an exposure epoch is open"};
  sync();
  for (int r : group)
    if (!track_send(cfg_.p2p->start_send(*target(r).via, nullptr, 0, detail::byte_type(),
                                         target(r).world, cfg_.rank, kPostTag, cfg_.context,
                                         false)))
      return {MPI_ERR_OTHER, fmt::format("MPI_Win_post could not reach rank {}", r)};
  exposure_group_ = group;
  exposure_open_ = true;
  completions_.clear();
  return {};
}

Error Window::start(const std::vector<int> &group, int assert) {
  Guard g(*this);
  (void)assert;
  if (access_open_) return {MPI_ERR_RMA_SYNC, "MPI_Win_start while an access epoch is open"};
  std::vector<core::RequestPtr> posts;
  for (int r : group)
    posts.push_back(cfg_.p2p->irecv(nullptr, 0, detail::byte_type(), r, kPostTag, cfg_.context,
                                    nullptr, target(r).world));
  if (!all_done(*cfg_.p2p, posts)) cfg_.p2p->wait_until([&] { return all_done(*cfg_.p2p, posts); });
  sync();
  access_group_ = group;
  access_open_ = true;
  return {};
}

Error Window::complete() {
  Guard g(*this);
  if (!access_open_) return {MPI_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start"};
  Error e;
  for (int r : access_group_)
    if (Error f = wait_pending(r); f && !e) e = f;
  sync();
  for (int r : access_group_)
    if (!track_send(cfg_.p2p->start_send(*target(r).via, nullptr, 0, detail::byte_type(),
                                         target(r).world, cfg_.rank, kCompleteTag, cfg_.context,
                                         false)))
      return {MPI_ERR_OTHER, fmt::format("MPI_Win_complete could not reach rank {}", r)};
  access_open_ = false;
  access_group_.clear();
  return e;
}

Error Window::test(bool &flag) {
  Guard g(*this);
  if (!exposure_open_) return {MPI_ERR_RMA_SYNC, "MPI_Win_wait/test without MPI_Win_post"};
  if (completions_.empty())
    for (int r : exposure_group_)
      completions_.push_back(cfg_.p2p->irecv(nullptr, 0, detail::byte_type(), r, kCompleteTag,
                                             cfg_.context, nullptr, target(r).world));
  cfg_.p2p->progress();
  flag = all_done(*cfg_.p2p, completions_);
  if (flag) {
    sync();
    exposure_open_ = false;
    exposure_group_.clear();
    completions_.clear();
  }
  return {};
}

Error Window::wait() {
  Guard g(*this);
  bool flag = false;
  if (Error e = test(flag)) return e;
  if (flag) return {};
  auto held = completions_;
  cfg_.p2p->wait_until([&] { return all_done(*cfg_.p2p, held); });
  return test(flag);
}

// ---- passive target

Error Window::lock(bool exclusive, int t, int assert) {
  Guard g(*this);
  if (t < 0 || t >= size())
    return {MPI_ERR_RANK, fmt::format("rank {} is not in the window's group of {}", t, size())};
  auto &held = locked_[static_cast<std::size_t>(t)];
  if (held || lock_all_)
    return {MPI_ERR_RMA_SYNC, fmt::format("rank {}'s window is already locked by this process", t)};
  if (assert & MPI_MODE_NOCHECK) {
    held = 3;
    return {};
  }
  if (MemberCtl *ctl = target(t).ctl) {
    // Waiting runs the engine: when `t` is this proc, that is what grants
    // the remote requests this lock yields to. Counted among the word's
    // waiters meanwhile (MemberCtl::local_waiting); unlock_word wakes them.
    // (wait_until may ask its predicate again after a yes: remember it.)
    bool got = try_lock_local(ctl, exclusive, false);
    if (!got) {
      ctl->local_waiting.fetch_add(1, std::memory_order_acq_rel);
      cfg_.p2p->wait_until([&] { return got || (got = try_lock_local(ctl, exclusive, true)); });
      ctl->local_waiting.fetch_sub(1, std::memory_order_acq_rel);
    }
  } else {
    RequestHeader h;
    h.kind = Kind::lock;
    h.flags = (exclusive ? kExclusive : 0) | kNoAnswer;
    h.id = static_cast<std::uint32_t>(next_id());
    // Not waited for here (MPI-3.1 11.5.3 lets MPI_Win_lock return before
    // the lock is held): the target serves this origin's requests in order,
    // so the operations that follow wait behind the lock there, and its
    // unlock's answer says that it was held. No answer of its own.
    auto p = std::make_unique<Pending>();
    p->answered = false;
    if (Error e = send_header(t, encode(h), *p)) return e;
    pending_.push_back(std::move(p));
  }
  held = exclusive ? 2 : 1;
  sync();
  return {};
}

Error Window::unlock(int t) {
  Guard g(*this);
  if (t < 0 || t >= size())
    return {MPI_ERR_RANK, fmt::format("rank {} is not in the window's group of {}", t, size())};
  auto &held = locked_[static_cast<std::size_t>(t)];
  if (!held)
    return {MPI_ERR_RMA_SYNC, fmt::format("MPI_Win_unlock: rank {}'s window is not locked", t)};
  Error e;
  if (held != 3 && !target(t).ctl) {
    // Sent behind our operations at once: the target answers it after them.
    RequestHeader h;
    h.kind = Kind::unlock;
    h.id = static_cast<std::uint32_t>(next_id());
    auto p = std::make_unique<Pending>();
    if (Error f = send_header(t, encode(h), *p)) return f;
    pending_.push_back(std::move(p));
    e = wait_pending(t);
  } else {
    e = wait_pending(t);
    sync();
    if (held != 3) {
      MemberCtl *ctl = target(t).ctl;
      unlock_word(ctl);
      // Hand the lock to a request from another client at once; wake
      // the procs of this host that wait for it (asleep on their doorbells).
      if (t == cfg_.rank && ctl->remote_waiting.load(std::memory_order_acquire) > 0)
        cfg_.p2p->progress();
      if (ctl->local_waiting.load(std::memory_order_acquire) > 0) cfg_.p2p->ring_all_doorbells();
    }
  }
  held = 0;
  return e;
}

Error Window::lock_all(int assert) {
  Guard g(*this);
  if (lock_all_ || std::any_of(locked_.begin(), locked_.end(), [](auto v) { return v; }))
    return {MPI_ERR_RMA_SYNC, "MPI_Win_lock_all while a lock epoch is open"};
  for (int t = 0; t < size(); ++t) {
    if (Error e = lock(false, t, assert)) return e;
  }
  std::fill(locked_.begin(), locked_.end(), 0);
  lock_all_ = true;
  lock_all_nocheck_ = (assert &MPI_MODE_NOCHECK) != 0;
  return {};
}

Error Window::unlock_all() {
  Guard g(*this);
  if (!lock_all_) return {MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all without MPI_Win_lock_all"};
  std::fill(locked_.begin(), locked_.end(), lock_all_nocheck_ ? 3 : 1);
  lock_all_ = false;
  // Every target's unlock on its way before waiting for any.
  Error first;
  if (!lock_all_nocheck_)
    for (int t = 0; t < size(); ++t) {
      if (target(t).ctl) continue;
      RequestHeader h;
      h.kind = Kind::unlock;
      h.id = static_cast<std::uint32_t>(next_id());
      auto p = std::make_unique<Pending>();
      if (Error e = send_header(t, encode(h), *p); e && !first) first = e;
      pending_.push_back(std::move(p));
      locked_[static_cast<std::size_t>(t)] = 3;  // (its unlock is sent)
    }
  for (int t = 0; t < size(); ++t)
    if (Error e = unlock(t); e && !first) first = e;
  return first;
}

Error Window::flush(int t) {
  Guard g(*this);
  if (t < 0 || t >= size())
    return {MPI_ERR_RANK, fmt::format("rank {} is not in the window's group of {}", t, size())};
  if (!lock_all_ && !locked_[static_cast<std::size_t>(t)])
    return {MPI_ERR_RMA_SYNC, fmt::format("MPI_Win_flush: rank {} is not locked", t)};
  if (pending_.empty() && !batched_) {  // (memory operations: complete already)
    poll();
    sync();
    return {};
  }
  Error e = wait_pending(t);
  sync();
  return e;
}

Error Window::flush_all() {
  Guard g(*this);
  if (!lock_all_ && std::none_of(locked_.begin(), locked_.end(), [](auto v) { return v; }))
    return {MPI_ERR_RMA_SYNC, "MPI_Win_flush_all outside a passive-target epoch"};
  Error e = wait_pending(-1);
  sync();
  return e;
}

// ---- dynamic windows

Error Window::attach(void *base, std::int64_t bytes) {
  if (cfg_.flavor != Flavor::dynamic)
    return {MPI_ERR_RMA_FLAVOR, "MPI_Win_attach needs a window of MPI_Win_create_dynamic"};
  if (bytes == 0) return {};
  if (!attach_table_) return {MPI_ERR_RMA_ATTACH, "this window has no table of attached regions"};
  base::Status s = attach_table_->attach(reinterpret_cast<std::uintptr_t>(base),
                                         static_cast<std::uint64_t>(bytes));
  if (s.ok()) return {};
  return {s.error() == base::Errc::no_memory ? MPI_ERR_NO_MEM : MPI_ERR_RMA_ATTACH, s.message()};
}

Error Window::detach(const void *base) {
  if (cfg_.flavor != Flavor::dynamic)
    return {MPI_ERR_RMA_FLAVOR, "MPI_Win_detach needs a window of MPI_Win_create_dynamic"};
  if (!attach_table_) return {MPI_ERR_RMA_ATTACH, "MPI_Win_detach: no region attached"};
  base::Status s = attach_table_->detach(reinterpret_cast<std::uintptr_t>(base));
  if (s.ok()) return {};
  return {MPI_ERR_RMA_ATTACH, fmt::format("MPI_Win_detach: {}", s.message())};
}

bool Window::track_send(base::Result<core::RequestPtr> r, std::vector<char> buf) {
  if (!r) return false;
  std::lock_guard<std::mutex> lk(g_windows_mu);
  track_send_locked(*r, std::move(buf));
  return true;
}

void Window::track_send_locked(core::RequestPtr r, std::vector<char> buf) {
  sends_.erase(std::remove_if(sends_.begin(), sends_.end(),
                              [&](auto &s) { return cfg_.p2p->completed(*s.first); }),
               sends_.end());
  sends_.emplace_back(std::move(r), std::move(buf));
}

}  // namespace impi::rma
