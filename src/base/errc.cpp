#include "base/errc.hpp"

namespace impi::base {

std::string_view errc_name(Errc e) noexcept {
  switch (e) {
    case Errc::ok:
      return "ok";
    case Errc::invalid_argument:
      return "invalid_argument";
    case Errc::not_supported:
      return "not_supported";
    case Errc::not_found:
      return "not_found";
    case Errc::io_error:
      return "io_error";
    case Errc::protocol_error:
      return "protocol_error";
    case Errc::peer_died:
      return "peer_died";
    case Errc::timeout:
      return "timeout";
    case Errc::no_memory:
      return "no_memory";
    case Errc::internal:
      return "internal";
    case Errc::truncated:
      return "truncated";
    case Errc::conversion:
      return "conversion";
  }
  return "unknown";
}

}  // namespace impi::base
