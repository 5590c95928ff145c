// pmix_host.cpp - LocalJob as a PMIx server host: the module callbacks PMIx
// calls on its progress thread (they post events to the loop, or answer at
// once), starting the server, and registering the namespaces of the job
// and of what it spawns.
#include <limits.h>
#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <thread>

#include "base/log.hpp"
#include "startup/local_job.hpp"
#include "startup/pm_client.hpp"
#include "startup/pmix_info.hpp"

namespace impi::startup::local {

namespace {

// ------------------------------------------------------------------ module callbacks
// PMIx_Query_info from a proc: the process sets (PMIX_QUERY_NUM_PSETS,
// PMIX_QUERY_PSET_NAMES, PMIX_QUERY_PSET_MEMBERSHIP with a PMIX_PSET_NAME
// qualifier). Answered at once from the job's fixed table; other keys are
// not supported.
pmix_status_t cb_query(pmix_proc_t *, pmix_query_t *queries, size_t nqueries,
                       pmix_info_cbfunc_t cbfunc, void *cbdata) {
  if (!g_job || !cbfunc) return PMIX_ERR_NOT_SUPPORTED;
  const auto &sets = g_job->psets();
  auto *answer = new InfoList;
  for (size_t q = 0; q < nqueries; ++q) {
    const char *name = nullptr;
    for (size_t k = 0; k < queries[q].nqual; ++k)
      if (PMIX_CHECK_KEY(&queries[q].qualifiers[k], PMIX_PSET_NAME) &&
          queries[q].qualifiers[k].value.type == PMIX_STRING)
        name = queries[q].qualifiers[k].value.data.string;
    for (char **key = queries[q].keys; key && *key; ++key) {
      if (std::strcmp(*key, PMIX_QUERY_NUM_PSETS) == 0) {
        std::size_t n = sets.size();
        answer->add(PMIX_QUERY_NUM_PSETS, &n, PMIX_SIZE);
      } else if (std::strcmp(*key, PMIX_QUERY_PSET_NAMES) == 0) {
        std::string all;
        for (const auto &p : sets) all += (all.empty() ? "" : ",") + p.name;
        answer->str(PMIX_QUERY_PSET_NAMES, all);
      } else if (std::strcmp(*key, PMIX_QUERY_PSET_MEMBERSHIP) == 0 && name) {
        auto it = std::find_if(sets.begin(), sets.end(),
                               [&](const WorldPset &p) { return p.name == name; });
        if (it == sets.end()) continue;
        pmix_data_array_t da;
        PMIX_DATA_ARRAY_CONSTRUCT(&da, it->ranks.size(), PMIX_PROC);
        auto *procs = static_cast<pmix_proc_t *>(da.array);
        for (std::size_t i = 0; i < it->ranks.size(); ++i)
          PMIX_LOAD_PROCID(&procs[i], g_job->pset_nspace().c_str(),
                           static_cast<pmix_rank_t>(it->ranks[i]));
        answer->add(PMIX_QUERY_PSET_MEMBERSHIP, &da, PMIX_DATA_ARRAY);
        PMIX_DATA_ARRAY_DESTRUCT(&da);  // (add copied it)
      }
    }
  }
  pmix_status_t st = answer->size() ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
  cbfunc(
      st, answer->data(), answer->size(), cbdata,
      [](void *p) { delete static_cast<InfoList *>(p); }, answer);
  return PMIX_SUCCESS;
}

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
  auto req = copy_spawn_request(*proc, apps, napps, cbfunc, cbdata);
  if (!req) return PMIX_ERR_BAD_PARAM;
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
    st = g_job->names().publish(std::string(key), info[i].value.data.string);
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
    if (auto v = g_job->names().lookup(*k))
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
    if (!g_job->names().unpublish(*k)) st = PMIX_ERR_NOT_FOUND;
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

// ------------------------------------------------------------------ namespaces
// PMIx's encodings of the node map and of the procs per node.
struct NodeMaps {
  char *nodes = nullptr, *ppn = nullptr;
  NodeMaps() = default;
  NodeMaps(const NodeMaps &) = delete;
  NodeMaps &operator=(const NodeMaps &) = delete;
  ~NodeMaps() {
    free(nodes);
    free(ppn);
  }
  bool make(const std::string &host, const std::string &peers) {
    return PMIx_generate_regex(host.c_str(), &nodes) == PMIX_SUCCESS &&
           PMIx_generate_ppn(peers.c_str(), &ppn) == PMIX_SUCCESS;
  }
};

// The job-level infos of a namespace of `n` procs in `napps` apps.
InfoList job_info(const LaunchOptions &opts, const std::string &ns, int n, std::size_t napps,
                  const NodeMaps &maps, const pmix_proc_t *parent) {
  InfoList job;
  // MPI_UNIVERSE_SIZE: the slots the user gave (--host/--hostfile), at
  // least the job. Without them it is not set, as with MPICH's mpiexec:
  // spawning beyond the cores is allowed (oversubscription), so the cores
  // are no limit to report. PMIX_MAX_PROCS still says the cores.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (opts.slots > 0) job.u32(PMIX_UNIV_SIZE, static_cast<std::uint32_t>(std::max(n, opts.slots)));
  job.u32(PMIX_MAX_PROCS,
          static_cast<std::uint32_t>(std::max(n, opts.slots > 0 ? opts.slots : cores)))
      .str(PMIX_JOBID, ns)
      .u32(PMIX_JOB_SIZE, static_cast<std::uint32_t>(n))
      .u32(PMIX_JOB_NUM_APPS, static_cast<std::uint32_t>(napps))
      .add(PMIX_NODE_MAP, maps.nodes, PMIX_REGEX)
      .add(PMIX_PROC_MAP, maps.ppn, PMIX_REGEX)
      .u32(PMIX_NUM_NODES, 1)
      .flag(PMIX_SPAWNED, parent != nullptr);
  if (parent) job.add(PMIX_PARENT_ID, parent, PMIX_PROC);
  return job;
}

void add_app_infos(InfoList &info, const std::vector<SpawnApp> &apps) {
  char cwd[PATH_MAX];
  std::string here = ::getcwd(cwd, sizeof cwd) ? cwd : "/";
  int first = 0;
  for (std::size_t k = 0; k < apps.size(); ++k) {
    std::string argvs;
    for (const auto &a : apps[k].argv) argvs += (argvs.empty() ? "" : " ") + a;
    InfoList app;
    app.u32(PMIX_APPNUM, apps[k].appnum >= 0 ? static_cast<std::uint32_t>(apps[k].appnum)
                                             : static_cast<std::uint32_t>(k))
        .u32(PMIX_APP_SIZE, static_cast<std::uint32_t>(apps[k].np))
        .rank(PMIX_APPLDR, static_cast<pmix_rank_t>(first))
        .str(PMIX_WDIR, apps[k].wdir.empty() ? here : apps[k].wdir)
        .str(PMIX_APP_ARGV, argvs);
    info.array(PMIX_APP_INFO_ARRAY, std::move(app));
    first += apps[k].np;
  }
}

void add_proc_infos(InfoList &info, const std::vector<SpawnApp> &apps, bool spawned,
                    const std::string &host) {
  int r = 0;
  for (std::size_t k = 0; k < apps.size(); ++k)
    for (int i = 0; i < apps[k].np; ++i, ++r) {
      InfoList p;  // PMIX_RANK must come first
      p.rank(PMIX_RANK, static_cast<pmix_rank_t>(r))
          .u32(PMIX_APPNUM, apps[k].appnum >= 0 ? static_cast<std::uint32_t>(apps[k].appnum)
                                                : static_cast<std::uint32_t>(k))
          .rank(PMIX_APP_RANK, static_cast<pmix_rank_t>(i))
          .rank(PMIX_GLOBAL_RANK, static_cast<pmix_rank_t>(r))
          .u16(PMIX_LOCAL_RANK, static_cast<std::uint16_t>(r))
          .u16(PMIX_NODE_RANK, static_cast<std::uint16_t>(r))
          .u32(PMIX_NODEID, 0)
          .u32(PMIX_REINCARNATION, 0)
          .flag(PMIX_SPAWNED, spawned)
          .str(PMIX_HOSTNAME, host);
      info.array(PMIX_PROC_INFO_ARRAY, std::move(p));
    }
}

}  // namespace

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
  module.query = cb_query;
  // Our server and its procs are one user's processes on one machine:
  // PMIx's default security plugin search tries munge first, and a munge
  // socket left by a stopped daemon costs 2.3 s of retries per job. The
  // procs inherit the choice; a user's own setting wins.
  ::setenv("PMIX_MCA_psec", "native", 0);
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
  // Process sets: the whole job's when impirun --clients gave them (world
  // ranks, in a namespace of that name), else this job's app contexts'.
  if (!opts_.world_psets.empty()) {
    psets_ = opts_.world_psets;
    pset_nspace_ = kWorldPsetNspace;
  } else if (opts_.remote_hosts.empty() && !opts_.host_agent) {
    psets_ = app_psets(opts_.apps);
    pset_nspace_ = nspace_;
  }  // (a client on several hosts: each host's launcher knows its own procs only; no sets)
  return register_nspace(nspace_, job_apps(opts_), nullptr);
}

bool LocalJob::register_nspace(const std::string &ns, const std::vector<SpawnApp> &apps,
                               const pmix_proc_t *parent) {
  int n = 0;
  for (const auto &a : apps) n += a.np;
  // PMIx 4.2 needs explicit rank lists ("0,1,2"): a range counts as one proc.
  std::string peers;
  for (int r = 0; r < n; ++r) peers += (r ? "," : "") + std::to_string(r);
  NodeMaps maps;
  if (!maps.make(host_, peers)) {
    base::log_error("PMIx could not encode the node map");
    return false;
  }
  const bool spawned = parent != nullptr;
  InfoList job = job_info(opts_, ns, n, apps.size(), maps, parent);
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
  add_app_infos(info, apps);
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
  add_proc_infos(info, apps, spawned, host_);
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

}  // namespace impi::startup::local
