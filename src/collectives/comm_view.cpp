#include "collectives/comm_view.hpp"

#include <algorithm>
#include <cstring>

#include "base/thread_exit.hpp"
#include "collectives/thread_cache.hpp"
#include "core/runtime.hpp"
#include "pack/cursor.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

bool CommView::spans_clients() const {
  for (int c : client)
    if (c != client[0]) return true;
  return false;
}

pack::Rep CommView::wire_rep() const {
  bool other = false;
  for (std::size_t r = 0; r < channel.size(); ++r) {
    const core::Channel *via = channel[r];
    if (!via || !via->external32()) continue;
    if (via->wire_rep(world[r]) != pack::Rep::wide) return pack::Rep::external32;
    other = true;
  }
  return other ? pack::Rep::wide : pack::Rep::external32;
}

base::Status CommView::send(const void *buf, std::int64_t count, const pack::TypePtr &type,
                            int dest, int tag) const {
  if (tag_override >= 0) tag = tag_override;
  int w = world[static_cast<std::size_t>(dest)];
  core::Channel *via = channel[static_cast<std::size_t>(dest)];
  if (!via) return {base::Errc::invalid_argument, "a collective's peer cannot be reached"};
  auto x = p2p->start_send(*via, buf, count, type, w, id(rank), tag, context, false, true);
  if (!x) return {x.error(), x.message()};
  core::RequestPtr r = std::move(x.value());
  p2p->wait_until([&] { return p2p->completed(*r); });
  return {};
}

base::Status CommView::recv(void *buf, std::int64_t count, const pack::TypePtr &type, int source,
                            int tag) const {
  if (tag_override >= 0) tag = tag_override;
  core::Request storage{};
  auto r = p2p->irecv(buf, count, type, id(source), tag, context, &storage);
  p2p->wait_until([&] { return p2p->completed(*r); });
  if (r->status.error == core::kTruncated)
    return {base::Errc::truncated, "a collective's message was longer than its receive buffer"};
  return {};
}

base::Status CommView::send_empty(int dest, int tag) const {
  return send(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), dest, tag);
}

base::Status CommView::recv_empty(int source, int tag) const {
  return recv(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), source, tag);
}

base::Status CommView::sendrecv(const void *sbuf, std::int64_t scount, const pack::TypePtr &stype,
                                int dest, void *rbuf, std::int64_t rcount,
                                const pack::TypePtr &rtype, int source, int tag) const {
  if (tag_override >= 0) tag = tag_override;
  core::Request storage{};
  auto r = p2p->irecv(rbuf, rcount, rtype, id(source), tag, context, &storage);
  if (auto s = send(sbuf, scount, stype, dest, tag); !s.ok()) {
    // Our receive (on this stack) is posted: take it back, or see it through.
    if (!p2p->completed(*r) && !p2p->cancel(r)) p2p->wait_until([&] { return p2p->completed(*r); });
    return s;
  }
  p2p->wait_until([&] { return p2p->completed(*r); });
  if (r->status.error == core::kTruncated)
    return {base::Errc::truncated, "a collective's message was longer than its receive buffer"};
  return {};
}

Await CommView::isend(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
                      int tag) const {
  int w = world[static_cast<std::size_t>(dest)];
  return Await(Await::Kind::send, p2p, buf, nullptr, count, &type, w, id(rank), dest,
               tag_override >= 0 ? tag_override : tag, context,
               channel[static_cast<std::size_t>(dest)]);
}

Await CommView::irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source,
                      int tag) const {
  return Await(Await::Kind::recv, p2p, nullptr, buf, count, &type, 0, rank, id(source),
               tag_override >= 0 ? tag_override : tag, context,
               source >= 0 ? channel[static_cast<std::size_t>(source)] : nullptr);
}

Await CommView::isend_empty(int dest, int tag) const {
  return isend(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), dest, tag);
}

Await CommView::irecv_empty(int source, int tag) const {
  return irecv(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), source, tag);
}

Task CommView::exchange(const void *sbuf, std::int64_t scount, const pack::TypePtr &stype, int dest,
                        void *rbuf, std::int64_t rcount, const pack::TypePtr &rtype, int source,
                        int tag) const {
  Await r = irecv(rbuf, rcount, rtype, source, tag);
  r.start();  // posted first: no rank waits on a send
  if (auto s = co_await isend(sbuf, scount, stype, dest, tag); !s.ok()) co_return s;
  co_return co_await r;
}

AwaitMessage CommView::message(int source, int tag) const {
  return {p2p, id(source), tag_override >= 0 ? tag_override : tag, context};
}

std::vector<int> CommView::locals_of(int r) const {
  std::vector<int> out;
  for (int i = 0; i < size; ++i)
    if (client[static_cast<std::size_t>(i)] == client[static_cast<std::size_t>(r)])
      out.push_back(i);
  return out;
}

namespace {
// Spare buffers, kept for reuse. A trivially destructible thread_local on
// purpose: one with a destructor costs a TLS wrapper call per use.
// base::at_thread_exit, armed when the thread first keeps a buffer, frees
// them when it ends; buffers released after that go back to the heap.
constexpr std::size_t kPoolKeep = 4;
struct Pool {
  std::byte *buf[kPoolKeep];
  std::size_t cap[kPoolKeep];
  std::size_t n;
  bool armed;  // free_spares() is registered for this thread
  bool gone;   // the thread is ending: the buffers have been freed
};
thread_local Pool t_pool __attribute__((tls_model("initial-exec")));
void free_spares() {  // at the thread's end
  for (std::size_t i = 0; i < t_pool.n; ++i) delete[] t_pool.buf[i];
  t_pool.n = 0;
  t_pool.gone = true;
}
}  // namespace

TypedBuffer::TypedBuffer(const pack::TypePtr &type, std::int64_t count) {
  std::int64_t span = count > 0 ? type->true_extent() + (count - 1) * type->extent() : 0;
  auto n = static_cast<std::size_t>(std::max<std::int64_t>(span, 1));
  // The smallest spare buffer that is big enough, if any.
  std::size_t best = t_pool.n;
  for (std::size_t i = 0; i < t_pool.n; ++i)
    if (t_pool.cap[i] >= n && (best == t_pool.n || t_pool.cap[i] < t_pool.cap[best])) best = i;
  if (best < t_pool.n) {
    store_ = t_pool.buf[best];
    cap_ = t_pool.cap[best];
    --t_pool.n;
    t_pool.buf[best] = t_pool.buf[t_pool.n];
    t_pool.cap[best] = t_pool.cap[t_pool.n];
  } else {
    store_ = new std::byte[n];
    cap_ = n;
  }
  base_ = store_ - type->true_lb();
}

TypedBuffer::~TypedBuffer() {
  if (t_pool.gone) {
    delete[] store_;
    return;
  }
  if (!t_pool.armed) {
    base::at_thread_exit<&free_spares>();
    t_pool.armed = true;
  }
  if (t_pool.n < kPoolKeep) {
    t_pool.buf[t_pool.n] = store_;
    t_pool.cap[t_pool.n] = cap_;
    ++t_pool.n;
    return;
  }
  // Full: keep the bigger one.
  std::size_t smallest = 0;
  for (std::size_t i = 1; i < kPoolKeep; ++i)
    if (t_pool.cap[i] < t_pool.cap[smallest]) smallest = i;
  if (t_pool.cap[smallest] < cap_) {
    std::swap(t_pool.buf[smallest], store_);
    t_pool.cap[smallest] = cap_;
  }
  delete[] store_;
}

void copy_typed(const void *from, void *to, const pack::TypePtr &type, std::int64_t count) {
  if (count <= 0 || from == to) return;
  if (type->is_contiguous()) {
    std::memcpy(static_cast<std::byte *>(to) + type->lb(),
                static_cast<const std::byte *>(from) + type->lb(),
                static_cast<std::size_t>(type->size() * count));
    return;
  }
  pack::PackCursor out(type, count);
  std::vector<std::byte> packed(static_cast<std::size_t>(out.total()));
  out.pack(from, packed);
  pack::PackCursor in(type, count);
  in.unpack(to, packed);
}

namespace {
// The tables of the last few communicators a thread ran collectives on,
// shared by their views: a comparison (no allocation) when one matches.
template <typename T>
SharedTable<T> shared_table(const std::vector<T> &v) {
  return SharedTable<T>(ThreadCache<std::vector<T>, 8>::get(
      [&](const std::vector<T> &e) { return e == v; },
      [&] { return std::make_shared<const std::vector<T>>(v); }));
}

// A view's fields but the tables.
CommView bare_view(const core::Communicator &comm) {
  auto &rt = core::Runtime::instance();
  CommView v;
  v.p2p = &rt.p2p();
  v.rank = comm.rank;
  v.size = comm.size;
  v.context = comm.context_id + 1;
  const auto &job = rt.job();
  if (job.impi) {
    v.maxlinear = job.impi->coll_maxlinear;
    v.xsize = job.impi->coll_xsize;
  }
  return v;
}
}  // namespace

CommView view_of(const core::Communicator &comm) {
  CommView v = bare_view(comm);
  v.world = shared_table(comm.world);
  v.client = shared_table(comm.client);
  v.channel = shared_table(comm.channels);
  return v;
}

CommView remote_view_of(const core::Communicator &comm) {
  CommView v = bare_view(comm);
  v.world = shared_table(comm.remote_world);
  v.client = shared_table(comm.remote_client);
  v.channel = shared_table(comm.remote_channels);
  v.size = static_cast<int>(comm.remote_world.size());
  return v;
}

}  // namespace impi::collectives
