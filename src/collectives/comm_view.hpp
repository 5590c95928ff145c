// comm_view.hpp - a communicator as the collective algorithms see it: its
// ranks, where each lives (world rank, IMPI client), its collective
// context (cid + 1, IMPI 4.3), and blocking point-to-point on that context.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/errc.hpp"
#include "collectives/task.hpp"
#include "core/communicator.hpp"
#include "core/p2p.hpp"
#include "pack/datatype.hpp"

namespace impi::collectives {

// A communicator's table (world ranks, clients, routes) as a view holds
// it: shared and read-only, so that copying a view (every collective
// call, every task that keeps one) allocates nothing. Reads as the vector.
template <typename T>
class SharedTable {
 public:
  SharedTable() = default;  // empty (no shared count to touch)
  explicit SharedTable(std::shared_ptr<const std::vector<T>> p) : p_(std::move(p)) {}
  SharedTable &operator=(const std::vector<T> &v) {  // (a copy of its own)
    p_ = std::make_shared<const std::vector<T>>(v);
    return *this;
  }
  const std::vector<T> &get() const { return p_ ? *p_ : empty_table(); }
  const T &operator[](std::size_t i) const { return get()[i]; }
  std::size_t size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  const T *data() const { return get().data(); }
  operator const std::vector<T> &() const { return get(); }  // NOLINT: reads as the vector

 private:
  static const std::vector<T> &empty_table() {
    static const auto *e = new std::vector<T>();  // (never destroyed: views may outlive statics)
    return *e;
  }
  std::shared_ptr<const std::vector<T>> p_;
};

struct CommView {
  core::P2P *p2p = nullptr;
  int rank = 0;
  int size = 1;
  int context = 1;                       // the collective context: the communicator's cid + 1
  SharedTable<int> world;                // world rank of each rank
  SharedTable<int> client;               // IMPI client of each rank (all 0 in a one-client job)
  SharedTable<core::Channel *> channel;  // the channel to each rank (the communicator's routes)
  int maxlinear = 4;                     // the job's IMPI_C_COLL_MAXLINEAR
  int xsize = 1024;                      // the job's IMPI_C_COLL_XSIZE
  int tag_override = -1;  // >= 0: every message uses this tag (MPI_Comm_create_group)
  // Non-empty: a sub-group of a communicator whose context it borrows
  // (MPI_Comm_create_group): the rank each member's messages carry and are
  // matched by, its rank in that communicator. (Group ranks would let two
  // sub-groups' messages match each other's.)
  std::vector<int> ids;
  int id(int r) const { return ids.empty() || r < 0 ? r : ids[static_cast<std::size_t>(r)]; }
  bool spans_clients() const;
  // The form of typed data that may pass through several clients (the
  // gather family's packed blocks): impi-wide when it is that with every
  // rank of another client, else external32 (docs/data-representation.md).
  pack::Rep wire_rep() const;

  // Blocking sends and receives on the collective context.
  base::Status send(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
                    int tag) const;
  base::Status recv(void *buf, std::int64_t count, const pack::TypePtr &type, int source,
                    int tag) const;
  base::Status send_empty(int dest, int tag) const;
  base::Status recv_empty(int source, int tag) const;
  // Both at once (no deadlock whatever the peers' order).
  base::Status sendrecv(const void *sbuf, std::int64_t scount, const pack::TypePtr &stype, int dest,
                        void *rbuf, std::int64_t rcount, const pack::TypePtr &rtype, int source,
                        int tag) const;
  // The same for algorithms (coroutines, task.hpp): co_await c.isend(...).
  Await isend(const void *buf, std::int64_t count, const pack::TypePtr &type, int dest,
              int tag) const;
  Await irecv(void *buf, std::int64_t count, const pack::TypePtr &type, int source, int tag) const;
  Await isend_empty(int dest, int tag) const;
  Await irecv_empty(int source, int tag) const;
  Task exchange(const void *sbuf, std::int64_t scount, const pack::TypePtr &stype, int dest,
                void *rbuf, std::int64_t rcount, const pack::TypePtr &rtype, int source,
                int tag) const;
  AwaitMessage message(int source, int tag) const;
  // The ranks on rank r's client, in rank order.
  std::vector<int> locals_of(int r) const;
};

// A scratch buffer for `count` instances of a type, addressed like a user
// buffer (get() is where instance 0's origin would be).
// Storage comes from a small per-thread pool: collectives call this on
// every operation, and fresh large allocations cost a page fault per page.
class TypedBuffer {
 public:
  TypedBuffer(const pack::TypePtr &type, std::int64_t count);
  ~TypedBuffer();
  TypedBuffer(const TypedBuffer &) = delete;
  TypedBuffer &operator=(const TypedBuffer &) = delete;
  void *get() { return base_; }

 private:
  std::byte *store_ = nullptr;  // new[]'d, cap_ bytes
  std::size_t cap_ = 0;
  std::byte *base_ = nullptr;
};

// Copies count instances of type from one buffer to another of the same layout.
void copy_typed(const void *from, void *to, const pack::TypePtr &type, std::int64_t count);

// The view of an intracommunicator (its collective context).
CommView view_of(const core::Communicator &comm);
// An intercommunicator's remote group as point-to-point peers (send and
// recv name remote ranks), on its collective context.
CommView remote_view_of(const core::Communicator &comm);

}  // namespace impi::collectives
