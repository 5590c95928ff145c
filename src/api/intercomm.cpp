// intercomm.cpp - MPI_Comm_split, MPI_Comm_create and MPI_Comm_idup on
// intercommunicators (MPI-3.1 6.4.2). Both groups agree on the new
// context and learn each other's (color, key) in one exchange
// (collectives/inter_context.cpp); each rank then builds its side: the
// ranks of its color in its group, ordered by (key, rank), facing those of
// the same color in the other group. With nobody of its color on the
// other side, a rank gets MPI_COMM_NULL.
#include <algorithm>
#include <tuple>
#include <vector>

#include "api/attr.hpp"
#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "collectives/inter_context.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"

namespace impi::api::comm_shared {

namespace {

namespace coll = impi::collectives;

// The world ranks of `color`'s members in a (color, key) table over
// `world`, ordered by (key, rank).
std::vector<int> members(const std::vector<int> &table, const std::vector<int> &world, int color) {
  std::vector<std::tuple<int, int>> m;  // (key, rank)
  for (std::size_t r = 0; r < world.size(); ++r)
    if (table[2 * r] == color) m.emplace_back(table[2 * r + 1], static_cast<int>(r));
  std::sort(m.begin(), m.end());
  std::vector<int> out;
  for (auto &[key, r] : m) out.push_back(world[static_cast<std::size_t>(r)]);
  return out;
}

coll::Task idup_task(Communicator c, MPI_Comm parent, MPI_Comm *out, bool with_info,
                     MPI_Info hints) {
  int cid = 0;
  if (auto s = co_await coll::inter_agree(coll::view_of(c), coll::remote_view_of(c), {}, &cid,
                                          nullptr, nullptr);
      !s.ok())
    co_return s;
  *out = make_intercomm(c, c.world, c.remote_world, cid);
  apply_dup_info(parent, *out, with_info, hints);
  if (copy_comm_attrs(parent, *out) != MPI_SUCCESS)
    co_return impi::base::Status{impi::base::Errc::internal, "an attribute copy callback failed"};
  co_return impi::base::Status{};
}

}  // namespace

int inter_split(const char *fn, MPI_Comm comm, const Communicator &c, int color, int key,
                MPI_Comm *newcomm) {
  auto &p2p = impi::core::Runtime::instance().p2p();
  int cid = 0;
  std::vector<int> local, remote;
  coll::drain(&c, p2p);
  if (auto s = coll::run_blocking(p2p, coll::inter_agree(coll::view_of(c), coll::remote_view_of(c),
                                                         {color, key}, &cid, &local, &remote));
      !s.ok())
    return fail(comm, fn, s);
  *newcomm = MPI_COMM_NULL;
  if (color == MPI_UNDEFINED) return MPI_SUCCESS;
  auto mine = members(local, c.world, color), theirs = members(remote, c.remote_world, color);
  if (!theirs.empty()) *newcomm = make_intercomm(c, std::move(mine), std::move(theirs), cid);
  return MPI_SUCCESS;
}

int inter_create(const char *fn, MPI_Comm comm, const Communicator &c,
                 const std::vector<int> &group, MPI_Comm *newcomm) {
  // The group's members in the group's order, as a split: color 0, key =
  // rank in the group; the others MPI_UNDEFINED.
  int me = rank_in(group, my_world_rank());
  return inter_split(fn, comm, c, me == MPI_UNDEFINED ? MPI_UNDEFINED : 0, me, newcomm);
}

int inter_idup(MPI_Comm comm, Communicator &c, MPI_Comm *newcomm, MPI_Request *request,
               bool with_info, MPI_Info hints) {
  *newcomm = MPI_COMM_NULL;
  auto &p2p = impi::core::Runtime::instance().p2p();
  *request = new_request_handle(
      coll::start_nonblocking(&c, p2p, idup_task(c, comm, newcomm, with_info, hints)),
      handle_value(comm));
  return MPI_SUCCESS;
}

}  // namespace impi::api::comm_shared
