#include "startup/host_agents.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "startup/slurm.hpp"

extern char **environ;

namespace impi::startup {

using base::Errc;
using base::Fd;
using base::Result;
using base::Status;

std::vector<int> place_procs(int np, int local_slots, const std::vector<HostSlots> &remote) {
  std::vector<int> slots{std::max(local_slots, 1)}, count(1 + remote.size(), 0);
  for (const auto &h : remote) slots.push_back(std::max(h.slots, 1));
  int left = np;
  for (std::size_t i = 0; i < slots.size() && left > 0; ++i, --left)
    count[i] = 1;  // every host needs one
  for (std::size_t i = 0; i < slots.size() && left > 0; ++i) {
    int n = std::min(slots[i] - count[i], left);
    count[i] += n;
    left -= n;
  }
  for (std::size_t i = 0; left > 0; i = (i + 1) % count.size(), --left) ++count[i];
  return count;
}

bool direct_channels_on() {
  return base::get_int("agent_direct") != 0 && base::get_string("agent_trace").empty();
}

int split_count(int np, bool have_agent) {
  if (!have_agent || np < 2 || base::get_int("split_hosts") < np || !direct_channels_on()) return 1;
  return np;
}

std::string split_address(const std::string &first, int i) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  char more = 0;
  if (i == 0 || std::sscanf(first.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &more) != 4 ||
      a != 127 || b > 255 || c > 255 || d > 255)
    return first;
  return fmt::format("127.{}.{}.{}", (b + static_cast<unsigned>(i)) % 256, c, d);
}

namespace {

std::string random_token() {
  unsigned char b[16];
  if (::getrandom(b, sizeof b, 0) != static_cast<ssize_t>(sizeof b)) {
    for (auto &x : b) x = static_cast<unsigned char>(std::rand());
  }
  std::string t;
  for (unsigned char x : b) t += fmt::format("{:02x}", x);
  return t;
}

// One line (without '\n') from `fd`, at most 4096 bytes, read byte by byte
// (what follows a JOB line is the job itself).
Result<std::string> read_line(int fd, net::Clock::time_point deadline) {
  std::string line;
  for (;;) {
    std::byte c;
    if (auto s = net::read_exact(fd, std::span(&c, 1), deadline); !s.ok())
      return {s.error(), s.message()};
    if (static_cast<char>(c) == '\n') return line;
    line += static_cast<char>(c);
    if (line.size() > 4096) return {Errc::protocol_error, "a control line longer than 4096 bytes"};
  }
}

Status write_text(int fd, const std::string &s, net::Clock::time_point deadline) {
  return net::write_exact(fd, std::as_bytes(std::span(s.data(), s.size())), deadline);
}

pid_t spawn_agent(const std::vector<std::string> &argv) {
  std::vector<char *> a;
  for (auto &x : argv) a.push_back(const_cast<char *>(x.c_str()));
  a.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a host agent's launcher ends with us
    if (::getppid() != parent) ::_exit(127);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2, SIGPIPE}) ::signal(sig, SIG_DFL);
    // No stdin (as ssh -n): a launch agent must not take the job's input.
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::execvp(a[0], a.data());
    std::fprintf(stderr, "impirun: cannot run the launch agent %s: %s\n", a[0],
                 std::strerror(errno));
    ::_exit(127);
  }
  return pid;
}

// A HELLO line (host_agents.hpp): which of `hosts` says it (by its token),
// where it listens and, split, its further hosts; nullopt when it is not
// one of ours, is malformed, or has already spoken.
struct Hello {
  std::size_t k = 0;
  std::string address;
  std::uint32_t port = 0;
  std::int64_t pid = 0;
  std::vector<std::pair<std::string, std::uint32_t>> more;
};
std::optional<Hello> parse_hello(const std::string &line, const std::vector<std::string> &tokens,
                                 const std::vector<RemoteHost> &hosts) {
  std::istringstream in(line);
  std::string word, token;
  Hello h;
  in >> word >> token >> h.address >> h.port >> h.pid;
  if (in.fail() || word != "HELLO" || h.port == 0 || h.port > 65535) return std::nullopt;
  while (h.k < tokens.size() && tokens[h.k] != token) ++h.k;
  if (h.k == tokens.size() || hosts[h.k].ctl) return std::nullopt;
  // Split hosts: one (address, port) pair per further host, one proc each.
  for (std::string a; in >> a;) {
    std::uint32_t p = 0;
    if (!(in >> p) || p == 0 || p > 65535) return std::nullopt;
    h.more.emplace_back(a, p);
  }
  if (!h.more.empty() && h.more.size() + 1 != static_cast<std::size_t>(hosts[h.k].nprocs))
    return std::nullopt;
  return h;
}

}  // namespace

Result<std::vector<RemoteHost>> start_host_agents(
    const LaunchOptions &opts, const std::vector<HostSlots> &remote, const std::vector<int> &counts,
    const std::string &bind, const std::string &self_exe, net::Clock::time_point deadline) {
  auto lfd = net::listen_tcp(bind, 0);
  if (!lfd)
    return {lfd.error(),
            fmt::format("the host agents' control port on {}: {}", bind, lfd.message())};
  Fd listener = std::move(lfd.value());
  auto ep = net::local_endpoint(listener.get());
  if (!ep) return {ep.error(), ep.message()};
  const char *agent_env = std::getenv("IMPI_LAUNCH_AGENT");
  // Inside a Slurm allocation its nodes are reached with srun, as Open MPI does.
  std::istringstream aw(agent_env && *agent_env ? agent_env : opts.slurm ? kSrunAgent : "ssh");
  std::vector<std::string> agent;
  for (std::string w; aw >> w;) agent.push_back(w);
  std::vector<RemoteHost> hosts;
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < remote.size(); ++i) {
    RemoteHost h;
    h.name = remote[i].name;
    h.nprocs = counts[i + 1];
    tokens.push_back(random_token());
    std::vector<std::string> argv = agent;
    argv.push_back(h.name);
    argv.insert(argv.end(), {self_exe, "--host-agent", ep->text(), "--host-token", tokens.back(),
                             "-np", std::to_string(h.nprocs)});
    // Its procs act as ours do; stdin stays here (ours goes to rank 0 of
    // the first host), and the slot check was made for all hosts.
    LaunchOptions theirs = opts;
    theirs.stdin_target = {StdinTarget::none, 0};
    theirs.slots = remote[i].slots;
    theirs.remote_hosts.clear();
    theirs.no_oversubscribe = false;
    auto fwd = forwarded_options(theirs);
    argv.insert(argv.end(), fwd.begin(), fwd.end());
    argv.push_back("--");
    argv.insert(argv.end(), opts.argv.begin(), opts.argv.end());
    h.launcher = spawn_agent(argv);
    if (h.launcher <= 0)
      return {Errc::io_error, fmt::format("cannot start the agent of host {}", h.name)};
    base::log_debug("started the agent of host {} ({} procs) through {}", h.name, h.nprocs,
                    agent[0]);
    hosts.push_back(std::move(h));
  }
  // Their HELLOs, in any order; anything else is closed.
  std::size_t said = 0;
  while (said < hosts.size()) {
    for (auto &h : hosts) {
      int st = 0;
      if (!h.ctl && ::waitpid(h.launcher, &st, WNOHANG) == h.launcher) {
        h.launcher = -1;
        end_host_agents(hosts, true);
        return {Errc::io_error,
                fmt::format("the agent of host {} ended before it reported (launch agent '{}' "
                            "exit status {})",
                            h.name, agent[0], WIFEXITED(st) ? WEXITSTATUS(st) : -1)};
      }
    }
    pollfd p{listener.get(), POLLIN, 0};
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - net::Clock::now()).count();
    if (left <= 0) {
      end_host_agents(hosts, true);
      return {Errc::timeout, fmt::format("{} of {} host agents did not report in time",
                                         hosts.size() - said, hosts.size())};
    }
    if (::poll(&p, 1, static_cast<int>(std::min<long long>(left, 200))) <= 0) continue;
    Fd c(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!c) continue;
    auto soon = std::min(deadline, net::Clock::now() + std::chrono::seconds(10));
    auto line = read_line(c.get(), soon);
    if (!line) {
      base::log_warn("a connection to the host agents' port said nothing useful ({}); closed",
                     line.message());
      continue;
    }
    auto hello = parse_hello(*line, tokens, hosts);
    if (!hello) {
      base::log_warn("a connection to the host agents' port is not one of our agents; closed");
      continue;
    }
    RemoteHost &h = hosts[hello->k];
    h.ctl = std::move(c);
    h.address = hello->address;
    h.port = hello->port;
    h.pid = hello->pid;
    h.more = std::move(hello->more);
    ++said;
    base::log_debug("host {}: agent at {} port {} ({} more)", h.name, h.address, h.port,
                    h.more.size());
  }
  return hosts;
}

Status send_job(RemoteHost &h, ImpiJob job, int host_index, net::Clock::time_point deadline) {
  job.my_host = host_index;
  job.my_nhosts = 1 + static_cast<int>(h.more.size());
  auto bytes = encode_job(job);
  if (auto s = write_text(h.ctl.get(), fmt::format("JOB {}\n", bytes.size()), deadline); !s.ok())
    return s;
  return net::write_exact(h.ctl.get(), bytes, deadline);
}

Status wait_done(std::vector<RemoteHost> &hosts, net::Clock::time_point deadline) {
  for (auto &h : hosts) {
    auto line = read_line(h.ctl.get(), deadline);
    if (!line)
      return {line.error(),
              fmt::format("the agent of host {} did not finish: {}", h.name, line.message())};
    if (*line != "DONE 0")
      return {Errc::io_error, fmt::format("the agent of host {} failed", h.name)};
  }
  return {};
}

void end_host_agents(std::vector<RemoteHost> &hosts, bool kill_them) {
  for (auto &h : hosts) {
    h.ctl.reset();  // the agent ends its part when this closes
    if (h.launcher > 0 && kill_them) ::kill(h.launcher, SIGTERM);
  }
  auto until = net::Clock::now() + std::chrono::seconds(5);
  for (auto &h : hosts) {
    while (h.launcher > 0) {
      int st = 0;
      pid_t r = ::waitpid(h.launcher, &st, WNOHANG);
      if (r == h.launcher || (r < 0 && errno != EINTR)) {
        h.launcher = -1;
      } else if (net::Clock::now() > until) {
        ::kill(h.launcher, SIGKILL);
        ::waitpid(h.launcher, &st, 0);
        h.launcher = -1;
      } else {
        ::usleep(20000);
      }
    }
  }
}

Result<CoordinatorLink> contact_coordinator(const HostAgentRole &role, int nhosts,
                                            net::Clock::time_point deadline) {
  auto ep = net::parse_endpoint(role.coordinator);
  if (!ep) return {ep.error(), ep.message()};
  auto c = net::connect_tcp(ep->address, ep->port, "", deadline);
  if (!c)
    return {c.error(), fmt::format("cannot reach the client's impirun at {}: {}", role.coordinator,
                                   c.message())};
  CoordinatorLink link;
  link.ctl = std::move(c.value());
  auto me = net::local_endpoint(link.ctl.get());
  if (!me) return {me.error(), me.message()};
  std::string hello;
  for (int i = 0; i < nhosts; ++i) {
    // (this host's address toward the client's others, or a split host's)
    std::string addr = split_address(me->address, i);
    auto l = net::listen_tcp(addr, 0);
    if (!l) return {l.error(), fmt::format("cannot listen on {}: {}", addr, l.message())};
    auto lep = net::local_endpoint(l->get());
    if (!lep) return {lep.error(), lep.message()};
    hello += i == 0 ? fmt::format("HELLO {} {} {} {}", role.token, addr, lep->port,
                                  static_cast<long>(::getpid()))
                    : fmt::format(" {} {}", addr, lep->port);
    link.listeners.push_back(std::move(l.value()));
    link.addresses.push_back(addr);
  }
  hello += "\n";
  if (auto s = write_text(link.ctl.get(), hello, deadline); !s.ok())
    return {s.error(), s.message()};
  return link;
}

Result<ImpiJob> receive_job(int ctl, net::Clock::time_point deadline) {
  auto line = read_line(ctl, deadline);
  if (!line)
    return {line.error(), "waiting for the job from the client's impirun: " + line.message()};
  std::size_t n = 0;
  if (std::sscanf(line->c_str(), "JOB %zu", &n) != 1 || n == 0 || n > (std::size_t{1} << 24))
    return {Errc::protocol_error, "the client's impirun sent no job"};
  std::vector<std::byte> b(n);
  if (auto s = net::read_exact(ctl, b, deadline); !s.ok()) return {s.error(), s.message()};
  return decode_job(b);
}

void send_done(int ctl, bool ok) {
  std::string s = ok ? "DONE 0\n" : "DONE 1\n";
  [[maybe_unused]] ssize_t n = ::send(ctl, s.data(), s.size(), MSG_NOSIGNAL);
}

}  // namespace impi::startup
