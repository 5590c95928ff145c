#include "startup/placement.hpp"

#include <fmt/core.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <sched.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "base/log.hpp"
#include "base/tunables.hpp"
#include "transport/shm/segment.hpp"

namespace impi::startup {

namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDeleter>;

TopologyPtr load_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return nullptr;
  TopologyPtr topo(raw);
  if (hwloc_topology_load(topo.get()) != 0) return nullptr;
  return topo;
}

int cores_of(hwloc_topology_t topo) {
  int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  return n > 0 ? n : hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
}

}  // namespace

int machine_slots() {
  TopologyPtr topo = load_topology();
  int n = topo ? cores_of(topo.get()) : 0;
  return n > 0 ? n : 1;
}

base::Status check_oversubscription(const LaunchOptions &opts, int np) {
  if (!opts.no_oversubscribe) return {};
  const int slots = opts.slots > 0 ? opts.slots : machine_slots();
  if (np <= slots) return {};
  return {base::Errc::invalid_argument,
          fmt::format("{} processes, but only {} slots on this machine ({}); --nooversubscribe "
                      "refuses to start more processes than slots (leave it out to run anyway)",
                      np, slots, opts.slots > 0 ? "from --hostfile/--host" : "one per core")};
}

base::Status check_shared_memory(const LaunchOptions &opts) {
  auto setting = [&](const char *var, const char *key) {
    std::int64_t v = base::get_int(key);
    const std::string prefix = std::string(var) + "=";
    for (const auto &e : opts.env)
      if (e.rfind(prefix, 0) == 0)
        if (auto n = base::parse_int(e.substr(prefix.size()))) v = *n;
    return v;
  };
  auto r = transport::shm::plan_rings(opts.np, setting("IMPI_SHM_RING_BYTES", "shm_ring_bytes"),
                                      setting("IMPI_SHM_BUDGET_BYTES", "shm_budget_bytes"));
  if (!r) return {r.error(), r.message()};
  return {};
}

base::Result<Placement> plan_placement(const LaunchOptions &opts, int world_offset,
                                       const std::string &host) {
  Placement out;
  TopologyPtr topo = load_topology();
  if (!topo) {
    base::log_warn("hwloc could not read the machine's topology; not binding");
    return out;
  }
  // Where ranks go, round robin: cores, hardware threads or sockets.
  hwloc_obj_type_t type = opts.map_by == MapBy::hwthread ? HWLOC_OBJ_PU
                          : opts.map_by == MapBy::socket ? HWLOC_OBJ_PACKAGE
                                                         : HWLOC_OBJ_CORE;
  if (hwloc_get_nbobjs_by_type(topo.get(), type) <= 0) type = HWLOC_OBJ_PU;
  const int nobjs = hwloc_get_nbobjs_by_type(topo.get(), type);
  // Bound by default, also when procs outnumber cores (spread evenly):
  // Open MPI leaves them unbound then, but Linux's balancer often lets
  // several procs that wait for each other share one core.
  bool bind = opts.bind == BindPolicy::core || opts.bind == BindPolicy::automatic;
  if (!bind || nobjs <= 0) {
    if (opts.report_bindings)
      for (int r = 0; r < opts.np; ++r)
        std::fprintf(stderr, "[%s] rank %d is not bound\n", host.c_str(), world_offset + r);
    return out;
  }
  // Only the cpus we may run on (`taskset`, a batch system's cpuset), as
  // Open MPI and MPICH keep within them: the objects with an allowed cpu,
  // each bound to its allowed cpus.
  struct Slot {
    int index;  // the object's, among all of its type
    cpu_set_t cpus;
  };
  std::vector<Slot> slots;
  cpu_set_t allowed;
  const bool masked = ::sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  for (int i = 0; i < nobjs; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo.get(), type, static_cast<unsigned>(i));
    Slot sl{i, {}};
    CPU_ZERO(&sl.cpus);
    if (obj && obj->cpuset)
      hwloc_cpuset_to_glibc_sched_affinity(topo.get(), obj->cpuset, &sl.cpus, sizeof sl.cpus);
    if (masked) CPU_AND(&sl.cpus, &sl.cpus, &allowed);
    if (CPU_COUNT(&sl.cpus) > 0) slots.push_back(sl);
  }
  if (slots.empty()) {
    base::log_warn("none of the machine's {}s is in this process's cpu set; not binding",
                   hwloc_obj_type_string(type));
    return out;
  }
  const int n = static_cast<int>(slots.size());
  if (opts.bind == BindPolicy::core && opts.np > n)
    base::log_warn("{} processes on {} {}: binding round robin (oversubscribed)", opts.np, n,
                   hwloc_obj_type_string(type));
  for (int r = 0; r < opts.np; ++r) {
    int at = (opts.core_offset + r) % n;
    if (opts.core_blocks > 0)  // contiguous blocks: proc j of N on object j * n / N
      at =
          static_cast<int>(static_cast<std::int64_t>(opts.core_offset + r) * n / opts.core_blocks) %
          n;
    const Slot &sl = slots[static_cast<std::size_t>(at)];
    out.sets.push_back(sl.cpus);
    if (opts.report_bindings) {
      std::string cpus;
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &sl.cpus)) cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
      std::fprintf(stderr, "[%s] rank %d bound to %s %d: cpus %s\n", host.c_str(), world_offset + r,
                   hwloc_obj_type_string(type), sl.index, cpus.c_str());
    }
  }
  return out;
}

}  // namespace impi::startup
