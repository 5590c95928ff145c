#include "api/errors.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <deque>
#include <mutex>
#include <vector>

#include "api/handles.hpp"
#include "api/win.hpp"
#include "base/log.hpp"
#include "core/runtime.hpp"

namespace impi::api {

namespace {

struct ClassText {
  int code;
  std::string_view name;
  std::string_view text;
};

constexpr ClassText kClasses[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "no error"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag argument"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "invalid reduction operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid dimension argument"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "other error"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in the status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "pending request"},
    {MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "permission denied"},
    {MPI_ERR_AMODE, "MPI_ERR_AMODE", "invalid file access mode"},
    {MPI_ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assert argument"},
    {MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "invalid file name"},
    {MPI_ERR_BASE, "MPI_ERR_BASE", "invalid base address"},
    {MPI_ERR_CONVERSION, "MPI_ERR_CONVERSION", "data conversion failed"},
    {MPI_ERR_DISP, "MPI_ERR_DISP", "invalid displacement"},
    {MPI_ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP", "data representation already registered"},
    {MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists"},
    {MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "file in use"},
    {MPI_ERR_FILE, "MPI_ERR_FILE", "invalid file handle"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "info key too long"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "info key not defined"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "info value too long"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info object"},
    {MPI_ERR_IO, "MPI_ERR_IO", "I/O error"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid attribute key"},
    {MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock type"},
    {MPI_ERR_NAME, "MPI_ERR_NAME", "service name not published"},
    {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory"},
    {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "arguments differ between processes"},
    {MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "no space left on device"},
    {MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "no such file"},
    {MPI_ERR_PORT, "MPI_ERR_PORT", "invalid port name"},
    {MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "quota exceeded"},
    {MPI_ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "file is read-only"},
    {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT", "conflicting one-sided accesses"},
    {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC", "wrong one-sided synchronization"},
    {MPI_ERR_SERVICE, "MPI_ERR_SERVICE", "invalid service name"},
    {MPI_ERR_SIZE, "MPI_ERR_SIZE", "invalid size"},
    {MPI_ERR_SPAWN, "MPI_ERR_SPAWN", "could not spawn processes"},
    {MPI_ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {MPI_ERR_WIN, "MPI_ERR_WIN", "invalid window"},
    {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", "target memory outside the window"},
    {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {MPI_ERR_SESSION, "MPI_ERR_SESSION", "invalid session"},
    {MPI_ERR_PROC_ABORTED, "MPI_ERR_PROC_ABORTED", "a process taking part was aborted"},
    // The MPI_T return codes (mpi.h: 60 .. 75), then the MPI-4 class after them.
    {MPI_T_ERR_MEMORY, "MPI_T_ERR_MEMORY", "out of memory (tool interface)"},
    {MPI_T_ERR_NOT_INITIALIZED, "MPI_T_ERR_NOT_INITIALIZED",
     "the tool interface is not initialized"},
    {MPI_T_ERR_CANNOT_INIT, "MPI_T_ERR_CANNOT_INIT", "the tool interface cannot be initialized"},
    {MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX", "invalid tool-interface index"},
    {MPI_T_ERR_INVALID_ITEM, "MPI_T_ERR_INVALID_ITEM", "invalid tool-interface item"},
    {MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE", "invalid tool-interface handle"},
    {MPI_T_ERR_OUT_OF_HANDLES, "MPI_T_ERR_OUT_OF_HANDLES", "out of tool-interface handles"},
    {MPI_T_ERR_OUT_OF_SESSIONS, "MPI_T_ERR_OUT_OF_SESSIONS", "out of tool-interface sessions"},
    {MPI_T_ERR_INVALID_SESSION, "MPI_T_ERR_INVALID_SESSION", "invalid tool-interface session"},
    {MPI_T_ERR_CVAR_SET_NOT_NOW, "MPI_T_ERR_CVAR_SET_NOT_NOW", "the variable cannot be set now"},
    {MPI_T_ERR_CVAR_SET_NEVER, "MPI_T_ERR_CVAR_SET_NEVER", "the variable cannot be set"},
    {MPI_T_ERR_PVAR_NO_STARTSTOP, "MPI_T_ERR_PVAR_NO_STARTSTOP",
     "the variable cannot be started or stopped"},
    {MPI_T_ERR_PVAR_NO_WRITE, "MPI_T_ERR_PVAR_NO_WRITE", "the variable cannot be written"},
    {MPI_T_ERR_PVAR_NO_ATOMIC, "MPI_T_ERR_PVAR_NO_ATOMIC",
     "the variable cannot be read and reset at once"},
    {MPI_T_ERR_INVALID_NAME, "MPI_T_ERR_INVALID_NAME", "invalid tool-interface name"},
    {MPI_T_ERR_INVALID, "MPI_T_ERR_INVALID", "invalid use of the tool interface"},
    {MPI_ERR_VALUE_TOO_LARGE, "MPI_ERR_VALUE_TOO_LARGE", "value too large for the output argument"},
    {MPI_ERR_ERRHANDLER, "MPI_ERR_ERRHANDLER", "invalid error handler"},
    {MPI_T_ERR_NOT_ACCESSIBLE, "MPI_T_ERR_NOT_ACCESSIBLE", "the variable is not accessible"},
    {MPI_T_ERR_NOT_SUPPORTED, "MPI_T_ERR_NOT_SUPPORTED",
     "this part of the tool interface is not supported"},
};
static_assert(sizeof kClasses / sizeof kClasses[0] == MPI_ERR_LASTCODE + 1,
              "every error class has a text");
static_assert(
    [] {
      for (int i = 0; i <= MPI_ERR_LASTCODE; ++i)
        if (kClasses[i].code != i) return false;
      return true;
    }(),
    "kClasses is in code order");

// Error handler registry. Index 1 and 2 are the predefined handlers.
constexpr std::uint32_t kFatal = 1, kReturn = 2, kAbort = 3, kFirstUser = 16;
struct Handler {
  MPI_Comm_errhandler_function *fn = nullptr;
  int refs = 0;  // 0: slot free
};
std::mutex g_eh_mu;
std::vector<Handler> g_handlers(kFirstUser);

std::uint32_t handler_index(MPI_Comm comm) {
  core::Communicator *c = lookup_comm(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm);
  if (!c) c = lookup_comm(MPI_COMM_WORLD);
  if (!c || c->errhandler == 0) return kFatal;
  return handle_index(reinterpret_cast<MPI_Errhandler>(c->errhandler));
}

[[noreturn]] void fatal(int code, std::string_view fn, std::string_view detail) {
  auto &rt = core::Runtime::instance();
  std::string msg =
      fmt::format("{}: {}{}{}", fn, error_text(code), detail.empty() ? "" : ": ", detail);
  if (rt.state() != core::State::initialized) {
    base::log_error("{}", msg);
    ::_exit(code ? code : 1);
  }
  code = class_of_code(code);  // (the exit status: a detailed code's class)
  base::log_error("{} (error class {}; MPI_ERRORS_ARE_FATAL)", msg, code);
  rt.abort(code, "impi fatal: " + msg);
}

}  // namespace

namespace {
// Classes and codes added by MPI_Add_error_class/code: code = LASTCODE + 1 + index.
struct UserCode {
  int error_class;
  std::string text;
  bool removed = false;  // by MPI_Remove_error_class/code (MPI-4.1)
  int codes = 0;         // a class: its codes not removed
};
std::mutex g_codes_mu;
std::deque<UserCode> g_user_codes;
// Removed entries, taken again by the next additions (so a program that
// adds and removes in a loop keeps its codes few and the checks O(1)).
std::vector<std::size_t> g_free_codes;
UserCode *user_code(int code) {
  if (code <= MPI_ERR_LASTCODE ||
      code - MPI_ERR_LASTCODE - 1 >= static_cast<int>(g_user_codes.size()))
    return nullptr;
  return &g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)];
}
}  // namespace

namespace {
// Codes that carry their own text (detailed_code): kDetailBase + serial *
// kDetailSpan + class, so that the class is known for as long as the code
// lives; the texts of the last kDetailKept are kept (an older code reads
// as its class's text).
constexpr int kDetailBase = 1 << 24, kDetailSpan = 1024, kDetailSerials = 1 << 16;
constexpr std::size_t kDetailKept = 64;
struct DetailText {
  int code = 0;
  std::string text;
};
std::array<DetailText, kDetailKept> g_details;
int g_next_detail = 0;  // (under g_codes_mu)
bool is_detailed(int code) {
  return code >= kDetailBase && code < kDetailBase + kDetailSerials * kDetailSpan;
}
int detailed_class(int code) {
  return (code - kDetailBase) % kDetailSpan;
}
}  // namespace

int detailed_code(int error_class, std::string_view text) {
  if (error_class <= MPI_SUCCESS || error_class > MPI_ERR_LASTCODE) return error_class;
  std::lock_guard<std::mutex> lk(g_codes_mu);
  const int serial = g_next_detail++ % kDetailSerials;
  const int code = kDetailBase + serial * kDetailSpan + error_class;
  auto &d = g_details[static_cast<std::size_t>(serial) % kDetailKept];
  d.code = code;
  d.text = fmt::format("{}: {}", kClasses[error_class].text, text);
  if (d.text.size() >= MPI_MAX_ERROR_STRING) d.text.resize(MPI_MAX_ERROR_STRING - 1);
  return code;
}

std::string_view error_text(int code) {
  if (code >= 0 && code <= MPI_ERR_LASTCODE) return kClasses[code].text;
  if (is_detailed(code)) {
    std::lock_guard<std::mutex> lk(g_codes_mu);
    const auto &d =
        g_details[static_cast<std::size_t>((code - kDetailBase) / kDetailSpan) % kDetailKept];
    if (d.code == code) return d.text;
    return kClasses[detailed_class(code)].text;
  }
  std::lock_guard<std::mutex> lk(g_codes_mu);
  if (code > MPI_ERR_LASTCODE &&
      code - MPI_ERR_LASTCODE - 1 < static_cast<int>(g_user_codes.size()))
    return g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].text;
  return {};
}

bool valid_error_code(int code) {
  if (code >= 0 && code <= MPI_ERR_LASTCODE) return true;
  if (is_detailed(code))
    return detailed_class(code) > 0 && detailed_class(code) <= MPI_ERR_LASTCODE;
  std::lock_guard<std::mutex> lk(g_codes_mu);
  return code > MPI_ERR_LASTCODE &&
         code - MPI_ERR_LASTCODE - 1 < static_cast<int>(g_user_codes.size()) &&
         !g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].removed;
}

int remove_error_code(int code, bool is_class) {
  std::lock_guard<std::mutex> lk(g_codes_mu);
  if (code <= MPI_ERR_LASTCODE ||
      code - MPI_ERR_LASTCODE - 1 >= static_cast<int>(g_user_codes.size()))
    return MPI_ERR_ARG;
  UserCode &u = g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)];
  if (u.removed || (u.error_class == code) != is_class) return MPI_ERR_ARG;
  if (is_class && u.codes > 0) return MPI_ERR_ARG;  // still in use by a code (MPI-4.1 9.5)
  if (!is_class)
    if (UserCode *c = user_code(u.error_class)) --c->codes;
  u.removed = true;
  u.text.clear();
  g_free_codes.push_back(static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1));
  return MPI_SUCCESS;
}

int class_of_code(int code) {
  if (code >= 0 && code <= MPI_ERR_LASTCODE) return code;
  if (is_detailed(code)) return detailed_class(code);
  std::lock_guard<std::mutex> lk(g_codes_mu);
  return g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].error_class;
}

int add_error_code(int error_class) {
  std::lock_guard<std::mutex> lk(g_codes_mu);
  std::size_t i = g_user_codes.size();
  if (!g_free_codes.empty()) {
    i = g_free_codes.back();
    g_free_codes.pop_back();
  } else {
    g_user_codes.emplace_back();
  }
  const int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(i);
  g_user_codes[i] = {error_class < 0 ? code : error_class, "", false, 0};
  if (error_class >= 0)
    if (UserCode *c = user_code(error_class)) ++c->codes;
  return code;
}

bool set_error_string(int code, std::string text) {
  std::lock_guard<std::mutex> lk(g_codes_mu);
  if (code <= MPI_ERR_LASTCODE ||
      code - MPI_ERR_LASTCODE - 1 >= static_cast<int>(g_user_codes.size()))
    return false;
  UserCode &u = g_user_codes[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)];
  if (u.removed) return false;
  u.text = std::move(text);
  return true;
}

int last_used_error_code() {
  std::lock_guard<std::mutex> lk(g_codes_mu);
  return MPI_ERR_LASTCODE + static_cast<int>(g_user_codes.size());
}

int error_class_of(base::Errc e) {
  using base::Errc;
  switch (e) {
    case Errc::ok:
      return MPI_SUCCESS;
    case Errc::invalid_argument:
      return MPI_ERR_ARG;
    case Errc::not_supported:
      return MPI_ERR_UNSUPPORTED_OPERATION;
    case Errc::not_found:
      return MPI_ERR_OTHER;
    case Errc::io_error:
      return MPI_ERR_OTHER;
    case Errc::protocol_error:
      return MPI_ERR_OTHER;
    case Errc::peer_died:
      return MPI_ERR_OTHER;
    case Errc::timeout:
      return MPI_ERR_OTHER;
    case Errc::no_memory:
      return MPI_ERR_NO_MEM;
    case Errc::truncated:
      return MPI_ERR_TRUNCATE;
    case Errc::conversion:
      return MPI_ERR_CONVERSION;
    case Errc::internal:
      return MPI_ERR_INTERN;
  }
  return MPI_ERR_UNKNOWN;
}

namespace {
// Runs handler `idx` for an error: MPI_ERRORS_RETURN returns the code,
// a user handler is called through `call` with its function, and
// MPI_ERRORS_ARE_FATAL ends the job.
template <typename Call>
int run_handler(std::uint32_t idx, int code, std::string_view fn, std::string_view detail,
                Call call, MPI_Comm abort_comm = MPI_COMM_WORLD) {
  if (idx == kReturn) {
    if (!detail.empty()) base::log_debug("{}: {}: {}", fn, error_text(code), detail);
    return code;
  }
  if (idx == kAbort) {  // MPI_ERRORS_ABORT: the handler's object's processes end
    base::log_error("{}: {}{}{} (error class {}; MPI_ERRORS_ABORT)", fn, error_text(code),
                    detail.empty() ? "" : ": ", detail, class_of_code(code));
    PMPI_Abort(abort_comm, class_of_code(code));
    return code;
  }
  MPI_Comm_errhandler_function *user = nullptr;
  {
    std::lock_guard<std::mutex> lk(g_eh_mu);
    if (idx >= kFirstUser && idx < g_handlers.size()) user = g_handlers[idx].fn;
  }
  if (!user) fatal(code, fn, detail);
  int e = code;
  call(user, &e);
  return code;
}
}  // namespace

int report(MPI_Comm comm, int code, std::string_view fn, std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  if (code == MPI_ERR_CONVERSION && !detail.empty()) {
    // What did not convert, for MPI_Error_string: the code carries the text.
    code = detailed_code(code, detail);
    detail = {};
  }
  return run_handler(
      handler_index(comm), code, fn, detail,
      [&](MPI_Comm_errhandler_function *user, int *e) {
        MPI_Comm c = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
        user(&c, e);
      },
      comm == MPI_COMM_NULL || !lookup_comm(comm) ? MPI_COMM_WORLD : comm);
}

int report_win(MPI_Win win, std::uintptr_t errhandler, int code, std::string_view fn,
               std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  std::uint32_t idx =
      errhandler ? handle_index(reinterpret_cast<MPI_Errhandler>(errhandler)) : kFatal;
  return run_handler(idx, code, fn, detail, [&](MPI_Comm_errhandler_function *user, int *e) {
    MPI_Win w = win;  // (a window handler, kept in the same table: called alike)
    reinterpret_cast<MPI_Win_errhandler_function *>(user)(&w, e);
  });
}

int report_session(MPI_Session session, std::uintptr_t errhandler, int code, std::string_view fn,
                   std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  std::uint32_t idx =
      errhandler ? handle_index(reinterpret_cast<MPI_Errhandler>(errhandler)) : kFatal;
  return run_handler(idx, code, fn, detail, [&](MPI_Comm_errhandler_function *user, int *e) {
    MPI_Session s = session;  // (a session handler, kept in the same table: called alike)
    reinterpret_cast<MPI_Session_errhandler_function *>(user)(&s, e);
  });
}

int report_errhandler(std::uintptr_t errhandler, int code, std::string_view fn,
                      std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  std::uint32_t idx =
      errhandler ? handle_index(reinterpret_cast<MPI_Errhandler>(errhandler)) : kFatal;
  return run_handler(idx, code, fn, detail, [&](MPI_Comm_errhandler_function *user, int *e) {
    MPI_Comm c = MPI_COMM_NULL;
    user(&c, e);
  });
}

int report_file(int code, std::string_view fn, std::string_view detail) {
  if (!detail.empty()) base::log_debug("{}: {}: {}", fn, error_text(code), detail);
  return code;  // MPI_FILE_NULL's handler is MPI_ERRORS_RETURN
}

int report_file_on(MPI_File fh, std::uintptr_t errhandler, int code, std::string_view fn,
                   std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  if (!detail.empty() && code > 0 && code <= MPI_ERR_LASTCODE) {
    code = detailed_code(code, fmt::format("{}: {}", fn, detail));
    detail = {};
  }
  std::uint32_t idx =
      errhandler ? handle_index(reinterpret_cast<MPI_Errhandler>(errhandler)) : kReturn;
  return run_handler(idx, code, fn, detail, [&](MPI_Comm_errhandler_function *user, int *e) {
    MPI_File f = fh;  // (a file handler, kept in the same table: called alike)
    reinterpret_cast<MPI_File_errhandler_function *>(user)(&f, e);
  });
}

namespace {
std::atomic<FileReporter> g_file_reporter{nullptr};
}

void set_file_reporter(FileReporter f) {
  g_file_reporter.store(f, std::memory_order_release);
}

int report_request(std::uintptr_t owner, int code, std::string_view fn, std::string_view detail) {
  if (code == MPI_SUCCESS) return code;
  switch (owner >> kIndexBits) {
    case IMPI_KIND_COMM:
      return report(reinterpret_cast<MPI_Comm>(owner), code, fn, detail);
    case IMPI_KIND_WIN:
      if (auto *w = lookup_win(reinterpret_cast<MPI_Win>(owner)))
        return report_win(reinterpret_cast<MPI_Win>(owner), w->errhandler, code, fn, detail);
      break;
    case IMPI_KIND_FILE:
      if (auto f = g_file_reporter.load(std::memory_order_acquire))
        return f(reinterpret_cast<MPI_File>(owner), code, fn, detail);
      break;
    default:
      break;
  }
  return report(MPI_COMM_NULL, code, fn, detail);
}

int unsupported(std::string_view fn, MPI_Comm comm) {
  return report(
      comm, MPI_ERR_UNSUPPORTED_OPERATION, fn,
      fmt::format("impi does not implement {} yet (the README lists what is missing)", fn));
}

int unsupported_file(std::string_view fn) {
  return report_file(MPI_ERR_UNSUPPORTED_OPERATION, fn,
                     fmt::format("impi does not implement MPI-IO ({}) yet", fn));
}

void not_initialized(std::string_view fn) {
  auto s = core::Runtime::instance().state();
  base::log_error("{} called {} (an erroneous MPI program)", fn,
                  s == core::State::uninitialized ? "before MPI_Init" : "after MPI_Finalize");
  ::_exit(MPI_ERR_OTHER);
}

bool valid_errhandler(MPI_Errhandler eh) {
  if (handle_kind(eh) != IMPI_KIND_ERRHANDLER) return false;
  std::uint32_t i = handle_index(eh);
  if (i == kFatal || i == kReturn || i == kAbort) return true;
  std::lock_guard<std::mutex> lk(g_eh_mu);
  return i >= kFirstUser && i < g_handlers.size() && g_handlers[i].refs > 0;
}

MPI_Errhandler create_comm_errhandler(MPI_Comm_errhandler_function *fn) {
  std::lock_guard<std::mutex> lk(g_eh_mu);
  std::uint32_t i = kFirstUser;
  while (i < g_handlers.size() && g_handlers[i].refs > 0) ++i;
  if (i == g_handlers.size()) g_handlers.emplace_back();
  g_handlers[i] = {fn, 1};
  return make_handle<MPI_Errhandler>(IMPI_KIND_ERRHANDLER, i);
}

void free_errhandler(MPI_Errhandler eh) {
  std::uint32_t i = handle_index(eh);
  std::lock_guard<std::mutex> lk(g_eh_mu);
  if (i >= kFirstUser && i < g_handlers.size() && g_handlers[i].refs > 0) --g_handlers[i].refs;
}

void retain_errhandler(MPI_Errhandler eh) {
  std::uint32_t i = handle_index(eh);
  std::lock_guard<std::mutex> lk(g_eh_mu);
  if (i >= kFirstUser && i < g_handlers.size() && g_handlers[i].refs > 0) ++g_handlers[i].refs;
}

}  // namespace impi::api
