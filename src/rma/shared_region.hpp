// shared_region.hpp - a named POSIX shared-memory mapping that the procs of
// one host map at once: a window's memory and its control blocks.
#pragma once

#include <cstddef>
#include <string>

#include "base/errc.hpp"

namespace impi::rma {

class SharedRegion {
 public:
  SharedRegion() = default;
  SharedRegion(const SharedRegion &) = delete;
  SharedRegion &operator=(const SharedRegion &) = delete;
  SharedRegion(SharedRegion &&o) noexcept;
  SharedRegion &operator=(SharedRegion &&o) noexcept;
  ~SharedRegion();

  // Creates `name` of `bytes` bytes, zero-filled.
  static base::Result<SharedRegion> create(const std::string &name, std::size_t bytes);
  // Maps an existing region (its size is the file's).
  static base::Result<SharedRegion> open(const std::string &name);
  // Removes the name; the mappings stay. Idempotent.
  void unlink();

  char *base() const { return static_cast<char *>(base_); }
  std::size_t bytes() const { return bytes_; }

 private:
  std::string name_;
  bool owner_ = false;
  void *base_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace impi::rma
