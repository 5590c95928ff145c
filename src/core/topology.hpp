// topology.hpp - a communicator's virtual topology (MPI-3.1 chapter 7):
// Cartesian, graph or distributed graph, and the neighbour lists the
// neighbourhood collectives walk. Immutable once built; communicators
// share it (MPI_Comm_dup keeps the topology).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace impi::core {

// MPI_PROC_NULL as neighbour lists name it (mpi.h's value).
constexpr int kNoNeighbour = -1;

struct Topology {
  enum class Kind { cart, graph, dist_graph };
  Kind kind = Kind::cart;
  // Cartesian: extent and periodicity of each dimension (row-major ranks).
  std::vector<int> dims;
  std::vector<bool> periods;
  // Graph (MPI_Graph_create's arguments, every rank's adjacency).
  std::vector<int> index, edges;
  // Distributed graph: this rank's in- and out-neighbours, in order, and
  // their weights (empty when unweighted).
  std::vector<int> sources, source_weights, destinations, destination_weights;
  bool weighted = false;

  int cart_size() const {
    int n = 1;
    for (int d : dims) n *= d;
    return n;
  }
  // Coordinates of `rank` (row-major).
  std::vector<int> coords_of(int rank) const {
    std::vector<int> c(dims.size());
    for (std::size_t i = dims.size(); i-- > 0;) {
      c[i] = rank % dims[i];
      rank /= dims[i];
    }
    return c;
  }
  // The rank at `coords` (periodic dimensions wrap; out of range on a
  // non-periodic one: kNoNeighbour).
  int rank_at(std::vector<int> coords) const {
    int r = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      int x = coords[i];
      if (periods[i])
        x = ((x % dims[i]) + dims[i]) % dims[i];
      else if (x < 0 || x >= dims[i])
        return kNoNeighbour;
      r = r * dims[i] + x;
    }
    return r;
  }
  // MPI_Cart_shift: the (source, destination) of a shift by `disp` along `dim`.
  std::pair<int, int> shift(int rank, int dim, int disp) const {
    auto c = coords_of(rank);
    auto at = [&](int delta) {
      auto m = c;
      m[static_cast<std::size_t>(dim)] += delta;
      return rank_at(m);
    };
    return {at(-disp), at(disp)};
  }
  // Graph: the neighbours of `rank`.
  std::vector<int> graph_neighbours(int rank) const {
    int from = rank == 0 ? 0 : index[static_cast<std::size_t>(rank - 1)];
    return {edges.begin() + from, edges.begin() + index[static_cast<std::size_t>(rank)]};
  }

  // The neighbourhood collectives' peers of `rank` (MPI-3.1 7.6): whom it
  // receives from and sends to, in buffer order. Cartesian: per dimension
  // the -1 then the +1 neighbour, kNoNeighbour off a non-periodic edge.
  std::vector<int> in_neighbours(int rank) const { return neighbours(rank, sources); }
  std::vector<int> out_neighbours(int rank) const { return neighbours(rank, destinations); }
  // (a distributed graph's own list; the others' are symmetric)
  std::vector<int> neighbours(int rank, const std::vector<int> &dist_graph_list) const {
    switch (kind) {
      case Kind::cart:
        return cart_neighbours(rank);
      case Kind::graph:
        return graph_neighbours(rank);
      case Kind::dist_graph:
        return dist_graph_list;
    }
    return {};
  }
  std::vector<int> cart_neighbours(int rank) const {
    std::vector<int> n;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      auto [lo, hi] = shift(rank, static_cast<int>(d), 1);
      n.push_back(lo);
      n.push_back(hi);
    }
    return n;
  }
};

}  // namespace impi::core
