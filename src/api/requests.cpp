#include "api/requests.hpp"

namespace impi::api::req {

std::mutex g_table_mu;
std::atomic<int> g_table_locking{-1};
EntryTable g_requests;
std::vector<std::uint32_t> g_free_requests;
impi::core::Request g_sent_at_once = [] {
  impi::core::Request r;
  r.kind = impi::core::Request::Kind::send;
  r.done = impi::core::DoneFlag(impi::core::DoneFlag::kAtCreation);
  return r;
}();

}  // namespace impi::api::req
