// win.hpp - MPI_Win handles: the window objects of the C API (win.cpp)
// and what the operations (win_ops.cpp) need of them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/handles.hpp"
#include "mpi.h"
#include "rma/window.hpp"

namespace impi::api {

struct WinObject {
  std::unique_ptr<rma::Window> window;
  MPI_Comm comm = MPI_COMM_NULL;  // a duplicate: the window's own context
  std::uintptr_t errhandler = 0;  // 0: MPI_ERRORS_ARE_FATAL
  std::string name;
  std::vector<std::pair<std::string, std::string>> info;
  void *base = nullptr;  // MPI_WIN_BASE
  MPI_Aint size = 0;     // MPI_WIN_SIZE
  int disp_unit = 1;     // MPI_WIN_DISP_UNIT
  int flavor = MPI_WIN_FLAVOR_CREATE;
  int model = MPI_WIN_UNIFIED;
};

// The handle table, read without a lock (every one-sided call looks its
// window up): chunks that are never freed, slots published atomically.
constexpr std::size_t kWinChunk = 256, kWinChunks = 1024;
extern std::atomic<std::atomic<WinObject *> *> g_win_table[kWinChunks];

// The window behind a handle, or nullptr.
inline WinObject *lookup_win(MPI_Win win) {
  auto v = reinterpret_cast<std::uintptr_t>(win);
  if ((v >> kIndexBits) != IMPI_KIND_WIN) return nullptr;
  std::size_t i = (v & kIndexMask) - 1;  // (index 0: MPI_WIN_NULL)
  if (i >= kWinChunk * kWinChunks) return nullptr;
  auto *chunk = g_win_table[i / kWinChunk].load(std::memory_order_acquire);
  return chunk ? chunk[i % kWinChunk].load(std::memory_order_acquire) : nullptr;
}
// Reports an error of `fn` on `win` through its handler (MPI_WIN_NULL: MPI_COMM_WORLD's).
int win_error(MPI_Win win, int code, const char *fn, const std::string &detail = {});
inline int win_error(MPI_Win win, const rma::Error &e, const char *fn) {
  return win_error(win, e.code, fn, e.what);
}

}  // namespace impi::api
