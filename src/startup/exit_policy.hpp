// exit_policy.hpp - what a job's exit status is, and what to tell the user.
//
// Pure logic, so the rules are unit-tested: the first process to fail
// decides the launcher's exit code; processes the launcher itself killed
// while ending the job are not reported again.
#pragma once

#include <optional>
#include <string>

namespace impi::startup {

struct ProcEnd {
  int rank = 0;   // as reported: the world rank
  int index = 0;  // the launcher's own (local) index of the proc
  int pid = 0;
  bool exited = false;  // true: exit_code valid; false: killed by term_signal
  int exit_code = 0;
  int term_signal = 0;
  bool called_init = false;      // connected to the launcher's PMIx server
  bool called_finalize = false;  // and left it cleanly
  bool life_known = false;       // its life pipe told both (no PMIx notice is awaited)
  std::string who;  // how messages name it; "" means "rank <rank>" (spawned procs say whose)
};

// "rank 3", or the proc's own label.
std::string name_of(const ProcEnd &e);

// Among processes that ended together, which is more likely the cause:
// 0 killed by a signal, 1 left MPI without MPI_Finalize, 2 nonzero exit,
// 3 clean exit. Lower ranks are reported first.
int cause_rank(const ProcEnd &e);

class JobOutcome {
 public:
  // A process ended. Returns the message to print (if any) and whether the
  // job must now be torn down.
  struct Verdict {
    std::optional<std::string> message;
    bool end_job = false;
  };
  Verdict on_proc_end(const ProcEnd &e);
  // MPI_Abort from `rank` with `code`.
  Verdict on_abort(int rank, int code, const std::string &msg);
  Verdict on_abort(const std::string &who, int code, const std::string &msg);
  // The launcher ends the job itself (signal, timeout, launch failure).
  Verdict on_launcher_end(int exit_code, std::string message);

  bool ending() const { return ending_; }
  int exit_code() const { return exit_code_; }

 private:
  Verdict fail(int code, std::string message);
  bool ending_ = false;
  int exit_code_ = 0;
};

}  // namespace impi::startup
