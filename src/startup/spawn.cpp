// spawn.cpp - MPI_Comm_spawn(_multiple): PMIx hands the request over on its
// thread (copy_spawn_request); the loop starts the new namespace on this
// node (LocalJob::spawn).
#include <fmt/core.h>
#include <pmix.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/log.hpp"
#include "startup/local_job.hpp"

namespace impi::startup::local {

std::shared_ptr<SpawnRequest> copy_spawn_request(const pmix_proc_t &parent, const pmix_app_t apps[],
                                                 std::size_t napps, pmix_spawn_cbfunc_t cbfunc,
                                                 void *cbdata) {
  auto req = std::make_shared<SpawnRequest>();
  req->parent_nspace = parent.nspace;
  req->parent_rank = static_cast<int>(parent.rank);
  for (std::size_t i = 0; i < napps; ++i) {
    SpawnApp a;
    a.cmd = apps[i].cmd ? apps[i].cmd : "";
    for (char **v = apps[i].argv; v && *v; ++v) a.argv.emplace_back(*v);
    if (a.argv.empty()) a.argv.push_back(a.cmd);
    for (char **v = apps[i].env; v && *v; ++v) a.env.emplace_back(*v);
    a.wdir = apps[i].cwd ? apps[i].cwd : "";
    a.np = apps[i].maxprocs;
    if (a.cmd.empty() || a.np <= 0 || a.np > 4096) return nullptr;
    req->apps.push_back(std::move(a));
  }
  req->cbfunc = cbfunc;
  req->cbdata = cbdata;
  return req;
}

// A new namespace on this node. Every program is found before anything
// starts, so a missing one fails the spawn (the parent gets the error)
// instead of starting half a job.
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

}  // namespace impi::startup::local
