// topology.cpp - process topologies. impi has no topology constructors
// yet (MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create* return
// MPI_ERR_UNSUPPORTED_OPERATION), so no communicator carries one:
// MPI_Topo_test says MPI_UNDEFINED, as the standard asks of such a
// communicator.
//
// MPI_Dims_create: the free (zero) entries of dims get a balanced
// factorisation of what the fixed entries leave of nnodes, in
// non-increasing order (MPI-3.1 7.5.2). Prime factors, largest first, each
// go to the free dimension whose product is smallest so far: the same rule
// as Open MPI, and the same results as MPICH for the common cases
// (12 in 2 -> 4x3, 16 in 3 -> 4x2x2, 6 in 3 with dims[1] = 3 -> 2x3x1).
#include <algorithm>
#include <functional>
#include <vector>

#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "mpi.h"

using impi::api::report;
using impi::api::comm_shared::check_comm;
using impi::core::Communicator;

namespace {

// Prime factors of n >= 1, largest first.
std::vector<int> prime_factors(int n) {
  std::vector<int> f;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p)
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  if (n > 1) f.push_back(n);
  std::sort(f.begin(), f.end(), std::greater<>());
  return f;
}

}  // namespace

extern "C" {

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
  std::vector<long long> got(free_at.size(), 1);
  for (int p : prime_factors(rest)) *std::min_element(got.begin(), got.end()) *= p;
  std::sort(got.begin(), got.end(), std::greater<>());
  for (std::size_t k = 0; k < free_at.size(); ++k) dims[free_at[k]] = static_cast<int>(got[k]);
  return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status) {
  Communicator *c;
  if (int rc = check_comm("MPI_Topo_test", comm, c); rc != MPI_SUCCESS) return rc;
  if (!status) return report(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
  *status = MPI_UNDEFINED;  // (no topology constructor exists yet)
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/topology_aliases.inc"
