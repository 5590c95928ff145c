// collective.cpp - two-phase collective buffering (MPI-IO collective reads
// and writes): the processes' pieces of the file are exchanged so that a
// few aggregators each access one contiguous window of the file at a time,
// instead of every process accessing its many small pieces.
//
// The file range the collective call touches, [lo, hi), is cut into steps
// of (aggregators x cb_buffer_size) bytes; in each step aggregator a owns
// the window a of the step. Every process sends (writes) or asks for
// (reads) the parts of its pieces that fall into each window with one
// MPI_Alltoallv for the pieces' positions and one for the data, over the
// file's communicator: across IMPI clients that is ordinary collective
// traffic. An aggregator writes the pieces it got as merged runs, or reads
// the span its window's requests cover with one pread and sends each
// process its parts back. An aggregator reads the pieces of the processes
// of its own client and host straight from their memory, or writes them
// into it (cross-memory attach; its own with memcpy): one copy instead of
// a pack, a message and an unpack.
#include "io/collective.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>

#include "api/datatypes.hpp"
#include "api/handles.hpp"
#include "base/tunables.hpp"
#include "collectives/collectives.hpp"
#include "collectives/nonblocking.hpp"
#include "collectives/select.hpp"
#include "core/runtime.hpp"
#include "io/rounds.hpp"
#include "transport/shm/cma.hpp"

namespace impi::io {

namespace coll = impi::collectives;

namespace {

std::int64_t hint_int(FileObject &f, const char *key, std::int64_t dflt) {
  auto it = f.hints.find(key);
  if (it == f.hints.end()) return dflt;
  long long v = std::strtoll(it->second.c_str(), nullptr, 10);
  return v > 0 ? v : dflt;
}

struct Piece {
  std::int64_t off, len, stream;  // file offset, bytes, position in the process's stream
};

// Reads what there is, zeros past the end of the file; the bytes before
// the end, or -1 on an error (errno).
std::int64_t all_pread(int fd, std::byte *p, std::int64_t n, std::int64_t at) {
  const std::int64_t got = pread_whole(fd, p, n, at);
  if (got >= 0 && got < n) std::memset(p + got, 0, static_cast<std::size_t>(n - got));
  return got;
}

// The collective calls of a two-phase access on the file's communicator:
// the blocking calls for a blocking access; for a non-blocking one
// (MPI_File_iwrite_all...), the communicator's collective tasks, awaited,
// so that the access runs as a non-blocking collective that the progress
// engine advances, in order with the others on the communicator.
struct Colls {
  MPI_Comm comm = MPI_COMM_NULL;
  const core::Communicator *c = nullptr;  // (non-blocking)
  bool nb = false;
};

// A blocking call's error code as the tasks report theirs (the file's
// communicator returns errors: file.cpp).
base::Status status_of(int rc, const char *what) {
  if (rc == MPI_SUCCESS) return {};
  return {base::Errc::internal, fmt::format("{} failed (error class {})", what, rc)};
}

coll::Task allreduce_ll(const Colls &x, long long *in, long long *out, int n, pack::Op op) {
  if (!x.nb)
    co_return status_of(
        PMPI_Allreduce(in, out, n, MPI_LONG_LONG, op == pack::Op::min ? MPI_MIN : MPI_MAX, x.comm),
        "MPI_Allreduce");
  const pack::TypePtr &t = *api::lookup_predefined_type(MPI_LONG_LONG);
  co_return co_await coll::allreduce_task(coll::view_of(*x.c), in, out, n, t,
                                          coll::ReduceOp{op}.take(t, n));
}

// MPI_Alltoallv_c of `type` (a predefined one): counts and displacements
// (in elements) per rank.
coll::Task alltoallv(const Colls &x, const void *sbuf, const MPI_Count *sc, const MPI_Aint *sd,
                     void *rbuf, const MPI_Count *rc, const MPI_Aint *rd, MPI_Datatype type,
                     int size) {
  if (!x.nb)
    co_return status_of(PMPI_Alltoallv_c(sbuf, sc, sd, type, rbuf, rc, rd, type, x.comm),
                        "MPI_Alltoallv_c");
  const pack::TypePtr &t = *api::lookup_predefined_type(type);
  std::vector<coll::Block> sb(static_cast<std::size_t>(size)), rb(sb);
  for (std::size_t r = 0; r < sb.size(); ++r) {
    sb[r] = {sc[r], t, sd[r] * t->extent()};
    rb[r] = {rc[r], t, rd[r] * t->extent()};
  }
  co_return co_await coll::alltoallw_task(coll::view_of(*x.c), sbuf, std::move(sb), rbuf,
                                          std::move(rb), 180, {});
}

// MPI_Alltoall of k long longs per rank.
coll::Task alltoall_ll(const Colls &x, long long *in, long long *out, int size, int k = 1) {
  if (!x.nb)
    co_return status_of(PMPI_Alltoall(in, k, MPI_LONG_LONG, out, k, MPI_LONG_LONG, x.comm),
                        "MPI_Alltoall");
  std::vector<MPI_Count> ks(static_cast<std::size_t>(size), k);
  std::vector<MPI_Aint> nth(static_cast<std::size_t>(size));
  for (std::size_t r = 0; r < nth.size(); ++r) nth[r] = static_cast<MPI_Aint>(r) * k;
  co_return co_await alltoallv(x, in, ks.data(), nth.data(), out, ks.data(), nth.data(),
                               MPI_LONG_LONG, size);
}

// Blocks of `type` (a predefined one) between every pair, point to point:
// `sc[r]` elements from sbuf + sd[r] to rank r, `rc[r]` from it into
// rbuf + rd[r] (displacements in elements; both sides know each count: no
// message for a block of 0). A block of at most `most` elements goes as
// messages of at most `piece`, a larger one as one message.
coll::Task exchange_p2p(const Colls &x, MPI_Datatype type, const void *sbuf, const MPI_Count *sc,
                        const MPI_Aint *sd, void *rbuf, const MPI_Count *rc, const MPI_Aint *rd,
                        int size, std::int64_t piece, std::int64_t most) {
  if (!x.c) co_return base::Status{base::Errc::internal, "the file's communicator is gone"};
  const coll::CommView v = coll::view_of(*x.c);
  const pack::TypePtr &t = *api::lookup_predefined_type(type);
  const std::int64_t ext = t->extent();
  auto step = [&](std::int64_t n) { return n <= most ? piece : n; };
  // (The tag of MPI_Alltoallv, which this stands for: the file's
  // communicator runs one of the access's exchanges at a time.)
  constexpr int kTag = 180;
  std::vector<std::unique_ptr<coll::Await>> ops;
  const int me = v.rank;
  // Receives first, then sends, both in the pairwise exchange's order.
  for (int k = 1; k < size; ++k) {
    const int from = (me - k + size) % size;
    const auto f = static_cast<std::size_t>(from);
    auto *at = static_cast<std::byte *>(rbuf) + rd[f] * ext;
    for (std::int64_t o = 0, n = step(rc[f]); o < rc[f]; o += n) {
      ops.push_back(std::make_unique<coll::Await>(
          v.irecv(at + o * ext, std::min<std::int64_t>(n, rc[f] - o), t, from, kTag)));
      ops.back()->start();
    }
  }
  for (int k = 1; k < size; ++k) {
    const int to = (me + k) % size;
    const auto d = static_cast<std::size_t>(to);
    const auto *at = static_cast<const std::byte *>(sbuf) + sd[d] * ext;
    for (std::int64_t o = 0, n = step(sc[d]); o < sc[d]; o += n) {
      ops.push_back(std::make_unique<coll::Await>(
          v.isend(at + o * ext, std::min<std::int64_t>(n, sc[d] - o), t, to, kTag)));
      ops.back()->start();
    }
  }
  const auto m = static_cast<std::size_t>(me);
  base::Status first;
  if (sc[m] != rc[m])
    first = {base::Errc::truncated, "a process's own block does not fit its receive"};
  else if (sc[m] > 0)
    std::memcpy(static_cast<std::byte *>(rbuf) + rd[m] * ext,
                static_cast<const std::byte *>(sbuf) + sd[m] * ext,
                static_cast<std::size_t>(sc[m] * ext));
  for (auto &a : ops)
    if (auto s = co_await coll::AwaitRef{*a}; !s.ok() && first.ok()) first = std::move(s);
  co_return first;
}

// Every process's `w` long longs (`mine`) into `all` (rank r's at r * w):
// on a small communicator across IMPI clients each sends its block
// straight to every other (one hop; across 2 clients 13 us where
// MPI_Allgather, through the clients' masters, takes 19-21), else
// MPI_Allgather (in one client 1.1 us at np 2; as messages, 3-4).
constexpr int kPairwiseMost = 8;
// The most long longs a process gives a round by memory (run()'s range
// round: kHead + kWholeRuns * kRun).
constexpr std::size_t kRoundWords = 4 + 8 * 5;
coll::Task allgather_ll(const Colls &x, const long long *mine, long long *all, int w, int size) {
  if (x.c && x.c->spans_clients && size <= kPairwiseMost) {
    const auto usize = static_cast<std::size_t>(size);
    std::vector<MPI_Count> n(usize, w);
    std::vector<MPI_Aint> zero(usize, 0), at(usize);
    for (std::size_t r = 0; r < usize; ++r) at[r] = static_cast<MPI_Aint>(r) * w;
    co_return co_await exchange_p2p(x, MPI_LONG_LONG, mine, n.data(), zero.data(), all, n.data(),
                                    at.data(), size, LLONG_MAX, 0);
  }
  if (!x.nb)
    co_return status_of(PMPI_Allgather(mine, w, MPI_LONG_LONG, all, w, MPI_LONG_LONG, x.comm),
                        "MPI_Allgather");
  const pack::TypePtr &t = *api::lookup_predefined_type(MPI_LONG_LONG);
  co_return co_await coll::allgather_task(coll::view_of(*x.c), mine, w, t, all, w, t);
}

// The largest of every process's `v`, into `out`: on a small communicator
// across clients by allgather_ll's direct exchange, else MPI_Allreduce. (The file's
// communicator holds only impi procs, so this need not be the IMPI
// collective, which goes through the clients' masters: across 2 clients
// 13 against 19 us.)
coll::Task allmax_ll(const Colls &x, long long v, long long &out, int size) {
  if (x.c && x.c->spans_clients && size <= kPairwiseMost) {
    long long all[kPairwiseMost];
    if (auto s = co_await allgather_ll(x, &v, all, 1, size); !s.ok()) co_return s;
    out = *std::max_element(all, all + size);
    co_return {};
  }
  co_return co_await allreduce_ll(x, &v, &out, 1, pack::Op::max);
}

// The data of a step: `sc[r]` bytes from sbuf + sd[r] to rank r, `rc[r]`
// bytes from it into rbuf + rd[r]. Across IMPI clients a block longer than
// a packet's user data (the job's maxdatalen) would travel as a long
// message: its first packet, then a round trip for the receiver's
// SYNCACK, then the rest (IMPI 3.7). A block of up to 4 packets goes as
// messages of at most maxdatalen bytes instead, each at once (flow control
// still bounds what is in flight) into a receive posted before: 128 KiB
// each way between two clients, 79-93 -> 54-62 us. Larger ones stay one
// message: the long protocol streams them better (512 KiB: 186-206 us as
// one, 235-297 as 8). (The file's communicator holds only impi procs: its
// open refused LAM/MPI clients.) Within a client the collective's own
// exchange.
coll::Task exchange_bytes(const Colls &x, const std::byte *sbuf, const MPI_Count *sc,
                          const MPI_Aint *sd, std::byte *rbuf, const MPI_Count *rc,
                          const MPI_Aint *rd, int size) {
  const auto &job = core::Runtime::instance().job();
  if (!x.c || !x.c->spans_clients || !job.impi || job.impi->maxdatalen == 0)
    co_return co_await alltoallv(x, sbuf, sc, sd, rbuf, rc, rd, MPI_BYTE, size);
  const std::int64_t packet = job.impi->maxdatalen;
  co_return co_await exchange_p2p(x, MPI_BYTE, sbuf, sc, sd, rbuf, rc, rd, size, packet,
                                  4 * packet);
}

// Who reads whose pieces from memory, agreed at the first two-phase
// access of the file that moves data: each process says whose memory it
// may read (procs of its client on its host, when the kernel lets it;
// `pid`, asked when the access was started), and learns who may read its
// own.
//
// Processes of other clients on the same machine (the same kernel: its
// boot id; and the same pid namespace) qualify too, unless
// IMPI_IO_PULL_CLIENTS=0: each sends every other its boot id's hash, its
// pid and the address of its probe word, and a process that reads the
// word back from that pid (cma_permitted) may read that memory. The IMPI
// channels then carry only the piece lists between them, not the data.
//
// On a small communicator across clients (at most kMemoryRoundsMost), where
// every process may write into every other's memory, the access's rounds
// go by memory too (memory_round): each also sends the address of its
// slots for them, and says whether it reaches everyone.
coll::Task agree_on_pulls(const Colls &x, FileObject &f, std::vector<std::int64_t> pid) {
  const std::size_t size = pid.size();
  // (Within a client the engine's own collectives are faster: 1.1 us at
  // np 2, where a round by memory took ~2.)
  const bool rounds = x.c && x.c->spans_clients && size <= kMemoryRoundsMost &&
                      base::get_int("io_memory_rounds") != 0;
  std::unique_ptr<MemoryRounds> slots;
  if (rounds) {
    const auto me = std::find(pid.begin(), pid.end(), std::int64_t{-1});
    slots = std::make_unique<MemoryRounds>(static_cast<int>(me - pid.begin()),
                                           static_cast<int>(size), kRoundWords);
  }
  std::vector<std::uint64_t> addr(size);
  {
    // (Every process takes part, whatever its setting: one that does not
    // pull across clients sends no key, and nobody reads its memory.)
    const bool pulls = base::get_int("io_pull_clients") != 0;
    constexpr int kW = 4;
    const long long me[kW] = {pulls ? static_cast<long long>(machine_key()) : 0,
                              static_cast<long long>(::getpid()),
                              static_cast<long long>(transport::shm::cma_probe_address()),
                              static_cast<long long>(slots ? slots->address() : 0)};
    std::vector<long long> out(kW * size), in(kW * size);
    for (std::size_t r = 0; r < size; ++r) std::copy_n(me, kW, &out[kW * r]);
    if (auto s = co_await alltoall_ll(x, out.data(), in.data(), static_cast<int>(size), kW);
        !s.ok())
      co_return s;
    for (std::size_t r = 0; r < size; ++r) {
      const long long *them = &in[kW * r];
      if (pid[r] < 0) addr[r] = static_cast<std::uint64_t>(me[3]);  // (ourselves)
      // (A process of our client: its slots where its pid is the one we know.)
      if (pid[r] > 0 && pid[r] == them[1]) addr[r] = static_cast<std::uint64_t>(them[3]);
      if (pid[r] != 0 || me[0] == 0 || them[0] != me[0] || them[1] <= 0) continue;
      if (transport::shm::cma_permitted(them[1], static_cast<std::uint64_t>(them[2]))) {
        pid[r] = them[1];
        addr[r] = static_cast<std::uint64_t>(them[3]);
      }
    }
  }
  // (Bit 0: whether we read r's memory; bit 1: whether we reach everyone's slots.)
  bool reach = rounds;
  for (std::size_t r = 0; r < size; ++r) reach = reach && pid[r] != 0 && addr[r] != 0;
  std::vector<long long> mine(size), theirs(size);
  for (std::size_t r = 0; r < size; ++r) mine[r] = (pid[r] != 0 ? 1 : 0) | (reach ? 2 : 0);
  if (auto s = co_await alltoall_ll(x, mine.data(), theirs.data(), static_cast<int>(size)); !s.ok())
    co_return s;
  bool everyone = reach;
  for (std::size_t r = 0; r < size; ++r) everyone = everyone && (theirs[r] & 2) != 0;
  f.tp_pull_pid = std::move(pid);
  f.tp_pulls_mine.resize(size);
  for (std::size_t r = 0; r < size; ++r) f.tp_pulls_mine[r] = (theirs[r] & 1) != 0;
  if (everyone) {
    slots->connect(f.tp_pull_pid, std::move(addr));
    f.tp_rounds = std::move(slots);
  }
  co_return {};
}

// co_await until `*ready` says so (the engine progresses meanwhile).
// (Trivially destructible, as the other awaiters: gcc 12 destroyed a
// temporary awaiter holding the std::function twice.)
struct AwaitUntil {
  const std::function<bool()> *ready;
  bool await_ready() const { return (*ready)(); }
  void await_suspend(std::coroutine_handle<coll::Task::promise_type> h) {
    coll::Driver *d = h.promise().driver;
    d->suspended = h;
    d->until = *ready;
  }
  void await_resume() const noexcept {}
};

// A round by memory (f.tp_rounds agreed): this process's `w` long longs
// (`mine`, w <= kRoundWords) into every other process's memory; then, once
// every other's have come, every process's part in `all` (rank r's at r *
// w), as allgather_ll gives them.
coll::Task memory_round(FileObject &f, const long long *mine, long long *all, int w, int rank,
                        int size) {
  MemoryRounds &m = *f.tp_rounds;
  const std::size_t part = static_cast<std::size_t>(w) * sizeof(long long);
  const long long k = m.post(mine, part, fmt::format("MPI-IO on {}", f.path));
  const std::function<bool()> arrived = [&m, k] { return m.arrived(k); };
  if (!arrived()) {
    struct Pending {  // (ends with the wait, or with the frame of an access torn down)
      core::P2P &p2p = core::Runtime::instance().p2p();
      Pending() { p2p.memory_wait(+1); }
      ~Pending() { p2p.memory_wait(-1); }
    } pending;
    co_await AwaitUntil{&arrived};
  }
  for (int r = 0; r < size; ++r)
    std::memcpy(all + static_cast<std::size_t>(r) * static_cast<std::size_t>(w),
                r == rank ? static_cast<const void *>(mine) : m.part(k, r), part);
  co_return {};
}

// The rounds of a two-phase access: by memory once agreed on (memory_round),
// else as messages (allgather_ll, allmax_ll).
coll::Task round_allgather(const Colls &x, FileObject &f, const long long *mine, long long *all,
                           int w, int rank, int size) {
  if (f.tp_rounds) co_return co_await memory_round(f, mine, all, w, rank, size);
  co_return co_await allgather_ll(x, mine, all, w, size);
}
coll::Task round_max(const Colls &x, FileObject &f, long long v, long long &out, int rank,
                     int size) {
  if (f.tp_rounds) {
    long long each[kMemoryRoundsMost];
    if (auto s = co_await memory_round(f, &v, each, 1, rank, size); !s.ok()) co_return s;
    out = *std::max_element(each, each + size);
    co_return {};
  }
  co_return co_await allmax_ll(x, v, out, size);
}

// Below this many bytes per piece on average, pieces adjacent in another
// process's memory move as one span (the kernel pins each vector's pages
// on its own).
constexpr std::size_t kSmallMoved = 8192;

// Copies between our pieces `local[k]` and process `pid`'s `remote[k]`
// (equal lengths): reads them (`write` false) or writes them, IOV_MAX
// vectors a call; after a short transfer (the kernel's per-call limit)
// piece by piece, the rest of each in as many calls as it takes. False
// when the kernel refused.
bool cma_vectors(bool write, std::int64_t pid, std::vector<iovec> &local,
                 std::vector<iovec> &remote) {
  for (std::size_t first = 0; first < local.size();) {
    const std::size_t m = std::min<std::size_t>(local.size() - first, 1024);  // IOV_MAX
    std::size_t want = 0;
    for (std::size_t k = first; k < first + m; ++k) want += local[k].iov_len;
    const auto p = static_cast<pid_t>(pid);
    ssize_t done = write ? ::process_vm_writev(p, &local[first], m, &remote[first], m, 0)
                         : ::process_vm_readv(p, &local[first], m, &remote[first], m, 0);
    if (done < 0 || static_cast<std::size_t>(done) != want) {
      std::size_t skip = done > 0 ? static_cast<std::size_t>(done) : 0;
      for (std::size_t k = first; k < first + m; ++k) {
        const std::size_t len = local[k].iov_len;
        if (skip >= len) {
          skip -= len;
          continue;
        }
        const auto at = reinterpret_cast<std::uint64_t>(remote[k].iov_base) + skip;
        char *mine = static_cast<char *>(local[k].iov_base) + skip;
        if (!(write ? transport::shm::cma_write(pid, at, mine, len - skip)
                    : transport::shm::cma_read(pid, at, mine, len - skip)))
          return false;
        skip = 0;
      }
    }
    first += m;
  }
  return true;
}

// A piece an aggregator writes: its file range and where its bytes are.
struct In {
  std::int64_t off, len;
  const std::byte *src;
};

// Writes the pieces, in file order, as runs (pwritev from where each piece
// is; only the bytes the pieces cover). A run of small pieces is gathered
// into `gather` first and written with one pwrite: the kernel's copy into
// the page cache, under the file's inode lock that serializes the
// aggregators, is then one segment (rows of 512 B between 2 clients:
// 10-15% faster). Where pieces overlap (processes writing the same
// bytes), the first in order stays. Returns 0 or an errno value.
int write_runs(int fd, const std::vector<In> &ins, Bytes &gather) {
  std::vector<iovec> iov;
  std::int64_t run_lo = 0, run_hi = 0;
  auto flush = [&]() -> int {
    if (iov.size() > 1 && static_cast<std::size_t>(run_hi - run_lo) < kSmallMoved * iov.size()) {
      gather.resize(static_cast<std::size_t>(run_hi - run_lo));
      std::byte *at = gather.data();
      for (const iovec &v : iov) {
        std::memcpy(at, v.iov_base, v.iov_len);
        at += v.iov_len;
      }
      iov.assign(1, {gather.data(), gather.size()});
    }
    std::size_t k = 0;
    std::int64_t at = run_lo;
    while (k < iov.size()) {
      const int n = static_cast<int>(std::min<std::size_t>(iov.size() - k, 1024));  // IOV_MAX
      ssize_t w = sys_pwritev(fd, &iov[k], n, at);
      if (w < 0) {
        if (errno == EINTR) continue;
        return errno;
      }
      if (w == 0) return EIO;
      at += w;
      for (auto left = static_cast<std::size_t>(w); left > 0 && k < iov.size();) {
        if (left >= iov[k].iov_len) {
          left -= iov[k++].iov_len;
        } else {
          iov[k].iov_base = static_cast<std::byte *>(iov[k].iov_base) + left;
          iov[k].iov_len -= left;
          left = 0;
        }
      }
    }
    iov.clear();
    run_lo = run_hi;
    return 0;
  };
  bool started = false;
  for (const In &p : ins) {
    if (!started || p.off > run_hi) {
      if (int e = flush(); e) return e;
      run_lo = run_hi = p.off;
      started = true;
    }
    const std::int64_t skip = run_hi - p.off;  // (overlapping pieces)
    if (skip >= p.len) continue;
    iov.push_back({const_cast<std::byte *>(p.src + skip), static_cast<std::size_t>(p.len - skip)});
    run_hi = p.off + p.len;
    if (iov.size() == 1024)
      if (int e = flush(); e) return e;
  }
  return flush();
}

// Where the pieces of process `pid` (ins[0, n), their `src` addresses in
// that process, in its memory's order) are read to: `room` bytes of ours.
// The kernel pins the pages of each piece on its own, so small pieces
// dense in the sender's memory (a 3-D subarray's rows) are read as one
// span (it lies in one buffer of the sender: its contiguous stream).
struct PullPlan {
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  std::size_t bytes = 0;
  bool span = false;
  std::size_t room() const { return span ? hi - lo : bytes; }
};
PullPlan plan_pull(const In *ins, std::size_t n) {
  PullPlan p;
  for (std::size_t k = 0; k < n; ++k) {
    const auto a = reinterpret_cast<std::uintptr_t>(ins[k].src);
    p.lo = std::min(p.lo, a);
    p.hi = std::max(p.hi, a + static_cast<std::size_t>(ins[k].len));
    p.bytes += static_cast<std::size_t>(ins[k].len);
  }
  p.span = n > 1 && p.bytes < kSmallMoved * n && 2 * p.bytes >= p.hi - p.lo;
  return p;
}
// Reads them to `to` and points their `src` there; false when the kernel refused.
bool pull(std::int64_t pid, In *ins, std::size_t n, const PullPlan &plan, std::byte *to) {
  if (plan.span) {
    if (!transport::shm::cma_read(pid, plan.lo, to, plan.hi - plan.lo)) return false;
    for (std::size_t k = 0; k < n; ++k)
      ins[k].src = to + (reinterpret_cast<std::uintptr_t>(ins[k].src) - plan.lo);
    return true;
  }
  // Piece by piece, packed into `to` (adjacent pieces in one vector).
  std::vector<iovec> local, remote;
  std::byte *at = to;
  for (std::size_t k = 0; k < n; ++k) {
    auto *from = const_cast<std::byte *>(ins[k].src);
    const auto len = static_cast<std::size_t>(ins[k].len);
    if (!remote.empty() &&
        static_cast<std::byte *>(remote.back().iov_base) + remote.back().iov_len == from) {
      remote.back().iov_len += len;
      local.back().iov_len += len;
    } else {
      remote.push_back({from, len});
      local.push_back({at, len});
    }
    ins[k].src = at;
    at += len;
  }
  return cma_vectors(false, pid, local, remote);
}

// One sender's pieces in an aggregator's list, ins[b, e): where they are
// now (pid 0: the data received; -1: our own memory; else that process's).
struct Source {
  std::size_t b, e;
  std::int64_t pid;
};

// Merges the runs [bounds[k], bounds[k+1]) of `v`, each in file order, pairwise.
void merge_runs(std::vector<In> &v, std::vector<std::size_t> bounds) {
  auto by_off = [](const In &x, const In &y) { return x.off < y.off; };
  while (bounds.size() > 2) {
    std::vector<std::size_t> merged{0};
    for (std::size_t k = 0; k + 1 < bounds.size(); k += 2) {
      const std::size_t top = k + 2 < bounds.size() ? bounds[k + 2] : bounds[k + 1];
      if (k + 2 < bounds.size())
        std::inplace_merge(v.begin() + static_cast<std::ptrdiff_t>(bounds[k]),
                           v.begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]),
                           v.begin() + static_cast<std::ptrdiff_t>(top), by_off);
      merged.push_back(top);
    }
    bounds = std::move(merged);
  }
}

// Atomic mode: where pieces of different processes overlap, the higher
// rank's bytes are kept, in every aggregator's domain alike, so the file
// ends as if the ranks had written one after the other in rank order
// (MPI-3.1 13.6.1). `ins`: each source's pieces (srcs, in rank order);
// rebuilt with the lower ranks' pieces cut where a higher rank's cover
// them. (A process's own pieces never overlap: a view's do not.)
void keep_higher_ranks(std::vector<In> &ins, std::vector<Source> &srcs) {
  using Span = std::pair<std::int64_t, std::int64_t>;
  auto by_off = [](const In &a, const In &b) { return a.off < b.off; };
  std::vector<Span> covered, merged;  // the higher ranks' pieces: sorted, disjoint
  std::vector<std::vector<In>> kept(srcs.size());
  for (std::size_t k = srcs.size(); k-- > 0;) {
    auto first = ins.begin() + static_cast<std::ptrdiff_t>(srcs[k].b);
    auto last = ins.begin() + static_cast<std::ptrdiff_t>(srcs[k].e);
    std::sort(first, last, by_off);
    std::vector<In> &out = kept[k];
    std::size_t c = 0;
    for (auto it = first; it != last; ++it) {
      std::int64_t lo = it->off;
      const std::int64_t hi = it->off + it->len;
      while (c < covered.size() && covered[c].second <= lo) ++c;
      for (std::size_t d = c; lo < hi; ++d) {
        if (d == covered.size() || covered[d].first >= hi) {
          out.push_back({lo, hi - lo, it->src + (lo - it->off)});
          break;
        }
        if (covered[d].first > lo)
          out.push_back({lo, covered[d].first - lo, it->src + (lo - it->off)});
        lo = std::max(lo, covered[d].second);
      }
    }
    // This source's pieces join the covered spans.
    merged.clear();
    auto add = [&](std::int64_t lo, std::int64_t hi) {
      if (!merged.empty() && merged.back().second >= lo)
        merged.back().second = std::max(merged.back().second, hi);
      else
        merged.emplace_back(lo, hi);
    };
    std::size_t a = 0;
    for (auto it = first; it != last || a < covered.size();) {
      if (it != last && (a == covered.size() || it->off < covered[a].first)) {
        add(it->off, it->off + it->len);
        ++it;
      } else {
        add(covered[a].first, covered[a].second);
        ++a;
      }
    }
    covered.swap(merged);
  }
  std::vector<In> all;
  for (std::size_t k = 0; k < srcs.size(); ++k) {
    srcs[k].b = all.size();
    all.insert(all.end(), kept[k].begin(), kept[k].end());
    srcs[k].e = all.size();
  }
  ins.swap(all);
}

// An aggregator's pieces (each source's in file order) written a chunk of
// the file at a time: read the chunk's pieces from their senders into
// `window`, merge the lists, write. One aggregator's reads then overlap
// another's writes, which the file's inode lock serializes (2 MiB each at
// np 2, both at once, took twice as long; 128 KiB and 1 MiB chunks
// measured slower than 256 KiB). 0, an errno value (a write failed), or
// a negated one (a read from a sender failed).
int write_in_chunks(int fd, std::vector<In> &ins, const std::vector<Source> &srcs, Bytes &window,
                    Bytes &gather) {
  constexpr std::int64_t kChunk = 256 << 10;
  std::vector<std::size_t> next(srcs.size()), end(srcs.size());
  std::vector<PullPlan> plans(srcs.size());
  for (std::size_t k = 0; k < srcs.size(); ++k) next[k] = srcs[k].b;
  std::vector<In> part;
  std::vector<std::size_t> bounds;
  for (;;) {
    std::int64_t lo = LLONG_MAX;
    for (std::size_t k = 0; k < srcs.size(); ++k)
      if (next[k] < srcs[k].e) lo = std::min(lo, ins[next[k]].off);
    if (lo == LLONG_MAX) return 0;
    const std::int64_t hi = lo + kChunk;
    std::size_t need = 0;
    for (std::size_t k = 0; k < srcs.size(); ++k) {
      std::size_t e = next[k];
      while (e < srcs[k].e && ins[e].off < hi) ++e;
      end[k] = e;
      if (srcs[k].pid > 0 && e > next[k]) {
        plans[k] = plan_pull(ins.data() + next[k], e - next[k]);
        need += plans[k].room();
      }
    }
    window.resize(need);
    std::byte *to = window.data();
    part.clear();
    bounds.assign(1, 0);
    for (std::size_t k = 0; k < srcs.size(); ++k) {
      const std::size_t n = end[k] - next[k];
      if (n == 0) continue;
      if (srcs[k].pid > 0) {
        if (!pull(srcs[k].pid, ins.data() + next[k], n, plans[k], to))
          return -(errno ? errno : EIO);
        to += plans[k].room();
      }
      part.insert(part.end(), ins.begin() + static_cast<std::ptrdiff_t>(next[k]),
                  ins.begin() + static_cast<std::ptrdiff_t>(end[k]));
      bounds.push_back(part.size());
      next[k] = end[k];
    }
    merge_runs(part, bounds);
    if (int e = write_runs(fd, part, gather); e) return e;
  }
}

// The same when some source's list is not in file order (a view's
// filetype is monotone: only a safeguard): read everything, sort, write.
int write_unordered(int fd, std::vector<In> &ins, const std::vector<Source> &srcs, Bytes &window,
                    Bytes &gather) {
  std::vector<PullPlan> plans(srcs.size());
  std::size_t room = 0;
  for (std::size_t k = 0; k < srcs.size(); ++k)
    if (srcs[k].pid > 0) {
      plans[k] = plan_pull(ins.data() + srcs[k].b, srcs[k].e - srcs[k].b);
      room += plans[k].room();
    }
  window.resize(room);
  std::byte *to = window.data();
  for (std::size_t k = 0; k < srcs.size(); ++k) {
    if (srcs[k].pid <= 0) continue;
    if (!pull(srcs[k].pid, ins.data() + srcs[k].b, srcs[k].e - srcs[k].b, plans[k], to))
      return -(errno ? errno : EIO);
    to += plans[k].room();
  }
  std::sort(ins.begin(), ins.end(), [](const In &x, const In &y) { return x.off < y.off; });
  return write_runs(fd, ins, gather);
}

// A reading aggregator's answer to a process whose memory it may write:
// pieces `local[k]` of ours to `remote[k]` there. The pieces of one step
// follow each other in the reader's stream: gathered into `bounce` and
// written with one call when they are small; else vector by vector. False
// when the kernel refused.
bool push(std::int64_t pid, std::vector<iovec> &local, std::vector<iovec> &remote, Bytes &bounce) {
  std::size_t bytes = 0;
  bool dense = true;
  for (std::size_t k = 0; k < remote.size(); ++k) {
    bytes += remote[k].iov_len;
    if (k > 0 && static_cast<std::byte *>(remote[k - 1].iov_base) + remote[k - 1].iov_len !=
                     remote[k].iov_base)
      dense = false;
  }
  if (dense && remote.size() > 1 && bytes < kSmallMoved * remote.size()) {
    bounce.resize(bytes);
    std::byte *at = bounce.data();
    for (const iovec &l : local) {
      std::memcpy(at, l.iov_base, l.iov_len);
      at += l.iov_len;
    }
    return transport::shm::cma_write(pid, reinterpret_cast<std::uint64_t>(remote.front().iov_base),
                                     bounce.data(), bytes);
  }
  return cma_vectors(true, pid, local, remote);
}
}  // namespace

// Below this many bytes per piece of a view, a collective write on a local
// file system goes through the aggregators.
constexpr std::int64_t kSmallPiece = 2048;

int agree_on_views(FileObject &f, const View *next, int err) {
  int mine[4] = {0, 0, 0, next ? MPI_SUCCESS : err}, all[4] = {0, 0, 0, 0};
  if (next) {
    const View &v = *next;
    mine[0] = v.contiguous ? 0 : 1;
    mine[2] = v.in_order ? 0 : 1;
    if (!v.contiguous && !v.runs.empty()) {
      // The view's pieces: its filetype's data runs, adjacent ones merged.
      std::int64_t pieces = 1;
      for (std::size_t i = 1; i < v.runs.size(); ++i)
        if (v.runs[i].disp != v.runs[i - 1].disp + v.runs[i - 1].len) ++pieces;
      mine[1] = v.ft_size / pieces < kSmallPiece ? 1 : 0;
    }
  }
  long long each[4 * kMemoryRoundsMost], m4[4] = {mine[0], mine[1], mine[2], mine[3]};
  if (file_round(f, m4, each, 4, "MPI_File_set_view")) {
    for (int r = 0; r < f.rounds->size(); ++r)
      for (int i = 0; i < 4; ++i) all[i] = std::max(all[i], static_cast<int>(each[4 * r + i]));
  } else {
    PMPI_Allreduce(mine, all, 4, MPI_INT, MPI_MAX, f.comm);
  }
  if (all[3] != MPI_SUCCESS) return all[3];
  f.any_noncontiguous = all[0] != 0;
  f.any_small_pieces = all[1] != 0;
  f.any_unordered = all[2] != 0;
  return MPI_SUCCESS;
}

bool two_phase_wanted(FileObject &f, bool write) {
  int size = 1;
  PMPI_Comm_size(f.comm, &size);
  auto it = f.hints.find(write ? "romio_cb_write" : "romio_cb_read");
  const std::string h = it == f.hints.end() ? "automatic" : it->second;
  // (A view whose tiles are not in file order goes independently, hint or
  // not: the aggregators' exchange takes each process's pieces in order.)
  if (h == "disable" || size == 1 || f.any_unordered) return false;
  if (h == "enable") return true;
  // automatic: on a network or parallel file system (rank 0 looked at
  // open: the same everywhere), when some process's view is not
  // contiguous. On a local file system independent accesses are faster
  // where the pieces are large (the page cache merges them: a 3-D
  // subarray of 8 KiB rows, 6x); small pieces (a system call each to
  // write) go through the aggregators (rows of 512 B: 3.5x), and so do
  // their reads: a sieving process reads its whole span, every other
  // process's pages too, and the next collective write then stores into
  // lines held in the other cores' caches (rows of 256 B at np 2, the
  // write after a read: 160-200 us against 280-370 in half the runs).
  // (Agreed on when the views were set: no messages here.)
  if (!f.shared_fs) return f.any_small_pieces;
  return f.any_noncontiguous;
}

namespace {

// A two-phase access: its arguments, what was settled when it started, and
// its result.
struct TwoPhase {
  FileObject *f = nullptr;
  std::shared_ptr<const View> own_view;  // a non-blocking access's copy
  const View *view = nullptr;
  bool write = false;
  bool atomic = false;  // atomic mode when it started
  std::int64_t off = 0;
  const void *buf = nullptr;
  std::int64_t count = 0;
  MPI_Datatype th = MPI_DATATYPE_NULL;
  pack::TypePtr type;
  // Settled at the call (the same sequence at every process).
  int rank = 0, size = 1, naggr = 1;
  std::int64_t cbs = 0;
  std::vector<std::int64_t> pull_pid;  // not empty: agree on the memory reads first
  // The file's buffers (a blocking access), or its own.
  Bytes *stream = nullptr, *out = nullptr, *in = nullptr, *window = nullptr;
  Bytes own[4];
  // The result.
  int err = MPI_SUCCESS;
  std::int64_t native = 0;
  std::string why;
};

std::shared_ptr<TwoPhase> prepare(FileObject &f, bool nb, bool write, std::int64_t off,
                                  const void *buf, std::int64_t count, MPI_Datatype th,
                                  const pack::TypePtr &type) {
  auto op = std::make_shared<TwoPhase>();
  op->f = &f;
  if (nb) {
    op->own_view = std::make_shared<const View>(f.view);
    op->view = op->own_view.get();
    op->stream = &op->own[0];
    op->out = &op->own[1];
    op->in = &op->own[2];
    op->window = &op->own[3];
  } else {
    op->view = &f.view;
    op->stream = &f.tp_stream;
    op->out = &f.tp_out;
    op->in = &f.tp_in;
    op->window = &f.tp_window;
  }
  op->write = write;
  op->atomic = f.knobs.atomic;
  op->off = off;
  op->buf = buf;
  op->count = count;
  op->th = th;
  op->type = type;
  PMPI_Comm_rank(f.comm, &op->rank);
  PMPI_Comm_size(f.comm, &op->size);
  // (Counts of a window's pieces: the _c exchanges; a window stays below 1 GiB.)
  op->cbs = std::min<std::int64_t>(hint_int(f, "cb_buffer_size", 16 << 20), 1 << 30);
  op->naggr = static_cast<int>(std::clamp<std::int64_t>(hint_int(f, "cb_nodes", 1), 1, op->size));
  if (static_cast<int>(f.tp_pull_pid.size()) != op->size) {  // (not agreed on yet)
    op->pull_pid.assign(static_cast<std::size_t>(op->size), 0);
    if (const core::Communicator *c = api::lookup_comm(f.comm);
        c && static_cast<int>(c->world.size()) == op->size) {
      auto &p2p = core::Runtime::instance().p2p();
      for (int r = 0; r < op->size; ++r)
        op->pull_pid[static_cast<std::size_t>(r)] =
            r == op->rank ? -1 : p2p.cma_pid(c->world[static_cast<std::size_t>(r)]);
    }
  }
  return op;
}

// A run of a process's pieces for one aggregator, as it travels: `count`
// pieces of `len` bytes, `stride` apart in the file from `off`, one after
// the other in the sender's stream from `addr` (its address there, for an
// aggregator that reads them from the sender's memory). A view's pieces
// are mostly regular (a subarray's rows), so a list of thousands is a few
// runs.
constexpr int kRun = 5;
struct Run {
  long long off, len, stride, count, addr;
};
// Appends piece (o, n, at) to `out`, extending its last run when the piece
// continues it; `first`: out's index of the first run for this aggregator.
inline void add_piece(std::vector<long long> &out, std::size_t first, long long o, long long n,
                      long long at) {
  if (out.size() > first) {
    long long *r = &out[out.size() - kRun];
    const long long off = r[0], len = r[1], count = r[3];
    long long &stride = r[2];
    if (len == n && at == r[4] + count * len && o >= off + (count - 1) * stride + len &&
        (count == 1 || o == off + count * stride)) {
      if (count == 1) stride = o - off;
      ++r[3];
      return;
    }
  }
  out.insert(out.end(), {o, n, 0, 1, at});
}

// The pieces of received runs [b, e) of `meta`, appended to `out`; false
// when a run is malformed or leaves this step's window [wlo, whi) (they
// come from other processes: checked before anything is sized by them).
struct Got {
  std::int64_t off, len, addr;
};
bool expand_runs(const long long *meta, std::size_t b, std::size_t e, std::int64_t wlo,
                 std::int64_t whi, std::vector<Got> &out) {
  if ((e - b) % kRun != 0) return false;
  for (std::size_t i = b; i < e; i += kRun) {
    const Run r{meta[i], meta[i + 1], meta[i + 2], meta[i + 3], meta[i + 4]};
    if (r.len <= 0 || r.count <= 0 || r.off < wlo || r.off > whi || r.len > whi - r.off)
      return false;
    if (r.count > 1 && (r.stride < r.len || r.count - 1 > (whi - r.off - r.len) / r.stride))
      return false;
    for (long long k = 0; k < r.count; ++k)
      out.push_back({r.off + k * r.stride, r.len, r.addr + k * r.len});
  }
  return true;
}

// A whole access's runs, told to every process before the first step
// (at most kWholeRuns of them per process): whether they are well formed
// and lie within the range [lo, hi) their sender gave (they come from
// other processes: checked before anything is sized by them).
constexpr int kWholeRuns = 8;
bool runs_valid(const long long *meta, std::size_t n, std::int64_t lo, std::int64_t hi) {
  for (std::size_t i = 0; i < n; i += kRun) {
    const Run r{meta[i], meta[i + 1], meta[i + 2], meta[i + 3], meta[i + 4]};
    if (r.len <= 0 || r.count <= 0 || r.off < 0 || r.off < lo || r.off > hi || r.len > hi - r.off)
      return false;
    if (r.count > 1 && (r.stride < r.len || r.count - 1 > (hi - r.off - r.len) / r.stride))
      return false;
  }
  return true;
}

// The parts of (valid) runs `meta[0, n)` that fall into the window
// [wlo, whi), appended to `out` in file order, with their addresses in
// the sender's stream: what the sender's own split of its pieces by
// window sends (the step loop of run() cuts them the same way).
void clip_runs(const long long *meta, std::size_t n, std::int64_t wlo, std::int64_t whi,
               std::vector<Got> &out) {
  for (std::size_t i = 0; i < n; i += kRun) {
    const Run r{meta[i], meta[i + 1], meta[i + 2], meta[i + 3], meta[i + 4]};
    // The pieces k with off + k * stride < whi and off + k * stride + len > wlo.
    if (r.off >= whi) break;
    long long k0 = 0, k1 = 0;  // [k0, k1)
    if (r.count == 1) {
      if (r.off + r.len <= wlo) continue;
      k1 = 1;
    } else {
      k0 = r.off + r.len > wlo ? 0 : (wlo - r.off - r.len) / r.stride + 1;
      k1 = std::min(r.count, (whi - 1 - r.off) / r.stride + 1);
    }
    for (long long k = k0; k < k1; ++k) {
      const std::int64_t o = r.off + k * r.stride, a = std::max<std::int64_t>(o, wlo),
                         b = std::min<std::int64_t>(o + r.len, whi);
      out.push_back({a, b - a, r.addr + k * r.len + (a - o)});
    }
  }
}

// Runs of a list that go with its counts (kCountsWidth long longs per
// rank: the list's length in long longs, its bytes, kInlineRuns runs).
constexpr int kInlineRuns = 4;
constexpr MPI_Count kInlineMeta = kInlineRuns * kRun;
constexpr std::size_t kCountsWidth = 2 + kInlineMeta;

// The vectors an access sizes by its pieces, kept between accesses (Lease).
struct Scratch {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  std::vector<Piece> pieces;
  std::vector<Got> incoming;
  std::vector<In> ins;
  std::vector<Source> srcs;
  std::vector<long long> meta_out, meta_in;
  std::vector<long long> whole, heads;  // (the access's runs; every process's)
  std::size_t bytes() const {
    return ranges.capacity() * sizeof(ranges[0]) + pieces.capacity() * sizeof(Piece) +
           incoming.capacity() * sizeof(Got) + ins.capacity() * sizeof(In) +
           srcs.capacity() * sizeof(Source) +
           (meta_out.capacity() + meta_in.capacity() + whole.capacity() + heads.capacity()) *
               sizeof(long long);
  }
  void reset() {
    ranges.clear();
    pieces.clear();
    incoming.clear();
    ins.clear();
    srcs.clear();
    meta_out.clear();
    meta_in.clear();
    whole.clear();
    heads.clear();
  }
};

// A collective call of the access failed (a non-blocking one's tasks report it).
base::Status failed(TwoPhase &op, const base::Status &s) {
  op.err = MPI_ERR_OTHER;
  op.why = fmt::format("the exchange between the processes failed: {}", s.message());
  return {};
}

// The access (sets op.err, op.native, op.why).
coll::Task run(TwoPhase &op, const Colls &x) {
  FileObject &f = *op.f;
  const View &v = *op.view;
  const bool write = op.write;
  const std::int64_t off = op.off, count = op.count;
  const void *buf = op.buf;
  const MPI_Datatype th = op.th;
  const pack::TypePtr &type = op.type;
  const int rank = op.rank, size = op.size;
  std::string &why = op.why;
  std::int64_t &native = op.native;
  std::int64_t total = file_bytes(v, type, count);
  int err = MPI_SUCCESS;
  // The process's stream: the user's memory itself when it is (native
  // data, a contiguous type), else a converted copy. A read goes straight
  // into it only when every aggregator writes into our memory (those
  // stop at the end of the file: the bytes past it stay as they were);
  // one that sends its answers as data (another machine; or the first
  // access, before that was agreed) sends zeros past the end, and the
  // read fills a copy, then only the memory the file's data reaches. (A
  // read into a copy cost 20 of 130 us: rows of 256 B, 256 KiB a process.)
  bool direct = v.rep == RepKind::native && type->is_contiguous();
  if (direct && !write) {
    direct = static_cast<int>(f.tp_pull_pid.size()) == size;
    for (int a = 0; direct && a < op.naggr; ++a)
      direct = f.tp_pulls_mine[static_cast<std::size_t>(a * size / op.naggr)] != 0;
  }
  Bytes &stream = *op.stream;
  std::byte *sbase =
      direct ? static_cast<std::byte *>(const_cast<void *>(buf)) + type->lb() : nullptr;
  if (!direct) {
    if (write && total > 0) err = encode(v, buf, count, th, type, stream, why);
    if (!write) stream.resize(static_cast<std::size_t>(total));
    sbase = stream.data();
  }
  Lease<Scratch> scratch;
  auto &ranges = scratch->ranges;
  if (total > 0) map_ranges(v, off * v.et_size, total, ranges);
  if (!ranges.empty() && ranges.front().first < 0) {
    err = MPI_ERR_ARG;
    why = "the access would start before the beginning of the file";
  }
  if (total > 0 && v.runs.empty() && err == MPI_SUCCESS) {
    err = MPI_ERR_ARG;
    why = kEmptyView;
  }
  // The pieces in file order (a view's ranges are), with their stream
  // positions; and as runs (below), in the same pass: these lists are
  // cold by the time an access starts (its data went through the caches
  // since the last), and each pass over thousands of pieces cost 5-8 us.
  constexpr std::size_t kMostWhole = kWholeRuns * kRun;
  auto &pieces = scratch->pieces;
  auto &whole = scratch->whole, &heads = scratch->heads;
  pieces.reserve(ranges.size());
  whole.clear();
  {
    std::int64_t s = 0;
    for (auto [o, n] : ranges) {
      pieces.push_back({o, n, s});
      if (whole.size() <= kMostWhole)
        add_piece(whole, 0, o, n,
                  static_cast<long long>(reinterpret_cast<std::uintptr_t>(sbase + s)));
      s += n;
    }
  }
  // Agree on the range and the errors: every process tells every other
  // its range, its error and, when its pieces make at most kWholeRuns runs
  // (a regular view: the rows of a subarray split in its fastest dimension
  // are one), the runs themselves. When every process's fit, each
  // aggregator knows which pieces each step brings it and the steps need
  // no exchange of piece lists (across 2 IMPI clients, two of a small
  // access's three rounds become one).
  constexpr int kHead = 4, kWide = kHead + kWholeRuns * kRun;
  {
    long long mine[kWide] = {LLONG_MAX, LLONG_MIN, err, -1};
    if (!ranges.empty() && err == MPI_SUCCESS) {
      mine[0] = ranges.front().first;
      mine[1] = ranges.back().first + ranges.back().second;
    }
    if (err == MPI_SUCCESS && whole.size() <= kMostWhole) {
      mine[3] = static_cast<long long>(whole.size() / kRun);
      std::copy(whole.begin(), whole.end(), mine + kHead);
    }
    heads.resize(static_cast<std::size_t>(kWide) * static_cast<std::size_t>(size));
    static_assert(kWide == kRoundWords);
    if (auto s = co_await round_allgather(x, f, mine, heads.data(), kWide, rank, size); !s.ok())
      co_return failed(op, s);
  }
  std::int64_t glo = LLONG_MAX, ghi = LLONG_MIN;
  long long worst = 0;
  bool all_runs = true;
  for (int r = 0; r < size; ++r) {
    const long long *h = &heads[static_cast<std::size_t>(kWide) * static_cast<std::size_t>(r)];
    worst = std::max(worst, h[2]);
    if (h[0] < h[1]) {
      glo = std::min<std::int64_t>(glo, h[0]);
      ghi = std::max<std::int64_t>(ghi, h[1]);
    }
    if (h[0] < h[1] && h[0] < 0) {
      worst = std::max<long long>(worst, errno_class(EPROTO));
      if (err == MPI_SUCCESS && why.empty()) why = fmt::format("a malformed range from rank {}", r);
    } else if (h[3] < 0 || h[3] > kWholeRuns) {
      all_runs = false;
    } else if (!runs_valid(h + kHead, static_cast<std::size_t>(h[3]) * kRun, h[0], h[1])) {
      // (Every process sees the same lists: all fail alike.)
      worst = std::max<long long>(worst, errno_class(EPROTO));
      if (err == MPI_SUCCESS && why.empty())
        why = fmt::format("a malformed piece list from rank {}", r);
    }
  }
  if (worst != 0) {
    if (err == MPI_SUCCESS) {
      err = static_cast<int>(worst);
      if (why.empty()) why = "failed at another process";
    }
    op.err = err;
    co_return {};
  }
  native = 0;
  if (glo >= ghi) co_return {};  // nobody accesses anything
  // (Decided here, not at the call: the accesses on the communicator run
  // in the same order everywhere, and one that returned above agreed on
  // nothing; when this one was started, every process asked its pids.)
  if (static_cast<int>(f.tp_pull_pid.size()) != size)
    if (auto s = co_await agree_on_pulls(x, f, std::move(op.pull_pid)); !s.ok())
      co_return failed(op, s);

  const std::int64_t cbs = op.cbs;
  const int naggr = op.naggr;
  std::vector<int> aggr(static_cast<std::size_t>(naggr));
  for (int a = 0; a < naggr; ++a) aggr[static_cast<std::size_t>(a)] = a * size / naggr;
  int my_aggr = -1;
  for (int a = 0; a < naggr; ++a)
    if (aggr[static_cast<std::size_t>(a)] == rank) my_aggr = a;
  // Each aggregator's file domain: an equal share of [glo, ghi), in
  // 4 KiB pages (aggregators do not write into one page), accessed
  // cb_buffer_size at a time.
  constexpr std::int64_t kAlign = 4096;
  std::int64_t fd_len = (ghi - glo + naggr - 1) / naggr;
  fd_len = std::max<std::int64_t>(kAlign, (fd_len + kAlign - 1) / kAlign * kAlign);
  const std::int64_t nsteps = (fd_len + cbs - 1) / cbs;

  // Atomic mode: each aggregator locks its whole domain, and no data moves
  // before every aggregator holds its lock (the allreduce, which also
  // agrees on a lock that failed); each lets go when it is done. Another
  // process's independent access, which locks its own range at once, sees
  // all of the collective access or none of it; overlaps within the
  // collective keep the higher rank's bytes (keep_higher_ranks).
  struct DomainLock {
    int fd = -1;
    std::int64_t lo = 0, len = 0;
    ~DomainLock() {
      if (fd >= 0) range_lock(fd, F_UNLCK, lo, len);
    }
  } domain_lock;
  if (op.atomic) {
    int lock_err = 0;
    if (my_aggr >= 0) {
      const std::int64_t dlo = glo + my_aggr * fd_len, dhi = std::min(dlo + fd_len, ghi);
      if (dlo < dhi) {
        if (range_lock(f.fd, write ? F_WRLCK : F_RDLCK, dlo, dhi - dlo)) {
          domain_lock.fd = f.fd;
          domain_lock.lo = dlo;
          domain_lock.len = dhi - dlo;
        } else {
          lock_err = errno;
        }
      }
    }
    long long lcls = lock_err ? errno_class(lock_err) : 0, lany = 0;
    if (auto s = co_await allmax_ll(x, lcls, lany, size); !s.ok()) co_return failed(op, s);
    if (lany) {
      why = lock_err ? fmt::format("{}: cannot lock bytes for the atomic access: {}", f.path,
                                   std::strerror(lock_err))
                     : "an aggregator could not lock its part of the file";
      op.err = static_cast<int>(lany);
      co_return {};
    }
  }

  // Per aggregator: its first piece not wholly done, and the bytes of it done.
  struct Cursor {
    std::size_t next = 0;
    std::int64_t done = 0;
  };
  std::vector<Cursor> cur(static_cast<std::size_t>(naggr));
  for (int a = 0; a < naggr; ++a) {
    const std::int64_t dlo = glo + a * fd_len;
    auto it = std::partition_point(pieces.begin(), pieces.end(),
                                   [&](const Piece &p) { return p.off + p.len <= dlo; });
    Cursor &c = cur[static_cast<std::size_t>(a)];
    c.next = static_cast<std::size_t>(it - pieces.begin());
    c.done = c.next < pieces.size() ? std::max<std::int64_t>(0, dlo - pieces[c.next].off) : 0;
  }
  // (Counts and displacements of the _c exchanges: a step's pieces and
  // bytes are not bounded by INT_MAX.) The data a process sends to an
  // aggregator in a step (for a read: gets back) is one range of its
  // stream, in place: `sdisp` is its position there.
  const auto usize = static_cast<std::size_t>(size);
  std::vector<MPI_Count> scount(usize), rcount(usize), smeta(usize), rmeta(usize);
  std::vector<MPI_Aint> sdisp(usize), rdisp(usize), smdisp(usize), rmdisp(usize);
  // The pieces as runs (Run) going out; the pieces that came in, by
  // sender (`from[r]` to `from[r + 1]`).
  auto &meta_out = scratch->meta_out, &meta_in = scratch->meta_in;
  auto &incoming = scratch->incoming;
  std::vector<long long> counts_out(kCountsWidth * usize), counts_in(kCountsWidth * usize);
  std::vector<MPI_Count> smeta_rest(usize), rmeta_rest(usize);
  std::vector<MPI_Aint> smdisp_rest(usize), rmdisp_rest(usize);
  std::vector<std::size_t> from(usize + 1);
  Bytes &data_out = *op.out, &data_in = *op.in, &window = *op.window;
  int io_err = 0;

  for (std::int64_t step = 0; step < nsteps; ++step) {
    // Split my pieces by aggregator window (aggregators in rank order: the
    // windows are in file order, so the data goes in Alltoallv's order).
    meta_out.clear();
    std::fill(scount.begin(), scount.end(), 0);
    std::fill(smeta.begin(), smeta.end(), 0);
    for (int a = 0; a < naggr; ++a) {
      const std::int64_t dlo = glo + a * fd_len, dhi = std::min(dlo + fd_len, ghi);
      const std::int64_t alo = dlo + step * cbs, ahi = std::min(alo + cbs, dhi);
      if (alo >= ahi) continue;
      const int dst = aggr[static_cast<std::size_t>(a)];
      // (Pieces for an aggregator that reads them from our memory, or
      // writes them into it: no data.)
      const bool sent = !f.tp_pulls_mine[static_cast<std::size_t>(dst)];
      Cursor &c = cur[static_cast<std::size_t>(a)];
      // Nothing to list or count for an aggregator that reads our memory
      // when it knows our runs: that holds at every step, so its cursor
      // is never needed.
      if (all_runs && !sent) continue;
      const std::size_t first = meta_out.size();
      while (c.next < pieces.size()) {
        const Piece &p = pieces[c.next];
        std::int64_t o = p.off + c.done, n = p.len - c.done;
        if (o >= ahi) break;
        std::int64_t take = std::min(n, ahi - o);
        if (!all_runs)
          add_piece(
              meta_out, first, o, take,
              static_cast<long long>(reinterpret_cast<std::uintptr_t>(sbase + p.stream + c.done)));
        if (sent) {
          if (scount[static_cast<std::size_t>(dst)] == 0)
            sdisp[static_cast<std::size_t>(dst)] = static_cast<MPI_Aint>(p.stream + c.done);
          scount[static_cast<std::size_t>(dst)] += take;
        }
        c.done += take;
        if (c.done == p.len) {
          ++c.next;
          c.done = 0;
        }
      }
      smeta[static_cast<std::size_t>(dst)] += static_cast<MPI_Count>(meta_out.size() - first);
    }
    // The window this aggregator serves in this step, if it is one.
    std::int64_t wlo = 0, whi = 0;  // (no window: nothing may come)
    if (my_aggr >= 0) {
      const std::int64_t dlo = glo + my_aggr * fd_len, dhi = std::min(dlo + fd_len, ghi);
      wlo = dlo + step * cbs;
      whi = std::max(wlo, std::min(wlo + cbs, dhi));
    }
    incoming.clear();
    MPI_Aint rb = 0;
    if (all_runs) {
      // Every process's runs are known: the pieces of this window from
      // each, and the bytes that come as data (those not read from memory).
      for (std::size_t r = 0; r < usize; ++r) {
        from[r] = incoming.size();
        const long long *h = &heads[static_cast<std::size_t>(kWide) * r];
        if (wlo < whi)
          clip_runs(h + kHead, static_cast<std::size_t>(h[3]) * kRun, wlo, whi, incoming);
        MPI_Count n = 0;
        if (!f.tp_pull_pid[r])
          for (std::size_t k = from[r]; k < incoming.size(); ++k) n += incoming[k].len;
        rcount[r] = n;
        rdisp[r] = rb;
        rb += n;
      }
      from[usize] = incoming.size();
    } else {
      // Exchange the piece lists: with their lengths and the bytes they cover
      // (the data exchange's counts: they match even when a list turns out
      // malformed) the first kInlineRuns runs of each, all of a regular view's
      // (a subarray's rows are one run a window); the rest of a longer list
      // after, from those that have it to those that expect it.
      MPI_Aint sm = 0;
      for (std::size_t r = 0; r < usize; ++r) {
        smdisp[r] = sm;
        sm += smeta[r];
        long long *to = &counts_out[kCountsWidth * r];
        to[0] = smeta[r];
        to[1] = scount[r];
        std::copy_n(meta_out.data() + smdisp[r], std::min<MPI_Count>(smeta[r], kInlineMeta),
                    to + 2);
      }
      g_io_counters.list_rounds.fetch_add(1, std::memory_order_relaxed);
      if (auto s = co_await alltoall_ll(x, counts_out.data(), counts_in.data(), size,
                                        static_cast<int>(kCountsWidth));
          !s.ok())
        co_return failed(op, s);
      MPI_Aint rm = 0;
      for (std::size_t r = 0; r < usize; ++r) {
        const long long *got = &counts_in[kCountsWidth * r];
        rmeta[r] = got[0];
        rcount[r] = got[1];
        // (A list has at most a run per byte of the window, and covers at most all of it.)
        if (rmeta[r] < 0 || rmeta[r] > kRun * (whi - wlo) || rcount[r] < 0 ||
            rcount[r] > whi - wlo) {
          rmeta[r] = rcount[r] = 0;  // (not what was sent: the exchange fails below)
          if (!io_err) {
            io_err = EPROTO;
            why = fmt::format("a malformed piece list from rank {}", r);
          }
        }
        rmdisp[r] = rm;
        rm += rmeta[r];
      }
      meta_in.resize(static_cast<std::size_t>(rm));
      for (std::size_t r = 0; r < usize; ++r) {
        std::copy_n(&counts_in[kCountsWidth * r + 2], std::min<MPI_Count>(rmeta[r], kInlineMeta),
                    meta_in.data() + rmdisp[r]);
        // (What is left to come, and to send: after the inline part.)
        smeta_rest[r] = std::max<MPI_Count>(0, smeta[r] - kInlineMeta);
        smdisp_rest[r] = smdisp[r] + kInlineMeta;
        rmeta_rest[r] = std::max<MPI_Count>(0, rmeta[r] - kInlineMeta);
        rmdisp_rest[r] = rmdisp[r] + kInlineMeta;
      }
      if (std::any_of(smeta_rest.begin(), smeta_rest.end(), [](MPI_Count n) { return n > 0; }) ||
          std::any_of(rmeta_rest.begin(), rmeta_rest.end(), [](MPI_Count n) { return n > 0; })) {
        if (auto s = co_await exchange_p2p(x, MPI_LONG_LONG, meta_out.data(), smeta_rest.data(),
                                           smdisp_rest.data(), meta_in.data(), rmeta_rest.data(),
                                           rmdisp_rest.data(), size, LLONG_MAX, 0);
            !s.ok())
          co_return failed(op, s);
      }
      // The pieces each source sends me (writes) or asks of me (reads), and their bytes.
      for (std::size_t r = 0; r < usize; ++r) {
        from[r] = incoming.size();
        const auto b = static_cast<std::size_t>(rmdisp[r]);
        bool ok = expand_runs(meta_in.data(), b, b + static_cast<std::size_t>(rmeta[r]), wlo, whi,
                              incoming);
        MPI_Count n = 0;
        if (!f.tp_pull_pid[r])
          for (std::size_t i = from[r]; i < incoming.size(); ++i) n += incoming[i].len;
        if ((!ok || n != rcount[r]) && !io_err) {
          io_err = EPROTO;
          why = fmt::format("a malformed piece list from rank {}", r);
        }
        rdisp[r] = rb;
        rb += rcount[r];
      }
      from[usize] = incoming.size();
    }
    // The window this aggregator serves in this step: the span of the pieces in it.
    std::int64_t span_lo = LLONG_MAX, span_hi = LLONG_MIN;
    for (const Got &g : incoming) {
      span_lo = std::min<std::int64_t>(span_lo, g.off);
      span_hi = std::max<std::int64_t>(span_hi, g.off + g.len);
    }
    if (write) {
      data_in.resize(static_cast<std::size_t>(rb));
      if (auto s = co_await exchange_bytes(x, sbase, scount.data(), sdisp.data(), data_in.data(),
                                           rcount.data(), rdisp.data(), size);
          !s.ok())
        co_return failed(op, s);
      if (my_aggr >= 0 && !incoming.empty() && !io_err) {
        // Every piece where it is: in the data received, our own memory,
        // or the sender's (read from there); then written in file order.
        auto &ins = scratch->ins;
        auto &srcs = scratch->srcs;
        ins.clear();
        srcs.clear();
        ins.reserve(incoming.size());
        bool sorted = true;
        std::int64_t at = 0;
        for (int r = 0; r < size; ++r) {
          const std::int64_t pid = f.tp_pull_pid[static_cast<std::size_t>(r)];
          const std::size_t b = from[static_cast<std::size_t>(r)],
                            e = from[static_cast<std::size_t>(r) + 1];
          if (b == e) continue;
          Source src{ins.size(), 0, pid};
          for (std::size_t i = b; i < e; ++i) {
            const std::int64_t o = incoming[i].off, n = incoming[i].len;
            if (i > b && o < ins.back().off) sorted = false;
            const std::byte *at_src = pid ? reinterpret_cast<const std::byte *>(
                                                static_cast<std::uintptr_t>(incoming[i].addr))
                                          : data_in.data() + at;
            if (!pid) at += n;
            ins.push_back({o, n, at_src});
          }
          src.e = ins.size();
          srcs.push_back(src);
        }
        if (op.atomic && srcs.size() > 1) {
          keep_higher_ranks(ins, srcs);
          sorted = true;
        }
        if (int e = sorted ? write_in_chunks(f.fd, ins, srcs, window, data_out)
                           : write_unordered(f.fd, ins, srcs, window, data_out);
            e != 0) {
          io_err = e;
          if (e < 0) {
            io_err = -e;
            why =
                fmt::format("reading a process's data from its memory: {}", std::strerror(io_err));
          }
        }
      }
    } else {
      // Aggregators read their span, then answer every request in order.
      data_in.resize(static_cast<std::size_t>(rb));
      if (my_aggr >= 0 && !incoming.empty()) {
        window.resize(static_cast<std::size_t>(span_hi - span_lo));
        // (The end of the file, as this read saw it: memory we write
        // stops there.)
        std::int64_t end = span_hi;
        if (!io_err) {
          const std::int64_t got = all_pread(f.fd, window.data(), span_hi - span_lo, span_lo);
          if (got < 0)
            io_err = errno;
          else
            end = span_lo + got;
        }
        // Each piece to its process: as data, into our own stream, or
        // written into the reader's stream (its address in the request).
        // (After an error nothing is: the access fails everywhere, and the
        // answers sent are what the buffer held.)
        std::int64_t at = 0;
        std::vector<iovec> local, remote;
        for (int r = 0; r < size && !io_err; ++r) {
          const std::int64_t pid = f.tp_pull_pid[static_cast<std::size_t>(r)];
          for (std::size_t i = from[static_cast<std::size_t>(r)],
                           e = from[static_cast<std::size_t>(r) + 1];
               i < e; ++i) {
            std::byte *in_window = window.data() + (incoming[i].off - span_lo);
            auto *to = reinterpret_cast<std::byte *>(static_cast<std::uintptr_t>(incoming[i].addr));
            if (pid != 0) {
              const auto n = static_cast<std::size_t>(
                  std::clamp<std::int64_t>(end - incoming[i].off, 0, incoming[i].len));
              if (n == 0) continue;
              if (pid < 0) {
                std::memcpy(to, in_window, n);
              } else {
                local.push_back({in_window, n});
                remote.push_back({to, n});
              }
            } else {
              std::memcpy(data_in.data() + at, in_window,
                          static_cast<std::size_t>(incoming[i].len));
              at += incoming[i].len;
            }
          }
          if (pid > 0 && !local.empty()) {
            if (!io_err && !push(pid, local, remote, data_out)) {
              io_err = errno ? errno : EIO;
              why = fmt::format("writing a process's data into its memory: {}",
                                std::strerror(io_err));
            }
            local.clear();
            remote.clear();
          }
        }
      }
      if (auto s = co_await exchange_bytes(x, data_in.data(), rcount.data(), rdisp.data(), sbase,
                                           scount.data(), sdisp.data(), size);
          !s.ok())
        co_return failed(op, s);
    }
  }
  // Errors of the aggregators are everyone's; and no process returns before
  // every aggregator is done with its memory.
  long long cls = io_err ? errno_class(io_err) : 0, any = 0;
  if (auto s = co_await round_max(x, f, cls, any, rank, size); !s.ok()) co_return failed(op, s);
  if (any) {
    if (!io_err)
      why = "an aggregator's access failed";
    else if (why.empty())
      why = fmt::format("{}: {}", f.path, std::strerror(io_err));
    op.err = static_cast<int>(any);
    co_return {};
  }
  if (write) {
    native = type->size() * count;
    co_return {};
  }
  // What was there to read: the stream up to the end of the file.
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    why = std::strerror(errno);
    op.err = errno_class(errno);
    co_return {};
  }
  std::int64_t got = 0;
  for (auto [o, n] : ranges) {
    std::int64_t have = std::clamp<std::int64_t>(st.st_size - o, 0, n);
    got += have;
    if (have < n) break;
  }
  if (total <= 0) co_return {};
  // (Aggregators may have written into it: memory valgrind did not see written.)
  transport::shm::mark_defined(sbase, static_cast<std::size_t>(direct ? got : total));
  if (direct) {
    native = got;
    co_return {};
  }
  std::int64_t n = decode(v, stream.data(), got, const_cast<void *>(buf), count, th, type, why);
  if (n < 0) {
    op.err = static_cast<int>(-n);
    co_return {};
  }
  native = n;
  co_return {};
}

// A non-blocking access: the access, then `done` with its result.
coll::Task run_then(std::shared_ptr<TwoPhase> op, Colls x,
                    std::function<void(int, std::int64_t, const std::string &)> done) {
  (void)co_await run(*op, x);  // (its result is in *op)
  done(op->err, op->native, op->why);
  co_return {};
}

}  // namespace

int two_phase(FileObject &f, bool write, std::int64_t off, const void *buf, std::int64_t count,
              MPI_Datatype th, const pack::TypePtr &type, std::int64_t &native, std::string &why) {
  // (Non-blocking accesses still running use the communicator first: and
  // the file's buffers, which this one takes.)
  const core::Communicator *c = api::lookup_comm(f.comm);
  auto &p2p = core::Runtime::instance().p2p();
  if (c) coll::drain(c, p2p);
  auto op = prepare(f, false, write, off, buf, count, th, type);
  Colls x{f.comm, c, false};
  // (Blocking calls inside: it does not wait on a request, one pass runs
  // it; should it ever, the engine brings it to its end.)
  coll::Driver d;
  d.p2p = &p2p;
  coll::Task t = run(*op, x);
  t.start(d);
  if (!d.done) p2p.wait_until([&] { return d.poll(); });
  native = op->native;
  why = std::move(op->why);
  return op->err;
}

int two_phase_start(FileObject &f, bool write, std::int64_t off, const void *buf,
                    std::int64_t count, MPI_Datatype th, const pack::TypePtr &type,
                    std::function<void(int, std::int64_t, const std::string &)> done) {
  const core::Communicator *c = api::lookup_comm(f.comm);
  if (!c) return MPI_ERR_FILE;
  auto op = prepare(f, true, write, off, buf, count, th, type);
  core::RequestPtr r;  // (the access reports through `done`)
  if (auto s =
          coll::start(*c, run_then(std::move(op), Colls{f.comm, c, true}, std::move(done)), &r);
      !s.ok())
    return MPI_ERR_INTERN;
  return MPI_SUCCESS;
}

}  // namespace impi::io
