// Fuzz target: the header of a one-sided request (src/rma/request_codec),
// which a target decodes from any proc of a window. Whatever decodes must
// re-encode to bytes that decode to the same request (a derived type
// without elements may come back as no type: both move nothing).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "rma/request_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace impi::rma;
  auto h = decode(reinterpret_cast<const char *>(data), size);
  if (!h) return 0;
  auto again = encode(*h);
  auto h2 = decode(again.data(), again.size());
  if (!h2 || h2->kind != h->kind || h2->id != h->id || h2->disp != h->disp ||
      h2->count != h->count || h2->nelem != h->nelem || h2->basic != h->basic ||
      (h->type && !h->type->segments().empty() &&
       (!h2->type || h2->type->size() != h->type->size() ||
        h2->type->extent() != h->type->extent())))
    std::abort();
  return 0;
}
