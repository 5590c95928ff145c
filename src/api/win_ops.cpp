// win_ops.cpp - one-sided operations (MPI-3.1 11.3): argument checks and
// handle conversion; the data moves in src/rma.
#include <fmt/core.h>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"
#include "api/ops.hpp"
#include "api/win.hpp"
#include "pack/predefined.hpp"

using namespace impi::api;

namespace {

// The window, checked; `fn`'s errors go to its handler.
int open_win(const char *fn, MPI_Win win, WinObject *&w) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  w = lookup_win(win);
  if (!w) return report(MPI_COMM_NULL, MPI_ERR_WIN, fn, "not a valid window");
  return MPI_SUCCESS;
}

// A datatype argument: predefined types by reference to their table entry
// (no reference count traffic on the fast path), derived ones held.
struct Typed {
  const impi::pack::TypePtr *p = nullptr;
  impi::pack::TypePtr held;
  const impi::pack::TypePtr &get() const { return p ? *p : held; }
  explicit operator bool() const { return p || held; }
};

int typed(const char *fn, MPI_Win win, MPI_Datatype t, MPI_Count count, Typed &keep) {
  if (count < 0)
    return win_error(win, MPI_ERR_COUNT, fn, fmt::format("count {} is negative", count));
  if (const auto *p = lookup_predefined_type(t); p && *p) {
    keep.p = p;
    return MPI_SUCCESS;
  }
  auto r = lookup_type(t);
  if (!r || !r->type) return win_error(win, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (!r->committed) return win_error(win, MPI_ERR_TYPE, fn, "the datatype is not committed");
  keep.held = r->type;
  return MPI_SUCCESS;
}

// An accumulate's operator: a predefined one, MPI_REPLACE or MPI_NO_OP.
int acc_op(const char *fn, MPI_Win win, MPI_Op op, impi::pack::Op &out) {
  auto r = lookup_op(op);
  if (!r || !r->predefined)
    return win_error(win, MPI_ERR_OP, fn,
                     "one-sided accumulates take predefined operators, MPI_REPLACE or MPI_NO_OP");
  out = *r->predefined;
  return MPI_SUCCESS;
}

MPI_Request request_for(const impi::core::RequestPtr &r, MPI_Win win) {
  return r ? new_request_handle(r, handle_value(win)) : new_completed_request();
}

// MPI_PROC_NULL as the target, its other arguments checked (MPI-3.1 11.3:
// the call has no effect; a request form returns a completed request).
int to_proc_null(const char *fn, MPI_Win win, const WinObject &w, MPI_Aint disp,
                 MPI_Request *request) {
  if (disp < 0 && w.flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return win_error(win, MPI_ERR_DISP, fn,
                     fmt::format("target displacement {} is negative", disp));
  if (request) *request = new_completed_request();
  return MPI_SUCCESS;
}

// MPI_Put and MPI_Get and their request forms: `put` says which.
int transfer(bool put, const char *fn, void *origin, MPI_Count ocount, MPI_Datatype otype,
             int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
             MPI_Request *request) {
  WinObject *w;
  if (int rc = open_win(fn, win, w); rc) return rc;
  Typed ot, tt;
  if (int rc = typed(fn, win, otype, ocount, ot); rc) return rc;
  if (int rc = typed(fn, win, ttype, tcount, tt); rc) return rc;
  if (target == MPI_PROC_NULL) return to_proc_null(fn, win, *w, disp, request);
  impi::core::RequestPtr r, *rp = request ? &r : nullptr;
  auto e = put ? w->window->put(origin, ocount, ot.get(), target, disp, tcount, tt.get(), rp)
               : w->window->get(origin, ocount, ot.get(), target, disp, tcount, tt.get(), rp);
  if (e) return win_error(win, e, fn);
  if (request) *request = request_for(r, win);
  return MPI_SUCCESS;
}

int racc(const char *fn, const void *origin, MPI_Count ocount, MPI_Datatype otype, void *result,
         MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp, MPI_Count tcount,
         MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *request, bool fetch) {
  WinObject *w;
  if (int rc = open_win(fn, win, w); rc) return rc;
  impi::pack::Op o = impi::pack::Op::no_op;
  if (int rc = acc_op(fn, win, op, o); rc) return rc;
  Typed ot, rt, tt;
  if (o != impi::pack::Op::no_op || !fetch)
    if (int rc = typed(fn, win, otype, ocount, ot); rc) return rc;
  if (fetch)
    if (int rc = typed(fn, win, rtype, rcount, rt); rc) return rc;
  if (int rc = typed(fn, win, ttype, tcount, tt); rc) return rc;
  if (target == MPI_PROC_NULL) return to_proc_null(fn, win, *w, disp, request);
  if (!ot) ot.p = &tt.get(), ocount = 0;
  impi::core::RequestPtr r;
  if (auto e = w->window->accumulate(origin, ocount, ot.get(), fetch ? result : nullptr, rcount,
                                     rt.get(), target, disp, tcount, tt.get(), o,
                                     request ? &r : nullptr))
    return win_error(win, e, fn);
  if (request) *request = request_for(r, win);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win) {
  if (WinObject *w = lookup_win(win);
      w && origin_datatype == target_datatype && origin_count == target_count)
    if (const auto *p = lookup_predefined_type(origin_datatype); p && *p && (*p)->is_contiguous())
      if (w->window->copy_fast(target_rank, target_disp, origin_count * (*p)->size(), origin_addr,
                               nullptr))
        return MPI_SUCCESS;
  return transfer(true, "MPI_Put", const_cast<void *>(origin_addr), origin_count, origin_datatype,
                  target_rank, target_disp, target_count, target_datatype, win, nullptr);
}

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
  if (WinObject *w = lookup_win(win);
      w && origin_datatype == target_datatype && origin_count == target_count)
    if (const auto *p = lookup_predefined_type(origin_datatype); p && *p && (*p)->is_contiguous())
      if (w->window->copy_fast(target_rank, target_disp, origin_count * (*p)->size(), origin_addr,
                               nullptr))
        return MPI_SUCCESS;
  return transfer(true, "MPI_Put_c", const_cast<void *>(origin_addr), origin_count, origin_datatype,
                  target_rank, target_disp, target_count, target_datatype, win, nullptr);
}

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rput", "request is NULL");
  return transfer(true, "MPI_Rput", const_cast<void *>(origin_addr), origin_count, origin_datatype,
                  target_rank, target_disp, target_cout, target_datatype, win, request);
}

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rput_c", "request is NULL");
  return transfer(true, "MPI_Rput_c", const_cast<void *>(origin_addr), origin_count,
                  origin_datatype, target_rank, target_disp, target_count, target_datatype, win,
                  request);
}

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (WinObject *w = lookup_win(win);
      w && origin_datatype == target_datatype && origin_count == target_count)
    if (const auto *p = lookup_predefined_type(origin_datatype); p && *p && (*p)->is_contiguous())
      if (w->window->copy_fast(target_rank, target_disp, origin_count * (*p)->size(), nullptr,
                               origin_addr))
        return MPI_SUCCESS;
  return transfer(false, "MPI_Get", origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, win, nullptr);
}

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
  if (WinObject *w = lookup_win(win);
      w && origin_datatype == target_datatype && origin_count == target_count)
    if (const auto *p = lookup_predefined_type(origin_datatype); p && *p && (*p)->is_contiguous())
      if (w->window->copy_fast(target_rank, target_disp, origin_count * (*p)->size(), nullptr,
                               origin_addr))
        return MPI_SUCCESS;
  return transfer(false, "MPI_Get_c", origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, win, nullptr);
}

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rget", "request is NULL");
  return transfer(false, "MPI_Rget", origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, win, request);
}

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rget_c", "request is NULL");
  return transfer(false, "MPI_Rget_c", origin_addr, origin_count, origin_datatype, target_rank,
                  target_disp, target_count, target_datatype, win, request);
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return racc("MPI_Accumulate", origin_addr, origin_count, origin_datatype, nullptr, 0,
              MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
              nullptr, false);
}

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return racc("MPI_Accumulate_c", origin_addr, origin_count, origin_datatype, nullptr, 0,
              MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
              nullptr, false);
}

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Raccumulate", "request is NULL");
  return racc("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, nullptr, 0,
              MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
              request, false);
}

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Raccumulate_c", "request is NULL");
  return racc("MPI_Raccumulate_c", origin_addr, origin_count, origin_datatype, nullptr, 0,
              MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
              request, false);
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return racc("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
              result_count, result_datatype, target_rank, target_disp, target_count,
              target_datatype, op, win, nullptr, true);
}

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win) {
  return racc("MPI_Get_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr,
              result_count, result_datatype, target_rank, target_disp, target_count,
              target_datatype, op, win, nullptr, true);
}

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rget_accumulate", "request is NULL");
  return racc("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
              result_count, result_datatype, target_rank, target_disp, target_count,
              target_datatype, op, win, request, true);
}

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request) {
  if (!request) return win_error(win, MPI_ERR_ARG, "MPI_Rget_accumulate_c", "request is NULL");
  return racc("MPI_Rget_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr,
              result_count, result_datatype, target_rank, target_disp, target_count,
              target_datatype, op, win, request, true);
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  return racc("MPI_Fetch_and_op", origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
              target_disp, 1, datatype, op, win, nullptr, true);
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win) {
  const char *fn = "MPI_Compare_and_swap";
  WinObject *w;
  if (int rc = open_win(fn, win, w); rc) return rc;
  Typed t;
  if (int rc = typed(fn, win, datatype, 1, t); rc) return rc;
  if (target_rank == MPI_PROC_NULL) {
    if (!t.get()->is_predefined() ||
        impi::pack::predefined(t.get()->predefined_index()).kind == impi::pack::Kind::pair)
      return win_error(win, MPI_ERR_TYPE, fn,
                       "MPI_Compare_and_swap takes one element of a predefined type that is not "
                       "a pair");
    return to_proc_null(fn, win, *w, target_disp, nullptr);
  }
  if (auto e = w->window->compare_and_swap(origin_addr, compare_addr, result_addr, t.get(),
                                           target_rank, target_disp))
    return win_error(win, e, fn);
  return MPI_SUCCESS;
}

}  // extern "C"

#include "api/generated/win_ops_aliases.inc"
