// impi.hpp - the IMPI collective algorithms for communicators spanning
// several clients (spec chapter 4; docs/impi-collectives.md). Global
// phases exactly as specified.
#pragma once

#include "base/errc.hpp"
#include "collectives/collectives.hpp"
#include "collectives/comm_view.hpp"
#include "collectives/task.hpp"

namespace impi::collectives {

// Tags of the global phases (spec 4.25).
constexpr int kBarrierTag = 110;
constexpr int kBcastTag = 120;
constexpr int kGatherTag = 130;
constexpr int kGathervTag = 140;
constexpr int kScatterTag = 150;
constexpr int kScattervTag = 160;
constexpr int kAlltoallTag = 170;
constexpr int kAlltoallvTag = 180;
constexpr int kScanTag = 200;
constexpr int kReduceTag = 190;

// Linear or logarithmic among n masters: linear iff n < MAXLINEAR (spec
// 2.3.5), or n <= 4 under IMPI_COLL_LAM_LINEAR=1 (LAM/MPI 7.1.4's rule).
bool linear(const CommView &c, int n);

Task impi_barrier(const CommView &c);
Task impi_bcast(const CommView &c, void *buf, std::int64_t count, const pack::TypePtr &type,
                int root);
Task impi_reduce(const CommView &c, const void *sendbuf, void *recvbuf, std::int64_t count,
                 const pack::TypePtr &type, const Reduction &op, int root);
Task impi_gatherv(const CommView &c, const void *sendbuf, std::int64_t scount,
                  const pack::TypePtr &stype, void *recvbuf,
                  const std::vector<std::int64_t> &rcounts, const std::vector<std::int64_t> &displs,
                  const pack::TypePtr &rtype, int root);
Task impi_scatterv(const CommView &c, const void *sendbuf, const std::vector<std::int64_t> &scounts,
                   const std::vector<std::int64_t> &displs, const pack::TypePtr &stype,
                   void *recvbuf, std::int64_t rcount, const pack::TypePtr &rtype, int root,
                   int tag);
Task impi_gather(const CommView &c, const void *sendbuf, std::int64_t scount,
                 const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                 const pack::TypePtr &rtype, int root);
// MPI_Scatter: the binomial tree among masters when small_block_tree()
// says so, else impi_scatterv's linear form (tag 150 either way).
Task impi_scatter(const CommView &c, const void *sendbuf, std::int64_t scount,
                  const pack::TypePtr &stype, void *recvbuf, std::int64_t rcount,
                  const pack::TypePtr &rtype, int root);

class Masters;
// Gather and Scatter between masters go along a binomial tree on virtual
// master numbers (the root's client is 0) iff the masters are not linear
// (n >= MAXLINEAR) and the largest client's blocks, in external32 (`one`
// bytes per rank), come to fewer than XSIZE bytes; else linearly.
bool small_block_tree(const CommView &c, const Masters &m, std::int64_t one);

}  // namespace impi::collectives
