// inter_context.cpp - see inter_context.hpp. A group's own messages stay
// in its group (its Allreduce, Allgather and Bcast address only its
// members), and only the leaders talk across, with a tag of their own: so
// both groups can run this at once on the intercommunicator's collective
// context without any message matching in the wrong group.
#include "collectives/inter_context.hpp"

#include <algorithm>

#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "core/runtime.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

namespace {
constexpr int kInterAgreeTag = 240;  // (apart from the IMPI tags and inter.cpp's 250)
}

Task inter_agree(CommView local, CommView remote, std::vector<int> mine, int *cid,
                 std::vector<int> *local_table, std::vector<int> *remote_table) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  const auto &ints = pack::Datatype::predefined(pack::dt::int_);
  // A round: each group's MAX, the leaders' MAX of the two, to every member.
  auto round = [&](std::uint64_t offer, std::uint64_t *agreed) -> Task {
    std::uint64_t all = 0;
    if (auto s = co_await allreduce_task(local, &offer, &all, 1, u8, max_u64()); !s.ok())
      co_return s;
    if (local.rank == 0) {
      std::uint64_t theirs = 0;
      if (auto s = co_await remote.exchange(&all, 1, u8, 0, &theirs, 1, u8, 0, kInterAgreeTag);
          !s.ok())
        co_return s;
      all = std::max(all, theirs);
    }
    if (auto s = co_await bcast_task(local, &all, 1, u8, 0); !s.ok()) co_return s;
    *agreed = all;
    co_return base::Status{};
  };
  if (auto s = co_await agree_in_rounds_task(local.context, kInterAgreeTag, round, cid); !s.ok())
    co_return s;
  const auto k = static_cast<std::int64_t>(mine.size());
  if (k == 0) co_return base::Status{};
  local_table->assign(static_cast<std::size_t>(k * local.size), 0);
  remote_table->assign(static_cast<std::size_t>(k * remote.size), 0);
  if (auto s = co_await allgather_task(local, mine.data(), k, ints, local_table->data(), k, ints);
      !s.ok())
    co_return s;
  if (local.rank == 0) {
    if (auto s = co_await remote.exchange(local_table->data(), k * local.size, ints, 0,
                                          remote_table->data(), k * remote.size, ints, 0,
                                          kInterAgreeTag);
        !s.ok())
      co_return s;
  }
  co_return co_await bcast_task(local, remote_table->data(), k * remote.size, ints, 0);
}

}  // namespace impi::collectives
