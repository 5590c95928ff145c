// native.hpp - collective algorithms for communicators inside one client.
#pragma once

#include "base/errc.hpp"
#include "collectives/comm_view.hpp"

namespace impi::collectives {

base::Status barrier_dissemination(const CommView &c);

}  // namespace impi::collectives
