#include "rma/shared_region.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace impi::rma {

SharedRegion::SharedRegion(SharedRegion &&o) noexcept
    : name_(std::move(o.name_)),
      owner_(std::exchange(o.owner_, false)),
      base_(std::exchange(o.base_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)) {}

SharedRegion &SharedRegion::operator=(SharedRegion &&o) noexcept {
  if (this != &o) {
    this->~SharedRegion();
    new (this) SharedRegion(std::move(o));
  }
  return *this;
}

SharedRegion::~SharedRegion() {
  unlink();
  if (base_) ::munmap(base_, bytes_);
}

void SharedRegion::unlink() {
  if (owner_) ::shm_unlink(name_.c_str());
  owner_ = false;
}

namespace {
base::Result<SharedRegion> failed(const char *what, const std::string &name) {
  return {base::Errc::no_memory,
          fmt::format("{} of the window's shared memory {}: {}", what, name, std::strerror(errno))};
}
}  // namespace

base::Result<SharedRegion> SharedRegion::create(const std::string &name, std::size_t bytes) {
  int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0 && errno == EEXIST) {  // left by a crashed process that had our pid
    ::shm_unlink(name.c_str());
    fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  }
  if (fd < 0) return failed("shm_open", name);
  SharedRegion r;
  r.name_ = name;
  r.owner_ = true;
  r.bytes_ = bytes == 0 ? 1 : bytes;
  if (::ftruncate(fd, static_cast<off_t>(r.bytes_)) != 0) {
    auto s = failed("ftruncate", name);
    ::close(fd);
    return s;
  }
  void *p = ::mmap(nullptr, r.bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return failed("mmap", name);
  r.base_ = p;
  return r;
}

base::Result<SharedRegion> SharedRegion::open(const std::string &name) {
  int fd = ::shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) return failed("shm_open", name);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    auto s = failed("fstat", name);
    ::close(fd);
    return s;
  }
  SharedRegion r;
  r.name_ = name;
  r.bytes_ = static_cast<std::size_t>(st.st_size);
  void *p = ::mmap(nullptr, r.bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return failed("mmap", name);
  r.base_ = p;
  return r;
}

}  // namespace impi::rma
