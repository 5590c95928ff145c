// local_procs.cpp - LocalJob's procs: starting one (PMIx registration, its
// environment, fork/exec with its stdin, binding and output pipes), their
// output, and their ends: reaping and judging them (exit_policy.hpp).
#include <fcntl.h>
#include <fmt/core.h>
#include <pmix.h>
#include <pmix_server.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/local_job.hpp"
#include "startup/placement.hpp"
#include "startup/pm_client.hpp"

extern char **environ;

namespace impi::startup::local {

using base::Fd;

namespace {
// A malloc'ed, NULL-terminated environment array (PMIx_server_setup_fork
// realloc()s it, so it cannot be a std::vector).
class EnvBlock {
 public:
  explicit EnvBlock(const std::vector<std::string> &vars) {
    env_ = static_cast<char **>(calloc(vars.size() + 1, sizeof(char *)));
    for (size_t i = 0; i < vars.size(); ++i) env_[i] = strdup(vars[i].c_str());
  }
  EnvBlock(const EnvBlock &) = delete;
  EnvBlock &operator=(const EnvBlock &) = delete;
  ~EnvBlock() {
    if (!env_) return;
    for (char **e = env_; *e; ++e) free(*e);
    free(env_);
  }
  char ***address() { return &env_; }
  char **get() const { return env_; }

 private:
  char **env_ = nullptr;
};

// The pipe's inode: the proc checks that the descriptor it was given is
// still this pipe before it writes there.
unsigned long long inode_of(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<unsigned long long>(st.st_ino) : 0;
}

// Registers the proc with PMIx and makes its environment: ours without any
// PMIx variables of an enclosing job, plus -x, the app's and PMIx's own.
std::unique_ptr<EnvBlock> proc_environment(const pmix_proc_t &proc, int rank,
                                           const std::vector<std::string> &extra,
                                           const SpawnApp &app, int appnum, int maxprocs,
                                           int life_fd) {
  pmix_status_t rc =
      PMIx_server_register_client(&proc, ::geteuid(), ::getegid(), nullptr, nullptr, nullptr);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    base::log_error("PMIx_server_register_client(rank {}): {}", rank, PMIx_Error_string(rc));
    return nullptr;
  }
  // MPI_INFO_ENV's maxprocs, which MPI_Info_create_env gives before
  // MPI_Init too: how many procs the launch started (first: getenv takes
  // the first of a name).
  std::vector<std::string> vars{fmt::format("IMPI_MAXPROCS={}", maxprocs),
                                fmt::format("IMPI_LIFE_FD={}:{}", life_fd, inode_of(life_fd))};
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "PMIX_", 5) != 0 && std::strncmp(*e, "IMPI_MAXPROCS=", 14) != 0 &&
        std::strncmp(*e, "IMPI_LIFE_FD=", 13) != 0)
      vars.emplace_back(*e);
  for (const auto &x : extra) vars.push_back(x);
  for (const auto &x : app.env) vars.push_back(x);
  vars.push_back(fmt::format("IMPI_APPNUM={}", appnum));
  auto env = std::make_unique<EnvBlock>(vars);
  rc = PMIx_server_setup_fork(&proc, env->address());
  if (rc != PMIX_SUCCESS) {
    base::log_error("PMIx_server_setup_fork(rank {}): {}", rank, PMIx_Error_string(rc));
    return nullptr;
  }
  return env;
}

// What the child does between fork and exec, all prepared before the fork.
struct ChildSetup {
  pid_t launcher;
  int out, err, in;  // in: -1 keeps ours
  int status;        // the exec's errno goes here
  int life;          // the life pipe (IMPI_LIFE_FD): kept open across exec
  const cpu_set_t *bind;
  const char *wdir;  // null: ours
  const char *program;
  char *const *argv;
  char *const *env;
};

[[noreturn]] void exec_child(const ChildSetup &c) {
  // Only async-signal-safe calls from here to exec (the parent has threads).
  // If the launcher dies (even by SIGKILL), so do we: no orphan keeps
  // polling a job that is gone.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != c.launcher) ::_exit(127);
  // Each proc leads a session of its own, as MPICH's Hydra starts them:
  // where the kernel groups the scheduler's fairness by session
  // (autogroup, on by default in Debian's and Ubuntu's kernels), the procs
  // of a job would otherwise share the one CPU share of the shell that ran
  // impirun, against every other session's (a `make -j` elsewhere gets as
  // much as the whole job; bench/io.sh: 2-3x longer calls at a load
  // average of 13). impirun passes the user's signals on itself.
  ::setsid();
  ::dup2(c.out, STDOUT_FILENO);
  ::dup2(c.err, STDERR_FILENO);
  if (c.in >= 0) ::dup2(c.in, STDIN_FILENO);
  if (c.bind) ::sched_setaffinity(0, sizeof *c.bind, c.bind);
  ::fcntl(c.life, F_SETFD, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) ::signal(s, SIG_DFL);
  if (c.wdir && ::chdir(c.wdir) != 0) {
    int e = errno;
    (void)!::write(c.status, &e, sizeof e);
    ::_exit(127);
  }
  ::execve(c.program, c.argv, c.env);
  int e = errno;
  (void)!::write(c.status, &e, sizeof e);
  ::_exit(127);
}

// The child's errno when it could not exec (0: it runs the program). The
// status pipe closes on exec, so this waits exactly that long.
int exec_error(const Fd &status) {
  int child_errno = 0;
  ssize_t n;
  do n = ::read(status.get(), &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof child_errno) ? child_errno : 0;
}

bool make_pipe(Fd &r, Fd &w) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    base::log_error("pipe: {}", std::strerror(errno));
    return false;
  }
  r.reset(fds[0]);
  w.reset(fds[1]);
  return true;
}
}  // namespace

// The child's stdin: `fd` (-1: ours), with the pipe behind it.
struct LocalJob::StdinChoice {
  Fd r, w;
  int fd = -1;
};

// out, err: its output. st: its exec's errno. life: what it reports of
// MPI_Init and MPI_Finalize (pm_client.hpp), read when it ends.
struct LocalJob::ChildPipes {
  Fd out_r, out_w, err_r, err_w, st_r, st_w, life_r, life_w;
  bool open() {
    return make_pipe(out_r, out_w) && make_pipe(err_r, err_w) && make_pipe(st_r, st_w) &&
           make_pipe(life_r, life_w) && ::fcntl(life_r.get(), F_SETFL, O_NONBLOCK) == 0;
  }
};

std::string find_program(const std::string &prog) {
  if (prog.find('/') != std::string::npos) return ::access(prog.c_str(), X_OK) == 0 ? prog : "";
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    // (Not assigning "." to an empty `dir`: gcc 12's -Wrestrict misfires on it here.)
    std::string cand = end > start ? p.substr(start, end - start) : std::string(".");
    cand += '/';
    cand += prog;
    struct stat st {};
    if (::stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(cand.c_str(), X_OK) == 0)
      return cand;
    start = end + 1;
  }
  return "";
}

std::string local_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

bool LocalJob::plan_binding() {
  if (auto st = check_oversubscription(opts_, opts_.np);
      !st.ok() || !(st = check_shared_memory(opts_)).ok()) {
    base::log_error("{}", st.message());
    return false;
  }
  auto placement = plan_placement(opts_, world_offset_, host_);
  if (!placement) {
    base::log_error("{}", placement.message());
    return false;
  }
  bind_sets_ = std::move(placement->sets);
  // Run within fewer cpus than the machine has (taskset, a cpuset), our
  // procs count those when they decide whether they share cores: bound,
  // each sees only its own.
  cpu_set_t allowed;
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) < online &&
      std::none_of(proc_env_.begin(), proc_env_.end(),
                   [](const std::string &e) { return e.rfind("IMPI_MACHINE_CPUS=", 0) == 0; }) &&
      !std::getenv("IMPI_MACHINE_CPUS"))
    proc_env_.push_back(fmt::format("IMPI_MACHINE_CPUS={}", CPU_COUNT(&allowed)));
  return true;
}

// ------------------------------------------------------------------ launching
bool LocalJob::launch(Proc &p, const std::string &program, const SpawnApp &app, int appnum) {
  const int rank = p.rank;
  const JobRec &jr = jobs_[static_cast<size_t>(p.job)];
  const bool spawned = p.job != 0;
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, jr.nspace.c_str(), static_cast<pmix_rank_t>(rank));
  // (A spawned job: its own count; impirun's job: the whole command's,
  // which a client of `--clients` has from its parent.)
  const char *whole = spawned ? nullptr : std::getenv("IMPI_MAXPROCS");
  int maxprocs = jr.size;
  if (whole && std::atoi(whole) > 0) maxprocs = std::atoi(whole);
  ChildPipes pipes;
  if (!pipes.open()) return false;
  auto env = proc_environment(proc, rank, proc_env_, app, appnum, maxprocs, pipes.life_w.get());
  if (!env) return false;
  const cpu_set_t *bind =
      bind_sets_.empty() || spawned ? nullptr : &bind_sets_[static_cast<size_t>(rank)];
  StdinChoice in;
  if (!choose_stdin(p, in)) return false;
  pid_t pid = fork_exec(program, app, env->get(), bind, pipes, in);
  if (pid < 0) return false;
  p.pid = pid;
  p.running = true;
  ++running_;
  if (int e = exec_error(pipes.st_r); e != 0) {
    base::log_error("cannot execute '{}' for rank {}{}{}: {}", program, rank,
                    jr.label.empty() ? "" : " of ", jr.label, std::strerror(e));
    return false;  // the child _exit()s; reap() collects it
  }
  p.life = std::move(pipes.life_r);
  const int shown_rank = spawned ? rank : world_offset_ + rank;
  open_output_files(p, shown_rank);
  wire_output(p, std::move(pipes.out_r), std::move(pipes.err_r), shown_rank);
  return true;
}

// stdin (--stdin): ours for the chosen world rank, a pipe fed with a copy
// of it for each rank (all), /dev/null for the others and spawned procs.
bool LocalJob::choose_stdin(const Proc &p, StdinChoice &in) {
  const bool spawned = p.job != 0;
  const StdinTarget &target = opts_.stdin_target;
  if (!spawned && target.kind == StdinTarget::all) {
    if (!make_pipe(in.r, in.w)) return false;
    in.fd = in.r.get();
  } else if (spawned || target.kind == StdinTarget::none || target.rank != world_offset_ + p.rank) {
    in.fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    in.r.reset(in.fd);
  }
  return true;
}

// Forks the proc; the parent keeps the read ends (and the write end of a
// stdin copy). Returns its pid, or -1 (reported).
pid_t LocalJob::fork_exec(const std::string &program, const SpawnApp &app, char **env,
                          const cpu_set_t *bind, ChildPipes &pipes, StdinChoice &in) {
  std::vector<char *> argv;
  for (const auto &a : app.argv) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  ChildSetup c{::getpid(),
               pipes.out_w.get(),
               pipes.err_w.get(),
               in.fd,
               pipes.st_w.get(),
               pipes.life_w.get(),
               bind,
               app.wdir.empty() ? nullptr : app.wdir.c_str(),
               program.c_str(),
               argv.data(),
               env};
  pid_t pid = ::fork();
  if (pid < 0) {
    base::log_error("fork: {}", std::strerror(errno));
    return -1;
  }
  if (pid == 0) exec_child(c);
  in.r.reset();
  if (in.w) stdin_pipes_.push_back(std::move(in.w));
  pipes.st_w.reset();
  pipes.out_w.reset();
  pipes.err_w.reset();
  pipes.life_w.reset();
  return pid;
}

// --output-filename DIR: DIR/<job>/rank.<R>/stdout and stderr (Open MPI 4's layout).
void LocalJob::open_output_files(Proc &p, int shown_rank) {
  if (opts_.output_dir.empty()) return;
  std::string dir = fmt::format("{}/{}/rank.{}", opts_.output_dir, p.job + 1, shown_rank);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  p.out_file.reset(
      ::open((dir + "/stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  p.err_file.reset(
      ::open((dir + "/stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!p.out_file || !p.err_file)
    base::log_error(
        "--output-filename: cannot write in {}: {}; rank {}'s output goes to the terminal", dir,
        ec ? ec.message() : std::strerror(errno), shown_rank);
}

// The proc's stdout and stderr, line by line (tagged, timestamped) to ours
// or to its files.
void LocalJob::wire_output(Proc &p, Fd out, Fd err, int shown_rank) {
  auto make_fwd = [&](bool is_err) {
    std::string tag = opts_.tag_output ? fmt::format("[{},{}]<{}>:", p.job + 1, shown_rank,
                                                     is_err ? "stderr" : "stdout")
                                       : "";
    std::function<std::string()> prefix;
    if (opts_.timestamp_output)
      prefix = [tag] { return output_timestamp() + tag; };
    else if (!tag.empty())
      prefix = [tag] { return tag; };
    int target = is_err ? STDERR_FILENO : STDOUT_FILENO;
    const Fd &file = is_err ? p.err_file : p.out_file;
    if (file) target = file.get();
    return std::make_unique<LineForwarder>(std::move(prefix),
                                           [target](std::string_view s) { write_all(target, s); });
  };
  p.out_fwd = make_fwd(false);
  p.err_fwd = make_fwd(true);
  p.out = std::move(out);
  p.err = std::move(err);
  evutil_make_socket_nonblocking(p.out.get());
  evutil_make_socket_nonblocking(p.err.get());
  p.out_ev.reset(event_new(base_.get(), p.out.get(), EV_READ | EV_PERSIST, on_pipe, &p));
  p.err_ev.reset(event_new(base_.get(), p.err.get(), EV_READ | EV_PERSIST, on_pipe, &p));
  event_add(p.out_ev.get(), nullptr);
  event_add(p.err_ev.get(), nullptr);
  open_pipes_ += 2;
}

void LocalJob::on_pipe(evutil_socket_t fd, short, void *arg) {
  Proc &p = *static_cast<Proc *>(arg);
  LocalJob &job = *g_job;
  bool is_err = fd == p.err.get();
  job.on_output(p, is_err);
}

void LocalJob::on_output(Proc &p, bool is_err) {
  Fd &fd = is_err ? p.err : p.out;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n > 0) {
      (is_err ? p.err_fwd : p.out_fwd)->feed(std::string_view(buf, static_cast<size_t>(n)));
      if (n < static_cast<ssize_t>(sizeof buf)) return;
      continue;
    }
    if (n < 0 && (errno == EINTR)) continue;
    if (n < 0 && errno == EAGAIN) return;
    // EOF or error: the stream is done.
    (is_err ? p.err_fwd : p.out_fwd)->finish();
    (is_err ? p.err_ev : p.out_ev).reset();
    fd.reset();
    --open_pipes_;
    maybe_finish();
    return;
  }
}

// ------------------------------------------------------------------ the table
Proc *LocalJob::find_proc(const std::string &ns, int rank) {
  for (const auto &j : jobs_)
    if (j.nspace == ns) {
      if (rank < 0 || rank >= j.size) return nullptr;
      return &procs_[j.first + static_cast<std::size_t>(rank)];
    }
  return nullptr;
}

std::size_t LocalJob::index_of(const Proc &p) const {
  for (std::size_t i = 0; i < procs_.size(); ++i)
    if (&procs_[i] == &p) return i;
  return 0;
}

void LocalJob::send_signal_to_all(int sig) {
  for (auto &p : procs_)
    if (p.running) ::kill(p.pid, sig);
}

// ------------------------------------------------------------------ ends
void LocalJob::reap() {
  // Collect every child that has ended before judging any: when one proc's
  // death makes a peer fail (its MPI_Finalize fence breaks), both are
  // zombies by now, and the cause must be reported rather than the effect.
  std::vector<ProcEnd> ended;
  for (;;) {
    int st = 0;
    pid_t pid = ::waitpid(-1, &st, WNOHANG);
    if (pid <= 0) break;
    for (auto &p : procs_) {
      if (p.pid != pid || !p.running) continue;
      p.running = false;
      --running_;
      ProcEnd e;
      e.rank = p.job == 0 ? world_offset_ + p.rank : p.rank;
      e.index = static_cast<int>(index_of(p));
      if (p.job != 0)
        e.who = fmt::format("rank {} of {}", p.rank, jobs_[static_cast<size_t>(p.job)].label);
      e.pid = pid;
      e.exited = WIFEXITED(st);
      e.exit_code = e.exited ? WEXITSTATUS(st) : 0;
      e.term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
      read_life(p);
      e.called_init = p.called_init;
      e.called_finalize = p.called_finalize;
      e.life_known = p.life_known;
      base::log_debug("rank {} (pid {}) ended: status 0x{:x}, init {}, finalize {}", p.rank, pid,
                      st, p.called_init, p.called_finalize);
      ended.push_back(e);
      break;
    }
  }
  judge(std::move(ended), false);
}

// What the proc wrote on its life pipe before it ended: exact, where the
// PMIx notices (drain_queue) can arrive after the exit when PMIx's threads
// fall behind (PMIx_Finalize waits only so long for the server's answer;
// seen with 256 procs on 2 cores).
void LocalJob::read_life(Proc &p) {
  if (!p.life) return;
  char buf[64];
  ssize_t n;
  while ((n = ::read(p.life.get(), buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == kLifeInit) p.called_init = p.life_known = true;
      if (buf[i] == kLifeFinalize) p.called_finalize = true;
    }
  p.life.reset();
}

// Decides what each ended proc means for the job. A clean exit without a
// finalize notice is held back once (final == false) for the notice to arrive,
// unless its life pipe has said all there is to say.
void LocalJob::judge(std::vector<ProcEnd> ended, bool final) {
  // A failure now while clean exits are held back: those exits are the
  // likely cause (a peer's MPI_Finalize fence breaks when a proc leaves
  // without it), so they are judged for good, and first.
  bool failure = std::any_of(ended.begin(), ended.end(),
                             [](const ProcEnd &e) { return !e.exited || e.exit_code != 0; });
  if (failure && !unconfirmed_.empty()) {
    drain_queue();
    ended.insert(ended.begin(), unconfirmed_.begin(), unconfirmed_.end());
    unconfirmed_.clear();
    recheck_ev_.reset();
    final = true;
  }
  std::stable_sort(ended.begin(), ended.end(), [](const ProcEnd &a, const ProcEnd &b) {
    return cause_rank(a) < cause_rank(b);
  });
  for (auto &e : ended) {
    e.called_finalize =
        procs_[static_cast<size_t>(e.index)].called_finalize;  // e.index: place in procs_
    if (e.exited && e.exit_code == 0 && e.called_init && !e.called_finalize && !outcome_.ending() &&
        !final && !e.life_known) {
      unconfirmed_.push_back(e);  // judged in on_recheck
      continue;
    }
    auto v = outcome_.on_proc_end(e);
    if (v.end_job) end_job(std::move(v));
  }
  if (!unconfirmed_.empty() && !recheck_ev_) {
    recheck_ev_.reset(evtimer_new(base_.get(), on_recheck, this));
    int64_t ms = base::get_int("finalize_notice_ms");
    timeval tv{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>((ms % 1000) * 1000)};
    evtimer_add(recheck_ev_.get(), &tv);
  }
  maybe_finish();
}

void LocalJob::on_recheck(evutil_socket_t, short, void *arg) {
  auto *job = static_cast<LocalJob *>(arg);
  job->drain_queue();
  std::vector<ProcEnd> pending;
  pending.swap(job->unconfirmed_);
  job->recheck_ev_.reset();
  job->judge(std::move(pending), true);
}

}  // namespace impi::startup::local
