// p2p.cpp - the engine: receives, probes, cancels, delivery of unexpected
// messages through their channel, the progress pass, and the waiting
// policy. The channels: core/shm, core/impi, core/dyn.
#include "core/p2p.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "core/runtime.hpp"

namespace impi::core {

void P2P::charge(Unexpected &u, int from_world, std::size_t n) {
  // Read at the first unexpected message: MPI_T may set it before MPI_Init.
  static const auto limit = static_cast<std::size_t>(base::get_int("unexpected_limit_bytes"));
  if (match_.charge(u, from_world, n, limit)) return;
  std::string who =
      dyn(from_world) ? "a process of another job" : fmt::format("rank {}", from_world);
  Runtime::instance().abort(
      1, fmt::format(
             "impi fatal: rank {}: the messages from {} that no receive has matched yet hold more "
             "than {} bytes "
             "(IMPI_UNEXPECTED_LIMIT_BYTES). That limit keeps a receiver that falls behind from "
             "exhausting memory: post the receives earlier, or raise it (0: no limit)",
             me_, who, limit));
}

namespace {
// The one cpu `pid` (0: this process) may run on, or -1.
int single_cpu(pid_t pid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(pid, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) return -1;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) return c;
  return -1;
}
// The cpus the job may use on this machine: impirun says when they are
// fewer than the machine's.
long machine_cpus() {
  const std::int64_t given = base::get_int("machine_cpus");
  return given > 0 ? static_cast<long>(given) : ::sysconf(_SC_NPROCESSORS_ONLN);
}
}  // namespace

base::Result<std::string> P2P::create_segment(const std::string &job_id, int local_rank,
                                              int nlocal) {
  const long cpus = machine_cpus();
  // Procs of other clients on this machine compete for its cores too.
  const auto machine = std::max<std::int64_t>(nlocal, base::get_int("machine_procs"));
  machine_procs_ = static_cast<int>(machine);
  set_oversubscribed(cpus > 0 && machine > cpus);
  return shm_.create_segment(job_id, local_rank, nlocal);
}

void P2P::set_oversubscribed(bool on) {
  oversubscribed_ = on;
  spin_ = on ? static_cast<int>(base::get_int("shm_spin_oversubscribed"))
             : static_cast<int>(base::get_int("shm_spin"));
  spin_ = std::max(spin_, 1);
  spin_us_ = std::chrono::microseconds(on ? 0 : base::get_int("shm_spin_us"));
}

base::Status P2P::attach(int my_world_rank, const std::vector<int> &local_world_ranks,
                         const std::vector<std::string> &names,
                         const std::vector<std::int64_t> &pids,
                         const std::vector<std::uint64_t> &probes) {
  me_ = my_world_rank;
  if (auto st = shm_.attach(my_world_rank, local_world_ranks, names, pids, probes); !st.ok())
    return st;
  find_core_siblings(local_world_ranks, pids);
  return {};
}

void P2P::find_core_siblings(const std::vector<int> &local_world_ranks,
                             const std::vector<std::int64_t> &pids) {
  core_siblings_.clear();
  if (pids.size() != local_world_ranks.size()) return;
  const int mine = single_cpu(0);
  if (mine < 0) return;
  // Procs outnumbering cores are spread evenly by impirun (below); bound
  // to share a cpu otherwise, nothing says who else is there.
  const bool spread = oversubscribed_;
  if (!oversubscribed_) {
    // Fewer procs than the machine has cores, but bound to share one
    // (--core-blocks, a cpuset, taskset around each proc): a proc that
    // polls without yielding keeps the one it waits for off its core for
    // a whole time slice (8 B: 1.8 ms). Wait as when oversubscribed.
    const bool shared = std::any_of(pids.begin(), pids.end(), [&](std::int64_t p) {
      return p > 0 && p != static_cast<std::int64_t>(::getpid()) &&
             single_cpu(static_cast<pid_t>(p)) == mine;
    });
    if (!shared) return;
    base::log_debug("rank {}: shares cpu {} with another local proc: waits yield", me_, mine);
    set_oversubscribed(true);
  }
  for (std::size_t i = 0; i < pids.size(); ++i)
    if (local_world_ranks[i] != me_ && pids[i] > 0 &&
        single_cpu(static_cast<pid_t>(pids[i])) == mine)
      core_siblings_.push_back(local_world_ranks[i]);
  // Spread evenly (impirun binds so), a cpu holds at most ceil(machine /
  // cpus) procs: when that many are ours, no other client's proc is there.
  const long cpus = machine_cpus();
  const auto fill = static_cast<std::size_t>((machine_procs_ + cpus - 1) / std::max(cpus, 1L));
  sibling_spin_us_ = std::chrono::microseconds(base::get_int("coll_sibling_spin_us"));
  sibling_spin_ = spread && cpus > 0 && !core_siblings_.empty() &&
                  core_siblings_.size() + 1 >= fill && sibling_spin_us_.count() > 0;
  base::log_debug("rank {}: bound to cpu {} with {} other local procs (ranks {})", me_, mine,
                  core_siblings_.size(), fmt::join(core_siblings_, ","));
}

bool P2P::siblings_stalled(std::chrono::steady_clock::time_point &until) const {
  using Clock = std::chrono::steady_clock;
  if (!sibling_spin_ || until == Clock::time_point::max()) return false;  // (max: spent)
  for (int w : core_siblings_)
    if (!shm_.segment_of(w).stalled()) return false;
  const auto now = Clock::now();
  if (until == Clock::time_point{}) until = now + sibling_spin_us_;
  if (now < until) return true;
  until = Clock::time_point::max();
  return false;
}

bool P2P::progress_locked() {
  bool any = false;
  for (Channel *c : polled_) any |= c->progress();
  any |= shm_.progress();
  return any;
}

void P2P::bind(const RequestPtr &r, Match::MessageRef u) {
  r->status.source = u->env.source;
  r->status.tag = u->env.tag;
  r->msg_len = u->msg_len;
  u->origin.via->bind(r, u);
  match_.remove(u);
}

RequestPtr P2P::irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source, int tag,
                      int context, Request *storage, int from_world) {
  std::lock_guard<EngineLock> g(mu_);
  // A caller-provided request (freshly constructed) is referenced without
  // ownership (RequestPtr::borrow): no allocation, no reference counting.
  auto r = storage ? RequestPtr::borrow(storage) : make_request();
  r->kind = Request::Kind::recv;
  r->recv_buf = buf;
  r->count = count;
  r->peer = source;
  r->from_world = from_world;
  r->tag = tag;
  r->context = context;
  if (!type->is_predefined()) r->type = type;  // predefined types live forever
  r->cursor.emplace(type, count);
  r->total = r->cursor->total();
  if (auto u = match_.match_or_post(r)) bind(r, *u);
  return r;
}

bool P2P::has_message(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  return match_.find(source, tag, context).has_value();
}

std::optional<MsgStatus> P2P::iprobe(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  progress_locked();
  auto u = match_.find(source, tag, context);
  if (!u) return std::nullopt;
  return MsgStatus{(*u)->env.source, (*u)->env.tag, (*u)->msg_len, 0};
}

std::optional<std::pair<MsgStatus, std::uint64_t>> P2P::improbe(int source, int tag, int context) {
  std::lock_guard<EngineLock> g(mu_);
  progress_locked();
  auto u = match_.find(source, tag, context);
  if (!u) return std::nullopt;
  MsgStatus st{(*u)->env.source, (*u)->env.tag, (*u)->msg_len, 0};
  return std::make_pair(st, match_.claim(*u));
}

RequestPtr P2P::mrecv(std::uint64_t message, void *buf, std::int64_t count, pack::TypePtr type) {
  std::lock_guard<EngineLock> g(mu_);
  auto u = match_.claimed(message);
  if (!u) return nullptr;
  auto r = make_request();
  r->kind = Request::Kind::recv;
  r->recv_buf = buf;
  r->count = count;
  r->type = std::move(type);
  r->cursor.emplace(r->type, count);
  r->total = r->cursor->total();
  r->peer = (*u)->env.source;
  r->tag = (*u)->env.tag;
  r->context = (*u)->env.context;
  bind(r, *u);
  return r;
}

// ---- cancel (MPI-3.1 3.8.4)

bool P2P::cancel(const RequestPtr &r) {
  std::lock_guard<EngineLock> g(mu_);
  // Sends: their channel's protocol (one to another client may be
  // cancelled remotely even once complete here, IMPI 3.7.4).
  if (r->kind == Request::Kind::send && r->channel) return r->channel->cancel_send(r);
  if (r->kind == Request::Kind::recv) {
    if (r->done) return false;
    if (!match_.cancel_posted(r)) return false;  // matched already: it will complete
    r->cancelled = true;
    r->done = true;
    return true;
  }
  return false;  // (not a message: MPI_PROC_NULL)
}

}  // namespace impi::core
