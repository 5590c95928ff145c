#include "startup/exit_policy.hpp"

#include <fmt/core.h>

#include <cstring>

namespace impi::startup {

std::string name_of(const ProcEnd &e) {
  return e.who.empty() ? fmt::format("rank {}", e.rank) : e.who;
}

int cause_rank(const ProcEnd &e) {
  if (!e.exited) return 0;
  if (e.called_init && !e.called_finalize) return 1;
  return e.exit_code != 0 ? 2 : 3;
}

JobOutcome::Verdict JobOutcome::fail(int code, std::string message) {
  Verdict v;
  if (!ending_) {  // only the first failure speaks and sets the code
    ending_ = true;
    exit_code_ = code;
    v.message = std::move(message);
  }
  v.end_job = true;
  return v;
}

JobOutcome::Verdict JobOutcome::on_proc_end(const ProcEnd &e) {
  if (e.exited && e.exit_code == 0) {
    if (e.called_init && !e.called_finalize && !ending_)
      return fail(1, fmt::format("{} (pid {}) exited without calling MPI_Finalize; "
                                 "ending the job",
                                 name_of(e), e.pid));
    return {};
  }
  if (ending_) return {{}, true};  // collateral of the teardown: stay quiet
  if (e.exited)
    return fail(e.exit_code, fmt::format("{} (pid {}) exited with code {}; ending the job",
                                         name_of(e), e.pid, e.exit_code));
  const char *name = ::strsignal(e.term_signal);
  return fail(128 + e.term_signal,
              fmt::format("{} (pid {}) was killed by signal {} ({}); ending the job", name_of(e),
                          e.pid, e.term_signal, name ? name : "?"));
}

JobOutcome::Verdict JobOutcome::on_abort(int rank, int code, const std::string &msg) {
  return on_abort(fmt::format("rank {}", rank), code, msg);
}

JobOutcome::Verdict JobOutcome::on_abort(const std::string &who, int code, const std::string &msg) {
  // The library ends the job itself on a fatal error (MPI_ERRORS_ARE_FATAL, a
  // limit): it marks its reason, which is then the message.
  constexpr std::string_view kFatal = "impi fatal: ";
  if (msg.rfind(kFatal, 0) == 0)
    return fail(code & 0xff, fmt::format("{} failed: {}; ending the job (exit code {})", who,
                                         msg.substr(kFatal.size()), code & 0xff));
  std::string m = fmt::format("MPI_Abort was called by {} with error code {}", who, code);
  // The library's own text says the same again: only a message of the
  // caller's adds something.
  if (!msg.empty() && msg.rfind("MPI_Abort called by ", 0) != 0) m += fmt::format(" ({})", msg);
  m += "; ending the job";
  return fail(code & 0xff, std::move(m));
}

JobOutcome::Verdict JobOutcome::on_launcher_end(int exit_code, std::string message) {
  return fail(exit_code, std::move(message));
}

}  // namespace impi::startup
