// coll_persistent.cpp - persistent collectives (MPI-4.0 6.12): MPI_Barrier_init
// through MPI_Neighbor_alltoallw_init. The request keeps the arguments (its
// own copies of the count, displacement and type arrays) and its own handles
// to the communicator, derived types and user operations, so the program
// may free or reuse its own after the init call (requests.hpp: CollStart,
// released with the request).
//
// Barrier, Bcast, Reduce and Allreduce (and their _c forms) are checked
// and prepared by the init call: the arguments' checks (errors come from
// the init call), the type, the reduction (a predefined operator's combine
// functions, or the user function with the request's type handle) and the
// communicator's view (its rank tables) are made once; each MPI_Start only
// creates the operation's coroutine from them and queues it, as the
// nonblocking call would (the same tasks, so across IMPI clients the wire
// is the nonblocking collective's). Inside one client a small one takes
// shared-memory slots instead, without blocking (fast_native.hpp,
// SlotOp): with MPI-4.1's strict ordering assertion on MPI_COMM_WORLD the
// blocking calls' slots, in their queue (and a larger Allreduce, up to the
// ring's size at a power-of-two size, recursive doubling's messages step
// by step in the same queue, without a coroutine per start); without it,
// on an intracommunicator in one client (a subset of the procs too), a
// pair of slots of its own, agreed by the init call (Init::take_slots),
// whose starts complete in any order.
// The others start the corresponding nonblocking collective with the
// saved arguments at each MPI_Start. Each call's int and _c forms are one
// template over the count (and displacement) type. The request is
// inactive after init and after every completion; MPI_Request_free
// releases it. Without the assertion each request runs on its own
// duplicate of the communicator (Init::check), so starts in different
// orders on different ranks match as the init calls did.
#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <vector>

#include "api/coll_args.hpp"
#include "api/comm_internal.hpp"
#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/ops.hpp"
#include "api/requests.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/fast_native.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::report;
using namespace impi::api::req;
namespace coll = impi::collectives;
namespace ca = impi::api::coll_args;

namespace impi::api::req {
CollStart::~CollStart() {
  if (slot_op) coll::slots_release(std::move(slot_op));
  for (MPI_Datatype t : types) impi::api::free_type(t);
  for (MPI_Op &o : ops) PMPI_Op_free(&o);
  if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF) {
    // The last handle to the communicator (the program freed its own, or
    // it is the request's own duplicate): its error handler goes with it
    // (MPI_Comm_free left it to us; make_comm retained it for the duplicate).
    if (!impi::api::comm_handle_shared(comm))
      if (auto *c = impi::api::lookup_comm(comm); c && c->errhandler)
        impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
    impi::api::free_comm_handle(comm);
  }
}
}  // namespace impi::api::req

namespace {

// What the init calls share: the checks, the request's own handles.
struct Init {
  const char *fn;
  MPI_Comm comm;  // the program's handle; after check(), the request's own
  std::shared_ptr<CollStart> cs = std::make_shared<CollStart>();
  int local = 0, remote = 0, rank = 0;  // group sizes (remote: the peers'), our rank
  bool inter = false;
  // The program asserts that it starts the communicator's persistent
  // collectives in the same order on every rank (MPI-4.1 6.13's
  // mpi_assert_strict_persistent_collective_ordering, on the communicator
  // or on the init call): only then may they take the world slots, whose
  // operations match in the order they start. MPI-4.0 lets the starts come
  // in any order (they match in the order of the init calls).
  bool strict = false;

  static bool strict_order(MPI_Comm c, MPI_Info info) {
    auto asserts = [](MPI_Info i) {
      if (i == MPI_INFO_NULL) return false;
      char v[8] = {};
      int len = sizeof v, flag = 0;
      if (PMPI_Info_get_string(i, "mpi_assert_strict_persistent_collective_ordering", &len, v,
                               &flag) != MPI_SUCCESS)
        return false;
      return flag != 0 && std::strcmp(v, "true") == 0;
    };
    if (asserts(info)) return true;
    MPI_Info used = MPI_INFO_NULL;
    if (PMPI_Comm_get_info(c, &used) != MPI_SUCCESS) return false;
    const bool yes = asserts(used);
    PMPI_Info_free(&used);
    return yes;
  }

  Init(const char *f, MPI_Comm c) : fn(f), comm(c) {}
  int check(MPI_Info info, MPI_Request *request) {
    if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
    if (!impi::api::lookup_comm(comm))
      return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
    if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
    int flag = 0;
    if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &flag) != MPI_SUCCESS)
      return report(comm, MPI_ERR_INFO, fn, "not a valid info object");
    strict = strict_order(comm, info);
    PMPI_Comm_test_inter(comm, &flag);
    inter = flag != 0;
    PMPI_Comm_size(comm, &local);
    PMPI_Comm_rank(comm, &rank);
    remote = local;
    if (inter) PMPI_Comm_remote_size(comm, &remote);
    // The request's own handle to the communicator (the program may free
    // its handle after the init call; the communicator lives on). Unless
    // the program asserts that it starts them in the same order everywhere,
    // each persistent collective runs on a communicator of its own: a
    // duplicate's context and queue. Ranks may start several in different
    // orders (MPI-4.0 6.12: only the init calls are ordered; MPICH and
    // Open MPI match them whatever the order); on one context their
    // messages would meet the wrong operation's, and each rank's queue would
    // wait for the one its peers started later.
    MPI_Comm mine = MPI_COMM_NULL;
    if (!strict && (inter || local > 1)) {
      if (int rc = impi::api::comm_shared::bare_dup(fn, comm, *impi::api::lookup_comm(comm), &mine);
          rc != MPI_SUCCESS)
        return rc;
    } else {
      mine = impi::api::share_comm_handle(comm);
    }
    if (mine == MPI_COMM_NULL)
      return report(MPI_COMM_NULL, MPI_ERR_COMM, fn, "not a valid communicator");
    cs->comm = mine;
    comm = mine;
    return MPI_SUCCESS;
  }
  // The request's own handle to a derived type (the program may free its
  // handle right after the init call, MPI-3.1 4.1.9); others as they are.
  MPI_Datatype own(MPI_Datatype h) {
    if (h == MPI_DATATYPE_NULL || impi::api::lookup_predefined_type(h)) return h;
    auto t = impi::api::lookup_type(h);
    if (!t) return h;  // (reported by the start)
    MPI_Datatype mine = impi::api::new_type_handle(t->type, t->committed);
    cs->types.push_back(mine);
    return mine;
  }
  std::vector<MPI_Datatype> own(const MPI_Datatype *hs, int n) {
    std::vector<MPI_Datatype> out;
    if (hs)
      for (int i = 0; i < n; ++i) out.push_back(own(hs[i]));
    return out;
  }
  // The request's own handle to a user operation (the program may free its
  // handle after the init call); predefined and invalid ones as they are.
  MPI_Op own(MPI_Op h) {
    auto ref = impi::api::lookup_op(h);
    if (!ref || ref->predefined || !ref->user) return h;
    MPI_Op mine = MPI_OP_NULL;
    if (PMPI_Op_create(ref->user, ref->commutative ? 1 : 0, &mine) != MPI_SUCCESS) return h;
    cs->ops.push_back(mine);
    return mine;
  }
  // The start's own checks of some arguments, made by the init call (the
  // error, with its class, comes from there); after check().
  int root(int r) const {
    ca::Comm c{impi::api::lookup_comm(comm)};
    int out = 0;
    return inter ? ca::inter_root(fn, comm, c, r, out) : ca::check_root(fn, comm, c, r);
  }
  int count(MPI_Count n) const { return ca::check_count(fn, comm, n); }
  int type(MPI_Datatype t) const {
    impi::pack::TypePtr tp;
    return impi::api::check_type(fn, comm, t, tp);
  }
  // A valid operation defined on type `t` (a valid type: checked first).
  int op(MPI_Op o, MPI_Datatype t, MPI_Count n) const {
    impi::pack::TypePtr tp;
    if (int rc = impi::api::check_type(fn, comm, t, tp); rc != MPI_SUCCESS) return rc;
    coll::Reduction user;
    coll::ReduceOp out;
    return ca::make_op(fn, comm, o, t, tp, n, user, out);
  }
  // Whether this rank is a rooted operation's root (its root-only arrays count).
  bool is_root(int root) const { return inter ? root == MPI_ROOT : root == rank; }
  int done(MPI_Request *request, std::function<int(MPI_Request *)> start) {
    cs->start = std::move(start);
    return finish(request);
  }
  // A prepared operation: `task` makes its coroutine for each start.
  int done_direct(MPI_Request *request, const impi::core::Communicator *c,
                  std::function<coll::Task()> task) {
    const char *f = fn;
    MPI_Comm h = comm;
    cs->direct = [f, h, c, task = std::move(task)](RequestPtr *out) {
      if (auto s = coll::start(*c, task(), out); !s.ok()) return ca::finish(f, h, s);
      return MPI_SUCCESS;
    };
    return finish(request);
  }
  // A prepared operation on MPI_COMM_WORLD's shared-memory slots
  // (fast_native.hpp: the blocking calls' fast path, without blocking):
  // each start queues `op`.
  int done_slots(MPI_Request *request, std::shared_ptr<coll::SlotOp> op) {
    cs->slots = true;
    cs->direct = [op = op.get()](RequestPtr *out) {
      *out = coll::slots_start(impi::core::Runtime::instance().p2p(), *op);
      return MPI_SUCCESS;
    };
    cs->slot_op = std::move(op);
    return finish(request);
  }
  // Whether `op` (prepared, its vector fitting a slot) takes slots:
  // MPI_COMM_WORLD's queue when the program asserts the order (and
  // `world_ok`, the blocking form's conditions), else a pair of its own
  // on its duplicate of an intracommunicator in one client, agreed with
  // the other ranks here (collective; the same decision everywhere).
  bool take_slots(coll::SlotOp &op, bool world_ok) {
    if (strict) return world_ok;
    auto &p2p = impi::core::Runtime::instance().p2p();
    if (!coll::own_slots_ok(p2p, *op.comm)) return false;
    std::uint64_t mine[coll::kOwnOffer], all[coll::kOwnOffer];
    const std::uint32_t reserved = coll::own_slots_offer(p2p, *op.comm, mine);
    if (PMPI_Allreduce(mine, all, coll::kOwnOffer, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS)
      std::fill(std::begin(all), std::end(all), 1);  // (releases the reservation)
    return coll::own_slots_take(op, all, reserved);
  }
  int finish(MPI_Request *request) {
    Persistent p{};
    p.type = MPI_DATATYPE_NULL;
    p.comm = comm;
    p.coll = std::move(cs);
    *request = new_request(nullptr, p);
    return MPI_SUCCESS;
  }
};

// A copy of array `a` of n elements (empty if `a` is NULL or unused); data()
// of the copy, or `a` itself when not copied.
template <typename T>
struct Arr {
  std::vector<T> v;
  const T *orig = nullptr;
  Arr(const T *a, int n, bool used = true) : orig(a) {
    if (a && used && n > 0) v.assign(a, a + n);
  }
  const T *get() const { return v.empty() ? orig : v.data(); }
};

// The neighbourhood sizes of a topology communicator (0 if it has none:
// the start reports that).
void degrees(MPI_Comm comm, int &in, int &out) {
  in = out = 0;
  int kind = MPI_UNDEFINED;
  if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS) return;
  if (kind == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(comm, &nd);
    in = out = 2 * nd;
  } else if (kind == MPI_GRAPH) {
    int r = 0;
    PMPI_Comm_rank(comm, &r);
    PMPI_Graph_neighbors_count(comm, r, &in);
    out = in;
  } else if (kind == MPI_DIST_GRAPH) {
    int w = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &w);
  }
}

// A reduction's operation, made once: a predefined operator's combine
// functions, or the user function (called with the request's own type
// handle `th`: the program may free its own).
int prepare_reduction(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype th,
                      const impi::pack::TypePtr &t, std::int64_t count, coll::Reduction &out,
                      bool *predefined = nullptr) {
  coll::Reduction user;
  coll::ReduceOp o;
  if (int rc = ca::make_op(fn, comm, op, th, t, count, user, o); rc != MPI_SUCCESS) return rc;
  out = o.predefined ? o.take(t, count) : std::move(user);
  if (predefined) *predefined = o.predefined.has_value();
  return MPI_SUCCESS;
}

// A reduction to queue on MPI_COMM_WORLD's slots.
std::shared_ptr<coll::SlotOp> slot_op(coll::SlotOp::Kind kind, const impi::core::Communicator &c,
                                      const void *sendbuf, void *recvbuf, std::int64_t count,
                                      const impi::pack::TypePtr &t, const coll::Reduction &red) {
  auto op = std::make_shared<coll::SlotOp>();
  op->kind = kind;
  op->comm = &c;
  op->sendbuf = sendbuf;
  op->recvbuf = recvbuf;
  op->count = count;
  op->type = t;
  op->red = red;
  return op;
}
// Whether a Reduce or Allreduce (`kind`) takes slots (Init::take_slots):
// a predefined operation on a plain vector that fits them (as the blocking
// Allreduce decides: a derived type only where its messages' algorithm
// would be recursive doubling), then the operation to start.
std::shared_ptr<coll::SlotOp> reduce_slots(Init &in, coll::SlotOp::Kind kind, int root,
                                           const impi::core::Communicator &c, bool predefined,
                                           const void *sendbuf, void *recvbuf, std::int64_t count,
                                           const impi::pack::TypePtr &t,
                                           const coll::Reduction &red) {
  if (!predefined || !coll::slots_fit_allreduce(count, t)) return nullptr;
  if (!t->is_predefined() && count >= c.size && count * t->size() >= coll::allreduce_ring_min())
    return nullptr;
  auto op = slot_op(kind, c, sendbuf, recvbuf, count, t, red);
  op->root = root;
  if (!in.take_slots(*op,
                     coll::slots_allreduce_ok(impi::core::Runtime::instance().p2p(), c, count, t)))
    return nullptr;
  return op;
}

template <typename C>
int bcast_init(const char *fn, void *buffer, C count, MPI_Datatype datatype, int root,
               MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  ca::Comm c;
  impi::pack::TypePtr t;
  if (int rc = ca::check_comm(fn, in.comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = ca::check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = impi::api::check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r = 0;
    if (int rc = ca::inter_root(fn, comm, c, root, r); rc != MPI_SUCCESS) return rc;
    return in.done_direct(request, c.comm,
                          [v = coll::remote_view_of(*c.comm), buffer, count, t, r] {
                            return coll::inter_bcast(v, buffer, count, t, r);
                          });
  }
  if (int rc = ca::check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  if (int rc = ca::check_buffer(fn, comm, buffer, count, t); rc != MPI_SUCCESS) return rc;
  if (coll::slots_fit_bcast(count, t)) {
    auto op = std::make_shared<coll::SlotOp>();
    op->kind = coll::SlotOp::Kind::bcast;
    op->comm = c.comm;
    op->recvbuf = buffer;
    op->count = count;
    op->type = t;
    op->root = root;
    if (in.take_slots(
            *op, coll::slots_bcast_ok(impi::core::Runtime::instance().p2p(), *c.comm, count, t)))
      return in.done_slots(request, std::move(op));
  }
  return in.done_direct(request, c.comm, [v = coll::view_of(*c.comm), buffer, count, t, root] {
    return coll::bcast_task(v, buffer, count, t, root);
  });
}

template <typename C, typename Start>
int gather_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                MPI_Datatype sendtype, void *recvbuf, C recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.root(root); rc != MPI_SUCCESS) return rc;
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, root, comm, r);
  });
}

template <typename C, typename D, typename Start>
int gatherv_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                 MPI_Datatype sendtype, void *recvbuf, const C recvcounts[], const D displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.root(root); rc != MPI_SUCCESS) return rc;
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  const bool at_root = in.is_root(root);
  Arr<C> rc(recvcounts, in.remote, at_root);
  Arr<D> d(displs, in.remote, at_root);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, rc.get(), d.get(), rt, root, comm, r);
  });
}

template <typename C, typename Start>
int scatter_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                 MPI_Datatype sendtype, void *recvbuf, C recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.root(root); rc != MPI_SUCCESS) return rc;
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, root, comm, r);
  });
}

template <typename C, typename D, typename Start>
int scatterv_init(const char *fn, Start start, const void *sendbuf, const C sendcounts[],
                  const D displs[], MPI_Datatype sendtype, void *recvbuf, C recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.root(root); rc != MPI_SUCCESS) return rc;
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  const bool at_root = in.is_root(root);
  Arr<C> sc(sendcounts, in.remote, at_root);
  Arr<D> d(displs, in.remote, at_root);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sc.get(), d.get(), st, recvbuf, recvcount, rt, root, comm, r);
  });
}

template <typename C, typename Start>
int allgather_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                   MPI_Datatype sendtype, void *recvbuf, C recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, comm, r);
  });
}

template <typename C, typename D, typename Start>
int allgatherv_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                    MPI_Datatype sendtype, void *recvbuf, const C recvcounts[], const D displs[],
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  Arr<C> rc(recvcounts, in.remote);
  Arr<D> d(displs, in.remote);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, rc.get(), d.get(), rt, comm, r);
  });
}

template <typename C, typename Start>
int alltoall_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                  MPI_Datatype sendtype, void *recvbuf, C recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, comm, r);
  });
}

template <typename C, typename D, typename Start>
int alltoallv_init(const char *fn, Start start, const void *sendbuf, const C sendcounts[],
                   const D sdispls[], MPI_Datatype sendtype, void *recvbuf, const C recvcounts[],
                   const D rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  const bool sends = sendbuf != MPI_IN_PLACE;
  MPI_Datatype st = sends ? in.own(sendtype) : sendtype, rt = in.own(recvtype);
  Arr<C> sc(sendcounts, in.remote, sends);
  Arr<D> sd(sdispls, in.remote, sends);
  Arr<C> rc(recvcounts, in.remote);
  Arr<D> rd(rdispls, in.remote);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sc.get(), sd.get(), st, recvbuf, rc.get(), rd.get(), rt, comm, r);
  });
}

template <typename C, typename D, typename Start>
int alltoallw_init(const char *fn, Start start, const void *sendbuf, const C sendcounts[],
                   const D sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                   const C recvcounts[], const D rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  const bool sends = sendbuf != MPI_IN_PLACE;
  Arr<C> sc(sendcounts, in.remote, sends);
  Arr<D> sd(sdispls, in.remote, sends);
  Arr<C> rc(recvcounts, in.remote);
  Arr<D> rd(rdispls, in.remote);
  Arr<MPI_Datatype> stv(sendtypes, 0), rtv(recvtypes, 0);
  if (sends && sendtypes) stv.v = in.own(sendtypes, in.remote);
  if (recvtypes) rtv.v = in.own(recvtypes, in.remote);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sc.get(), sd.get(), stv.get(), recvbuf, rc.get(), rd.get(), rtv.get(),
                 comm, r);
  });
}

template <typename C>
int reduce_init(const char *fn, const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  ca::Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = ca::check_comm(fn, in.comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r = 0;
    if (int rc = ca::inter_root(fn, comm, c, root, r); rc != MPI_SUCCESS) return rc;
    if (int rc = ca::no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = ca::check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
    if (int rc = impi::api::check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
    if (int rc = prepare_reduction(fn, comm, op, in.own(datatype), t, count, red);
        rc != MPI_SUCCESS)
      return rc;
    return in.done_direct(request, c.comm,
                          [v = coll::remote_view_of(*c.comm), sendbuf, recvbuf, count, t, red, r] {
                            return coll::inter_reduce(v, sendbuf, recvbuf, count, t, red, r);
                          });
  }
  if (int rc = ca::check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = impi::api::check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (int rc = ca::check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  bool predefined = false;
  if (int rc = prepare_reduction(fn, comm, op, in.own(datatype), t, count, red, &predefined);
      rc != MPI_SUCCESS)
    return rc;
  const bool at_root = c.comm->rank == root;
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    sendbuf = recvbuf;
  } else if (at_root && sendbuf == recvbuf && count > 0) {
    return report(comm, MPI_ERR_BUFFER, fn,
                  "send and receive buffers are the same (use MPI_IN_PLACE)");
  }
  if (int rc = ca::check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
  if (at_root)
    if (int rc = ca::check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  if (auto slots = reduce_slots(in, coll::SlotOp::Kind::reduce, root, *c.comm, predefined, sendbuf,
                                recvbuf, count, t, red))
    return in.done_slots(request, std::move(slots));
  return in.done_direct(request, c.comm,
                        [v = coll::view_of(*c.comm), sendbuf, recvbuf, count, t, red, root] {
                          return coll::reduce_task(v, sendbuf, recvbuf, count, t, red, root);
                        });
}

template <typename C>
int allreduce_init(const char *fn, const void *sendbuf, void *recvbuf, C count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  ca::Comm c;
  impi::pack::TypePtr t;
  coll::Reduction red;
  if (int rc = ca::check_comm(fn, in.comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    if (int rc = ca::no_in_place(fn, comm, sendbuf, recvbuf); rc != MPI_SUCCESS) return rc;
  } else if (sendbuf == MPI_IN_PLACE) {
    sendbuf = recvbuf;
  } else if (sendbuf == recvbuf && count > 0) {
    return report(comm, MPI_ERR_BUFFER, fn,
                  "send and receive buffers are the same (use MPI_IN_PLACE)");
  }
  if (int rc = ca::check_count(fn, comm, count); rc != MPI_SUCCESS) return rc;
  if (int rc = impi::api::check_type(fn, comm, datatype, t); rc != MPI_SUCCESS) return rc;
  if (!c.comm->inter) {
    if (int rc = ca::check_buffer(fn, comm, sendbuf, count, t); rc != MPI_SUCCESS) return rc;
    if (int rc = ca::check_buffer(fn, comm, recvbuf, count, t); rc != MPI_SUCCESS) return rc;
  }
  bool predefined = false;
  if (int rc = prepare_reduction(fn, comm, op, in.own(datatype), t, count, red, &predefined);
      rc != MPI_SUCCESS)
    return rc;
  if (c.comm->inter) {
    const int r = c.comm->rank;
    return in.done_direct(request, c.comm,
                          [v = coll::remote_view_of(*c.comm), r, sendbuf, recvbuf, count, t, red] {
                            return coll::inter_allreduce(v, r, sendbuf, recvbuf, count, t, red);
                          });
  }
  if (auto slots = reduce_slots(in, coll::SlotOp::Kind::allreduce, 0, *c.comm, predefined, sendbuf,
                                recvbuf, count, t, red))
    return in.done_slots(request, std::move(slots));
  if (in.strict && predefined &&
      coll::slots_exchange_ok(impi::core::Runtime::instance().p2p(), *c.comm, count, t))
    return in.done_slots(
        request, slot_op(coll::SlotOp::Kind::exchange, *c.comm, sendbuf, recvbuf, count, t, red));
  return in.done_direct(request, c.comm,
                        [v = coll::view_of(*c.comm), sendbuf, recvbuf, count, t, red] {
                          return coll::allreduce_task(v, sendbuf, recvbuf, count, t, red);
                        });
}

template <typename C, typename Start>
int reduce_scatter_init(const char *fn, Start start, const void *sendbuf, void *recvbuf,
                        const C recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.op(op, datatype, 0); rc != MPI_SUCCESS) return rc;
  op = in.own(op);
  MPI_Datatype t = in.own(datatype);
  Arr<C> rc(recvcounts, in.local);
  return in.done(request,
                 [=](MPI_Request *r) { return start(sendbuf, recvbuf, rc.get(), t, op, comm, r); });
}

template <typename C, typename Start>
int reduce_scatter_block_init(const char *fn, Start start, const void *sendbuf, void *recvbuf,
                              C recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = in.op(op, datatype, recvcount); rc != MPI_SUCCESS) return rc;
  op = in.own(op);
  MPI_Datatype t = in.own(datatype);
  return in.done(
      request, [=](MPI_Request *r) { return start(sendbuf, recvbuf, recvcount, t, op, comm, r); });
}

// MPI_Scan_init and MPI_Exscan_init (the same checks; `start` is the Iscan or Iexscan).
template <typename C, typename Start>
int scan_init(const char *fn, Start start, const void *sendbuf, void *recvbuf, C count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
              MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(count); rc != MPI_SUCCESS) return rc;
  if (int rc = in.op(op, datatype, count); rc != MPI_SUCCESS) return rc;
  op = in.own(op);
  MPI_Datatype t = in.own(datatype);
  return in.done(request,
                 [=](MPI_Request *r) { return start(sendbuf, recvbuf, count, t, op, comm, r); });
}

template <typename C, typename Start>
int neighbor_allgather_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                            MPI_Datatype sendtype, void *recvbuf, C recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, comm, r);
  });
}

template <typename C, typename D, typename Start>
int neighbor_allgatherv_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                             MPI_Datatype sendtype, void *recvbuf, const C recvcounts[],
                             const D displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  Arr<C> rc(recvcounts, indeg);
  Arr<D> d(displs, indeg);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, rc.get(), d.get(), rt, comm, r);
  });
}

template <typename C, typename Start>
int neighbor_alltoall_init(const char *fn, Start start, const void *sendbuf, C sendcount,
                           MPI_Datatype sendtype, void *recvbuf, C recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  if (int rc = in.count(recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = in.type(recvtype); rc != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = in.count(sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = in.type(sendtype); rc != MPI_SUCCESS) return rc;
  }
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sendcount, st, recvbuf, recvcount, rt, comm, r);
  });
}

template <typename C, typename D, typename Start>
int neighbor_alltoallv_init(const char *fn, Start start, const void *sendbuf, const C sendcounts[],
                            const D sdispls[], MPI_Datatype sendtype, void *recvbuf,
                            const C recvcounts[], const D rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  MPI_Datatype st = in.own(sendtype), rt = in.own(recvtype);
  Arr<C> sc(sendcounts, outdeg);
  Arr<D> sd(sdispls, outdeg);
  Arr<C> rc(recvcounts, indeg);
  Arr<D> rd(rdispls, indeg);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sc.get(), sd.get(), st, recvbuf, rc.get(), rd.get(), rt, comm, r);
  });
}

template <typename C, typename Start>
int neighbor_alltoallw_init(const char *fn, Start start, const void *sendbuf, const C sendcounts[],
                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                            const C recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request *request) {
  Init in(fn, comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  comm = in.comm;
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  Arr<C> sc(sendcounts, outdeg);
  Arr<C> rc(recvcounts, indeg);
  Arr<MPI_Aint> sd(sdispls, outdeg), rd(rdispls, indeg);
  Arr<MPI_Datatype> stv(sendtypes, 0), rtv(recvtypes, 0);
  if (sendtypes) stv.v = in.own(sendtypes, outdeg);
  if (recvtypes) rtv.v = in.own(recvtypes, indeg);
  return in.done(request, [=](MPI_Request *r) {
    return start(sendbuf, sc.get(), sd.get(), stv.get(), recvbuf, rc.get(), rd.get(), rtv.get(),
                 comm, r);
  });
}

}  // namespace

extern "C" {

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  Init in("MPI_Barrier_init", comm);
  if (int rc = in.check(info, request); rc != MPI_SUCCESS) return rc;
  const impi::core::Communicator *c = impi::api::lookup_comm(in.comm);
  if (c->inter) {
    const int r = c->rank;
    return in.done_direct(request, c,
                          [v = coll::remote_view_of(*c), r] { return coll::inter_barrier(v, r); });
  }
  auto op = std::make_shared<coll::SlotOp>();
  op->kind = coll::SlotOp::Kind::barrier;
  op->comm = c;
  if (in.take_slots(*op, coll::slots_barrier_ok(impi::core::Runtime::instance().p2p(), *c)))
    return in.done_slots(request, std::move(op));
  return in.done_direct(request, c, [v = coll::view_of(*c)] { return coll::barrier_task(v); });
}

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request) {
  return bcast_init("MPI_Bcast_init", buffer, count, datatype, root, comm, info, request);
}

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request) {
  return bcast_init("MPI_Bcast_init_c", buffer, count, datatype, root, comm, info, request);
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request) {
  return gather_init("MPI_Gather_init", PMPI_Igather, sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, root, comm, info, request);
}

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return gather_init("MPI_Gather_init_c", PMPI_Igather_c, sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, root, comm, info, request);
}

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return gatherv_init("MPI_Gatherv_init", PMPI_Igatherv, sendbuf, sendcount, sendtype, recvbuf,
                      recvcounts, displs, recvtype, root, comm, info, request);
}

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
  return gatherv_init("MPI_Gatherv_init_c", PMPI_Igatherv_c, sendbuf, sendcount, sendtype, recvbuf,
                      recvcounts, displs, recvtype, root, comm, info, request);
}

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request) {
  return scatter_init("MPI_Scatter_init", PMPI_Iscatter, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, root, comm, info, request);
}

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scatter_init("MPI_Scatter_init_c", PMPI_Iscatter_c, sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, root, comm, info, request);
}

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scatterv_init("MPI_Scatterv_init", PMPI_Iscatterv, sendbuf, sendcounts, displs, sendtype,
                       recvbuf, recvcount, recvtype, root, comm, info, request);
}

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request) {
  return scatterv_init("MPI_Scatterv_init_c", PMPI_Iscatterv_c, sendbuf, sendcounts, displs,
                       sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
  return allgather_init("MPI_Allgather_init", PMPI_Iallgather, sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request) {
  return allgather_init("MPI_Allgather_init_c", PMPI_Iallgather_c, sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return allgatherv_init("MPI_Allgatherv_init", PMPI_Iallgatherv, sendbuf, sendcount, sendtype,
                         recvbuf, recvcounts, displs, recvtype, comm, info, request);
}

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request) {
  return allgatherv_init("MPI_Allgatherv_init_c", PMPI_Iallgatherv_c, sendbuf, sendcount, sendtype,
                         recvbuf, recvcounts, displs, recvtype, comm, info, request);
}

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request) {
  return alltoall_init("MPI_Alltoall_init", PMPI_Ialltoall, sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, info, request);
}

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request) {
  return alltoall_init("MPI_Alltoall_init_c", PMPI_Ialltoall_c, sendbuf, sendcount, sendtype,
                       recvbuf, recvcount, recvtype, comm, info, request);
}

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
  return alltoallv_init("MPI_Alltoallv_init", PMPI_Ialltoallv, sendbuf, sendcounts, sdispls,
                        sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
  return alltoallv_init("MPI_Alltoallv_init_c", PMPI_Ialltoallv_c, sendbuf, sendcounts, sdispls,
                        sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request) {
  return alltoallw_init("MPI_Alltoallw_init", PMPI_Ialltoallw, sendbuf, sendcounts, sdispls,
                        sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, info, request);
}

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
  return alltoallw_init("MPI_Alltoallw_init_c", PMPI_Ialltoallw_c, sendbuf, sendcounts, sdispls,
                        sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, info, request);
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return reduce_init("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm, info,
                     request);
}

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return reduce_init("MPI_Reduce_init_c", sendbuf, recvbuf, count, datatype, op, root, comm, info,
                     request);
}

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return allreduce_init("MPI_Allreduce_init", sendbuf, recvbuf, count, datatype, op, comm, info,
                        request);
}

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
  return allreduce_init("MPI_Allreduce_init_c", sendbuf, recvbuf, count, datatype, op, comm, info,
                        request);
}

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request) {
  return reduce_scatter_init("MPI_Reduce_scatter_init", PMPI_Ireduce_scatter, sendbuf, recvbuf,
                             recvcounts, datatype, op, comm, info, request);
}

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request) {
  return reduce_scatter_init("MPI_Reduce_scatter_init_c", PMPI_Ireduce_scatter_c, sendbuf, recvbuf,
                             recvcounts, datatype, op, comm, info, request);
}

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  return reduce_scatter_block_init("MPI_Reduce_scatter_block_init", PMPI_Ireduce_scatter_block,
                                   sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request) {
  return reduce_scatter_block_init("MPI_Reduce_scatter_block_init_c", PMPI_Ireduce_scatter_block_c,
                                   sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scan_init("MPI_Scan_init", PMPI_Iscan, sendbuf, recvbuf, count, datatype, op, comm, info,
                   request);
}

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scan_init("MPI_Scan_init_c", PMPI_Iscan_c, sendbuf, recvbuf, count, datatype, op, comm,
                   info, request);
}

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scan_init("MPI_Exscan_init", PMPI_Iexscan, sendbuf, recvbuf, count, datatype, op, comm,
                   info, request);
}

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return scan_init("MPI_Exscan_init_c", PMPI_Iexscan_c, sendbuf, recvbuf, count, datatype, op, comm,
                   info, request);
}

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
  return neighbor_allgather_init("MPI_Neighbor_allgather_init", PMPI_Ineighbor_allgather, sendbuf,
                                 sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                 request);
}

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return neighbor_allgather_init("MPI_Neighbor_allgather_init_c", PMPI_Ineighbor_allgather_c,
                                 sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 info, request);
}

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request) {
  return neighbor_allgatherv_init("MPI_Neighbor_allgatherv_init", PMPI_Ineighbor_allgatherv,
                                  sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, info, request);
}

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request) {
  return neighbor_allgatherv_init("MPI_Neighbor_allgatherv_init_c", PMPI_Ineighbor_allgatherv_c,
                                  sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, info, request);
}

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request) {
  return neighbor_alltoall_init("MPI_Neighbor_alltoall_init", PMPI_Ineighbor_alltoall, sendbuf,
                                sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                request);
}

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return neighbor_alltoall_init("MPI_Neighbor_alltoall_init_c", PMPI_Ineighbor_alltoall_c, sendbuf,
                                sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                request);
}

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
  return neighbor_alltoallv_init("MPI_Neighbor_alltoallv_init", PMPI_Ineighbor_alltoallv, sendbuf,
                                 sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                 recvtype, comm, info, request);
}

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  return neighbor_alltoallv_init("MPI_Neighbor_alltoallv_init_c", PMPI_Ineighbor_alltoallv_c,
                                 sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm, info, request);
}

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request) {
  return neighbor_alltoallw_init("MPI_Neighbor_alltoallw_init", PMPI_Ineighbor_alltoallw, sendbuf,
                                 sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                 recvtypes, comm, info, request);
}

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  return neighbor_alltoallw_init("MPI_Neighbor_alltoallw_init_c", PMPI_Ineighbor_alltoallw_c,
                                 sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm, info, request);
}

}  // extern "C"

#include "api/generated/coll_persistent_aliases.inc"
