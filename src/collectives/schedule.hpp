// schedule.hpp - the collective algorithms that run two ways, written once
// as one rank's steps: which peer, send, receive or both, which part of
// the buffers, and where a reduction folds. Each algorithm is a function
// template that hands its steps, in order, to `s`, anything with
//   send(to, part), recv(from, part), exchange(to, out, from, in), fold().
// A Schedule records them, for the coroutine walker (schedule.cpp:
// non-blocking calls, and communicators the blocking fast path does not
// take); fast_native.cpp's runner does each at once, a plain blocking
// call with no coroutine frame, no CommView to build and no list to walk
// (small collectives cost little more than their messages). The same
// steps either way: the same messages on the wire.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pack/datatype.hpp"

namespace impi::collectives {

// Which buffer a step's message is in: the operation's data (the user
// buffer; Allreduce's accumulator, recvbuf) or a scratch buffer of the
// same layout. Each holds `count` instances of the operation's type.
enum class Part : std::uint8_t { data, tmp };

struct Step {
  enum class Kind : std::uint8_t {
    send,      // data or tmp to `to`
    recv,      // into data or tmp from `from`
    exchange,  // both; the receive is posted first: no deadlock whatever the peer's order
    fold,      // data = tmp op data (the reduction's combine)
  };
  Kind kind;
  Part out, in;  // what a send sends, where a receive receives
  int to, from;  // ranks of the communicator
};

// One rank's steps, recorded in order (no allocation). The longest is
// recursive doubling's, 3 + 2 log2(p') steps: at most 63 for any int p.
class Schedule {
 public:
  static constexpr int kMax = 64;
  void send(int to, Part p) { steps_[n_++] = {Step::Kind::send, p, p, to, -1}; }
  void recv(int from, Part p) { steps_[n_++] = {Step::Kind::recv, p, p, -1, from}; }
  void exchange(int to, Part out, int from, Part in) {
    steps_[n_++] = {Step::Kind::exchange, out, in, to, from};
  }
  void fold() { steps_[n_++] = {Step::Kind::fold, Part::tmp, Part::data, -1, -1}; }
  const Step *begin() const { return steps_; }
  const Step *end() const { return steps_ + n_; }

 private:
  Step steps_[kMax];
  int n_ = 0;
};

// Where the steps' parts are.
struct Parts {
  void *data = nullptr;
  void *tmp = nullptr;
  std::int64_t count = 0;
  const pack::TypePtr *type = nullptr;
  void *at(Part p) const { return p == Part::data ? data : tmp; }
};

// MPI_Barrier: the dissemination algorithm (Hensgen, Finkel, Manber 1988).
// In round i each rank sends to rank + 2^i and receives from rank - 2^i
// (mod p). Cost: ceil(log2 p) rounds of one 0-byte message each way per
// rank (empty parts).
constexpr int kDisseminationTag = 110;  // (the collective context is ours alone: any tag)
template <typename Steps>
void dissemination_barrier(Steps &s, int rank, int size) {
  for (int dist = 1; dist < size; dist <<= 1)
    s.exchange((rank + dist) % size, Part::data, (rank - dist + size) % size, Part::data);
}

// Broadcast along a binomial tree over n positions, from the one at
// root_pos to all; this rank is at position `me`, rank_of(position) names
// the rank there. In round j (from the top bit down) every position holding
// the data sends it 2^j positions further. Cost: ceil(log2 n) message
// latencies; each position receives once and sends at most log2 n times.
template <typename Steps, typename RankOf>
void binomial_bcast(Steps &s, std::size_t n, std::size_t me, std::size_t root_pos, RankOf rank_of) {
  const std::size_t v = (me + n - root_pos) % n;  // counted from the root
  auto at = [&](std::size_t vv) { return rank_of((vv + root_pos) % n); };
  std::size_t mask = 1;
  while (mask < n) {
    if (v & mask) {
      s.recv(at(v - mask), Part::data);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n) s.send(at(v + mask), Part::data);
}

// MPI_Allreduce for commutative operations: recursive doubling (Thakur,
// Rabenseifner, Gropp 2005). The data part is the accumulator and starts
// as this rank's vector; tmp receives the partners'. With p not a power of
// two, the first 2*(p - p') ranks pair up and the even one of each pair
// hands its value to the odd one and waits for the result; the remaining
// p' = 2^floor(log2 p) ranks exchange with the partner at distance 1, 2,
// 4, ... and fold. Cost: log2(p') exchange latencies (+2 when p is not a
// power of two), each carrying the whole vector.
template <typename Steps>
void recursive_doubling_allreduce(Steps &s, int rank, int size) {
  int pof2 = 1;
  while (pof2 <= size / 2) pof2 *= 2;
  const int rem = size - pof2;
  int newrank;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {  // hand over, wait for the result
      s.send(rank + 1, Part::data);
      s.recv(rank + 1, Part::data);
      return;
    }
    s.recv(rank - 1, Part::tmp);
    s.fold();
    newrank = rank / 2;
  } else {
    newrank = rank - rem;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int partner_new = newrank ^ mask;
    int partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
    s.exchange(partner, Part::data, partner, Part::tmp);
    s.fold();
  }
  if (rank < 2 * rem) s.send(rank - 1, Part::data);  // (the odd ones of the pairs)
}

}  // namespace impi::collectives
