#include "collectives/comm_view.hpp"

#include "core/runtime.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

bool CommView::spans_clients() const {
  for (int c : client)
    if (c != client[0]) return true;
  return false;
}

base::Status CommView::send(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
                            int tag) const {
  int w = world[static_cast<std::size_t>(dest)];
  core::RequestPtr r;
  if (p2p->remote(w)) {
    auto x = p2p->isend_remote(buf, count, type, w, rank, tag, context, false);
    if (!x) return {x.error(), x.message()};
    r = std::move(x.value());
  } else {
    r = p2p->isend(buf, count, type, w, rank, tag, context);
  }
  p2p->wait_until([&] { return p2p->completed(*r); });
  return {};
}

base::Status CommView::recv(void *buf, std::int64_t count, const pack::TypePtr &type, int source, int tag) const {
  core::Request storage{};
  auto r = p2p->irecv(buf, count, type, source, tag, context, &storage);
  p2p->wait_until([&] { return p2p->completed(*r); });
  if (r->status.error == core::kTruncated)
    return {base::Errc::invalid_argument, "a collective's message was longer than its receive buffer"};
  return {};
}

base::Status CommView::send_empty(int dest, int tag) const {
  return send(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), dest, tag);
}

base::Status CommView::recv_empty(int source, int tag) const {
  return recv(nullptr, 0, pack::Datatype::predefined(pack::dt::byte), source, tag);
}

CommView view_of(const core::Communicator &comm) {
  auto &rt = core::Runtime::instance();
  CommView v;
  v.p2p = &rt.p2p();
  v.rank = comm.rank;
  v.size = comm.size;
  v.context = comm.context_id + 1;
  const auto &job = rt.job();
  if (comm.size == 1) {  // MPI_COMM_SELF
    v.world = {static_cast<int>(job.world_rank)};
    v.client = {0};
  } else {  // MPI_COMM_WORLD
    for (int r = 0; r < comm.size; ++r) {
      v.world.push_back(r);
      v.client.push_back(job.impi ? job.impi->procs[static_cast<std::size_t>(r)].client : 0);
    }
  }
  if (job.impi) v.maxlinear = job.impi->coll_maxlinear;
  return v;
}

}  // namespace impi::collectives
