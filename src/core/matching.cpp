// matching.cpp - the matching engine's byte accounting (the queues are a
// template over the transports' Origin: matching.hpp).
#include "core/matching.hpp"

namespace impi::core {

bool UnexpectedBytes::charge(int sender, std::size_t n, std::size_t limit) {
  if (limit == 0 || n == 0) return true;
  auto &total = by_sender_[sender];
  total += n;
  return total <= limit;
}

void UnexpectedBytes::release(int sender, std::size_t n) {
  auto it = by_sender_.find(sender);
  if (it == by_sender_.end()) return;
  it->second -= std::min(it->second, n);
}

std::size_t UnexpectedBytes::held(int sender) const {
  auto it = by_sender_.find(sender);
  return it == by_sender_.end() ? 0 : it->second;
}

}  // namespace impi::core
