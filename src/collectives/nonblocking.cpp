#include "collectives/nonblocking.hpp"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "collectives/fast_native.hpp"

namespace impi::collectives {

namespace {

struct Op {
  Driver driver;
  std::optional<Task> task;
  core::RequestPtr req;
  bool started = false;
};

std::mutex g_mu;  // the queues (the hook runs in one thread at a time)
std::map<const void *, std::deque<std::shared_ptr<Op>>> g_queues;
// The operations queued, read without the lock: the hook runs on every
// progress pass while any hook has work (a persistent collective's slot
// operation, a partitioned request), and need not lock an empty queue.
std::atomic<int> g_queued{0};
core::P2P *g_p2p = nullptr;
constexpr std::size_t kKeptQueues = 16;

void finish(Op &op) {
  if (!op.driver.result.ok())
    op.req->status.error = op.driver.result.error() == base::Errc::truncated
                               ? core::kTruncated
                               : core::kTransportError;
  op.req->done = true;
}

// Advances every queue's head (starting it if needed); true if anything moved.
bool progress() {
  if (g_queued.load(std::memory_order_acquire) == 0) return false;
  bool any = false;
  MaybeLock lk(g_mu, *g_p2p);
  for (auto it = g_queues.begin(); it != g_queues.end();) {
    auto &q = it->second;
    while (!q.empty()) {
      std::shared_ptr<Op> op = q.front();
      lk.unlock();  // the coroutine posts messages: no lock of ours held meanwhile
      bool done;
      if (!op->started) {
        op->started = true;
        op->task->start(op->driver);
        done = op->driver.done;
        any = true;
      } else {
        bool was_ready = op->driver.ready();
        done = op->driver.poll();
        any |= was_ready;
      }
      lk.lock();
      if (!done) break;
      finish(*op);
      q.pop_front();
      count_add(*g_p2p, g_queued, -1);
      count_add(*g_p2p, g_p2p->hook_work(), -1);
      any = true;
    }
    // (An empty queue stays while there are few: no allocation per operation.)
    it = q.empty() && g_queues.size() > kKeptQueues ? g_queues.erase(it) : std::next(it);
  }
  return any;
}

}  // namespace

void install_progress_hook(core::P2P &p2p) {
  g_p2p = &p2p;
  p2p.add_hook([] { return progress(); });
  install_slots_hook(p2p);  // the persistent collectives' slot operations
}

core::RequestPtr start_nonblocking(const void *key, core::P2P &p2p, Task t) {
  auto op = std::make_shared<Op>();
  op->driver.p2p = &p2p;
  op->task.emplace(std::move(t));
  op->req = core::make_request();
  op->req->kind = core::Request::Kind::recv;
  op->req->status.source = -1;  // (the API reports an empty status)
  {
    MaybeLock lk(g_mu, p2p);
    g_queues[key].push_back(op);
    count_add(p2p, g_queued, 1);
  }
  count_add(p2p, p2p.hook_work(), 1);
  p2p.run_hooks();  // starts it at once when nothing is ahead of it
  return op->req;
}

void drain(const void *key, core::P2P &p2p) {
  if (p2p.hook_work().load(std::memory_order_relaxed) == 0) return;  // nothing queued anywhere
  auto empty = [&] {
    MaybeLock lk(g_mu, p2p);
    auto it = g_queues.find(key);
    return it == g_queues.end() || it->second.empty();
  };
  if (!empty()) p2p.wait_until(empty);
}

}  // namespace impi::collectives
