// schedule.cpp - the coroutine walker of the schedules in schedule.hpp and
// the algorithms that run on it: the dissemination barrier, the binomial
// broadcast and recursive doubling Allreduce, as Tasks (task.hpp) on a
// CommView, so that a non-blocking call can run them as well as a
// blocking one.
#include "collectives/schedule.hpp"

#include <optional>

#include "collectives/native.hpp"

namespace impi::collectives {

namespace {

// Records the algorithm's steps (plan(schedule), when the task starts) and
// walks them: each send and receive on c's collective context with `tag`,
// stopping at the first error. With a reduction `op`, data starts as a
// copy of `init` and tmp is a scratch buffer of the same layout. The entry
// points below return this task: one coroutine frame per operation.
template <typename Plan>
Task walk(const CommView &c, Plan plan, Parts b, int tag, const Reduction *op, const void *init) {
  const pack::TypePtr &type = *b.type;
  std::optional<TypedBuffer> scratch;
  if (op) {
    b.tmp = scratch.emplace(type, b.count).get();
    copy_typed(init, b.data, type, b.count);
  }
  Schedule s;
  plan(s);
  for (const Step &st : s) {
    switch (st.kind) {
      case Step::Kind::send:
        if (auto r = co_await c.isend(b.at(st.out), b.count, type, st.to, tag); !r.ok())
          co_return r;
        break;
      case Step::Kind::recv:
        if (auto r = co_await c.irecv(b.at(st.in), b.count, type, st.from, tag); !r.ok())
          co_return r;
        break;
      case Step::Kind::exchange:
        if (auto r = co_await c.exchange(b.at(st.out), b.count, type, st.to, b.at(st.in), b.count,
                                         type, st.from, tag);
            !r.ok())
          co_return r;
        break;
      case Step::Kind::fold:
        op->combine(b.tmp, b.data);
        break;
    }
  }
  co_return {};
}

}  // namespace

Task barrier_dissemination(const CommView &c) {
  return walk(
      c, [&c](Schedule &s) { dissemination_barrier(s, c.rank, c.size); },
      {.type = &pack::Datatype::predefined(pack::dt::byte)}, kDisseminationTag, nullptr, nullptr);
}

Task bcast_binomial(const CommView &c, const std::vector<int> &ranks, std::size_t root_pos,
                    void *buf, std::int64_t count, const pack::TypePtr &type, int tag) {
  auto plan = [&c, &ranks, root_pos](Schedule &s) {
    const std::size_t n = ranks.size();
    std::size_t me = 0;
    while (me < n && ranks[me] != c.rank) ++me;
    if (n <= 1 || me == n) return;  // nothing to do here
    binomial_bcast(s, n, me, root_pos, [&](std::size_t pos) { return ranks[pos]; });
  };
  return walk(c, plan, {.data = buf, .count = count, .type = &type}, tag, nullptr, nullptr);
}

Task allreduce_recursive_doubling(const CommView &c, const void *sendbuf, void *recvbuf,
                                  std::int64_t count, const pack::TypePtr &type,
                                  const Reduction &op, int tag) {
  // recvbuf is the accumulator: it starts as sendbuf's copy (walk).
  return walk(
      c, [&c](Schedule &s) { recursive_doubling_allreduce(s, c.rank, c.size); },
      {.data = recvbuf, .count = count, .type = &type}, tag, &op, sendbuf);
}

}  // namespace impi::collectives
