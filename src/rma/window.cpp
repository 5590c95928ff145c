// window.cpp - the origin side of one-sided communication: paths,
// operations and epochs (window.hpp). The target side is target.cpp.
#include "rma/window.hpp"

#include <fmt/core.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>

#include "mpi.h"
#include "pack/cursor.hpp"
#include "pack/predefined.hpp"
#include "rma/atomics.hpp"
#include "rma/request_codec.hpp"
#include "rma/window_detail.hpp"
#include "transport/shm/cma.hpp"

namespace impi::rma {

using detail::byte_type;
using detail::pack_all;

Window::Path Window::path(int t) const {
  const Target &x = target(t);
  if (t == cfg_.rank) return Path::self;
  if (x.mapped) return Path::shm;
  if (x.cma_pid && x.ctl) return Path::cma;
  return Path::message;
}

char *Window::local_address(int t, std::int64_t disp) const {
  const Target &x = target(t);
  if (cfg_.flavor == Flavor::dynamic)
    return reinterpret_cast<char *>(static_cast<std::uintptr_t>(disp));
  char *base = x.mapped ? x.mapped : reinterpret_cast<char *>(static_cast<std::uintptr_t>(x.base));
  return base + disp * x.disp_unit;
}

Error Window::check_epoch(int t, const char *what, bool request) const {
  if (t < 0 || t >= size())
    return {MPI_ERR_RANK,
            fmt::format("target rank {} is not in the window's group of {}", t, size())};
  if (request) {  // (MPI-3.1 11.3.5: request-based operations need a passive-target epoch)
    if (lock_all_ || locked_[static_cast<std::size_t>(t)]) return {};
    return {MPI_ERR_RMA_SYNC,
            fmt::format("{} to rank {} outside a lock or lock_all epoch", what, t)};
  }
  if (fence_open_ || lock_all_ || locked_[static_cast<std::size_t>(t)]) return {};
  if (access_open_ &&
      std::find(access_group_.begin(), access_group_.end(), t) != access_group_.end())
    return {};
  return {MPI_ERR_RMA_SYNC,
          fmt::format("{} to rank {} outside an access epoch (no fence, start or lock covers it)",
                      what, t)};
}

Error Window::check_range(int t, std::int64_t disp, std::int64_t count,
                          const pack::Datatype &type) const {
  if (disp < 0 && cfg_.flavor != Flavor::dynamic)
    return {MPI_ERR_DISP, fmt::format("target displacement {} is negative", disp)};
  if (count == 0 || type.size() == 0) return {};
  const Target &x = target(t);
  if (cfg_.flavor == Flavor::dynamic) {
    if (!x.ctl) return {};  // the target checks (message path)
    // (128-bit: a request from another client may carry any numbers)
    const __int128 lo128 = static_cast<__int128>(disp) + type.true_lb();
    const __int128 hi128 = static_cast<__int128>(disp) +
                           static_cast<__int128>(count - 1) * type.extent() + type.true_ub();
    if (lo128 < 0 || hi128 > static_cast<__int128>(UINT64_MAX))
      return {MPI_ERR_RMA_RANGE, "the address range is outside the address space"};
    const auto lo = static_cast<std::uint64_t>(lo128), hi = static_cast<std::uint64_t>(hi128);
    auto in = attach_views_[static_cast<std::size_t>(t)]->covers(x.ctl->attach, lo, hi);
    if (!in)
      return {MPI_ERR_OTHER,
              fmt::format("the regions attached to rank {}'s window: {}", t, in.message())};
    if (*in) return {};
    return {MPI_ERR_RMA_RANGE,
            fmt::format("address {:#x}..{:#x} is in no region attached to rank {}'s window", lo, hi,
                        t)};
  }
  const __int128 lo = static_cast<__int128>(disp) * x.disp_unit + type.true_lb();
  const __int128 hi = static_cast<__int128>(disp) * x.disp_unit +
                      static_cast<__int128>(count - 1) * type.extent() + type.true_ub();
  if (lo < 0 || hi > x.size)
    return {MPI_ERR_RMA_RANGE,
            fmt::format("bytes {}..{} are outside rank {}'s window of {} bytes",
                        static_cast<long long>(lo), static_cast<long long>(hi), t, x.size)};
  return {};
}

// ---- the cross-memory-attach path

Error Window::cma_access(int t, std::uint64_t addr, std::int64_t count, const pack::Datatype &type,
                         char *packed, bool write) {
  const Target &x = target(t);
  std::vector<iovec> remote;
  // One run: no walk over the elements (2 MiB of MPI_CHAR: 2M). The run
  // starts at the type's lower bound, which need not be 0.
  if (type.is_contiguous() && !type.runs().empty()) {
    const auto start = static_cast<std::uint64_t>(type.runs().front().disp);
    if (count * type.size() > 0)
      remote.push_back(
          {reinterpret_cast<void *>(addr + start), static_cast<std::size_t>(count * type.size())});
    count = 0;
  }
  for (std::int64_t i = 0; i < count; ++i)
    for (const auto &r : type.runs()) {
      auto *p =
          reinterpret_cast<void *>(addr + static_cast<std::uint64_t>(i * type.extent() + r.disp));
      if (!remote.empty() &&
          static_cast<char *>(remote.back().iov_base) + remote.back().iov_len == p)
        remote.back().iov_len += static_cast<std::size_t>(r.len);
      else
        remote.push_back({p, static_cast<std::size_t>(r.len)});
    }
  std::size_t done = 0;
  for (std::size_t first = 0; first < remote.size();) {
    std::size_t n = std::min<std::size_t>(remote.size() - first, 1024);
    std::size_t bytes = 0;
    for (std::size_t k = first; k < first + n; ++k) bytes += remote[k].iov_len;
    iovec local{packed + done, bytes};
    ssize_t got =
        write ? ::process_vm_writev(static_cast<pid_t>(x.cma_pid), &local, 1, &remote[first], n, 0)
              : ::process_vm_readv(static_cast<pid_t>(x.cma_pid), &local, 1, &remote[first], n, 0);
    if (got >= 0 && static_cast<std::size_t>(got) < bytes) {
      // The kernel moves at most about 2 GiB a call (MAX_RW_COUNT): the
      // rest of this group run by run, each run in as many calls as it takes.
      std::size_t skip = static_cast<std::size_t>(got);
      char *at = packed + done;
      for (std::size_t k = first; k < first + n; ++k) {
        const std::size_t len = remote[k].iov_len;
        if (skip < len) {
          const auto addr_k = reinterpret_cast<std::uint64_t>(remote[k].iov_base) + skip;
          if (!(write ? transport::shm::cma_write(x.cma_pid, addr_k, at + skip, len - skip)
                      : transport::shm::cma_read(x.cma_pid, addr_k, at + skip, len - skip)))
            break;
          skip = 0;
        } else {
          skip -= len;
        }
        at += len;
        if (k + 1 == first + n) got = static_cast<ssize_t>(bytes);
      }
    }
    if (got != static_cast<ssize_t>(bytes))
      return {MPI_ERR_OTHER, fmt::format("cross-memory {} of rank {}'s window failed: {}",
                                         write ? "write" : "read", t,
                                         got < 0 ? std::strerror(errno) : "short transfer")};
    done += bytes;
    first += n;
  }
  return {};
}

// ---- locks in the control blocks

void Window::lock_acc(MemberCtl *ctl, bool shared) {
  for (int spins = 0;; ++spins) {
    std::int32_t v = ctl->acc_lock.load(std::memory_order_relaxed);
    if (shared ? v >= 0 : v == 0) {
      if (ctl->acc_lock.compare_exchange_weak(v, shared ? v + 1 : -1, std::memory_order_acquire))
        return;
      continue;
    }
    if (spins > 64) sched_yield();  // (the holder may share our core)
  }
}

void Window::unlock_acc(MemberCtl *ctl, bool shared) {
  if (shared)
    ctl->acc_lock.fetch_sub(1, std::memory_order_release);
  else
    ctl->acc_lock.store(0, std::memory_order_release);
}

bool Window::try_lock_word(MemberCtl *ctl, bool exclusive) {
  std::int64_t v = ctl->lock.load(std::memory_order_relaxed);
  if (exclusive) {
    v = 0;
    return ctl->lock.compare_exchange_strong(v, -1, std::memory_order_acquire);
  }
  while (v >= 0)
    if (ctl->lock.compare_exchange_weak(v, v + 1, std::memory_order_acquire)) return true;
  return false;
}

bool Window::try_lock_local(MemberCtl *ctl, bool exclusive, bool waiter) {
  if (ctl->remote_waiting.load(std::memory_order_acquire) > 0) return false;
  if (!waiter && ctl->local_waiting.load(std::memory_order_acquire) > 0) return false;
  return try_lock_word(ctl, exclusive);
}

void Window::unlock_word(MemberCtl *ctl) {
  std::int64_t v = ctl->lock.load(std::memory_order_relaxed);
  if (v < 0)
    ctl->lock.store(0, std::memory_order_release);
  else
    ctl->lock.fetch_sub(1, std::memory_order_release);
}

// ---- operations

Error Window::put(const void *origin, std::int64_t ocount, const pack::TypePtr &otype, int t,
                  std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
                  core::RequestPtr *req) {
  Guard g(*this);
  if (req) req->reset();
  if (Error e = check_epoch(t, req ? "MPI_Rput" : "MPI_Put", req)) return e;
  if (ocount * otype->size() != tcount * ttype->size())
    return {MPI_ERR_TYPE, fmt::format("the origin has {} bytes, the target datatype {}",
                                      ocount * otype->size(), tcount * ttype->size())};
  if (Error e = check_range(t, disp, tcount, *ttype)) return e;
  switch (path(t)) {
    case Path::self:
    case Path::shm:
      detail::copy_typed(static_cast<const char *>(origin), ocount, otype, local_address(t, disp),
                         tcount, ttype);
      poll();
      return {};
    case Path::cma: {
      std::uint64_t addr = reinterpret_cast<std::uintptr_t>(local_address(t, disp));
      if (otype->is_contiguous()) {  // the origin's bytes (from its lb) as they are: no copy
        poll();
        return cma_access(t, addr, tcount, *ttype,
                          const_cast<char *>(static_cast<const char *>(origin)) + otype->lb(),
                          true);
      }
      auto packed = pack_all(origin, ocount, otype);
      poll();
      return cma_access(t, addr, tcount, *ttype, packed.data(), true);
    }
    case Path::message:
      break;
  }
  if (tcount * ttype->size() == 0) return {};  // (nothing to move: no message)
  RequestHeader h;
  h.kind = Kind::put;
  h.id = static_cast<std::uint32_t>(next_id());
  h.disp = disp;
  h.count = tcount;
  h.type = ttype;
  Error e;
  if (send_inline(t, h, origin, ocount, otype, e)) return e;  // (req stays null: complete)
  auto p = std::make_unique<Pending>();
  if (Error f = send_header(t, encode(h), *p)) return f;
  auto data = cfg_.p2p->start_send(*target(t).via, origin, ocount, otype, target(t).world,
                                   cfg_.rank, data_tag(h.id), cfg_.context, false);
  if (!data) return {MPI_ERR_OTHER, data.message()};
  p->sends.push_back(*data);
  if (req) *req = *data;
  pending_.push_back(std::move(p));
  return {};
}

std::optional<std::vector<char>> Window::inline_message(int t, RequestHeader h, const void *origin,
                                                        std::int64_t ocount,
                                                        const pack::TypePtr &otype) {
  const std::int64_t bytes = ocount * otype->size();
  if (bytes > kInlineBytes) return std::nullopt;
  const bool external = target(t).via->external32();
  const pack::Rep rep = external ? target(t).via->wire_rep(target(t).world) : pack::Rep::external32;
  if (external && !detail::inline_convertible(*otype, rep)) return std::nullopt;
  h.flags |= kInline;
  std::vector<char> msg = encode(h);
  const std::size_t at = msg.size();
  msg.resize(at + static_cast<std::size_t>(bytes));
  pack::PackCursor c(otype, ocount);
  c.pack(origin, {reinterpret_cast<std::byte *>(msg.data() + at), static_cast<std::size_t>(bytes)});
  if (external) detail::convert_packed(msg.data() + at, ocount, *otype, true, rep);
  return msg;
}

bool Window::send_inline(int t, RequestHeader h, const void *origin, std::int64_t ocount,
                         const pack::TypePtr &otype, Error &e) {
  auto msg = inline_message(t, std::move(h), origin, ocount, otype);
  if (!msg) return false;
  if (batch_.empty()) batch_.resize(cfg_.targets.size());
  auto &b = batch_[static_cast<std::size_t>(t)];
  if (b.empty()) {
    ++batched_;
    b.reserve(kBatchBytes + kInlineBytes + 256);
  }
  const auto n = static_cast<std::uint32_t>(msg->size());
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  b.insert(b.end(), msg->begin(), msg->end());
  e = b.size() >= kBatchBytes ? flush_batch(t) : Error{};
  return true;
}

Error Window::flush_batch(int t) {
  if (!batched_) return {};
  if (t < 0) {
    Error first;
    for (int r = 0; r < size(); ++r)
      if (Error e = flush_batch(r); e && !first) first = e;
    return first;
  }
  auto &b = batch_[static_cast<std::size_t>(t)];
  if (b.empty()) return {};
  --batched_;
  RequestHeader h;
  h.kind = Kind::batch;
  h.id = static_cast<std::uint32_t>(next_id());
  std::vector<char> msg = encode(h);
  msg.insert(msg.end(), b.begin(), b.end());
  b.clear();
  auto p = std::make_unique<Pending>();
  Error e = send_request(t, std::move(msg), *p);
  pending_.push_back(std::move(p));
  return e;
}

Error Window::get(void *origin, std::int64_t ocount, const pack::TypePtr &otype, int t,
                  std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
                  core::RequestPtr *req) {
  Guard g(*this);
  if (req) req->reset();
  if (Error e = check_epoch(t, req ? "MPI_Rget" : "MPI_Get", req)) return e;
  if (ocount * otype->size() != tcount * ttype->size())
    return {MPI_ERR_TYPE, fmt::format("the origin has room for {} bytes, the target datatype {}",
                                      ocount * otype->size(), tcount * ttype->size())};
  if (Error e = check_range(t, disp, tcount, *ttype)) return e;
  switch (path(t)) {
    case Path::self:
    case Path::shm:
      detail::copy_typed(local_address(t, disp), tcount, ttype, static_cast<char *>(origin), ocount,
                         otype);
      poll();
      return {};
    case Path::cma: {
      poll();
      std::uint64_t addr = reinterpret_cast<std::uintptr_t>(local_address(t, disp));
      if (otype->is_contiguous())  // straight into the origin buffer
        return cma_access(t, addr, tcount, *ttype, static_cast<char *>(origin) + otype->lb(),
                          false);
      std::vector<char> packed(static_cast<std::size_t>(tcount * ttype->size()));
      if (Error e = cma_access(t, addr, tcount, *ttype, packed.data(), false)) return e;
      detail::unpack_all(packed, origin, ocount, otype);
      return {};
    }
    case Path::message:
      break;
  }
  if (tcount * ttype->size() == 0) return {};  // (nothing to move: no message)
  RequestHeader h;
  h.kind = Kind::get;
  h.id = static_cast<std::uint32_t>(next_id());
  h.disp = disp;
  h.count = tcount;
  h.type = ttype;
  auto p = std::make_unique<Pending>();
  p->answer = cfg_.p2p->irecv(origin, ocount, otype, t, answer_tag(h.id), cfg_.context, nullptr,
                              target(t).world);
  p->expect = ocount * otype->size();
  if (Error e = send_header(t, encode(h), *p)) return e;
  if (req) *req = p->answer;
  pending_.push_back(std::move(p));
  return {};
}

namespace {
// The one predefined element type of an accumulate's datatype (MPI-3.1
// 11.3.4: every element of origin, target and result is of one type).
int element_type(const pack::Datatype &t) {
  int basic = -1;
  for (const auto &s : t.segments()) {
    if (basic >= 0 && s.basic != basic) return -1;
    basic = s.basic;
  }
  return basic;
}
}  // namespace

Error Window::accumulate(const void *origin, std::int64_t ocount, const pack::TypePtr &otype,
                         void *result, std::int64_t rcount, const pack::TypePtr &rtype, int t,
                         std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
                         pack::Op op, core::RequestPtr *req) {
  Guard g(*this);
  if (req) req->reset();
  const char *fn = result ? "MPI_Get_accumulate" : "MPI_Accumulate";
  if (Error e = check_epoch(t, fn, req != nullptr)) return e;
  const int basic = element_type(*ttype);
  const bool no_data = op == pack::Op::no_op;
  if (tcount * ttype->size() > 0) {
    if (basic < 0 || (!no_data && ocount * otype->size() > 0 && element_type(*otype) != basic) ||
        (result && rcount * rtype->size() > 0 && element_type(*rtype) != basic))
      return {MPI_ERR_TYPE, fmt::format("{}: origin, target and result datatypes must be made "
                                        "of one predefined type, the same on every side",
                                        fn)};
    if (op != pack::Op::replace && op != pack::Op::no_op && !pack::op_allowed(op, basic))
      return {MPI_ERR_OP, fmt::format("{}: {} is not defined on {}", fn, pack::op_name(op),
                                      pack::predefined(basic).name)};
  }
  const std::int64_t bytes = tcount * ttype->size();
  if ((!no_data && ocount * otype->size() != bytes) || (result && rcount * rtype->size() != bytes))
    return {MPI_ERR_TYPE, fmt::format("{}: the origin, target and result sizes differ", fn)};
  if (Error e = check_range(t, disp, tcount, *ttype)) return e;
  if (bytes == 0) return {};
  const std::int64_t nelem = bytes / detail::element_data(basic);
  if (path(t) != Path::message) {
    poll();
    return accumulate_here(origin, ocount, otype, result, rcount, rtype, t, disp, tcount, ttype, op,
                           basic);
  }
  RequestHeader h;
  h.kind = result ? Kind::get_acc : Kind::acc;
  h.op = static_cast<std::uint32_t>(op);
  h.id = static_cast<std::uint32_t>(next_id());
  h.disp = disp;
  h.count = tcount;
  h.nelem = nelem;
  h.basic = basic;
  h.type = ttype;
  auto p = std::make_unique<Pending>();
  if (result) {
    p->answer = cfg_.p2p->irecv(result, rcount, rtype, t, answer_tag(h.id), cfg_.context, nullptr,
                                target(t).world);
    p->expect = bytes;
  }
  if (!result) {
    Error e;
    if (send_inline(t, h, origin, ocount, otype, e)) return e;
  } else if (!no_data) {  // a fetching accumulate: its data after the header, answered with data
    if (auto msg = inline_message(t, h, origin, ocount, otype)) {
      if (Error e = send_header(t, std::move(*msg), *p)) return e;
      if (req) *req = p->answer;
      pending_.push_back(std::move(p));
      return {};
    }
  }
  if (Error e = send_header(t, encode(h), *p)) return e;
  if (!no_data) {
    auto data = cfg_.p2p->start_send(*target(t).via, origin, ocount, otype, target(t).world,
                                     cfg_.rank, data_tag(h.id), cfg_.context, false);
    if (!data) return {MPI_ERR_OTHER, data.message()};
    p->sends.push_back(*data);
    if (req && !result) *req = *data;
  }
  if (req && result) *req = p->answer;
  pending_.push_back(std::move(p));
  return {};
}

// An accumulate on memory this proc reaches (self, shared memory, CMA).
// The operators work on native arrays of elements (window_detail.hpp):
// buffers that are one already are used in place, the others staged.
Error Window::accumulate_here(const void *origin, std::int64_t ocount, const pack::TypePtr &otype,
                              void *result, std::int64_t rcount, const pack::TypePtr &rtype, int t,
                              std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
                              pack::Op op, int basic) {
  const bool no_data = op == pack::Op::no_op;
  const std::int64_t nelem = tcount * ttype->size() / detail::element_data(basic);
  const bool native = detail::packed_is_native(basic);
  const Path via = path(t);
  std::vector<char> in, old;
  const char *inp = nullptr;
  if (!no_data) {
    if (native && otype->is_contiguous()) {
      inp = static_cast<const char *>(origin) + otype->lb();
    } else {
      in = detail::gather_elements(origin, ocount, otype, basic, nelem);
      inp = in.data();
    }
  }
  char *oldp = nullptr;
  if (result) {
    if (native && rtype->is_contiguous() && via != Path::cma) {
      oldp = static_cast<char *>(result) + rtype->lb();
    } else {
      old.resize(static_cast<std::size_t>(nelem * detail::element_stride(basic)));
      oldp = old.data();
    }
  }
  MemberCtl *ctl = target(t).ctl;
  if (via == Path::cma) {
    // The target's elements are read packed; pairs get their native layout
    // for the operator and lose it again to be written back.
    std::vector<char> cur(static_cast<std::size_t>(nelem * detail::element_data(basic))), elems;
    std::uint64_t addr = reinterpret_cast<std::uintptr_t>(local_address(t, disp));
    lock_acc(ctl);
    Error e = cma_access(t, addr, tcount, *ttype, cur.data(), false);
    if (!e) {
      if (!native) elems = detail::unpack_elements(cur.data(), nelem, basic);
      char *at = native ? cur.data() : elems.data();
      apply_elements(op, basic, at, inp, oldp, nelem, false);
      if (op != pack::Op::no_op) {
        if (!native) detail::pack_elements(elems.data(), nelem, basic, cur.data());
        e = cma_access(t, addr, tcount, *ttype, cur.data(), true);
      }
    }
    unlock_acc(ctl);
    if (e) return e;
  } else {
    detail::apply_local(local_address(t, disp), tcount, *ttype, op, basic, inp, oldp,
                        cfg_.atomics && atomic_capable(basic), ctl);
  }
  if (!old.empty()) detail::scatter_elements(old.data(), nelem, basic, result, rcount, rtype);
  return {};
}

Error Window::compare_and_swap(const void *origin, const void *compare, void *result,
                               const pack::TypePtr &type, int t, std::int64_t disp) {
  Guard g(*this);
  if (Error e = check_epoch(t, "MPI_Compare_and_swap")) return e;
  if (!type->is_predefined())
    return {MPI_ERR_TYPE, "MPI_Compare_and_swap takes one element of a predefined type"};
  if (pack::predefined(type->predefined_index()).kind == pack::Kind::pair)
    return {MPI_ERR_TYPE,
            fmt::format("MPI_Compare_and_swap does not take {} (MPI-3.1 11.3.4: integer, logical "
                        "and byte types)",
                        pack::predefined(type->predefined_index()).name)};
  if (Error e = check_range(t, disp, 1, *type)) return e;
  const int basic = type->predefined_index();
  const std::size_t esize = pack::predefined(basic).size;
  const Path via = path(t);
  if (via != Path::message) poll();
  if (via == Path::self || via == Path::shm) {
    bool atomic = cfg_.atomics && atomic_capable(basic);
    MemberCtl *ctl = target(t).ctl;
    lock_acc(ctl, atomic);
    compare_swap(basic, local_address(t, disp), static_cast<const char *>(compare),
                 static_cast<const char *>(origin), static_cast<char *>(result), atomic);
    unlock_acc(ctl, atomic);
    return {};
  }
  if (via == Path::cma) {
    std::vector<char> cur(esize);
    std::uint64_t addr = reinterpret_cast<std::uintptr_t>(local_address(t, disp));
    MemberCtl *ctl = target(t).ctl;
    lock_acc(ctl);
    Error e = cma_access(t, addr, 1, *type, cur.data(), false);
    if (!e) {
      std::memcpy(result, cur.data(), esize);
      if (std::memcmp(cur.data(), compare, esize) == 0) {
        std::memcpy(cur.data(), origin, esize);
        e = cma_access(t, addr, 1, *type, cur.data(), true);
      }
    }
    unlock_acc(ctl);
    return e;
  }
  RequestHeader h;
  h.kind = Kind::cas;
  h.id = static_cast<std::uint32_t>(next_id());
  h.disp = disp;
  h.count = 1;
  h.nelem = 2;
  h.basic = basic;
  h.type = type;
  auto p = std::make_unique<Pending>();
  p->data.resize(2 * esize);
  std::memcpy(p->data.data(), compare, esize);
  std::memcpy(p->data.data() + esize, origin, esize);
  p->answer =
      cfg_.p2p->irecv(result, 1, type, t, answer_tag(h.id), cfg_.context, nullptr, target(t).world);
  p->expect = static_cast<std::int64_t>(esize);
  if (auto msg = inline_message(t, h, p->data.data(), 2, type)) {
    if (Error e = send_header(t, std::move(*msg), *p)) return e;
    pending_.push_back(std::move(p));
    return {};
  }
  if (Error e = send_header(t, encode(h), *p)) return e;
  auto data = cfg_.p2p->start_send(*target(t).via, p->data.data(), 2, type, target(t).world,
                                   cfg_.rank, data_tag(h.id), cfg_.context, false);
  if (!data) return {MPI_ERR_OTHER, data.message()};
  p->sends.push_back(*data);
  pending_.push_back(std::move(p));
  return {};
}

// ---- the message path's bookkeeping

Error Window::send_header(int t, std::vector<char> header, Pending &p) {
  if (Error e = flush_batch(t)) return e;  // (requests to one target stay in order)
  return send_request(t, std::move(header), p);
}

Error Window::send_request(int t, std::vector<char> header, Pending &p) {
  p.target = t;
  p.header = std::move(header);
  if (!p.answer && p.answered) {  // an acknowledgement: its status
    p.answer = cfg_.p2p->irecv(p.status, 4, byte_type(), t, answer_tag(detail::id_of(p.header)),
                               cfg_.context, nullptr, target(t).world);
  }
  auto s = cfg_.p2p->start_send(*target(t).via, p.header.data(),
                                static_cast<std::int64_t>(p.header.size()), byte_type(),
                                target(t).world, cfg_.rank, kRequestTag, cfg_.context, false);
  if (!s) return {MPI_ERR_OTHER, fmt::format("a one-sided request to rank {}: {}", t, s.message())};
  p.sends.push_back(*s);
  return {};
}

Error Window::wait_pending(int t) {
  Guard g(*this);
  Error batched = flush_batch(t);
  auto mine = [&](const Pending &p) { return t < 0 || p.target == t; };
  auto done = [&] {
    for (auto &p : pending_) {
      if (!mine(*p)) continue;
      if (p->answer && !cfg_.p2p->completed(*p->answer)) return false;
      for (auto &s : p->sends)
        if (!cfg_.p2p->completed(*s)) return false;
    }
    return true;
  };
  if (pending_.empty()) {
    poll();  // (a proc spinning on its own window still serves the others)
    return batched;
  }
  if (!done()) cfg_.p2p->wait_until(done);
  Error first = batched;
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pending &p = **it;
    if (!mine(p)) {
      ++it;
      continue;
    }
    if (!first) first = detail::outcome(p, target(p.target));
    it = pending_.erase(it);
  }
  return first;
}

}  // namespace impi::rma
