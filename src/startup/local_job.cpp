// local_job.cpp - LocalJob's event loop: setting the job up, the events
// that drive it (PMIx's, signals, the time limit), and its end: tearing
// it down (SIGTERM, then SIGKILL after kill_grace_ms) and cleaning up.
#include "startup/local_job.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <pmix_server.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/launcher.hpp"
#include "startup/session_dir.hpp"
#include "startup/stdin_fanout.hpp"

namespace impi::startup {

namespace local {

LocalJob *g_job = nullptr;

LocalJob::LocalJob(const LaunchOptions &o, const ImpiJob *impi, int agent_end)
    : opts_(o), impi_(impi), agent_end_(agent_end) {
  if (impi_) world_offset_ = static_cast<int>(impi_->first_local_proc());
  proc_env_ = opts_.env;
}

void LocalJob::post(PmixEvent ev) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    queue_.push_back(std::move(ev));
  }
  char c = 0;
  (void)!::write(wake_w_.get(), &c, 1);
}

bool LocalJob::setup_tmpdir() {
  tmpdir_ = create_session_dir();
  if (tmpdir_.empty()) return false;
  if (impi_) {
    // What this client negotiated, for `impi_info --job` while the job runs
    // (the file goes with the session directory).
    std::ofstream f(tmpdir_ + "/impi-job");
    f << fmt::format("# impi job: client {} of {}, impirun pid {}\n", impi_->my_client,
                     impi_->nclients, ::getpid())
      << impi_->describe();
  }
  return true;
}

// The loop, the wake-up pipe PMIx's thread writes to, and the signals.
bool LocalJob::setup_loop() {
  ::signal(SIGPIPE, SIG_IGN);
  base_.reset(event_base_new());
  int w[2];
  if (!base_ || ::pipe2(w, O_CLOEXEC | O_NONBLOCK) != 0) {
    base::log_error("cannot set up the event loop");
    return false;
  }
  wake_r_.reset(w[0]);
  wake_w_.reset(w[1]);
  wake_ev_.reset(event_new(base_.get(), wake_r_.get(), EV_READ | EV_PERSIST, on_wake, this));
  event_add(wake_ev_.get(), nullptr);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    signal_evs_.emplace_back(evsignal_new(base_.get(), s, on_signal, this));
    event_add(signal_evs_.back().get(), nullptr);
  }
  if (agent_end_ >= 0) {
    agent_end_ev_.reset(
        event_new(base_.get(), agent_end_, EV_READ | EV_PERSIST, on_agent_end, this));
    event_add(agent_end_ev_.get(), nullptr);
  }
  return true;
}

// The session directory, the PMIx server, the job's namespace and its
// procs. False when the job could not be started (some procs may run).
bool LocalJob::start_job(const std::string &program) {
  procs_.resize(static_cast<size_t>(opts_.np));
  for (int r = 0; r < opts_.np; ++r) procs_[static_cast<size_t>(r)].rank = r;
  bool ok = setup_tmpdir() && start_pmix_server() && register_job() && plan_binding();
  jobs_.push_back({nspace_, 0, opts_.np, ""});
  auto apps = job_apps(opts_);
  int r = 0;
  for (std::size_t k = 0; ok && k < apps.size(); ++k) {
    const std::string prog = k == 0 ? program : find_program(apps[k].cmd);
    int appnum = apps[k].appnum >= 0 ? apps[k].appnum : static_cast<int>(k);
    for (int i = 0; ok && i < apps[k].np; ++i, ++r)
      ok = launch(procs_[static_cast<size_t>(r)], prog, apps[k], appnum);
  }
  start_stdin_fanout(STDIN_FILENO, std::move(stdin_pipes_));
  return ok;
}

std::vector<SpawnApp> job_apps(const LaunchOptions &opts) {
  std::vector<SpawnApp> apps;
  for (const auto &c : opts.apps) {
    SpawnApp a;
    a.cmd = c.argv[0];
    a.argv = c.argv;
    a.env = c.env;
    a.wdir = c.wdir;
    // (One program: this machine's share of it, which a client on
    // several hosts sets in opts.np.)
    a.np = opts.apps.size() == 1 ? opts.np : c.np;
    a.appnum = c.appnum;
    apps.push_back(std::move(a));
  }
  if (apps.empty()) {  // (options not made by the parser)
    SpawnApp a;
    a.cmd = opts.argv[0];
    a.argv = opts.argv;
    a.np = opts.np;
    apps.push_back(std::move(a));
  }
  return apps;
}

int LocalJob::run() {
  std::string program;
  for (const auto &app : job_apps(opts_)) {
    std::string found = find_program(app.cmd);
    if (found.empty()) {
      base::log_error("cannot find the program '{}'{}", app.cmd,
                      app.cmd.find('/') == std::string::npos
                          ? " in PATH (give a path, e.g. ./" + app.cmd + ")"
                          : " or it is not executable");
      return 1;
    }
    if (program.empty()) program = found;
  }
  host_ = local_hostname();
  if (!setup_loop()) return 1;
  g_job = this;
  if (!start_job(program)) end_job(outcome_.on_launcher_end(1, "the job could not be started"));
  if (opts_.timeout_s > 0) {
    timeout_ev_.reset(evtimer_new(base_.get(), on_timeout, this));
    timeval tv{opts_.timeout_s, 0};
    evtimer_add(timeout_ev_.get(), &tv);
  }
  reap();
  if (running_ > 0 || open_pipes_ > 0) event_base_dispatch(base_.get());
  drain_queue();
  names_.unpublish_all();
  cleanup();
  g_job = nullptr;
  return outcome_.exit_code();
}

// ------------------------------------------------------------------ loop handlers
void LocalJob::on_wake(evutil_socket_t fd, short, void *arg) {
  char buf[256];
  while (::read(fd, buf, sizeof buf) > 0) {
  }
  auto *job = static_cast<LocalJob *>(arg);
  job->drain_queue();
  job->reap();
}

void LocalJob::on_signal(evutil_socket_t sig, short, void *arg) {
  auto *job = static_cast<LocalJob *>(arg);
  if (sig == SIGCHLD) {
    job->drain_queue();  // a finalize notice may precede the exit it explains
    job->reap();
    return;
  }
  int s = static_cast<int>(sig);
  if (!job->outcome_.ending())
    job->send_signal_to_all(s);  // pass the user's signal on first, as mpirun does
  job->end_job(job->outcome_.on_launcher_end(
      128 + s, fmt::format("caught signal {} ({}); ending the job", s, ::strsignal(s))));
}

// Our host agent (impirun -client) ends the job; it has said why.
void LocalJob::on_agent_end(evutil_socket_t fd, short, void *arg) {
  std::uint64_t count;
  while (::read(fd, &count, sizeof count) > 0) {
  }
  auto *job = static_cast<LocalJob *>(arg);
  job->end_job(
      job->outcome_.on_launcher_end(1,
                                    "the host agent lost a peer host or the server (above); "
                                    "ending this client's part of the job"));
}

void LocalJob::on_timeout(evutil_socket_t, short, void *arg) {
  auto *job = static_cast<LocalJob *>(arg);
  job->end_job(job->outcome_.on_launcher_end(
      1, fmt::format("the job ran longer than {} {} s (the time limit); ending it",
                     job->opts_.timeout_from_env ? "MPIEXEC_TIMEOUT" : "--timeout",
                     job->opts_.timeout_s)));
}

void LocalJob::on_grace(evutil_socket_t, short, void *arg) {
  auto *job = static_cast<LocalJob *>(arg);
  if (job->running_ > 0) {
    base::log_debug("grace period over; sending SIGKILL");
    job->send_signal_to_all(SIGKILL);
  } else {
    event_base_loopbreak(job->base_.get());  // children gone, pipes held open elsewhere
  }
}

void LocalJob::drain_queue() {
  std::deque<PmixEvent> q;
  {
    std::lock_guard<std::mutex> lk(mu_);
    q.swap(queue_);
  }
  for (auto &ev : q) {
    base::log_debug("pmix event {} from rank {} of {}", static_cast<int>(ev.kind), ev.rank,
                    ev.nspace);
    if (ev.kind == PmixEvent::spawn) {
      spawn(*ev.spawn_req);
      continue;
    }
    Proc *pp = find_proc(ev.nspace, ev.rank);
    if (!pp) continue;
    Proc &p = *pp;
    switch (ev.kind) {
      case PmixEvent::connected:
        if (base::get_int("finalize_notices") != 0) p.called_init = true;
        break;
      case PmixEvent::finalized:
        if (base::get_int("finalize_notices") != 0) p.called_finalize = true;
        break;
      case PmixEvent::abort:
        if (p.job == 0)
          end_job(outcome_.on_abort(world_offset_ + ev.rank, ev.status, ev.message));
        else
          end_job(outcome_.on_abort(
              fmt::format("rank {} of {}", ev.rank, jobs_[static_cast<size_t>(p.job)].label),
              ev.status, ev.message));
        break;
      case PmixEvent::spawn:
        break;
    }
  }
}

// ------------------------------------------------------------------ the end
void LocalJob::end_job(JobOutcome::Verdict v) {
  if (v.message) base::log_error("{}", *v.message);
  if (!v.end_job || grace_ev_) return;  // already tearing down
  send_signal_to_all(SIGTERM);
  grace_ev_.reset(evtimer_new(base_.get(), on_grace, this));
  timeval tv{};
  int64_t ms = base::get_int("kill_grace_ms");
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  evtimer_add(grace_ev_.get(), &tv);
}

void LocalJob::maybe_finish() {
  if (!unconfirmed_.empty()) return;  // on_recheck decides first
  if (running_ == 0 && open_pipes_ == 0) event_base_loopbreak(base_.get());
  if (running_ == 0 && open_pipes_ > 0 && !grace_ev_) {
    // Every proc is gone but something it started still holds its output
    // pipe: wait one grace period for the rest of the output, then stop.
    grace_ev_.reset(evtimer_new(base_.get(), on_grace, this));
    timeval tv{1, 0};
    evtimer_add(grace_ev_.get(), &tv);
  }
}

void LocalJob::cleanup() {
  recheck_ev_.reset();
  procs_.clear();  // closes pipes and frees their events before the base goes
  // After a teardown (procs killed mid-call), OpenPMIx 4.2.2's progress
  // thread may still be handling the lost connections, and both
  // PMIx_server_deregister_nspace and PMIx_server_finalize were seen to
  // deadlock or crash then. The launcher is about to exit, so it skips
  // them and removes PMIx's files itself (they live in tmpdir_).
  if (!outcome_.ending()) {
    if (nspace_registered_)
      for (const auto &j : jobs_) PMIx_server_deregister_nspace(j.nspace.c_str(), nullptr, nullptr);
    if (pmix_up_) PMIx_server_finalize();
  }
  pmix_up_ = false;
  if (!tmpdir_.empty()) remove_session_dir(tmpdir_);
  for (const auto &j : jobs_) remove_shm_segments(j.nspace);
}

}  // namespace local

int run_local_job(const LaunchOptions &opts) {
  if (opts.verbose) base::set_log_level(base::Level::debug);
  local::LocalJob job(opts, nullptr);
  return job.run();
}

}  // namespace impi::startup
