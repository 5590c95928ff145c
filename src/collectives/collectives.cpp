#include "collectives/collectives.hpp"

#include "base/tunables.hpp"
#include "collectives/impi.hpp"
#include "collectives/native.hpp"

namespace impi::collectives {

bool linear(const CommView &c, int n) {
  if (base::get_int("coll_lam_linear") != 0) return n <= 4;
  return n < c.maxlinear;
}

base::Status barrier(const CommView &c) {
  if (c.size == 1) return {};
  if (c.spans_clients()) return impi_barrier(c);
  return barrier_dissemination(c);
}

}  // namespace impi::collectives
