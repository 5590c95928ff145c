#include "startup/session_dir.hpp"

#include <fmt/core.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "base/log.hpp"

namespace impi::startup {

namespace {
// Whether the process `pid` is certainly gone (not merely someone else's).
bool gone(long pid) {
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}
}  // namespace

std::string session_root() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

void sweep_dead_sessions(const std::string &root) {
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(root, ec)) {
    std::string name = e.path().filename().string();
    long pid = 0;
    char tail[16] = {};
    if (std::sscanf(name.c_str(), "impirun.%ld.%15s", &pid, tail) != 2 || pid <= 0) continue;
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    if (!gone(pid)) continue;  // alive (or not ours to judge)
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
    if (!gone(pid)) continue;
    std::filesystem::remove(e.path(), ec);
  }
}

std::string create_session_dir() {
  const char *tbase = std::getenv("TMPDIR");
  std::string root = session_root();
  sweep_dead_sessions(root);
  std::string tmpl = fmt::format("{}/impirun.{}.XXXXXX", root, ::getpid());
  if (!::mkdtemp(tmpl.data())) {
    base::log_error("cannot create a session directory under {}: {}", tbase ? tbase : "/tmp",
                    std::strerror(errno));
    return "";
  }
  return tmpl;
}

void remove_session_dir(const std::string &dir) {
  // When the job was torn down, PMIx's progress thread is still running
  // and may be adding a data segment under `dir` while it is removed (the
  // rmdir then fails: not empty; seen once in CI). Try again a few times:
  // once the directory itself is gone, nothing can be added.
  for (int attempt = 0; attempt < 50; ++attempt) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (!std::filesystem::exists(dir, ec) && !ec) break;
    ::usleep(10000);
  }
}

void remove_shm_segments(const std::string &nspace) {
  // Shared-memory segments of a job's procs ("/impi-<nspace>-<rank>-<pid>"):
  // a proc removes its own once its peers have mapped it, but one killed
  // during MPI_Init may not have; nothing of the job may outlive it.
  std::string prefix = "impi-" + nspace + "-";
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator("/dev/shm", ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) std::filesystem::remove(e.path(), ec);
}

}  // namespace impi::startup
