#include <map>
#include <mutex>
#include <string_view>
#include <tuple>
#include <vector>

#include "api/datatypes.hpp"
#include "api/handles.hpp"

namespace impi::api {

namespace {

constexpr std::uint32_t kFirstDerived = 64;

struct Entry {
  pack::TypePtr type;
  bool committed = false;
  std::string name;
  bool permanent = false;  // an MPI_Type_create_f90_* type: predefined, not to be freed
};

std::mutex g_mu;
std::vector<Entry> g_types;  // index - kFirstDerived
std::vector<std::uint32_t> g_free;
std::map<std::uint32_t, std::string> g_predef_names;  // names set on predefined types
// The MPI_Type_create_f90_* types made so far, by (combiner, p, r).
std::map<std::tuple<int, int, int>, std::uint32_t> g_f90;

Entry *entry(std::uint32_t idx) {
  if (idx < kFirstDerived || idx - kFirstDerived >= g_types.size()) return nullptr;
  Entry &e = g_types[idx - kFirstDerived];
  return e.type ? &e : nullptr;
}

}  // namespace

MPI_Datatype predefined_handle(int index) {
  return make_handle<MPI_Datatype>(IMPI_KIND_DATATYPE, static_cast<std::uint32_t>(index));
}

std::optional<TypeRef> lookup_type(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return std::nullopt;
  std::uint32_t idx = handle_index(h);
  if (idx >= 1 && idx < pack::kNumPredefined) {
    return TypeRef{pack::Datatype::predefined(static_cast<int>(idx)), true};
  }
  std::lock_guard<std::mutex> lk(g_mu);
  Entry *e = entry(idx);
  if (!e) return std::nullopt;
  return TypeRef{e->type, e->committed};
}

// A free slot of the table (g_mu held): a freed one first, else a new one.
static std::uint32_t take_slot() {
  if (!g_free.empty()) {
    const std::uint32_t idx = g_free.back();
    g_free.pop_back();
    return idx;
  }
  g_types.emplace_back();
  return kFirstDerived + static_cast<std::uint32_t>(g_types.size() - 1);
}

MPI_Datatype new_type_handle(pack::TypePtr t, bool committed) {
  std::lock_guard<std::mutex> lk(g_mu);
  const std::uint32_t idx = take_slot();
  g_types[idx - kFirstDerived] = {std::move(t), committed, {}};
  return make_handle<MPI_Datatype>(IMPI_KIND_DATATYPE, idx);
}

MPI_Datatype f90_type(pack::Combiner c, int p, int r, int basic, std::string_view name) {
  std::lock_guard<std::mutex> lk(g_mu);
  auto key = std::make_tuple(static_cast<int>(c), p, r);
  if (auto it = g_f90.find(key); it != g_f90.end())
    return make_handle<MPI_Datatype>(IMPI_KIND_DATATYPE, it->second);
  std::vector<std::int64_t> args;
  if (c != pack::Combiner::f90_integer) args.push_back(p);
  args.push_back(r);
  const std::uint32_t idx = take_slot();
  // Committed from the start (MPI-3.1 17.1.9), named after its call.
  g_types[idx - kFirstDerived] = {pack::Datatype::f90(c, std::move(args), basic), true,
                                  std::string(name), true};
  g_f90.emplace(key, idx);
  return make_handle<MPI_Datatype>(IMPI_KIND_DATATYPE, idx);
}

bool is_predefined_type(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return false;
  std::uint32_t idx = handle_index(h);
  if (idx >= 1 && idx < pack::kNumPredefined) return true;
  std::lock_guard<std::mutex> lk(g_mu);
  Entry *e = entry(idx);
  return e && e->permanent;
}

bool commit_type(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return false;
  std::uint32_t idx = handle_index(h);
  if (idx >= 1 && idx < pack::kNumPredefined) return true;  // committing a named type is a no-op
  std::lock_guard<std::mutex> lk(g_mu);
  Entry *e = entry(idx);
  if (!e) return false;
  e->committed = true;
  return true;
}

bool free_type(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return false;
  std::lock_guard<std::mutex> lk(g_mu);
  std::uint32_t idx = handle_index(h);
  Entry *e = entry(idx);
  if (!e || e->permanent) return false;
  *e = Entry{};
  g_free.push_back(idx);
  return true;
}

bool set_type_name(MPI_Datatype h, std::string name) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return false;
  std::uint32_t idx = handle_index(h);
  std::lock_guard<std::mutex> lk(g_mu);
  if (idx >= 1 && idx < pack::kNumPredefined) {
    g_predef_names[idx] = std::move(name);
    return true;
  }
  Entry *e = entry(idx);
  if (!e) return false;
  e->name = std::move(name);
  return true;
}

std::optional<std::string> type_name(MPI_Datatype h) {
  if (handle_kind(h) != IMPI_KIND_DATATYPE) return std::nullopt;
  std::uint32_t idx = handle_index(h);
  std::lock_guard<std::mutex> lk(g_mu);
  if (idx >= 1 && idx < pack::kNumPredefined) {
    auto it = g_predef_names.find(idx);
    if (it != g_predef_names.end()) return it->second;
    return std::string(pack::predefined(static_cast<int>(idx)).name);
  }
  Entry *e = entry(idx);
  if (!e) return std::nullopt;
  return e->name;
}

}  // namespace impi::api
