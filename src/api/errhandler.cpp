// errhandler.cpp - communicator error handlers and the handle conversions.
#include <cstdlib>

#include "api/errors.hpp"
#include "api/handles.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::check_initialized;
using impi::api::handle_kind;
using impi::api::report;

extern "C" {

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function,
                                MPI_Errhandler *errhandler) {
  if (!check_initialized("MPI_Comm_create_errhandler")) return MPI_ERR_OTHER;
  if (!function || !errhandler)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "NULL argument");
  *errhandler = impi::api::create_comm_errhandler(function);
  return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  if (!check_initialized("MPI_Comm_set_errhandler")) return MPI_ERR_OTHER;
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_set_errhandler");
  if (!impi::api::valid_errhandler(errhandler))
    return report(comm, MPI_ERR_ERRHANDLER, "MPI_Comm_set_errhandler", "invalid error handler");
  impi::api::retain_errhandler(errhandler);
  if (c->errhandler) impi::api::free_errhandler(reinterpret_cast<MPI_Errhandler>(c->errhandler));
  c->errhandler = impi::api::handle_value(errhandler);
  return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler) {
  if (!check_initialized("MPI_Comm_get_errhandler")) return MPI_ERR_OTHER;
  auto *c = impi::api::lookup_comm(comm);
  if (!c) return report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_get_errhandler");
  if (!errhandler) return report(comm, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "NULL argument");
  MPI_Errhandler eh =
      c->errhandler ? reinterpret_cast<MPI_Errhandler>(c->errhandler) : MPI_ERRORS_ARE_FATAL;
  impi::api::retain_errhandler(eh);  // the caller frees it with MPI_Errhandler_free
  *errhandler = eh;
  return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  if (!check_initialized("MPI_Comm_call_errhandler")) return MPI_ERR_OTHER;
  if (!impi::api::lookup_comm(comm))
    return report(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_call_errhandler");
  report(comm, errorcode, "MPI_Comm_call_errhandler", "raised by the program");
  return MPI_SUCCESS;  // the standard: returns success unless the handler aborted
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) {
  if (!errhandler || !impi::api::valid_errhandler(*errhandler))
    return report(MPI_COMM_NULL, MPI_ERR_ERRHANDLER, "MPI_Errhandler_free",
                  "invalid error handler");
  impi::api::free_errhandler(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

// ---- handle conversions (C <-> Fortran integers): the encoded value itself.
MPI_Fint PMPI_Comm_c2f(MPI_Comm h) {
  return impi::api::to_fint(h);
}
MPI_Comm PMPI_Comm_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Comm>(f);
}
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler h) {
  return impi::api::to_fint(h);
}
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Errhandler>(f);
}
MPI_Fint PMPI_File_c2f(MPI_File h) {
  return impi::api::to_fint(h);
}
MPI_File PMPI_File_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_File>(f);
}
MPI_Fint PMPI_Group_c2f(MPI_Group h) {
  return impi::api::to_fint(h);
}
MPI_Group PMPI_Group_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Group>(f);
}
MPI_Fint PMPI_Info_c2f(MPI_Info h) {
  return impi::api::to_fint(h);
}
MPI_Info PMPI_Info_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Info>(f);
}
MPI_Fint PMPI_Message_c2f(MPI_Message h) {
  return impi::api::to_fint(h);
}
MPI_Message PMPI_Message_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Message>(f);
}
MPI_Fint PMPI_Op_c2f(MPI_Op h) {
  return impi::api::to_fint(h);
}
MPI_Op PMPI_Op_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Op>(f);
}
MPI_Fint PMPI_Request_c2f(MPI_Request h) {
  return impi::api::to_fint(h);
}
MPI_Request PMPI_Request_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Request>(f);
}
MPI_Fint PMPI_Type_c2f(MPI_Datatype h) {
  return impi::api::to_fint(h);
}
MPI_Datatype PMPI_Type_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Datatype>(f);
}
MPI_Fint PMPI_Win_c2f(MPI_Win h) {
  return impi::api::to_fint(h);
}
MPI_Win PMPI_Win_f2c(MPI_Fint f) {
  return impi::api::from_fint<MPI_Win>(f);
}

}  // extern "C"

#include "api/generated/errhandler_aliases.inc"
