// request.cpp - requests from a per-thread pool of recycled blocks: every
// nonblocking call makes one, and a malloc/free pair would be a large part
// of a small message's cost.
#include "core/request.hpp"

#include <new>

namespace impi::core {

namespace {
// One-size blocks per thread for requests. A block freed on another thread joins
// that thread's list; a thread's list is freed when the thread ends, and a
// block freed after that goes back to the heap. The list itself is a
// trivially destructible initial-exec thread_local (a thread_local with a
// destructor costs a TLS wrapper call, and __tls_get_addr, per use); a
// separate one with a destructor, touched once per thread, frees it.
template <typename T>
struct BlockPool {
  struct List {
    void *head;
    int n;
    bool armed;  // the Reaper is registered for this thread
    bool gone;   // the thread is ending: the list has been freed
  };
  struct Reaper {
    ~Reaper() {
      while (list.head) {
        void *next = *static_cast<void **>(list.head);
        ::operator delete (list.head, std::align_val_t{alignof(T)});
        list.head = next;
      }
      list.n = 0;
      list.gone = true;
    }
  };
  static constexpr int kMax = 1024;  // blocks kept per thread
  static inline thread_local List list IMPI_FAST_TLS{};
  static void arm() {
    static thread_local Reaper reaper;
    (void)&reaper;
    list.armed = true;
  }
};

template <typename T>
struct PoolAlloc {
  using value_type = T;
  PoolAlloc() = default;
  template <typename U>
  PoolAlloc(const PoolAlloc<U> &) noexcept {}
  T *allocate(std::size_t n) {
    static_assert(sizeof(T) >= sizeof(void *));
    using P = BlockPool<T>;
    auto &l = P::list;
    if (n == 1 && l.head) {
      void *b = l.head;
      l.head = *static_cast<void **>(b);
      --l.n;
      return static_cast<T *>(b);
    }
    return static_cast<T *>(::operator new (n * sizeof(T), std::align_val_t{alignof(T)}));
  }
  void deallocate(T *p, std::size_t n) noexcept {
    using P = BlockPool<T>;
    auto &l = P::list;
    if (n == 1 && !l.gone && l.n < P::kMax) {
      if (!l.armed) P::arm();
      *reinterpret_cast<void **>(p) = l.head;
      l.head = p;
      ++l.n;
      return;
    }
    ::operator delete (p, std::align_val_t{alignof(T)});
  }
  template <typename U>
  bool operator==(const PoolAlloc<U> &) const noexcept {
    return true;
  }
};
}  // namespace

RequestPtr make_request() {
  auto *r = ::new (PoolAlloc<Request>{}.allocate(1)) Request();
  r->refs_ = 1;
  r->counted_ = true;
  return RequestPtr::borrow(r);  // (takes over its first reference)
}

void destroy_request(Request *r) noexcept {
  r->~Request();
  PoolAlloc<Request>{}.deallocate(r, 1);
}

}  // namespace impi::core
