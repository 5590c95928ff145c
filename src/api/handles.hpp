// handles.hpp - translation between MPI handles and library objects.
//
// A handle's value is (kind << 26) | index (mpi.h, IMPI_HANDLE_); index 0
// of every kind is the null handle. Translation checks the kind bits, so a
// datatype passed as a communicator is caught as MPI_ERR_COMM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/communicator.hpp"
#include "core/p2p.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

namespace impi::api {

constexpr std::uintptr_t kIndexBits = 26;
constexpr std::uintptr_t kIndexMask = (std::uintptr_t{1} << kIndexBits) - 1;

template <typename H>
inline std::uintptr_t handle_value(H h) {
  return reinterpret_cast<std::uintptr_t>(h);
}
template <typename H>
inline unsigned handle_kind(H h) {
  return static_cast<unsigned>(handle_value(h) >> kIndexBits);
}
template <typename H>
inline std::uint32_t handle_index(H h) {
  return static_cast<std::uint32_t>(handle_value(h) & kIndexMask);
}
template <typename H>
H make_handle(unsigned kind, std::uint32_t index) {
  return reinterpret_cast<H>((std::uintptr_t{kind} << kIndexBits) | index);
}

// Fortran conversion: the handle value itself (it fits in 31 bits).
template <typename H>
MPI_Fint to_fint(H h) {
  return static_cast<MPI_Fint>(handle_value(h));
}
template <typename H>
H from_fint(MPI_Fint f) {
  return reinterpret_cast<H>(static_cast<std::uintptr_t>(static_cast<std::uint32_t>(f)));
}

// The communicator behind a handle, or nullptr when the handle is null,
// of the wrong kind, or names no live communicator. (Inline for the
// predefined ones, which most calls use.)
core::Communicator *lookup_user_comm(MPI_Comm comm);
inline core::Communicator *lookup_comm(MPI_Comm comm) {
  if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF) return lookup_user_comm(comm);
  auto &rt = core::Runtime::instance();
  if (rt.state() != core::State::initialized) return nullptr;
  return comm == MPI_COMM_WORLD ? &rt.world() : &rt.self();
}
// A handle for a new (user) communicator; frees it again (false: not a
// user communicator).
MPI_Comm new_comm_handle(std::unique_ptr<core::Communicator> c);
bool free_comm_handle(MPI_Comm comm);
// A second handle to the same communicator (a persistent collective's own,
// MPI-4.0 6.12: the program may free its handle after the init call); the
// communicator lives until its last handle is freed. MPI_COMM_WORLD and
// MPI_COMM_SELF are returned as they are; MPI_COMM_NULL: not a live one.
MPI_Comm share_comm_handle(MPI_Comm comm);
// Whether another handle names the same communicator as `comm`.
bool comm_handle_shared(MPI_Comm comm);
// A request handle that is already complete, with an empty status (for
// operations that finish inside the call that starts them).
MPI_Request new_completed_request();
// A handle for an operation's request (non-blocking collectives) on the
// communicator or window whose handle value is `owner` (its error handler
// reports the operation's error; 0: MPI_COMM_WORLD's).
MPI_Request new_request_handle(core::RequestPtr r, std::uintptr_t owner = 0);
// MPI_INFO_ENV's command line and requested thread level (-1: MPI_Init,
// none), from MPI_Init's or MPI_Init_thread's arguments (either may be NULL).
void note_init_args(const int *argc, char **const *argv, int requested);
// Drops what MPI_Comm_set_info kept for a communicator being freed.
void forget_comm_info(MPI_Comm comm);
// MPI_Comm_dup's hints (MPI-4.0 7.4.2): what `from` keeps, `to` keeps too.
void copy_comm_info(MPI_Comm from, MPI_Comm to);

}  // namespace impi::api
