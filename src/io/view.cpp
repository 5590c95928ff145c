// view.cpp - file views (MPI-3.1 13.3) and data representations (13.5):
// where the data of a view lies in the file, and the conversions between
// memory and the file's representation (native = internal, external32,
// and the representations programs register).
#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>
#include <span>
#include <stdexcept>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "io/file.hpp"
#include "pack/cursor.hpp"
#include "pack/external32.hpp"

namespace impi::io {

namespace {
std::mutex g_rep_mu;
std::map<std::string, UserRep> g_reps;

// Bytes of one element of predefined `basic` in the view's representation
// (0: none).
std::int64_t rep_bytes(const View &v, int basic) {
  const auto &p = pack::predefined(basic);
  switch (v.rep) {
    case RepKind::native:
      return pack::data_bytes(p);
    case RepKind::external32:
      return pack::rep_size(basic, pack::Rep::external32);
    case RepKind::user: {
      if (!v.user.extent) return 0;
      MPI_Aint ext = 0;
      if (v.user.extent(api::predefined_handle(basic), &ext, v.user.extra) != MPI_SUCCESS) return 0;
      return ext;
    }
  }
  return 0;
}

// Whether every element of `t` takes as many bytes in the representation
// as in memory (then the layout of a type in the file is its native one).
bool same_sizes(const View &v, const pack::Datatype &t, std::string &why) {
  for (const auto &s : t.segments()) {
    std::int64_t f = rep_bytes(v, s.basic);
    if (f == 0) {
      why = fmt::format("{} has no form in data representation \"{}\"",
                        pack::predefined(s.basic).name, v.datarep);
      return false;
    }
    if (f != pack::data_bytes(pack::predefined(s.basic))) return false;
  }
  return true;
}

// Bytes of one instance of `t` in the representation.
std::int64_t instance_bytes(const View &v, const pack::Datatype &t) {
  std::int64_t n = 0;
  for (const auto &s : t.segments()) n += s.count * rep_bytes(v, s.basic);
  return n;
}

// The layout of `t` in the file when its elements change size there
// (MPI-3.1 13.5.1): `t` built again from its envelope over stand-ins of the
// elements' sizes in the representation. Displacements given in elements
// (vector, indexed, subarray, darray, ...) so scale with the elements;
// those given in bytes (hvector, hindexed, struct, resized) are taken as
// they are, as the standard says. A predefined type (a pair type too) is
// its elements packed, as external32 packs them.
base::Result<pack::TypePtr> relayout(const View &v, const pack::TypePtr &t, int depth = 0) {
  using pack::Combiner;
  using pack::Datatype;
  if (depth > 64) return {base::Errc::invalid_argument, "a datatype nested too deeply"};
  const auto &ints = t->envelope_ints();
  const auto &aints = t->envelope_aints();
  const auto &types = t->envelope_types();
  const Combiner c = t->combiner();
  if (t->is_predefined() || c == Combiner::named || c == Combiner::f90_real ||
      c == Combiner::f90_complex || c == Combiner::f90_integer)
    return Datatype::contiguous(instance_bytes(v, *t), Datatype::predefined(pack::dt::byte));
  if (types.empty()) return {base::Errc::internal, "a derived datatype without its old type"};
  std::vector<pack::TypePtr> in;
  for (const auto &old : types) {
    auto r = relayout(v, old, depth + 1);
    if (!r) return r;
    in.push_back(r.value());
  }
  const pack::TypePtr &old = in[0];
  auto n_of = [&](std::size_t at) { return static_cast<std::size_t>(ints.at(at)); };
  auto slice = [](const std::vector<std::int64_t> &a, std::size_t from, std::size_t n) {
    if (from > a.size() || n > a.size() - from) throw std::out_of_range("envelope");
    return std::vector<std::int64_t>(a.begin() + static_cast<std::ptrdiff_t>(from),
                                     a.begin() + static_cast<std::ptrdiff_t>(from + n));
  };
  try {
    switch (c) {
      case Combiner::dup:
        return old;
      case Combiner::contiguous:
        return Datatype::contiguous(ints.at(0), old);
      case Combiner::vector:
        return Datatype::vector(ints.at(0), ints.at(1), ints.at(2), old, false);
      case Combiner::hvector:
        return Datatype::vector(ints.at(0), ints.at(1), aints.at(0), old, true);
      case Combiner::indexed: {
        const std::size_t n = n_of(0);
        return Datatype::indexed(slice(ints, 1, n), slice(ints, 1 + n, n), old, false);
      }
      case Combiner::hindexed:
        return Datatype::indexed(slice(ints, 1, n_of(0)), aints, old, true);
      case Combiner::indexed_block:
        return Datatype::indexed_block(ints.at(1), slice(ints, 2, n_of(0)), old, false);
      case Combiner::hindexed_block:
        return Datatype::indexed_block(ints.at(1), aints, old, true);
      case Combiner::struct_:
        return Datatype::struct_(slice(ints, 1, n_of(0)), aints, in);
      case Combiner::resized:
        return Datatype::resized(old, aints.at(0), aints.at(1));
      case Combiner::subarray: {
        const std::size_t n = n_of(0);
        return Datatype::subarray(slice(ints, 1, n), slice(ints, 1 + n, n),
                                  slice(ints, 1 + 2 * n, n), ints.at(1 + 3 * n) == 56, old);
      }
      case Combiner::darray: {
        const std::size_t n = n_of(2);
        std::vector<Datatype::DarrayDim> dims(n);
        for (std::size_t d = 0; d < n; ++d) {
          const std::int64_t dist = ints.at(3 + n + d), darg = ints.at(3 + 2 * n + d);
          dims[d] = {ints.at(3 + d),
                     dist == 123   ? 0
                     : dist == 121 ? 1
                                   : 2,
                     darg == -49767 ? -1 : darg, ints.at(3 + 3 * n + d)};
        }
        return Datatype::darray(static_cast<int>(ints.at(0)), static_cast<int>(ints.at(1)), dims,
                                ints.at(3 + 4 * n) == 56, old);
      }
      default:
        break;
    }
  } catch (const std::out_of_range &) {
  }
  return {base::Errc::internal, "a derived datatype whose envelope cannot be read"};
}

// Native bytes of the whole elements in the first `got` file bytes of (count, type).
std::int64_t native_of(const View &v, const pack::Datatype &t, std::int64_t got) {
  std::int64_t per = instance_bytes(v, t);
  if (per <= 0) return 0;
  std::int64_t k = got / per, rem = got % per, native = k * t.size();
  for (const auto &s : t.segments()) {
    std::int64_t f = rep_bytes(v, s.basic);
    std::int64_t m = std::min(s.count, rem / f);
    native += m * pack::data_bytes(pack::predefined(s.basic));
    rem -= m * f;
    if (m < s.count) break;
  }
  return native;
}
}  // namespace

bool find_datarep(const std::string &name, UserRep &out) {
  std::lock_guard<std::mutex> lk(g_rep_mu);
  auto it = g_reps.find(name);
  if (it == g_reps.end()) return false;
  out = it->second;
  return true;
}

int build_view(View &v, bool may_write, std::string &why) {
  if (v.datarep == "native" || v.datarep == "internal") {
    v.rep = RepKind::native;
  } else if (v.datarep == "external32") {
    v.rep = RepKind::external32;
  } else if (find_datarep(v.datarep, v.user)) {
    v.rep = RepKind::user;
  } else {
    why = fmt::format("data representation \"{}\" is not registered", v.datarep);
    return MPI_ERR_UNSUPPORTED_DATAREP;
  }
  const pack::Datatype &et = *v.etype, &ft = *v.filetype;
  if (et.size() <= 0) {
    why = "the etype has no data";
    return MPI_ERR_TYPE;
  }
  // (A filetype without data is a view of nothing: ROMIO's and OMPIO's
  // accept it, and PnetCDF sets one on a process that has no part in a
  // collective access.)
  if (ft.size() < 0 || ft.size() % et.size() != 0) {
    why = fmt::format("the filetype's size {} is not a multiple of the etype's {}", ft.size(),
                      et.size());
    return MPI_ERR_TYPE;
  }
  // Displacements: non-negative and monotonically nondecreasing (MPI-3.1
  // 13.3; MPI_ERR_IO, as ROMIO); overlaps only in files nobody writes.
  for (const pack::Datatype *t : {&et, &ft}) {
    std::int64_t prev = 0, end = 0;
    for (const auto &s : t->segments()) {
      const char *bad = s.disp < 0                  ? "negative"
                        : s.disp < prev             ? "decreasing"
                        : s.disp < end && may_write ? "overlapping (in a file open for writing)"
                                                    : nullptr;
      if (bad) {
        why = fmt::format("the {}'s displacements are {}", t == &et ? "etype" : "filetype", bad);
        return MPI_ERR_IO;
      }
      prev = s.disp;
      end = std::max(end, s.disp + s.count * pack::predefined(s.basic).size);
    }
  }
  std::string why_et, why_ft;
  bool same = same_sizes(v, et, why_et) && same_sizes(v, ft, why_ft);
  if (!why_et.empty() || !why_ft.empty()) {
    why = why_et.empty() ? why_ft : why_et;
    return MPI_ERR_UNSUPPORTED_DATAREP;
  }
  v.runs.clear();
  if (same) {
    v.runs = ft.runs();
    v.ft_size = ft.size();
    v.ft_extent = ft.extent();
    v.et_size = et.size();
  } else {
    // (Not by the type's native contiguity: a resized type's extent is in
    // bytes of the file, so it may leave holes there that memory has not.)
    auto laid = relayout(v, v.filetype);
    if (!laid) {
      why = fmt::format("the filetype's layout in data representation \"{}\": {}", v.datarep,
                        laid.message());
      return MPI_ERR_TYPE;
    }
    v.runs = laid.value()->runs();
    v.ft_size = laid.value()->size();
    v.ft_extent = laid.value()->extent();
    v.et_size = instance_bytes(v, et);
    if (v.ft_size < 0 || (v.ft_size > 0 && v.ft_extent <= 0)) {
      why = fmt::format("the filetype has no extent in data representation \"{}\"", v.datarep);
      return MPI_ERR_TYPE;
    }
  }
  if (v.ft_size % v.et_size != 0) {
    why = "the filetype is not made of whole etypes in the file's representation";
    return MPI_ERR_TYPE;
  }
  if (v.ft_size == 0) v.runs.clear();
  v.prefix.resize(v.runs.size());
  std::int64_t acc = 0;
  for (std::size_t i = 0; i < v.runs.size(); ++i) {
    v.prefix[i] = acc;
    acc += v.runs[i].len;
  }
  v.contiguous = v.runs.size() == 1 && v.runs[0].len == v.ft_extent;
  v.in_order = true;
  std::int64_t end = v.runs.empty() ? 0 : v.runs[0].disp;
  for (const auto &r : v.runs) {
    if (r.disp < end) v.in_order = false;
    end = std::max(end, r.disp + r.len);
  }
  if (!v.runs.empty() && end > v.runs[0].disp + v.ft_extent) v.in_order = false;
  return MPI_SUCCESS;
}

std::int64_t file_extent(const View &v, const pack::TypePtr &type) {
  std::string why;
  if (v.rep == RepKind::native || same_sizes(v, *type, why)) return type->extent();
  if (auto laid = relayout(v, type)) return laid.value()->extent();
  return type->extent() - type->size() + instance_bytes(v, *type);
}

std::int64_t file_bytes(const View &v, const pack::TypePtr &type, std::int64_t count) {
  if (v.rep == RepKind::native) return type->size() * count;
  return instance_bytes(v, *type) * count;
}

void map_ranges(const View &v, std::int64_t start, std::int64_t len,
                std::vector<std::pair<std::int64_t, std::int64_t>> &out) {
  if (len <= 0 || v.runs.empty()) return;
  auto add = [&](std::int64_t pos, std::int64_t n) {
    if (!out.empty() && out.back().first + out.back().second == pos)
      out.back().second += n;
    else
      out.emplace_back(pos, n);
  };
  if (v.contiguous) {
    add(v.disp + v.runs[0].disp + start, len);
    return;
  }
  std::int64_t tile = start / v.ft_size, within = start % v.ft_size;
  std::size_t i = static_cast<std::size_t>(
      std::upper_bound(v.prefix.begin(), v.prefix.end(), within) - v.prefix.begin() - 1);
  while (len > 0) {
    const auto &r = v.runs[i];
    std::int64_t off = within - v.prefix[i];
    std::int64_t n = std::min(len, r.len - off);
    add(v.disp + tile * v.ft_extent + r.disp + off, n);
    len -= n;
    within += n;
    if (within == v.prefix[i] + r.len && ++i == v.runs.size()) {
      i = 0;
      ++tile;
      within = 0;
    }
  }
}

std::int64_t stream_pos_of(const View &v, std::int64_t at) {
  std::int64_t rel = at - v.disp;
  if (rel <= 0 || v.runs.empty()) return 0;
  if (v.contiguous) return std::max<std::int64_t>(0, rel - v.runs[0].disp);
  std::int64_t tile = rel / v.ft_extent, rem = rel - tile * v.ft_extent;
  std::int64_t acc = tile * v.ft_size;
  for (const auto &r : v.runs) {
    if (rem >= r.disp + r.len) {
      acc += r.len;
    } else {
      if (rem > r.disp) acc += rem - r.disp;
      break;
    }
  }
  return acc;
}

int encode(const View &v, const void *buf, std::int64_t count, MPI_Datatype th,
           const pack::TypePtr &type, Bytes &out, std::string &why) {
  switch (v.rep) {
    case RepKind::native: {
      out.resize(static_cast<std::size_t>(type->size() * count));
      pack::PackCursor c(type, count);
      c.pack(buf, std::span<std::byte>(out.data(), out.size()));
      return MPI_SUCCESS;
    }
    case RepKind::external32: {
      auto n = pack::external32_size(type, count);
      if (!n) {
        why = "the datatype has no external32 form";
        return MPI_ERR_UNSUPPORTED_DATAREP;
      }
      if (auto st = pack::check_fits(type, count, buf, pack::Rep::external32); !st) {
        why = st.message();
        return MPI_ERR_CONVERSION;
      }
      out.resize(static_cast<std::size_t>(*n));
      pack::External32Cursor c(type, count);
      c.pack(buf, std::span<std::byte>(out.data(), out.size()));
      return MPI_SUCCESS;
    }
    case RepKind::user: {
      out.resize(static_cast<std::size_t>(instance_bytes(v, *type) * count));
      if (!v.user.write && !v.user.write_c) {
        std::string dummy;
        if (!same_sizes(v, *type, dummy)) {
          why = "the representation has no write conversion and changes element sizes";
          return MPI_ERR_CONVERSION;
        }
        pack::PackCursor c(type, count);
        c.pack(buf, std::span<std::byte>(out.data(), out.size()));
        return MPI_SUCCESS;
      }
      // In pieces of at most INT_MAX instances, `position` the first one's
      // index (the conversion function takes an int count, MPI-4.0 14.5.3).
      const std::int64_t per = instance_bytes(v, *type);
      int rc = MPI_SUCCESS;
      if (v.user.write_c)
        rc = v.user.write_c(const_cast<void *>(buf), th, count, out.data(), 0, v.user.extra);
      for (std::int64_t done = 0; !v.user.write_c && done < count && rc == MPI_SUCCESS;) {
        const int n = static_cast<int>(std::min<std::int64_t>(count - done, INT_MAX));
        rc = v.user.write(const_cast<void *>(buf), th, n, out.data() + done * per, done,
                          v.user.extra);
        done += n;
      }
      if (rc != MPI_SUCCESS) {
        why = fmt::format("the write conversion of \"{}\" returned {}", v.datarep, rc);
        return MPI_ERR_CONVERSION;
      }
      return MPI_SUCCESS;
    }
  }
  return MPI_ERR_INTERN;
}

std::int64_t decode(const View &v, const std::byte *in, std::int64_t got, void *buf,
                    std::int64_t count, MPI_Datatype th, const pack::TypePtr &type,
                    std::string &why) {
  switch (v.rep) {
    case RepKind::native: {
      pack::PackCursor c(type, count);
      c.unpack(buf, std::span<const std::byte>(in, static_cast<std::size_t>(got)));
      return got;
    }
    case RepKind::external32: {
      pack::External32Cursor c(type, count);
      c.unpack(buf, std::span<const std::byte>(in, static_cast<std::size_t>(got)));
      return native_of(v, *type, got);
    }
    case RepKind::user: {
      std::int64_t per = instance_bytes(v, *type);
      std::int64_t k = per > 0 ? got / per : 0;
      if (!v.user.read && !v.user.read_c) {
        pack::PackCursor c(type, count);
        c.unpack(buf, std::span<const std::byte>(in, static_cast<std::size_t>(got)));
        return got;
      }
      if (k == 0) return 0;
      int rc = MPI_SUCCESS;  // in pieces of at most INT_MAX instances (as the write)
      if (v.user.read_c)
        rc = v.user.read_c(buf, th, k, const_cast<std::byte *>(in), 0, v.user.extra);
      for (std::int64_t done = 0; !v.user.read_c && done < k && rc == MPI_SUCCESS;) {
        const int n = static_cast<int>(std::min<std::int64_t>(k - done, INT_MAX));
        rc = v.user.read(buf, th, n, const_cast<std::byte *>(in) + done * per, done, v.user.extra);
        done += n;
      }
      if (rc != MPI_SUCCESS) {
        why = fmt::format("the read conversion of \"{}\" returned {}", v.datarep, rc);
        return -MPI_ERR_CONVERSION;
      }
      return k * type->size();
    }
  }
  return -MPI_ERR_INTERN;
}

}  // namespace impi::io

extern "C" {

namespace {
int register_datarep(const char *fn, const char *datarep, impi::io::UserRep rep) {
  if (!impi::api::check_initialized(fn)) return MPI_ERR_OTHER;
  if (!datarep || !*datarep || std::strlen(datarep) >= MPI_MAX_DATAREP_STRING)
    return impi::io::file_error(nullptr, MPI_ERR_ARG, fn, "the name is empty or too long");
  if (!rep.extent)
    return impi::io::file_error(nullptr, MPI_ERR_ARG, fn, "dtype_file_extent_fn is NULL");
  std::string name(datarep);
  std::lock_guard<std::mutex> lk(impi::io::g_rep_mu);
  if (name == "native" || name == "internal" || name == "external32" ||
      impi::io::g_reps.count(name))
    return impi::io::file_error(nullptr, MPI_ERR_DUP_DATAREP, fn,
                                fmt::format("\"{}\" is already defined", name));
  impi::io::g_reps[name] = rep;
  return MPI_SUCCESS;
}
}  // namespace

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state) {
  impi::io::UserRep rep;
  rep.read = read_conversion_fn;
  rep.write = write_conversion_fn;
  rep.extent = dtype_file_extent_fn;
  rep.extra = extra_state;
  return register_datarep("MPI_Register_datarep", datarep, rep);
}

// MPI-4.1: the conversions take MPI_Count counts (one call for any count).
int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state) {
  impi::io::UserRep rep;
  rep.read_c = read_conversion_fn;
  rep.write_c = write_conversion_fn;
  rep.extent = dtype_file_extent_fn;
  rep.extra = extra_state;
  return register_datarep("MPI_Register_datarep_c", datarep, rep);
}

}  // extern "C"

#include "io/generated/view_aliases.inc"
