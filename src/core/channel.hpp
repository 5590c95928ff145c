// channel.hpp - what a transport implements to carry point-to-point
// messages for the engine (p2p.hpp).
//
// The engine owns matching (matching.hpp), receives, probes and the
// progress loop; a channel owns one transport's protocol: how a send
// leaves, how arrivals reach the matching engine, how a send is cancelled,
// how an unexpected message it delivered is handed to the receive that
// matches it later, and what a blocking wait must watch. The channels:
// shared memory and self (core/shm), the IMPI host channels between
// clients (core/impi), connections to other jobs (core/dyn). Which channel
// reaches a peer is decided once per communicator (routes.hpp).
//
// Locking: every function but start_send runs under the engine lock;
// start_send takes it itself.
#pragma once

#include <poll.h>

#include <cstdint>
#include <vector>

#include "base/errc.hpp"
#include "core/origin.hpp"
#include "core/request.hpp"
#include "pack/datatype.hpp"
#include "pack/external32.hpp"

namespace impi::core {

// A send as the engine hands it to a channel.
struct SendArgs {
  const void *buf;
  std::int64_t count;
  const pack::TypePtr &type;
  int dest_world;  // world index of the destination
  int src_rank;    // the sender's rank in the communicator (the envelope's source)
  int tag;
  int context;
  bool sync;        // synchronous: complete once the receiver matched
  bool collective;  // a collective's message (thresholds of their own)
};

class Channel {
 public:
  enum class Kind : std::uint8_t { shm, impi, dyn };
  explicit Channel(Kind k) : kind_(k) {}
  Channel(const Channel &) = delete;
  Channel &operator=(const Channel &) = delete;
  virtual ~Channel() = default;
  Kind kind() const { return kind_; }

  // Starts a send; the request completes as the protocol says.
  virtual base::Result<RequestPtr> start_send(const SendArgs &a) = 0;
  // One pass: arrivals into the matching engine, queued data out. True if
  // anything moved.
  virtual bool progress() = 0;
  // MPI_Cancel of send `r`, which this channel carries: true if cancelled
  // or asked for (the request then completes with the answer), false if
  // too late.
  virtual bool cancel_send(const RequestPtr &r) = 0;
  // Receive `r` takes unexpected message `u`, which this channel delivered:
  // deliver what it buffered, fetch or await the rest, acknowledge the
  // sender. (The engine then removes `u` from matching.)
  virtual void bind(const RequestPtr &r, Match::MessageRef u) = 0;
  // Whether typed data on this channel travels as external32 (IMPI 4.1).
  virtual bool external32() const { return false; }
  // On such a channel, the form typed data takes to and from world rank
  // `w`: external32 or, with another impi client, impi-wide.
  virtual pack::Rep wire_rep(int /*w*/) const { return pack::Rep::external32; }
  // What a blocking wait watches for this channel's arrivals and room.
  virtual void pollfds(std::vector<pollfd> &) const {}
  // A blocking wait is about to sleep (+1) or woke (-1): a channel whose
  // senders must see that we sleep to wake us counts it.
  virtual void sleeping(int) {}
  // MPI_Finalize: what is queued leaves, then the channel closes.
  virtual void close() {}

 private:
  Kind kind_;
};

}  // namespace impi::core
