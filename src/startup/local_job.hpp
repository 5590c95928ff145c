// local_job.hpp - the procs impirun runs on this host, and their PMIx
// server: LocalJob, shared by the launcher's rooms:
//   local_job.cpp    the event loop, signals, the job's end;
//   pmix_host.cpp    the PMIx server: module callbacks, namespaces;
//   name_service.cpp MPI_Publish_name and friends (NameService);
//   local_procs.cpp  fork/exec, output and stdin wiring, reaping, exits;
//   spawn.cpp        MPI_Comm_spawn requests;
//   session_dir.cpp  the session directory and what killed sessions left.
//
// Threading: LocalJob::run() owns the calling thread (a libevent loop).
// PMIx module callbacks run on PMIx's progress thread; they only post
// events to that loop (post()), or answer at once (the name service).
#pragma once

#include <event2/event.h>
#include <pmix_server.h>
#include <sched.h>
#include <sys/types.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/fd.hpp"
#include "startup/event_owner.hpp"
#include "startup/exit_policy.hpp"
#include "startup/impi_job.hpp"
#include "startup/launch_options.hpp"
#include "startup/name_service.hpp"
#include "startup/output.hpp"

namespace impi::startup::local {

// One app of a job: what to run, and how many of it.
struct SpawnApp {
  std::string cmd;
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // KEY=VALUE, added to the launcher's
  std::string wdir;               // "" : the launcher's
  int np = 1;
  int appnum = -1;  // MPI_APPNUM; -1: the app's index
};

// The apps of impirun's own job (its MPMD app contexts, programs resolved).
std::vector<SpawnApp> job_apps(const LaunchOptions &opts);

// MPI_Comm_spawn(_multiple) as PMIx hands it to us: copied out of PMIx's
// structures on its thread, carried out on ours.
struct SpawnRequest {
  std::string parent_nspace;
  int parent_rank = 0;
  std::vector<SpawnApp> apps;
  pmix_spawn_cbfunc_t cbfunc = nullptr;
  void *cbdata = nullptr;
};

// Copies a spawn request out of PMIx's structures (spawn.cpp); null when
// an app is malformed (no command, or a count out of range).
std::shared_ptr<SpawnRequest> copy_spawn_request(const pmix_proc_t &parent, const pmix_app_t apps[],
                                                 std::size_t napps, pmix_spawn_cbfunc_t cbfunc,
                                                 void *cbdata);

// Events posted by PMIx callbacks (any thread) for the loop (main thread).
struct PmixEvent {
  enum Kind { connected, finalized, abort, spawn } kind;
  int rank = 0;
  int status = 0;
  std::string message;
  std::string nspace;
  std::shared_ptr<SpawnRequest> spawn_req = nullptr;
};

struct Proc {
  int job = 0;   // index in LocalJob::jobs_ (0: the job impirun started)
  int rank = 0;  // in its job
  pid_t pid = -1;
  bool running = false;
  bool called_init = false;
  bool called_finalize = false;
  bool life_known = false;  // it wrote on its life pipe: that pipe tells init and finalize
  base::Fd out, err;
  base::Fd life;                // the life pipe's read end (pm_client.hpp), read when it ends
  base::Fd out_file, err_file;  // --output-filename: where its output goes
  EventPtr out_ev, err_ev;
  std::unique_ptr<LineForwarder> out_fwd, err_fwd;
};

// The program `prog` names: itself when it has a '/', else found in PATH;
// "" when there is none or it is not executable.
std::string find_program(const std::string &prog);
std::string local_hostname();

class LocalJob;
extern LocalJob *g_job;  // the PMIx module callbacks have no user pointer

class LocalJob {
 public:
  // `impi`: the job description of an IMPI client (null for a one-client
  // job). `agent_end`: readable when the host agent ends the job (-1: none).
  LocalJob(const LaunchOptions &o, const ImpiJob *impi, int agent_end = -1);

  int run();

  // Called from PMIx's thread.
  void post(PmixEvent ev);
  NameService &names() { return names_; }
  // The job's process sets, fixed before its first proc starts (PMIx's
  // thread reads them): members as ranks of `pset_nspace()`.
  const std::vector<WorldPset> &psets() const { return psets_; }
  const std::string &pset_nspace() const { return pset_nspace_; }

 private:
  struct JobRec {
    std::string nspace;
    std::size_t first = 0;  // its rank 0 in procs_
    int size = 0;
    std::string label;  // "" for the job impirun started; else "job impi.X.2 (./prog)"
  };
  struct StdinChoice;
  struct ChildPipes;

  // The loop (local_job.cpp).
  bool setup_loop();
  bool start_job(const std::string &program);
  void drain_queue();
  void end_job(JobOutcome::Verdict v);
  void send_signal_to_all(int sig);
  void maybe_finish();
  void cleanup();
  static void on_wake(evutil_socket_t fd, short, void *arg);
  static void on_signal(evutil_socket_t sig, short, void *arg);
  static void on_agent_end(evutil_socket_t fd, short, void *arg);
  static void on_timeout(evutil_socket_t, short, void *arg);
  static void on_grace(evutil_socket_t, short, void *arg);

  // The PMIx server (pmix_host.cpp).
  bool setup_tmpdir();
  bool start_pmix_server();
  bool register_job();
  // Registers namespace `ns` with PMIx: `apps` in order (ranks follow on),
  // `parent` set for a spawned job.
  bool register_nspace(const std::string &ns, const std::vector<SpawnApp> &apps,
                       const pmix_proc_t *parent);

  // The procs (local_procs.cpp).
  bool plan_binding();
  bool launch(Proc &p, const std::string &program, const SpawnApp &app, int appnum);
  bool choose_stdin(const Proc &p, StdinChoice &in);
  pid_t fork_exec(const std::string &program, const SpawnApp &app, char **env,
                  const cpu_set_t *bind, ChildPipes &pipes, StdinChoice &in);
  void open_output_files(Proc &p, int shown_rank);
  void wire_output(Proc &p, base::Fd out, base::Fd err, int shown_rank);
  Proc *find_proc(const std::string &ns, int rank);
  std::size_t index_of(const Proc &p) const;
  void reap();
  void judge(std::vector<ProcEnd> ended, bool final);
  void on_output(Proc &p, bool is_err);
  static void on_pipe(evutil_socket_t, short, void *arg);
  static void on_recheck(evutil_socket_t, short, void *arg);
  void read_life(Proc &p);

  // MPI_Comm_spawn (spawn.cpp).
  void spawn(SpawnRequest &req);

  const LaunchOptions &opts_;
  const ImpiJob *impi_ = nullptr;
  int world_offset_ = 0;  // world rank of our rank 0
  int agent_end_ = -1;
  std::string nspace_;
  std::vector<WorldPset> psets_;
  std::string pset_nspace_;
  std::string tmpdir_;
  std::string host_;
  bool pmix_up_ = false;
  bool nspace_registered_ = false;
  EventBasePtr base_;
  base::Fd wake_r_, wake_w_;
  EventPtr wake_ev_, agent_end_ev_, timeout_ev_, grace_ev_, recheck_ev_;
  // Clean exits of procs whose MPI_Finalize notice has not arrived yet:
  // PMIx may deliver client_finalized after the process is gone, so they
  // are judged again a moment later (finalize_notice_ms).
  std::vector<ProcEnd> unconfirmed_;
  std::vector<EventPtr> signal_evs_;
  std::mutex mu_;
  std::deque<PmixEvent> queue_;
  std::vector<JobRec> jobs_;
  std::deque<Proc> procs_;  // a deque: handlers hold pointers to procs, and spawns append
  NameService names_;
  std::vector<cpu_set_t> bind_sets_;   // per rank, empty when not binding
  std::vector<std::string> proc_env_;  // -x, and what the launcher adds (IMPI_MACHINE_CPUS)
  std::vector<base::Fd> stdin_pipes_;  // --stdin all: each rank's, until the copy starts
  JobOutcome outcome_;
  int running_ = 0;
  int open_pipes_ = 0;
};

}  // namespace impi::startup::local
