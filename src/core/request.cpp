// request.cpp - the end of a request's last reference.
#include "core/request.hpp"

namespace impi::core {

void destroy_request(Request *r) noexcept {
  r->~Request();
  detail::PoolAlloc<Request>{}.deallocate(r, 1);
}

}  // namespace impi::core
