// topology.cpp - process topologies (MPI-3.1 chapter 7): Cartesian,
// graph and distributed-graph communicators, and their queries. The
// topology itself (core/topology.hpp) hangs off the communicator and is
// shared by its duplicates. Reordering is the identity: ranks keep their
// order, so a grid laid over a job keeps each client's ranks together.
//
// MPI_Dims_create: the free (zero) entries of dims get the most balanced
// factorisation of what the fixed entries leave of nnodes, in
// non-increasing order (MPI-3.1 7.5.2): 72 in 2 -> 9x8 (not 12x6).
#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "mpi.h"

using impi::api::report;
using impi::api::comm_shared::check_comm;
using impi::core::Communicator;
using impi::core::Topology;

namespace {

// The most balanced way to write n as k factors (MPI-3.1 7.5.2), as MPICH
// defines it (its test suite's table of 75394 cases, topo/dims5, agrees
// with exactly this): of the non-increasing factorisations, those whose
// largest and smallest factors differ least; among these, the one with
// the largest smallest factor, then the largest second smallest, and so
// on (590520 in 4: 38x37x21x20, not 37x30x28x19, both 18 apart).
//
// A branch-and-bound search that picks the factors from the smallest up,
// in that order of preference (each one from the largest candidate down),
// so the first factorisation found of a given spread is the one wanted and
// later ones must be strictly better. A partial choice (smallest factor m,
// latest factor f, `rest` still to split into r factors, each >= f) is cut
// off unless its largest factor, at least max(f, ceil(rest^(1/r)), the
// largest prime of rest), could still come within less than the best
// spread of m. Candidates are the divisors of n (at most 1600 below 2^31).
class Balanced {
 public:
  // n >= 1 into k >= 1 factors; best() is non-increasing.
  Balanced(long long n, int k) {
    for (long long d = 1; d * d <= n; ++d)
      if (n % d == 0) {
        divisors_.push_back(d);
        if (d != n / d) divisors_.push_back(n / d);
      }
    std::sort(divisors_.begin(), divisors_.end());
    // More factors than n has prime factors: the surplus are 1s in every
    // factorisation (each factor above 1 takes at least one prime).
    int primes = 0;
    long long m = n;
    for (long long p = 2; p * p <= m; ++p)
      while (m % p == 0) {
        m /= p;
        ++primes;
        largest_prime_ = p;
      }
    if (m > 1) {
      ++primes;
      largest_prime_ = std::max(largest_prime_, m);
    }
    ones_ = std::max(0, k - std::max(primes, 1));
    cur_.reserve(static_cast<std::size_t>(k));
    search(n, k - ones_, 1, 0);
    best_.insert(best_.begin(), static_cast<std::size_t>(ones_), 1);
    std::reverse(best_.begin(), best_.end());
  }
  const std::vector<int> &best() const { return best_; }

 private:
  // Largest x with x^r <= v (r >= 1).
  static long long root_floor(long long v, int r) {
    if (r == 1) return v;
    auto x = static_cast<long long>(std::pow(static_cast<double>(v), 1.0 / r));
    auto fits = [&](long long y) {  // y^r <= v, without overflow
      long long p = 1;
      for (int i = 0; i < r; ++i) {
        if (p > v / y) return false;
        p *= y;
      }
      return true;
    };
    while (x > 1 && !fits(x)) --x;
    while (fits(x + 1)) ++x;
    return std::max(x, 1LL);
  }
  static long long root_ceil(long long v, int r) {
    long long x = root_floor(v, r);
    long long p = 1;
    for (int i = 0; i < r; ++i) p *= x;  // x^r <= v: no overflow
    return p == v ? x : x + 1;
  }
  // `rest` into r more factors, each >= lo; m: the smallest factor so far
  // (0: none yet). cur_ holds the factors chosen, smallest first.
  void search(long long rest, int r, long long lo, long long m) {
    if (r == 1) {
      cur_.push_back(static_cast<int>(rest));
      long long spread = rest - (m ? m : rest);
      if (spread_ < 0 || spread < spread_) {
        spread_ = spread;
        best_ = cur_;
      }
      cur_.pop_back();
      return;
    }
    long long hi = root_floor(rest, r);  // the other r-1 factors are at least this one
    auto it = std::upper_bound(divisors_.begin(), divisors_.end(), hi);
    while (it != divisors_.begin()) {
      long long f = *--it;
      if (f < lo) break;
      if (rest % f) continue;
      long long mm = m ? m : f;
      // The largest factor is at least ceil((rest/f)^(1/(r-1))), and at least
      // the largest prime left, if one is (it divides some factor >= f).
      long long top = std::max(f, root_ceil(rest / f, r - 1));
      if (largest_prime_ > top && (rest / f) % largest_prime_ == 0) top = largest_prime_;
      // A smaller f cannot do better: top does not fall (f <= rest^(1/r)
      // makes the root term >= f, and it grows as f shrinks; the prime
      // stays in what is left unless it divides f, i.e. is <= f), and the
      // smallest factor does not rise.
      if (spread_ >= 0 && top - mm >= spread_) break;
      cur_.push_back(static_cast<int>(f));
      search(rest / f, r - 1, f, mm);
      cur_.pop_back();
    }
  }

  int ones_ = 0;
  long long largest_prime_ = 1;
  std::vector<long long> divisors_;  // of n, ascending
  std::vector<int> cur_, best_;
  long long spread_ = -1;
};

// The communicator, checked, and its topology of kind `want` (any kind
// when `want` is null); MPI_ERR_TOPOLOGY when it has none or another.
int topo_of(const char *fn, MPI_Comm comm, const Topology *&t,
            const Topology::Kind *want = nullptr) {
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  t = c->topology.get();
  if (!t || (want && t->kind != *want))
    return report(
        comm, MPI_ERR_TOPOLOGY, fn,
        t ? "the communicator has another kind of topology" : "the communicator has no topology");
  return MPI_SUCCESS;
}
int cart_of(const char *fn, MPI_Comm comm, const Topology *&t) {
  static constexpr auto k = Topology::Kind::cart;
  return topo_of(fn, comm, t, &k);
}
int graph_of(const char *fn, MPI_Comm comm, const Topology *&t) {
  static constexpr auto k = Topology::Kind::graph;
  return topo_of(fn, comm, t, &k);
}
int dist_graph_of(const char *fn, MPI_Comm comm, const Topology *&t) {
  static constexpr auto k = Topology::Kind::dist_graph;
  return topo_of(fn, comm, t, &k);
}

// An intracommunicator argument of a topology constructor.
int intra_of(const char *fn, MPI_Comm comm, Communicator *&c) {
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (c->inter) return report(comm, MPI_ERR_COMM, fn, "topologies need an intracommunicator");
  return MPI_SUCCESS;
}

// The new communicator of a constructor: ranks 0..n-1 of `comm` in order
// (the others get MPI_COMM_NULL), carrying topology `t`.
int build(MPI_Comm comm, const Communicator &c, int n, Topology t, MPI_Comm *out) {
  if (int rc = PMPI_Comm_split(comm, c.rank < n ? 0 : MPI_UNDEFINED, c.rank, out);
      rc != MPI_SUCCESS)
    return rc;
  if (*out != MPI_COMM_NULL)
    impi::api::lookup_comm(*out)->topology = std::make_shared<const Topology>(std::move(t));
  return MPI_SUCCESS;
}

// A Cartesian grid's arguments, checked.
int cart_args(const char *fn, MPI_Comm comm, int ndims, const int dims[], const int periods[],
              Topology &t) {
  if (ndims < 0) return report(comm, MPI_ERR_DIMS, fn, "ndims is negative");
  if (ndims > 0 && (!dims || !periods))
    return report(comm, MPI_ERR_ARG, fn, "dims or periods is NULL");
  t.kind = Topology::Kind::cart;
  long long n = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0)
      return report(comm, MPI_ERR_DIMS, fn,
                    fmt::format("dims[{}] = {} is not positive", i, dims[i]));
    n *= dims[i];
    if (n > INT_MAX) return report(comm, MPI_ERR_DIMS, fn, "the grid has more than INT_MAX points");
    t.dims.push_back(dims[i]);
    t.periods.push_back(periods[i] != 0);
  }
  return MPI_SUCCESS;
}

// A graph's arguments (MPI_Graph_create, MPI_Graph_map), checked.
int graph_args(const char *fn, MPI_Comm comm, int nnodes, const int index[], const int edges[],
               Topology &t) {
  if (nnodes < 0) return report(comm, MPI_ERR_ARG, fn, "nnodes is negative");
  if (nnodes > 0 && (!index || (index[nnodes - 1] > 0 && !edges)))
    return report(comm, MPI_ERR_ARG, fn, "index or edges is NULL");
  t.kind = Topology::Kind::graph;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < (i ? index[i - 1] : 0))
      return report(comm, MPI_ERR_ARG, fn,
                    fmt::format("index[{}] is smaller than the entry before it", i));
    t.index.push_back(index[i]);
  }
  for (int e = 0; e < (nnodes ? index[nnodes - 1] : 0); ++e) {
    if (edges[e] < 0 || edges[e] >= nnodes)
      return report(comm, MPI_ERR_ARG, fn,
                    fmt::format("edges[{}] = {} is not a node", e, edges[e]));
    t.edges.push_back(edges[e]);
  }
  return MPI_SUCCESS;
}

// Weights of a distributed graph's edges: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY
// (n = 0 only) or n values.
int weights_of(const char *fn, MPI_Comm comm, const int *w, int n, bool &weighted,
               std::vector<int> &out) {
  weighted = w != MPI_UNWEIGHTED;
  if (!weighted || w == MPI_WEIGHTS_EMPTY) return MPI_SUCCESS;
  if (n > 0 && !w) return report(comm, MPI_ERR_ARG, fn, "weights is NULL (use MPI_UNWEIGHTED)");
  out.assign(w, w + n);
  return MPI_SUCCESS;
}

int check_rank_list(const char *fn, MPI_Comm comm, const int *ranks, int n, int size) {
  if (n < 0) return report(comm, MPI_ERR_ARG, fn, "a degree is negative");
  if (n > 0 && !ranks) return report(comm, MPI_ERR_ARG, fn, "a neighbour list is NULL");
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return report(comm, MPI_ERR_RANK, fn,
                    fmt::format("neighbour {} is not a rank of the communicator", ranks[i]));
  return MPI_SUCCESS;
}

int g_unweighted, g_weights_empty;  // (only their addresses matter)

}  // namespace

extern "C" {

int *const MPI_UNWEIGHTED = &g_unweighted;
int *const MPI_WEIGHTS_EMPTY = &g_weights_empty;

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  constexpr const char *fn = "MPI_Dims_create";
  if (nnodes < 1) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "nnodes must be positive");
  if (ndims < 0) return report(MPI_COMM_NULL, MPI_ERR_DIMS, fn, "ndims is negative");
  if (ndims > 0 && !dims) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "dims is NULL");
  long long fixed = 1;
  std::vector<int> free_at;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return report(MPI_COMM_NULL, MPI_ERR_DIMS, fn, "an entry of dims is negative");
    if (dims[i] == 0)
      free_at.push_back(i);
    else
      fixed *= dims[i];
    if (fixed > nnodes) break;
  }
  if (nnodes % fixed != 0 || fixed > nnodes)
    return report(MPI_COMM_NULL, MPI_ERR_DIMS, fn,
                  "nnodes is not a multiple of the fixed entries of dims");
  int rest = static_cast<int>(nnodes / fixed);
  if (free_at.empty()) {
    if (rest != 1)
      return report(MPI_COMM_NULL, MPI_ERR_DIMS, fn,
                    "the entries of dims do not multiply to nnodes");
    return MPI_SUCCESS;
  }
  Balanced b(rest, static_cast<int>(free_at.size()));
  for (std::size_t k = 0; k < free_at.size(); ++k) dims[free_at[k]] = b.best()[k];
  return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status) {
  Communicator *c;
  if (int rc = check_comm("MPI_Topo_test", comm, c); rc != MPI_SUCCESS) return rc;
  if (!status) return report(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
  if (!c->topology)
    *status = MPI_UNDEFINED;
  else if (c->topology->kind == Topology::Kind::cart)
    *status = MPI_CART;
  else if (c->topology->kind == Topology::Kind::graph)
    *status = MPI_GRAPH;
  else
    *status = MPI_DIST_GRAPH;
  return MPI_SUCCESS;
}

// ---- Cartesian

int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart) {
  constexpr const char *fn = "MPI_Cart_create";
  (void)reorder;  // (the identity is a valid reordering)
  Communicator *c;
  Topology t;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!comm_cart) return report(comm, MPI_ERR_ARG, fn, "comm_cart is NULL");
  if (int rc = cart_args(fn, comm, ndims, dims, periods, t); rc != MPI_SUCCESS) return rc;
  if (t.cart_size() > c->size)
    return report(
        comm, MPI_ERR_TOPOLOGY, fn,
        fmt::format("the grid has {} points, the communicator {} ranks", t.cart_size(), c->size));
  int n = t.cart_size();
  return build(comm, *c, n, std::move(t), comm_cart);
}

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims) {
  const Topology *t;
  if (int rc = cart_of("MPI_Cartdim_get", comm, t); rc != MPI_SUCCESS) return rc;
  if (!ndims) return report(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
  *ndims = static_cast<int>(t->dims.size());
  return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  constexpr const char *fn = "MPI_Cart_get";
  const Topology *t;
  if (int rc = cart_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  int n = std::min(maxdims, static_cast<int>(t->dims.size()));
  if (n > 0 && (!dims || !periods || !coords)) return report(comm, MPI_ERR_ARG, fn, "NULL array");
  int rank;
  PMPI_Comm_rank(comm, &rank);
  auto mine = t->coords_of(rank);
  for (int i = 0; i < n; ++i) {
    dims[i] = t->dims[static_cast<std::size_t>(i)];
    periods[i] = t->periods[static_cast<std::size_t>(i)] ? 1 : 0;
    coords[i] = mine[static_cast<std::size_t>(i)];
  }
  return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) {
  constexpr const char *fn = "MPI_Cart_rank";
  const Topology *t;
  if (int rc = cart_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (!rank || (!t->dims.empty() && !coords)) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  std::vector<int> c(coords, coords + t->dims.size());
  int r = t->rank_at(c);
  if (r == impi::core::kNoNeighbour)
    return report(comm, MPI_ERR_ARG, fn, "a coordinate is outside a non-periodic dimension");
  *rank = r;
  return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  constexpr const char *fn = "MPI_Cart_coords";
  const Topology *t;
  if (int rc = cart_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (rank < 0 || rank >= t->cart_size())
    return report(comm, MPI_ERR_RANK, fn, fmt::format("invalid rank {}", rank));
  int n = static_cast<int>(t->dims.size());
  if (maxdims < n)
    return report(comm, MPI_ERR_ARG, fn, fmt::format("maxdims {} is below ndims {}", maxdims, n));
  if (n > 0 && !coords) return report(comm, MPI_ERR_ARG, fn, "coords is NULL");
  auto c = t->coords_of(rank);
  std::copy(c.begin(), c.end(), coords);
  return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest) {
  constexpr const char *fn = "MPI_Cart_shift";
  const Topology *t;
  if (int rc = cart_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (!rank_source || !rank_dest) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  if (direction < 0 || direction >= static_cast<int>(t->dims.size()))
    return report(comm, MPI_ERR_ARG, fn,
                  fmt::format("direction {} is not a dimension of the grid", direction));
  int rank;
  PMPI_Comm_rank(comm, &rank);
  auto [from, to] = t->shift(rank, direction, disp);
  *rank_source = from == impi::core::kNoNeighbour ? MPI_PROC_NULL : from;
  *rank_dest = to == impi::core::kNoNeighbour ? MPI_PROC_NULL : to;
  return MPI_SUCCESS;
}

// The ranks that share the dropped coordinates form a sub-grid, ranked in
// the row-major order of the kept ones.
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
  constexpr const char *fn = "MPI_Cart_sub";
  const Topology *t;
  if (int rc = cart_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (!newcomm || (!t->dims.empty() && !remain_dims))
    return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  int rank;
  PMPI_Comm_rank(comm, &rank);
  auto c = t->coords_of(rank);
  Topology sub;
  int color = 0, key = 0;
  for (std::size_t i = 0; i < t->dims.size(); ++i) {
    if (remain_dims[i]) {
      sub.dims.push_back(t->dims[i]);
      sub.periods.push_back(t->periods[i]);
      key = key * t->dims[i] + c[i];
    } else {
      color = color * t->dims[i] + c[i];
    }
  }
  if (int rc = PMPI_Comm_split(comm, color, key, newcomm); rc != MPI_SUCCESS) return rc;
  impi::api::lookup_comm(*newcomm)->topology = std::make_shared<const Topology>(std::move(sub));
  return MPI_SUCCESS;
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) {
  constexpr const char *fn = "MPI_Cart_map";
  Communicator *c;
  Topology t;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newrank) return report(comm, MPI_ERR_ARG, fn, "newrank is NULL");
  if (int rc = cart_args(fn, comm, ndims, dims, periods, t); rc != MPI_SUCCESS) return rc;
  if (t.cart_size() > c->size)
    return report(comm, MPI_ERR_TOPOLOGY, fn, "the grid has more points than ranks");
  *newrank = c->rank < t.cart_size() ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// ---- graphs

int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph) {
  constexpr const char *fn = "MPI_Graph_create";
  (void)reorder;
  Communicator *c;
  Topology t;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!comm_graph) return report(comm, MPI_ERR_ARG, fn, "comm_graph is NULL");
  if (int rc = graph_args(fn, comm, nnodes, index, edges, t); rc != MPI_SUCCESS) return rc;
  if (nnodes > c->size)
    return report(comm, MPI_ERR_TOPOLOGY, fn,
                  fmt::format("{} nodes, but the communicator has {} ranks", nnodes, c->size));
  return build(comm, *c, nnodes, std::move(t), comm_graph);
}

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) {
  const Topology *t;
  if (int rc = graph_of("MPI_Graphdims_get", comm, t); rc != MPI_SUCCESS) return rc;
  if (!nnodes || !nedges) return report(comm, MPI_ERR_ARG, "MPI_Graphdims_get", "NULL argument");
  *nnodes = static_cast<int>(t->index.size());
  *nedges = static_cast<int>(t->edges.size());
  return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  constexpr const char *fn = "MPI_Graph_get";
  const Topology *t;
  if (int rc = graph_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  int ni = std::min(maxindex, static_cast<int>(t->index.size()));
  int ne = std::min(maxedges, static_cast<int>(t->edges.size()));
  if ((ni > 0 && !index) || (ne > 0 && !edges)) return report(comm, MPI_ERR_ARG, fn, "NULL array");
  std::copy_n(t->index.begin(), std::max(ni, 0), index);
  std::copy_n(t->edges.begin(), std::max(ne, 0), edges);
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) {
  constexpr const char *fn = "MPI_Graph_neighbors_count";
  const Topology *t;
  if (int rc = graph_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (rank < 0 || rank >= static_cast<int>(t->index.size()))
    return report(comm, MPI_ERR_RANK, fn, fmt::format("invalid rank {}", rank));
  if (!nneighbors) return report(comm, MPI_ERR_ARG, fn, "nneighbors is NULL");
  *nneighbors = static_cast<int>(t->graph_neighbours(rank).size());
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  constexpr const char *fn = "MPI_Graph_neighbors";
  const Topology *t;
  if (int rc = graph_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (rank < 0 || rank >= static_cast<int>(t->index.size()))
    return report(comm, MPI_ERR_RANK, fn, fmt::format("invalid rank {}", rank));
  auto n = t->graph_neighbours(rank);
  int k = std::min(maxneighbors, static_cast<int>(n.size()));
  if (k > 0 && !neighbors) return report(comm, MPI_ERR_ARG, fn, "neighbors is NULL");
  std::copy_n(n.begin(), std::max(k, 0), neighbors);
  return MPI_SUCCESS;
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) {
  constexpr const char *fn = "MPI_Graph_map";
  Communicator *c;
  Topology t;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newrank) return report(comm, MPI_ERR_ARG, fn, "newrank is NULL");
  if (int rc = graph_args(fn, comm, nnodes, index, edges, t); rc != MPI_SUCCESS) return rc;
  if (nnodes > c->size) return report(comm, MPI_ERR_TOPOLOGY, fn, "more nodes than ranks");
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// ---- distributed graphs

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph) {
  constexpr const char *fn = "MPI_Dist_graph_create_adjacent";
  (void)info;
  (void)reorder;
  Communicator *c;
  Topology t;
  t.kind = Topology::Kind::dist_graph;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!comm_dist_graph) return report(comm, MPI_ERR_ARG, fn, "comm_dist_graph is NULL");
  if (int rc = check_rank_list(fn, comm, sources, indegree, c->size); rc != MPI_SUCCESS) return rc;
  if (int rc = check_rank_list(fn, comm, destinations, outdegree, c->size); rc != MPI_SUCCESS)
    return rc;
  bool in_w, out_w;
  if (int rc = weights_of(fn, comm, sourceweights, indegree, in_w, t.source_weights);
      rc != MPI_SUCCESS)
    return rc;
  if (int rc = weights_of(fn, comm, destweights, outdegree, out_w, t.destination_weights);
      rc != MPI_SUCCESS)
    return rc;
  if (in_w != out_w)
    return report(comm, MPI_ERR_ARG, fn,
                  "either both weight arrays or neither may be MPI_UNWEIGHTED");
  t.weighted = in_w;
  t.sources.assign(sources, sources + indegree);
  t.destinations.assign(destinations, destinations + outdegree);
  return build(comm, *c, c->size, std::move(t), comm_dist_graph);
}

// Every rank may name any edge: all ranks learn every edge (an Allgatherv
// of (source, destination, weight) triples) and keep those that touch
// them, in the order of the contributing ranks.
int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph) {
  constexpr const char *fn = "MPI_Dist_graph_create";
  (void)info;
  (void)reorder;
  Communicator *c;
  if (int rc = intra_of(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!comm_dist_graph) return report(comm, MPI_ERR_ARG, fn, "comm_dist_graph is NULL");
  if (n < 0 || (n > 0 && (!sources || !degrees)))
    return report(comm, MPI_ERR_ARG, fn, "bad n, sources or degrees");
  if (int rc = check_rank_list(fn, comm, sources, n, c->size); rc != MPI_SUCCESS) return rc;
  std::vector<int> mine;  // (source, destination, weight) triples
  int at = 0;
  for (int i = 0; i < n; ++i) {
    if (int rc = check_rank_list(fn, comm, destinations ? destinations + at : nullptr, degrees[i],
                                 c->size);
        rc != MPI_SUCCESS)
      return rc;
    for (int k = 0; k < degrees[i]; ++k, ++at) {
      bool w = weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY;
      if (w && !weights)
        return report(comm, MPI_ERR_ARG, fn, "weights is NULL (use MPI_UNWEIGHTED)");
      mine.insert(mine.end(), {sources[i], destinations[at], w ? weights[at] : 1});
    }
  }
  int head[2] = {static_cast<int>(mine.size()), weights != MPI_UNWEIGHTED ? 1 : 0};
  std::vector<int> heads(2 * static_cast<std::size_t>(c->size));
  if (int rc = PMPI_Allgather(head, 2, MPI_INT, heads.data(), 2, MPI_INT, comm); rc != MPI_SUCCESS)
    return rc;
  std::vector<int> counts, displs;
  int total = 0;
  bool weighted = false;
  for (int r = 0; r < c->size; ++r) {
    counts.push_back(heads[2 * static_cast<std::size_t>(r)]);
    displs.push_back(total);
    total += counts.back();
    weighted |= heads[2 * static_cast<std::size_t>(r) + 1] != 0;
  }
  std::vector<int> all(static_cast<std::size_t>(total));
  if (int rc = PMPI_Allgatherv(mine.data(), head[0], MPI_INT, all.data(), counts.data(),
                               displs.data(), MPI_INT, comm);
      rc != MPI_SUCCESS)
    return rc;
  Topology t;
  t.kind = Topology::Kind::dist_graph;
  t.weighted = weighted;
  for (std::size_t e = 0; e + 2 < all.size(); e += 3) {
    if (all[e] == c->rank) {
      t.destinations.push_back(all[e + 1]);
      if (weighted) t.destination_weights.push_back(all[e + 2]);
    }
    if (all[e + 1] == c->rank) {
      t.sources.push_back(all[e]);
      if (weighted) t.source_weights.push_back(all[e + 2]);
    }
  }
  return build(comm, *c, c->size, std::move(t), comm_dist_graph);
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted) {
  constexpr const char *fn = "MPI_Dist_graph_neighbors_count";
  const Topology *t;
  if (int rc = dist_graph_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  if (!indegree || !outdegree || !weighted) return report(comm, MPI_ERR_ARG, fn, "NULL argument");
  *indegree = static_cast<int>(t->sources.size());
  *outdegree = static_cast<int>(t->destinations.size());
  *weighted = t->weighted ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[]) {
  constexpr const char *fn = "MPI_Dist_graph_neighbors";
  const Topology *t;
  if (int rc = dist_graph_of(fn, comm, t); rc != MPI_SUCCESS) return rc;
  auto out = [&](const std::vector<int> &ranks, const std::vector<int> &w, int max, int *r,
                 int *wr) {
    int k = std::min(max, static_cast<int>(ranks.size()));
    if (k <= 0) return true;
    if (!r) return false;
    std::copy_n(ranks.begin(), k, r);
    if (t->weighted && wr && wr != MPI_UNWEIGHTED && wr != MPI_WEIGHTS_EMPTY)
      std::copy_n(w.begin(), k, wr);
    return true;
  };
  if (!out(t->sources, t->source_weights, maxindegree, sources, sourceweights) ||
      !out(t->destinations, t->destination_weights, maxoutdegree, destinations, destweights))
    return report(comm, MPI_ERR_ARG, fn, "NULL array");
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/topology_aliases.inc"
