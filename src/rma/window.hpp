// window.hpp - one-sided communication (MPI-3.1 chapter 11): a window's
// memory, its epochs and its operations, below the C API.
//
// Each operation takes one of four paths to its target, fixed when the
// window is created:
//   self     - our own memory: a copy or an accumulate in place;
//   shm      - a proc of this host whose window memory we have mapped
//              (MPI_Win_allocate, MPI_Win_allocate_shared): loads and
//              stores, accumulates with processor atomics where the
//              element allows and under the target's lock otherwise;
//   cma      - a proc of this host with user memory (MPI_Win_create,
//              dynamic windows): Linux cross-memory attach
//              (process_vm_readv/writev), accumulates under its lock;
//   message  - anything else (another IMPI client or host, or no
//              cross-memory attach): ordinary point-to-point messages in
//              the window's own context, served by the target's progress
//              engine (target.cpp), so the IMPI wire carries only valid
//              traffic. Every operation is answered (an ack, or the data),
//              which is what flush, unlock, complete and fence wait for.
//
// The procs of one host that share a window hold one shared region with a
// control block per proc (its window lock word, its accumulate lock, its
// attached regions) and, for the allocating flavours, the memory itself;
// the target's message server takes the same locks, so origins on every
// path exclude each other.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/copy.hpp"
#include "core/p2p.hpp"
#include "pack/datatype.hpp"
#include "pack/reduce.hpp"
#include "rma/attach_table.hpp"
#include "rma/request_codec.hpp"
#include "rma/shared_region.hpp"

namespace impi::rma {

enum class Flavor : int { create = 1, allocate = 2, dynamic = 3, shared = 4 };

// One proc's control block, in its host's shared region (zero-filled).
struct alignas(64) MemberCtl {
  std::atomic<std::int64_t> lock;      // window lock: -1 exclusive, n > 0 shared holders
  std::atomic<std::int32_t> acc_lock;  // accumulates: -1 held alone, n > 0 shared by n
  // Lock requests from other clients that this proc's engine holds until
  // the lock word is free. While there are any, procs of this host do not
  // take the word themselves: they would otherwise always win it (the
  // request is granted only when the owner runs its engine) and starve them.
  std::atomic<std::int32_t> remote_waiting;
  // Procs of this host waiting for the lock word (Window::lock). A proc
  // that comes to the word while there are any joins them rather than take
  // it at once: the one that just released it would otherwise win it again
  // and again (its cache holds the word; a waiter may be asleep or have no
  // core), and an exclusive locker could starve behind procs that lock and
  // unlock in a loop (rma_spinlock_check's handoff took up to 20 s at 4
  // procs on 2 cores). Waiters compete among themselves.
  std::atomic<std::int32_t> local_waiting;
  AttachCtl attach;  // dynamic windows: the regions attached (attach_table.hpp)
  // Rank 0's block only: the fence barrier of a window whose procs all
  // share this region (arrivals, and the generation that releases them).
  std::atomic<std::int32_t> bar_arrived;
  std::atomic<std::int32_t> bar_generation;
};

struct Target {
  int world = 0;                 // world rank (messages go there)
  core::Channel *via = nullptr;  // the channel to it (the communicator's route)
  std::uint64_t base = 0;        // window memory in the target's address space
  std::int64_t size = 0;         // bytes
  int disp_unit = 1;
  char *mapped = nullptr;    // that memory mapped here (shm path)
  MemberCtl *ctl = nullptr;  // its control block, when it shares our host's region
  std::int64_t cma_pid = 0;  // its pid when we may use cross-memory attach (cma path)
};

// An MPI error class (0: success) and what went wrong.
struct Error {
  int code = 0;
  std::string what;
  explicit operator bool() const { return code != 0; }
};

class Window {
 public:
  struct Config {
    core::P2P *p2p = nullptr;
    int rank = 0;     // ours in the window's communicator
    int context = 0;  // its point-to-point context (a duplicate's: the window's own)
    Flavor flavor = Flavor::create;
    std::vector<Target> targets;    // by rank
    SharedRegion region;            // this host's control blocks (and memory)
    bool atomics = false;           // accumulate with processor atomics where elements allow
    std::function<bool()> barrier;  // over the window's communicator
    bool threads = false;           // MPI_THREAD_MULTIPLE: the origin side takes a lock
    bool one_region = false;        // every proc maps `region`: fences meet in it
    std::string attach_prefix;      // dynamic windows: the attach tables' segment names
  };
  explicit Window(Config c);
  ~Window();
  // The accumulate lock and the window lock word of a control block.
  // The accumulate lock is a reader-writer lock: element-wise atomic
  // updates share it, plain read-modify-writes of many elements hold it
  // alone (so the two never interleave on one location).
  static void lock_acc(MemberCtl *ctl, bool shared = false);
  static void unlock_acc(MemberCtl *ctl, bool shared = false);
  static bool try_lock_word(MemberCtl *ctl, bool exclusive);
  // try_lock_word for a proc of this host: yields to waiting remote
  // requests, and (a first try: `waiter` false) to local waiters.
  static bool try_lock_local(MemberCtl *ctl, bool exclusive, bool waiter);
  static void unlock_word(MemberCtl *ctl);
  struct Pending;   // an operation of ours awaiting its answer (window_detail.hpp)
  struct Incoming;  // an operation for us, being served
  Window(const Window &) = delete;
  Window &operator=(const Window &) = delete;

  Flavor flavor() const { return cfg_.flavor; }
  int size() const { return static_cast<int>(cfg_.targets.size()); }
  const Target &target(int r) const { return cfg_.targets[static_cast<std::size_t>(r)]; }

  // ---- communication (11.3). `req`, when given, receives a request that
  // completes locally (R-forms); null when the operation already has.
  Error put(const void *origin, std::int64_t ocount, const pack::TypePtr &otype, int target,
            std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
            core::RequestPtr *req = nullptr);
  Error get(void *origin, std::int64_t ocount, const pack::TypePtr &otype, int target,
            std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
            core::RequestPtr *req = nullptr);
  // `result` null: MPI_Accumulate; else MPI_Get_accumulate.
  Error accumulate(const void *origin, std::int64_t ocount, const pack::TypePtr &otype,
                   void *result, std::int64_t rcount, const pack::TypePtr &rtype, int target,
                   std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype, pack::Op op,
                   core::RequestPtr *req = nullptr);
  Error compare_and_swap(const void *origin, const void *compare, void *result,
                         const pack::TypePtr &type, int target, std::int64_t disp);

  // Fast paths of MPI_Put/MPI_Get and MPI_Win_flush for memory the origin
  // has mapped (inline: these are a copy and a fence): `bytes` of one
  // contiguous predefined type on both sides, inside an epoch, in range, no
  // threads. False: take the general call, which also reports errors.
  bool copy_fast(int t, std::int64_t disp, std::int64_t bytes, const void *from, void *to) {
    if (cfg_.threads || t < 0 || t >= size() || disp < 0) return false;
    const Target &x = cfg_.targets[static_cast<std::size_t>(t)];
    if (!x.mapped || !(fence_open_ || lock_all_ || locked_[static_cast<std::size_t>(t)]))
      return false;
    const std::int64_t off = disp * x.disp_unit;
    if (bytes < 0 || off + bytes > x.size) return false;
    if (from)
      base::copy_bytes(x.mapped + off, from, static_cast<std::size_t>(bytes));
    else if (to)
      base::copy_bytes(to, x.mapped + off, static_cast<std::size_t>(bytes));
    poll();
    return true;
  }
  bool flush_fast(int t) {
    if (cfg_.threads || t < 0 || t >= size() || !pending_.empty() || batched_) return false;
    if (!lock_all_ && !locked_[static_cast<std::size_t>(t)]) return false;
    poll();
    sync();
    return true;
  }
  // Every one-sided call that completes here, without waiting (operations
  // on our own memory, a mapped neighbour's or through cross-memory attach,
  // flushes with nothing in flight), lets the progress engine serve the
  // requests that came for us now and then: a program that spins on its
  // own window (a lock word that a proc of another client releases with a
  // message) must not starve the others. One call in 16 asks the engine
  // (P2P::poll_incoming: a few loads unless something came); the others
  // cost an increment.
  void poll() {
    if ((++polls_ & 15) == 0) cfg_.p2p->poll_incoming();
  }

  // ---- synchronisation (11.5). Assertions are MPI_MODE_* bits.
  Error fence(int assert);
  Error post(const std::vector<int> &group, int assert);
  Error start(const std::vector<int> &group, int assert);
  Error complete();
  Error wait();
  Error test(bool &flag);
  Error lock(bool exclusive, int target, int assert);
  Error unlock(int target);
  Error lock_all(int assert);
  Error unlock_all();
  Error flush(int target);  // flush and flush_local (both wait for the target's answer)
  Error flush_all();
  void sync() {
#ifdef __SANITIZE_THREAD__
    // (TSan does not model fences: a sequentially consistent read-modify-write it does)
    static std::atomic<int> order{0};
    order.fetch_add(0, std::memory_order_seq_cst);
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
  }

  // ---- dynamic windows
  Error attach(void *base, std::int64_t size);
  Error detach(const void *base);

  // MPI_Win_free: an error if an epoch is still open; else completes every
  // operation, waits for every proc (a barrier) and for our answers to leave.
  Error close();

  // Adds the message server to the progress engine's hooks (MPI_Init).
  static void install(core::P2P &p2p);
  // The message server: one pass over the requests that arrived for every
  // window (run from the progress engine's hook); true if anything moved.
  static bool serve_all();

 private:
  enum class Path { self, shm, cma, message };
  Path path(int t) const;
  char *local_address(int t, std::int64_t disp) const;  // self and shm paths
  Error check_epoch(int t, const char *what, bool request = false) const;
  Error check_range(int t, std::int64_t disp, std::int64_t count, const pack::Datatype &type) const;
  Error send_header(int t, std::vector<char> header, Pending &p);
  Error wait_pending(int t);  // -1: every target
  Error cma_access(int t, std::uint64_t addr, std::int64_t count, const pack::Datatype &type,
                   char *packed, bool write);
  int next_id() {
    id_ = id_ >= (1 << 28) ? 1 : id_ + 1;
    return id_;
  }
  Error accumulate_here(const void *origin, std::int64_t ocount, const pack::TypePtr &otype,
                        void *result, std::int64_t rcount, const pack::TypePtr &rtype, int t,
                        std::int64_t disp, std::int64_t tcount, const pack::TypePtr &ttype,
                        pack::Op op, int basic);
  bool serve();
  bool serve_one(int origin, Incoming &in);
  bool start_puts_ahead(int origin, std::deque<std::unique_ptr<Incoming>> &q);
  bool start_request(int origin, Incoming &in);
  bool finish_request(int origin, Incoming &in);
  void region_barrier();
  void serve_inline(int origin, Incoming &in);
  int apply_inline(int origin, const RequestHeader &h, char *payload, std::int64_t len);
  // The message path's request for a small put or accumulate, its data
  // packed after the header, added to the target's batch; false: too big,
  // or not convertible (then `e` is untouched).
  bool send_inline(int t, RequestHeader h, const void *origin, std::int64_t ocount,
                   const pack::TypePtr &otype, Error &e);
  std::optional<std::vector<char>> inline_message(int t, RequestHeader h, const void *origin,
                                                  std::int64_t ocount, const pack::TypePtr &otype);
  Error flush_batch(int t);  // -1: every target
  Error send_request(int t, std::vector<char> bytes, Pending &p);
  bool track_send(base::Result<core::RequestPtr> r, std::vector<char> buf = {});
  void track_send_locked(core::RequestPtr r, std::vector<char> buf);
  void answer(int origin, std::uint32_t id, int status);

  // The origin side's lock: taken only when threads may call at once.
  struct Guard {
    Window &w;
    explicit Guard(Window &win) : w(win) {
      if (w.cfg_.threads) w.mu_.lock();
    }
    ~Guard() {
      if (w.cfg_.threads) w.mu_.unlock();
    }
  };
  Config cfg_;
  std::recursive_mutex mu_;
  std::vector<std::vector<char>> batch_;  // by target: inline requests not sent yet
  std::size_t batched_ = 0;               // targets with a batch waiting
  unsigned polls_ = 0;                    // calls served here, for poll()
  std::deque<std::unique_ptr<Pending>> pending_;
  // Our notices and answers still leaving, with the bytes they send.
  std::vector<std::pair<core::RequestPtr, std::vector<char>>> sends_;
  int id_ = 0;
  // Epochs.
  bool fence_open_ = false;
  bool lock_all_ = false;
  bool lock_all_nocheck_ = false;
  std::vector<std::int8_t>
      locked_;  // by target: 0, 1 shared, 2 exclusive, 3 without a lock (NOCHECK)
  std::vector<int> access_group_;  // MPI_Win_start's targets
  bool access_open_ = false;
  std::vector<int> exposure_group_;  // MPI_Win_post's origins
  bool exposure_open_ = false;
  std::vector<core::RequestPtr> completions_;  // MPI_Win_test's receives of complete notices
  // Server.
  std::map<int, std::deque<std::unique_ptr<Incoming>>> incoming_;  // by origin rank
  std::vector<char> discard_;
  // Dynamic windows: our attached regions, and a view of each host
  // member's table (ours included) by rank (null: not on this host).
  std::unique_ptr<AttachTable> attach_table_;
  std::vector<std::unique_ptr<AttachView>> attach_views_;
};

}  // namespace impi::rma
