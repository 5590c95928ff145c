#include "rma/atomics.hpp"

#include <cstring>

#include "pack/datatype.hpp"
#include "pack/predefined.hpp"

namespace impi::rma {

namespace {

template <typename U>
U load(const char *p) {
  U v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// One element, atomically: a fetch-op where the processor has one, else a
// compare-and-swap loop around the plain operator.
template <typename U>
void atomic_one(pack::Op op, int basic, char *target, const char *in, char *old) {
  auto *t = reinterpret_cast<U *>(target);
  const U v = load<U>(in);
  const auto kind = pack::predefined(basic).kind;
  const bool integer = kind == pack::Kind::sint || kind == pack::Kind::uint;
  U before;
  switch (op) {
    case pack::Op::no_op:
      before = __atomic_load_n(t, __ATOMIC_SEQ_CST);
      break;
    case pack::Op::replace:
      before = __atomic_exchange_n(t, v, __ATOMIC_SEQ_CST);
      break;
    case pack::Op::sum:
      if (integer) {
        before = __atomic_fetch_add(t, v, __ATOMIC_SEQ_CST);
        break;
      }
      [[fallthrough]];
    default:
      if (integer && op == pack::Op::band) {
        before = __atomic_fetch_and(t, v, __ATOMIC_SEQ_CST);
        break;
      }
      if (integer && op == pack::Op::bor) {
        before = __atomic_fetch_or(t, v, __ATOMIC_SEQ_CST);
        break;
      }
      if (integer && op == pack::Op::bxor) {
        before = __atomic_fetch_xor(t, v, __ATOMIC_SEQ_CST);
        break;
      }
      const auto &type = pack::Datatype::predefined(basic);
      before = __atomic_load_n(t, __ATOMIC_SEQ_CST);
      for (;;) {
        U next = before;
        pack::reduce(op, type, 1, in, &next);
        if (__atomic_compare_exchange_n(t, &before, next, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
          break;
      }
  }
  if (old) std::memcpy(old, &before, sizeof before);
}

template <typename U>
void atomic_cas(char *target, const char *compare, const char *in, char *old) {
  U expected = load<U>(compare);
  __atomic_compare_exchange_n(reinterpret_cast<U *>(target), &expected, load<U>(in), false,
                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  std::memcpy(old, &expected, sizeof expected);  // (the value found, equal or not)
}

}  // namespace

bool atomic_capable(int basic) {
  const auto &p = pack::predefined(basic);
  if (p.kind == pack::Kind::pair || p.kind == pack::Kind::none || p.kind == pack::Kind::packed)
    return false;
  return p.size == 1 || p.size == 2 || p.size == 4 || p.size == 8;
}

void apply_elements(pack::Op op, int basic, char *target, const char *in, char *old, std::int64_t n,
                    bool atomic) {
  const auto &p = pack::predefined(basic);
  const std::int64_t size = p.size;
  if (atomic) {
    for (std::int64_t i = 0; i < n; ++i) {
      char *t = target + i * size;
      const char *v = in ? in + i * size : nullptr;
      char *o = old ? old + i * size : nullptr;
      if (!v) v = t;  // (MPI_NO_OP carries no data)
      switch (size) {
        case 1:
          atomic_one<std::uint8_t>(op, basic, t, v, o);
          break;
        case 2:
          atomic_one<std::uint16_t>(op, basic, t, v, o);
          break;
        case 4:
          atomic_one<std::uint32_t>(op, basic, t, v, o);
          break;
        default:
          atomic_one<std::uint64_t>(op, basic, t, v, o);
      }
    }
    return;
  }
  if (n == 0) return;
  if (old) std::memmove(old, target, static_cast<std::size_t>(n * size));
  if (op == pack::Op::no_op) return;
  if (op == pack::Op::replace) {
    std::memmove(target, in, static_cast<std::size_t>(n * size));
    return;
  }
  pack::reduce(op, pack::Datatype::predefined(basic), n, in, target);
}

void compare_swap(int basic, char *target, const char *compare, const char *in, char *old,
                  bool atomic) {
  const std::size_t size = pack::predefined(basic).size;
  if (atomic) {
    switch (size) {
      case 1:
        return atomic_cas<std::uint8_t>(target, compare, in, old);
      case 2:
        return atomic_cas<std::uint16_t>(target, compare, in, old);
      case 4:
        return atomic_cas<std::uint32_t>(target, compare, in, old);
      default:
        return atomic_cas<std::uint64_t>(target, compare, in, old);
    }
  }
  std::memcpy(old, target, size);
  if (std::memcmp(old, compare, size) == 0) std::memcpy(target, in, size);
}

}  // namespace impi::rma
