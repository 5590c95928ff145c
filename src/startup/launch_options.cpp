#include "startup/launch_options.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>

#include "base/tunables.hpp"
#include "startup/net.hpp"
#include "startup/slurm.hpp"

namespace impi::startup {

bool is_this_host(const std::string &h);

const char *launch_usage() {
  return R"(Usage: impirun [options] [--] program [args...]
       impirun -server N [-port P] [-auth LIST] [--address A]
       impirun -client R HOST:PORT [options] [--] program [args...]

Launches an MPI job of N processes on this machine. impirun hosts a PMIx
server; the processes find it through the environment.

IMPI (one MPI_COMM_WORLD across several separately launched clients):
  -server N               run the rendezvous server for N clients; prints
                          ip:port as its only stdout line, exits 0 after every
                          client's FINI
    -port P               listen on port P (default: any free port)
    -auth LIST            authentication preference, most preferred first,
                          e.g. 3,1-0 (1 = IMPI_AUTH_KEY, 0 = IMPI_AUTH_NONE;
                          default: KEY before NONE)
    --address A           listen on and print address A (default: the
                          machine's primary address; use 127.0.0.1 locally)
    --startup-timeout S   give up when startup is not complete after S s (300)
    --join-timeout S      close connections that do not join within S s (10)
    -file F               also start the clients F lists, one per line
                          (IMPI 2.2.3): "HOST -client R $hostport [opts] prog
                          [args]"; $hostport becomes the server's address;
                          HOST is this machine (localhost, 127.x, its name) or
                          is reached with $IMPI_LAUNCH_AGENT (default ssh)
  -client R HOST:PORT     run this as client R of the job whose server is at
                          HOST:PORT; -np N gives its number of processes
    --address A           address this client's host advertises, listens on
                          and binds to (IMPI_HOST_ADDRESS; default: the local
                          address of its connection to the server)
    --datalen N           C_DATALEN, user bytes per packet (IMPI_DATALEN, 65536)
    --tag-ub N            C_TAGUB, >= 32767 (IMPI_TAG_UB, 2147483647)
    --coll-xsize N        C_COLL_XSIZE (IMPI_COLL_XSIZE, -1 = default 1024)
    --coll-maxlinear N    C_COLL_MAXLINEAR (IMPI_COLL_MAXLINEAR, -1 = default 4)
    --ackmark N           H_ACKMARK (IMPI_ACKMARK, 10)
    --hiwater N           H_HIWATER (IMPI_HIWATER, 20)
    --startup-timeout S   give up when startup is not complete after S s (300)
  --clients K             start a server and K clients on this machine (over
                          127.0.0.1, with a fresh random IMPI_AUTH_KEY) and
                          split the N processes among them, client 0 first
  Authentication comes from the environment: IMPI_AUTH_KEY=<64-bit number>
  and/or IMPI_AUTH_NONE (set to anything).

Several programs in one job (MPMD), as mpirun and mpiexec:
  impirun [options] -np N prog1 [args] : -np M [app options] prog2 [args] ...
                          one MPI_COMM_WORLD; ranks in the order given,
                          MPI_APPNUM 0, 1, ...; app options: -np, -x, -env,
                          --wdir DIR, --pset NAME (a process set of this
                          program's ranks for MPI sessions, beside
                          impi://app/K for the K-th program)

Options:
  -np N, -n N, --np N     number of processes to start (1 to 4096; default 1)
  --bind-to core|none     bind each process to one core (round robin) or not
                          (default: core; more processes than cores are
                          spread evenly, several per core)
  --tag-output            prefix every output line with [1,rank]<stdout>: or
                          [1,rank]<stderr>:
  --timestamp-output      prefix every output line with the date and time
  --stdin RANK|all|none   the rank that reads impirun's stdin (default 0),
                          every rank (each gets all of it), or none
  -x VAR[=value]          export VAR (with its current or the given value) to
  --env VAR[=value]       the processes; may be repeated
  -env VAR VALUE          the same, MPICH's form (also -genv)
  --timeout SECONDS       abort the job if it runs longer than this (default:
                          $MPIEXEC_TIMEOUT when set, as mpirun and mpiexec)
  --core-offset K         with --bind-to core: rank r uses core (K + r) mod cores
  --core-blocks N         with --bind-to core: rank r is process K + r of N on
                          this machine (K: --core-offset), and each core takes
                          a contiguous block of the N (impirun --clients sets
                          it when the job's processes outnumber the cores)
  --map-by core|slot|hwthread|socket
                          the objects ranks are placed on round robin when
                          binding (default core; slot = core on one machine)
  --report-bindings       print each rank's binding on stderr at start
  --wdir DIR              start the processes in DIR (after ':': that program's)
  --pset NAME             a process set of this program's ranks for MPI
                          sessions (beside impi://app/K)
  --output-filename DIR   write each rank's output to DIR/1/rank.R/stdout and
                          DIR/1/rank.R/stderr instead of forwarding it
  --hostfile FILE, --host H[:N],...  (also -machinefile, -f, -H, -hosts)
                          hosts and slots. Without -client: this machine
                          only (localhost, 127.x or its name); slots set
                          MPI_UNIVERSE_SIZE and the limit --nooversubscribe
                          enforces. With -client: other machines too; this
                          one must be listed, and each other host's agent
                          is started with $IMPI_LAUNCH_AGENT HOST impirun ...
                          (default ssh); every host gets a process, then
                          slots fill in order
  --oversubscribe         allow more processes than slots (the default, as
                          in MPICH; Open MPI needs this flag)
  --nooversubscribe       refuse to start more processes than slots (cores,
                          or the hostfile's slots), as Open MPI does by default
  -v, --verbose           print launcher diagnostics on stderr
  -h, --help              show this help
  -V, --version           show the version

Exit status: 0 when every process exits 0; otherwise the exit code of the
first process that failed (the code given to MPI_Abort, or 128+signal for a
process killed by a signal); 1 for launcher errors and timeouts.
Also installed as mpiexec and mpirun.
)";
}

namespace {

// Integer option value within [lo, hi].
std::optional<std::int64_t> bounded(const std::string *v, std::int64_t lo, std::int64_t hi) {
  if (!v) return std::nullopt;
  auto n = base::parse_int(*v);
  if (!n || *n < lo || *n > hi) return std::nullopt;
  return n;
}

ParsedCommandLine parse_server(const std::vector<std::string> &args) {
  ServerOptions o;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if ((args[k] == "-file" || args[k] == "--file") && k + 1 < args.size()) {
      ++k;
      continue;
    }
    if (args[k] != "-v" && args[k] != "--verbose") o.server_args.push_back(args[k]);
  }
  if (args.size() < 2) return UsageError{"-server needs the number of clients: impirun -server N"};
  auto n = bounded(&args[1], 1, 32);
  if (!n)
    return UsageError{fmt::format("invalid number of clients '{}': expected 1 to 32", args[1])};
  o.nclients = static_cast<int>(*n);
  o.startup_timeout_s = static_cast<int>(base::get_int("startup_timeout_s"));
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string &a = args[i];
    const std::string *v = i + 1 < args.size() ? &args[i + 1] : nullptr;
    if (a == "-port" || a == "--port") {
      auto p = bounded(v, 0, 65535);
      if (!p) return UsageError{"-port needs a port number from 0 to 65535"};
      o.port = static_cast<int>(*p);
    } else if (a == "-auth" || a == "--auth") {
      if (!v) return UsageError{"-auth needs a list such as 3,1-0"};
      o.auth_list = *v;
    } else if (a == "--address" || a == "-address") {
      if (!v) return UsageError{"--address needs an IP address"};
      o.address = *v;
    } else if (a == "--startup-timeout") {
      auto t = bounded(v, 1, 86400);
      if (!t) return UsageError{"--startup-timeout needs seconds (1 to 86400)"};
      o.startup_timeout_s = static_cast<int>(*t);
    } else if (a == "--join-timeout") {
      auto t = bounded(v, 1, 3600);
      if (!t) return UsageError{"--join-timeout needs seconds (1 to 3600)"};
      o.join_timeout_s = static_cast<int>(*t);
    } else if (a == "-file" || a == "--file") {
      if (!v || v->empty())
        return UsageError{"-file needs an application file (impirun -server N -file F)"};
      o.appfile = *v;
      ++i;
      continue;
    } else if (a == "-v" || a == "--verbose") {
      o.server_args.push_back(a);
      continue;  // handled by the caller
    } else if (a == "-h" || a == "--help") {
      return HelpRequest{};
    } else {
      return UsageError{fmt::format("unknown server option '{}' (see impirun --help)", a)};
    }
    ++i;
  }
  return o;
}

std::string not_here(const std::string &h) {
  return fmt::format(
      "host '{}': impirun starts processes on this machine only; a job on several machines "
      "is an IMPI client with several hosts (impirun -client R HOST:PORT --host localhost,{} ...)",
      h, h);
}

// "--host a,b:2": one slot per mention, or the count after ':'. Slots of
// this machine are counted; other hosts are added to `remote` (merged by
// name, in first-mention order).
void add_remote(std::vector<HostSlots> &remote, const std::string &host, int n) {
  for (auto &h : remote)
    if (h.name == host) {
      h.slots += n;
      return;
    }
  remote.push_back({host, n});
}

std::variant<int, UsageError> host_list_slots(const std::string &list,
                                              std::vector<HostSlots> &remote) {
  int slots = 0;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = list.find(',', at);
    std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (item.empty()) continue;
    std::string host = item.substr(0, item.find(':'));
    int n = 1;
    if (item.find(':') != std::string::npos) {
      auto v = base::parse_int(item.substr(item.find(':') + 1));
      if (!v || *v < 1 || *v > 4096)
        return UsageError{fmt::format("--host {}: bad slot count", item)};
      n = static_cast<int>(*v);
    }
    if (!is_this_host(host)) {
      add_remote(remote, host, n);
      continue;
    }
    slots += n;
  }
  return slots;
}

// A hostfile: "host [slots=N] [max_slots=M]" lines, '#' comments.
std::variant<int, UsageError> hostfile_slots(const std::string &path,
                                             std::vector<HostSlots> &remote) {
  std::ifstream f(path);
  if (!f) return UsageError{fmt::format("cannot read the hostfile {}", path)};
  int slots = 0, lineno = 0;
  std::string line;
  while (std::getline(f, line)) {
    ++lineno;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string host, w;
    if (!(words >> host)) continue;
    int n = 1;
    while (words >> w) {
      if (w.rfind("slots=", 0) == 0) {
        auto v = base::parse_int(w.substr(6));
        if (!v || *v < 1 || *v > 4096)
          return UsageError{fmt::format("{}:{}: bad slots", path, lineno)};
        n = static_cast<int>(*v);
      } else if (w.rfind("max_slots=", 0) != 0 && w.rfind("max-slots=", 0) != 0) {
        return UsageError{fmt::format("{}:{}: unknown field '{}'", path, lineno, w)};
      }
    }
    if (!is_this_host(host)) {
      add_remote(remote, host, n);
      continue;
    }
    slots += n;
  }
  return slots;
}

}  // namespace

bool is_this_host(const std::string &h) {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  if (h == "localhost" || h == name || h.rfind("127.", 0) == 0 || h == "::1") return true;
  // Another name or address of this machine (an alias, an interface's address).
  auto addrs = net::resolve(h);
  if (!addrs) return false;
  for (const auto &a : *addrs)
    if (net::is_local_address(a)) return true;
  return false;
}

namespace {

// One option of a launch (not -server) at args[i]; advances i past its
// values. nullopt: consumed; else the usage error.
class OptionParser {
 public:
  OptionParser(const std::vector<std::string> &args, const char *(*lookup_env)(const char *),
               LaunchOptions &o)
      : args_(args), lookup_env_(lookup_env), o_(o) {}

  std::optional<UsageError> parse(std::size_t &i);
  bool have_np = false;
  bool hosts_given = false;  // --host or --hostfile

 private:
  const std::string *value(std::size_t &i) {
    if (i + 1 >= args_.size()) return nullptr;
    return &args_[++i];
  }
  std::optional<UsageError> impi_role(std::size_t &i, bool &matched);
  std::optional<UsageError> int_flag(std::size_t &i, bool &matched);
  std::optional<UsageError> placement(std::size_t &i, bool &matched);
  std::optional<UsageError> environment(std::size_t &i, bool &matched);

  const std::vector<std::string> &args_;
  const char *(*lookup_env_)(const char *);
  LaunchOptions &o_;
};

std::optional<UsageError> OptionParser::impi_role(std::size_t &i, bool &matched) {
  const std::string &a = args_[i];
  matched = true;
  if (a == "-client" || a == "--client") {
    if (i + 2 >= args_.size())
      return UsageError{"-client needs a rank and the server: impirun -client R HOST:PORT ..."};
    auto r = bounded(&args_[i + 1], 0, 31);
    if (!r)
      return UsageError{fmt::format("invalid client rank '{}': expected 0 to 31", args_[i + 1])};
    o_.client = ClientRole{static_cast<int>(*r), args_[i + 2]};
    i += 2;
  } else if (a == "--host-agent") {  // (internal: started by impirun -client for another host)
    if (i + 3 >= args_.size() || args_[i + 2] != "--host-token")
      return UsageError{
          "--host-agent needs ADDR:PORT --host-token T (it is started by impirun -client)"};
    o_.host_agent = HostAgentRole{args_[i + 1], args_[i + 3]};
    i += 3;
  } else if (a == "--world-pset") {  // (internal: impirun --clients gives each client the job's)
    const std::string *v = value(i);
    auto eq = v ? v->find('=') : std::string::npos;
    if (eq == std::string::npos || eq == 0)
      return UsageError{"--world-pset needs NAME=RANK,RANK,..."};
    WorldPset p{v->substr(0, eq), {}};
    std::string_view rest = std::string_view(*v).substr(eq + 1);
    while (!rest.empty()) {
      auto comma = rest.find(',');
      auto r = base::parse_int(rest.substr(0, comma));
      if (!r || *r < 0 || *r >= 4096) return UsageError{"--world-pset: bad rank list"};
      p.ranks.push_back(static_cast<int>(*r));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    o_.world_psets.push_back(std::move(p));
  } else if (a == "--clients") {
    auto k = bounded(value(i), 1, 32);
    if (!k) return UsageError{"--clients needs a number of clients from 1 to 32"};
    o_.clients = static_cast<int>(*k);
  } else if (a == "--address" || a == "-address") {
    const std::string *v = value(i);
    if (!v || v->empty()) return UsageError{"--address needs an address or a host name"};
    o_.impi.address = *v;
  } else {
    matched = false;
  }
  return std::nullopt;
}

std::optional<UsageError> OptionParser::int_flag(std::size_t &i, bool &matched) {
  struct IntFlag {
    const char *name;
    std::int64_t lo, hi;
    const char *what;
  };
  static const IntFlag flags[] = {
      {"--datalen", 1, 0xffffffffLL, "a positive number of bytes"},
      {"--tag-ub", 32767, 2147483647LL, "a value from 32767 to 2147483647"},
      {"--coll-xsize", -1, 2147483647LL, "-1 or a number of bytes"},
      {"--coll-maxlinear", -1, 2147483647LL, "-1 or a number of hosts"},
      {"--ackmark", 1, 0xffffffffLL, "a positive number of packets"},
      {"--hiwater", 1, 0xffffffffLL, "a positive number of packets"},
      {"--startup-timeout", 1, 86400, "seconds from 1 to 86400"},
      {"--core-offset", 0, 1 << 20, "a core number"},
      {"--core-blocks", 1, 1 << 20, "a positive number of processes"},
      {"--timeout", 1, 1LL << 30, "a positive number of seconds"},
  };
  std::int64_t *out[] = {&o_.impi.datalen,
                         &o_.impi.tag_ub,
                         &o_.impi.coll_xsize,
                         &o_.impi.coll_maxlinear,
                         &o_.impi.ackmark,
                         &o_.impi.hiwater,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr};
  std::string a = args_[i];
  if (a.size() > 1 && a[0] == '-' && a[1] != '-') a = "-" + a;  // -timeout as --timeout
  for (std::size_t k = 0; k < std::size(flags); ++k) {
    if (a != flags[k].name) continue;
    matched = true;
    auto n = bounded(value(i), flags[k].lo, flags[k].hi);
    if (!n) return UsageError{fmt::format("option {} needs {}", flags[k].name, flags[k].what)};
    if (out[k])
      *out[k] = *n;
    else if (a == "--startup-timeout")
      o_.impi.startup_timeout_s = static_cast<int>(*n);
    else if (a == "--core-offset")
      o_.core_offset = static_cast<int>(*n);
    else if (a == "--core-blocks")
      o_.core_blocks = static_cast<int>(*n);
    else
      o_.timeout_s = static_cast<int>(*n);
    return std::nullopt;
  }
  matched = false;
  return std::nullopt;
}

std::optional<UsageError> OptionParser::placement(std::size_t &i, bool &matched) {
  const std::string &a = args_[i];
  matched = true;
  if (a == "--bind-to" || a == "-bind-to") {
    const std::string *v = value(i);
    if (!v) return UsageError{"option --bind-to needs core or none"};
    if (*v == "core")
      o_.bind = BindPolicy::core;
    else if (*v == "none")
      o_.bind = BindPolicy::none;
    else
      return UsageError{fmt::format("unknown binding '{}': expected core or none", *v)};
  } else if (a == "--map-by" || a == "-map-by") {
    const std::string *v = value(i);
    std::string m = v ? v->substr(0, v->find(':')) : "";  // (Open MPI modifiers after ':' ignored)
    if (m == "core" || m == "slot")
      o_.map_by = MapBy::core;
    else if (m == "hwthread")
      o_.map_by = MapBy::hwthread;
    else if (m == "socket" || m == "package")
      o_.map_by = MapBy::socket;
    else if (m == "node" || m == "numa" || m == "l3cache" || m == "ppr" || m == "board")
      return UsageError{fmt::format(
          "--map-by {}: impirun places processes on this machine only, by core, slot, hwthread "
          "or socket",
          m)};
    else
      return UsageError{fmt::format("unknown mapping '{}': expected core, slot, hwthread or socket",
                                    v ? *v : "")};
  } else if (a == "--report-bindings" || a == "-report-bindings") {
    o_.report_bindings = true;
  } else if (a == "--oversubscribe" || a == "-oversubscribe") {
    o_.no_oversubscribe = false;  // (the default; accepted for Open MPI command lines)
  } else if (a == "--nooversubscribe" || a == "-nooversubscribe") {
    o_.no_oversubscribe = true;
  } else if (a == "--hostfile" || a == "-hostfile" || a == "--machinefile" || a == "-machinefile" ||
             a == "-f") {
    const std::string *v = value(i);
    if (!v) return UsageError{"--hostfile needs a file"};
    hosts_given = true;
    auto slots = hostfile_slots(*v, o_.remote_hosts);
    if (auto *e = std::get_if<UsageError>(&slots)) return *e;
    o_.slots += std::get<int>(slots);
  } else if (a == "--host" || a == "-host" || a == "-H" || a == "-hosts") {
    const std::string *v = value(i);
    if (!v || v->empty()) return UsageError{"--host needs a list of hosts"};
    hosts_given = true;
    auto slots = host_list_slots(*v, o_.remote_hosts);
    if (auto *e = std::get_if<UsageError>(&slots)) return *e;
    o_.slots += std::get<int>(slots);
  } else {
    matched = false;
  }
  return std::nullopt;
}

std::optional<UsageError> OptionParser::environment(std::size_t &i, bool &matched) {
  const std::string &a = args_[i];
  matched = true;
  if (a == "-env" || a == "-genv") {
    // MPICH's form: -env VAR VALUE
    if (i + 2 >= args_.size() || args_[i + 1].empty() ||
        args_[i + 1].find('=') != std::string::npos)
      return UsageError{fmt::format("option {} needs a variable name and a value", a)};
    o_.env.push_back(args_[i + 1] + "=" + args_[i + 2]);
    i += 2;
  } else if (a == "-x" || a == "--env") {
    const std::string *v = value(i);
    if (!v || v->empty() || (*v)[0] == '=') return UsageError{"option -x needs VAR or VAR=value"};
    if (v->find('=') != std::string::npos) {
      o_.env.push_back(*v);
    } else {
      const char *cur = lookup_env_(v->c_str());
      if (!cur) return UsageError{fmt::format("-x {}: {} is not set in this environment", *v, *v)};
      o_.env.push_back(*v + "=" + cur);
    }
  } else if (a == "--stdin" || a == "-stdin") {
    const std::string *v = value(i);
    auto r = v ? base::parse_int(*v) : std::nullopt;
    if (v && *v == "all")
      o_.stdin_target = {StdinTarget::all, 0};
    else if (v && *v == "none")
      o_.stdin_target = {StdinTarget::none, 0};
    else if (r && *r >= 0 && *r < 4096)
      o_.stdin_target = {StdinTarget::one, static_cast<int>(*r)};
    else
      return UsageError{"option --stdin needs a rank, all or none"};
  } else if (a == "--tag-output" || a == "-tag-output") {
    o_.tag_output = true;
  } else if (a == "--timestamp-output" || a == "-timestamp-output") {
    o_.timestamp_output = true;
  } else if (a == "--output-filename" || a == "-output-filename") {
    const std::string *v = value(i);
    if (!v || v->empty()) return UsageError{"--output-filename needs a directory"};
    o_.output_dir = *v;
  } else if (a == "-v" || a == "--verbose") {
    o_.verbose = true;
  } else {
    matched = false;
  }
  return std::nullopt;
}

std::optional<UsageError> OptionParser::parse(std::size_t &i) {
  const std::string &a = args_[i];
  if (a == "-np" || a == "-n" || a == "--np" || a == "-c") {
    const std::string *v = value(i);
    if (!v) return UsageError{fmt::format("option {} needs a number of processes", a)};
    auto n = base::parse_int(*v);
    if (!n || *n < 1 || *n > 4096)
      return UsageError{
          fmt::format("invalid number of processes '{}': expected an integer from 1 to 4096", *v)};
    o_.np = static_cast<int>(*n);
    have_np = true;
    return std::nullopt;
  }
  using Part = std::optional<UsageError> (OptionParser::*)(std::size_t &, bool &);
  for (Part part : {&OptionParser::impi_role, &OptionParser::int_flag, &OptionParser::placement,
                    &OptionParser::environment}) {
    bool matched = false;
    auto err = (this->*part)(i, matched);
    if (err || matched) return err;
  }
  return UsageError{fmt::format("unknown option '{}' (see impirun --help)", a)};
}

// An option of one app context at args[i] (advances i past its values):
// --pset NAME, --wdir DIR, and the internal --appnum K; after a ':' also
// -np and -x/-env/--env, which before the first program are the job's.
std::optional<UsageError> app_option(const std::vector<std::string> &args, std::size_t &i,
                                     AppContext &app, bool &matched, bool later,
                                     const char *(*lookup_env)(const char *)) {
  const std::string &a = args[i];
  const std::string *v = i + 1 < args.size() ? &args[i + 1] : nullptr;
  matched = true;
  if (a == "--pset" || a == "-pset") {
    if (!v || v->empty() || v->size() > 255 || v->find_first_of(",= \t") != std::string::npos)
      return UsageError{
          "--pset needs a process set name (such as user://ocean; no commas, '=' or spaces)"};
    app.psets.push_back(*v);
  } else if (a == "--wdir" || a == "-wdir" || a == "-wd") {
    if (!v || v->empty()) return UsageError{fmt::format("{} needs a directory", a)};
    app.wdir = *v;
  } else if (a == "--app-x") {  // (internal: a variable of this app context only)
    if (!v || v->find('=') == std::string::npos || (*v)[0] == '=')
      return UsageError{"--app-x needs VAR=value"};
    app.env.push_back(*v);
  } else if (a == "--appnum") {
    auto n = bounded(v, 0, 4095);
    if (!n) return UsageError{"--appnum needs a number from 0 to 4095"};
    app.appnum = static_cast<int>(*n);
  } else if (later && (a == "-np" || a == "-n" || a == "--np" || a == "-c")) {
    auto n = v ? base::parse_int(*v) : std::nullopt;
    if (!n || *n < 1 || *n > 4096)
      return UsageError{fmt::format(
          "invalid number of processes '{}': expected an integer from 1 to 4096", v ? *v : "")};
    app.np = static_cast<int>(*n);
  } else if (later && (a == "-env" || a == "-genv")) {
    if (i + 2 >= args.size() || args[i + 1].empty() || args[i + 1].find('=') != std::string::npos)
      return UsageError{fmt::format("option {} needs a variable name and a value", a)};
    app.env.push_back(args[i + 1] + "=" + args[i + 2]);
    i += 2;
    return std::nullopt;
  } else if (later && (a == "-x" || a == "--env")) {
    if (!v || v->empty() || (*v)[0] == '=') return UsageError{"option -x needs VAR or VAR=value"};
    if (v->find('=') != std::string::npos) {
      app.env.push_back(*v);
    } else {
      const char *cur = lookup_env(v->c_str());
      if (!cur) return UsageError{fmt::format("-x {}: {} is not set in this environment", *v, *v)};
      app.env.push_back(*v + "=" + cur);
    }
  } else {
    matched = false;
    return std::nullopt;
  }
  ++i;
  return std::nullopt;
}

// Inside a Slurm allocation (salloc, sbatch), as Open MPI's mpirun: the
// default process count is the allocation's, and without --host/--hostfile
// its nodes are the hosts (this one's tasks are its slots). With --clients
// every client runs on this node.
void apply_slurm_allocation(LaunchOptions &o, bool have_np, bool hosts_given,
                            const char *(*lookup_env)(const char *)) {
  auto a = slurm_allocation(lookup_env);
  if (!a) return;
  o.slurm = true;
  if (!have_np) o.np = a->ntasks;
  if (hosts_given) return;
  for (const auto &node : a->nodes) {
    if (is_this_host(node.name))
      o.slots += node.slots;
    else if (o.clients == 1)
      add_remote(o.remote_hosts, node.name, node.slots);
  }
}

// Checks that need the whole command line.
std::optional<UsageError> validate(LaunchOptions &o) {
  if (o.client && o.clients != 1) return UsageError{"-client and --clients cannot be combined"};
  if (!o.remote_hosts.empty()) {
    // Only an IMPI client's agents span machines (multi-host clients);
    // inside a Slurm allocation impirun runs one such client itself.
    if (!o.client && !o.slurm) return UsageError{not_here(o.remote_hosts.front().name)};
    if (o.slots == 0 && o.slurm && !o.client)
      return UsageError{fmt::format(
          "impirun runs on a machine that is not a node of the Slurm allocation ({}...): start "
          "it inside the allocation (in the batch script, or with srun --pty)",
          o.remote_hosts.front().name)};
    if (o.slots == 0)
      return UsageError{fmt::format(
          "--host/--hostfile name other machines ({}...) but not this one: impirun -client "
          "runs its own host's agent and procs, so list this machine (localhost) too",
          o.remote_hosts.front().name)};
    int total = o.slots;
    for (auto &h : o.remote_hosts) total += h.slots;
    if (o.np < 1 + static_cast<int>(o.remote_hosts.size()))
      return UsageError{
          fmt::format("-np {} is fewer than the {} hosts: every IMPI host needs a process", o.np,
                      1 + o.remote_hosts.size())};
    if (o.no_oversubscribe && o.np > total)
      return UsageError{
          fmt::format("there are not enough slots for {} processes on {} hosts ({} slots; "
                      "--oversubscribe allows it)",
                      o.np, 1 + o.remote_hosts.size(), total)};
  }
  if (o.apps.size() > 1 && !o.remote_hosts.empty())
    return UsageError{
        "several programs (':') run on this machine only: --host/--hostfile or a Slurm "
        "allocation naming other machines cannot be combined with them yet"};
  if (o.np < o.clients)
    return UsageError{
        fmt::format("--clients {} needs at least {} processes (-np)", o.clients, o.clients)};
  if (o.impi.ackmark > o.impi.hiwater)
    return UsageError{fmt::format("ackmark {} exceeds hiwater {} (IMPI needs ackmark <= hiwater)",
                                  o.impi.ackmark, o.impi.hiwater)};
  // (A client's own np is not the world's: -client cannot check the rank.)
  if (!o.client && !o.host_agent && o.stdin_target.kind == StdinTarget::one &&
      o.stdin_target.rank >= o.np)
    return UsageError{
        fmt::format("--stdin {}: the job has ranks 0 to {} only", o.stdin_target.rank, o.np - 1)};
  return std::nullopt;
}

}  // namespace

ParsedCommandLine parse_launch_options(const std::vector<std::string> &args,
                                       const char *(*lookup_env)(const char *)) {
  if (!args.empty() && (args[0] == "-server" || args[0] == "--server")) return parse_server(args);
  LaunchOptions o;
  o.impi.datalen = base::get_int("datalen");
  o.impi.tag_ub = base::get_int("tag_ub");
  o.impi.coll_xsize = base::get_int("coll_xsize");
  o.impi.coll_maxlinear = base::get_int("coll_maxlinear");
  o.impi.ackmark = base::get_int("ackmark");
  o.impi.hiwater = base::get_int("hiwater");
  o.impi.address = base::get_string("host_address");
  o.impi.startup_timeout_s = static_cast<int>(base::get_int("startup_timeout_s"));
  OptionParser parser(args, lookup_env, o);
  AppContext first;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.empty() || a[0] != '-') break;  // the program
    if (a == "-h" || a == "--help") return HelpRequest{};
    if (a == "-V" || a == "--version") return VersionRequest{};
    bool matched = false;
    if (auto err = app_option(args, i, first, matched, false, lookup_env)) return *err;
    if (matched) continue;
    if (auto err = parser.parse(i)) return *err;
  }
  for (; i < args.size() && args[i] != ":"; ++i) o.argv.push_back(args[i]);
  if (o.argv.empty()) return UsageError{"no program given to run (see impirun --help)"};
  if (!parser.have_np) o.np = 1;  // like MPICH's mpiexec without -n
  first.np = o.np;
  first.argv = o.argv;
  o.apps.push_back(std::move(first));
  // MPMD: more app contexts after ':', each with its own -np and program.
  while (i < args.size()) {
    ++i;  // the ':'
    AppContext app;
    bool have_np = false;
    for (; i < args.size(); ++i) {
      const std::string &a = args[i];
      if (a == "--") {
        ++i;
        break;
      }
      if (a.empty() || a[0] != '-') break;
      if (a == "-np" || a == "-n" || a == "--np" || a == "-c") have_np = true;
      bool matched = false;
      if (auto err = app_option(args, i, app, matched, true, lookup_env)) return *err;
      if (!matched)
        return UsageError{fmt::format(
            "option '{}' is not one of an app context (-np, -x, -env, --wdir, --pset): put it "
            "before the first program",
            a)};
    }
    for (; i < args.size() && args[i] != ":"; ++i) app.argv.push_back(args[i]);
    if (app.argv.empty())
      return UsageError{fmt::format("app context {} after ':' has no program", o.apps.size())};
    if (!have_np) app.np = 1;
    o.np += app.np;
    o.apps.push_back(std::move(app));
  }
  if (o.np > 4096)
    return UsageError{fmt::format("{} processes in all: at most 4096 are allowed", o.np)};
  for (auto &app : o.apps)  // (a --wdir before the first program is every program's default)
    if (app.wdir.empty()) app.wdir = o.apps.front().wdir;
  // MPIEXEC_TIMEOUT, as Open MPI's mpirun and MPICH's mpiexec honour it;
  // --timeout wins.
  if (const char *t = lookup_env("MPIEXEC_TIMEOUT"); t && *t && o.timeout_s == 0) {
    auto n = base::parse_int(t);
    if (!n || *n < 1 || *n > (1LL << 30))
      return UsageError{fmt::format("MPIEXEC_TIMEOUT='{}' is not a positive number of seconds", t)};
    o.timeout_s = static_cast<int>(*n);
    o.timeout_from_env = true;
  }
  if (!o.host_agent) apply_slurm_allocation(o, parser.have_np, parser.hosts_given, lookup_env);
  if (o.apps.size() == 1) o.apps[0].np = o.np;  // (the allocation's count, without -np)
  if (auto err = validate(o)) return *err;
  return o;
}

std::vector<WorldPset> app_psets(const std::vector<AppContext> &apps, int first_rank) {
  std::vector<WorldPset> out;
  int r = first_rank;
  for (std::size_t k = 0; k < apps.size(); ++k) {
    const auto &app = apps[k];
    int appnum = app.appnum >= 0 ? app.appnum : static_cast<int>(k);
    std::vector<std::string> names = app.psets;
    names.insert(names.begin(), fmt::format("impi://app/{}", appnum));
    for (const auto &name : names) {
      auto it =
          std::find_if(out.begin(), out.end(), [&](const WorldPset &p) { return p.name == name; });
      if (it == out.end()) it = out.insert(out.end(), WorldPset{name, {}});
      for (int i = 0; i < app.np; ++i) it->ranks.push_back(r + i);
    }
    r += app.np;
  }
  return out;
}

std::vector<std::string> forwarded_options(const LaunchOptions &o) {
  std::vector<std::string> a;
  if (o.bind != BindPolicy::automatic)
    a.insert(a.end(), {"--bind-to", o.bind == BindPolicy::none ? "none" : "core"});
  if (o.map_by != MapBy::core)
    a.insert(a.end(), {"--map-by", o.map_by == MapBy::hwthread ? "hwthread" : "socket"});
  if (o.report_bindings) a.push_back("--report-bindings");
  if (o.no_oversubscribe) a.push_back("--nooversubscribe");
  if (o.slots > 0) {
    std::string hosts = "localhost:" + std::to_string(o.slots);
    for (const auto &h : o.remote_hosts) hosts += fmt::format(",{}:{}", h.name, h.slots);
    a.insert(a.end(), {"--host", hosts});
  }
  if (!o.output_dir.empty()) a.insert(a.end(), {"--output-filename", o.output_dir});
  if (o.tag_output) a.push_back("--tag-output");
  if (o.timestamp_output) a.push_back("--timestamp-output");
  switch (o.stdin_target.kind) {
    case StdinTarget::all:
      a.insert(a.end(), {"--stdin", "all"});
      break;
    case StdinTarget::none:
      a.insert(a.end(), {"--stdin", "none"});
      break;
    case StdinTarget::one:
      a.insert(a.end(), {"--stdin", std::to_string(o.stdin_target.rank)});
      break;
  }
  if (o.verbose) a.push_back("-v");
  // (MPIEXEC_TIMEOUT reaches the children in their environment.)
  if (o.timeout_s > 0 && !o.timeout_from_env)
    a.insert(a.end(), {"--timeout", std::to_string(o.timeout_s)});
  const std::pair<const char *, std::int64_t> tun[] = {
      {"--datalen", o.impi.datalen},       {"--tag-ub", o.impi.tag_ub},
      {"--coll-xsize", o.impi.coll_xsize}, {"--coll-maxlinear", o.impi.coll_maxlinear},
      {"--ackmark", o.impi.ackmark},       {"--hiwater", o.impi.hiwater}};
  for (auto [flag, v] : tun) a.insert(a.end(), {flag, std::to_string(v)});
  a.insert(a.end(), {"--startup-timeout", std::to_string(o.impi.startup_timeout_s)});
  for (const auto &x : o.env) a.insert(a.end(), {"-x", x});
  return a;
}

}  // namespace impi::startup
