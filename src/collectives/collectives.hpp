// collectives.hpp - entry points the API calls: each picks the IMPI
// algorithm on a communicator spanning clients, a native one otherwise.
#pragma once

#include "base/errc.hpp"
#include "collectives/comm_view.hpp"

namespace impi::collectives {

base::Status barrier(const CommView &c);

}  // namespace impi::collectives
