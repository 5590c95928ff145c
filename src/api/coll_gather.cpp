// coll_gather.cpp - Gather, Scatter, Allgather and Alltoall with their v and
// w forms: argument checks, MPI_IN_PLACE and handle conversion, then the
// collectives' tasks (intercommunicators: collectives/inter.hpp).
#include <algorithm>
#include <vector>

#include "api/coll_args.hpp"

using impi::api::check_type;
using impi::api::report;
using namespace impi::api::coll_args;

extern "C" {

static int impl_Gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    if (int rc = inter_rooted(fn, comm, c, root, sendbuf, recvbuf, recvtype, sendtype, r, st);
        rc != MPI_SUCCESS)
      return rc;
    rt = st;
    return launch(fn, comm, c, request,
                  coll::inter_gather(coll::remote_view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                     recvcount, rt, r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (at_root) {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (sendbuf == MPI_IN_PLACE) {
    sendbuf = nullptr;
    st = rt;
    sendcount = recvcount;
  }
  if (!rt) rt = st;  // not significant away from the root
  return launch(fn, comm, c, request,
                coll::gather_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                  recvcount, rt, root));
}

static int impl_Allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    return inter_allgather_or_alltoall(fn, comm, c, request, sendbuf, sendcount, sendtype, recvbuf,
                                       recvcount, recvtype, false);
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE) {
    // My block is already in place in recvbuf.
    sendbuf = static_cast<const std::byte *>(recvbuf) +
              static_cast<std::int64_t>(c.comm->rank) * recvcount * rt->extent();
    st = rt;
    sendcount = recvcount;
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  return launch(
      fn, comm, c, request,
      coll::allgather_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf, recvcount, rt));
}

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Gatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const C recvcounts[], const D displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request,
                        const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    std::vector<coll::Block> blocks;
    if (int rc = inter_v_rooted(fn, comm, c, root, sendbuf, recvbuf, recvtype, sendtype, recvcounts,
                                displs, sendcount, r, st, blocks);
        rc != MPI_SUCCESS)
      return rc;
    return launch(fn, comm, c, request,
                  coll::inter_gatherv(coll::remote_view_of(*c.comm), sendbuf, sendcount, st,
                                      recvbuf, std::move(blocks), r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  std::vector<std::int64_t> counts, disps;
  if (at_root) {
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS)
      return rc;
  }
  if (sendbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    sendbuf = nullptr;
    st = rt;
    sendcount = counts[static_cast<std::size_t>(root)];
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (!rt) rt = st;
  return launch(fn, comm, c, request,
                coll::gatherv_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                   std::move(counts), std::move(disps), rt, root));
}
}  // extern "C++"

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const C recvcounts[], const D displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                           const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, displs, counts, disps); rc != MPI_SUCCESS)
    return rc;
  if (c.comm->inter) {
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    std::vector<coll::Block> sb, rb;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      sb.push_back({sendcount, st, 0});
      rb.push_back({counts[k], rt, disps[k] * rt->extent()});
    }
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  }
  if (sendbuf == MPI_IN_PLACE) {
    auto me = static_cast<std::size_t>(c.comm->rank);
    sendbuf = static_cast<const std::byte *>(recvbuf) + disps[me] * rt->extent();
    st = rt;
    sendcount = counts[me];
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  return launch(fn, comm, c, request,
                coll::allgatherv_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                      std::move(counts), std::move(disps), rt));
}
}  // extern "C++"

static int impl_Scatter(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    if (int rc = inter_rooted(fn, comm, c, root, sendbuf, recvbuf, sendtype, recvtype, r, st);
        rc != MPI_SUCCESS)
      return rc;
    rt = st;
    return launch(fn, comm, c, request,
                  coll::inter_scatter(coll::remote_view_of(*c.comm), sendbuf, sendcount, st,
                                      recvbuf, recvcount, rt, r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (at_root) {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, sendbuf, sendcount, st); rc != MPI_SUCCESS) return rc;
  }
  if (recvbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    recvbuf = nullptr;
    rt = st;
    recvcount = sendcount;
  } else {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (!st) st = rt;
  return launch(fn, comm, c, request,
                coll::scatter_task(coll::view_of(*c.comm), sendbuf, sendcount, st, recvbuf,
                                   recvcount, rt, root));
}

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Scatterv(const void *sendbuf, const C sendcounts[], const D displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request,
                         const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> counts, disps;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter) {
    int r;
    std::vector<coll::Block> blocks;
    if (int rc = inter_v_rooted(fn, comm, c, root, sendbuf, recvbuf, sendtype, recvtype, sendcounts,
                                displs, recvcount, r, st, blocks);
        rc != MPI_SUCCESS)
      return rc;
    return launch(fn, comm, c, request,
                  coll::inter_scatterv(coll::remote_view_of(*c.comm), sendbuf, std::move(blocks),
                                       recvbuf, recvcount, st, r));
  }
  if (int rc = check_root(fn, comm, c, root); rc != MPI_SUCCESS) return rc;
  const bool at_root = c.comm->rank == root;
  if (at_root) {
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, displs, counts, disps); rc != MPI_SUCCESS)
      return rc;
  }
  if (recvbuf == MPI_IN_PLACE) {
    if (!at_root) return report(comm, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is for the root only");
    recvbuf = nullptr;
    rt = st;
    recvcount = counts[static_cast<std::size_t>(root)];
  } else {
    if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
    if (int rc = check_buffer(fn, comm, recvbuf, recvcount, rt); rc != MPI_SUCCESS) return rc;
  }
  if (!st) st = rt;
  if (!at_root) counts.assign(static_cast<std::size_t>(c.comm->size), 0), disps = counts;
  return launch(fn, comm, c, request,
                coll::scatterv_task(coll::view_of(*c.comm), sendbuf, std::move(counts),
                                    std::move(disps), st, recvbuf, recvcount, rt, root));
}
}  // extern "C++"

static int impl_Alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    return inter_allgather_or_alltoall(fn, comm, c, request, sendbuf, sendcount, sendtype, recvbuf,
                                       recvcount, recvtype, true);
  if (int rc = check_count(fn, comm, recvcount); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (sendbuf == MPI_IN_PLACE) {  // the data to send is in recvbuf: send from a copy
    st = rt;
    sendcount = recvcount;
    std::int64_t n = static_cast<std::int64_t>(c.comm->size) * recvcount;
    sendbuf = in_place_copy(recvbuf, rt, n > 0 ? 0 : -1, n > 0 ? (n - 1) * rt->extent() : -1, copy);
  } else {
    if (int rc = check_count(fn, comm, sendcount); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
  }
  std::vector<coll::Block> sb, rb;
  for (int r = 0; r < c.comm->size; ++r) {
    sb.push_back({sendcount, st, static_cast<std::int64_t>(r) * sendcount * st->extent()});
    rb.push_back({recvcount, rt, static_cast<std::int64_t>(r) * recvcount * rt->extent()});
  }
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 170, std::move(copy)));
}

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Alltoallv(const void *sendbuf, const C sendcounts[], const D sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const C recvcounts[],
                          const D rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request, const char *fn) {
  Comm c;
  impi::pack::TypePtr st, rt;
  std::vector<std::int64_t> sc, sd, rc_, rd;
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (int rc = check_type(fn, comm, recvtype, rt); rc != MPI_SUCCESS) return rc;
  if (int rc = vectors(fn, comm, c, recvcounts, rdispls, rc_, rd); rc != MPI_SUCCESS) return rc;
  std::vector<std::byte> copy;
  if (c.comm->inter) {
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, sdispls, sc, sd); rc != MPI_SUCCESS) return rc;
    std::vector<coll::Block> sb, rb;
    for (std::size_t r = 0; r < sc.size(); ++r) {
      sb.push_back({sc[r], st, sd[r] * st->extent()});
      rb.push_back({rc_[r], rt, rd[r] * rt->extent()});
    }
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  }
  if (sendbuf == MPI_IN_PLACE) {
    st = rt;
    sc = rc_;
    sd = rd;
    std::int64_t lo = -1, hi = -1;  // byte offsets of the first and last instance any block covers
    for (std::size_t r = 0; r < rc_.size(); ++r) {
      if (rc_[r] == 0) continue;
      std::int64_t a = rd[r] * rt->extent(), b = (rd[r] + rc_[r] - 1) * rt->extent();
      lo = lo < 0 ? a : std::min(lo, a);
      hi = std::max(hi, b);
    }
    sendbuf = in_place_copy(recvbuf, rt, lo, hi, copy);
  } else {
    if (int rc = check_type(fn, comm, sendtype, st); rc != MPI_SUCCESS) return rc;
    if (int rc = vectors(fn, comm, c, sendcounts, sdispls, sc, sd); rc != MPI_SUCCESS) return rc;
  }
  std::vector<coll::Block> sb, rb;
  for (std::size_t r = 0; r < sc.size(); ++r) {
    sb.push_back({sc[r], st, sd[r] * st->extent()});
    rb.push_back({rc_[r], rt, rd[r] * rt->extent()});
  }
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 180, std::move(copy)));
}
}  // extern "C++"

extern "C++" {
template <typename C, typename D = MPI_Aint>
static int impl_Alltoallw(const void *sendbuf, const C sendcounts[], const D sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[],
                          const D rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *request, const char *fn) {
  Comm c;
  std::vector<std::byte> copy;  // (nothing in place: empty)
  if (int rc = check_comm(fn, comm, c, true); rc != MPI_SUCCESS) return rc;
  if (c.comm->inter)
    if (int rc = no_in_place(fn, comm, sendbuf); rc != MPI_SUCCESS) return rc;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!recvcounts || !rdispls || !recvtypes ||
      (!in_place && (!sendcounts || !sdispls || !sendtypes)))
    return report(comm, MPI_ERR_ARG, fn, "NULL array");
  std::vector<coll::Block> sb, rb;
  std::int64_t lo = -1, hi = -1;  // in place: the bytes of recvbuf that any block covers
  for (int r = 0; r < c.comm->peer_size(); ++r) {
    impi::pack::TypePtr st, rt;
    if (int rc = check_type(fn, comm, recvtypes[r], rt); rc != MPI_SUCCESS) return rc;
    if (recvcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
    rb.push_back({recvcounts[r], rt, rdispls[r]});
    if (in_place) {
      sb.push_back(
          rb.back());  // (MPI-3.1 5.8: the data to send is in recvbuf, where it will be received)
      if (recvcounts[r] > 0) {
        std::int64_t a = rdispls[r] + rt->true_lb(),
                     b = rdispls[r] + (recvcounts[r] - 1) * rt->extent() + rt->true_ub();
        lo = lo < 0 ? a : std::min(lo, a);
        hi = std::max(hi, b);
      }
      continue;
    }
    if (int rc = check_type(fn, comm, sendtypes[r], st); rc != MPI_SUCCESS) return rc;
    if (sendcounts[r] < 0) return report(comm, MPI_ERR_COUNT, fn, "negative count");
    sb.push_back({sendcounts[r], st, sdispls[r]});
  }
  if (in_place) {  // send from a copy of what the blocks cover
    if (lo >= 0) {
      const auto *base = static_cast<const std::byte *>(recvbuf);
      copy.assign(base + lo, base + hi);
    }
    sendbuf = lo >= 0 ? static_cast<const void *>(copy.data() - lo) : recvbuf;
  }
  if (c.comm->inter)
    return launch(fn, comm, c, request,
                  coll::inter_alltoallw(coll::remote_view_of(*c.comm), sendbuf, std::move(sb),
                                        recvbuf, std::move(rb)));
  return launch(fn, comm, c, request,
                coll::alltoallw_task(coll::view_of(*c.comm), sendbuf, std::move(sb), recvbuf,
                                     std::move(rb), 180, std::move(copy)));
}
}  // extern "C++"

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     nullptr, "MPI_Gather");
}

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     nullptr, "MPI_Gather_c");
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igather", "request is NULL");
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, "MPI_Igather");
}

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igather_c", "request is NULL");
  return impl_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, "MPI_Igather_c");
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                        "MPI_Allgather");
}

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                        "MPI_Allgather_c");
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgather", "request is NULL");
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                        "MPI_Iallgather");
}

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgather_c", "request is NULL");
  return impl_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                        "MPI_Iallgather_c");
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, nullptr, "MPI_Gatherv");
}

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, nullptr, "MPI_Gatherv_c");
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igatherv", "request is NULL");
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, request, "MPI_Igatherv");
}

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Igatherv_c", "request is NULL");
  return impl_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, request, "MPI_Igatherv_c");
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         nullptr, "MPI_Allgatherv");
}

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         nullptr, "MPI_Allgatherv_c");
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgatherv", "request is NULL");
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         request, "MPI_Iallgatherv");
}

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iallgatherv_c", "request is NULL");
  return impl_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                         request, "MPI_Iallgatherv_c");
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      nullptr, "MPI_Scatter");
}

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      nullptr, "MPI_Scatter_c");
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatter", "request is NULL");
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request, "MPI_Iscatter");
}

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatter_c", "request is NULL");
  return impl_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request, "MPI_Iscatter_c");
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, nullptr, "MPI_Scatterv");
}

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, nullptr, "MPI_Scatterv_c");
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatterv", "request is NULL");
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, request, "MPI_Iscatterv");
}

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Iscatterv_c", "request is NULL");
  return impl_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, request, "MPI_Iscatterv_c");
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                       "MPI_Alltoall");
}

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                       "MPI_Alltoall_c");
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoall", "request is NULL");
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                       "MPI_Ialltoall");
}

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoall_c", "request is NULL");
  return impl_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                       "MPI_Ialltoall_c");
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, nullptr, "MPI_Alltoallv");
}

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, nullptr, "MPI_Alltoallv_c");
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallv", "request is NULL");
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, request, "MPI_Ialltoallv");
}

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallv_c", "request is NULL");
  return impl_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, request, "MPI_Ialltoallv_c");
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, nullptr, "MPI_Alltoallw");
}

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, nullptr, "MPI_Alltoallw_c");
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallw", "request is NULL");
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, request, "MPI_Ialltoallw");
}

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request) {
  if (!request) return report(comm, MPI_ERR_ARG, "MPI_Ialltoallw_c", "request is NULL");
  return impl_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, request, "MPI_Ialltoallw_c");
}

}  // extern "C"

#include "api/generated/coll_gather_aliases.inc"
