#include "collectives/impi_masters.hpp"

#include "collectives/thread_cache.hpp"

namespace impi::collectives {

Masters::Masters(const std::vector<int> &client) : client_(client) {
  num_of_rank_.assign(client.size(), -1);
  local_num_.assign(client.size(), -1);
  std::vector<int> clients_seen;  // client of master n
  for (std::size_t r = 0; r < client.size(); ++r) {
    int n = -1;
    for (std::size_t k = 0; k < clients_seen.size(); ++k)
      if (clients_seen[k] == client[r]) n = static_cast<int>(k);
    if (n < 0) {  // the lowest rank of a client not seen yet: its master
      n = static_cast<int>(clients_seen.size());
      clients_seen.push_back(client[r]);
      master_rank_.push_back(static_cast<int>(r));
      locals_.emplace_back();
      num_of_rank_[r] = n;
    } else {
      locals_[static_cast<std::size_t>(n)].push_back(static_cast<int>(r));
    }
    local_num_[r] = n;
  }
  client_ranks_.resize(locals_.size());
  for (std::size_t n = 0; n < locals_.size(); ++n) {
    client_ranks_[n].push_back(master_rank_[n]);
    client_ranks_[n].insert(client_ranks_[n].end(), locals_[n].begin(), locals_[n].end());
  }
}

std::shared_ptr<const Masters> masters_of(const std::vector<int> &client) {
  // The last few communicators' (most jobs use one or two): a comparison
  // of the rank-to-client tables, no allocation, when one matches.
  return ThreadCache<Masters, 4>::get([&](const Masters &m) { return m.client_table() == client; },
                                      [&] { return std::make_shared<const Masters>(client); });
}

int cubedim(int n) {
  int d = 0;
  while ((1 << d) < n) ++d;
  return d;
}

int hibit(int v, int d) {
  for (int i = d - 1; i >= 0; --i)
    if (v & (1 << i)) return i;
  return -1;
}

}  // namespace impi::collectives
