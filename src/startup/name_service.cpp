#include "startup/name_service.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <span>

#include "base/fd.hpp"
#include "base/sha256.hpp"
#include "base/tunables.hpp"

namespace impi::startup {

namespace {
// The file of a name in IMPI_NAME_DIR ("" when unset): its key in hex, so
// that no service name can reach outside the directory.
std::string name_file(const std::string &key) {
  std::string dir = base::get_string("name_dir");
  if (dir.empty()) return "";
  std::string hex;
  for (unsigned char c : key) hex += fmt::format("{:02x}", c);
  if (hex.size() > 200) {  // a file name has at most 255 bytes: long keys go by their digest
    hex = "h";
    for (std::byte b : base::sha256(std::as_bytes(std::span(key.data(), key.size()))))
      hex += fmt::format("{:02x}", std::to_integer<unsigned>(b));
  }
  return dir + "/" + hex;
}
}  // namespace

pmix_status_t NameService::publish(const std::string &key, const std::string &value) {
  std::lock_guard<std::mutex> lk(mu_);
  if (names_.count(key)) return PMIX_ERR_DUPLICATE_KEY;
  if (std::string f = name_file(key); !f.empty()) {
    std::string tmp = fmt::format("{}.{}.tmp", f, ::getpid());
    {
      base::Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
      if (!fd ||
          ::write(fd.get(), value.data(), value.size()) != static_cast<ssize_t>(value.size())) {
        ::unlink(tmp.c_str());
        return PMIX_ERROR;
      }
    }
    int rc = ::link(tmp.c_str(), f.c_str());  // fails if another job published the name first
    ::unlink(tmp.c_str());
    if (rc != 0) return errno == EEXIST ? PMIX_ERR_DUPLICATE_KEY : PMIX_ERROR;
  }
  names_.emplace(key, value);
  return PMIX_SUCCESS;
}

std::optional<std::string> NameService::lookup(const std::string &key) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  if (std::string f = name_file(key); !f.empty()) {
    base::Fd fd(::open(f.c_str(), O_RDONLY | O_CLOEXEC));
    char buf[1024];
    ssize_t n = fd ? ::read(fd.get(), buf, sizeof buf) : -1;
    if (n > 0 && n < static_cast<ssize_t>(sizeof buf))
      return std::string(buf, static_cast<size_t>(n));
  }
  return std::nullopt;
}

bool NameService::unpublish(const std::string &key) {
  std::lock_guard<std::mutex> lk(mu_);
  if (names_.erase(key) == 0) return false;  // only what this launcher's jobs published
  if (std::string f = name_file(key); !f.empty()) ::unlink(f.c_str());
  return true;
}

void NameService::unpublish_all() {
  std::lock_guard<std::mutex> lk(mu_);
  for (const auto &[key, value] : names_)
    if (std::string f = name_file(key); !f.empty()) ::unlink(f.c_str());
  names_.clear();
}

}  // namespace impi::startup
