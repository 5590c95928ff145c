// router.hpp - the host agent's packet router ("agent as funnel", IMPI 3.5):
// it connects this host's procs, each over a local stream link, to one
// HostChannel per other host.
//
// A proc writes IMPI packets (128-byte header + data) for procs of other
// hosts on its link; the router checks that the packet's source is that
// proc (no proc can speak for another), finds the destination's host and
// queues the packet on that host's channel, which does flow control and
// multiplexing. Packets from a channel are written to the destination
// proc's link; a packet counts as received for flow control once it is
// entirely in the link (HostChannel::defer_acks), so a proc that stops
// reading holds back its senders instead of growing the agent's memory.
// The protocols (short/long/sync, probe, cancel) live in the procs, next
// to matching; the router never looks at user data.
//
// Procs are named by their index in the IMPI job (JobLayout); each
// channel sees its own dense indices (this host's procs, that host's).
#pragma once

#include <event2/event.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/errc.hpp"
#include "base/fd.hpp"
#include "transport/impi/channel.hpp"
#include "transport/impi/packet.hpp"

namespace impi::transport::wire {

struct JobLayout {
  std::vector<ProcId> procs;  // every proc of the job, by IMPI proc index
  std::vector<int> host_of;   // host index of each proc
  int nhosts = 0;
  int my_host = 0;
  std::vector<std::string> host_names;  // for messages, by host index ("host N" when absent)
};

class AgentRouter {
 public:
  // `on_error` reports a broken channel or link (the agent decides to abort).
  AgentRouter(event_base *base, ChannelConfig cfg, JobLayout layout,
              std::function<void(const base::Status &)> on_error);
  ~AgentRouter();
  AgentRouter(const AgentRouter &) = delete;
  AgentRouter &operator=(const AgentRouter &) = delete;

  // A failed local link (a proc died or broke the protocol) goes here
  // instead of `on_error`, when set: the launcher judges a proc's fate by
  // its exit, while a broken channel means a whole host is lost.
  void set_link_error_handler(std::function<void(const base::Status &)> f) {
    on_link_error_ = std::move(f);
  }
  // Test hook: append one line per message a local proc starts toward
  // another host ("SRC DEST TAG CID MSGLEN", IMPI proc indices; the first
  // packet of each message: DATA or DATASYNC without a drqid) to `fd`.
  // tests/integration/coll_trace_test.py checks the collectives' global
  // phases against the spec's algorithms with it (IMPI_AGENT_TRACE).
  void set_trace(base::Fd fd) { trace_ = std::move(fd); }
  // The channel to `host` (from the dance).
  void add_channel(int host, base::Fd fd);
  // The link of our proc `proc` (an IMPI proc index on this host).
  base::Status add_local(std::size_t proc, base::Fd fd);
  // No more packets from our procs: FINI on every channel.
  void finish();
  // Every channel has exchanged FINI and closed.
  bool all_closed() const;
  // Packets waiting in the channel to `host` (flow control or socket).
  std::size_t queued_to(int host) const;
  // Grows whenever a link or channel brought packets: the agent keeps
  // polling while it moves (a blocking wait costs a thread wake-up).
  std::uint64_t activity() const { return activity_; }

 private:
  std::uint64_t activity_ = 0;
  struct Out {
    std::vector<std::byte> bytes;  // header + data
    int host;                      // the channel it came from
    std::size_t local, remote;     // its indices there
    Packet header;
  };
  struct Link {
    std::size_t proc = 0;
    base::Fd fd;
    std::unique_ptr<event, void (*)(event *)> rev{nullptr, event_free}, wev{nullptr, event_free};
    std::unique_ptr<PacketReader> reader;
    std::deque<Out> out;
    std::size_t off = 0;  // bytes of out.front() already written
    bool writing = false, closed = false;
    bool paused = false;  // not read while a channel holds too much of its output
    std::unique_ptr<event, void (*)(event *)> resume_ev{nullptr, event_free};
    AgentRouter *router = nullptr;
  };
  static void on_link_event(evutil_socket_t, short what, void *arg);
  void link_readable(Link &l);
  bool route_packets(Link &l);  // false: paused or failed
  void resume(std::size_t dense);
  void link_writable(Link &l);
  void link_failed(Link &l, const base::Status &s);
  void deliver(int host, std::size_t local, std::size_t remote, const Packet &p,
               std::span<const std::byte> data);
  std::optional<std::size_t> proc_of(const ProcId &id) const;

  event_base *base_;
  ChannelConfig cfg_;
  JobLayout layout_;
  std::function<void(const base::Status &)> on_error_, on_link_error_;
  base::Fd trace_;
  std::map<ProcId, std::size_t> index_;                 // ProcId -> proc
  std::vector<std::size_t> dense_;                      // proc -> index among its host's procs
  std::vector<std::vector<std::size_t>> members_;       // host -> its procs, by dense index
  std::vector<std::unique_ptr<HostChannel>> channels_;  // by host
  std::vector<std::unique_ptr<Link>> links_;            // by our dense index
  SpareBuffers spare_{16};  // written packets' buffers, reused by deliver
};

}  // namespace impi::transport::wire
