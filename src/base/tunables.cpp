#include "base/tunables.hpp"

#include <charconv>
#include <cstdlib>

#include "base/log.hpp"

namespace impi::base {

namespace {
// Keep sorted by name. Descriptions say what the knob does and why the default.
constexpr Tunable kTable[] = {
    {"ackmark", "IMPI_ACKMARK", "10",
     "IMPI client: H_ACKMARK advertised per host (a PROTOACK every this many packets); 10 as "
     "LAM/MPI"},
    {"agent_direct", "IMPI_AGENT_DIRECT", "1",
     "IMPI host agent: a host with one proc hands that proc its host channels, and the proc runs "
     "them itself (the same packets, no hop through the agent); 0: the agent funnels"},
    {"agent_queue_bytes", "IMPI_AGENT_QUEUE_BYTES", "67108864",
     "IMPI host agent: stop reading a proc's link while that proc's packets queued for one peer "
     "host (held by flow control or a full socket) exceed this many bytes; resume at half (0: no "
     "limit)"},
    {"agent_spin_us", "IMPI_AGENT_SPIN_US", "200",
     "IMPI host agent: after moving packets, keep polling (yielding the core) this many "
     "microseconds before blocking; a blocked agent's wake-up costs more than a message's trip"},
    {"agent_trace", "IMPI_AGENT_TRACE", "",
     "IMPI host agent (a test hook): a file where it appends a line for every message a proc "
     "starts toward another host; set, it also keeps direct channels off (empty: no trace)"},
    {"channel_congestion", "IMPI_CHANNEL_CONGESTION", "cubic",
     "IMPI host channels between two loopback addresses: the TCP congestion control they ask for "
     "(BBR paces some loopback connections well below cubic's rate); empty: the system's"},
    {"coll_allreduce_ring_min", "IMPI_COLL_ALLREDUCE_RING_MIN", "65536",
     "collectives inside one client: Allreduce of at least this many bytes (commutative "
     "operations) uses the ring reduce-scatter + allgather instead of recursive doubling"},
    {"coll_cma_threshold", "IMPI_COLL_CMA_THRESHOLD", "65536",
     "collectives: their messages are read straight from the sender's memory from this many bytes "
     "(below it the copy through the ring is faster for an exchange that waits on each message)"},
    {"coll_lam_linear", "IMPI_COLL_LAM_LINEAR", "0",
     "IMPI collectives: 1 uses LAM/MPI 7.1.4's rule (linear among masters iff there are at most 4)"
     " instead of the spec's (linear iff fewer than C_COLL_MAXLINEAR), to interoperate with LAM"},
    {"coll_maxlinear", "IMPI_COLL_MAXLINEAR", "-1",
     "IMPI client: C_COLL_MAXLINEAR (-1 = the protocol default, 4 hosts); every client must send "
     "the same value"},
    {"coll_reduce_pt2pt_clients", "IMPI_COLL_REDUCE_PT2PT_CLIENTS", "",
     "IMPI collectives: comma-separated client ranks whose MPI_Reduce global-phase messages use "
     "the point-to-point context instead of the collective one (spec 4.3), as LAM/MPI 7.1.4 does; "
     "for a mixed job with an unpatched LAM client (empty: the spec's context for every client)"},
    {"coll_comm_slots", "IMPI_COLL_COMM_SLOTS", "1",
     "in one client, blocking Barrier and small Allreduce on a communicator other than "
     "MPI_COMM_WORLD take a pair of shared-memory slots of its own from its third such call "
     "(0: messages, as before)"},
    {"coll_sibling_spin_us", "IMPI_COLL_SIBLING_SPIN_US", "20",
     "procs outnumbering cores, MPI_COMM_WORLD's slot Barrier/Allreduce: microseconds to poll "
     "(instead of yielding) once every proc bound to our cpu has arrived; and a wait on another "
     "client: microseconds to poll while every proc bound to our cpu is of our client and waits "
     "for shared memory with nothing come (0: always yield)"},
    {"coll_split_threshold", "IMPI_COLL_SPLIT_THRESHOLD", "262144",
     "collectives inside one client: their single-copy messages are copied half by each side (as "
     "IMPI_SHM_SPLIT_THRESHOLD) from this many bytes; lower than that, a reduction that reads what "
     "it received at once gets slower (0: never)"},
    {"coll_xsize", "IMPI_COLL_XSIZE", "-1",
     "IMPI client: C_COLL_XSIZE (-1 = the protocol default, 1024 bytes); every client must send "
     "the same value"},
    {"datalen", "IMPI_DATALEN", "65536",
     "IMPI client: C_DATALEN, user bytes per packet; 64 KiB keeps TCP near wire speed while "
     "packets of different pairs still interleave"},
    {"dyn_address", "IMPI_DYN_ADDRESS", "127.0.0.1",
     "dynamic processes: the address each proc's TCP listener for procs of other jobs binds to "
     "(procs on the same node use an abstract Unix socket instead; empty: no TCP listener)"},
    {"dyn_shm", "IMPI_DYN_SHM", "1",
     "dynamic processes: procs of different jobs on one node send through a shared-memory ring (0:"
     " through their Unix socket)"},
    {"dyn_timeout_s", "IMPI_DYN_TIMEOUT", "60",
     "MPI_Comm_connect/accept: longest wait for the other root during the group exchange once "
     "connected (MPI_Comm_accept itself waits for a connection without limit, as MPI asks)"},
    {"finalize_notice_ms", "IMPI_FINALIZE_NOTICE_MS", "500",
     "impirun: how long a proc that exited 0 may precede PMIx's notice that it called MPI_Finalize"
     " before it counts as having exited without it (only a proc that wrote nothing on its life "
     "pipe waits: an impi proc's pipe tells at once)"},
    {"finalize_notices", "IMPI_FINALIZE_NOTICES", "1",
     "impirun (a test hook): 0 ignores PMIx's notices that a proc called MPI_Init and "
     "MPI_Finalize, so that what the proc wrote on its life pipe alone decides"},
    {"hiwater", "IMPI_HIWATER", "20",
     "IMPI client: H_HIWATER advertised per host (most unacknowledged packets per proc pair); 20 "
     "as LAM/MPI"},
    {"host_address", "IMPI_HOST_ADDRESS", "",
     "IMPI client: the address its host advertises, listens on and binds to (empty: the local "
     "address of the connection to the server)"},
    {"io_memory_rounds", "IMPI_IO_MEMORY_ROUNDS", "1",
     "MPI-IO on a communicator of at most 8 processes across IMPI clients, where every process "
     "may write into every other's memory: the rounds that agree on a two-phase access's range "
     "and on its errors, and those of a file's collective calls (open, close, set_view, set_size, "
     "sync, seek_shared, ordered accesses...; agreed at the first open on the communicator), are "
     "words each process writes into the others' memory instead of messages over the IMPI "
     "channels (0: messages)"},
    {"io_pull_clients", "IMPI_IO_PULL_CLIENTS", "1",
     "MPI-IO two-phase accesses: an aggregator reads (writes) the pieces of a process of another "
     "IMPI client on the same machine straight from (into) its memory with cross-memory attach, "
     "as within a client, instead of moving them over the IMPI channels (0: over the channels)"},
    {"io_read_bounce", "IMPI_IO_READ_BOUNCE", "auto",
     "MPI-IO: a large read into memory 1-63 bytes past the file offset, modulo the page, goes "
     "through an aligned buffer (1) or straight (0); auto: through the buffer where a probe at the"
     " first such read finds the kernel's copy at that distance over a third slower (some AMD "
     "EPYC), else straight"},
    {"kill_grace_ms", "IMPI_KILL_GRACE_MS", "2000",
     "impirun: after SIGTERM to a failing job, wait this long before SIGKILL (long enough for a "
     "proc to flush output, short enough not to hang)"},
    {"name_dir", "IMPI_NAME_DIR", "",
     "impirun: a directory where MPI_Publish_name also stores names, so that the jobs of every "
     "impirun sharing it can look them up (empty: names stay within one impirun)"},
    {"native_order_clients", "IMPI_NATIVE_ORDER_CLIENTS", "",
     "IMPI point-to-point: comma-separated client ranks whose user data travels in this machine's "
     "byte order instead of external32 (spec 4.1), for types whose two forms have the same size, "
     "as LAM/MPI 7.1.4 in a single-node universe sends it (empty: external32 with every client)"},
    {"peer_death_wait_ms", "IMPI_PEER_DEATH_WAIT_MS", "10000",
     "MPI_Init/MPI_Finalize: when a peer died during the job-wide fence, wait this long for the "
     "launcher to end the job (and name that peer) before failing ourselves"},
    {"peer_stall_s", "IMPI_PEER_STALL_S", "10",
     "IMPI host agent: a peer host that takes none of our data for this many seconds while we have"
     " some to send has stopped reading; its channel is closed and the job ends, naming it (0: "
     "wait for ever)"},
    {"pmix_timeout_s", "IMPI_PMIX_TIMEOUT", "60",
     "MPI_Init: longest wait for the launcher's PMIx fence before giving up (covers slow starts on"
     " an oversubscribed node)"},
    {"shm_cma_batch", "IMPI_SHM_CMA_BATCH", "32",
     "single-copy messages from one peer that matched in one pass over its ring are read with one "
     "process_vm_readv, up to this many (at most 32; 1: one call each)"},
    {"rma_cma", "IMPI_RMA_CMA", "1",
     "one-sided operations on user memory (MPI_Win_create, dynamic windows) of procs of this host "
     "read and write it directly with cross-memory attach; 0: as messages the target serves"},
    {"shm_cma_threshold", "IMPI_SHM_CMA_THRESHOLD", "131072",
     "shared memory: contiguous messages of at least this many bytes are read by the receiver "
     "straight from the sender's memory (one copy; 0 disables)"},
    {"shm_eager_limit", "IMPI_SHM_EAGER_LIMIT", "65536",
     "shared memory: messages up to this many bytes travel as one record; longer ones are streamed"
     " in chunks (capped at a quarter of the ring)"},
    {"shm_prefetch_lines", "IMPI_SHM_PREFETCH_LINES", "8",
     "shared memory: a proc sending several messages in a row to one peer (with nothing from it "
     "in between) asks for this many ring lines ahead of its records with intent to write, so "
     "that its stores do not each wait for a line to come back from the receiver's core (0: "
     "none; not in a ping-pong, where it measured slower)"},
    {"shm_ring_bytes", "IMPI_SHM_RING_BYTES", "0",
     "shared memory: bytes of each per-peer ring (a power of two >= 4096); bigger rings let more "
     "data be in flight before a sender waits. 0: 512 KiB, halved (down to 16 KiB) until a host's "
     "np x np rings fit in IMPI_SHM_BUDGET_BYTES"},
    {"shm_budget_bytes", "IMPI_SHM_BUDGET_BYTES", "67108864",
     "shared memory: what one host's rings may take in all when their size is automatic (at most "
     "an eighth of the machine's memory)"},
    {"shm_spin", "IMPI_SHM_SPIN", "2000",
     "waiting: polls of the rings before sleeping on the doorbell when every local proc has a core"
     " (spinning is cheaper than a futex wake-up)"},
    {"machine_cpus", "IMPI_MACHINE_CPUS", "0",
     "cpus of this machine the job may use (impirun sets it when it runs within fewer than the "
     "machine has: taskset, a cpuset); procs compare it with IMPI_MACHINE_PROCS to know whether "
     "they share cores (0: all online cpus)"},
    {"machine_procs", "IMPI_MACHINE_PROCS", "0",
     "procs of the job on this machine in all its clients (impirun --clients sets it); when they "
     "outnumber the cores, waiting procs yield and then block, as with "
     "IMPI_SHM_SPIN_OVERSUBSCRIBED "
     "(0: count only this client's procs)"},
    {"shm_spin_oversubscribed", "IMPI_SHM_SPIN_OVERSUBSCRIBED", "5000",
     "waiting: polls (each followed by sched_yield) before sleeping when local procs outnumber "
     "cores, so the proc being waited for gets the core"},
    {"shm_spin_us", "IMPI_SHM_SPIN_US", "1000",
     "procs with a core each: after IMPI_SHM_SPIN polls, a waiting proc polls on until this many "
     "microseconds have passed before it sleeps on its doorbell (a futex wake-up costs tens of "
     "microseconds; 0: sleep after the polls)"},
    {"shm_exchange_ring", "IMPI_SHM_EXCHANGE_RING", "2",
     "shared memory: a large message to a proc from which a receive of at least "
     "IMPI_SHM_CMA_THRESHOLD bytes is posted (an exchange) goes through the ring, two overlapping "
     "copies, not single copy (1: always; 0: single copy; 2: through the ring unless the two "
     "procs' cores are far apart, as timed from the ring's traffic)"},
    {"shm_far_cycles", "IMPI_SHM_FAR_CYCLES", "300",
     "shared memory, IMPI_SHM_EXCHANGE_RING=2: a peer's core counts as far from ours when more "
     "than a quarter of our recent loads of a ring counter it moved took at least this many TSC "
     "cycles (x86-64; 0: every peer is far)"},
    {"shm_split_threshold", "IMPI_SHM_SPLIT_THRESHOLD", "65536",
     "shared memory: single-copy messages of at least this many bytes are copied by both sides at "
     "once, half each, when the sender is in an MPI call (0 disables)"},
    {"shm_split_two_way", "IMPI_SHM_SPLIT_TWO_WAY", "1048576",
     "shared memory: the same, while the two procs also exchange single-copy messages the other "
     "way (both cores are copying already; at least IMPI_SHM_SPLIT_THRESHOLD)"},
    {"shm_split_two_way_max", "IMPI_SHM_SPLIT_TWO_WAY_MAX", "2097152",
     "shared memory: the largest message split while the two procs exchange single-copy messages "
     "both ways (beyond the L2 cache the other core's half costs more than it saves; 0: no "
     "limit)"},
    {"show_job", "IMPI_SHOW_JOB", "0",
     "MPI_Init: 1 prints, on every proc, the IMPI job it learned (clients, hosts, procs, "
     "negotiated values), prefixed with its world rank"},
    {"split_hosts", "IMPI_SPLIT_HOSTS", "16",
     "IMPI client: a machine with 2 to this many procs advertises each proc as an IMPI host of "
     "its own, which runs its host channels itself (no hop through the agent; on loopback each "
     "gets its own 127.x address); more procs, or 0: one host whose agent funnels"},
    {"startup_timeout_s", "IMPI_STARTUP_TIMEOUT", "300",
     "IMPI server and client: longest wait for the whole startup exchange and the dance (clients "
     "are started by hand, possibly minutes apart)"},
    {"tag_ub", "IMPI_TAG_UB", "2147483647",
     "IMPI client: C_TAGUB; the job uses the minimum over clients, which must be at least 32767"},
    {"unexpected_limit_bytes", "IMPI_UNEXPECTED_LIMIT_BYTES", "1073741824",
     "bytes of unexpected messages (arrived, not yet matched by a receive) one process may buffer "
     "from one sender; past it the job ends with a message naming both ranks, instead of "
     "exhausting memory (0: no limit)"},
    {"verbose", "IMPI_VERBOSE", "0", "diagnostic verbosity: 0 errors+warnings, 1 info, 2 debug"},
    {"wide_datarep", "IMPI_WIDE_DATAREP", "1",
     "IMPI client: list impi's version 0.0x696d0001 (impi-wide data) in IMPI_C_VERSION, so "
     "that MPI_LONG travels in 8 bytes to other impi clients that list it too (0: external32 "
     "with every client, as a client that is not impi)"},
};
}  // namespace

std::span<const Tunable> tunables() {
  return kTable;
}

const Tunable *find_tunable(std::string_view name) {
  for (const auto &t : kTable)
    if (t.name == name) return &t;
  return nullptr;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string get_string(std::string_view name) {
  const Tunable *t = find_tunable(name);
  if (!t) {
    log_error("internal: unknown tunable '{}'", name);
    return {};
  }
  std::string env(t->env);
  if (const char *v = std::getenv(env.c_str())) return v;
  return std::string(t->default_value);
}

std::vector<bool> get_index_set(std::string_view name) {
  std::vector<bool> out;
  std::string list = get_string(name);
  std::size_t at = 0;
  while (at <= list.size() && !list.empty()) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    auto v = parse_int(std::string_view(list).substr(at, end - at));
    if (v && *v >= 0 && *v < (1 << 20)) {
      if (out.size() <= static_cast<std::size_t>(*v)) out.resize(static_cast<std::size_t>(*v) + 1);
      out[static_cast<std::size_t>(*v)] = true;
    } else {
      static bool warned = false;
      if (!warned)
        log_warn("{}: '{}' is not a list of client ranks; item ignored", find_tunable(name)->env,
                 list);
      warned = true;
    }
    at = end + 1;
  }
  return out;
}

std::int64_t get_int(std::string_view name) {
  const Tunable *t = find_tunable(name);
  if (!t) {
    log_error("internal: unknown tunable '{}'", name);
    return 0;
  }
  std::string s = get_string(name);
  if (auto v = parse_int(s)) return *v;
  log_warn("{}='{}' is not an integer; using the default {}", t->env, s, t->default_value);
  return *parse_int(t->default_value);
}

}  // namespace impi::base
