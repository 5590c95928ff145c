// impi_masters.hpp - the IMPI collectives' utility functions (spec 4.2;
// docs/impi-collectives.md): one master per client
// with procs in the communicator, its lowest rank; masters numbered
// 0..n-1 in increasing rank order (rank 0 is always master 0).
#pragma once

#include <memory>
#include <vector>

namespace impi::collectives {

class Masters {
 public:
  // `client_of_rank`: the IMPI client of each rank of the communicator.
  explicit Masters(const std::vector<int> &client_of_rank);

  int num_masters() const { return static_cast<int>(master_rank_.size()); }
  bool is_master(int r) const { return master_num(r) >= 0; }
  int master_num(int r) const {
    return num_of_rank_[static_cast<std::size_t>(r)];
  }  // -1: not a master
  int master_rank(int n) const { return master_rank_[static_cast<std::size_t>(n)]; }
  int local_master_num(int r) const { return local_num_[static_cast<std::size_t>(r)]; }
  int local_master_rank(int r) const { return master_rank(local_master_num(r)); }
  bool are_local(int r1, int r2) const { return local_master_num(r1) == local_master_num(r2); }
  // The ranks sharing master n's client, master excluded, in rank order.
  const std::vector<int> &locals_to_master(int n) const {
    return locals_[static_cast<std::size_t>(n)];
  }
  int num_local_to_master(int n) const { return static_cast<int>(locals_to_master(n).size()); }
  // The table they were built from (the client of each rank).
  const std::vector<int> &client_table() const { return client_; }
  // Every rank of master n's client, the master first, in rank order.
  const std::vector<int> &client_ranks(int n) const {
    return client_ranks_[static_cast<std::size_t>(n)];
  }

 private:
  std::vector<int> client_, master_rank_, num_of_rank_, local_num_;
  std::vector<std::vector<int>> locals_, client_ranks_;
};

// The Masters of a communicator whose ranks live on `client_of_rank`,
// from a small per-thread cache (every IMPI collective asks, and building
// them costs a dozen allocations and a pass over the ranks).
std::shared_ptr<const Masters> masters_of(const std::vector<int> &client_of_rank);

// Smallest d with 2^d >= n (cubedim(1) = 0, cubedim(5) = 3).
int cubedim(int n);
// Index of the highest set bit of v among bits 0..d-1; -1 when there is none.
int hibit(int v, int d);

}  // namespace impi::collectives
