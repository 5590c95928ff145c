// agent_link.hpp - the records of the local link between a proc and its
// host agent (docs/impi-data-path.md, "The router and the local link"),
// built and parsed here for both ends: the proc (src/core/runtime.cpp)
// and the agent (src/startup/agent/host_agent.cpp).
//
// In MPI_Init the proc connects to the agent's Unix socket and says which
// proc it is: HELLO, its IMPI proc index (its MPI_COMM_WORLD rank) as 8
// bytes big-endian. The agent answers with one reply, or closes the link
// (an unknown proc, or one already connected):
//  - ACCEPT, one byte 'A': the link is attached to the agent's router;
//    IMPI packets (packet.hpp) may follow at once, both ways;
//  - DIRECT, 'D', the count of channels (4 bytes big-endian), then each
//    channel's host index (4 bytes big-endian), with the channels' descriptors
//    attached to the message (SCM_RIGHTS) in that order: this host's only
//    proc runs the host channels itself (src/core/impi/direct.cpp); the
//    link then carries nothing until the proc ends.
//
// Every decoder checks its input's length and values; none reads past it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/errc.hpp"

namespace impi::transport::wire::agent_link {

constexpr std::size_t kHelloSize = 8;
constexpr std::byte kAccept{'A'};
constexpr std::byte kDirect{'D'};
constexpr std::size_t kDirectHeaderSize = 5;  // 'D' and the count
// The most channels one DIRECT carries: its descriptors go in one message
// (SCM_MAX_FD is 253).
constexpr std::size_t kMaxDirectChannels = 250;

// proc -> agent.
std::array<std::byte, kHelloSize> encode_hello(std::uint64_t proc_index);
// Exactly kHelloSize bytes.
base::Result<std::uint64_t> decode_hello(std::span<const std::byte> in);

// agent -> proc.
std::array<std::byte, 1> encode_accept();
// At most kMaxDirectChannels host indices.
base::Result<std::vector<std::byte>> encode_direct(std::span<const std::uint32_t> hosts);

struct Reply {
  enum Kind { accept, direct } kind = accept;
  std::vector<std::uint32_t> hosts;  // direct: the channels' host indices, in order
};

// How long the reply that `in` begins with is: exact once `in` holds enough
// of it to tell (its kind; for DIRECT, also its count), else a lower bound
// (read up to it and ask again). Errors: an unknown kind, too many channels.
base::Result<std::size_t> reply_length(std::span<const std::byte> in);

// Exactly one whole reply.
base::Result<Reply> decode_reply(std::span<const std::byte> in);

}  // namespace impi::transport::wire::agent_link
