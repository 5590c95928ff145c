// dyn_card.hpp - how a proc of one job is reached by procs of another
// (dynamic processes), and port names.
//
// A dynamic card names the proc (its job and world rank there, which also
// makes it unique) and its listening sockets. A port name (MPI_Open_port)
// is the opener's card plus a port number, as in MPICH's design: the card
// says where to connect, the number which MPI_Comm_accept the connection
// is for. Both are one line of space-separated key=value fields after a
// version tag; decoding treats the bytes as untrusted.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"

namespace impi::core {

struct DynCard {
  static constexpr std::string_view kTag = "impi-dyn/1";
  static constexpr std::size_t kMaxEncoded = 480;

  std::string job;        // the proc's job id (PMIx namespace and host)
  int rank = 0;           // its MPI_COMM_WORLD rank in that job
  std::string host;       // node name: the Unix socket only works on the same node
  std::string unix_name;  // abstract Unix socket name ("" if none)
  std::string tcp;        // "address:port" ("" if none)
  std::string shm;        // hello only: the sender's ring segment for this connection ("" if none)

  std::string key() const { return job + "#" + std::to_string(rank); }
  std::string encode() const;
  static base::Result<DynCard> decode(std::string_view bytes);
};

struct PortName {
  static constexpr std::string_view kTag = "impi-port/1";
  std::uint64_t port = 0;
  DynCard card;

  std::string encode() const;
  static base::Result<PortName> decode(std::string_view bytes);
};

// The frame head on a dynamic connection (40 bytes, big-endian):
//   u32 magic "IMDY" | u8 kind | 3 zero bytes | i32 source | i32 tag |
//   i32 context | u32 zero | u64 len (payload bytes that follow) | u64 id
// Kinds: hello (payload: the sender's card; first on every data
// connection), msg (a whole message, packed; id: nonzero for a synchronous
// send), ack (id: the synchronous send matched), port (id: the port number;
// first and only frame of a connection to MPI_Comm_accept), group (the
// roots' exchange during connect/accept; payload: see api/dynamic.cpp),
// shm_ok (the receiver mapped the ring our hello named), shm_switch (the
// last frame before messages go through that ring), wake (a message is in
// the ring and the receiver sleeps).
struct DynFrame {
  static constexpr std::uint32_t kMagic = 0x494d4459;
  static constexpr std::size_t kSize = 40;
  enum Kind : std::uint8_t {
    hello = 1,
    msg = 2,
    ack = 3,
    port = 4,
    group = 5,
    shm_ok = 6,
    shm_switch = 7,
    wake = 8
  };
  std::uint8_t kind = 0;
  std::int32_t source = 0, tag = 0, context = 0;
  std::uint64_t len = 0, id = 0;

  void encode(std::span<std::byte, kSize> out) const;
  // Null when the magic or the kind is wrong.
  static std::optional<DynFrame> decode(std::span<const std::byte, kSize> in);
};

// The next whole frame at the start of `buf` (a connection's bytes):
// returns the bytes it takes (head and payload), 0 when more bytes are
// needed, or an error for a bad head or a payload longer than its kind
// allows (msg: 4 GiB - 1, hello: a card, group: 1 GiB, others: none).
base::Result<std::size_t> dyn_next_frame(std::span<const std::byte> buf, DynFrame &f);

// The group description two roots swap in connect/accept:
// u64 max cid | u32 n | n x (u16 length, card bytes), big-endian.
struct DynGroup {
  std::uint64_t maxcid = 0;
  std::vector<std::string> cards;  // encoded cards; decode_group checks each
};
std::vector<std::byte> encode_group(const DynGroup &g);
base::Result<DynGroup> decode_group(std::span<const std::byte> payload);

// Opens a connection to the proc `c` names: its Unix socket when it runs on
// `my_host`, else its TCP address. Blocking socket; waits at most `timeout`.
base::Result<base::Fd> dyn_dial(const DynCard &c, const std::string &my_host,
                                std::chrono::milliseconds timeout);
// Blocking whole-buffer I/O on a socket with a deadline (the roots' exchange).
// `idle`, when given, runs every millisecond while waiting (the caller's
// progress: the other end may be this very process).
using DynIdle = void (*)();
base::Status dyn_write(int fd, std::span<const std::byte> data,
                       std::chrono::steady_clock::time_point deadline, DynIdle idle = nullptr);
base::Status dyn_read(int fd, std::span<std::byte> data,
                      std::chrono::steady_clock::time_point deadline, DynIdle idle = nullptr);

}  // namespace impi::core
