// auth.hpp - IMPI startup authentication (IMPI 2.3.3): which methods a
// process may offer, the server's preference list, and the choice.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/errc.hpp"

namespace impi::startup {

struct AuthConfig {
  bool none = false;                 // IMPI_AUTH_NONE is set (any value)
  std::optional<std::uint64_t> key;  // IMPI_AUTH_KEY holds a 64-bit value
  std::uint32_t mask() const;        // bit i = method i available
};

// Reads IMPI_AUTH_NONE / IMPI_AUTH_KEY. A key that is not a 64-bit number
// (decimal, or hex with 0x) is an error rather than "no key".
base::Result<AuthConfig> auth_from_env(const char *(*lookup_env)(const char *));

// The message the spec prescribes when nothing is available.
constexpr std::string_view kNoAuthMessage = "No authentication methods available for negotiation";

// "3,1-0": values or ranges, most preferred first; ranges may run downwards.
base::Result<std::vector<int>> parse_auth_preference(std::string_view text);

// The most preferred method both sides have; nullopt when none. Without a
// preference list the strongest wins: KEY, then NONE.
std::optional<int> choose_auth(std::uint32_t server_mask, std::uint32_t client_mask,
                               const std::vector<int> &preference);

std::string_view auth_name(int method);

// IMPI_AUTH_HMAC (wire/startup_protocol.hpp): the proofs each side sends.
using Nonce = std::array<std::byte, 32>;
std::array<std::byte, 32> hmac_client_proof(std::uint64_t key, const Nonce &server_nonce,
                                            const Nonce &client_nonce);
std::array<std::byte, 32> hmac_server_proof(std::uint64_t key, const Nonce &server_nonce,
                                            const Nonce &client_nonce);
// 32 unpredictable bytes (getrandom).
base::Result<Nonce> make_nonce();

}  // namespace impi::startup
