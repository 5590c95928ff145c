// state.hpp - what a proc keeps of the IMPI message protocols (IMPI
// 3.7) between clients: its sends and receives still in the protocol, the
// bytes queued for its link to the host agent (impi_channel.cpp), and the
// layout of the host channels it runs itself (direct.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/fd.hpp"
#include "core/request.hpp"
#include "pack/external32.hpp"
#include "transport/impi/packet.hpp"

namespace impi::core {

// Direct channels: what a proc needs to run its host's channels itself.
struct DirectLayout {
  int my_host = 0;
  std::uint32_t maxdatalen = 0, ackmark = 1, hiwater = 1;
  std::vector<int> host_of;                        // host index by world rank
  std::vector<std::string> host_names;             // "host 1 (client 1, ADDR:PORT)", by host index
  std::vector<std::pair<int, base::Fd>> channels;  // (peer host, its connection)
  // Hosts run by our own impirun (split hosts: one per proc of this
  // machine, ours among them). Their channels carry nothing (shared memory
  // does), so their end means a sibling proc died: our launcher names it
  // and ends the job; this proc does not race it with a vaguer message.
  std::vector<int> sibling_hosts;
};

// A send to another client still in the protocol: awaiting its SYNCACK,
// streaming a long message, or awaiting the answer to a CANCEL.
struct RemoteSend {
  RequestPtr req;
  int dest = 0;  // world rank
  int lsrank = 0, tag = 0, context = 0;
  const void *buf = nullptr;
  pack::TypePtr type;
  std::int64_t count = 0;
  std::optional<pack::External32Cursor> cursor;  // long non-byte messages: where packing resumes
  std::int64_t sent = 0;                         // external32 bytes put into packets
  std::int64_t total = 0;
  std::uint64_t drqid = 0;  // from the SYNCACK (long messages)
  // Where the send stands: its first packet went as DATASYNC and waits for
  // the SYNCACK; a long message's DATA packets are being packed (it is in
  // the channel's stream queue); everything is packed (lent bytes may still
  // be in a channel's hands: `inflight`). It completes once packed, with
  // nothing in flight and no cancel awaiting its answer.
  enum class Phase : std::uint8_t { syncack, streaming, packed } phase = Phase::syncack;
  // MPI_Cancel (IMPI 3.7.4): a CANCEL went and awaits its one answer.
  enum class Cancel : std::uint8_t { none, asked } cancel = Cancel::none;
  std::int64_t inflight = 0;  // direct channels: bytes lent from `buf`, not yet written
  bool lent_short = false;    // a one-packet standard send lent to its channel (lend_short)
};
// A long message from another client, matched, its DATA packets still coming.
struct RemoteRecv {
  RequestPtr req;
  transport::wire::ProcId src;
  std::uint64_t srqid = 0;    // the sender's request: every DATA of the message carries it
  std::int64_t received = 0;  // external32 bytes so far
  std::int64_t msglen = 0;
  std::int64_t capacity = 0;                     // external32 bytes the receive buffer holds
  std::optional<pack::External32Cursor> cursor;  // null: byte types, copied as they are
  pack::Rep rep = pack::Rep::external32;         // the sender's form (external32 or impi-wide)
};
struct LinkOut {  // bytes for the agent that the socket has not taken yet
  std::unique_ptr<std::byte[]> buf;
  std::size_t cap = 0, head = 0, tail = 0;  // unsent bytes: [head, tail)
  std::size_t pending() const { return tail - head; }
  std::byte *reserve(std::size_t n);  // room for n bytes at tail; the caller then adds n to tail
  // Writes to socket `fd` what it takes now (non-blocking). Returns
  // whether bytes went; `broken` is set (with `why`) when the socket failed.
  bool write_to(int fd, bool &broken, std::string &why);
};

}  // namespace impi::core
