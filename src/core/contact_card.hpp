// contact_card.hpp - what a process publishes about itself at MPI_Init.
//
// Exchanged through the launcher (PMIx Put/Fence/Get) so that every
// process knows where each peer lives. Transports add their addresses here
// as they arrive. Encoding: one line of space-separated key=value fields
// after a version tag; decoding treats the bytes as untrusted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/errc.hpp"

namespace impi::core {

struct ContactCard {
  static constexpr std::string_view kTag = "impi-card/1";
  static constexpr std::size_t kMaxEncoded = 4096;

  std::string host;  // node name, compared to find peers on the same node
  std::int64_t pid = 0;
  std::string shm;        // the proc's shared-memory segment ("" if none)
  std::uint64_t cma = 0;  // address peers read to test cross-memory attach (0: none)

  std::string encode() const;
  static base::Result<ContactCard> decode(std::string_view bytes);
};

}  // namespace impi::core
