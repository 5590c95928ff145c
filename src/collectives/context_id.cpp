// context_id.cpp - context-id agreement for a new communicator (IMPI 4.3):
// make IMPI_max_cid odd, MAX-Allreduce it over the parent as an IMPI_UINT8
// (8-byte unsigned, big-endian between clients: MPI_UINT64_T), then
// newcid = max + 1 and IMPI_max_cid = max + 2. The new communicator uses
// newcid for point-to-point and newcid + 1 for collectives. Ids only grow,
// so none is ever reused.
#include <fmt/core.h>

#include "collectives/collectives.hpp"
#include "core/runtime.hpp"
#include "pack/predefined.hpp"
#include "pack/reduce.hpp"

namespace impi::collectives {

base::Result<int> agree_context(const CommView &parent) {
  auto &max_cid = core::Runtime::instance().max_cid();
  if (max_cid % 2 == 0) max_cid += 1;
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  Reduction max{[&](const void *in, void *inout) { pack::reduce(pack::Op::max, u8, 1, in, inout); }, true, {}};
  std::uint64_t mine = max_cid, agreed = 0;
  if (auto s = allreduce(parent, &mine, &agreed, 1, u8, max); !s.ok()) return {s.error(), s.message()};
  if (agreed >= core::kMaxContextId - 1)
    return {base::Errc::not_found, fmt::format("out of contexts (the highest context id in use is {})", agreed)};
  max_cid = agreed + 2;
  return static_cast<int>(agreed + 1);
}

}  // namespace impi::collectives
