// packing.cpp - MPI_Pack/Unpack in the native representation (external32
// on communicators spanning clients, IMPI 4.1) and the external32 forms.
#include <fmt/core.h>

#include <cstring>
#include <limits>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"
#include "pack/cursor.hpp"
#include "pack/external32.hpp"

using impi::api::bad_count;
using impi::api::get_type;
using impi::api::report;
using impi::pack::TypePtr;

namespace {
// The form MPI_Pack takes on a communicator spanning clients (IMPI 4.1):
// impi-wide when every client in it advertised it, else external32 (the
// packed bytes may go to any of its procs).
impi::pack::Rep pack_rep(const impi::core::Communicator &c) {
  const auto &job = impi::core::Runtime::instance().job();
  if (!job.impi) return impi::pack::Rep::external32;
  auto wide = [&](int cl) { return cl >= 0 && cl < 32 && (job.impi->wide_clients >> cl & 1u); };
  for (int cl : c.client)
    if (!wide(cl)) return impi::pack::Rep::external32;
  for (int cl : c.remote_client)
    if (!wide(cl)) return impi::pack::Rep::external32;
  return impi::pack::Rep::wide;
}
}  // namespace

extern "C" {

// ---- packing (native representation)
// One template for the int and the large-count (`_c`) forms of each call:
// S is the type of sizes and positions (int, MPI_Aint or MPI_Count).
extern "C++" {
template <typename S>
static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                     S *size) {
  TypePtr t;
  int rc;
  if (bad_count(incount, fn, rc) || !get_type(datatype, fn, t, rc, true)) return rc;
  if (!size) return report(comm, MPI_ERR_ARG, fn, "size is NULL");
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  std::int64_t bytes = t->size() * incount;
  if (c->spans_clients) {  // IMPI 4.1: external32, no header
    auto n = impi::pack::external32_size(t, incount, pack_rep(*c));
    if (!n) return report(comm, MPI_ERR_TYPE, fn, n.message());
    bytes = *n;
  }
  if (bytes > std::numeric_limits<S>::max())
    return report(comm, MPI_ERR_SIZE, fn,
                  "the packed size does not fit in an int (MPI_Pack_size_c takes it)");
  *size = static_cast<S>(bytes);
  return MPI_SUCCESS;
}

template <typename S>
static int pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                void *outbuf, S outsize, S *position, MPI_Comm comm) {
  TypePtr t;
  int rc;
  if (bad_count(incount, fn, rc) || !get_type(datatype, fn, t, rc, true)) return rc;
  if (!position || *position < 0 || outsize < 0 || (!outbuf && outsize > 0))
    return report(comm, MPI_ERR_ARG, fn, "bad output buffer or position");
  auto *cm = impi::api::lookup_comm(comm);
  if (!cm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (cm->spans_clients) {  // IMPI 4.1: external32 with no header
    const auto rep = pack_rep(*cm);
    auto n = impi::pack::external32_size(t, incount, rep);
    if (!n) return report(comm, MPI_ERR_TYPE, fn, n.message());
    if (*n > outsize - *position)
      return report(comm, MPI_ERR_TRUNCATE, fn,
                    fmt::format("{} bytes do not fit in the {} left in the output buffer", *n,
                                outsize - *position));
    if (auto s = impi::pack::check_fits(t, incount, inbuf, rep); !s.ok())
      return report(comm, MPI_ERR_CONVERSION, fn,
                    fmt::format("{} (the communicator spans a client that takes only external32)",
                                s.message()));
    impi::pack::External32Cursor c(t, incount, false, rep);
    *position += static_cast<S>(c.pack(
        inbuf, std::span(static_cast<std::byte *>(outbuf) + *position, static_cast<size_t>(*n))));
    return MPI_SUCCESS;
  }
  impi::pack::PackCursor c(t, incount);
  if (c.total() > outsize - *position)
    return report(comm, MPI_ERR_TRUNCATE, fn,
                  fmt::format("{} bytes do not fit in the {} left in the output buffer", c.total(),
                              outsize - *position));
  std::size_t n = c.pack(inbuf, std::span(static_cast<std::byte *>(outbuf) + *position,
                                          static_cast<std::size_t>(c.total())));
  *position += static_cast<S>(n);
  return MPI_SUCCESS;
}

template <typename S>
static int unpack(const char *fn, const void *inbuf, S insize, S *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  TypePtr t;
  int rc;
  if (bad_count(outcount, fn, rc) || !get_type(datatype, fn, t, rc, true)) return rc;
  if (!position || *position < 0 || insize < 0 || *position > insize)
    return report(comm, MPI_ERR_ARG, fn, "bad input buffer or position");
  auto *cm = impi::api::lookup_comm(comm);
  if (!cm) return report(MPI_COMM_NULL, MPI_ERR_COMM, fn);
  if (cm->spans_clients) {
    const auto rep = pack_rep(*cm);
    auto n = impi::pack::external32_size(t, outcount, rep);
    if (!n) return report(comm, MPI_ERR_TYPE, fn, n.message());
    if (*n > insize - *position)
      return report(
          comm, MPI_ERR_TRUNCATE, fn,
          fmt::format("{} bytes wanted, {} left in the input buffer", *n, insize - *position));
    impi::pack::External32Cursor c(t, outcount, false, rep);
    *position +=
        static_cast<S>(c.unpack(outbuf, std::span(static_cast<const std::byte *>(inbuf) + *position,
                                                  static_cast<size_t>(*n))));
    return MPI_SUCCESS;
  }
  impi::pack::PackCursor c(t, outcount);
  if (c.total() > insize - *position)
    return report(
        comm, MPI_ERR_TRUNCATE, fn,
        fmt::format("{} bytes wanted, {} left in the input buffer", c.total(), insize - *position));
  std::size_t n = c.unpack(outbuf, std::span(static_cast<const std::byte *>(inbuf) + *position,
                                             static_cast<std::size_t>(c.total())));
  *position += static_cast<S>(n);
  return MPI_SUCCESS;
}
}  // extern "C++"

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size) {
  return pack_size("MPI_Pack_size", incount, datatype, comm, size);
}
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size) {
  return pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm) {
  return pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm) {
  return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

// ---- external32 (MPI-3.1 13.5.2)
namespace {
bool check_datarep(const char *datarep, const char *fn, int &rc) {
  if (datarep && std::strcmp(datarep, "external32") == 0) return true;
  rc = report(MPI_COMM_NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn,
              fmt::format("data representation '{}' (only \"external32\" is defined)",
                          datarep ? datarep : "(null)"));
  return false;
}
}  // namespace

extern "C++" {
template <typename S>
static int pack_external_size(const char *fn, const char datarep[], MPI_Count incount,
                              MPI_Datatype datatype, S *size) {
  TypePtr t;
  int rc;
  if (!check_datarep(datarep, fn, rc) || bad_count(incount, fn, rc) ||
      !get_type(datatype, fn, t, rc, true))
    return rc;
  if (!size) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "size is NULL");
  auto n = impi::pack::external32_size(t, incount);
  if (!n) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, n.message());
  *size = static_cast<S>(*n);
  return MPI_SUCCESS;
}

template <typename S>
static int pack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, S outsize, S *position) {
  TypePtr t;
  int rc;
  if (!check_datarep(datarep, fn, rc) || bad_count(incount, fn, rc) ||
      !get_type(datatype, fn, t, rc, true))
    return rc;
  if (!position || *position < 0 || outsize < 0 || (!outbuf && outsize > 0))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad output buffer or position");
  auto n = impi::pack::external32_size(t, incount);
  if (!n) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, n.message());
  if (*n > outsize - *position)
    return report(MPI_COMM_NULL, MPI_ERR_TRUNCATE, fn,
                  fmt::format("{} bytes do not fit in the {} left", *n, outsize - *position));
  // MPI-3.1 13.5.2: a narrower integer keeps the low bytes, "no conversion
  // errors if the data range is within the range of the smaller size": a
  // value outside it is one, never packed altered.
  if (auto s = impi::pack::check_fits(t, incount, inbuf, impi::pack::Rep::external32); !s.ok())
    return report(MPI_COMM_NULL, MPI_ERR_CONVERSION, fn, s.message());
  impi::pack::External32Cursor c(t, incount);
  *position += static_cast<S>(c.pack(
      inbuf, std::span(static_cast<std::byte *>(outbuf) + *position, static_cast<size_t>(*n))));
  return MPI_SUCCESS;
}

template <typename S>
static int unpack_external(const char *fn, const char datarep[], const void *inbuf, S insize,
                           S *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype) {
  TypePtr t;
  int rc;
  if (!check_datarep(datarep, fn, rc) || bad_count(outcount, fn, rc) ||
      !get_type(datatype, fn, t, rc, true))
    return rc;
  if (!position || *position < 0 || insize < 0 || *position > insize)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad input buffer or position");
  auto n = impi::pack::external32_size(t, outcount);
  if (!n) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, n.message());
  if (*n > insize - *position)
    return report(MPI_COMM_NULL, MPI_ERR_TRUNCATE, fn,
                  fmt::format("{} bytes wanted, {} left", *n, insize - *position));
  impi::pack::External32Cursor c(t, outcount);
  *position +=
      static_cast<S>(c.unpack(outbuf, std::span(static_cast<const std::byte *>(inbuf) + *position,
                                                static_cast<size_t>(*n))));
  return MPI_SUCCESS;
}
}  // extern "C++"

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size) {
  return pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size);
}
int PMPI_Pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size) {
  return pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position) {
  return pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize,
                       position);
}
int PMPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position) {
  return pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize,
                       position);
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype) {
  return unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount,
                         datatype);
}
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype) {
  return unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf,
                         outcount, datatype);
}

// ---- counts from a status (status->impi_count holds the bytes received)

}  // extern "C"

#include "api/generated/packing_aliases.inc"
