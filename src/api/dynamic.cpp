// dynamic.cpp - process creation and management (MPI-3.1 chapter 10):
// spawn, ports, connect/accept, join, disconnect, name publishing.
//
// The design follows MPICH's (docs/dynamic-processes.md): a port name is
// the opener's dynamic card plus a port
// number; MPI_Comm_connect's root dials the card and names the port; the
// two roots swap their groups' cards and each broadcasts what it got to
// its group. Then the context id: each group MAX-reduces IMPI_max_cid to
// its root, the roots swap the maxima on the same connection, and both
// groups build the intercommunicator on max(both) + 1 (IMPI 4.3, as
// MPI_Intercomm_create does), in rounds when constructions run at once
// (collectives/context_id.hpp). Spawn = open a port, have the launcher start
// the procs (PMIx_Spawn) with the port in their environment, accept; the
// children connect from MPI_Init. Point-to-point between the jobs then runs
// over core/dyn/dyn_channel.cpp. Names are published in the launcher (PMIx
// publish/lookup): their scope is the jobs of one impirun.
//
// The roots' exchange, on the port connection (dyn_card.hpp frames): the
// accepting root sends one group frame, then the connecting root answers
// with one. Payload: u64 max cid (0: unused) | u32 n | n x (u16 length,
// card bytes), big-endian. Then each context round: each root sends its
// group's MAX as a big-endian u64. Everything received is checked (sizes, cards) before use.
#include "api/dynamic.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "base/byteorder.hpp"
#include "base/tunables.hpp"
#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "collectives/intercomm_create.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "pack/predefined.hpp"
#include "pack/reduce.hpp"

using impi::api::report;
using namespace impi::api::comm_shared;

namespace {

namespace coll = impi::collectives;
using impi::base::Errc;
using impi::core::DynCard;
using impi::core::DynFrame;
using impi::core::PortName;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kSlot = coll::kCardSlot;
constexpr std::string_view kServicePrefix =
    "mpi.service:";  // the launcher's name service stores names under it

std::mutex g_parent_mu;
MPI_Comm g_parent = MPI_COMM_NULL;

impi::core::P2P &p2p() {
  return impi::core::Runtime::instance().p2p();
}

void progress() {
  p2p().progress();
}  // while a root waits: the other end may be this process

Clock::time_point deadline() {
  return Clock::now() + std::chrono::seconds(impi::base::get_int("dyn_timeout_s"));
}

impi::base::Status send_group(int fd, std::uint64_t maxcid, const std::vector<std::string> &cards) {
  auto body = impi::core::encode_group({maxcid, cards});
  std::vector<std::byte> out(DynFrame::kSize);
  DynFrame f;
  f.kind = DynFrame::group;
  f.len = body.size();
  f.encode(std::span<std::byte, DynFrame::kSize>(out.data(), DynFrame::kSize));
  out.insert(out.end(), body.begin(), body.end());
  return impi::core::dyn_write(fd, out, deadline(), progress);
}

using Group = impi::core::DynGroup;

impi::base::Result<Group> recv_group(int fd) {
  auto until = deadline();
  std::byte head[DynFrame::kSize];
  if (auto s = impi::core::dyn_read(fd, head, until, progress); !s.ok())
    return {s.error(), s.message()};
  auto f = DynFrame::decode(std::span<const std::byte, DynFrame::kSize>(head, DynFrame::kSize));
  if (!f || f->kind != DynFrame::group || f->len > (1u << 30))
    return {Errc::protocol_error, "the other root sent something that is not a group description"};
  std::vector<std::byte> body(f->len);
  if (auto s = impi::core::dyn_read(fd, body, until, progress); !s.ok())
    return {s.error(), s.message()};
  auto g = impi::core::decode_group(body);
  if (!g) return {g.error(), "the other root's group description: " + g.message()};
  if (g->maxcid >= impi::core::kMaxContextId)
    return {Errc::protocol_error, "the other root sent an impossible context id"};
  return g;
}

// The root's side of connect/accept: the connection (left in `fd` for the
// context rounds), then the exchange of cards.
impi::base::Result<Group> root_exchange(const std::string &port_name, bool accept,
                                        const std::vector<std::string> &cards, int &error_class,
                                        impi::base::Fd &fd) {
  constexpr std::uint64_t maxcid = 0;  // (agreed afterwards, in rounds: context_round)
  error_class = MPI_ERR_PORT;
  auto port = PortName::decode(port_name);
  if (!port)
    return {port.error(), fmt::format("'{}' is not a port name: {}", port_name, port.message())};
  if (accept) {
    auto mine = p2p().jobs().listen();
    if (!mine || port->card.key() != mine->key() || !p2p().jobs().port_open(port->port))
      return {Errc::invalid_argument,
              "the port is not open in this process (MPI_Open_port it at the root first)"};
    auto got = p2p().jobs().accept_port(port->port);
    if (!got) return {got.error(), got.message()};
    fd = std::move(got.value());
    error_class = MPI_ERR_OTHER;
    if (auto s = send_group(fd.get(), maxcid, cards); !s.ok()) return {s.error(), s.message()};
    return recv_group(fd.get());
  }
  auto host = impi::core::Runtime::instance().processor_name();
  auto got = impi::core::dyn_dial(port->card, host,
                                  std::chrono::seconds(impi::base::get_int("dyn_timeout_s")));
  if (!got) return {got.error(), got.message()};
  fd = std::move(got.value());
  std::byte head[DynFrame::kSize];
  DynFrame f;
  f.kind = DynFrame::port;
  f.id = port->port;
  f.encode(std::span<std::byte, DynFrame::kSize>(head, DynFrame::kSize));
  if (auto s = impi::core::dyn_write(fd.get(), head, deadline(), progress); !s.ok())
    return {s.error(), s.message()};
  auto g = recv_group(fd.get());
  if (!g) {
    if (g.error() == Errc::io_error)
      return {g.error(),
              fmt::format("no MPI_Comm_accept took the connection ({}); is the port still open?",
                          g.message())};
    return g;
  }
  error_class = MPI_ERR_OTHER;
  if (auto s = send_group(fd.get(), maxcid, cards); !s.ok()) return {s.error(), s.message()};
  return g;
}

// One round of the context agreement between the roots: each sends its
// group's MAX (8 bytes, big-endian) and takes the larger of the two.
impi::base::Status context_round(int fd, std::uint64_t &maxcid) {
  std::byte out[8], in[8];
  impi::base::store_be<std::uint64_t>(out, maxcid);
  if (auto s = impi::core::dyn_write(fd, out, deadline(), progress); !s.ok()) return s;
  if (auto s = impi::core::dyn_read(fd, in, deadline(), progress); !s.ok()) return s;
  auto theirs = impi::base::load_be<std::uint64_t>(in);
  if (theirs >= impi::core::kMaxContextId && theirs != coll::ContextClaim::kRetry)
    return {Errc::protocol_error, "the other root sent an impossible context id"};
  maxcid = std::max(maxcid, theirs);
  return {};
}

}  // namespace

namespace {
// The MPI error class of a name-service failure in the launcher (PMIx):
// `usual` for the name's own trouble (not published, already published).
int name_service_class(Errc e, int usual) {
  switch (e) {
    case Errc::not_supported:
      return MPI_ERR_UNSUPPORTED_OPERATION;  // e.g. Slurm's PMIx has no name service
    case Errc::not_found:
    case Errc::invalid_argument:
      return usual;
    case Errc::no_memory:
      return MPI_ERR_NO_MEM;
    default:
      return MPI_ERR_INTERN;  // the launcher failed, timed out or went away
  }
}
}  // namespace

namespace {

// The procs that `cards` (kSlot bytes each) name, as dynamic indices;
// empty if one cannot be reached.
std::vector<int> register_cards(const std::vector<char> &cards) {
  std::vector<int> out;
  for (std::size_t at = 0; at + kSlot <= cards.size(); at += kSlot) {
    const char *slot = cards.data() + at;
    auto rc = DynCard::decode(std::string_view(slot, strnlen(slot, kSlot)));
    int w = rc ? p2p().jobs().register_card(*rc) : -1;
    if (w < 0) return {};
    out.push_back(w);
  }
  return out;
}

// MPI_Comm_accept / MPI_Comm_connect on `comm` (collective), port_name
// significant at root only.
int connect_accept(const char *fn, const char *port_name, int root, MPI_Comm comm,
                   MPI_Comm *newcomm, bool accept) {
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!newcomm) return report(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (c->inter) return report(comm, MPI_ERR_COMM, fn, "needs an intracommunicator");
  if (root < 0 || root >= c->size)
    return report(comm, MPI_ERR_ROOT, fn,
                  fmt::format("root {} is not in a communicator of size {}", root, c->size));
  if (c->spans_clients)
    return report(comm, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                  "the communicator spans IMPI clients; IMPI 0.0 defines no dynamic processes "
                  "between clients, so "
                  "ports, spawn and connect/accept work on communicators inside one client (e.g. "
                  "MPI_COMM_SELF)");
  const auto &bytes = impi::pack::Datatype::predefined(impi::pack::dt::byte);
  const auto &u8 = impi::pack::Datatype::predefined(impi::pack::dt::uint64);
  auto view = coll::view_of(*c);
  // Every proc's card to the root (an empty slot: that proc cannot listen).
  char mine[kSlot] = {};
  auto card = p2p().jobs().listen();
  if (card) {
    std::string e = card->encode();
    std::memcpy(mine, e.data(), std::min(e.size(), kSlot - 1));
  }
  std::vector<char> all(c->rank == root ? static_cast<std::size_t>(c->size) * kSlot : 0);
  if (auto s = coll::gather(view, mine, kSlot, bytes, all.data(), kSlot, bytes, root); !s.ok())
    return fail(comm, fn, s);
  // (error class, unused, remote group size) from the root.
  std::uint64_t hdr[3] = {0, 0, 0};
  std::string why;
  std::vector<char> remote_cards;
  impi::base::Fd fd;
  if (c->rank == root) {
    std::vector<std::string> cards;
    for (int r = 0; r < c->size && why.empty(); ++r) {
      const char *slot = all.data() + static_cast<std::size_t>(r) * kSlot;
      cards.emplace_back(slot, strnlen(slot, kSlot));
      if (cards.back().empty()) why = fmt::format("rank {} cannot listen for other jobs", r);
    }
    int eclass = MPI_ERR_OTHER;
    if (!port_name) {
      why = "port_name is NULL at the root";
      eclass = MPI_ERR_PORT;
    } else if (why.empty()) {
      auto g = root_exchange(port_name, accept, cards, eclass, fd);
      if (!g) {
        why = g.message();
      } else {
        hdr[2] = g->cards.size();
        remote_cards.resize(g->cards.size() * kSlot);
        for (std::size_t i = 0; i < g->cards.size(); ++i)
          std::memcpy(remote_cards.data() + i * kSlot, g->cards[i].data(), g->cards[i].size());
      }
    }
    if (!why.empty()) hdr[0] = static_cast<std::uint64_t>(eclass);
  }
  if (auto s = coll::bcast(view, hdr, 3, u8, root); !s.ok()) return fail(comm, fn, s);
  if (hdr[0] != 0)
    return report(comm, static_cast<int>(hdr[0]), fn,
                  c->rank == root ? why
                                  : fmt::format("the root (rank {}) could not {}", root,
                                                accept ? "accept" : "connect"));
  remote_cards.resize(hdr[2] * kSlot);
  if (auto s = coll::bcast(view, remote_cards.data(),
                           static_cast<std::int64_t>(remote_cards.size()), bytes, root);
      !s.ok())
    return fail(comm, fn, s);
  std::vector<int> remote = register_cards(remote_cards);
  if (remote.empty() && hdr[2] > 0)
    return report(comm, MPI_ERR_OTHER, fn,
                  "the other group names a process that cannot be reached");
  // The context: MAX over both groups, through the roots, in rounds
  // (collectives/context_id.hpp).
  auto round = [&](std::uint64_t offer, std::uint64_t &agreed) -> impi::base::Status {
    std::uint64_t r[2] = {0, 0};  // (failed, MAX)
    if (auto s = coll::reduce(view, &offer, &r[1], 1, u8, coll::max_u64(), root); !s.ok()) return s;
    if (c->rank == root) {
      if (auto s = context_round(fd.get(), r[1]); !s.ok()) {
        r[0] = 1;
        why = fmt::format("agreeing on a context id with the other root: {}", s.message());
      }
    }
    if (auto s = coll::bcast(view, r, 2, u8, root); !s.ok()) return s;
    if (r[0] != 0)
      return {Errc::io_error,
              c->rank == root ? why : fmt::format("the root (rank {}) lost the other job", root)};
    agreed = r[1];
    return {};
  };
  auto cid = coll::agree_in_rounds(p2p(), view.context, 0, round);
  if (!cid) return fail(comm, fn, {cid.error(), cid.message()});
  *newcomm = make_intercomm(*c, c->world, std::move(remote), *cid);
  return MPI_SUCCESS;
}

// The port number of `name` if this process opened it.
std::optional<std::uint64_t> own_port(const char *name) {
  if (!name) return std::nullopt;
  auto port = PortName::decode(std::string_view(name, strnlen(name, MPI_MAX_PORT_NAME)));
  auto mine = p2p().jobs().listen();
  if (!port || !mine || port->card.key() != mine->key()) return std::nullopt;
  return port->port;
}

int open_port(const char *fn, char *port_name) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!port_name) return report(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "port_name is NULL");
  auto card = p2p().jobs().listen();
  if (!card) return report(MPI_COMM_WORLD, MPI_ERR_PORT, fn, card.message());
  PortName p{p2p().jobs().open_port(), *card};
  std::string s = p.encode();
  if (s.size() >= MPI_MAX_PORT_NAME)
    return report(MPI_COMM_WORLD, MPI_ERR_PORT, fn, "the port name would be too long");
  std::memcpy(port_name, s.c_str(), s.size() + 1);
  return MPI_SUCCESS;
}

std::string service_key(const char *service) {
  return std::string(kServicePrefix) + service;
}

int check_service(const char *fn, const char *service) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!service || !*service)
    return report(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "the service name is NULL or empty");
  if (std::strlen(service) > 400)
    return report(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                  "the service name is longer than 400 characters");
  return MPI_SUCCESS;
}

// The info keys MPI_Comm_spawn understands: "wdir", "path" (directories,
// colon-separated, searched for a command without a '/' before PATH is),
// "host" (must be this node: the launcher runs procs on its own node) and
// "env" (newline-separated VAR=value lines for the new procs). Others,
// such as "soft" and "arch", are ignored, as the standard allows.
int apply_info(const char *fn, MPI_Comm comm, MPI_Info info, impi::startup::SpawnSpec &spec,
               std::string &why) {
  if (info == MPI_INFO_NULL) return MPI_SUCCESS;
  char val[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  if (PMPI_Info_get(info, "wdir", MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS) {
    why = "the info is not valid";
    return MPI_ERR_INFO;
  }
  if (flag) spec.wdir = val;
  if (PMPI_Info_get(info, "path", MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag &&
      spec.command.find('/') == std::string::npos) {
    std::string_view dirs(val);
    while (!dirs.empty()) {  // the first directory that holds it, executable
      auto colon = dirs.find(':');
      std::string dir(dirs.substr(0, colon));
      dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
      if (dir.empty()) continue;
      if (dir.front() != '/' && !spec.wdir.empty())
        dir = spec.wdir + "/" + dir;  // (relative: to wdir)
      std::string cand = dir + "/" + spec.command;
      if (::access(cand.c_str(), X_OK) == 0) {
        spec.command = cand;
        break;
      }
    }
  }
  if (PMPI_Info_get(info, "host", MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag) {
    std::string h = val;
    const auto &me = impi::core::Runtime::instance().processor_name();
    if (h != me && h != "localhost" && h.rfind("127.", 0) != 0) {
      why = fmt::format("info host={}: this launcher starts processes on its own node ({}) only", h,
                        me);
      return MPI_ERR_SPAWN;
    }
  }
  if (PMPI_Info_get(info, "env", MPI_MAX_INFO_VAL, val, &flag) == MPI_SUCCESS && flag) {
    std::string_view rest(val);
    while (!rest.empty()) {
      auto nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
      if (line.empty()) continue;
      if (line.find('=') == std::string_view::npos || line.front() == '=') {
        why = fmt::format("info env: '{}' is not VAR=value", line);
        return MPI_ERR_INFO;
      }
      spec.env.emplace_back(line);
    }
  }
  (void)fn;
  (void)comm;
  return MPI_SUCCESS;
}

int spawn(const char *fn, int count, char *commands[], char **argvs[], const int maxprocs[],
          const MPI_Info infos[], int root, MPI_Comm comm, MPI_Comm *intercomm, int errcodes[]) {
  Communicator *c;
  if (int rc = check_comm(fn, comm, c); rc != MPI_SUCCESS) return rc;
  if (!intercomm) return report(comm, MPI_ERR_ARG, fn, "intercomm is NULL");
  if (c->inter) return report(comm, MPI_ERR_COMM, fn, "needs an intracommunicator");
  if (root < 0 || root >= c->size)
    return report(comm, MPI_ERR_ROOT, fn,
                  fmt::format("root {} is not in a communicator of size {}", root, c->size));
  if (c->spans_clients)
    return report(comm, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                  "the communicator spans IMPI clients; IMPI 0.0 defines no dynamic processes "
                  "between clients, so "
                  "spawn from a communicator inside one client (e.g. MPI_COMM_SELF)");
  auto &rt = impi::core::Runtime::instance();
  const auto &ints = impi::pack::Datatype::predefined(impi::pack::dt::int_);
  int st[2] = {MPI_SUCCESS, 0};  // error class, procs asked for
  std::string why;
  char port[MPI_MAX_PORT_NAME] = {};
  if (c->rank == root) {
    std::vector<impi::startup::SpawnSpec> apps;
    if (count <= 0 || !commands || !maxprocs) {
      st[0] = MPI_ERR_ARG;
      why = "no program to spawn";
    }
    for (int i = 0; st[0] == MPI_SUCCESS && i < count; ++i) {
      if (!commands[i] || !*commands[i] || maxprocs[i] <= 0 || maxprocs[i] > 4096) {
        st[0] = MPI_ERR_ARG;
        why =
            fmt::format("program {}: empty command or maxprocs {} outside 1..4096", i, maxprocs[i]);
        break;
      }
      impi::startup::SpawnSpec spec;
      spec.command = commands[i];
      spec.maxprocs = maxprocs[i];
      st[1] += maxprocs[i];
      if (argvs && argvs != MPI_ARGVS_NULL && argvs[i])
        for (char **a = argvs[i]; *a; ++a) spec.argv.emplace_back(*a);
      if (int rc = apply_info(fn, comm, infos ? infos[i] : MPI_INFO_NULL, spec, why);
          rc != MPI_SUCCESS) {
        st[0] = rc;
        break;
      }
      apps.push_back(std::move(spec));
    }
    if (st[0] == MPI_SUCCESS) {
      if (int rc = open_port(fn, port); rc != MPI_SUCCESS) {
        st[0] = rc;
        why = "cannot open a port for the children";
      }
    }
    if (st[0] == MPI_SUCCESS) {
      for (auto &a : apps) a.env.push_back(std::string("IMPI_PARENT_PORT=") + port);
      auto ns = rt.pm().spawn(apps);
      if (!ns) {
        st[0] = ns.error() == Errc::not_supported ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_ERR_SPAWN;
        why = ns.message();
      }
    }
  }
  if (auto s = coll::bcast(coll::view_of(*c), st, 2, ints, root); !s.ok()) return fail(comm, fn, s);
  auto codes = [&](int code) {
    if (errcodes && errcodes != MPI_ERRCODES_IGNORE)
      for (int i = 0; i < st[1]; ++i) errcodes[i] = code;
  };
  if (st[0] != MPI_SUCCESS) {
    if (c->rank == root && port[0]) PMPI_Close_port(port);
    codes(MPI_ERR_SPAWN);
    return report(comm, st[0], fn,
                  c->rank == root ? why : fmt::format("the root (rank {}) could not spawn", root));
  }
  int rc = connect_accept(fn, port, root, comm, intercomm, true);
  if (c->rank == root) PMPI_Close_port(port);
  codes(rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_SPAWN);
  return rc;
}

}  // namespace

namespace impi::api {

int connect_to_parent() {
  const char *port = std::getenv("IMPI_PARENT_PORT");
  if (!port || !*port) return MPI_SUCCESS;
  std::string name = port;
  ::unsetenv("IMPI_PARENT_PORT");  // not for programs this one starts
  MPI_Comm parent = MPI_COMM_NULL;
  int rc = connect_accept("MPI_Init (connecting to the parent job)", name.c_str(), 0,
                          MPI_COMM_WORLD, &parent, false);
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard<std::mutex> lk(g_parent_mu);
  g_parent = parent;
  PMPI_Comm_set_name(parent, "MPI_COMM_PARENT");
  return MPI_SUCCESS;
}

}  // namespace impi::api

extern "C" {

int PMPI_Open_port(MPI_Info info, char *port_name) {
  (void)info;  // no keys are understood
  return open_port("MPI_Open_port", port_name);
}

int PMPI_Close_port(const char *port_name) {
  const char *fn = "MPI_Close_port";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  auto n = own_port(port_name);
  if (!n || !p2p().jobs().close_port(*n))
    return report(MPI_COMM_WORLD, MPI_ERR_PORT, fn, "not a port this process has open");
  return MPI_SUCCESS;
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm) {
  (void)info;
  return connect_accept("MPI_Comm_accept", port_name, root, comm, newcomm, true);
}

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm) {
  (void)info;
  return connect_accept("MPI_Comm_connect", port_name, root, comm, newcomm, false);
}

int PMPI_Comm_disconnect(MPI_Comm *comm) {
  const char *fn = "MPI_Comm_disconnect";
  if (!comm) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "comm is NULL");
  MPI_Comm was = *comm;
  Communicator *c;
  if (int rc = check_comm(fn, *comm, c); rc != MPI_SUCCESS) return rc;
  if (!c->spans_clients) {  // (MPI_Comm_free does both between clients)
    // Everything sent to us on it has arrived once the barrier is over (the
    // barrier's messages follow the data on each connection); what we sent
    // must also have left this process (the acknowledgements included)
    // before the other side may exit.
    if (auto s = free_barrier(*c); !s.ok()) return fail(*comm, fn, s);
    std::vector<int> procs = c->remote_world;
    procs.insert(procs.end(), c->world.begin(), c->world.end());
    if (!p2p().jobs().drain_to(procs))
      return report(*comm, MPI_ERR_OTHER, fn,
                    "messages for the other job could not be sent (is it still running?)");
  }
  int rc = PMPI_Comm_free(comm);
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard<std::mutex> lk(g_parent_mu);
  if (was == g_parent) g_parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_parent(MPI_Comm *parent) {
  const char *fn = "MPI_Comm_get_parent";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!parent) return report(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "parent is NULL");
  std::lock_guard<std::mutex> lk(g_parent_mu);
  *parent = g_parent;
  return MPI_SUCCESS;
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm) {
  const char *fn = "MPI_Comm_join";
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!intercomm) return report(MPI_COMM_SELF, MPI_ERR_ARG, fn, "intercomm is NULL");
  // Each side opens a port and sends its name over the socket; the side
  // with the smaller name accepts, the other connects.
  char mine[MPI_MAX_PORT_NAME];
  if (int rc = open_port(fn, mine); rc != MPI_SUCCESS) return rc;
  std::uint32_t len = static_cast<std::uint32_t>(std::strlen(mine));
  std::byte hl[4];
  impi::base::store_be<std::uint32_t>(hl, len);
  auto until = deadline();
  std::string theirs;
  auto s = impi::core::dyn_write(fd, hl, until);
  if (s.ok()) s = impi::core::dyn_write(fd, std::as_bytes(std::span(mine, len)), until);
  if (s.ok()) s = impi::core::dyn_read(fd, hl, until);
  if (s.ok()) {
    std::uint32_t n = impi::base::load_be<std::uint32_t>(hl);
    if (n == 0 || n >= MPI_MAX_PORT_NAME) {
      s = {Errc::protocol_error, "the other side did not send a port name"};
    } else {
      theirs.resize(n);
      s = impi::core::dyn_read(fd, std::as_writable_bytes(std::span(theirs.data(), n)), until);
    }
  }
  int rc;
  if (!s.ok()) {
    rc = report(MPI_COMM_SELF, MPI_ERR_OTHER, fn, fmt::format("the socket: {}", s.message()));
  } else if (theirs == mine) {
    rc = report(MPI_COMM_SELF, MPI_ERR_OTHER, fn, "the socket leads back to this process");
  } else {
    bool accept = std::string_view(mine) < std::string_view(theirs);
    rc = connect_accept(fn, accept ? mine : theirs.c_str(), 0, MPI_COMM_SELF, intercomm, accept);
  }
  PMPI_Close_port(mine);
  return rc;
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) {
  char *cmds[1] = {const_cast<char *>(command)};
  char **argvs[1] = {argv};
  return spawn("MPI_Comm_spawn", 1, cmds, argvs, &maxprocs, &info, root, comm, intercomm,
               array_of_errcodes);
}

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[]) {
  return spawn("MPI_Comm_spawn_multiple", count, array_of_commands, array_of_argv,
               array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes);
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name) {
  const char *fn = "MPI_Publish_name";
  (void)info;
  if (int rc = check_service(fn, service_name); rc != MPI_SUCCESS) return rc;
  // Any string is published as given, as both peers do (MPICH's namepub
  // test publishes "otherhost:122"); it must be a port name only where
  // MPI_Comm_connect uses it.
  if (!port_name || !*port_name || strnlen(port_name, MPI_MAX_PORT_NAME) == MPI_MAX_PORT_NAME)
    return report(MPI_COMM_WORLD, MPI_ERR_PORT, fn,
                  "port_name is NULL, empty or longer than MPI_MAX_PORT_NAME");
  auto s = impi::core::Runtime::instance().pm().publish(service_key(service_name), port_name);
  if (!s.ok())
    return report(MPI_COMM_WORLD, name_service_class(s.error(), MPI_ERR_SERVICE), fn,
                  fmt::format("'{}': {}", service_name, s.message()));
  return MPI_SUCCESS;
}

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name) {
  const char *fn = "MPI_Lookup_name";
  (void)info;
  if (int rc = check_service(fn, service_name); rc != MPI_SUCCESS) return rc;
  if (!port_name) return report(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "port_name is NULL");
  auto v = impi::core::Runtime::instance().pm().lookup(service_key(service_name));
  if (!v)
    return report(MPI_COMM_WORLD, name_service_class(v.error(), MPI_ERR_NAME), fn,
                  fmt::format("'{}': {}", service_name, v.message()));
  if (v->size() >= MPI_MAX_PORT_NAME)
    return report(MPI_COMM_WORLD, MPI_ERR_NAME, fn, "the published port name is too long");
  std::memcpy(port_name, v->c_str(), v->size() + 1);
  return MPI_SUCCESS;
}

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name) {
  const char *fn = "MPI_Unpublish_name";
  (void)info;
  (void)port_name;
  if (int rc = check_service(fn, service_name); rc != MPI_SUCCESS) return rc;
  auto s = impi::core::Runtime::instance().pm().unpublish(service_key(service_name));
  if (!s.ok())
    return report(MPI_COMM_WORLD, name_service_class(s.error(), MPI_ERR_SERVICE), fn,
                  fmt::format("'{}': {}", service_name, s.message()));
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/dynamic_aliases.inc"
