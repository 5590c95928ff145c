// server_core.hpp - the rendezvous server's protocol logic (IMPI 2.3),
// without sockets: bytes in, actions out. The event-loop shell
// (rendezvous_server.cpp) and the fuzz target drive it the same way.
//
// The server knows nothing of label meanings: it authenticates clients,
// collects their ranks, concatenates COLL payloads per label in ascending
// client order and broadcasts each label as soon as every client has sent
// it or moved past it, then relays DONE, and waits for FINI.
//
// Every input is untrusted: a connection that breaks the protocol before
// it holds a rank is closed and forgotten (the job waits for the real
// client); one that breaks it while holding a rank fails the job.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "startup/wire/startup_protocol.hpp"

namespace impi::startup {

struct ServerConfig {
  int nclients = 1;
  std::uint32_t auth_mask = 0;       // methods the server has available
  std::optional<std::uint64_t> key;  // for IMPI_AUTH_KEY
  std::vector<int> preference;       // -auth list; empty: strongest first
};

class ServerCore {
 public:
  using ConnId = std::uint64_t;
  struct Action {
    enum Kind { send, close } kind;
    ConnId conn;
    wire::Bytes bytes;  // for send
  };

  explicit ServerCore(ServerConfig cfg);

  void connected(ConnId c, std::string peer);
  void received(ConnId c, std::span<const std::byte> bytes);
  void disconnected(ConnId c);  // the peer closed or the socket failed

  // Actions to carry out, in order; taking them clears the list.
  std::vector<Action> take_actions();

  bool startup_complete() const { return done_sent_; }
  bool finished() const;  // every client sent FINI
  bool failed() const { return !failure_.empty(); }
  const std::string &failure() const { return failure_; }
  int joined_clients() const { return static_cast<int>(by_rank_.size()); }
  bool has_joined(int rank) const { return by_rank_.count(rank) != 0; }
  // True for connections that have not joined yet (subject to the join timeout).
  bool is_pending(ConnId c) const;

 private:
  enum class Phase { want_auth, want_key, want_hmac, want_rank, joined, closed };
  struct Conn {
    std::string peer;
    Phase phase = Phase::want_auth;
    wire::CmdReader reader;
    int rank = -1;
    std::int64_t last_label = -1;  // highest label sent; INT64_MAX after DONE
    bool done = false;
    bool fini = false;
    std::array<std::byte, wire::kAuthNonceSize> nonce{};  // our challenge (IMPI_AUTH_HMAC)
  };

  void process(ConnId id, Conn &c);
  bool handle_cmd(ConnId id, Conn &c, const wire::CmdReader::Cmd &cmd);
  bool handle_auth(ConnId id, Conn &c, const wire::CmdReader::Cmd &cmd);
  bool handle_join(ConnId id, Conn &c, const wire::CmdReader::Cmd &cmd);
  bool handle_joined(ConnId id, Conn &c, const wire::CmdReader::Cmd &cmd);
  void drop(ConnId id, Conn &c, const std::string &why);  // close, forget
  void fail(const std::string &why);                      // the job cannot go on
  void try_broadcast();
  void send(ConnId id, wire::Bytes b) { actions_.push_back({Action::send, id, std::move(b)}); }

  ServerConfig cfg_;
  std::map<ConnId, Conn> conns_;
  std::map<int, ConnId> by_rank_;  // joined clients still connected
  std::set<int> fini_ranks_;       // clients that sent FINI
  bool size_sent_ = false;
  bool done_sent_ = false;
  // label -> (client rank -> value), labels not yet broadcast
  std::map<std::int32_t, std::map<int, wire::Bytes>> pending_;
  std::vector<Action> actions_;
  std::string failure_;
};

}  // namespace impi::startup
