// errors.hpp - error classes, strings and handlers at the C boundary.
//
// Every entry point reports failure through report(): it calls the error
// handler attached to the communicator (MPI_ERRORS_ARE_FATAL by default,
// which ends the job with a message naming the function and the problem;
// MPI_ERRORS_RETURN, which returns the code; or a user handler).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/errc.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

namespace impi::api {

// Reports `code` raised by function `fn` on `comm` (MPI_COMM_NULL: the
// handler of MPI_COMM_WORLD, as the standard says for calls without an
// object). Returns what the caller must return.
int report(MPI_Comm comm, int code, std::string_view fn, std::string_view detail = {});

// Reports `code` on window `win` through its handler `errhandler` (an
// MPI_Errhandler handle value; 0: MPI_ERRORS_ARE_FATAL, windows' default).
int report_win(MPI_Win win, std::uintptr_t errhandler, int code, std::string_view fn,
               std::string_view detail = {});

// Reports `code` on session `session` through its handler `errhandler` (an
// MPI_Errhandler handle value; 0: MPI_ERRORS_ARE_FATAL).
int report_session(MPI_Session session, std::uintptr_t errhandler, int code, std::string_view fn,
                   std::string_view detail = {});
// Reports `code` through communicator handler `errhandler` (a handle value)
// with no communicator yet (MPI_Comm_create_from_group's argument).
int report_errhandler(std::uintptr_t errhandler, int code, std::string_view fn,
                      std::string_view detail = {});
// Reports an error on an MPI_File object; files default to MPI_ERRORS_RETURN.
int report_file(int code, std::string_view fn, std::string_view detail = {});
// Reports `code` on file `fh` through its handler `errhandler` (an
// MPI_Errhandler handle value; 0: MPI_ERRORS_RETURN, files' default). With
// a detail, the code returned carries it (MPI_Error_string names the path
// and the reason); its class stays `code`'s.
int report_file_on(MPI_File fh, std::uintptr_t errhandler, int code, std::string_view fn,
                   std::string_view detail = {});

// Reports `code`, the error of an operation that a completion call (MPI_Wait,
// MPI_Test and their forms) completed, through the error handler of the
// object that started it: `owner` is the handle value of a communicator, a
// window or a file (Entry::owner in requests.hpp; 0: MPI_COMM_WORLD's, as a
// user's generalized request). An object freed meanwhile: the handler of
// MPI_COMM_WORLD (a communicator or window) or of MPI_FILE_NULL (a file).
int report_request(std::uintptr_t owner, int code, std::string_view fn,
                   std::string_view detail = {});
// The I/O layer's part of report_request (it sits above this one): reports
// on file handle `fh` through its handler. Registered by src/io.
using FileReporter = int (*)(MPI_File fh, int code, std::string_view fn, std::string_view detail);
void set_file_reporter(FileReporter f);

// For functions not implemented yet.
int unsupported(std::string_view fn, MPI_Comm comm);
int unsupported_file(std::string_view fn);

// Maps an internal error to the MPI error class that describes it.
int error_class_of(base::Errc e);

// A new error code of built-in class `error_class` whose text (for
// MPI_Error_string) is the class's followed by `text`: an error that names
// what failed (MPI_ERR_CONVERSION: the type and the value). MPI_Error_class
// of it is `error_class`; report() makes one for MPI_ERR_CONVERSION.
int detailed_code(int error_class, std::string_view text);

// The text of an error class (or code), "" for unknown codes.
std::string_view error_text(int code);
// User-defined error classes and codes (MPI_Add_error_class/code/string).
bool valid_error_code(int code);
int class_of_code(int code);                        // valid codes only
int add_error_code(int error_class);                // error_class < 0: a new class (its own class)
bool set_error_string(int code, std::string text);  // user codes only
// MPI_Remove_error_class/code: MPI_SUCCESS, or MPI_ERR_ARG (not a user
// class/code, already removed, or a class that codes still use).
int remove_error_code(int code, bool is_class);
int last_used_error_code();

// True when MPI_Init has run and MPI_Finalize has not; otherwise reports a
// fatal usage error for `fn` (calls before init / after finalize).
// Out of line: the erroneous case (it ends the process).
[[noreturn]] void not_initialized(std::string_view fn);
inline bool check_initialized(std::string_view fn) {
  if (core::Runtime::instance().state() == core::State::initialized) [[likely]]
    return true;
  not_initialized(fn);
}
// (The name's length is measured only on the error path.)
inline bool check_initialized(const char *fn) {
  if (core::Runtime::instance().state() == core::State::initialized) [[likely]]
    return true;
  not_initialized(fn);
}

// Error handler objects (predefined and user-created).
bool valid_errhandler(MPI_Errhandler eh);
MPI_Errhandler create_comm_errhandler(MPI_Comm_errhandler_function *fn);
void free_errhandler(MPI_Errhandler eh);
// Counts one more user of a handler (a communicator it is attached to).
void retain_errhandler(MPI_Errhandler eh);

}  // namespace impi::api
