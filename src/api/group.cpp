// group.cpp - MPI groups (MPI-3.1 6.3): ordered lists of world ranks, and
// the handles that name them.
#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "api/comm_internal.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "mpi.h"

using impi::api::report;

namespace impi::api::comm_shared {

namespace {
constexpr std::uint32_t kFirstUserGroup = 2;  // 1 is MPI_GROUP_EMPTY
std::mutex g_mu;
std::vector<std::unique_ptr<Group>> g_groups;
const Group g_empty;
}  // namespace

const Group *lookup_group(MPI_Group h) {
  using namespace impi::api;
  if (handle_kind(h) != IMPI_KIND_GROUP) return nullptr;
  if (h == MPI_GROUP_EMPTY) return &g_empty;
  std::uint32_t i = handle_index(h);
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserGroup || i - kFirstUserGroup >= g_groups.size()) return nullptr;
  return g_groups[i - kFirstUserGroup].get();
}

MPI_Group new_group(std::vector<int> world, std::uintptr_t session) {
  if (world.empty()) return MPI_GROUP_EMPTY;
  std::lock_guard<std::mutex> lk(g_mu);
  std::size_t i = 0;
  while (i < g_groups.size() && g_groups[i]) ++i;
  if (i == g_groups.size()) g_groups.emplace_back();
  g_groups[i] = std::make_unique<Group>(Group{std::move(world), session});
  return impi::api::make_handle<MPI_Group>(IMPI_KIND_GROUP,
                                           static_cast<std::uint32_t>(i + kFirstUserGroup));
}

int check_group(const char *fn, MPI_Group h, const Group *&g) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  g = lookup_group(h);
  if (!g) return report(MPI_COMM_NULL, MPI_ERR_GROUP, fn, "not a valid group");
  return MPI_SUCCESS;
}

}  // namespace impi::api::comm_shared

namespace {
using namespace impi::api::comm_shared;

// Ranks listed by MPI_Group_incl/excl and the range forms: checked.
int check_ranks(const char *fn, const Group &g, int n, const int *ranks, std::vector<int> &out) {
  if (n < 0 || (n > 0 && !ranks)) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad rank list");
  std::vector<bool> seen(g.world.size());
  for (int i = 0; i < n; ++i) {
    int r = ranks[i];
    if (r < 0 || r >= static_cast<int>(g.world.size()))
      return report(MPI_COMM_NULL, MPI_ERR_RANK, fn,
                    fmt::format("rank {} is not in a group of size {}", r, g.world.size()));
    if (seen[static_cast<std::size_t>(r)])
      return report(MPI_COMM_NULL, MPI_ERR_RANK, fn, fmt::format("rank {} is listed twice", r));
    seen[static_cast<std::size_t>(r)] = true;
    out.push_back(r);
  }
  return MPI_SUCCESS;
}

int expand_ranges(const char *fn, const Group &g, int n, int ranges[][3], std::vector<int> &out) {
  if (n < 0 || (n > 0 && !ranges)) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad range list");
  std::vector<int> list;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "a range with stride 0");
    if ((stride > 0 && first > last) || (stride < 0 && first < last)) continue;  // empty
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride)
      list.push_back(static_cast<int>(r));
  }
  return check_ranks(fn, g, static_cast<int>(list.size()), list.data(), out);
}

}  // namespace

extern "C" {

int PMPI_Group_size(MPI_Group group, int *size) {
  const Group *g;
  if (int rc = check_group("MPI_Group_size", group, g); rc != MPI_SUCCESS) return rc;
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
  *size = static_cast<int>(g->world.size());
  return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int *rank) {
  const Group *g;
  if (int rc = check_group("MPI_Group_rank", group, g); rc != MPI_SUCCESS) return rc;
  if (!rank) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
  *rank = rank_in(g->world, my_world_rank());
  return MPI_SUCCESS;
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[]) {
  const char *fn = "MPI_Group_translate_ranks";
  const Group *a, *b;
  if (int rc = check_group(fn, group1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group(fn, group2, b); rc != MPI_SUCCESS) return rc;
  if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arrays");
  for (int i = 0; i < n; ++i) {
    int r = ranks1[i];
    if (r == MPI_PROC_NULL) {
      ranks2[i] = MPI_PROC_NULL;
      continue;
    }
    if (r < 0 || r >= static_cast<int>(a->world.size()))
      return report(MPI_COMM_NULL, MPI_ERR_RANK, fn, fmt::format("rank {} is not in group1", r));
    ranks2[i] = rank_in(b->world, a->world[static_cast<std::size_t>(r)]);
  }
  return MPI_SUCCESS;
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result) {
  const Group *a, *b;
  if (int rc = check_group("MPI_Group_compare", group1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group("MPI_Group_compare", group2, b); rc != MPI_SUCCESS) return rc;
  if (!result) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_compare", "result is NULL");
  if (a->world == b->world) {
    *result = MPI_IDENT;
  } else {
    auto x = a->world, y = b->world;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    *result = x == y ? MPI_SIMILAR : MPI_UNEQUAL;
  }
  return MPI_SUCCESS;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  const Group *a, *b;
  if (int rc = check_group("MPI_Group_union", group1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group("MPI_Group_union", group2, b); rc != MPI_SUCCESS) return rc;
  if (!newgroup) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_union", "newgroup is NULL");
  std::vector<int> w = a->world;  // group1's order, then group2's members not in group1
  for (int x : b->world)
    if (std::find(a->world.begin(), a->world.end(), x) == a->world.end()) w.push_back(x);
  *newgroup = new_group(std::move(w), a->session ? a->session : b->session);
  return MPI_SUCCESS;
}

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  const Group *a, *b;
  if (int rc = check_group("MPI_Group_intersection", group1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group("MPI_Group_intersection", group2, b); rc != MPI_SUCCESS) return rc;
  if (!newgroup)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_intersection", "newgroup is NULL");
  std::vector<int> w;  // group1's order
  for (int x : a->world)
    if (std::find(b->world.begin(), b->world.end(), x) != b->world.end()) w.push_back(x);
  *newgroup = new_group(std::move(w), a->session ? a->session : b->session);
  return MPI_SUCCESS;
}

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  const Group *a, *b;
  if (int rc = check_group("MPI_Group_difference", group1, a); rc != MPI_SUCCESS) return rc;
  if (int rc = check_group("MPI_Group_difference", group2, b); rc != MPI_SUCCESS) return rc;
  if (!newgroup)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_difference", "newgroup is NULL");
  std::vector<int> w;
  for (int x : a->world)
    if (std::find(b->world.begin(), b->world.end(), x) == b->world.end()) w.push_back(x);
  *newgroup = new_group(std::move(w), a->session ? a->session : b->session);
  return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
  const Group *g;
  std::vector<int> list;
  if (int rc = check_group("MPI_Group_incl", group, g); rc != MPI_SUCCESS) return rc;
  if (!newgroup) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_incl", "newgroup is NULL");
  if (int rc = check_ranks("MPI_Group_incl", *g, n, ranks, list); rc != MPI_SUCCESS) return rc;
  std::vector<int> w;
  for (int r : list) w.push_back(g->world[static_cast<std::size_t>(r)]);
  *newgroup = new_group(std::move(w), g->session);
  return MPI_SUCCESS;
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
  const Group *g;
  std::vector<int> list;
  if (int rc = check_group("MPI_Group_excl", group, g); rc != MPI_SUCCESS) return rc;
  if (!newgroup) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_excl", "newgroup is NULL");
  if (int rc = check_ranks("MPI_Group_excl", *g, n, ranks, list); rc != MPI_SUCCESS) return rc;
  std::vector<int> w;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    if (std::find(list.begin(), list.end(), static_cast<int>(r)) == list.end())
      w.push_back(g->world[r]);
  *newgroup = new_group(std::move(w), g->session);
  return MPI_SUCCESS;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
  const Group *g;
  std::vector<int> list;
  if (int rc = check_group("MPI_Group_range_incl", group, g); rc != MPI_SUCCESS) return rc;
  if (!newgroup)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_range_incl", "newgroup is NULL");
  if (int rc = expand_ranges("MPI_Group_range_incl", *g, n, ranges, list); rc != MPI_SUCCESS)
    return rc;
  std::vector<int> w;
  for (int r : list) w.push_back(g->world[static_cast<std::size_t>(r)]);
  *newgroup = new_group(std::move(w), g->session);
  return MPI_SUCCESS;
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
  const Group *g;
  std::vector<int> list;
  if (int rc = check_group("MPI_Group_range_excl", group, g); rc != MPI_SUCCESS) return rc;
  if (!newgroup)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Group_range_excl", "newgroup is NULL");
  if (int rc = expand_ranges("MPI_Group_range_excl", *g, n, ranges, list); rc != MPI_SUCCESS)
    return rc;
  std::vector<int> w;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    if (std::find(list.begin(), list.end(), static_cast<int>(r)) == list.end())
      w.push_back(g->world[r]);
  *newgroup = new_group(std::move(w), g->session);
  return MPI_SUCCESS;
}

int PMPI_Group_free(MPI_Group *group) {
  if (!impi::api::check_initialized("MPI_Group_free")) return MPI_ERR_OTHER;
  if (!group || !lookup_group(*group))
    return report(MPI_COMM_NULL, MPI_ERR_GROUP, "MPI_Group_free", "not a valid group");
  if (*group != MPI_GROUP_EMPTY) {
    std::lock_guard<std::mutex> lk(g_mu);
    g_groups[impi::api::handle_index(*group) - kFirstUserGroup].reset();
  }
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/group_aliases.inc"
