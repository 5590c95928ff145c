// multi_client.cpp - `impirun -np N --clients K`: the everyday way to run a
// multi-client IMPI job on one machine. Starts `impirun -server K` on
// 127.0.0.1 and K `impirun -client i` processes (this same program), with a
// fresh random IMPI_AUTH_KEY that only they see, then supervises them.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/launch_options.hpp"
#include "startup/launcher.hpp"
#include "startup/net.hpp"
#include "startup/placement.hpp"
#include "startup/rendezvous_server.hpp"
#include "startup/session_dir.hpp"
#include "startup/stdin_fanout.hpp"
#include "transport/impi/agent_link.hpp"

extern char **environ;

namespace impi::startup {

namespace {

struct Child {
  pid_t pid = -1;
  std::string what;  // "server", "client 1"
  bool running = false;
};

// stdin_fd: -1 keeps ours; else the child's stdin.
pid_t spawn(const std::string &exe, const std::vector<std::string> &args,
            const std::vector<std::string> &env, int stdout_fd, int stdin_fd = -1) {
  std::vector<char *> argv, envp;
  argv.push_back(const_cast<char *>(exe.c_str()));
  for (auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  for (auto &e : env) envp.push_back(const_cast<char *>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server and clients end with us
    if (::getppid() != parent) ::_exit(127);
    if (stdout_fd >= 0) ::dup2(stdout_fd, STDOUT_FILENO);
    if (stdin_fd >= 0) ::dup2(stdin_fd, STDIN_FILENO);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(exe.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  return pid;
}

// Supervise: the first failure ends the rest. The status reported is the
// first failure that is not a consequence of another: clients fail with 1
// for launcher-level errors (a peer host's channel reset) and with
// 128+SIGTERM when we end them, so a proc's own exit code is preferred.
// `set`: the signals blocked for sigtimedwait.
// `timeout_s` (> 0): the job's time limit, enforced here too, as the
// clients' own timers start only once IMPI startup is done.
int supervise(std::vector<Child> &children, const sigset_t &set, int timeout_s = 0,
              const char *timeout_name = "--timeout") {
  auto kill_all = [&](int sig) {
    for (auto &c : children)
      if (c.running) ::kill(c.pid, sig);
  };
  int rc = 0, primary_rc = 0;
  bool ending = false;
  auto running = [&] {
    int n = 0;
    for (auto &c : children) n += c.running;
    return n;
  };
  auto grace_ms = base::get_int("kill_grace_ms");
  timespec ending_since{}, started{};
  ::clock_gettime(CLOCK_MONOTONIC, &started);
  while (running() > 0) {
    if (timeout_s > 0 && !ending) {
      timespec now;
      ::clock_gettime(CLOCK_MONOTONIC, &now);
      // A moment longer than the clients' own limit, so that they report it.
      if (now.tv_sec - started.tv_sec > timeout_s + 2) {
        base::log_error("the job ran longer than {} {} s (the time limit); ending it", timeout_name,
                        timeout_s);
        rc = 1;
        ending = true;
        ending_since = now;
        kill_all(SIGTERM);
      }
    }
    timespec tick{0, 200 * 1000 * 1000};
    int sig = ::sigtimedwait(&set, nullptr, &tick);
    if (sig > 0 && sig != SIGCHLD) {
      base::log_error("caught signal {} ({}); ending the job", sig, ::strsignal(sig));
      if (!ending) rc = 128 + sig;
      ending = true;
      ::clock_gettime(CLOCK_MONOTONIC, &ending_since);
      kill_all(sig);
    }
    for (;;) {
      int st = 0;
      pid_t pid = ::waitpid(-1, &st, WNOHANG);
      if (pid <= 0) break;
      for (auto &c : children) {
        if (c.pid != pid || !c.running) continue;
        c.running = false;
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        base::log_debug("{} ended with status {}", c.what, code);
        if (code != 0 && code != 1 && code != 128 + SIGTERM && primary_rc == 0) primary_rc = code;
        if (code != 0 && !ending) {
          rc = code;
          ending = true;
          ::clock_gettime(CLOCK_MONOTONIC, &ending_since);
          base::log_debug("{} failed (status {}); ending the other clients", c.what, code);
          kill_all(SIGTERM);
        }
      }
    }
    if (ending) {
      timespec now;
      ::clock_gettime(CLOCK_MONOTONIC, &now);
      auto ms = (now.tv_sec - ending_since.tv_sec) * 1000 +
                (now.tv_nsec - ending_since.tv_nsec) / 1000000;
      if (ms > grace_ms + 2000) kill_all(SIGKILL);
    }
  }
  return primary_rc != 0 ? primary_rc : rc;
}

}  // namespace

namespace {
// The address client i advertises: 127.0.0.(i+1), so that hosts on one
// machine stay distinguishable by address (LAM/MPI identifies hosts that
// way). A client whose hosts include other machines (in a Slurm
// allocation) uses IMPI_HOST_ADDRESS or the machine's primary address.
std::string client_address(const LaunchOptions &opts, int i) {
  if (opts.remote_hosts.empty()) return "127.0.0." + std::to_string(i + 1);
  std::string a = base::get_string("host_address");
  return a.empty() ? net::primary_address() : a;
}

// Blocks the signals the supervisor takes synchronously (sigtimedwait).
sigset_t block_supervised_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
  ::sigprocmask(SIG_BLOCK, &set, nullptr);
  return set;
}

void kill_all(std::vector<Child> &children, int sig) {
  for (auto &c : children)
    if (c.running) ::kill(c.pid, sig);
}

// Starts the server (`exe` with `args`) as the first of `children` and
// reads the address it prints first. "" when it printed none within 10 s;
// nullopt when it could not be started (reported).
std::optional<std::string> start_server(const std::string &exe,
                                        const std::vector<std::string> &args,
                                        const std::vector<std::string> &env,
                                        std::vector<Child> &children) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    base::log_error("pipe: {}", std::strerror(errno));
    return std::nullopt;
  }
  pid_t spid = spawn(exe, args, env, pipefd[1]);
  ::close(pipefd[1]);
  children.push_back({spid, "server", spid > 0});
  std::string line;
  char c;
  pollfd p{pipefd[0], POLLIN, 0};
  while (line.size() < 128) {
    if (::poll(&p, 1, 10000) <= 0) break;
    if (::read(pipefd[0], &c, 1) != 1 || c == '\n') break;
    line += c;
  }
  ::close(pipefd[0]);
  return line;
}

// Kills what was started and collects it: the server did not start.
int server_failed(std::vector<Child> &children, const char *what) {
  base::log_error("{} did not start", what);
  kill_all(children, SIGKILL);
  while (::waitpid(-1, nullptr, 0) > 0) {
  }
  return 1;
}

// Our environment for the server and clients, with a fresh key: 64 random
// bits, passed only through our children's environment. Empty when no key
// could be drawn (reported).
std::vector<std::string> environment_with_key() {
  std::uint64_t key = 0;
  if (::getrandom(&key, sizeof key, 0) != sizeof key) {
    base::log_error("cannot draw a random authentication key: {}", std::strerror(errno));
    return {};
  }
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "IMPI_AUTH_", 10) != 0) env.emplace_back(*e);
  env.push_back("IMPI_AUTH_KEY=" + std::to_string(key));
  return env;
}

// The arguments of client i, with n procs from world rank `offset` on.
std::vector<std::string> client_args(const LaunchOptions &opts, const std::string &server, int i,
                                     int n, int offset) {
  // Binding is decided for the whole machine, not per client: each client
  // binds from its core offset on. Normally that offset is the client's
  // first world rank, round robin. When the clients' procs outnumber the
  // cores (and no binding was asked for):
  // - clients of several procs bind in contiguous blocks of the machine's
  //   procs (--core-blocks), so that a client's procs share cores with each
  //   other rather than with other clients' procs. A master waiting on
  //   another client then knows the procs beside it wait for it, and polls
  //   without yielding to them (P2P::siblings_stalled). -np 4 --clients 2
  //   on 2 cores: Allreduce 8 B 15.1-15.3 us against 16.6-17.0 round
  //   robin, Barrier 13.5-13.8 against 14.7-16.0 (2x1: 10.7-11.2, 9.7-10.2).
  // - clients of one proc each start at core i: from the world offset the
  //   k-th procs of the clients (partners of symmetric exchanges, masters
  //   in collectives) would share a core (8 B between ranks 0 and 2 of -np
  //   4 --clients 2: 8.4 us against 5.6-5.8 from the client index).
  const bool crowded = opts.bind == BindPolicy::automatic && opts.np > machine_slots();
  const bool blocks = crowded && opts.np > opts.clients;
  const int first = opts.core_offset + (crowded && !blocks ? i : offset);
  std::vector<std::string> a = {"-client",
                                std::to_string(i),
                                server,
                                "-np",
                                std::to_string(n),
                                "--address",
                                client_address(opts, i),
                                "--core-offset",
                                std::to_string(first)};
  if (blocks) a.insert(a.end(), {"--core-blocks", std::to_string(opts.np)});
  auto fwd = forwarded_options(opts);
  a.insert(a.end(), fwd.begin(), fwd.end());
  // Every client knows the whole job's process sets (world ranks).
  for (const auto &p : app_psets(opts.apps)) {
    std::string ranks;
    for (int r : p.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    a.insert(a.end(), {"--world-pset", p.name + "=" + ranks});
  }
  // This client's slice of the app contexts: world ranks offset..offset+n-1.
  int first_rank = 0;
  bool first_slice = true;
  for (std::size_t k = 0; k < opts.apps.size(); ++k) {
    const AppContext &app = opts.apps[k];
    int lo = std::max(first_rank, offset), hi = std::min(first_rank + app.np, offset + n);
    first_rank += app.np;
    if (lo >= hi) continue;
    if (first_slice)
      a[4] = std::to_string(hi - lo);  // (the "-np" value above: the first program's count)
    else
      a.insert(a.end(), {":", "-np", std::to_string(hi - lo)});
    a.insert(a.end(), {"--appnum", std::to_string(app.appnum >= 0 ? app.appnum : k)});
    if (!app.wdir.empty()) a.insert(a.end(), {"--wdir", app.wdir});
    for (const auto &x : app.env) a.insert(a.end(), {"--app-x", x});
    a.push_back("--");
    a.insert(a.end(), app.argv.begin(), app.argv.end());
    first_slice = false;
  }
  if (opts.apps.empty()) {  // (options not made by the parser)
    a.push_back("--");
    a.insert(a.end(), opts.argv.begin(), opts.argv.end());
  }
  return a;
}

// Refuses what --clients cannot do; false (reported) then.
bool check_multi_client(const LaunchOptions &opts) {
  if (opts.impi.address != base::get_string("host_address")) {  // --address given
    base::log_error(
        "--address (IMPI_HOST_ADDRESS) names the address of one client; --clients {} runs every "
        "client on this machine over 127.0.0.x (use -server and -client for other addresses)",
        opts.clients);
    return false;
  }
  // (With other hosts, the slots of all were checked with the options.)
  if (auto st = check_oversubscription(opts, opts.np); opts.remote_hosts.empty() && !st.ok()) {
    base::log_error("{}", st.message());
    return false;
  }
  return true;
}
}  // namespace

int run_multi_client_job(const LaunchOptions &opts, const char *self_exe) {
  if (opts.verbose) base::set_log_level(base::Level::debug);
  std::string exe = self_exe;
  const int k = opts.clients;
  if (!check_multi_client(opts)) return 1;
  std::vector<std::string> env = environment_with_key();
  if (env.empty()) return 1;
  // Every proc learns how many share this machine (waiting politely when
  // they outnumber the cores, though each client alone would not).
  // (A value the user set wins.)
  auto unset = [&env](const char *name) {
    const std::string prefix = std::string(name) + "=";
    return std::none_of(env.begin(), env.end(),
                        [&](const std::string &e) { return e.rfind(prefix, 0) == 0; });
  };
  if (unset("IMPI_MACHINE_PROCS")) env.push_back("IMPI_MACHINE_PROCS=" + std::to_string(opts.np));
  // (MPI_INFO_ENV's maxprocs: the command's procs, not the client's share.)
  if (unset("IMPI_MAXPROCS")) env.push_back("IMPI_MAXPROCS=" + std::to_string(opts.np));
  // Split hosts give every proc its own IMPI host, and each host's proc
  // takes the channels to all the others in one message (at most
  // kMaxDirectChannels descriptors): a bigger job keeps one host per
  // machine (a value the user set wins, and is refused then if too big).
  if (opts.np > static_cast<int>(transport::wire::agent_link::kMaxDirectChannels) + 1 &&
      unset("IMPI_SPLIT_HOSTS")) {
    base::log_debug("{} procs: more hosts than direct channels can serve; IMPI_SPLIT_HOSTS=0",
                    opts.np);
    env.push_back("IMPI_SPLIT_HOSTS=0");
  }
  // Names published in one client are looked up in the others: the
  // clients share a directory of names (the name service's files, as
  // between separate impiruns with IMPI_NAME_DIR), this job's own, removed
  // at its end (or, if we die, by the next impirun's sweep of dead
  // sessions). Only when every client runs on this machine.
  struct OwnDir {
    std::string path;
    ~OwnDir() {
      if (!path.empty()) remove_session_dir(path);
    }
  } names;
  if (opts.remote_hosts.empty() && unset("IMPI_NAME_DIR")) {
    names.path = create_session_dir();
    if (!names.path.empty()) env.push_back("IMPI_NAME_DIR=" + names.path);
  }
  sigset_t set = block_supervised_signals();
  std::vector<Child> children;

  // The server, on loopback: this whole job stays on this machine.
  std::vector<std::string> sargs = {
      "-server",   std::to_string(k),   "--address",
      "127.0.0.1", "--startup-timeout", std::to_string(opts.impi.startup_timeout_s)};
  if (opts.verbose) sargs.push_back("-v");
  auto line = start_server(exe, sargs, env, children);
  if (!line) return 1;
  if (line->empty()) return server_failed(children, "the embedded IMPI server");
  base::log_debug("embedded server at {}", *line);

  // stdin: the clients inherit ours (only the one with the chosen rank
  // reads it), or, for --stdin all, each reads a pipe with a copy of it.
  std::vector<base::Fd> stdin_pipes, stdin_ends;
  if (opts.stdin_target.kind == StdinTarget::all)
    for (int i = 0; i < k; ++i) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) {
        base::log_error("pipe: {}", std::strerror(errno));
        kill_all(children, SIGKILL);
        return 1;
      }
      stdin_ends.emplace_back(fds[0]);
      stdin_pipes.emplace_back(fds[1]);
    }

  // K clients, processes split as evenly as possible, client 0 first.
  int base_np = opts.np / k, extra = opts.np % k, offset = 0;
  for (int i = 0; i < k; ++i) {
    int n = base_np + (i < extra ? 1 : 0);
    int in = stdin_ends.empty() ? -1 : stdin_ends[static_cast<std::size_t>(i)].get();
    pid_t pid = spawn(exe, client_args(opts, *line, i, n, offset), env, -1, in);
    children.push_back({pid, "client " + std::to_string(i), pid > 0});
    offset += n;
  }
  stdin_ends.clear();
  start_stdin_fanout(STDIN_FILENO, std::move(stdin_pipes));
  return supervise(children, set, opts.timeout_s,
                   opts.timeout_from_env ? "MPIEXEC_TIMEOUT" : "--timeout");
}

namespace {
// An executable named like `name` in PATH ("" if none).
std::string in_path(const std::string &name) {
  if (name.find('/') != std::string::npos) return name;
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  for (std::size_t at = 0; at <= p.size();) {
    std::size_t colon = p.find(':', at);
    std::string dir = p.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    at = colon == std::string::npos ? p.size() + 1 : colon + 1;
    std::string cand = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(cand.c_str(), X_OK) == 0) return cand;
  }
  return "";
}

// A line of the application file (IMPI 2.2.3): "HOST -client R $hostport ...".
struct AppLine {
  std::string host;
  std::vector<std::string> args;
};

// The application file's client lines; nullopt (reported) when it cannot
// be read, a line is malformed, or it lists another number of clients.
std::optional<std::vector<AppLine>> read_appfile(const ServerOptions &o) {
  std::vector<AppLine> lines;
  std::ifstream f(o.appfile);
  if (!f) {
    base::log_error("cannot read the application file {}: {}", o.appfile, std::strerror(errno));
    return std::nullopt;
  }
  std::string text;
  for (int lineno = 1; std::getline(f, text); ++lineno) {
    std::istringstream words(text.substr(0, text.find('#')));
    AppLine l;
    if (!(words >> l.host)) continue;
    for (std::string w; words >> w;) l.args.push_back(w);
    if (l.args.empty() || (l.args[0] != "-client" && l.args[0] != "--client")) {
      base::log_error("{}:{}: expected \"HOST -client R $hostport [options] program [args]\"",
                      o.appfile, lineno);
      return std::nullopt;
    }
    lines.push_back(std::move(l));
  }
  if (static_cast<int>(lines.size()) != o.nclients) {
    base::log_error("{} lists {} clients, but -server {} expects {}", o.appfile, lines.size(),
                    o.nclients, o.nclients);
    return std::nullopt;
  }
  return lines;
}

// Starts the client of line `l` (its $hostport filled in): here, or on
// another machine through the launch agent (ssh by default), with impirun
// found in that machine's PATH. Returns its pid (<= 0: it did not start).
pid_t start_app_client(AppLine &l, const std::string &exe, const std::vector<std::string> &env,
                       const std::string &hostport) {
  for (auto &a : l.args)
    for (const char *token : {"${hostport}", "$hostport"})
      for (std::size_t at; (at = a.find(token)) != std::string::npos;)
        a.replace(at, std::strlen(token), hostport);
  if (is_this_host(l.host)) return spawn(exe, l.args, env, -1);
  const char *agent_env = std::getenv("IMPI_LAUNCH_AGENT");
  std::istringstream aw(agent_env && *agent_env ? agent_env : "ssh");
  std::vector<std::string> agent;
  for (std::string w; aw >> w;) agent.push_back(w);
  std::string prog = in_path(agent[0]);
  if (prog.empty()) {
    base::log_error("cannot find the launch agent '{}' for host {} (set IMPI_LAUNCH_AGENT)",
                    agent[0], l.host);
    return -1;
  }
  std::vector<std::string> a(agent.begin() + 1, agent.end());
  a.push_back(l.host);
  a.push_back("impirun");
  a.insert(a.end(), l.args.begin(), l.args.end());
  return spawn(prog, a, env, -1);
}
}  // namespace

int run_appfile_job(const ServerOptions &o, const char *self_exe) {
  auto lines = read_appfile(o);
  if (!lines) return 1;
  sigset_t set = block_supervised_signals();
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) env.emplace_back(*e);
  std::vector<Child> children;
  const std::string exe = self_exe;
  std::vector<std::string> sargs(o.server_args.begin() + 1,
                                 o.server_args.end());  // (less argv[0]'s "-server")
  sargs.insert(sargs.begin(), "-server");
  auto hostport = start_server(exe, sargs, env, children);
  if (!hostport) return 1;
  if (hostport->empty()) return server_failed(children, "the IMPI server");
  std::printf("%s\n", hostport->c_str());  // as `impirun -server` itself prints it
  std::fflush(stdout);
  for (auto &l : *lines) {
    pid_t pid = start_app_client(l, exe, env, *hostport);
    children.push_back({pid, "client on " + l.host, pid > 0});
    if (pid <= 0) kill_all(children, SIGTERM);
  }
  return supervise(children, set);
}

}  // namespace impi::startup
