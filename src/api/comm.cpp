// comm.cpp - groups and communicators (MPI-3.1 chapter 6) with IMPI's
// context-id rules (IMPI 4.3-4.7): every new communicator takes context
// ids from a MAX-agreement over its parent (collectives/context_id.cpp);
// MPI_Comm_split gathers (color, key, rank) from every rank.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>
#include <vector>

#include "api/attr.hpp"
#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/hw.hpp"
#include "api/requests.hpp"
#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "collectives/criss_cross.hpp"
#include "collectives/intercomm_create.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "pack/predefined.hpp"
#include "pack/reduce.hpp"

using impi::api::report;

namespace impi::api::comm_shared {
namespace coll = impi::collectives;
using impi::core::Communicator;

int my_world_rank() {
  return impi::core::Runtime::instance().world().rank;
}

int rank_in(const std::vector<int> &world, int w) {
  auto it = std::find(world.begin(), world.end(), w);
  return it == world.end() ? MPI_UNDEFINED : static_cast<int>(it - world.begin());
}

int client_of(int w) {
  const auto &world = impi::core::Runtime::instance().world();
  // Procs of other jobs (dynamic processes) are reached by this proc
  // directly, as if they were of its own client.
  if (impi::core::P2P::dyn(w)) return world.client[static_cast<std::size_t>(world.rank)];
  return world.client[static_cast<std::size_t>(w)];
}

int check_comm(const char *fn, MPI_Comm h, Communicator *&c) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  c = impi::api::lookup_comm(h);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
  return MPI_SUCCESS;
}

// A new intracommunicator over `world` (ordered), for the caller if it is
// in it; inherits the parent's error handler (MPI-3.1 8.3).
MPI_Comm make_comm(const Communicator &parent, const std::vector<int> &world, int context) {
  int me = rank_in(world, my_world_rank());
  if (me == MPI_UNDEFINED) return MPI_COMM_NULL;
  auto c = std::make_unique<Communicator>();
  c->rank = me;
  c->size = static_cast<int>(world.size());
  c->context_id = context;
  c->world = world;
  for (int w : world) c->client.push_back(client_of(w));
  c->errhandler = parent.errhandler;
  c->session = parent.session;
  if (c->errhandler) impi::api::retain_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
  c->note_clients();
  c->note_hosts([](int w) { return impi::core::Runtime::instance().p2p().reachable(w); });
  c->set_routes([](int w) { return impi::core::Runtime::instance().p2p().route(w); });
  return impi::api::new_comm_handle(std::move(c));
}

int fail(MPI_Comm comm, const char *fn, const impi::base::Status &s) {
  return report(comm, impi::api::error_class_of(s.error()), fn, s.message());
}

int bare_dup(const char *fn, MPI_Comm comm, const Communicator &c, MPI_Comm *newcomm) {
  impi::base::Result<int> cid{0};
  if (c.inter) {
    // IMPI 4.6: the criss-cross MAX of IMPI_max_cid with IMPI_DUP_TAG.
    std::vector<std::uint64_t> v{0};
    auto max = [](const std::vector<std::uint64_t> &in, std::vector<std::uint64_t> &acc) {
      acc[0] = std::max(acc[0], in[0]);
    };
    cid = coll::criss_cross_context(c, kDupTag, v, max);
  } else {
    cid = coll::agree_context(c);
  }
  if (!cid) return fail(comm, fn, {cid.error(), cid.message()});
  *newcomm =
      c.inter ? make_intercomm(c, c.world, c.remote_world, *cid) : make_comm(c, c.world, *cid);
  impi::api::lookup_comm(*newcomm)->topology =
      c.topology;  // (MPI-3.1 7.4: a duplicate keeps the topology)
  return MPI_SUCCESS;
}

}  // namespace impi::api::comm_shared

namespace impi::api::comm_shared {
namespace {
std::mutex g_free_mu;
std::vector<impi::core::RequestPtr> g_free_barriers;  // started by MPI_Comm_free, maybe not over

// The free barrier whose queue key (`key`, unique) lives as long as it runs.
coll::Task free_barrier_task(Communicator c, std::shared_ptr<char> key) {
  auto held = std::move(key);
  co_return co_await coll::free_barrier(std::move(c));
}
}  // namespace

void start_free_barrier(const Communicator &c) {
  auto &p2p = impi::core::Runtime::instance().p2p();
  coll::drain(&c, p2p);  // (its own non-blocking collectives first: the same tags)
  auto key = std::make_shared<char>();
  auto req = coll::start_nonblocking(key.get(), p2p, free_barrier_task(c, key));
  std::lock_guard<std::mutex> lk(g_free_mu);
  std::erase_if(g_free_barriers,
                [&](const impi::core::RequestPtr &r) { return p2p.completed(*r); });
  g_free_barriers.push_back(std::move(req));
}

impi::base::Status finish_free_barriers() {
  auto &p2p = impi::core::Runtime::instance().p2p();
  std::vector<impi::core::RequestPtr> pending;
  {
    std::lock_guard<std::mutex> lk(g_free_mu);
    pending.swap(g_free_barriers);
  }
  impi::base::Status result;
  for (auto &r : pending) {
    p2p.wait_until([&] { return p2p.completed(*r); });
    if (r->status.error != 0 && result.ok())
      result = {impi::base::Errc::io_error,
                "the barrier of a communicator freed earlier (IMPI 4.5) failed"};
  }
  return result;
}

impi::base::Status free_barrier(const Communicator &c) {
  return coll::run_blocking(impi::core::Runtime::instance().p2p(), coll::free_barrier(c));
}

MPI_Comm make_intercomm(const Communicator &parent, std::vector<int> local, std::vector<int> remote,
                        int context) {
  auto c = std::make_unique<Communicator>();
  c->rank = rank_in(local, my_world_rank());
  c->size = static_cast<int>(local.size());
  c->context_id = context;
  c->inter = true;
  c->world = std::move(local);
  c->remote_world = std::move(remote);
  for (int w : c->world) c->client.push_back(client_of(w));
  for (int w : c->remote_world) c->remote_client.push_back(client_of(w));
  c->errhandler = parent.errhandler;
  c->session = parent.session;
  if (c->errhandler) impi::api::retain_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
  c->note_clients();
  c->note_hosts([](int w) { return impi::core::Runtime::instance().p2p().reachable(w); });
  c->set_routes([](int w) { return impi::core::Runtime::instance().p2p().route(w); });
  return impi::api::new_comm_handle(std::move(c));
}

void apply_dup_info(MPI_Comm parent, MPI_Comm dup, bool with_info, MPI_Info hints) {
  if (!with_info) {
    impi::api::copy_comm_info(parent, dup);
    return;
  }
  impi::api::forget_comm_info(dup);
  if (hints != MPI_INFO_NULL) {
    PMPI_Comm_set_info(dup, hints);
    PMPI_Info_free(&hints);
  }
}

}  // namespace impi::api::comm_shared

namespace {
using namespace impi::api::comm_shared;

// MPI_Comm_idup's work: agree on the context (IMPI 4.3), then make the
// communicator. Its info hints are `hints` (MPI_Comm_idup_with_info's copy
// of its info, freed here; MPI_INFO_NULL: none) when `with_info`, else the
// parent's, as MPI_Comm_dup(_with_info).
coll::Task idup_task(coll::CommView v, MPI_Comm parent, MPI_Comm *out, bool with_info = false,
                     MPI_Info hints = MPI_INFO_NULL) {
  int cid = 0;
  if (auto s = co_await coll::agree_context_task(v, &cid); !s.ok()) co_return s;
  Communicator *c = impi::api::lookup_comm(parent);
  if (!c)
    co_return impi::base::Status{impi::base::Errc::invalid_argument,
                                 "the communicator was freed during MPI_Comm_idup"};
  *out = make_comm(*c, c->world, cid);
  impi::api::lookup_comm(*out)->topology = c->topology;
  apply_dup_info(parent, *out, with_info, hints);
  if (int rc = impi::api::copy_comm_attrs(parent, *out); rc != MPI_SUCCESS)
    co_return impi::base::Status{impi::base::Errc::internal, "an attribute copy callback failed"};
  co_return impi::base::Status{};
}

}  // namespace

using namespace impi::api::comm_shared;

namespace {
// MPI-4.0 7.4.2's hardware splits. The resources are shared memory
// ("mpi_shared_memory": the procs of one impirun host, as
// MPI_COMM_TYPE_SHARED) and hwloc's object types (MPI_Get_hw_resource_info's
// keys, hw.cpp): HW_GUIDED (and MPI-4.1's RESOURCE_GUIDED, the same here)
// with one of them splits so, with any other value (or none) gives
// MPI_COMM_NULL; HW_UNGUIDED gives the shared-memory split when it is a
// strict subset of comm (else MPI_COMM_NULL) and names the resource in
// `info` (as MPICH does).
int hw_split(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_split_type";
  if (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED) split_type = MPI_COMM_TYPE_HW_GUIDED;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  constexpr const char *kShm = "mpi_shared_memory";
  bool known = split_type == MPI_COMM_TYPE_HW_UNGUIDED;
  if (split_type == MPI_COMM_TYPE_HW_GUIDED && info != MPI_INFO_NULL) {
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    if (PMPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag) != MPI_SUCCESS)
      return report(comm, MPI_ERR_INFO, fn, "not a valid info object");
    known = flag && std::string_view(v) == kShm;
    // An hwloc type (MPI_Get_hw_resource_info's keys, hw.cpp): within each
    // shared-memory domain, by the one instance of it each process is
    // restricted to (none: MPI_COMM_NULL).
    int color = MPI_UNDEFINED;
    if (flag && !known && impi::api::hw_resource_color(v, &color) == 1) {
      MPI_Comm shm = MPI_COMM_NULL;
      if (int rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &shm);
          rc != MPI_SUCCESS)
        return rc;
      int rc = PMPI_Comm_split(shm, color, key, newcomm);
      PMPI_Comm_free(&shm);
      if (rc != MPI_SUCCESS) return rc;
      if (*newcomm != MPI_COMM_NULL) {
        MPI_Info named;
        PMPI_Info_create(&named);
        PMPI_Info_set(named, "mpi_hw_resource_type", v);
        PMPI_Comm_set_info(*newcomm, named);
        PMPI_Info_free(&named);
      }
      return MPI_SUCCESS;
    }
  }
  // (Every process calls the split, whatever its answer: it is collective.)
  MPI_Comm out = MPI_COMM_NULL;
  if (int rc = PMPI_Comm_split_type(comm, known ? MPI_COMM_TYPE_SHARED : MPI_UNDEFINED, key,
                                    MPI_INFO_NULL, &out);
      rc != MPI_SUCCESS)
    return rc;
  if (out != MPI_COMM_NULL && split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
    int n = 0, all = 0;
    PMPI_Comm_size(out, &n);
    PMPI_Comm_size(comm, &all);
    if (n == all) PMPI_Comm_free(&out);  // (then one group: every process sees n == all)
  }
  if (out != MPI_COMM_NULL) {
    MPI_Info named;
    PMPI_Info_create(&named);
    PMPI_Info_set(named, "mpi_hw_resource_type", kShm);
    PMPI_Comm_set_info(out, named);
    PMPI_Info_free(&named);
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED && info != MPI_INFO_NULL)
      PMPI_Info_set(info, "mpi_hw_resource_type", kShm);
  }
  *newcomm = out;
  return MPI_SUCCESS;
}
}  // namespace

extern "C" {

// ---- groups

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_group", comm, c); rc != MPI_SUCCESS) return rc;
  if (!group) return report(comm, MPI_ERR_ARG, "MPI_Comm_group", "group is NULL");
  *group = new_group(c->world);
  return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_remote_group", comm, c); rc != MPI_SUCCESS) return rc;
  if (!c->inter)
    return report(comm, MPI_ERR_COMM, "MPI_Comm_remote_group", "not an intercommunicator");
  if (!group) return report(comm, MPI_ERR_ARG, "MPI_Comm_remote_group", "group is NULL");
  *group = new_group(c->remote_world);
  return MPI_SUCCESS;
}

// ---- communicators

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_dup";
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (int rc = bare_dup(fn, comm, *c, newcomm); rc != MPI_SUCCESS) return rc;
  // Attributes whose copy callback says so come along (MPI-3.1 6.7.2).
  if (int rc = impi::api::copy_comm_attrs(comm, *newcomm); rc != MPI_SUCCESS) {
    impi::api::delete_comm_attrs(*newcomm);
    impi::api::free_comm_handle(*newcomm);
    *newcomm = MPI_COMM_NULL;
    return report(comm, rc, fn, "an attribute copy callback failed");
  }
  impi::api::copy_comm_info(comm, *newcomm);  // and its info hints (MPI-4.0 7.4.2)
  return MPI_SUCCESS;
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
  // No info key changes how we build communicators; the duplicate's hints
  // are `info`'s, not comm's (MPI-4.0 7.4.2).
  int nkeys = 0;
  if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
    return report(comm, MPI_ERR_INFO, "MPI_Comm_dup_with_info", "not a valid info object");
  if (int rc = PMPI_Comm_dup(comm, newcomm); rc != MPI_SUCCESS) return rc;
  impi::api::forget_comm_info(*newcomm);
  if (info != MPI_INFO_NULL) PMPI_Comm_set_info(*newcomm, info);
  return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_create";
  Communicator *c;
  const Group *g;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group(fn, group, g); rc != MPI_SUCCESS) return rc;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  for (int w : g->world)
    if (rank_in(c->world, w) == MPI_UNDEFINED)
      return report(comm, MPI_ERR_GROUP, fn,
                    "the group is not a subset of the communicator's (local) group");
  if (c->inter) return inter_create(fn, comm, *c, g->world, newcomm);
  auto cid = coll::agree_context(*c);
  if (!cid) return fail(comm, fn, {cid.error(), cid.message()});
  *newcomm = make_comm(*c, g->world, *cid);
  return MPI_SUCCESS;
}

static int comm_idup(const char *fn, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request,
                     bool with_info, MPI_Info info) {
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newcomm || !request) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  // The program may free `info` as soon as this returns: the task keeps a copy.
  MPI_Info hints = MPI_INFO_NULL;
  if (with_info && info != MPI_INFO_NULL && PMPI_Info_dup(info, &hints) != MPI_SUCCESS)
    return report(comm, MPI_ERR_INFO, fn, "not a valid info object");
  if (c->inter) return inter_idup(comm, *c, newcomm, request, with_info, hints);
  // The context agreement (an Allreduce) runs as a non-blocking collective
  // on comm; *newcomm is set when it completes (MPI-3.1 6.4.2).
  *newcomm = MPI_COMM_NULL;
  auto &p2p = impi::core::Runtime::instance().p2p();
  *request = impi::api::new_request_handle(
      coll::start_nonblocking(c, p2p,
                              idup_task(coll::view_of(*c), comm, newcomm, with_info, hints)),
      impi::api::handle_value(comm));
  return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
  return comm_idup("MPI_Comm_idup", comm, newcomm, request, false, MPI_INFO_NULL);
}

// The duplicate's hints are `info`'s, not comm's, as MPI_Comm_dup_with_info.
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request) {
  return comm_idup("MPI_Comm_idup_with_info", comm, newcomm, request, true, info);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_create_group";
  Communicator *c;
  const Group *g;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group(fn, group, g); rc != MPI_SUCCESS) return rc;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (c->inter) return report(comm, MPI_ERR_COMM, fn, "comm must be an intracommunicator");
  if (tag < 0) return report(comm, MPI_ERR_TAG, fn, fmt::format("invalid tag {}", tag));
  for (int w : g->world)
    if (rank_in(c->world, w) == MPI_UNDEFINED)
      return report(comm, MPI_ERR_GROUP, fn,
                    "the group is not a subset of the communicator's group");
  int me = rank_in(g->world, my_world_rank());
  if (me == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  // Only the group's members call it: the context agreement runs among
  // them, on comm's collective context (no user receive can take its
  // messages) with a tag made from the user's (concurrent calls with
  // different tags stay apart).
  coll::CommView v = coll::view_of(*c);
  v.rank = me;
  v.size = static_cast<int>(g->world.size());
  v.world = g->world;
  v.channel = impi::core::Runtime::instance().p2p().routes(g->world);
  std::vector<int> clients;
  for (int w : g->world) clients.push_back(client_of(w));
  v.client = clients;
  for (int w : g->world) v.ids.push_back(rank_in(c->world, w));
  v.tag_override =
      0x40000000 | (tag & 0x3fffffff);  // on the collective context, apart from its tags
  // (Not after comm's pending collectives: only the group calls this, in
  // any order with the collectives on comm.)
  auto cid = coll::agree_context(v);
  if (!cid) return fail(comm, fn, {cid.error(), cid.message()});
  *newcomm = make_comm(*c, g->world, *cid);
  return MPI_SUCCESS;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  const char *fn = "MPI_Comm_split";
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (color < 0 && color != MPI_UNDEFINED)
    return report(comm, MPI_ERR_ARG, fn, fmt::format("invalid color {}", color));
  auto view = coll::view_of(*c);
  if (c->inter) return inter_split(fn, comm, *c, color, key, newcomm);
  // IMPI 4.7: the context first, then every rank's (color, key, rank).
  auto cid = coll::agree_context(*c);
  if (!cid) return fail(comm, fn, {cid.error(), cid.message()});
  const auto &ints = impi::pack::Datatype::predefined(impi::pack::dt::int_);
  std::array<int, 3> mine{color, key, c->rank};
  std::vector<int> all(static_cast<std::size_t>(3 * c->size));
  if (auto s = coll::allgather(view, mine.data(), 3, ints, all.data(), 3, ints); !s.ok())
    return fail(comm, fn, s);
  if (color == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  std::vector<std::tuple<int, int>> members;  // (key, rank) of my color
  for (int r = 0; r < c->size; ++r)
    if (all[static_cast<std::size_t>(3 * r)] == color)
      members.emplace_back(all[static_cast<std::size_t>(3 * r + 1)],
                           all[static_cast<std::size_t>(3 * r + 2)]);
  std::sort(members.begin(), members.end());
  std::vector<int> world;
  for (auto &[k, r] : members) world.push_back(c->world[static_cast<std::size_t>(r)]);
  *newcomm = make_comm(*c, world, *cid);
  return MPI_SUCCESS;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_split_type", comm, c); rc != MPI_SUCCESS) return rc;
  if (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_HW_UNGUIDED ||
      split_type == MPI_COMM_TYPE_RESOURCE_GUIDED)
    return hw_split(comm, split_type, key, info, newcomm);
  if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
    return report(comm, MPI_ERR_ARG, "MPI_Comm_split_type",
                  fmt::format("unknown split type {}", split_type));
  // Shared memory reaches exactly the procs one impirun runs: those of one
  // IMPI host, or of the hosts it splits its machine into (one per proc,
  // IMPI_SPLIT_HOSTS); a client may span several machines. Its first host
  // names the group.
  int color = MPI_UNDEFINED;
  if (split_type != MPI_UNDEFINED) {
    const auto &job = impi::core::Runtime::instance().job();
    color = job.impi ? job.impi->host_of_me() : c->client[static_cast<std::size_t>(c->rank)];
  }
  return PMPI_Comm_split(comm, color, key, newcomm);
}

int PMPI_Comm_free(MPI_Comm *comm) {
  const char *fn = "MPI_Comm_free";
  Communicator *c;
  if (!comm) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "comm is NULL");
  if (int rc = check_comm(fn, *comm, c); rc != MPI_SUCCESS) return rc;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return report(*comm, MPI_ERR_COMM, fn, "a predefined communicator cannot be freed");
  if (int rc = impi::api::delete_comm_attrs(*comm); rc != MPI_SUCCESS)
    return report(*comm, rc, fn, "an attribute delete callback failed");
  if (!c->spans_clients) {
    // Inside one client nothing waits: messages still in flight keep their
    // context and complete as usual, and context ids are never reused. (So
    // processes may free communicators in different orders, as Open MPI
    // and MPICH allow.)
  } else {
    // IMPI 4.5's barrier, so no message on it is still in flight: its
    // packets go as the spec says, but in the background (MPI_Finalize
    // waits for it), so frees in different orders do not deadlock.
    start_free_barrier(*c);
  }
  // (A persistent collective's own handle to it keeps the error handler:
  // its release frees it, coll_persistent.cpp.)
  if (c->errhandler && !impi::api::comm_handle_shared(*comm))
    impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
  impi::api::forget_comm_info(*comm);
  if (!impi::api::comm_handle_shared(*comm))  // (its buffered sends in flight go on)
    impi::api::req::drop_buffer(impi::api::req::BufScope::comm, impi::api::handle_value(*comm));
  impi::api::free_comm_handle(*comm);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) {
  Communicator *a, *b;
  if (int rc = check_comm("MPI_Comm_compare", comm1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_comm("MPI_Comm_compare", comm2, b); rc != MPI_SUCCESS) return rc;
  if (!result) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Comm_compare", "result is NULL");
  if (a == b) {
    *result = MPI_IDENT;
  } else if (a->inter != b->inter) {
    *result = MPI_UNEQUAL;
  } else if (a->world == b->world && a->remote_world == b->remote_world) {
    *result = MPI_CONGRUENT;
  } else {
    auto x = a->world, y = b->world, rx = a->remote_world, ry = b->remote_world;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    std::sort(rx.begin(), rx.end());
    std::sort(ry.begin(), ry.end());
    *result = x == y && rx == ry ? MPI_SIMILAR : MPI_UNEQUAL;
  }
  return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char *name) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_set_name", comm, c); rc != MPI_SUCCESS) return rc;
  if (!name) return report(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "name is NULL");
  c->name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_get_name", comm, c); rc != MPI_SUCCESS) return rc;
  if (!name || !resultlen) return report(comm, MPI_ERR_ARG, "MPI_Comm_get_name", "NULL argument");
  std::size_t n = std::min<std::size_t>(c->name.size(), MPI_MAX_OBJECT_NAME - 1);
  std::memcpy(name, c->name.data(), n);
  name[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_test_inter", comm, c); rc != MPI_SUCCESS) return rc;
  if (!flag) return report(comm, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
  *flag = c->inter;
  return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size) {
  Communicator *c;
  if (int rc = check_comm("MPI_Comm_remote_size", comm, c); rc != MPI_SUCCESS) return rc;
  if (!c->inter)
    return report(comm, MPI_ERR_COMM, "MPI_Comm_remote_size", "not an intercommunicator");
  if (!size) return report(comm, MPI_ERR_ARG, "MPI_Comm_remote_size", "size is NULL");
  *size = static_cast<int>(c->remote_world.size());
  return MPI_SUCCESS;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm) {
  const char *fn = "MPI_Intercomm_create";
  Communicator *lc;
  if (int rc = check_comm(fn, local_comm, lc); rc != MPI_SUCCESS) return rc;
  if (!newintercomm) return report(local_comm, MPI_ERR_ARG, fn, "newintercomm is NULL");
  if (lc->inter)
    return report(local_comm, MPI_ERR_COMM, fn, "local_comm must be an intracommunicator");
  if (local_leader < 0 || local_leader >= lc->size)
    return report(local_comm, MPI_ERR_RANK, fn,
                  fmt::format("local_leader {} is not in local_comm", local_leader));
  if (tag < 0) return report(local_comm, MPI_ERR_TAG, fn, fmt::format("invalid tag {}", tag));
  Communicator *pc = nullptr;  // peer_comm matters at the local leader only
  if (lc->rank == local_leader) {
    if (int rc = check_comm(fn, peer_comm, pc); rc != MPI_SUCCESS) return rc;
    if (remote_leader < 0 || remote_leader >= pc->peer_size())
      return report(peer_comm, MPI_ERR_RANK, fn,
                    fmt::format("remote_leader {} is not in peer_comm", remote_leader));
  }
  std::vector<int> remote;
  auto cid = coll::intercomm_create(*lc, local_leader, pc, remote_leader, tag, remote);
  if (!cid) return fail(local_comm, fn, {cid.error(), cid.message()});
  *newintercomm = make_intercomm(*lc, lc->world, std::move(remote), *cid);
  return MPI_SUCCESS;
}

}  // extern "C"

namespace {
// Whether local leader `a` orders before remote leader `b`: by world rank
// within a job; across jobs (dynamic processes) by a name both sides
// compute alike (job id, then rank).
bool leader_first(int a, int b) {
  auto &p2p = impi::core::Runtime::instance().p2p();
  if (!impi::core::P2P::dyn(a) && !impi::core::P2P::dyn(b)) return a < b;
  return p2p.jobs().proc_key(a) < p2p.jobs().proc_key(b);
}
}  // namespace

extern "C" {

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm) {
  const char *fn = "MPI_Intercomm_merge";
  Communicator *c;
  if (int rc = check_comm(fn, intercomm, c); rc != MPI_SUCCESS) return rc;
  if (!c->inter) return report(intercomm, MPI_ERR_COMM, fn, "not an intercommunicator");
  if (!newintracomm) return report(intercomm, MPI_ERR_ARG, fn, "newintracomm is NULL");
  // IMPI 4.9: the criss-cross exchange (IMPI_MERGE_TAG) of (max cid, high):
  // everything a leader receives comes from the other group, so it keeps
  // its own high in slot 1 and puts the other group's in slot 2; the value
  // a non-leader gets back is the remote leader's: (max, their high, ours).
  std::vector<std::uint64_t> v{0, static_cast<std::uint64_t>(high != 0), 0};
  auto fold = [](const std::vector<std::uint64_t> &in, std::vector<std::uint64_t> &acc) {
    acc[0] = std::max(acc[0], in[0]);
    acc[2] = in[1];
  };
  auto cid = coll::criss_cross_context(*c, kMergeTag, v, fold);
  if (!cid) return fail(intercomm, fn, {cid.error(), cid.message()});
  bool my_high = high != 0;
  bool remote_high = c->rank == 0 ? v[2] != 0 : v[1] != 0;
  bool local_first;
  if (my_high != remote_high)
    local_first = !my_high;  // the "low" group comes first
  else
    local_first = leader_first(c->world[0],
                               c->remote_world[0]);  // equal: the group of the "lower" leader first
  std::vector<int> world = local_first ? c->world : c->remote_world;
  const auto &second = local_first ? c->remote_world : c->world;
  world.insert(world.end(), second.begin(), second.end());
  *newintracomm = make_comm(*c, world, *cid);
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/comm_aliases.inc"
