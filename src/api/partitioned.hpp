// partitioned.hpp - partitioned communication (MPI-4.0 4.2,
// src/api/partitioned.cpp): what MPI_Start, MPI_Cancel and MPI_Init need.
#pragma once

#include "api/requests.hpp"
#include "core/p2p.hpp"

namespace impi::api::part {

// The progress hook that completes partitioned rounds (once, at MPI_Init).
void install(core::P2P &p2p);
// MPI_Start of a partitioned request (entry `e`, inactive): a new round.
int start(req::Entry &e);
// MPI_Cancel: true if the round was cancelled (none of its messages had gone or matched).
bool cancel(req::Entry &e);

}  // namespace impi::api::part
