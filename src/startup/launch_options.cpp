#include "startup/launch_options.hpp"

#include <fmt/core.h>

#include "base/tunables.hpp"

namespace impi::startup {

const char *launch_usage() {
  return R"(Usage: impirun [options] [--] program [args...]

Launches an MPI job of N processes on this machine. impirun hosts a PMIx
server; the processes find it through the environment.

Options:
  -np N, -n N, --np N     number of processes to start (1 to 4096; default 1)
  --bind-to core|none     bind each process to one core (round robin) or not
                          (default: core when N <= number of cores, else none)
  --tag-output            prefix every output line with [1,rank]<stdout>: or
                          [1,rank]<stderr>:
  -x VAR[=value]          export VAR (with its current or the given value) to
                          the processes; may be repeated
  --timeout SECONDS       abort the job if it runs longer than this
  -v, --verbose           print launcher diagnostics on stderr
  -h, --help              show this help
  -V, --version           show the version

Exit status: 0 when every process exits 0; otherwise the exit code of the
first process that failed (the code given to MPI_Abort, or 128+signal for a
process killed by a signal); 1 for launcher errors and timeouts.
Also installed as mpiexec and mpirun.
)";
}

ParsedCommandLine parse_launch_options(const std::vector<std::string> &args,
                                       const char *(*lookup_env)(const char *)) {
  LaunchOptions o;
  bool have_np = false;
  size_t i = 0;
  auto need_value = [&](const std::string &opt) -> const std::string * {
    if (i + 1 >= args.size()) return nullptr;
    (void)opt;
    return &args[++i];
  };
  for (; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.empty() || a[0] != '-') break;  // the program
    if (a == "-h" || a == "--help") return HelpRequest{};
    if (a == "-V" || a == "--version") return VersionRequest{};
    if (a == "-np" || a == "-n" || a == "--np" || a == "-c") {
      const std::string *v = need_value(a);
      if (!v) return UsageError{fmt::format("option {} needs a number of processes", a)};
      auto n = base::parse_int(*v);
      if (!n || *n < 1 || *n > 4096)
        return UsageError{fmt::format(
            "invalid number of processes '{}': expected an integer from 1 to 4096", *v)};
      o.np = static_cast<int>(*n);
      have_np = true;
    } else if (a == "--bind-to" || a == "-bind-to") {
      const std::string *v = need_value(a);
      if (!v) return UsageError{"option --bind-to needs core or none"};
      if (*v == "core")
        o.bind = BindPolicy::core;
      else if (*v == "none")
        o.bind = BindPolicy::none;
      else
        return UsageError{fmt::format("unknown binding '{}': expected core or none", *v)};
    } else if (a == "--tag-output" || a == "-tag-output") {
      o.tag_output = true;
    } else if (a == "-v" || a == "--verbose") {
      o.verbose = true;
    } else if (a == "--timeout" || a == "-timeout") {
      const std::string *v = need_value(a);
      auto n = v ? base::parse_int(*v) : std::nullopt;
      if (!n || *n < 1) return UsageError{"option --timeout needs a positive number of seconds"};
      o.timeout_s = static_cast<int>(*n);
    } else if (a == "-x") {
      const std::string *v = need_value(a);
      if (!v || v->empty() || (*v)[0] == '=') return UsageError{"option -x needs VAR or VAR=value"};
      auto eq = v->find('=');
      if (eq != std::string::npos) {
        o.env.push_back(*v);
      } else {
        const char *cur = lookup_env(v->c_str());
        if (!cur)
          return UsageError{fmt::format("-x {}: {} is not set in this environment", *v, *v)};
        o.env.push_back(*v + "=" + cur);
      }
    } else {
      return UsageError{fmt::format("unknown option '{}' (see impirun --help)", a)};
    }
  }
  for (; i < args.size(); ++i) o.argv.push_back(args[i]);
  if (o.argv.empty()) return UsageError{"no program given to run (see impirun --help)"};
  if (!have_np) o.np = 1;  // like MPICH's mpiexec without -n
  return o;
}

}  // namespace impi::startup
