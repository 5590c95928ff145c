// env.cpp - environment management: init, finalize, abort, queries, timers.
#include <fmt/core.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "api/attr.hpp"
#include "api/comm_internal.hpp"
#include "api/dynamic.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/session.hpp"
#include "collectives/collectives.hpp"
#include "collectives/nonblocking.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "rma/window.hpp"

using impi::api::check_initialized;
using impi::api::report;
using impi::core::Runtime;
using impi::core::State;

namespace {

// Copies s into out (at most max-1 chars plus NUL) and stores its length.
void copy_out(std::string_view s, char *out, int *len, std::size_t max) {
  std::size_t n = std::min(s.size(), max - 1);
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
  if (len) *len = static_cast<int>(n);
}

}  // namespace

extern "C" {

int PMPI_Init(int *argc, char ***argv) {
  int rc = impi::api::world_init(MPI_THREAD_SINGLE, nullptr, "MPI_Init");
  if (rc == MPI_SUCCESS) impi::api::note_init_args(argc, argv, -1);
  return rc;
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  if (!provided) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Init_thread", "provided is NULL");
  int rc = impi::api::world_init(required, provided, "MPI_Init_thread");
  if (rc == MPI_SUCCESS) impi::api::note_init_args(argc, argv, required);
  return rc;
}

int PMPI_Finalize(void) {
  // With sessions open the runtime stays up until the last one ends (session.cpp).
  return impi::api::world_finalize();
}

int PMPI_Initialized(int *flag) {
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Initialized", "flag is NULL");
  *flag = impi::api::world_initialized();  // the world model's (MPI-4.0 11.2.1)
  return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag) {
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Finalized", "flag is NULL");
  *flag = impi::api::world_finalized();
  return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode) {
  auto &rt = Runtime::instance();
  std::string who = rt.state() == State::initialized ? fmt::format("rank {}", rt.world().rank)
                                                     : std::string("a process");
  (void)comm;  // the whole job ends, whatever the communicator (as Open MPI and MPICH do)
  rt.abort(errorcode, fmt::format("MPI_Abort called by {} with error code {}", who, errorcode));
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank) {
  if (!check_initialized("MPI_Comm_rank")) return MPI_ERR_OTHER;
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_rank");
  if (!rank) return report(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
  *rank = c->rank;
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int *size) {
  if (!check_initialized("MPI_Comm_size")) return MPI_ERR_OTHER;
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_size");
  if (!size) return report(comm, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
  *size = c->size;
  return MPI_SUCCESS;
}

double PMPI_Wtime(void) {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double PMPI_Wtick(void) {
  timespec ts;
  if (::clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-9;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int PMPI_Get_processor_name(char *name, int *resultlen) {
  if (!name || !resultlen)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL argument");
  auto &rt = Runtime::instance();
  std::string host;
  if (rt.state() == State::initialized) {
    host = rt.processor_name();
  } else {
    char buf[MPI_MAX_PROCESSOR_NAME] = {};
    if (::gethostname(buf, sizeof buf - 1) == 0) host = buf;
  }
  copy_out(host, name, resultlen, MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion) {
  if (!version || !subversion)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Get_version", "NULL argument");
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen) {
  if (!version || !resultlen)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Get_library_version", "NULL argument");
  std::string v =
      fmt::format("impi {}.{}.{} (MPI {}.{}, IMPI protocol 0.0; built {})", IMPI_VERSION_MAJOR,
                  IMPI_VERSION_MINOR, IMPI_VERSION_PATCH, MPI_VERSION, MPI_SUBVERSION, __DATE__);
  copy_out(v, version, resultlen, MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

int PMPI_Query_thread(int *provided) {
  if (!check_initialized("MPI_Query_thread")) return MPI_ERR_OTHER;
  if (!provided) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
  *provided = Runtime::instance().thread_level();
  return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag) {
  if (!check_initialized("MPI_Is_thread_main")) return MPI_ERR_OTHER;
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
  *flag = Runtime::instance().is_main_thread();
  return MPI_SUCCESS;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen) {
  if (!string || !resultlen)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string", "NULL argument");
  std::string_view t = impi::api::error_text(errorcode);
  if (!impi::api::valid_error_code(errorcode)) {
    copy_out(fmt::format("unknown error code {}", errorcode), string, resultlen,
             MPI_MAX_ERROR_STRING);
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string",
                  fmt::format("{} is not an error code", errorcode));
  }
  copy_out(t, string, resultlen, MPI_MAX_ERROR_STRING);
  return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int *errorclass) {
  if (!errorclass) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class", "NULL argument");
  if (!impi::api::valid_error_code(errorcode))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class",
                  fmt::format("{} is not an error code", errorcode));
  *errorclass = impi::api::class_of_code(errorcode);  // (detailed codes carry their class)
  return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass) {
  if (!check_initialized("MPI_Add_error_class")) return MPI_ERR_OTHER;
  if (!errorclass)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_class", "NULL argument");
  *errorclass = impi::api::add_error_code(-1);
  return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int *errorcode) {
  if (!check_initialized("MPI_Add_error_code")) return MPI_ERR_OTHER;
  if (!errorcode) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code", "NULL argument");
  if (!impi::api::valid_error_code(errorclass) ||
      impi::api::class_of_code(errorclass) != errorclass)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code",
                  fmt::format("{} is not an error class", errorclass));
  *errorcode = impi::api::add_error_code(errorclass);
  return MPI_SUCCESS;
}

int PMPI_Add_error_string(int errorcode, const char *string) {
  if (!check_initialized("MPI_Add_error_string")) return MPI_ERR_OTHER;
  if (!string) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string", "NULL argument");
  if (std::strlen(string) >= MPI_MAX_ERROR_STRING)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string", "the string is too long");
  if (!impi::api::set_error_string(errorcode, string))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string",
                  fmt::format("{} is not a user-defined error code", errorcode));
  return MPI_SUCCESS;
}

// MPI-4.1 9.5: user-defined classes, codes and strings removed again.
int PMPI_Remove_error_class(int errorclass) {
  const char *fn = "MPI_Remove_error_class";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (impi::api::remove_error_code(errorclass, true) != MPI_SUCCESS)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  fmt::format("{} is not a user-defined error class without codes", errorclass));
  return MPI_SUCCESS;
}

int PMPI_Remove_error_code(int errorcode) {
  const char *fn = "MPI_Remove_error_code";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (impi::api::remove_error_code(errorcode, false) != MPI_SUCCESS)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  fmt::format("{} is not a user-defined error code", errorcode));
  return MPI_SUCCESS;
}

int PMPI_Remove_error_string(int errorcode) {
  const char *fn = "MPI_Remove_error_string";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!impi::api::set_error_string(errorcode, ""))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                  fmt::format("{} is not a user-defined error code or class", errorcode));
  return MPI_SUCCESS;
}

// MPICH 4.0's MPIX_Delete_error_*: MPI-4.1's MPI_Remove_error_* under their
// pre-standard names (so programs written for MPICH 4.0 build).
int PMPIX_Delete_error_class(int errorclass) {
  return PMPI_Remove_error_class(errorclass);
}
int PMPIX_Delete_error_code(int errorcode) {
  return PMPI_Remove_error_code(errorcode);
}
int PMPIX_Delete_error_string(int errorcode) {
  return PMPI_Remove_error_string(errorcode);
}
int MPIX_Delete_error_class(int errorclass)
    __attribute__((weak, alias("PMPIX_Delete_error_class")));
int MPIX_Delete_error_code(int errorcode) __attribute__((weak, alias("PMPIX_Delete_error_code")));
int MPIX_Delete_error_string(int errorcode)
    __attribute__((weak, alias("PMPIX_Delete_error_string")));

int PMPI_Pcontrol(const int level, ...) {
  (void)level;  // profiling control: meaningful only to a profiling library
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/env_aliases.inc"
