// impi_info - what this impi installation is: version, build configuration,
// the libraries it was built against, every tunable (name, environment
// variable, default, current value, description) and the MPI functions it
// implements. Like Open MPI's ompi_info and MPICH's mpichversion.
//
//   impi_info                 everything but the function list
//   impi_info --tunables      the tunables only
//   impi_info --functions     every MPI function, implemented or not
//   impi_info --parsable      one "key:value" line per item (scripts)
//   impi_info --job [FILE]    the negotiated IMPI parameters of the IMPI
//                             clients running on this machine (their
//                             impirun writes them into its session
//                             directory), or of a job described in FILE
#include <event2/event.h>
#include <fmt/core.h>
#include <hwloc.h>
#include <pmix.h>
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "base/tunables.hpp"

namespace {

struct Function {
  const char *name;
  bool implemented;
};
constexpr Function kFunctions[] = {
#include "generated/mpi_functions.inc"
};

void usage() {
  std::puts(
      "Usage: impi_info [--all] [--tunables] [--functions] [--parsable] [--job [FILE]] [-h]\n"
      "Prints impi's version, build configuration, dependencies and tunables;\n"
      "--functions lists every MPI function and whether it is implemented;\n"
      "--parsable prints key:value lines;\n"
      "--job prints the negotiated IMPI parameters (clients, hosts, procs, datalen,\n"
      "tag_ub, ackmark/hiwater, collective switches) of every IMPI client running\n"
      "on this machine, or of the job description in FILE.");
}

// A job description written by `impirun -client` (local_job.cpp): its first
// line names the client and its impirun's pid.
bool read_job(const std::string &path, std::string &text, long &pid) {
  std::ifstream f(path);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  text = ss.str();
  int client = 0, nclients = 0;
  return std::sscanf(text.c_str(), "# impi job: client %d of %d, impirun pid %ld", &client,
                     &nclients, &pid) == 3;
}

int show_jobs(const char *file) {
  std::string text;
  long pid = 0;
  if (file) {
    if (!read_job(file, text, pid)) {
      std::fprintf(stderr, "impi_info: %s is not an impi job description (%s)\n", file,
                   std::ifstream(file) ? "no '# impi job' first line" : std::strerror(errno));
      return 1;
    }
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  const char *t = std::getenv("TMPDIR");
  std::string base = t && *t ? t : "/tmp";
  int found = 0;
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(base, ec)) {
    if (e.path().filename().string().rfind("impirun.", 0) != 0) continue;
    std::string path = e.path().string() + "/impi-job";
    if (!read_job(path, text, pid) || ::kill(static_cast<pid_t>(pid), 0) != 0) continue;  // gone
    std::printf("%s(from %s)\n\n", text.c_str(), path.c_str());
    ++found;
  }
  if (found == 0) {
    std::fprintf(
        stderr,
        "impi_info: no IMPI client is running on this machine (none left a job description "
        "under %s)\n",
        base.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  bool tunables_only = false, functions = false, parsable = false, all = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--tunables")
      tunables_only = true;
    else if (a == "--functions")
      functions = true;
    else if (a == "--parsable" || a == "--parseable")
      parsable = true;
    else if (a == "--all" || a == "-a")
      all = true;
    else if (a == "--job")
      return show_jobs(i + 1 < argc ? argv[i + 1] : nullptr);
    else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "impi_info: unknown option %s\n", argv[i]);
      usage();
      return 1;
    }
  }
  auto line = [&](std::string_view key, std::string_view value) {
    if (parsable)
      fmt::print("{}:{}\n", key, value);
    else
      fmt::print("{:>28}: {}\n", key, value);
  };
  if (!tunables_only && !(functions && !all)) {
    line("package", "impi " IMPI_VERSION_STRING);
    line("MPI standard", "4.1 (MPI_VERSION 4, MPI_SUBVERSION 1)");  // (include/mpi/mpi.h)
    line("IMPI protocol", "0.0");
    line("compiler", IMPI_COMPILER);
    line("build type", IMPI_BUILD_TYPE);
    line("install prefix", IMPI_INSTALL_PREFIX);
    line("libevent", event_get_version());
    unsigned hw = hwloc_get_api_version();
    line("hwloc", fmt::format("{}.{}.{}", hw >> 16, (hw >> 8) & 0xff, hw & 0xff));
    line("OpenPMIx", PMIx_Get_version());
    line("fmt",
         fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100));
    int n = 0;
    for (const auto &f : kFunctions) n += f.implemented;
    line("MPI functions", fmt::format("{} of {} implemented (impi_info --functions)", n,
                                      sizeof kFunctions / sizeof kFunctions[0]));
  }
  if (!(functions && !all)) {
    if (!parsable)
      std::puts("\nTunables (environment variable = default; current value when set):");
    for (const auto &t : impi::base::tunables()) {
      std::string env(t.env);
      const char *now = std::getenv(env.c_str());
      if (parsable) {
        fmt::print("tunable:{}:{}:{}:{}\n", t.name, t.env, t.default_value, now ? now : "");
      } else {
        fmt::print("  {} = {}{}\n      {}\n", t.env,
                   t.default_value.empty() ? "(empty)" : t.default_value,
                   now ? fmt::format("  (now {})", now) : "", t.description);
      }
    }
  }
  if (functions || all) {
    if (!parsable) std::puts("\nMPI functions (no: returns MPI_ERR_UNSUPPORTED_OPERATION):");
    for (const auto &f : kFunctions) {
      if (parsable)
        fmt::print("function:{}:{}\n", f.name, f.implemented ? "yes" : "no");
      else
        fmt::print("  {:<36} {}\n", f.name, f.implemented ? "yes" : "no");
    }
  }
  return 0;
}
