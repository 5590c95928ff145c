#include "startup/launcher.hpp"

#include <event2/event.h>
#include <fcntl.h>
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
#include <climits>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "base/fd.hpp"
#include "base/log.hpp"
#include "base/sha256.hpp"
#include "base/tunables.hpp"
#include "startup/event_owner.hpp"
#include "startup/exit_policy.hpp"
#include "startup/host_agents.hpp"
#include "startup/impi_client.hpp"
#include "startup/impi_job.hpp"
#include "startup/output.hpp"
#include "startup/placement.hpp"
#include "startup/pm_client.hpp"
#include "startup/pmix_info.hpp"
#include "startup/stdin_fanout.hpp"

extern char **environ;

namespace impi::startup {

using base::Fd;

namespace {

// ------------------------------------------------------------------ small owners
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

// Events posted by PMIx callbacks (any thread) for the loop (main thread).
struct SpawnApp {
  std::string cmd;
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // KEY=VALUE, added to the launcher's
  std::string wdir;               // "" : the launcher's
  int np = 1;
};
// MPI_Comm_spawn(_multiple) as PMIx hands it to us: copied out of PMIx's
// structures on its thread, carried out on ours.
struct SpawnRequest {
  std::string parent_nspace;
  int parent_rank = 0;
  std::vector<SpawnApp> apps;
  pmix_spawn_cbfunc_t cbfunc = nullptr;
  void *cbdata = nullptr;
};

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
  Fd out, err;
  Fd out_file, err_file;  // --output-filename: where its output goes
  EventPtr out_ev, err_ev;
  std::unique_ptr<LineForwarder> out_fwd, err_fwd;
};

std::string find_program(const std::string &prog) {
  if (prog.find('/') != std::string::npos) return ::access(prog.c_str(), X_OK) == 0 ? prog : "";
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string dir = p.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + prog;
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

class LocalJob;
LocalJob *g_job = nullptr;  // the PMIx module callbacks have no user pointer

class LocalJob {
 public:
  // `impi`: the job description of an IMPI client (null for a one-client job).
  LocalJob(const LaunchOptions &o, const ImpiJob *impi) : opts_(o), impi_(impi) {
    if (impi_)
      world_offset_ =
          static_cast<int>(impi_->hosts[static_cast<size_t>(impi_->host_of_me())].first_proc);
  }

  int run();

  // MPI_Publish_name and friends (PMIx publish/lookup/unpublish; called
  // on PMIx's thread, answered at once). Scope: this launcher's jobs.
  // With IMPI_NAME_DIR set, names also live there, one file each, so that
  // the jobs of several impirun invocations that share the directory see
  // them (like MPICH's file name server).
  pmix_status_t publish(const std::string &key, const std::string &value) {
    std::lock_guard<std::mutex> lk(names_mu_);
    if (names_.count(key)) return PMIX_ERR_DUPLICATE_KEY;
    if (std::string f = name_file(key); !f.empty()) {
      std::string tmp = fmt::format("{}.{}.tmp", f, ::getpid());
      {
        Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
        if (!fd ||
            ::write(fd.get(), value.data(), value.size()) != static_cast<ssize_t>(value.size())) {
          ::unlink(tmp.c_str());
          return PMIX_ERROR;
        }
      }
      int rc = ::link(tmp.c_str(), f.c_str());  // fails if another job published the name first
      ::unlink(tmp.c_str());
      if (rc != 0) return errno == EEXIST ? PMIX_ERR_DUPLICATE_KEY : PMIX_ERROR;
    }
    names_.emplace(key, value);
    return PMIX_SUCCESS;
  }
  std::optional<std::string> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lk(names_mu_);
    auto it = names_.find(key);
    if (it != names_.end()) return it->second;
    if (std::string f = name_file(key); !f.empty()) {
      Fd fd(::open(f.c_str(), O_RDONLY | O_CLOEXEC));
      char buf[1024];
      ssize_t n = fd ? ::read(fd.get(), buf, sizeof buf) : -1;
      if (n > 0 && n < static_cast<ssize_t>(sizeof buf))
        return std::string(buf, static_cast<size_t>(n));
    }
    return std::nullopt;
  }
  bool unpublish(const std::string &key) {
    std::lock_guard<std::mutex> lk(names_mu_);
    if (names_.erase(key) == 0) return false;  // only what this launcher's jobs published
    if (std::string f = name_file(key); !f.empty()) ::unlink(f.c_str());
    return true;
  }
  // Names still published when the job ends leave the directory with it.
  void unpublish_all() {
    std::lock_guard<std::mutex> lk(names_mu_);
    for (const auto &[key, value] : names_)
      if (std::string f = name_file(key); !f.empty()) ::unlink(f.c_str());
    names_.clear();
  }

  // Called from PMIx's thread.
  void post(PmixEvent ev) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      queue_.push_back(std::move(ev));
    }
    char c = 0;
    (void)!::write(wake_w_.get(), &c, 1);
  }

 private:
  bool setup_tmpdir();
  bool start_pmix_server();
  bool register_job();
  // Registers namespace `ns` with PMIx: `apps` in order (ranks follow on),
  // `parent` set for a spawned job.
  bool register_nspace(const std::string &ns, const std::vector<SpawnApp> &apps,
                       const pmix_proc_t *parent);
  bool plan_binding();
  bool launch(Proc &p, const std::string &program, const SpawnApp &app, int appnum);
  void spawn(SpawnRequest &req);
  Proc *find_proc(const std::string &ns, int rank);
  std::size_t index_of(const Proc &p) const {
    for (std::size_t i = 0; i < procs_.size(); ++i)
      if (&procs_[i] == &p) return i;
    return 0;
  }
  void drain_queue();
  void reap();
  void end_job(JobOutcome::Verdict v);
  void send_signal_to_all(int sig);
  void maybe_finish();
  void on_output(Proc &p, bool is_err);
  void cleanup();

  static void on_wake(evutil_socket_t fd, short, void *arg);
  static void on_signal(evutil_socket_t sig, short, void *arg);
  static void on_timeout(evutil_socket_t, short, void *arg);
  static void on_grace(evutil_socket_t, short, void *arg);
  static void on_recheck(evutil_socket_t, short, void *arg);
  void judge(std::vector<ProcEnd> ended, bool final);
  static void on_pipe(evutil_socket_t, short, void *arg);

  const LaunchOptions &opts_;
  const ImpiJob *impi_ = nullptr;
  int world_offset_ = 0;  // world rank of our rank 0
  std::string nspace_;
  std::string tmpdir_;
  std::string host_;
  bool pmix_up_ = false;
  bool nspace_registered_ = false;
  EventBasePtr base_;
  Fd wake_r_, wake_w_;
  EventPtr wake_ev_, timeout_ev_, grace_ev_, recheck_ev_;
  // Clean exits of procs whose MPI_Finalize notice has not arrived yet:
  // PMIx may deliver client_finalized after the process is gone, so they
  // are judged again a moment later (finalize_notice_ms).
  std::vector<ProcEnd> unconfirmed_;
  std::vector<EventPtr> signal_evs_;
  std::mutex mu_;
  std::deque<PmixEvent> queue_;
  struct JobRec {
    std::string nspace;
    std::size_t first = 0;  // its rank 0 in procs_
    int size = 0;
    std::string label;  // "" for the job impirun started; else "job impi.X.2 (./prog)"
  };
  std::vector<JobRec> jobs_;
  std::deque<Proc> procs_;  // a deque: handlers hold pointers to procs, and spawns append
  std::mutex names_mu_;
  std::map<std::string, std::string> names_;
  // The file of a name in IMPI_NAME_DIR ("" when unset): its key in hex,
  // so that no service name can reach outside the directory.
  static std::string name_file(const std::string &key) {
    std::string dir = base::get_string("name_dir");
    if (dir.empty()) return "";
    std::string hex;
    for (unsigned char c : key) hex += fmt::format("{:02x}", c);
    if (hex.size() > 200) {  // a file name has at most 255 bytes: long keys go by their digest
      hex = "h";
      for (std::byte b : base::sha256(std::as_bytes(std::span(key.data(), key.size()))))
        hex += fmt::format("{:02x}", std::to_integer<unsigned>(b));
    }
    return dir + "/" + hex;
  }
  std::vector<cpu_set_t> bind_sets_;  // per rank, empty when not binding
  std::vector<Fd> stdin_pipes_;       // --stdin all: each rank's, until the copy starts
  JobOutcome outcome_;
  int running_ = 0;
  int open_pipes_ = 0;
};

// ------------------------------------------------------------------ PMIx module
pmix_status_t cb_client_connected(const pmix_proc_t *p, void *, pmix_op_cbfunc_t, void *) {
  // OpenPMIx 4.2 calls this with cbfunc == NULL: report success synchronously.
  if (g_job) g_job->post({PmixEvent::connected, static_cast<int>(p->rank), 0, {}, p->nspace});
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t cb_client_connected2(const pmix_proc_t *p, void *obj, pmix_info_t[], size_t,
                                   pmix_op_cbfunc_t cbfunc, void *cbdata) {
  return cb_client_connected(p, obj, cbfunc, cbdata);  // PMIx >= 4.2 prefers this entry
}

pmix_status_t cb_client_finalized(const pmix_proc_t *p, void *, pmix_op_cbfunc_t, void *) {
  if (g_job) g_job->post({PmixEvent::finalized, static_cast<int>(p->rank), 0, {}, p->nspace});
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t cb_abort(const pmix_proc_t *p, void *, int status, const char msg[], pmix_proc_t[],
                       size_t, pmix_op_cbfunc_t, void *) {
  if (!g_job) return PMIX_ERR_NOT_SUPPORTED;
  // Queue the abort, then answer at once (OPERATION_SUCCEEDED: no cbfunc).
  // Calling cbfunc later from our own thread raced with PMIx's progress
  // thread (deadlocks and crashes in PMIx_server_deregister_nspace). The
  // client exits right after its PMIx_Abort returns; the queued event is
  // seen before that exit is reaped.
  g_job->post({PmixEvent::abort, static_cast<int>(p->rank), status, msg ? msg : "", p->nspace});
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t cb_spawn(const pmix_proc_t *proc, const pmix_info_t[], size_t,
                       const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                       void *cbdata) {
  if (!g_job || napps == 0) return PMIX_ERR_BAD_PARAM;
  // Copy now (PMIx owns these), launch on our thread (registering a
  // namespace blocks, which PMIx's thread must not).
  auto req = std::make_shared<SpawnRequest>();
  req->parent_nspace = proc->nspace;
  req->parent_rank = static_cast<int>(proc->rank);
  for (size_t i = 0; i < napps; ++i) {
    SpawnApp a;
    a.cmd = apps[i].cmd ? apps[i].cmd : "";
    for (char **v = apps[i].argv; v && *v; ++v) a.argv.emplace_back(*v);
    if (a.argv.empty()) a.argv.push_back(a.cmd);
    for (char **v = apps[i].env; v && *v; ++v) a.env.emplace_back(*v);
    a.wdir = apps[i].cwd ? apps[i].cwd : "";
    a.np = apps[i].maxprocs;
    if (a.cmd.empty() || a.np <= 0 || a.np > 4096) return PMIX_ERR_BAD_PARAM;
    req->apps.push_back(std::move(a));
  }
  req->cbfunc = cbfunc;
  req->cbdata = cbdata;
  PmixEvent ev{PmixEvent::spawn, 0, 0, {}, proc->nspace};
  ev.spawn_req = std::move(req);
  g_job->post(std::move(ev));
  return PMIX_SUCCESS;
}

// Service names are stored under "mpi.service:<name>" (api/dynamic.cpp);
// PMIx's own directives in the same array are skipped.
constexpr std::string_view kServicePrefix = "mpi.service:";

pmix_status_t cb_publish(const pmix_proc_t *, const pmix_info_t info[], size_t ninfo,
                         pmix_op_cbfunc_t cbfunc, void *cbdata) {
  if (!g_job) return PMIX_ERR_NOT_SUPPORTED;
  pmix_status_t st = PMIX_SUCCESS;
  for (size_t i = 0; i < ninfo && st == PMIX_SUCCESS; ++i) {
    std::string_view key(info[i].key);
    if (key.substr(0, kServicePrefix.size()) != kServicePrefix) continue;
    if (info[i].value.type != PMIX_STRING || !info[i].value.data.string) {
      st = PMIX_ERR_BAD_PARAM;
      break;
    }
    st = g_job->publish(std::string(key), info[i].value.data.string);
  }
  if (cbfunc) cbfunc(st, cbdata);  // PMIx queues the reply on its own thread
  return PMIX_SUCCESS;
}

pmix_status_t cb_lookup(const pmix_proc_t *, char **keys, const pmix_info_t[], size_t,
                        pmix_lookup_cbfunc_t cbfunc, void *cbdata) {
  if (!g_job || !keys) return PMIX_ERR_BAD_PARAM;
  std::vector<pmix_pdata_t> found;
  std::vector<std::string> values;
  for (char **k = keys; *k; ++k)
    if (auto v = g_job->lookup(*k))
      values.push_back(*v);
    else
      values.emplace_back();
  std::size_t n = 0;
  for (char **k = keys; *k; ++k, ++n) {
    if (values[n].empty()) continue;
    pmix_pdata_t d;
    PMIX_PDATA_CONSTRUCT(&d);
    PMIX_LOAD_KEY(d.key, *k);
    PMIX_VALUE_LOAD(&d.value, values[n].c_str(), PMIX_STRING);
    found.push_back(d);
  }
  if (cbfunc)
    cbfunc(found.empty() ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS, found.data(), found.size(), cbdata);
  for (auto &d : found) PMIX_VALUE_DESTRUCT(&d.value);
  return PMIX_SUCCESS;
}

pmix_status_t cb_unpublish(const pmix_proc_t *, char **keys, const pmix_info_t[], size_t,
                           pmix_op_cbfunc_t cbfunc, void *cbdata) {
  if (!g_job || !keys) return PMIX_ERR_BAD_PARAM;
  pmix_status_t st = PMIX_SUCCESS;
  for (char **k = keys; *k; ++k)
    if (!g_job->unpublish(*k)) st = PMIX_ERR_NOT_FOUND;
  if (cbfunc) cbfunc(st, cbdata);
  return PMIX_SUCCESS;
}

void release_blob(void *data) {
  free(data);
}

pmix_status_t cb_fence_nb(const pmix_proc_t[], size_t, const pmix_info_t info[], size_t ninfo,
                          char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata) {
  // Only called when PMIx cannot complete a fence locally; with every proc
  // on this node, our contribution is the whole answer (PMIX-NOTES 3).
  pmix_status_t st = PMIX_SUCCESS;
  for (size_t i = 0; i < ninfo; ++i)
    if (PMIX_CHECK_KEY(&info[i], PMIX_LOCAL_COLLECTIVE_STATUS)) st = info[i].value.data.status;
  cbfunc(st, data, ndata, cbdata, release_blob, data);  // PMIx thread-shifts internally
  return PMIX_SUCCESS;
}

pmix_status_t cb_direct_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t,
                              void *) {
  return PMIX_ERR_NOT_SUPPORTED;  // every key is exchanged by the collecting fence
}

// ------------------------------------------------------------------ setup
// Session directories are named impirun.<pid>.XXXXXX. One whose impirun
// was killed outright (SIGKILL: no cleanup ran) is removed by the next
// impirun that starts under the same TMPDIR, once that pid is gone.
void sweep_dead_sessions(const std::string &base) {
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(base, ec)) {
    std::string name = e.path().filename().string();
    long pid = 0;
    char tail[16] = {};
    if (std::sscanf(name.c_str(), "impirun.%ld.%15s", &pid, tail) != 2 || pid <= 0) continue;
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
      continue;  // alive (or not ours to judge)
    base::log_debug("removing the session directory of a killed impirun: {}", e.path().string());
    std::filesystem::remove_all(e.path(), ec);
  }
  // Its procs' shared memory ("impi-impi.<pid>.<n>-..."), if one was killed
  // inside MPI_Init (afterwards the names are gone already).
  for (const auto &e : std::filesystem::directory_iterator("/dev/shm", ec)) {
    long pid = 0;
    if (std::sscanf(e.path().filename().c_str(), "impi-impi.%ld.", &pid) != 1 || pid <= 0) continue;
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0 || st.st_uid != ::geteuid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::filesystem::remove(e.path(), ec);
  }
}

bool LocalJob::setup_tmpdir() {
  const char *tbase = std::getenv("TMPDIR");
  std::string root = tbase && *tbase ? tbase : "/tmp";
  sweep_dead_sessions(root);
  std::string tmpl = fmt::format("{}/impirun.{}.XXXXXX", root, ::getpid());
  if (!::mkdtemp(tmpl.data())) {
    base::log_error("cannot create a session directory under {}: {}", tbase ? tbase : "/tmp",
                    std::strerror(errno));
    return false;
  }
  tmpdir_ = tmpl;
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

bool LocalJob::start_pmix_server() {
  static pmix_server_module_t module{};  // zeroed entries: not supported
  module.client_connected = cb_client_connected;
  module.client_connected2 = cb_client_connected2;
  module.client_finalized = cb_client_finalized;
  module.abort = cb_abort;
  module.fence_nb = cb_fence_nb;
  module.direct_modex = cb_direct_modex;
  module.spawn = cb_spawn;
  module.publish = cb_publish;
  module.lookup = cb_lookup;
  module.unpublish = cb_unpublish;
  InfoList info;
  info.str(PMIX_SERVER_TMPDIR, tmpdir_)
      .str(PMIX_SYSTEM_TMPDIR, tmpdir_)
      .str(PMIX_SERVER_NSPACE, "impirun." + std::to_string(::getpid()))
      .rank(PMIX_SERVER_RANK, 0);
  pmix_status_t rc = PMIx_server_init(&module, info.data(), info.size());
  if (rc != PMIX_SUCCESS) {
    base::log_error("cannot start the PMIx server: {}", PMIx_Error_string(rc));
    return false;
  }
  pmix_up_ = true;
  return true;
}

bool LocalJob::register_job() {
  nspace_ = "impi." + std::to_string(::getpid()) + ".1";
  SpawnApp app;
  app.cmd = opts_.argv[0];
  app.argv = opts_.argv;
  app.np = opts_.np;
  return register_nspace(nspace_, {app}, nullptr);
}

bool LocalJob::register_nspace(const std::string &ns, const std::vector<SpawnApp> &apps,
                               const pmix_proc_t *parent) {
  int n = 0;
  for (const auto &a : apps) n += a.np;
  char *noderegex = nullptr, *ppnregex = nullptr;
  // PMIx 4.2 needs explicit rank lists ("0,1,2"): a range counts as one proc.
  std::string peers;
  for (int r = 0; r < n; ++r) peers += (r ? "," : "") + std::to_string(r);
  if (PMIx_generate_regex(host_.c_str(), &noderegex) != PMIX_SUCCESS ||
      PMIx_generate_ppn(peers.c_str(), &ppnregex) != PMIX_SUCCESS) {
    base::log_error("PMIx could not encode the node map");
    free(noderegex);
    free(ppnregex);
    return false;
  }
  char cwd[PATH_MAX];
  std::string here = ::getcwd(cwd, sizeof cwd) ? cwd : "/";
  const bool spawned = parent != nullptr;

  InfoList job;
  // MPI_UNIVERSE_SIZE: the slots the user gave (--host/--hostfile), at
  // least the job. Without them it is not set, as with MPICH's mpiexec:
  // spawning beyond the cores is allowed (oversubscription), so the cores
  // are no limit to report. PMIX_MAX_PROCS still says the cores.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (opts_.slots > 0)
    job.u32(PMIX_UNIV_SIZE, static_cast<std::uint32_t>(std::max(n, opts_.slots)));
  job.u32(PMIX_MAX_PROCS,
          static_cast<std::uint32_t>(std::max(n, opts_.slots > 0 ? opts_.slots : cores)))
      .str(PMIX_JOBID, ns)
      .u32(PMIX_JOB_SIZE, static_cast<std::uint32_t>(n))
      .u32(PMIX_JOB_NUM_APPS, static_cast<std::uint32_t>(apps.size()))
      .add(PMIX_NODE_MAP, noderegex, PMIX_REGEX)
      .add(PMIX_PROC_MAP, ppnregex, PMIX_REGEX)
      .u32(PMIX_NUM_NODES, 1)
      .flag(PMIX_SPAWNED, spawned);
  if (parent) job.add(PMIX_PARENT_ID, parent, PMIX_PROC);
  free(noderegex);
  free(ppnregex);
  wire::Bytes impi_blob;
  if (impi_ && !spawned) {
    // The IMPI job (all clients' procs, negotiated values) for the procs:
    // PMIx's own job is this client's part of MPI_COMM_WORLD.
    impi_blob = encode_job(*impi_);
    pmix_byte_object_t bo;
    bo.bytes = reinterpret_cast<char *>(impi_blob.data());
    bo.size = impi_blob.size();
    job.add(kImpiJobKey, &bo, PMIX_BYTE_OBJECT);
  }
  InfoList info;
  info.array(PMIX_JOB_INFO_ARRAY, std::move(job));
  int first = 0;
  for (std::size_t k = 0; k < apps.size(); ++k) {
    std::string argvs;
    for (const auto &a : apps[k].argv) argvs += (argvs.empty() ? "" : " ") + a;
    InfoList app;
    app.u32(PMIX_APPNUM, static_cast<std::uint32_t>(k))
        .u32(PMIX_APP_SIZE, static_cast<std::uint32_t>(apps[k].np))
        .rank(PMIX_APPLDR, static_cast<pmix_rank_t>(first))
        .str(PMIX_WDIR, apps[k].wdir.empty() ? here : apps[k].wdir)
        .str(PMIX_APP_ARGV, argvs);
    info.array(PMIX_APP_INFO_ARRAY, std::move(app));
    first += apps[k].np;
  }
  InfoList node;
  node.u32(PMIX_NODEID, 0)
      .str(PMIX_HOSTNAME, host_)
      .u32(PMIX_LOCAL_SIZE, static_cast<std::uint32_t>(n))
      .u32(PMIX_NODE_SIZE, static_cast<std::uint32_t>(n))
      .rank(PMIX_LOCALLDR, 0)
      .str(PMIX_LOCAL_PEERS, peers)
      .str(PMIX_TMPDIR, tmpdir_)
      .str(PMIX_NSDIR, tmpdir_ + "/" + ns);
  info.array(PMIX_NODE_INFO_ARRAY, std::move(node));
  int r = 0;
  for (std::size_t k = 0; k < apps.size(); ++k)
    for (int i = 0; i < apps[k].np; ++i, ++r) {
      InfoList p;  // PMIX_RANK must come first
      p.rank(PMIX_RANK, static_cast<pmix_rank_t>(r))
          .u32(PMIX_APPNUM, static_cast<std::uint32_t>(k))
          .rank(PMIX_APP_RANK, static_cast<pmix_rank_t>(i))
          .rank(PMIX_GLOBAL_RANK, static_cast<pmix_rank_t>(r))
          .u16(PMIX_LOCAL_RANK, static_cast<std::uint16_t>(r))
          .u16(PMIX_NODE_RANK, static_cast<std::uint16_t>(r))
          .u32(PMIX_NODEID, 0)
          .u32(PMIX_REINCARNATION, 0)
          .flag(PMIX_SPAWNED, spawned)
          .str(PMIX_HOSTNAME, host_);
      info.array(PMIX_PROC_INFO_ARRAY, std::move(p));
    }
  // cbfunc == NULL: blocks until done (allowed here: we are not on PMIx's thread).
  pmix_status_t rc =
      PMIx_server_register_nspace(ns.c_str(), n, info.data(), info.size(), nullptr, nullptr);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    base::log_error("PMIx_server_register_nspace: {}", PMIx_Error_string(rc));
    return false;
  }
  if (!spawned) nspace_registered_ = true;
  return true;
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
  return true;
}

// ------------------------------------------------------------------ launching
bool LocalJob::launch(Proc &p, const std::string &program, const SpawnApp &app, int appnum) {
  const int rank = p.rank;
  const JobRec &jr = jobs_[static_cast<size_t>(p.job)];
  const bool spawned = p.job != 0;
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, jr.nspace.c_str(), static_cast<pmix_rank_t>(rank));
  pmix_status_t rc =
      PMIx_server_register_client(&proc, ::geteuid(), ::getegid(), nullptr, nullptr, nullptr);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    base::log_error("PMIx_server_register_client(rank {}): {}", rank, PMIx_Error_string(rc));
    return false;
  }
  // Environment: ours without any PMIx variables of an enclosing job, plus -x.
  std::vector<std::string> vars;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "PMIX_", 5) != 0) vars.emplace_back(*e);
  for (const auto &x : opts_.env) vars.push_back(x);
  for (const auto &x : app.env) vars.push_back(x);
  vars.push_back(fmt::format("IMPI_APPNUM={}", appnum));
  EnvBlock env(vars);
  rc = PMIx_server_setup_fork(&proc, env.address());
  if (rc != PMIX_SUCCESS) {
    base::log_error("PMIx_server_setup_fork(rank {}): {}", rank, PMIx_Error_string(rc));
    return false;
  }
  std::vector<char *> argv;
  for (const auto &a : app.argv) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  const char *wdir = app.wdir.empty() ? nullptr : app.wdir.c_str();

  int out[2], err[2], status_pipe[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 ||
      ::pipe2(status_pipe, O_CLOEXEC) != 0) {
    base::log_error("pipe: {}", std::strerror(errno));
    return false;
  }
  Fd out_r(out[0]), out_w(out[1]), err_r(err[0]), err_w(err[1]), st_r(status_pipe[0]),
      st_w(status_pipe[1]);
  const cpu_set_t *bind =
      bind_sets_.empty() || spawned ? nullptr : &bind_sets_[static_cast<size_t>(rank)];
  // stdin (--stdin): ours for the chosen world rank, a pipe fed with a copy
  // of it for each rank (all), /dev/null for the others and spawned procs.
  const StdinTarget &in = opts_.stdin_target;
  int devnull = -1;
  Fd in_r, in_w;
  if (!spawned && in.kind == StdinTarget::all) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      base::log_error("pipe: {}", std::strerror(errno));
      return false;
    }
    in_r.reset(fds[0]);
    in_w.reset(fds[1]);
    devnull = in_r.get();
  } else if (spawned || in.kind == StdinTarget::none || in.rank != world_offset_ + rank) {
    devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    in_r.reset(devnull);
  }

  const pid_t launcher = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    base::log_error("fork: {}", std::strerror(errno));
    return false;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here to exec (the parent has threads).
    // If the launcher dies (even by SIGKILL), so do we: no orphan keeps
    // polling a job that is gone.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != launcher) ::_exit(127);
    ::dup2(out_w.get(), STDOUT_FILENO);
    ::dup2(err_w.get(), STDERR_FILENO);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    if (bind) ::sched_setaffinity(0, sizeof *bind, bind);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) ::signal(s, SIG_DFL);
    if (wdir && ::chdir(wdir) != 0) {
      int e = errno;
      (void)!::write(st_w.get(), &e, sizeof e);
      ::_exit(127);
    }
    ::execve(program.c_str(), argv.data(), env.get());
    int e = errno;
    (void)!::write(st_w.get(), &e, sizeof e);
    ::_exit(127);
  }
  in_r.reset();
  if (in_w) stdin_pipes_.push_back(std::move(in_w));
  st_w.reset();
  out_w.reset();
  err_w.reset();
  p.pid = pid;
  p.running = true;
  ++running_;
  int child_errno = 0;
  ssize_t n;
  do n = ::read(st_r.get(), &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    base::log_error("cannot execute '{}' for rank {}{}{}: {}", program, rank,
                    jr.label.empty() ? "" : " of ", jr.label, std::strerror(child_errno));
    return false;  // the child _exit()s; reap() collects it
  }

  const int shown_rank = spawned ? rank : world_offset_ + rank;
  if (!opts_.output_dir.empty()) {
    // --output-filename DIR: DIR/<job>/rank.<R>/stdout and stderr (Open MPI 4's layout).
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
  p.out = std::move(out_r);
  p.err = std::move(err_r);
  evutil_make_socket_nonblocking(p.out.get());
  evutil_make_socket_nonblocking(p.err.get());
  p.out_ev.reset(event_new(base_.get(), p.out.get(), EV_READ | EV_PERSIST, on_pipe, &p));
  p.err_ev.reset(event_new(base_.get(), p.err.get(), EV_READ | EV_PERSIST, on_pipe, &p));
  event_add(p.out_ev.get(), nullptr);
  event_add(p.err_ev.get(), nullptr);
  open_pipes_ += 2;
  return true;
}

Proc *LocalJob::find_proc(const std::string &ns, int rank) {
  for (const auto &j : jobs_)
    if (j.nspace == ns) {
      if (rank < 0 || rank >= j.size) return nullptr;
      return &procs_[j.first + static_cast<std::size_t>(rank)];
    }
  return nullptr;
}

// MPI_Comm_spawn(_multiple): a new namespace on this node. Every program is
// found before anything starts, so a missing one fails the spawn (the
// parent gets the error) instead of starting half a job.
void LocalJob::spawn(SpawnRequest &req) {
  auto answer = [&](pmix_status_t st, const char *ns) {
    if (req.cbfunc)
      req.cbfunc(st, const_cast<char *>(ns), req.cbdata);  // PMIx thread-shifts internally
  };
  if (outcome_.ending()) return answer(PMIX_ERR_JOB_TERMINATED, nullptr);
  std::vector<std::string> programs;
  for (const auto &a : req.apps) {
    std::string prog = find_program(a.cmd);
    if (prog.empty()) {
      base::log_warn(
          "MPI_Comm_spawn from rank {} of {}: cannot find the program '{}'{}", req.parent_rank,
          req.parent_nspace, a.cmd,
          a.cmd.find('/') == std::string::npos ? " in PATH" : " or it is not executable");
      return answer(PMIX_ERR_NOT_FOUND, nullptr);
    }
    if (!a.wdir.empty() && ::access(a.wdir.c_str(), X_OK) != 0) {
      base::log_warn("MPI_Comm_spawn: the working directory '{}' cannot be entered: {}", a.wdir,
                     std::strerror(errno));
      return answer(PMIX_ERR_BAD_PARAM, nullptr);
    }
    programs.push_back(prog);
  }
  std::string ns = fmt::format("impi.{}.{}", ::getpid(), jobs_.size() + 1);
  pmix_proc_t parent;
  PMIX_LOAD_PROCID(&parent, req.parent_nspace.c_str(), static_cast<pmix_rank_t>(req.parent_rank));
  if (!register_nspace(ns, req.apps, &parent))
    return answer(PMIX_ERR_JOB_FAILED_TO_LAUNCH, nullptr);
  JobRec jr;
  jr.nspace = ns;
  jr.first = procs_.size();
  for (const auto &a : req.apps) jr.size += a.np;
  jr.label = fmt::format("spawned job {} ({})", ns, req.apps[0].cmd);
  int job = static_cast<int>(jobs_.size());
  jobs_.push_back(jr);
  base::log_debug("spawning {} procs as {} for rank {} of {}", jr.size, ns, req.parent_rank,
                  req.parent_nspace);
  int rank = 0;
  for (std::size_t k = 0; k < req.apps.size(); ++k)
    for (int i = 0; i < req.apps[k].np; ++i, ++rank) {
      procs_.emplace_back();
      Proc &p = procs_.back();
      p.job = job;
      p.rank = rank;
      if (!launch(p, programs[k], req.apps[k], static_cast<int>(k))) {
        // Procs already started are now part of a broken job: end it all,
        // as a failed start of the first job does.
        answer(PMIX_ERR_JOB_FAILED_TO_LAUNCH, nullptr);
        end_job(outcome_.on_launcher_end(1, fmt::format("{} could not be started", jr.label)));
        return;
      }
    }
  answer(PMIX_SUCCESS, ns.c_str());
}

// ------------------------------------------------------------------ loop handlers
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
  if (s == SIGUSR2) {
    job->end_job(
        job->outcome_.on_launcher_end(1,
                                      "the host agent lost a peer host or the server (above); "
                                      "ending this client's part of the job"));
    return;
  }
  if (!job->outcome_.ending())
    job->send_signal_to_all(s);  // pass the user's signal on first, as mpirun does
  job->end_job(job->outcome_.on_launcher_end(
      128 + s, fmt::format("caught signal {} ({}); ending the job", s, ::strsignal(s))));
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
        p.called_init = true;
        break;
      case PmixEvent::finalized:
        p.called_finalize = true;
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
      e.called_init = p.called_init;
      e.called_finalize = p.called_finalize;
      base::log_debug("rank {} (pid {}) ended: status 0x{:x}, init {}, finalize {}", p.rank, pid,
                      st, p.called_init, p.called_finalize);
      ended.push_back(e);
      break;
    }
  }
  judge(std::move(ended), false);
}

// Decides what each ended proc means for the job. A clean exit without a
// finalize notice is held back once (final == false) for the notice to arrive.
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
        !final) {
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

void LocalJob::send_signal_to_all(int sig) {
  for (auto &p : procs_)
    if (p.running) ::kill(p.pid, sig);
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
  if (!tmpdir_.empty()) {
    // When the job was torn down, PMIx's progress thread is still running
    // and may be adding a data segment under tmpdir_ while it is removed
    // (the rmdir then fails: not empty; seen once in CI). Try again a few
    // times: once the directory itself is gone, nothing can be added.
    for (int attempt = 0; attempt < 50; ++attempt) {
      std::error_code ec;
      std::filesystem::remove_all(tmpdir_, ec);
      if (!std::filesystem::exists(tmpdir_, ec) && !ec) break;
      ::usleep(10000);
    }
  }
  // Shared-memory segments of our procs ("/impi-<nspace>-<rank>-<pid>"):
  // a proc removes its own once its peers have mapped it, but one killed
  // during MPI_Init may not have; nothing of the job may outlive it.
  for (const auto &j : jobs_) {
    std::string prefix = "impi-" + j.nspace + "-";
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator("/dev/shm", ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0) std::filesystem::remove(e.path(), ec);
  }
}

int LocalJob::run() {
  std::string program = find_program(opts_.argv[0]);
  if (program.empty()) {
    base::log_error("cannot find the program '{}'{}", opts_.argv[0],
                    opts_.argv[0].find('/') == std::string::npos
                        ? " in PATH (give a path, e.g. ./" + opts_.argv[0] + ")"
                        : " or it is not executable");
    return 1;
  }
  host_ = local_hostname();
  ::signal(SIGPIPE, SIG_IGN);
  base_.reset(event_base_new());
  int w[2];
  if (!base_ || ::pipe2(w, O_CLOEXEC | O_NONBLOCK) != 0) {
    base::log_error("cannot set up the event loop");
    return 1;
  }
  wake_r_.reset(w[0]);
  wake_w_.reset(w[1]);
  wake_ev_.reset(event_new(base_.get(), wake_r_.get(), EV_READ | EV_PERSIST, on_wake, this));
  event_add(wake_ev_.get(), nullptr);
  // SIGUSR2: our host agent (impirun -client) ends the job; it has said why.
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2}) {
    signal_evs_.emplace_back(evsignal_new(base_.get(), s, on_signal, this));
    event_add(signal_evs_.back().get(), nullptr);
  }
  g_job = this;
  procs_.resize(static_cast<size_t>(opts_.np));
  for (int r = 0; r < opts_.np; ++r) procs_[static_cast<size_t>(r)].rank = r;
  bool ok = setup_tmpdir() && start_pmix_server() && register_job() && plan_binding();
  jobs_.push_back({nspace_, 0, opts_.np, ""});
  SpawnApp app;
  app.cmd = opts_.argv[0];
  app.argv = opts_.argv;
  app.np = opts_.np;
  for (int r = 0; ok && r < opts_.np; ++r)
    ok = launch(procs_[static_cast<size_t>(r)], program, app, 0);
  start_stdin_fanout(STDIN_FILENO, std::move(stdin_pipes_));
  if (!ok) end_job(outcome_.on_launcher_end(1, "the job could not be started"));
  if (opts_.timeout_s > 0) {
    timeout_ev_.reset(evtimer_new(base_.get(), on_timeout, this));
    timeval tv{opts_.timeout_s, 0};
    evtimer_add(timeout_ev_.get(), &tv);
  }
  reap();
  if (running_ > 0 || open_pipes_ > 0) event_base_dispatch(base_.get());
  drain_queue();
  unpublish_all();
  cleanup();
  g_job = nullptr;
  return outcome_.exit_code();
}

}  // namespace

int run_local_job(const LaunchOptions &opts) {
  if (opts.verbose) base::set_log_level(base::Level::debug);
  LocalJob job(opts, nullptr);
  return job.run();
}

namespace {
const char *lookup_env(const char *n) {
  return std::getenv(n);
}
}  // namespace

namespace {
// This host's part of an IMPI job, once the dance is done: the host agent
// (watching `watched`: descriptors that must stay open, and what they are)
// and our procs. Stops the agent without FINI when the procs failed.
// Returns their exit status (1: the agent could not start).
int run_this_host(const LaunchOptions &opts, ImpiJob &job, std::vector<base::Fd> &channels,
                  const AgentHooks &agent,
                  const std::vector<std::pair<int, std::string>> &watched) {
  // While the procs run, LocalJob's loop handles termination signals (it
  // passes them on). Once they are gone, what is left (the FINI exchanges)
  // is bounded by a deadline, and a late SIGTERM from a supervisor must not
  // replace our status: libevent restores the disposition it found, so
  // ignoring the signals now makes them ignored after the loop, in every
  // thread (PMIx's too). The procs get default dispositions back at fork.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2}) ::signal(sig, SIG_IGN);
  if (agent.start) {
    if (agent.watch_server)
      for (const auto &[fd, what] : watched) agent.watch_server(fd, what);
    if (auto s = agent.start(channels, job); !s.ok()) {
      base::log_error("the host agent could not start: {}", s.message());
      return 1;
    }
  }
  int rc = 0;
  {
    LocalJob local(opts, &job);
    rc = local.run();
  }
  if (rc != 0 && agent.stop) agent.stop();
  return rc;
}
}  // namespace

int run_client_job(const LaunchOptions &opts_in, const AgentHooks &agent) {
  const LaunchOptions *optp = &opts_in;
  if (opts_in.verbose) base::set_log_level(base::Level::debug);
  base::set_log_prefix(fmt::format("impirun[client {}]", opts_in.client->rank));
  ::signal(SIGPIPE, SIG_IGN);
  auto auth = auth_from_env(lookup_env);
  if (!auth) {
    base::log_error("{}", auth.message());
    return 1;
  }
  if (auth->mask() == 0) {
    base::log_error("{}", kNoAuthMessage);
    return 1;
  }
  auto server = net::parse_endpoint(opts_in.client->server);
  if (!server) {
    base::log_error("{}", server.message());
    return 1;
  }
  // --address may name the host: the IMPI wire carries its IP address.
  std::string address = opts_in.impi.address;
  if (!address.empty()) {
    auto ip = net::resolve_one(address);
    if (!ip) {
      base::log_error("--address: {}", ip.message());
      return 1;
    }
    address = *ip;
  }
  auto deadline = net::Clock::now() + std::chrono::seconds(opts_in.impi.startup_timeout_s);
  auto client = ImpiClient::join(*server, opts_in.client->rank, address, *auth, deadline);
  if (!client) {
    base::log_error("{}", client.message());
    return 1;
  }
  auto port = client->listen();
  if (!port) {
    base::log_error("cannot listen on {}: {}", client->address(), port.message());
    return 1;
  }
  auto addr = wire::parse_address(client->address());
  if (!addr) {
    base::log_error("{}", addr.message());
    return 1;
  }
  // A client on several hosts: this machine is host 0; the agents of the
  // others start now and report their addresses and ports (host_agents.hpp).
  LaunchOptions local_opts = opts_in;
  std::vector<RemoteHost> remotes;
  if (!opts_in.remote_hosts.empty()) {
    auto counts = place_procs(opts_in.np, opts_in.slots, opts_in.remote_hosts);
    local_opts.np = counts[0];
    char exe[4096] = {};
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    auto r = start_host_agents(opts_in, opts_in.remote_hosts, counts, client->address(),
                               n > 0 ? exe : "impirun", deadline);
    if (!r) {
      base::log_error("{}", r.message());
      return 1;
    }
    remotes = std::move(r.value());
  }
  optp = &local_opts;
  const LaunchOptions &opts = *optp;
  struct EndRemotes {  // whatever happens, no agent outlives us unreaped
    std::vector<RemoteHost> &r;
    bool failed = true;
    ~EndRemotes() { end_host_agents(r, failed); }
  } end_remotes{remotes};
  ClientAdvert a;
  a.datalen = static_cast<std::uint32_t>(opts.impi.datalen);
  a.tagub = static_cast<std::int32_t>(opts.impi.tag_ub);
  a.xsize = static_cast<std::int32_t>(opts.impi.coll_xsize);
  a.maxlinear = static_cast<std::int32_t>(opts.impi.coll_maxlinear);
  HostAdvert h;
  h.address = *addr;
  h.port = *port;
  h.nprocs = static_cast<std::uint32_t>(opts.np);
  h.ackmark = static_cast<std::uint32_t>(opts.impi.ackmark);
  h.hiwater = static_cast<std::uint32_t>(opts.impi.hiwater);
  a.hosts.push_back(h);
  // P_PID: unique among procs sharing our address, across clients on one
  // machine too: our own pid (unique here) and the local index.
  for (int r = 0; r < opts.np; ++r)
    a.procs.push_back({*addr, (static_cast<std::int64_t>(::getpid()) << 20) + r});
  for (const auto &rh : remotes) {
    auto raddr = wire::parse_address(rh.address);
    if (!raddr) {
      base::log_error("host {}: {}", rh.name, raddr.message());
      return 1;
    }
    HostAdvert x = h;
    x.address = *raddr;
    x.port = rh.port;
    x.nprocs = static_cast<std::uint32_t>(rh.nprocs);
    a.hosts.push_back(x);
    for (int r = 0; r < rh.nprocs; ++r) a.procs.push_back({*raddr, (rh.pid << 20) + r});
  }
  auto job = client->exchange(a, deadline);
  if (!job) {
    base::log_error("IMPI startup failed: {}", job.message());
    return 1;
  }
  job->my_host = job->first_host_of(job->my_client);
  for (std::size_t i = 0; i < remotes.size(); ++i)
    if (auto s = send_job(remotes[i], *job, job->my_host + 1 + static_cast<int>(i), deadline);
        !s.ok()) {
      base::log_error("host {}: {}", remotes[i].name, s.message());
      return 1;
    }
  base::log_debug("startup complete: {} clients, {} procs, world ranks {}..{} are ours",
                  job->nclients, job->procs.size(), job->world_offset(job->my_client),
                  job->world_offset(job->my_client) + static_cast<std::uint32_t>(opts_in.np) - 1);
  auto channels = client->dance(*job, deadline);
  if (!channels) {
    base::log_error("{}", channels.message());
    return 1;
  }
  std::vector<std::pair<int, std::string>> watched{
      {client->server_fd(), "the IMPI server " + opts.client->server}};
  for (auto &rh : remotes) watched.emplace_back(rh.ctl.get(), "the agent of host " + rh.name);
  if (int rc = run_this_host(opts, *job, *channels, agent, watched); rc != 0)
    return rc;  // no FINI: the server reports our failure
  // Our channels' FINI, then every other host's DONE, then the server's FINI.
  auto s =
      client->finish(*channels, *job, net::Clock::now() + std::chrono::seconds(30),
                     [&](std::vector<base::Fd> &ch, const ImpiJob &j, net::Clock::time_point dl) {
                       base::Status st = agent.close ? agent.close(ch, j, dl) : base::Status{};
                       if (st.ok() && !remotes.empty()) st = wait_done(remotes, dl);
                       return st;
                     });
  if (!s.ok()) {
    base::log_error("shutdown: {}", s.message());
    return 1;
  }
  end_remotes.failed = false;
  return 0;
}

// `impirun --host-agent ADDR:PORT --host-token T -np N -- prog`: the agent
// and procs of one more host of a client (host_agents.hpp).
int run_host_agent(const LaunchOptions &opts, const AgentHooks &agent) {
  if (opts.verbose) base::set_log_level(base::Level::debug);
  ::signal(SIGPIPE, SIG_IGN);
  auto deadline = net::Clock::now() + std::chrono::seconds(opts.impi.startup_timeout_s);
  auto link = contact_coordinator(*opts.host_agent, deadline);
  if (!link) {
    base::log_error("{}", link.message());
    return 1;
  }
  auto job = receive_job(link->ctl.get(), deadline);
  if (!job) {
    base::log_error("{}", job.message());
    return 1;
  }
  base::set_log_prefix(fmt::format("impirun[client {} host {}]", job->my_client, job->my_host));
  if (job->hosts[static_cast<std::size_t>(job->my_host)].nprocs !=
      static_cast<std::uint32_t>(opts.np)) {
    base::log_error("the job gives this host {} procs, not {}",
                    job->hosts[static_cast<std::size_t>(job->my_host)].nprocs, opts.np);
    return 1;
  }
  auto channels = dance_as_host(job->my_host, link->listener, link->address, *job, deadline);
  if (!channels) {
    base::log_error("{}", channels.message());
    return 1;
  }
  if (int rc = run_this_host(
          opts, *job, *channels, agent,
          {{link->ctl.get(), "the client's impirun at " + opts.host_agent->coordinator}});
      rc != 0) {
    send_done(link->ctl.get(), false);
    return rc;
  }
  base::Status s = agent.close
                       ? agent.close(*channels, *job, net::Clock::now() + std::chrono::seconds(30))
                       : base::Status{};
  if (!s.ok()) base::log_error("shutdown: {}", s.message());
  send_done(link->ctl.get(), s.ok());
  return s.ok() ? 0 : 1;
}

}  // namespace impi::startup
