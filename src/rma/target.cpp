// target.cpp - the target side of the message path (window.hpp): requests
// arrive as messages in the window's context and are served from the
// progress engine's hook, in order per origin, whatever MPI call the
// target is in. A request waiting for the window lock holds up only its
// own origin's later requests.
#include <fmt/core.h>

#include "base/log.hpp"
#include "mpi.h"
#include "pack/external32.hpp"
#include "rma/window.hpp"
#include "rma/window_detail.hpp"

namespace impi::rma {

namespace detail {

constexpr std::int64_t kAtomicElements = 1;

void apply_local(char *addr, std::int64_t count, const pack::Datatype &type, pack::Op op, int basic,
                 const char *in, char *old, bool atomic, MemberCtl *ctl) {
  const std::int64_t esize = element_stride(basic);
  const std::int64_t nelem = count * type.size() / element_data(basic);
  // A single element is one processor atomic under the shared accumulate
  // lock; from two elements up, taking the lock exclusively and running the
  // plain (vectorised) operator measures faster than a CAS loop per element.
  if (atomic && nelem > kAtomicElements) atomic = false;
  Window::lock_acc(ctl, atomic);
  if (type.is_contiguous() && packed_is_native(basic)) {  // one run of elements: one call
    apply_elements(op, basic, addr + type.lb(), in, old, nelem, atomic);
    Window::unlock_acc(ctl, atomic);
    return;
  }
  std::int64_t off = 0;
  for (std::int64_t i = 0; i < count; ++i)
    for (const auto &s : type.segments()) {
      char *at = addr + i * type.extent() + s.disp;
      apply_elements(op, basic, at, in ? in + off : nullptr, old ? old + off : nullptr, s.count,
                     atomic);
      off += s.count * esize;
    }
  Window::unlock_acc(ctl, atomic);
}

bool elements_of(const pack::Datatype &type, int basic) {
  for (const auto &s : type.segments())
    if (s.basic != basic) return false;
  return basic > 0;
}

namespace {
bool same_size(int basic, pack::Rep rep) {
  return pack::rep_size(basic, rep) == pack::predefined(basic).size;
}
}  // namespace

// (A packed pair is its value then its index, no padding: each part
// converts in place when its two forms have one size.)
bool inline_convertible(const pack::Datatype &type, pack::Rep rep) {
  for (const auto &s : type.segments()) {
    const auto &p = pack::predefined(s.basic);
    if (p.kind == pack::Kind::pair ? !same_size(p.pair_value, rep) || !same_size(p.pair_index, rep)
                                   : !same_size(s.basic, rep))
      return false;
  }
  return true;
}

void convert_packed(char *buf, std::int64_t count, const pack::Datatype &type, bool to_external,
                    pack::Rep rep) {
  auto *p = reinterpret_cast<std::byte *>(buf);
  const auto &segs = type.segments();
  if (segs.size() == 1 && pack::predefined(segs[0].basic).kind != pack::Kind::pair) {
    // (packed, the instances are one run)
    pack::convert_run(segs[0].basic, p, p, count * segs[0].count, to_external, rep);
    return;
  }
  // Neighbouring segments of one basic type convert as one run.
  int basic = -1;
  std::byte *run = p;
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < count; ++i)
    for (const auto &s : segs) {
      const auto &pd = pack::predefined(s.basic);
      if (pd.kind == pack::Kind::pair) {
        if (n > 0) pack::convert_run(basic, run, run, n, to_external, rep);
        basic = -1;
        n = 0;
        const std::size_t vsize = pack::predefined(pd.pair_value).size,
                          isize = pack::predefined(pd.pair_index).size;
        for (std::int64_t k = 0; k < s.count; ++k) {
          pack::convert_run(pd.pair_value, p, p, 1, to_external, rep);
          pack::convert_run(pd.pair_index, p + vsize, p + vsize, 1, to_external, rep);
          p += vsize + isize;
        }
        continue;
      }
      if (s.basic != basic) {
        if (n > 0) pack::convert_run(basic, run, run, n, to_external, rep);
        basic = s.basic;
        run = p;
        n = 0;
      }
      n += s.count;
      p += pack::predefined(s.basic).size * static_cast<std::size_t>(s.count);
    }
  if (n > 0) pack::convert_run(basic, run, run, n, to_external, rep);
}

Error outcome(const Window::Pending &p, const Target &t) {
  (void)t;
  if (!p.answer) return {};  // (no answer was due)
  const auto &st = p.answer->status;
  if (st.error == core::kTransportError)
    return {MPI_ERR_OTHER, fmt::format("the answer of rank {} was lost", p.target)};
  if (p.expect >= 0) {
    if (st.bytes != p.expect)
      return {MPI_ERR_RMA_RANGE, fmt::format("rank {} refused the operation: it is outside "
                                             "its window",
                                             p.target)};
    return {};
  }
  std::int32_t code = 0;
  for (int i = 0; i < 4; ++i)
    code |= static_cast<std::int32_t>(static_cast<unsigned char>(p.status[i])) << (8 * i);
  if (code == 0) return {};
  return {code, fmt::format("rank {} refused the operation: {}", p.target,
                            code == MPI_ERR_RMA_RANGE ? "it is outside its window"
                                                      : "it does not apply there")};
}

}  // namespace detail

void Window::answer(int origin, std::uint32_t id, int status) {
  std::vector<char> buf(4);
  for (int i = 0; i < 4; ++i)
    buf[static_cast<std::size_t>(i)] = static_cast<char>((status >> (8 * i)) & 0xff);
  auto r =
      cfg_.p2p->start_send(*target(origin).via, buf.data(), 4, detail::byte_type(),
                           target(origin).world, cfg_.rank, answer_tag(id), cfg_.context, false);
  if (r) track_send_locked(*r, std::move(buf));
}

// A put or accumulate whose data came inline, after its header: applied;
// returns its status (0 or an MPI error class).
int Window::apply_inline(int origin, const RequestHeader &h, char *payload, std::int64_t len) {
  if ((h.kind != Kind::put && h.kind != Kind::acc) || !(h.flags & kInline) || !h.type)
    return MPI_ERR_OTHER;
  if (len != h.count * h.type->size()) return MPI_ERR_TYPE;
  if (Error e = check_range(cfg_.rank, h.disp, h.count, *h.type)) return e.code;
  if (h.kind == Kind::acc && !detail::elements_of(*h.type, h.basic)) return MPI_ERR_TYPE;
  if (const Target &o = target(origin); o.via->external32()) {
    const pack::Rep rep = o.via->wire_rep(o.world);
    if (!detail::inline_convertible(*h.type, rep)) return MPI_ERR_TYPE;
    detail::convert_packed(payload, h.count, *h.type, false, rep);
  }
  if (h.count == 0) return 0;
  char *addr = local_address(cfg_.rank, h.disp);
  if (h.kind == Kind::put) {
    pack::PackCursor c(h.type, h.count);
    c.unpack(addr, {reinterpret_cast<const std::byte *>(payload), static_cast<std::size_t>(len)});
  } else {
    std::vector<char> elems;  // (pairs: the payload is packed, without their padding)
    if (!detail::packed_is_native(h.basic)) {
      elems = detail::unpack_elements(payload, len / detail::element_data(h.basic), h.basic);
      payload = elems.data();
    }
    detail::apply_local(addr, h.count, *h.type, static_cast<pack::Op>(h.op), h.basic, payload,
                        nullptr, cfg_.atomics && atomic_capable(h.basic), target(cfg_.rank).ctl);
  }
  return 0;
}

// Requests that arrived whole: one inline put or accumulate, or a batch of them.
void Window::serve_inline(int origin, Incoming &in) {
  const RequestHeader &h = in.h;
  char *payload = in.buf.data() + h.length;
  const std::int64_t len = in.req->status.bytes - static_cast<std::int64_t>(h.length);
  if (h.kind != Kind::batch) {
    answer(origin, h.id, apply_inline(origin, h, payload, len));
    return;
  }
  int err = 0;
  for (std::int64_t at = 0; at < len;) {
    std::uint32_t n = 0;
    if (len - at < 4) {
      err = err ? err : MPI_ERR_OTHER;
      break;
    }
    for (int i = 0; i < 4; ++i)
      n |= static_cast<std::uint32_t>(static_cast<unsigned char>(payload[at + i])) << (8 * i);
    at += 4;
    if (n > static_cast<std::uint64_t>(len - at)) {
      err = err ? err : MPI_ERR_OTHER;
      break;
    }
    auto one = decode(payload + at, n);
    int e = one ? apply_inline(origin, *one, payload + at + one->length,
                               static_cast<std::int64_t>(n - one->length))
                : MPI_ERR_OTHER;
    if (e && !err) err = e;
    at += n;
  }
  answer(origin, h.id, err);
}

bool Window::serve() {
  bool any = false;
  core::P2P &p2p = *cfg_.p2p;
  for (;;) {
    // (a look without a progress pass first: the hook runs right after one,
    // for every window, and a pass per window costs a socket read each)
    if (!p2p.has_message(core::kAnySource, kRequestTag, cfg_.context)) break;
    auto m = p2p.improbe(core::kAnySource, kRequestTag, cfg_.context);
    if (!m) break;
    int origin = m->first.source;
    auto in = std::make_unique<Incoming>();
    in->buf.resize(static_cast<std::size_t>(m->first.bytes));
    in->req = p2p.mrecv(m->second, in->buf.data(), m->first.bytes, detail::byte_type());
    if (origin < 0 || origin >= size()) {
      base::log_error("one-sided request from rank {}, not in the window's group: dropped", origin);
      continue;
    }
    incoming_[origin].push_back(std::move(in));
    any = true;
  }
  for (auto it = incoming_.begin(); it != incoming_.end();) {
    auto &q = it->second;
    while (!q.empty() && serve_one(it->first, *q.front())) {
      q.pop_front();
      any = true;
    }
    any |= start_puts_ahead(it->first, q);
    it = q.empty() ? incoming_.erase(it) : std::next(it);
  }
  return any;
}

// Requests are served in order, but puts that carry their data in a
// message of their own may overlap: behind an unfinished put, the next
// puts post their receives at once, so their data's synchronisation round
// trips (the IMPI long protocol) overlap instead of queueing. MPI orders no
// puts within an epoch, and each is still answered when its data is in.
bool Window::start_puts_ahead(int origin, std::deque<std::unique_ptr<Incoming>> &q) {
  auto separate_put = [](const RequestHeader &h) {
    return h.kind == Kind::put && !(h.flags & kInline);
  };
  bool any = false;
  for (std::size_t i = 0; i < q.size(); ++i) {
    Incoming &in = *q[i];
    if (in.stage == Incoming::Stage::header) {
      if (i == 0 || !in.req || !cfg_.p2p->completed(*in.req)) break;
      auto h = decode(in.buf.data(), static_cast<std::size_t>(in.req->status.bytes));
      if (!h || !separate_put(*h)) break;
      start_request(origin, in);  // (a separate put never finishes there: it waits for data)
      any = true;
    }
    if (in.stage != Incoming::Stage::data || !separate_put(in.h)) break;
  }
  return any;
}

// Advances one request; true once it is finished.
bool Window::serve_one(int origin, Incoming &in) {
  if (in.stage == Incoming::Stage::header) {
    if (!cfg_.p2p->completed(*in.req)) return false;
    if (start_request(origin, in)) return true;
  }
  return finish_request(origin, in);
}

// A request's header has arrived: decodes and checks it, starts what it
// asks for; true once it is finished.
bool Window::start_request(int origin, Incoming &in) {
  core::P2P &p2p = *cfg_.p2p;
  const int ow = target(origin).world;
  {
    auto h = decode(in.buf.data(), static_cast<std::size_t>(in.req->status.bytes));
    if (!h) {
      base::log_error("a malformed one-sided request from rank {} ({} bytes): dropped", origin,
                      in.req->status.bytes);
      return true;
    }
    in.h = std::move(*h);
    const RequestHeader &h0 = in.h;
    if (h0.type) {
      if (Error e = check_range(cfg_.rank, h0.disp, h0.count, *h0.type)) in.error = e.code;
      if (!in.error) in.addr = local_address(cfg_.rank, h0.disp);
    }
    if (!h0.type && h0.kind != Kind::lock && h0.kind != Kind::unlock && h0.kind != Kind::batch)
      in.error = MPI_ERR_TYPE;  // (our origins send no typeless operations)
    const bool elementwise =
        h0.kind == Kind::acc || h0.kind == Kind::get_acc || h0.kind == Kind::cas;
    if (elementwise && !in.error && h0.type && !detail::elements_of(*h0.type, h0.basic))
      in.error = MPI_ERR_TYPE;
    if (elementwise && !in.error && h0.type &&
        (h0.basic == 0 ||
         h0.nelem * detail::element_data(h0.basic) !=
             (h0.kind == Kind::cas ? 2 : 1) * h0.count * h0.type->size() ||
         (h0.kind == Kind::cas && pack::predefined(h0.basic).kind == pack::Kind::pair)))
      in.error = MPI_ERR_TYPE;
    switch (h0.kind) {
      case Kind::batch:
        serve_inline(origin, in);
        return true;
      case Kind::put:
      case Kind::acc:
        if (h0.flags & kInline) {
          serve_inline(origin, in);
          return true;
        }
        if (h0.kind == Kind::acc) goto elementwise_data;
        in.req = in.error ? p2p.irecv(nullptr, 0, detail::byte_type(), origin, data_tag(h0.id),
                                      cfg_.context, nullptr, ow)
                          : p2p.irecv(in.addr, h0.count, h0.type, origin, data_tag(h0.id),
                                      cfg_.context, nullptr, ow);
        in.stage = Incoming::Stage::data;
        break;
      case Kind::get: {
        auto r = in.error ? p2p.start_send(*target(origin).via, nullptr, 0, detail::byte_type(), ow,
                                           cfg_.rank, answer_tag(h0.id), cfg_.context, false)
                          : p2p.start_send(*target(origin).via, in.addr, h0.count, h0.type, ow,
                                           cfg_.rank, answer_tag(h0.id), cfg_.context, false);
        if (r) track_send_locked(*r, {});
        return true;
      }
      case Kind::get_acc:
      case Kind::cas:
        if (h0.flags & kInline) {  // the data came after the header
          const std::int64_t len = in.req->status.bytes - static_cast<std::int64_t>(h0.length);
          if (!in.error && len != h0.nelem * detail::element_data(h0.basic))
            in.error = MPI_ERR_TYPE;
          if (!in.error) {
            const char *data = in.buf.data() + h0.length;
            in.tmp.assign(data, data + len);
            if (const Target &o = target(origin); o.via->external32()) {
              const auto &etype = *pack::Datatype::predefined(h0.basic);
              const pack::Rep rep = o.via->wire_rep(o.world);
              if (detail::inline_convertible(etype, rep))
                detail::convert_packed(in.tmp.data(), h0.nelem, etype, false, rep);
              else
                in.error = MPI_ERR_TYPE;
            }
            if (!in.error && !detail::packed_is_native(h0.basic))  // (pairs: their padding back)
              in.tmp = detail::unpack_elements(in.tmp.data(), h0.nelem, h0.basic);
          }
          in.req.reset();
          in.stage = Incoming::Stage::data;
          break;
        }
      elementwise_data:
        if (h0.kind == Kind::get_acc && h0.op == static_cast<std::uint32_t>(pack::Op::no_op)) {
          in.req.reset();
        } else if (in.error) {
          in.req = p2p.irecv(nullptr, 0, detail::byte_type(), origin, data_tag(h0.id), cfg_.context,
                             nullptr, ow);
        } else {
          in.tmp.resize(static_cast<std::size_t>(h0.nelem * pack::predefined(h0.basic).size));
          in.req = p2p.irecv(in.tmp.data(), h0.nelem, pack::Datatype::predefined(h0.basic), origin,
                             data_tag(h0.id), cfg_.context, nullptr, ow);
        }
        in.stage = Incoming::Stage::data;
        break;
      case Kind::lock:
        in.stage = Incoming::Stage::lock_wait;
        target(cfg_.rank).ctl->remote_waiting.fetch_add(1, std::memory_order_acq_rel);
        break;
      case Kind::unlock:
        unlock_word(target(cfg_.rank).ctl);
        answer(origin, h0.id, 0);
        return true;
    }
  }
  return false;
}

// A request past its header: waits for its data or the lock, applies it
// and answers; true once it is finished.
bool Window::finish_request(int origin, Incoming &in) {
  core::P2P &p2p = *cfg_.p2p;
  const int ow = target(origin).world;
  const RequestHeader &h = in.h;
  MemberCtl *ctl = target(cfg_.rank).ctl;
  if (in.stage == Incoming::Stage::lock_wait) {
    if (!try_lock_word(ctl, h.flags & kExclusive)) return false;
    ctl->remote_waiting.fetch_sub(1, std::memory_order_acq_rel);
    if (!(h.flags & kNoAnswer)) answer(origin, h.id, 0);
    return true;
  }
  if (in.req && !p2p.completed(*in.req)) return false;
  if (in.req && in.req->status.error && !in.error) in.error = MPI_ERR_TRUNCATE;
  switch (h.kind) {
    case Kind::put:
      answer(origin, h.id, in.error);
      return true;
    case Kind::acc:
      if (!in.error)
        detail::apply_local(in.addr, h.count, *h.type, static_cast<pack::Op>(h.op), h.basic,
                            in.tmp.data(), nullptr, cfg_.atomics && atomic_capable(h.basic), ctl);
      answer(origin, h.id, in.error);
      return true;
    case Kind::get_acc:
    case Kind::cas: {
      const auto &etype = pack::Datatype::predefined(h.basic);
      const std::int64_t esize = pack::predefined(h.basic).size;
      std::vector<char> old;
      std::int64_t n = 0;
      if (!in.error) {
        n = h.kind == Kind::cas ? 1 : h.nelem;
        old.resize(static_cast<std::size_t>(n * esize));
        const bool atomic = cfg_.atomics && atomic_capable(h.basic);
        if (h.kind == Kind::cas) {
          lock_acc(ctl, atomic);
          compare_swap(h.basic, in.addr, in.tmp.data(), in.tmp.data() + esize, old.data(), atomic);
          unlock_acc(ctl, atomic);
        } else {
          detail::apply_local(in.addr, h.count, *h.type, static_cast<pack::Op>(h.op), h.basic,
                              in.tmp.empty() ? nullptr : in.tmp.data(), old.data(), atomic, ctl);
        }
      }
      auto r = p2p.start_send(*target(origin).via, old.data(), n, etype, ow, cfg_.rank,
                              answer_tag(h.id), cfg_.context, false);
      if (r) track_send_locked(*r, std::move(old));
      return true;
    }
    default:
      return true;
  }
}

}  // namespace impi::rma
