#include "startup/impi_job.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>

#include "base/byteorder.hpp"

namespace impi::startup {

using base::Errc;
using base::load_be;
using base::Result;
using base::Status;
using wire::Bytes;

namespace {

std::string proto(std::int32_t label, const std::string &what) {
  return fmt::format("{}: {}", wire::label_name(label), what);
}

// The clients that contributed, in ascending order; error unless all did.
Status require_all(const wire::CollBcast &b, int nclients) {
  std::uint32_t all = nclients >= 32 ? 0xffffffffu : ((1u << nclients) - 1);
  if (b.client_mask != all) {
    for (int c = 0; c < nclients; ++c)
      if (!(b.client_mask & (1u << c)))
        return {Errc::protocol_error, proto(b.label, fmt::format("client {} sent no value", c))};
    return {Errc::protocol_error,
            proto(b.label, fmt::format("client mask 0x{:x} names clients that do not exist",
                                       b.client_mask))};
  }
  return {};
}

const wire::CollBcast *find(const std::map<std::int32_t, wire::CollBcast> &m, std::int32_t l) {
  auto it = m.find(l);
  return it == m.end() ? nullptr : &it->second;
}

// Per-client Uint4/Int4 values (one each).
Result<std::vector<std::uint32_t>> per_client_u32(const std::map<std::int32_t, wire::CollBcast> &m,
                                                  std::int32_t label, int nclients) {
  const auto *b = find(m, label);
  if (!b) return {Errc::protocol_error, proto(label, "never broadcast (mandated in IMPI 0.0)")};
  if (auto s = require_all(*b, nclients); !s.ok()) return {s.error(), s.message()};
  auto items = wire::split_items(b->data, static_cast<std::size_t>(nclients), 4);
  if (!items) return {items.error(), proto(label, items.message())};
  std::vector<std::uint32_t> out;
  for (auto it : *items) out.push_back(load_be<std::uint32_t>(it));
  return out;
}

Result<std::vector<std::span<const std::byte>>> per_item(
    const std::map<std::int32_t, wire::CollBcast> &m, std::int32_t label, int nclients,
    std::size_t count, std::size_t item) {
  const auto *b = find(m, label);
  if (!b) return {Errc::protocol_error, proto(label, "never broadcast (mandated in IMPI 0.0)")};
  if (auto s = require_all(*b, nclients); !s.ok()) return {s.error(), s.message()};
  auto items = wire::split_items(b->data, count, item);
  if (!items) return {items.error(), proto(label, items.message())};
  return items;
}

// Splits the concatenated version arrays: every client's array is strictly
// ascending and includes 0.0, so each one starts with 0.0.
Result<std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>> split_versions(
    const wire::CollBcast &b, int nclients) {
  if (b.data.size() % 8 != 0)
    return {Errc::protocol_error, proto(b.label, "length is not a multiple of 8")};
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> lists;
  for (std::size_t i = 0; i < b.data.size(); i += 8) {
    std::span<const std::byte> d(b.data);
    std::pair<std::uint32_t, std::uint32_t> v{load_be<std::uint32_t>(d.subspan(i, 4)),
                                              load_be<std::uint32_t>(d.subspan(i + 4, 4))};
    if (v == std::pair<std::uint32_t, std::uint32_t>{0, 0}) {
      lists.emplace_back();
    } else if (lists.empty() || v <= lists.back().back()) {
      return {Errc::protocol_error,
              proto(b.label, "a client's versions are not strictly ascending from 0.0")};
    }
    lists.back().push_back(v);
  }
  if (static_cast<int>(lists.size()) != nclients)
    return {Errc::protocol_error,
            proto(b.label, fmt::format("{} version lists for {} clients", lists.size(), nclients))};
  return lists;
}

}  // namespace

Status validate(const ClientAdvert &a) {
  if (a.versions.empty() || a.versions.front() != std::pair<std::uint32_t, std::uint32_t>{0, 0})
    return {Errc::invalid_argument, "the version list must start with 0.0"};
  for (std::size_t i = 1; i < a.versions.size(); ++i)
    if (a.versions[i] <= a.versions[i - 1])
      return {Errc::invalid_argument, "versions must be strictly ascending"};
  if (a.datalen < 1) return {Errc::invalid_argument, "datalen must be at least 1"};
  if (a.tagub < kMinTagub)
    return {Errc::invalid_argument,
            fmt::format("tag_ub {} is below the minimum of {} (IMPI 3.9)", a.tagub, kMinTagub)};
  if (a.xsize < -1) return {Errc::invalid_argument, "coll xsize must be -1 (default) or >= 0"};
  if (a.maxlinear < -1)
    return {Errc::invalid_argument, "coll maxlinear must be -1 (default) or >= 0"};
  if (a.hosts.empty()) return {Errc::invalid_argument, "a client has at least one host"};
  std::size_t procs = 0;
  for (const auto &h : a.hosts) {
    if (h.nprocs < 1) return {Errc::invalid_argument, "every host has at least one proc"};
    if (h.port < 1 || h.port > 65535) return {Errc::invalid_argument, "host port out of range"};
    if (h.ackmark < 1 || h.ackmark > h.hiwater)
      return {Errc::invalid_argument,
              fmt::format("ackmark {} and hiwater {} violate 1 <= ackmark <= hiwater (IMPI 3.9)",
                          h.ackmark, h.hiwater)};
    procs += h.nprocs;
  }
  if (procs != a.procs.size()) return {Errc::invalid_argument, "proc list does not match hosts"};
  return {};
}

std::vector<std::pair<std::int32_t, Bytes>> labels_of(const ClientAdvert &a) {
  using namespace wire;
  std::vector<std::uint32_t> ports, nprocs, acks, his;
  Bytes hip, pip;
  std::vector<std::int64_t> pids;
  for (const auto &h : a.hosts) {
    hip.insert(hip.end(), h.address.begin(), h.address.end());
    ports.push_back(h.port);
    nprocs.push_back(h.nprocs);
    acks.push_back(h.ackmark);
    his.push_back(h.hiwater);
  }
  for (const auto &p : a.procs) {
    pip.insert(pip.end(), p.address.begin(), p.address.end());
    pids.push_back(p.pid);
  }
  std::vector<std::pair<std::int32_t, Bytes>> out{
      {kLabelCVersion, encode_versions(a.versions)},
      {kLabelCNhosts, encode_u32(static_cast<std::uint32_t>(a.hosts.size()))},
      {kLabelCNprocs, encode_u32(static_cast<std::uint32_t>(a.procs.size()))},
      {kLabelCDatalen, encode_u32(a.datalen)},
      {kLabelCTagub, encode_i32(a.tagub)},
      {kLabelCCollXsize, encode_i32(a.xsize)},
      {kLabelCCollMaxlinear, encode_i32(a.maxlinear)},
      {kLabelHIpv6, hip},
      {kLabelHPort, encode_u32s(ports)},
      {kLabelHNprocs, encode_u32s(nprocs)},
      {kLabelHAckmark, encode_u32s(acks)},
      {kLabelHHiwater, encode_u32s(his)},
      {kLabelPIpv6, pip},
      {kLabelPPid, encode_i64s(pids)},
  };
  return out;
}

namespace {
using Broadcasts = std::map<std::int32_t, wire::CollBcast>;

// Version: the highest that every client lists.
Status derive_version(const Broadcasts &m, ImpiJob &j) {
  using namespace wire;
  const auto *vb = find(m, kLabelCVersion);
  if (!vb) return {Errc::protocol_error, "IMPI_C_VERSION was never broadcast"};
  if (auto s = require_all(*vb, j.nclients); !s.ok()) return s;
  auto lists = split_versions(*vb, j.nclients);
  if (!lists) return {lists.error(), lists.message()};
  std::set<std::pair<std::uint32_t, std::uint32_t>> common((*lists)[0].begin(), (*lists)[0].end());
  for (const auto &l : *lists) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> s(l.begin(), l.end()), keep;
    std::set_intersection(common.begin(), common.end(), s.begin(), s.end(),
                          std::inserter(keep, keep.begin()));
    common.swap(keep);
  }
  // Every list starts with 0.0, so the intersection is never empty.
  j.version_major = common.rbegin()->first;
  j.version_minor = common.rbegin()->second;
  // impi-wide is a property of each pair of clients: those that list it.
  j.wide_clients = 0;
  for (std::size_t c = 0; c < lists->size(); ++c)
    if (std::find((*lists)[c].begin(), (*lists)[c].end(), kVersionImpiWide) != (*lists)[c].end())
      j.wide_clients |= 1u << c;
  return {};
}

// Each client's hosts and procs; `total_hosts`, `total_procs`: their sums.
Status derive_sizes(const Broadcasts &m, ImpiJob &j, std::uint64_t &total_hosts,
                    std::uint64_t &total_procs) {
  using namespace wire;
  auto nhosts = per_client_u32(m, kLabelCNhosts, j.nclients);
  if (!nhosts) return {nhosts.error(), nhosts.message()};
  auto nprocs = per_client_u32(m, kLabelCNprocs, j.nclients);
  if (!nprocs) return {nprocs.error(), nprocs.message()};
  total_hosts = total_procs = 0;
  for (int c = 0; c < j.nclients; ++c) {
    if ((*nhosts)[c] < 1) return {Errc::protocol_error, fmt::format("client {} has 0 hosts", c)};
    if ((*nprocs)[c] < 1) return {Errc::protocol_error, fmt::format("client {} has 0 procs", c)};
    total_hosts += (*nhosts)[c];
    total_procs += (*nprocs)[c];
  }
  // Bound before allocating: later labels must carry this many items anyway.
  if (total_hosts > (1u << 20) || total_procs > (1u << 24))
    return {Errc::protocol_error,
            fmt::format("implausible job: {} hosts, {} procs", total_hosts, total_procs)};
  j.client_nhosts = *nhosts;
  j.client_nprocs = *nprocs;
  return {};
}

// A value every client must send alike (-1: `dflt`).
Status agree(const Broadcasts &m, int nclients, std::int32_t label, std::int32_t dflt,
             std::int32_t &out) {
  auto v = per_client_u32(m, label, nclients);
  if (!v) return {v.error(), v.message()};
  auto first = static_cast<std::int32_t>((*v)[0]);
  for (int c = 1; c < nclients; ++c)
    if (static_cast<std::int32_t>((*v)[c]) != first)
      return {Errc::protocol_error,
              fmt::format("{}: clients disagree (client 0 sent {}, client {} sent {}); every "
                          "client must use the same value",
                          wire::label_name(label), first, c, static_cast<std::int32_t>((*v)[c]))};
  if (first < -1) return {Errc::protocol_error, proto(label, fmt::format("bad value {}", first))};
  out = first == -1 ? dflt : first;
  return {};
}

// The job-wide values: the smallest DATALEN and TAGUB, the agreed
// collective parameters.
Status derive_values(const Broadcasts &m, ImpiJob &j) {
  using namespace wire;
  auto datalen = per_client_u32(m, kLabelCDatalen, j.nclients);
  if (!datalen) return {datalen.error(), datalen.message()};
  j.maxdatalen = *std::min_element(datalen->begin(), datalen->end());
  if (j.maxdatalen < 1) return {Errc::protocol_error, "IMPI_C_DATALEN: a client sent 0"};

  auto tagub = per_client_u32(m, kLabelCTagub, j.nclients);
  if (!tagub) return {tagub.error(), tagub.message()};
  j.tag_ub = 0x7fffffff;
  for (int c = 0; c < j.nclients; ++c) {
    auto t = static_cast<std::int32_t>((*tagub)[c]);
    if (t < kMinTagub)
      return {Errc::protocol_error,
              fmt::format("IMPI_C_TAGUB: client {} sent {}, below the minimum {} (IMPI 3.9)", c, t,
                          kMinTagub)};
    j.tag_ub = std::min(j.tag_ub, t);
  }
  if (auto s = agree(m, j.nclients, kLabelCCollXsize, kDefaultXsize, j.coll_xsize); !s.ok())
    return s;
  return agree(m, j.nclients, kLabelCCollMaxlinear, kDefaultMaxlinear, j.coll_maxlinear);
}

// Every host, client by client, and the job's ackmark and hiwater (the
// smallest advertised).
Status derive_hosts(const Broadcasts &m, ImpiJob &j, std::size_t nh) {
  using namespace wire;
  auto hip = per_item(m, kLabelHIpv6, j.nclients, nh, 16);
  auto hport = per_item(m, kLabelHPort, j.nclients, nh, 4);
  auto hnp = per_item(m, kLabelHNprocs, j.nclients, nh, 4);
  auto hack = per_item(m, kLabelHAckmark, j.nclients, nh, 4);
  auto hhi = per_item(m, kLabelHHiwater, j.nclients, nh, 4);
  for (auto *r : {&hip, &hport, &hnp, &hack, &hhi})
    if (!*r) return {r->error(), r->message()};
  j.ackmark = j.hiwater = 0xffffffffu;
  std::size_t h = 0;
  std::uint32_t proc = 0;
  for (int c = 0; c < j.nclients; ++c) {
    std::uint64_t client_procs = 0;
    for (std::uint32_t k = 0; k < j.client_nhosts[c]; ++k, ++h) {
      JobHost host;
      host.client = c;
      std::memcpy(host.address.data(), (*hip)[h].data(), 16);
      host.port = load_be<std::uint32_t>((*hport)[h]);
      host.nprocs = load_be<std::uint32_t>((*hnp)[h]);
      host.ackmark = load_be<std::uint32_t>((*hack)[h]);
      host.hiwater = load_be<std::uint32_t>((*hhi)[h]);
      host.first_proc = proc;
      if (host.port < 1 || host.port > 65535)
        return {Errc::protocol_error,
                fmt::format("IMPI_H_PORT: host {} has port {}", h, host.port)};
      if (host.nprocs < 1)
        return {Errc::protocol_error, fmt::format("IMPI_H_NPROCS: host {} has no procs", h)};
      if (host.ackmark < 1 || host.ackmark > host.hiwater)
        return {Errc::protocol_error,
                fmt::format("host {}: ackmark {} / hiwater {} violate 1 <= ackmark <= hiwater", h,
                            host.ackmark, host.hiwater)};
      j.ackmark = std::min(j.ackmark, host.ackmark);
      j.hiwater = std::min(j.hiwater, host.hiwater);
      client_procs += host.nprocs;
      proc += host.nprocs;
      j.hosts.push_back(host);
    }
    if (client_procs != j.client_nprocs[c])
      return {Errc::protocol_error,
              fmt::format("client {}: hosts hold {} procs but IMPI_C_NPROCS says {}", c,
                          client_procs, j.client_nprocs[c])};
  }
  return {};
}

// Every proc, host by host; their ids must be unique per address.
Status derive_procs(const Broadcasts &m, ImpiJob &j, std::size_t np) {
  using namespace wire;
  auto pip = per_item(m, kLabelPIpv6, j.nclients, np, 16);
  if (!pip) return {pip.error(), pip.message()};
  auto ppid = per_item(m, kLabelPPid, j.nclients, np, 8);
  if (!ppid) return {ppid.error(), ppid.message()};
  std::set<std::pair<Ipv6, std::int64_t>> seen;
  for (const auto &host : j.hosts) {
    for (std::uint32_t k = 0; k < host.nprocs; ++k) {
      std::size_t r = host.first_proc + k;
      JobProc p;
      p.client = host.client;
      p.host = static_cast<int>(&host - j.hosts.data());
      std::memcpy(p.id.address.data(), (*pip)[r].data(), 16);
      p.id.pid = static_cast<std::int64_t>(load_be<std::uint64_t>((*ppid)[r]));
      if (!seen.insert({p.id.address, p.id.pid}).second)
        return {Errc::protocol_error,
                fmt::format("IMPI_P_PID: procs share the id {}/{} (must be unique per address)",
                            wire::format_address(p.id.address), p.id.pid)};
      j.procs.push_back(p);
    }
  }
  return {};
}
}  // namespace

Result<ImpiJob> derive_job(int nclients, int my_client,
                           const std::map<std::int32_t, wire::CollBcast> &m) {
  if (nclients < 1 || nclients > wire::kMaxClients || my_client < 0 || my_client >= nclients)
    return {Errc::protocol_error,
            fmt::format("job of {} clients (this is client {})", nclients, my_client)};
  ImpiJob j;
  j.nclients = nclients;
  j.my_client = my_client;
  std::uint64_t total_hosts = 0, total_procs = 0;
  if (auto s = derive_version(m, j); !s.ok()) return {s.error(), s.message()};
  if (auto s = derive_sizes(m, j, total_hosts, total_procs); !s.ok())
    return {s.error(), s.message()};
  if (auto s = derive_values(m, j); !s.ok()) return {s.error(), s.message()};
  if (auto s = derive_hosts(m, j, static_cast<std::size_t>(total_hosts)); !s.ok())
    return {s.error(), s.message()};
  if (auto s = derive_procs(m, j, static_cast<std::size_t>(total_procs)); !s.ok())
    return {s.error(), s.message()};
  return j;
}

std::string ImpiJob::host_name(std::size_t h) const {
  if (h >= hosts.size()) return fmt::format("host {}", h);
  return fmt::format("host {} (client {}, {}:{})", h, hosts[h].client,
                     wire::format_address(hosts[h].address), hosts[h].port);
}

int ImpiJob::first_host_of(int client) const {
  int h = 0;
  for (int c = 0; c < client; ++c) h += static_cast<int>(client_nhosts[c]);
  return h;
}

std::uint32_t ImpiJob::world_offset(int client) const {
  std::uint32_t r = 0;
  for (int c = 0; c < client; ++c) r += client_nprocs[c];
  return r;
}

std::uint32_t ImpiJob::first_local_proc() const {
  return hosts[static_cast<std::size_t>(host_of_me())].first_proc;
}

std::uint32_t ImpiJob::local_nprocs() const {
  std::uint32_t n = 0;
  for (int h = host_of_me(); h < host_of_me() + my_nhosts; ++h)
    n += hosts[static_cast<std::size_t>(h)].nprocs;
  return n;
}

std::string ImpiJob::describe() const {
  std::string s = fmt::format(
      "version={}.{} clients={} maxdatalen={} tag_ub={} coll_xsize={} coll_maxlinear={} "
      "ackmark={} hiwater={} wide_clients=0x{:x}\n",
      version_major, version_minor, nclients, maxdatalen, tag_ub, coll_xsize, coll_maxlinear,
      ackmark, hiwater, wide_clients);
  for (std::size_t h = 0; h < hosts.size(); ++h)
    s += fmt::format("host {} client={} addr={} port={} nprocs={} ackmark={} hiwater={}\n", h,
                     hosts[h].client, wire::format_address(hosts[h].address), hosts[h].port,
                     hosts[h].nprocs, hosts[h].ackmark, hosts[h].hiwater);
  for (std::size_t r = 0; r < procs.size(); ++r)
    s += fmt::format("proc {} client={} host={} id={}/{}\n", r, procs[r].client, procs[r].host,
                     wire::format_address(procs[r].id.address), procs[r].id.pid);
  return s;
}

// ---- the binary form for the procs: fixed fields, then counted arrays.
namespace {
class Writer {
 public:
  template <typename U>
  void put(U v) {
    std::size_t at = out.size();
    out.resize(at + sizeof(U));
    base::store_be<U>(std::span(out).subspan(at, sizeof(U)), v);
  }
  void put_addr(const Ipv6 &a) { out.insert(out.end(), a.begin(), a.end()); }
  Bytes out;
};
class Reader {
 public:
  explicit Reader(std::span<const std::byte> in) : in_(in) {}
  template <typename U>
  bool get(U &v) {
    if (in_.size() - at_ < sizeof(U)) return false;
    v = load_be<U>(in_.subspan(at_, sizeof(U)));
    at_ += sizeof(U);
    return true;
  }
  bool get_addr(Ipv6 &a) {
    if (in_.size() - at_ < 16) return false;
    std::memcpy(a.data(), in_.data() + at_, 16);
    at_ += 16;
    return true;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
};
constexpr std::uint32_t kJobMagic = 0x494d504a;  // "IMPJ"
}  // namespace

Bytes encode_job(const ImpiJob &j) {
  Writer w;
  w.put<std::uint32_t>(kJobMagic);
  w.put<std::uint32_t>(j.version_major);
  w.put<std::uint32_t>(j.version_minor);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.nclients));
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.my_client));
  w.put<std::uint32_t>(j.maxdatalen);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.tag_ub));
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.coll_xsize));
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.coll_maxlinear));
  w.put<std::uint32_t>(j.ackmark);
  w.put<std::uint32_t>(j.hiwater);
  w.put<std::uint32_t>(j.wide_clients);
  for (int c = 0; c < j.nclients; ++c) {
    w.put<std::uint32_t>(j.client_nhosts[c]);
    w.put<std::uint32_t>(j.client_nprocs[c]);
  }
  for (const auto &h : j.hosts) {
    w.put_addr(h.address);
    w.put<std::uint32_t>(h.port);
    w.put<std::uint32_t>(h.nprocs);
    w.put<std::uint32_t>(h.ackmark);
    w.put<std::uint32_t>(h.hiwater);
  }
  for (const auto &p : j.procs) {
    w.put_addr(p.id.address);
    w.put<std::uint64_t>(static_cast<std::uint64_t>(p.id.pid));
  }
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.host_of_me()));
  w.put<std::uint32_t>(static_cast<std::uint32_t>(j.my_nhosts));
  return w.out;
}

Result<ImpiJob> decode_job(std::span<const std::byte> in) {
  Reader r(in);
  ImpiJob j;
  std::uint32_t magic = 0, nclients = 0, my = 0, tag = 0, xs = 0, ml = 0;
  bool ok = r.get(magic) && magic == kJobMagic && r.get(j.version_major) &&
            r.get(j.version_minor) && r.get(nclients) && r.get(my) && r.get(j.maxdatalen) &&
            r.get(tag) && r.get(xs) && r.get(ml) && r.get(j.ackmark) && r.get(j.hiwater) &&
            r.get(j.wide_clients);
  if (!ok || nclients < 1 || nclients > wire::kMaxClients || my >= nclients)
    return {Errc::protocol_error, "malformed IMPI job description"};
  j.nclients = static_cast<int>(nclients);
  j.my_client = static_cast<int>(my);
  j.tag_ub = static_cast<std::int32_t>(tag);
  j.coll_xsize = static_cast<std::int32_t>(xs);
  j.coll_maxlinear = static_cast<std::int32_t>(ml);
  std::uint64_t nh = 0, np = 0;
  for (std::uint32_t c = 0; c < nclients; ++c) {
    std::uint32_t h = 0, p = 0;
    if (!r.get(h) || !r.get(p) || h < 1 || p < 1)
      return {Errc::protocol_error, "malformed IMPI job description (client table)"};
    j.client_nhosts.push_back(h);
    j.client_nprocs.push_back(p);
    nh += h;
    np += p;
  }
  if (in.size() < nh * 32 + np * 24 + 8)
    return {Errc::protocol_error, "IMPI job description truncated"};
  std::uint32_t proc = 0;
  for (std::uint32_t c = 0; c < nclients; ++c) {
    std::uint64_t sum = 0;
    for (std::uint32_t k = 0; k < j.client_nhosts[c]; ++k) {
      JobHost h;
      h.client = static_cast<int>(c);
      if (!r.get_addr(h.address) || !r.get(h.port) || !r.get(h.nprocs) || !r.get(h.ackmark) ||
          !r.get(h.hiwater) || h.nprocs < 1)
        return {Errc::protocol_error, "malformed IMPI job description (host table)"};
      h.first_proc = proc;
      proc += h.nprocs;
      sum += h.nprocs;
      j.hosts.push_back(h);
    }
    if (sum != j.client_nprocs[c])
      return {Errc::protocol_error, "IMPI job description: proc counts disagree"};
  }
  for (std::size_t h = 0; h < j.hosts.size(); ++h) {
    for (std::uint32_t k = 0; k < j.hosts[h].nprocs; ++k) {
      JobProc p;
      p.client = j.hosts[h].client;
      p.host = static_cast<int>(h);
      std::uint64_t pid = 0;
      if (!r.get_addr(p.id.address) || !r.get(pid))
        return {Errc::protocol_error, "malformed IMPI job description (proc table)"};
      p.id.pid = static_cast<std::int64_t>(pid);
      j.procs.push_back(p);
    }
  }
  std::uint32_t mh = 0, mn = 0;
  if (!r.get(mh) || !r.get(mn) || mh >= j.hosts.size() || mn < 1 || mn > j.hosts.size() - mh ||
      j.hosts[mh + mn - 1].client != j.my_client || j.hosts[mh].client != j.my_client)
    return {Errc::protocol_error, "malformed IMPI job description (its hosts)"};
  j.my_host = static_cast<int>(mh);
  j.my_nhosts = static_cast<int>(mn);
  if (!r.done()) return {Errc::protocol_error, "IMPI job description has trailing bytes"};
  return j;
}

}  // namespace impi::startup
