// partitioned.cpp - partitioned point-to-point communication (MPI-4.0 4.2):
// MPI_Psend_init, MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
//
// Built on the engine's ordinary messages, so that one scheme serves shared
// memory and other IMPI clients alike (those see plain IMPI messages on the
// communicator's collective context, which only impi's own procs use):
// - each ready send partition goes out at once as one message, its tag
//   kPartBit | pair id << 16 | partition (pair id: the sender's number for
//   this Psend_init, per destination and communicator, 14 bits, wrapping);
// - at the first MPI_Start the sender sends a setup message (tag
//   kSetupTag) naming the user's tag, the pair's rank among the sender's
//   Psend_inits with this (destination, tag, communicator) (MPI-4.0 4.2.2:
//   pairs match in the order of their initialization calls), the pair id,
//   and its partitioning; the receiver's request with the same rank takes
//   it (an inbox per source collects them in any order);
// - the receiver, once it knows the sender's partitioning, posts one
//   receive per send partition straight into its buffer: send partition j
//   holds bytes [j*S, (j+1)*S) of the message, which are elements
//   [j*S/ts, (j+1)*S/ts) of the receive type (size ts). Partition counts may
//   differ on the two sides (MPI-4.0 4.2.2) as long as S is a whole number
//   of receive elements; otherwise the receive fails with MPI_ERR_TYPE. A
//   receive partition has arrived (MPI_Parrived) once every send partition
//   that overlaps it has been received whole.
// A round's request completes through a progress hook (P2P::add_hook) that
// checks the inner messages; messages of one pair and partition follow
// each other in order (non-overtaking), so round r+1 never meets round r's
// receive.
//
// Threads: MPI_Pready of different partitions may run concurrently: each
// partition's slot is claimed with an atomic exchange and published with a
// release store; everything else is under g_mu, never held across a call
// that may wait.
#include "api/partitioned.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/requests.hpp"
#include "core/communicator.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::check_initialized;
using impi::api::report;
using impi::core::RequestPtr;
using namespace impi::api::req;

namespace impi::api::part {

namespace {

constexpr int kPartBit = 1 << 30;
constexpr int kMaxSendPartitions = 1 << 16;
constexpr int kPairIdBits = 14;
constexpr int kSetupTag = 0x3fff0000;  // (apart from the collectives' tags, below kPartBit)
constexpr std::int64_t kSetupMagic = 0x50415254;  // "PART"
constexpr int kSetupWords = 6;

int data_tag(int pair_id, int partition) {
  return kPartBit | (pair_id << 16) | partition;
}

// What a receiver learns from the sender's setup message.
struct Setup {
  int tag = 0;
  std::int64_t rank = 0;  // among the sender's Psend_inits of this (dest, tag, comm)
  int pair_id = 0;
  int partitions = 0;
  std::int64_t bytes_per_partition = 0;
};

// Setup messages from one source on one context.
struct Inbox {
  RequestPtr posted;
  std::int64_t buf[kSetupWords] = {};
  std::vector<Setup> got;
};

}  // namespace

struct State {
  bool send = true;
  const void *sbuf = nullptr;
  void *rbuf = nullptr;
  int partitions = 0;
  std::int64_t count = 0;  // elements per partition
  pack::TypePtr type;
  std::int64_t extent = 0;      // of the type
  std::int64_t type_size = 0;   // bytes of data in one element
  std::int64_t part_bytes = 0;  // count * type_size
  int peer = 0;                 // rank in comm (or MPI_PROC_NULL)
  int peer_world = -1;
  int tag = 0;
  int context = 0;  // the communicator's collective context
  int my_rank = 0;
  core::Channel *via = nullptr;
  std::int64_t rank = 0;  // among this process's partitioned inits of (peer, tag, comm), this side
  int pair_id = 0;        // send side: ours; receive side: from the setup
  bool started_once = false;
  // The current round (null: never started).
  RequestPtr round;
  bool active = false;  // under g_mu
  // Send side: per partition 0 (not ready), 1 (being sent), 2 (sent: sends[p] set).
  std::unique_ptr<std::atomic<int>[]> ready;
  std::vector<RequestPtr> sends;
  std::atomic<int> nready{0};
  // Receive side.
  bool have_setup = false;
  Setup setup;
  bool posted = false;  // this round's receives are posted
  std::vector<RequestPtr> recvs;
  std::vector<std::byte> drain;  // a failed round's data goes here
  std::int64_t checked = 0;      // inner requests known complete, in order
  bool failed = false;
};

namespace {

std::mutex g_mu;
// Active rounds (the progress hook looks at them).
std::vector<std::shared_ptr<State>> g_active;
// (its size, read without the lock: the progress hook returns at once while empty)
std::atomic<std::size_t> g_nactive{0};
// Sender: the next pair id per (context, destination world rank); both
// sides: the number of partitioned inits per (context, peer, tag).
std::map<std::pair<int, int>, int> g_pair_ids;
std::map<std::tuple<int, int, int, bool>, std::int64_t> g_init_ranks;
std::map<std::pair<int, int>, Inbox> g_inboxes;  // (context, source rank)
core::P2P *g_p2p = nullptr;

core::P2P &p2p() {
  return core::Runtime::instance().p2p();
}

// Under g_mu: collects setup messages for `s`'s source; true once `s` has its own.
bool find_setup(State &s) {
  if (s.have_setup) return true;
  Inbox &in = g_inboxes[{s.context, s.peer}];
  for (;;) {
    // First what came already: another request's look may have collected
    // ours (and posted the next receive, which our sender never feeds).
    auto it = std::find_if(in.got.begin(), in.got.end(),
                           [&](const Setup &u) { return u.tag == s.tag && u.rank == s.rank; });
    if (it != in.got.end()) {
      s.setup = *it;
      s.have_setup = true;
      s.pair_id = it->pair_id;
      in.got.erase(it);
      return true;
    }
    if (in.posted) {
      if (!p2p().completed(*in.posted)) return false;
      if (in.posted->status.bytes == kSetupWords * 8 && in.buf[0] == kSetupMagic)
        in.got.push_back(Setup{static_cast<int>(in.buf[1]), in.buf[2], static_cast<int>(in.buf[3]),
                               static_cast<int>(in.buf[4]), in.buf[5]});
      in.posted.reset();
      continue;
    }
    in.posted = p2p().irecv(in.buf, kSetupWords * 8, pack::Datatype::predefined(pack::dt::byte),
                            s.peer, kSetupTag, s.context);
  }
}

// Under g_mu: posts this round's receives once the setup is known.
void post_receives(State &s) {
  if (s.posted || !find_setup(s)) return;
  s.posted = true;
  const Setup &u = s.setup;
  const std::int64_t total = s.part_bytes * s.partitions;
  const std::int64_t sent = u.bytes_per_partition * u.partitions;
  if (sent > total || (s.type_size > 0 && u.bytes_per_partition % s.type_size != 0) ||
      (s.type_size == 0 && sent > 0)) {
    s.round->status.error = sent > total ? core::kTruncated : core::kPartitionMismatch;
    // The sender's messages still come: receive them (as bytes, dropped),
    // or they would wait unmatched for a later pair with this pair id.
    s.drain.resize(static_cast<std::size_t>(sent));
    s.recvs.assign(static_cast<std::size_t>(u.partitions), nullptr);
    for (int j = 0; j < u.partitions; ++j)
      s.recvs[static_cast<std::size_t>(j)] = p2p().irecv(
          s.drain.data() + j * u.bytes_per_partition, u.bytes_per_partition,
          pack::Datatype::predefined(pack::dt::byte), s.peer, data_tag(s.pair_id, j), s.context);
    return;
  }
  s.recvs.assign(static_cast<std::size_t>(u.partitions), nullptr);
  const std::int64_t elems = s.type_size > 0 ? u.bytes_per_partition / s.type_size : 0;
  for (int j = 0; j < u.partitions; ++j) {
    auto *at = static_cast<char *>(s.rbuf) + j * elems * s.extent;
    s.recvs[static_cast<std::size_t>(j)] =
        p2p().irecv(at, elems, s.type, s.peer, data_tag(s.pair_id, j), s.context);
  }
}

// Under g_mu: whether the round is over; completes its request then.
bool poll(State &s) {
  if (!s.active) return true;
  auto &p = p2p();
  bool done = false;
  if (s.send) {
    while (s.checked < s.partitions &&
           s.ready[static_cast<std::size_t>(s.checked)].load(std::memory_order_acquire) == 2 &&
           p.completed(*s.sends[static_cast<std::size_t>(s.checked)]))
      ++s.checked;
    done = s.checked == s.partitions;
  } else {
    post_receives(s);
    if (s.posted) {
      while (s.checked < static_cast<std::int64_t>(s.recvs.size()) &&
             p.completed(*s.recvs[static_cast<std::size_t>(s.checked)])) {
        const auto &r = *s.recvs[static_cast<std::size_t>(s.checked)];
        if (r.status.error != 0 && s.round->status.error == 0)
          s.round->status.error = r.status.error;
        if (r.cancelled) s.round->cancelled = true;  // (MPI_Cancel cancelled part of it)
        ++s.checked;
      }
      done = s.checked == static_cast<std::int64_t>(s.recvs.size());
      if (done) {
        s.round->status.source = s.peer;
        s.round->status.tag = s.tag;
        s.round->status.bytes =
            s.round->status.error == 0 ? s.setup.bytes_per_partition * s.setup.partitions : 0;
      }
    }
  }
  if (!done) return false;
  s.active = false;
  s.round->done = true;  // last: publishes the status
  if (g_p2p) g_p2p->hook_work().fetch_sub(1, std::memory_order_relaxed);
  return true;
}

// The progress hook: every active round.
bool progress() {
  if (g_nactive.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lk(g_mu);
  bool any = false;
  std::erase_if(g_active, [&](const std::shared_ptr<State> &s) {
    bool over = poll(*s);
    any |= over;
    return over;
  });
  g_nactive.store(g_active.size(), std::memory_order_release);
  return any;
}

int init(bool send, const void *sbuf, void *rbuf, int partitions, MPI_Count count,
         MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request *request,
         const char *fn) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  core::Communicator *c = lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (!request) return report(comm, MPI_ERR_REQUEST, fn, "request is NULL");
  if (partitions < 1)
    return report(comm, MPI_ERR_ARG, fn, fmt::format("{} partitions (at least 1)", partitions));
  if (send && partitions > kMaxSendPartitions)
    return report(
        comm, MPI_ERR_ARG, fn,
        fmt::format("{} send partitions: impi sends at most {}", partitions, kMaxSendPartitions));
  if (count < 0) return report(comm, MPI_ERR_COUNT, fn, fmt::format("negative count {}", count));
  pack::TypePtr type;
  if (int rc = check_type(fn, comm, datatype, type); rc != MPI_SUCCESS) return rc;
  if (!(peer == MPI_PROC_NULL || (peer >= 0 && peer < c->peer_size())))
    return report(
        comm, MPI_ERR_RANK, fn,
        fmt::format("rank {} is not in a group of size {}{}", peer, c->peer_size(),
                    peer == MPI_ANY_SOURCE ? " (no wildcards in partitioned calls)" : ""));
  if (tag < 0)
    return report(comm, MPI_ERR_TAG, fn,
                  fmt::format("invalid tag {}{}", tag,
                              tag == MPI_ANY_TAG ? " (no wildcards in partitioned calls)" : ""));
  if (!(send ? sbuf : rbuf) && count > 0 && type->size() > 0 && type->true_lb() == 0)
    return report(comm, MPI_ERR_BUFFER, fn, "NULL buffer");
  auto s = std::make_shared<State>();
  s->send = send;
  s->sbuf = sbuf;
  s->rbuf = rbuf;
  s->partitions = partitions;
  s->count = count;
  s->type = type;
  s->extent = type->extent();
  s->type_size = type->size();
  s->part_bytes = s->type_size * count;
  s->peer = peer;
  s->tag = tag;
  s->context = c->context_id + 1;
  s->my_rank = c->rank;
  if (peer != MPI_PROC_NULL) {
    s->peer_world = c->world_of_peer(peer);
    s->via = c->channel_of_peer(peer);
    if (!s->via)
      return report(comm, MPI_ERR_RANK, fn, fmt::format("rank {} cannot be reached", peer));
  }
  if (send) {
    s->ready = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(partitions));
    s->sends.assign(static_cast<std::size_t>(partitions), nullptr);
  }
  {
    std::lock_guard<std::mutex> lk(g_mu);
    if (!g_p2p) {  // (first use: the hook runs from now on)
      g_p2p = &p2p();
    }
    s->rank = g_init_ranks[{s->context, peer, tag, send}]++;
    if (send) s->pair_id = g_pair_ids[{s->context, peer}]++ & ((1 << kPairIdBits) - 1);
  }
  Persistent p{send ? Mode::standard : Mode::receive,
               sbuf,
               rbuf,
               0,
               MPI_BYTE,
               peer,
               tag,
               comm,
               nullptr,
               std::move(s)};
  *request = new_request(nullptr, std::move(p));
  return MPI_SUCCESS;
}

std::shared_ptr<State> state_of(MPI_Request request) {
  Entry *e = request == MPI_REQUEST_NULL ? nullptr : find_entry(request);
  if (!e || !e->persistent) return nullptr;
  return e->persistent->part;
}

// Sends partition p (claimed by the caller: ready[p] is 1).
int send_partition(State &s, int p, const char *fn) {
  {
    const auto *at = static_cast<const char *>(s.sbuf) + p * s.count * s.extent;
    auto r = p2p().start_send(*s.via, at, s.count, s.type, s.peer_world, s.my_rank,
                              data_tag(s.pair_id, p), s.context, false);
    if (!r) {
      s.ready[static_cast<std::size_t>(p)].store(0, std::memory_order_release);
      return report(MPI_COMM_NULL, error_class_of(r.error()), fn, r.message());
    }
    s.sends[static_cast<std::size_t>(p)] = std::move(r.value());
  }
  s.ready[static_cast<std::size_t>(p)].store(2, std::memory_order_release);
  s.nready.fetch_add(1, std::memory_order_relaxed);
  return MPI_SUCCESS;
}

int ready(MPI_Request request, const int *parts, int lo, int n, const char *fn) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  auto s = state_of(request);
  if (!s || !s->send) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a partitioned send");
  {
    std::lock_guard<std::mutex> lk(g_mu);
    if (!s->active && !(s->peer == MPI_PROC_NULL && s->round))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "the request is not active");
  }
  for (int i = 0; i < n; ++i) {
    const int p = parts ? parts[i] : lo + i;
    if (p < 0 || p >= s->partitions)
      return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                    fmt::format("partition {} of {}", p, s->partitions));
    if (s->peer == MPI_PROC_NULL) continue;  // (nothing to send)
    int was = 0;
    if (!s->ready[static_cast<std::size_t>(p)].compare_exchange_strong(was, 1,
                                                                       std::memory_order_acq_rel))
      return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                    fmt::format("partition {} is already ready in this round", p));
    if (int rc = send_partition(*s, p, fn); rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace

void install(core::P2P &p) {
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_p2p = &p;
  }
  p.add_hook([] { return progress(); });
}

int start(Entry &e) {
  std::shared_ptr<State> s = e.persistent->part;
  auto round = core::make_request();
  round->kind = s->send ? core::Request::Kind::send : core::Request::Kind::recv;
  if (s->send) {
    for (int p = 0; p < s->partitions; ++p) {
      s->ready[static_cast<std::size_t>(p)].store(0, std::memory_order_relaxed);
      s->sends[static_cast<std::size_t>(p)].reset();
    }
    s->nready.store(0, std::memory_order_relaxed);
    if (!s->started_once && s->peer != MPI_PROC_NULL) {
      // The setup message (no lock of ours held: a send may wait).
      std::int64_t words[kSetupWords] = {kSetupMagic, s->tag,        s->rank,
                                         s->pair_id,  s->partitions, s->part_bytes};
      auto r = p2p().start_send(*s->via, words, kSetupWords * 8,
                                pack::Datatype::predefined(pack::dt::byte), s->peer_world,
                                s->my_rank, kSetupTag, s->context, false);
      if (!r) return report(MPI_COMM_NULL, error_class_of(r.error()), "MPI_Start", r.message());
      wait_done(r.value());  // (a small message: the buffer is ours again at once)
    }
  }
  s->started_once = true;
  std::lock_guard<std::mutex> lk(g_mu);
  s->round = round;
  s->checked = 0;
  s->posted = false;
  s->recvs.clear();
  s->drain.clear();
  if (s->peer == MPI_PROC_NULL) {
    round->status.source = MPI_PROC_NULL;
    round->status.tag = MPI_ANY_TAG;
    round->done = true;
  } else {
    s->active = true;
    g_active.push_back(s);
    g_nactive.store(g_active.size(), std::memory_order_release);
    g_p2p->hook_work().fetch_add(1, std::memory_order_relaxed);
    if (!s->send) post_receives(*s);
  }
  e.active = std::move(round);
  return MPI_SUCCESS;
}

bool cancel(Entry &e) {
  std::shared_ptr<State> s = e.persistent->part;
  std::lock_guard<std::mutex> lk(g_mu);
  if (!s->active) return false;
  if (s->send) {
    // Only a round none of whose partitions went out.
    for (int p = 0; p < s->partitions; ++p) {
      int was = 0;
      if (!s->ready[static_cast<std::size_t>(p)].compare_exchange_strong(was, 3)) {
        for (int q = 0; q < p; ++q) s->ready[static_cast<std::size_t>(q)].store(0);
        return false;
      }
    }
  } else if (s->posted) {
    // Only a receive none of whose messages matched: cancel them all.
    for (auto &r : s->recvs)
      if (!p2p().cancel(r)) return false;  // (the ones cancelled before: the round fails below)
  }
  s->active = false;
  std::erase(g_active, s);
  g_nactive.store(g_active.size(), std::memory_order_release);
  g_p2p->hook_work().fetch_sub(1, std::memory_order_relaxed);
  s->round->cancelled = true;
  s->round->done = true;
  return true;
}

}  // namespace impi::api::part

extern "C" {

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  (void)info;
  return impi::api::part::init(true, buf, nullptr, partitions, count, datatype, dest, tag, comm,
                               request, "MPI_Psend_init");
}

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  (void)info;
  return impi::api::part::init(false, nullptr, buf, partitions, count, datatype, source, tag, comm,
                               request, "MPI_Precv_init");
}

int PMPI_Pready(int partition, MPI_Request request) {
  return impi::api::part::ready(request, nullptr, partition, 1, "MPI_Pready");
}

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  if (partition_high < partition_low)
    return report(
        MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Pready_range",
        fmt::format("partition_high {} < partition_low {}", partition_high, partition_low));
  return impi::api::part::ready(request, nullptr, partition_low, partition_high - partition_low + 1,
                                "MPI_Pready_range");
}

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  if (length < 0 || (length > 0 && !array_of_partitions))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Pready_list", "bad partition list");
  return impi::api::part::ready(request, array_of_partitions, 0, length, "MPI_Pready_list");
}

int PMPI_Parrived(MPI_Request request, int partition, int *flag) {
  constexpr const char *fn = "MPI_Parrived";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "flag is NULL");
  if (request == MPI_REQUEST_NULL) {  // (MPI-4.1 4.2.4: a null or inactive request: true)
    *flag = 1;
    return MPI_SUCCESS;
  }
  auto s = impi::api::part::state_of(request);
  if (!s || s->send) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a partitioned receive");
  if (partition < 0 || partition >= s->partitions)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  fmt::format("partition {} of {}", partition, s->partitions));
  auto &p2p = impi::core::Runtime::instance().p2p();
  p2p.progress();
  std::lock_guard<std::mutex> lk(impi::api::part::g_mu);
  if (!s->active) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  impi::api::part::post_receives(*s);
  *flag = 0;
  if (!s->posted || s->recvs.empty() || !s->drain.empty()) return MPI_SUCCESS;  // (failed)
  // Send partitions j with bytes in [partition*R, (partition+1)*R).
  const std::int64_t R = s->part_bytes, S = s->setup.bytes_per_partition;
  if (R == 0 || S == 0) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  const std::int64_t first = partition * R / S;
  const std::int64_t last = std::min<std::int64_t>(((partition + 1) * R + S - 1) / S,
                                                   static_cast<std::int64_t>(s->recvs.size()));
  for (std::int64_t j = first; j < last; ++j)
    if (!p2p.completed(*s->recvs[static_cast<std::size_t>(j)])) return MPI_SUCCESS;
  *flag = 1;
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/partitioned_aliases.inc"
