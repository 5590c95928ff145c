// startup_protocol.hpp - the IMPI startup wire format (IMPI 2.3), byte-exact.
//
// Every message in both directions between a client and the rendezvous
// server is a command: `IMPI_Cmd { Int4 cmd; Int4 len; }` (big-endian)
// followed by `len` payload bytes. Exceptions, both in the AUTH exchange:
// the server's `IMPI_Server_auth { Int4 which; Int4 len; }` reply and the
// client's 8-byte key, which travel without a command header.
//
// This file only encodes and decodes; it knows no sockets. Decoders treat
// their input as untrusted and bounds-check every length before use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/errc.hpp"

namespace impi::startup::wire {

using Bytes = std::vector<std::byte>;

// ---- commands (2.3.2)
constexpr std::int32_t kCmdAuth = 0x41555448;  // "AUTH"
constexpr std::int32_t kCmdImpi = 0x494D5049;  // "IMPI"
constexpr std::int32_t kCmdColl = 0x434F4C4C;  // "COLL"
constexpr std::int32_t kCmdDone = 0x444F4E45;  // "DONE"
constexpr std::int32_t kCmdFini = 0x46494E49;  // "FINI"
constexpr std::size_t kCmdHeaderSize = 8;

// Largest payload we accept in one command. The biggest mandated payload is
// a per-proc COLL broadcast: 16 bytes x procs; 16 MiB allows a million procs.
constexpr std::size_t kMaxPayload = 16u << 20;

// ---- authentication (2.3.3)
constexpr std::int32_t kAuthNone = 0;  // mask 0x1
constexpr std::int32_t kAuthKey = 1;   // mask 0x2
// impi's own method (a value of our choosing, README "Authentication"): an
// HMAC-SHA-256 challenge-response over IMPI_AUTH_KEY; the key never
// crosses the wire. The server's AUTH reply carries a 32-byte nonce; the
// client answers with its own 32-byte nonce and HMAC(key, "impi-auth-hmac-v1
// client" | server nonce | client nonce); the server proves itself with
// HMAC(key, "impi-auth-hmac-v1 server" | client nonce | server nonce). The
// key is its 8 big-endian bytes.
constexpr std::int32_t kAuthHmac = 20;  // mask 0x100000
constexpr std::size_t kAuthNonceSize = 32;
constexpr std::size_t kServerAuthSize = 8;
constexpr std::size_t kAuthKeySize = 8;

// ---- COLL labels (2.3.5)
constexpr std::int32_t kLabelCVersion = 0x1000;
constexpr std::int32_t kLabelCNhosts = 0x1100;
constexpr std::int32_t kLabelCNprocs = 0x1200;
constexpr std::int32_t kLabelCDatalen = 0x1300;
constexpr std::int32_t kLabelCTagub = 0x1400;
constexpr std::int32_t kLabelCCollXsize = 0x1500;
constexpr std::int32_t kLabelCCollMaxlinear = 0x1600;
constexpr std::int32_t kLabelHIpv6 = 0x2000;
constexpr std::int32_t kLabelHPort = 0x2100;
constexpr std::int32_t kLabelHNprocs = 0x2200;
constexpr std::int32_t kLabelHAckmark = 0x2300;
constexpr std::int32_t kLabelHHiwater = 0x2400;
constexpr std::int32_t kLabelPIpv6 = 0x3000;
constexpr std::int32_t kLabelPPid = 0x3100;
// impi's own protocol version (docs/data-representation.md), listed in
// IMPI_C_VERSION after 0.0 by an impi client: IMPI 0.0 with user data in
// impi-wide (external32 with 8-byte MPI_LONG/MPI_UNSIGNED_LONG) between two
// clients that both list it. A minor version of 0 (a compatible change)
// whose value ('i' 'm' 0 1) no published IMPI version will take; a client
// that does not list it (LAM/MPI, any other implementation) takes
// external32, and the job's version (the highest all list) stays 0.0.
// (A COLL label of our own would not do: LAM/MPI 7.1.4 fails on any
// broadcast it did not ask for; it accepts version lists of any length.)
constexpr std::pair<std::uint32_t, std::uint32_t> kVersionImpiWide{0, 0x696d0001};

// The server can combine at most 32 clients: client_mask is one Int4.
constexpr int kMaxClients = 32;

std::string_view cmd_name(std::int32_t cmd);      // "AUTH", ..., or "" when unknown
std::string_view label_name(std::int32_t label);  // "IMPI_C_VERSION", ..., or ""

struct CmdHeader {
  std::int32_t cmd = 0;
  std::int32_t len = 0;
};

// ---- encoders: whole messages, ready to write.
Bytes encode_cmd(std::int32_t cmd, std::span<const std::byte> payload = {});
Bytes encode_client_auth(std::uint32_t auth_mask);               // Cmd{AUTH,4} + mask
Bytes encode_server_auth(std::int32_t which, std::int32_t len);  // no header
Bytes encode_auth_key(std::uint64_t key);                        // no header
Bytes encode_impi(std::int32_t rank_or_size);                    // Cmd{IMPI,4} + Int4
Bytes encode_coll_submit(std::int32_t label, std::span<const std::byte> value);
Bytes encode_coll_bcast(std::int32_t label, std::uint32_t client_mask,
                        std::span<const std::byte> concatenated);

// Values of the mandated labels, as a client contributes them.
Bytes encode_u32(std::uint32_t v);
Bytes encode_i32(std::int32_t v);
Bytes encode_u32s(std::span<const std::uint32_t> v);
Bytes encode_i64s(std::span<const std::int64_t> v);
Bytes encode_versions(std::span<const std::pair<std::uint32_t, std::uint32_t>> v);

// ---- decoders
CmdHeader decode_cmd_header(std::span<const std::byte, kCmdHeaderSize> in);
// Checks a header read from the peer: len within [0, kMaxPayload].
base::Status check_cmd_header(const CmdHeader &h);

struct CollBcast {
  std::int32_t label = 0;
  std::uint32_t client_mask = 0;
  Bytes data;  // contributions, ascending client order
};
base::Result<CollBcast> decode_coll_bcast(std::span<const std::byte> payload);

struct CollSubmit {
  std::int32_t label = 0;
  Bytes value;
};
base::Result<CollSubmit> decode_coll_submit(std::span<const std::byte> payload);

base::Result<std::int32_t> decode_i32_payload(std::span<const std::byte> payload);

// Splits `data` into `count` equal items of `item` bytes; error unless exact.
base::Result<std::vector<std::span<const std::byte>>> split_items(std::span<const std::byte> data,
                                                                  std::size_t count,
                                                                  std::size_t item);

// ---- incremental framing of a command stream (untrusted input).
class CmdReader {
 public:
  // Appends bytes read from the socket.
  void feed(std::span<const std::byte> in) { buf_.insert(buf_.end(), in.begin(), in.end()); }
  // Takes `n` raw bytes (headerless AUTH replies and keys); nullopt if not all here yet.
  std::optional<Bytes> take_raw(std::size_t n);
  // Next complete command, nullopt while incomplete; an error for a bad header.
  struct Cmd {
    CmdHeader header;
    Bytes payload;
  };
  base::Result<std::optional<Cmd>> next();
  std::size_t buffered() const { return buf_.size(); }
  // The next command's header, unchecked, once 8 bytes are here.
  std::optional<CmdHeader> peek_header() const;

 private:
  Bytes buf_;
};

// ---- addresses in 16-byte fields. We write IPv4 as IPv4-mapped IPv6
// (::ffff:a.b.c.d); peers may write it IPv4-compatible (::a.b.c.d, as
// LAM/MPI 7.1.4 does), and both forms are read as IPv4: a host advertised
// either way is reached over IPv4.
using Ipv6 = std::array<std::byte, 16>;
base::Result<Ipv6> parse_address(std::string_view text);  // "127.0.0.2" or an IPv6 literal
std::string format_address(const Ipv6 &a);                // "127.0.0.2" for either IPv4 form
bool is_ipv4_mapped(const Ipv6 &a);                       // ::ffff:a.b.c.d
bool is_ipv4_compatible(const Ipv6 &a);                   // ::a.b.c.d (a != 0: not ::, ::1)
bool is_ipv4(const Ipv6 &a);                              // either form

}  // namespace impi::startup::wire
