#include "collectives/criss_cross.hpp"

#include <memory>

#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"

namespace impi::collectives {

Task criss_cross(CommView peers, bool leader, int tag, std::vector<std::uint64_t> *value,
                 CrissCrossFold fold) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  const auto n = static_cast<std::int64_t>(value->size());
  if (!leader) {
    if (auto s = co_await peers.isend(value->data(), n, u8, 0, tag); !s.ok()) co_return s;
    co_return co_await peers.irecv(value->data(), n, u8, 0, tag);
  }
  std::vector<std::uint64_t> in(value->size());
  for (int r = 1; r < peers.size; ++r) {
    if (auto s = co_await peers.irecv(in.data(), n, u8, r, tag); !s.ok()) co_return s;
    fold(in, *value);
  }
  std::vector<std::uint64_t> mine = *value;
  if (auto s = co_await peers.exchange(mine.data(), n, u8, 0, in.data(), n, u8, 0, tag); !s.ok())
    co_return s;
  fold(in, *value);
  for (int r = 1; r < peers.size; ++r)
    if (auto s = co_await peers.isend(value->data(), n, u8, r, tag); !s.ok()) co_return s;
  co_return base::Status{};
}

base::Result<int> criss_cross_context(const core::Communicator &c, int tag,
                                      std::vector<std::uint64_t> &value,
                                      const CrissCrossFold &fold) {
  auto &p2p = core::Runtime::instance().p2p();
  drain(&c, p2p);
  const auto rest = value;
  return agree_in_rounds(p2p, c.context_id + 1, 0, [&](std::uint64_t offer, std::uint64_t &agreed) {
    value = rest;
    value[0] = offer;
    auto s = run_blocking(p2p, criss_cross(remote_view_of(c), c.rank == 0, tag, &value, fold));
    agreed = value[0];
    return s;
  });
}

Task free_barrier(core::Communicator c) {
  if (!c.inter) co_return co_await barrier_task(view_of(c));
  std::vector<std::uint64_t> v{0};
  co_return co_await criss_cross(
      remote_view_of(c), c.rank == 0, kCommFreeTag, &v,
      [](const std::vector<std::uint64_t> &, std::vector<std::uint64_t> &) {});
}

}  // namespace impi::collectives
