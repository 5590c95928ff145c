// impirun (also mpiexec, mpirun): launches an MPI job on this machine.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/log.hpp"
#include "startup/agent/host_agent.hpp"
#include "startup/launch_options.hpp"
#include "startup/launcher.hpp"

namespace {
const char *lookup_env(const char *name) {
  return std::getenv(name);
}
}  // namespace

int main(int argc, char **argv) {
  using namespace impi::startup;
  impi::base::set_log_prefix("impirun");
  std::vector<std::string> args(argv + 1, argv + argc);
  ParsedCommandLine parsed = parse_launch_options(args, lookup_env);
  if (std::holds_alternative<HelpRequest>(parsed)) {
    std::fputs(launch_usage(), stdout);
    return 0;
  }
  if (std::holds_alternative<VersionRequest>(parsed)) {
    std::printf("impirun (impi) %s\n", IMPI_VERSION_STRING);
    return 0;
  }
  if (auto *e = std::get_if<UsageError>(&parsed)) {
    impi::base::log_error("{}", e->message);
    return 1;
  }
  int rc = 0;
  if (auto *s = std::get_if<ServerOptions>(&parsed)) {
    impi::base::set_log_prefix("impirun[server]");
    for (const auto &a : args)
      if (a == "-v" || a == "--verbose") impi::base::set_log_level(impi::base::Level::debug);
    if (!s->appfile.empty()) {
      char exe[4096] = {};
      ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
      impi::base::set_log_prefix("impirun");
      rc = impi::startup::run_appfile_job(*s, n > 0 ? exe : "/proc/self/exe");
    } else {
      rc = run_server(*s);
    }
  } else {
    const auto &o = std::get<LaunchOptions>(parsed);
    if (o.client || o.host_agent) {
      static HostAgent agent;  // lives until _Exit (its thread may still run)
      AgentHooks hooks = agent_hooks(agent);
      rc = o.host_agent ? run_host_agent(o, hooks) : run_client_job(o, hooks);
      agent.remove_socket();                                // also after a failed job
    } else if (o.clients > 1 || !o.remote_hosts.empty()) {  // (hosts: a Slurm allocation's)
      char exe[4096] = {};
      ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
      rc = run_multi_client_job(o, n > 0 ? exe : "/proc/self/exe");
    } else
      rc = run_local_job(o);
  }
  std::fflush(nullptr);
  std::_Exit(rc);  // no static destructors while PMIx threads may still run
}
