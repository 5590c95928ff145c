#include "startup/pm_client.hpp"

#include <fcntl.h>
#include <pmix.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "base/log.hpp"
#include "base/tunables.hpp"

extern char **environ;

namespace impi::startup {

using base::Errc;
using base::Result;
using base::Status;

bool launched_by_pmix() {
  if (std::getenv("PMIX_NAMESPACE")) return true;
  for (char **e = environ; e && *e; ++e)
    if (std::strncmp(*e, "PMIX_SERVER_URI", 15) == 0) return true;
  return false;
}

namespace {

// The life pipe (pm_client.hpp), -1 when the launcher gave none. Adopted
// under a descriptor of our own, closed on exec, so that neither the
// program's children nor a descriptor the program reuses get our reports.
int g_life_fd = -1;

void adopt_life_pipe() {
  const char *v = std::getenv("IMPI_LIFE_FD");  // "FD:INODE"
  if (!v) return;
  char *end = nullptr;
  const long fd = std::strtol(v, &end, 10);
  const bool parsed = end != v && *end == ':';
  const unsigned long long ino = parsed ? std::strtoull(end + 1, &end, 10) : 0;
  ::unsetenv("IMPI_LIFE_FD");
  struct stat st {};
  // Not ours (an outer launcher's, or a descriptor the program closed and
  // reused): PMIx's notices only.
  if (!parsed || *end || fd < 0 || fd > 1 << 20 || ::fstat(static_cast<int>(fd), &st) != 0 ||
      !S_ISFIFO(st.st_mode) || static_cast<unsigned long long>(st.st_ino) != ino)
    return;
  g_life_fd = ::fcntl(static_cast<int>(fd), F_DUPFD_CLOEXEC, 3);
  ::close(static_cast<int>(fd));
}

void report_life(char what) {
  if (g_life_fd < 0) return;
  ssize_t n;
  do n = ::write(g_life_fd, &what, 1);
  while (n < 0 && errno == EINTR);
}

// A PMIx status as one of our errors, the launcher's reason in the message:
// "PMIx_Publish: the launcher does not support this (PMIx: NOT-SUPPORTED)".
base::Status pmix_failure(std::string_view what, pmix_status_t rc) {
  struct Kind {
    pmix_status_t rc;
    Errc errc;
    const char *meaning;
  };
  static const Kind kinds[] = {
      {PMIX_ERR_NOT_SUPPORTED, Errc::not_supported, "the launcher does not support this"},
      {PMIX_ERR_NOT_FOUND, Errc::not_found, "not found"},
      {PMIX_ERR_BAD_PARAM, Errc::invalid_argument, "the launcher refused the arguments"},
      {PMIX_ERR_DUPLICATE_KEY, Errc::invalid_argument, "the name is already published"},
      {PMIX_ERR_TIMEOUT, Errc::timeout, "the launcher did not answer in time"},
      {PMIX_ERR_UNREACH, Errc::peer_died, "the launcher cannot be reached"},
      {PMIX_ERR_LOST_CONNECTION, Errc::peer_died, "the connection to the launcher was lost"},
      {PMIX_ERR_NOMEM, Errc::no_memory, "the launcher is out of memory"},
      {PMIX_ERR_OUT_OF_RESOURCE, Errc::no_memory, "the launcher is out of resources"},
      {PMIX_ERR_NO_PERMISSIONS, Errc::invalid_argument, "the launcher does not permit this"},
  };
  for (const auto &k : kinds)
    if (k.rc == rc)
      return {k.errc, fmt::format("{}: {} (PMIx: {})", what, k.meaning, PMIx_Error_string(rc))};
  return {Errc::io_error, fmt::format("{}: the launcher failed (PMIx: {}, status {})", what,
                                      PMIx_Error_string(rc), static_cast<int>(rc))};
}

std::string local_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

constexpr const char *kNoLauncher =
    "this process runs without a launcher (singleton); start it with impirun to spawn processes or "
    "publish names";

// Rank 0 of 1 with a private key-value store.
class Singleton final : public ProcessManager {
 public:
  Singleton() {
    job_.nspace = "singleton";
    job_.hostname = local_hostname();
  }
  const JobInfo &job() const override { return job_; }
  Status put(std::string_view key, std::string_view value) override {
    kv_[std::string(key)] = std::string(value);
    return {};
  }
  Status fence(bool) override { return {}; }
  Result<std::string> get(std::uint32_t rank, std::string_view key) override {
    auto it = kv_.find(std::string(key));
    if (rank != 0 || it == kv_.end())
      return {Errc::not_found, fmt::format("no key '{}' for rank {}", key, rank)};
    return it->second;
  }
  void abort(int, std::string_view) override {}
  Status finalize() override { return {}; }
  Result<std::string> spawn(const std::vector<SpawnSpec> &) override {
    return {Errc::not_supported, kNoLauncher};
  }
  Status publish(const std::string &, const std::string &) override {
    return {Errc::not_supported, kNoLauncher};
  }
  Result<std::string> lookup(const std::string &) override {
    return {Errc::not_supported, kNoLauncher};
  }
  Status unpublish(const std::string &) override { return {Errc::not_supported, kNoLauncher}; }

 private:
  JobInfo job_;
  std::map<std::string, std::string> kv_;
};

class PmixClient final : public ProcessManager {
 public:
  static Result<std::unique_ptr<ProcessManager>> connect() {
    auto self = std::unique_ptr<PmixClient>(new PmixClient);
    pmix_status_t rc = PMIx_Init(&self->me_, nullptr, 0);
    if (rc != PMIX_SUCCESS)
      return {Errc::peer_died,
              fmt::format("the environment names a PMIx launcher, but PMIx_Init failed: {}",
                          PMIx_Error_string(rc))};
    self->initialized_ = true;
    adopt_life_pipe();
    report_life(kLifeInit);
    if (Status s = self->load_job_info(); !s.ok()) return {s.error(), s.message()};
    return std::unique_ptr<ProcessManager>(std::move(self));
  }

  // No PMIx_Finalize here: a process that exits without MPI_Finalize must
  // look like one to the launcher.
  ~PmixClient() override = default;

  const JobInfo &job() const override { return job_; }

  Status put(std::string_view key, std::string_view value) override {
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    pmix_byte_object_t bo;
    bo.bytes = const_cast<char *>(value.data());
    bo.size = value.size();
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo = bo;
    std::string k(key);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, k.c_str(), &v);
    if (rc != PMIX_SUCCESS) return pmix_failure(fmt::format("PMIx_Put({})", key), rc);
    return {};
  }

  Status fence(bool collect) override {
    if (collect) {
      pmix_status_t rc = PMIx_Commit();
      if (rc != PMIX_SUCCESS) return pmix_failure("PMIx_Commit", rc);
    }
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me_.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t info[2];
    bool c = collect;
    int timeout = static_cast<int>(base::get_int("pmix_timeout_s"));
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &c, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(&all, 1, info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc == PMIX_ERR_PARTIAL_SUCCESS)
      return {Errc::peer_died, "another process of the job ended before reaching this point"};
    if (rc != PMIX_SUCCESS)
      return {Errc::peer_died, fmt::format("PMIx_Fence: {}", PMIx_Error_string(rc))};
    return {};
  }

  Result<std::string> get(std::uint32_t rank, std::string_view key) override {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, me_.nspace, rank);
    pmix_value_t *v = nullptr;
    std::string k(key);
    pmix_status_t rc = PMIx_Get(&p, k.c_str(), nullptr, 0, &v);
    if (rc != PMIX_SUCCESS)
      return {Errc::not_found,
              fmt::format("PMIx_Get(rank {}, {}): {}", rank, key, PMIx_Error_string(rc))};
    std::string out;
    if (v->type == PMIX_BYTE_OBJECT)
      out.assign(v->data.bo.bytes, v->data.bo.size);
    else if (v->type == PMIX_STRING && v->data.string)
      out = v->data.string;
    else {
      PMIX_VALUE_RELEASE(v);
      return {Errc::protocol_error,
              fmt::format("PMIx_Get(rank {}, {}): unexpected type", rank, key)};
    }
    PMIX_VALUE_RELEASE(v);
    return out;
  }

  void abort(int code, std::string_view message) override {
    std::string m(message);
    // Blocks until the launcher has acted on it (it kills us, normally).
    PMIx_Abort(code, m.c_str(), nullptr, 0);
  }

  Result<std::string> spawn(const std::vector<SpawnSpec> &apps) override {
    std::vector<pmix_app_t> a(apps.size());
    std::vector<std::vector<char *>> argvs(apps.size()), envs(apps.size());
    for (std::size_t i = 0; i < apps.size(); ++i) {
      PMIX_APP_CONSTRUCT(&a[i]);
      a[i].cmd = const_cast<char *>(apps[i].command.c_str());
      argvs[i].push_back(const_cast<char *>(apps[i].command.c_str()));
      for (const auto &x : apps[i].argv) argvs[i].push_back(const_cast<char *>(x.c_str()));
      argvs[i].push_back(nullptr);
      for (const auto &x : apps[i].env) envs[i].push_back(const_cast<char *>(x.c_str()));
      envs[i].push_back(nullptr);
      a[i].argv = argvs[i].data();
      a[i].env = envs[i].data();
      a[i].cwd = apps[i].wdir.empty() ? nullptr : const_cast<char *>(apps[i].wdir.c_str());
      a[i].maxprocs = apps[i].maxprocs;
    }
    char ns[PMIX_MAX_NSLEN + 1] = {};
    pmix_status_t rc = PMIx_Spawn(nullptr, 0, a.data(), a.size(), ns);
    // Our pointers are not PMIx's to free.
    for (auto &x : a) x.cmd = nullptr, x.argv = nullptr, x.env = nullptr, x.cwd = nullptr;
    if (rc == PMIX_ERR_NOT_FOUND)
      return {Errc::not_found,
              "the launcher could not spawn the processes: a program was not found (the "
              "launcher says which)"};
    if (rc != PMIX_SUCCESS) {
      auto st = pmix_failure("the launcher could not spawn the processes", rc);
      return {st.error(), st.message()};
    }
    return std::string(ns);
  }

  Status publish(const std::string &key, const std::string &value) override {
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key.c_str(), value.c_str(), PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) return pmix_failure("PMIx_Publish", rc);
    return {};
  }

  Result<std::string> lookup(const std::string &key) override {
    pmix_pdata_t d;
    PMIX_PDATA_CONSTRUCT(&d);
    PMIX_LOAD_KEY(d.key, key.c_str());
    pmix_status_t rc = PMIx_Lookup(&d, 1, nullptr, 0);
    std::string out;
    if (rc == PMIX_SUCCESS && d.value.type == PMIX_STRING && d.value.data.string)
      out = d.value.data.string;
    PMIX_PDATA_DESTRUCT(&d);
    if (rc == PMIX_SUCCESS && !out.empty()) return out;
    if (rc == PMIX_SUCCESS || rc == PMIX_ERR_NOT_FOUND)
      return {Errc::not_found, "no such name is published"};
    auto st = pmix_failure("PMIx_Lookup", rc);
    return {st.error(), st.message()};
  }

  Status unpublish(const std::string &key) override {
    char *keys[2] = {const_cast<char *>(key.c_str()), nullptr};
    pmix_status_t rc = PMIx_Unpublish(keys, nullptr, 0);
    if (rc == PMIX_ERR_NOT_FOUND) return {Errc::not_found, "no such name is published"};
    if (rc != PMIX_SUCCESS) return pmix_failure("PMIx_Unpublish", rc);
    return {};
  }

  std::vector<LauncherPset> psets() override {
    std::vector<LauncherPset> out;
    std::string names;
    if (!query(PMIX_QUERY_PSET_NAMES, nullptr, [&](const pmix_value_t &v) {
          if (v.type == PMIX_STRING && v.data.string) names = v.data.string;
        }))
      return out;
    const std::uint32_t offset = job_.world_rank - job_.rank;  // our client's first world rank
    std::string_view rest = names;
    while (!rest.empty()) {
      auto comma = rest.find(',');
      std::string name(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (name.empty()) continue;
      LauncherPset p{name, {}};
      bool ok = true;
      query(PMIX_QUERY_PSET_MEMBERSHIP, name.c_str(), [&](const pmix_value_t &v) {
        if (v.type != PMIX_DATA_ARRAY || !v.data.darray || v.data.darray->type != PMIX_PROC) {
          ok = false;
          return;
        }
        const auto *procs = static_cast<const pmix_proc_t *>(v.data.darray->array);
        for (std::size_t i = 0; i < v.data.darray->size; ++i) {
          std::uint32_t r = procs[i].rank;
          if (PMIX_CHECK_NSPACE(procs[i].nspace, me_.nspace) && r < job_.size)
            p.world_ranks.push_back(offset + r);
          else if (PMIX_CHECK_NSPACE(procs[i].nspace, kWorldPsetNspace) && r < job_.world_size)
            p.world_ranks.push_back(r);
          else
            ok = false;  // another job's procs (a spawned one's): not a set of this world
        }
      });
      if (ok && !p.world_ranks.empty()) out.push_back(std::move(p));
    }
    return out;
  }

  Status finalize() override {
    if (!initialized_) return {};
    initialized_ = false;
    report_life(kLifeFinalize);
    if (g_life_fd >= 0) ::close(g_life_fd);
    g_life_fd = -1;
    pmix_status_t rc = PMIx_Finalize(nullptr, 0);
    if (rc != PMIX_SUCCESS) return pmix_failure("PMIx_Finalize", rc);
    return {};
  }

 private:
  PmixClient() = default;

  // PMIx_Query_info of one key (with a PMIX_PSET_NAME qualifier when
  // `pset` is given); calls `take` with the value of each answer for that
  // key, looking into PMIX_QUERY_RESULTS arrays. False when nothing came.
  template <class F>
  bool query(const char *key, const char *pset, F &&take) {
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    pmix_status_t rc = PMIX_SUCCESS;
    PMIX_ARGV_APPEND(rc, q.keys, key);
    if (rc != PMIX_SUCCESS) return false;
    if (pset) {
      PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
      PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_PSET_NAME, pset, PMIX_STRING);
    }
    pmix_info_t *results = nullptr;
    std::size_t n = 0;
    rc = PMIx_Query_info(&q, 1, &results, &n);
    PMIX_QUERY_DESTRUCT(&q);
    if (rc != PMIX_SUCCESS || !results) return false;
    bool found = false;
    auto visit = [&](auto &self, const pmix_info_t *info, std::size_t count, int depth) -> void {
      for (std::size_t i = 0; i < count; ++i) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
          take(info[i].value);
          found = true;
        } else if (depth < 4 && PMIX_CHECK_KEY(&info[i], PMIX_QUERY_RESULTS) &&
                   info[i].value.type == PMIX_DATA_ARRAY && info[i].value.data.darray &&
                   info[i].value.data.darray->type == PMIX_INFO) {
          self(self, static_cast<const pmix_info_t *>(info[i].value.data.darray->array),
               info[i].value.data.darray->size, depth + 1);
        }
      }
    };
    visit(visit, results, n, 0);
    PMIX_INFO_FREE(results, n);
    return found;
  }

  Result<std::uint32_t> get_u32(std::uint32_t rank, const char *key) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, me_.nspace, rank);
    pmix_value_t *v = nullptr;
    pmix_status_t rc = PMIx_Get(&p, key, nullptr, 0, &v);
    if (rc != PMIX_SUCCESS) return {Errc::not_found, PMIx_Error_string(rc)};
    std::uint32_t x = 0;
    PMIX_VALUE_GET_NUMBER(rc, v, x, std::uint32_t);
    PMIX_VALUE_RELEASE(v);
    if (rc != PMIX_SUCCESS) return {Errc::protocol_error, fmt::format("{} is not a number", key)};
    return x;
  }

  Status load_job_info() {
    job_.singleton = false;
    job_.nspace = me_.nspace;
    job_.rank = me_.rank;
    // Job- and node-level keys are read with the wildcard rank (PMIX-NOTES 5).
    auto size = get_u32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    if (!size) return {Errc::protocol_error, "the launcher did not provide PMIX_JOB_SIZE"};
    job_.size = *size;
    if (auto v = get_u32(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE)) job_.local_size = *v;
    if (auto v = get_u32(me_.rank, PMIX_LOCAL_RANK)) job_.local_rank = *v;
    if (auto v = get_u32(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE)) job_.universe_size = *v;
    if (auto v = get_u32(me_.rank, PMIX_APPNUM)) job_.appnum = *v;
    job_.hostname = local_hostname();
    pmix_value_t *v = nullptr;
    if (PMIx_Get(&me_, PMIX_HOSTNAME, nullptr, 0, &v) == PMIX_SUCCESS) {
      if (v->type == PMIX_STRING && v->data.string) job_.hostname = v->data.string;
      PMIX_VALUE_RELEASE(v);
    }
    if (job_.rank >= job_.size)
      return {Errc::protocol_error,
              fmt::format("launcher gave rank {} in a job of size {}", job_.rank, job_.size)};
    job_.world_rank = job_.rank;
    job_.world_size = job_.size;
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me_.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *iv = nullptr;
    // Only our own launcher sets this key; PMIx may look for it briefly on other launchers.
    pmix_info_t opt;
    bool optional = true;
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    if (PMIx_Get(&wild, kImpiJobKey, &opt, 1, &iv) == PMIX_SUCCESS) {
      base::Result<ImpiJob> j{Errc::protocol_error,
                              "the IMPI job description is not a byte object"};
      if (iv->type == PMIX_BYTE_OBJECT)
        j = decode_job(
            std::span(reinterpret_cast<const std::byte *>(iv->data.bo.bytes), iv->data.bo.size));
      PMIX_VALUE_RELEASE(iv);
      if (!j) return {j.error(), "the launcher's IMPI job description: " + j.message()};
      std::uint32_t offset = j->first_local_proc();  // our launcher's hosts' procs
      if (j->local_nprocs() != job_.size)
        return {Errc::protocol_error, "the IMPI job description does not match the PMIx job"};
      job_.world_rank = offset + job_.rank;
      job_.world_size = static_cast<std::uint32_t>(j->procs.size());
      job_.impi = std::move(j.value());
    }
    PMIX_INFO_DESTRUCT(&opt);
    return {};
  }

  pmix_proc_t me_{};
  bool initialized_ = false;
  JobInfo job_;
};

}  // namespace

Result<std::unique_ptr<ProcessManager>> connect_process_manager() {
  if (!launched_by_pmix()) {
    // Slurm's srun without PMIx starts every task as a singleton: N jobs of
    // one process instead of one of N. Say so, as Open MPI does.
    const char *ntasks = std::getenv("SLURM_STEP_NUM_TASKS");
    const char *procid = std::getenv("SLURM_PROCID");
    if (ntasks && procid && std::atoi(ntasks) > 1)
      return {Errc::invalid_argument,
              fmt::format("this process is task {} of {} that Slurm's srun started without "
                          "PMIx, so they cannot form one MPI job (each would run alone). Start "
                          "them with 'srun --mpi=pmix' (or set MpiDefault=pmix in slurm.conf), "
                          "or with impirun inside the allocation",
                          procid, ntasks)};
    return std::unique_ptr<ProcessManager>(new Singleton);
  }
  return PmixClient::connect();
}

}  // namespace impi::startup
