// sha256.hpp - SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the
// challenge-response authentication method of IMPI startup (auth.hpp).
// Small and dependency-free; not for bulk hashing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace impi::base {

using Digest = std::array<std::byte, 32>;

class Sha256 {
 public:
  Sha256();
  void update(std::span<const std::byte> data);
  Digest finish();

 private:
  void block(const std::byte *p);
  std::uint32_t h_[8];
  std::byte buf_[64];
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

Digest sha256(std::span<const std::byte> data);
Digest hmac_sha256(std::span<const std::byte> key, std::span<const std::byte> message);
// Compares in time independent of where they differ.
bool digest_equal(std::span<const std::byte> a, std::span<const std::byte> b);

}  // namespace impi::base
