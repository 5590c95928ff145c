// completion.cpp - completing point-to-point requests: MPI_Wait and
// MPI_Test and their any/all/some forms, MPI_Request_free and
// MPI_Request_get_status, MPI_Cancel, generalized requests (MPI-3.1 12.2).
// The request table is src/api/requests.hpp.
#include <fmt/core.h>

#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/partitioned.hpp"
#include "api/requests.hpp"
#include "collectives/fast_native.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

using impi::api::check_initialized;
using impi::api::report;
using impi::api::report_request;
using namespace impi::api::req;

namespace {
// What a completion call's error message says of a failed operation (a
// generalized request's code, an I/O one, already carries its own text).
const char *failure(int err) {
  if (err == MPI_ERR_TRUNCATE) return "message truncated";
  return err > MPI_ERR_LASTCODE ? "" : "the operation failed";
}

// Waits for entry `e`'s active request: a persistent collective on
// MPI_COMM_WORLD's slots through slots_wait, any other as wait_done.
void wait_entry(const Entry &e) {
  if (e.persistent && e.persistent->coll && e.persistent->coll->slots && !e.active->done)
    impi::collectives::slots_wait(impi::core::Runtime::instance().p2p(), *e.active,
                                  *e.persistent->coll->slot_op);
  else
    wait_done(e.active);
}
}  // namespace

extern "C" {

int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (!check_initialized("MPI_Wait")) return MPI_ERR_OTHER;
  if (!request) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "request is NULL");
  Entry *e = *request == MPI_REQUEST_NULL ? nullptr : find_entry(*request);
  if (*request == MPI_REQUEST_NULL || (e && !e->active)) {
    // MPI_REQUEST_NULL or an inactive persistent request: an empty status (MPI 3.7.3)
    set_empty_status(status);
    return MPI_SUCCESS;
  }
  if (!e) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Wait", "not a valid request");
  wait_entry(*e);
  const std::uintptr_t owner = e->owner;
  int err = finish(request, status, false, e);
  return err == MPI_SUCCESS ? MPI_SUCCESS : report_request(owner, err, "MPI_Wait", failure(err));
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (!check_initialized("MPI_Test")) return MPI_ERR_OTHER;
  if (!request || !flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Test", "NULL argument");
  if (*request == MPI_REQUEST_NULL || (find_entry(*request) && !find_request(*request))) {
    *flag = 1;
    return PMPI_Wait(request, status);
  }
  RequestPtr *slot = find_request(*request);
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Test", "not a valid request");
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(**slot)) p.progress();
  *flag = p.completed(**slot);
  if (!*flag) return MPI_SUCCESS;
  return PMPI_Wait(request, status);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Waitall")) return MPI_ERR_OTHER;
  if (count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Waitall", "bad request array");
  // Each handle is looked up once (entries stay where they are).
  Entry *small[64];
  std::vector<Entry *> large(count > 64 ? static_cast<std::size_t>(count) : 0);
  Entry **entries = count > 64 ? large.data() : small;
  for (int i = 0; i < count; ++i) {
    entries[i] =
        array_of_requests[i] == MPI_REQUEST_NULL ? nullptr : find_entry(array_of_requests[i]);
    if (array_of_requests[i] != MPI_REQUEST_NULL && !entries[i])
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitall",
                    fmt::format("request {} is not valid", i));
  }
  bool failed = false;
  std::uintptr_t failed_owner = 0;  // the first failed operation's object
  for (int i = 0; i < count; ++i) {
    // (Statuses ignored: none is filled; a generalized request's query
    // still gets one of its own, in finish.)
    MPI_Status *st =
        array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
    Entry *e = entries[i];
    if (!e || !e->active) {
      PMPI_Wait(&array_of_requests[i], st);
      continue;
    }
    wait_entry(*e);
    const std::uintptr_t owner = e->owner;
    int err = finish(&array_of_requests[i], st, true, e);
    if (err != MPI_SUCCESS && !failed) failed_owner = owner;
    failed = failed || err != MPI_SUCCESS;
  }
  return failed ? report_request(failed_owner, MPI_ERR_IN_STATUS, "MPI_Waitall", "see the statuses")
                : MPI_SUCCESS;
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[]) {
  if (!check_initialized("MPI_Testall")) return MPI_ERR_OTHER;
  if (!flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Testall", "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    if (!find_entry(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Testall", "not a valid request");
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (slot && !impi::core::Runtime::instance().p2p().completed(**slot)) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return PMPI_Waitall(count, array_of_requests, array_of_statuses);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  if (!check_initialized("MPI_Waitany")) return MPI_ERR_OTHER;
  if (!index || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Waitany", "bad arguments");
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    if (!find_entry(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Waitany", "not a valid request");
    any_active = any_active || find_request(array_of_requests[i]);
  }
  if (!any_active) {
    *index = MPI_UNDEFINED;
    set_empty_status(status);
    return MPI_SUCCESS;
  }
  int found = -1;
  impi::core::Runtime::instance().p2p().wait_until([&] {
    for (int i = 0; i < count; ++i)
      if (array_of_requests[i] != MPI_REQUEST_NULL && find_request(array_of_requests[i]) &&
          impi::core::Runtime::instance().p2p().completed(**find_request(array_of_requests[i]))) {
        found = i;
        return true;
      }
    return false;
  });
  *index = found;
  return PMPI_Wait(&array_of_requests[found], status);
}

int PMPI_Request_free(MPI_Request *request) {
  if (!request || !find_entry(*request))
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_free", "not a valid request");
  // An active operation still completes; the engine keeps its own reference.
  std::uint32_t i = impi::api::handle_index(*request);
  if (auto g = find_entry(*request)->greq) {
    // A generalized request: freed now if complete, else by MPI_Grequest_complete.
    if (!(g->state.fetch_or(Grequest::kFreed) & Grequest::kCompleted)) {
      *request = MPI_REQUEST_NULL;
      return MPI_SUCCESS;
    }
    release_request(request);
    return g->free(g->extra);
  }
  if (auto &p = find_entry(*request)->persistent; p && p->coll) {
    // (a persistent collective's own handles: ~CollStart, below)
  } else if (p && !impi::api::lookup_predefined_type(p->type)) {
    impi::api::free_type(p->type);
  }
  // Released after the table lock (~CollStart frees handles).
  auto gone = std::move(find_entry(*request)->persistent);
  {
    TableLock lk;
    g_requests[i] = Entry{};
    g_free_requests.push_back(i);
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  if (!flag) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
  if (request == MPI_REQUEST_NULL || (find_entry(request) && !find_request(request))) {
    *flag = 1;
    set_empty_status(status);
    return MPI_SUCCESS;
  }
  RequestPtr *slot = find_request(request);
  if (!slot)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Request_get_status", "not a valid request");
  auto &p = impi::core::Runtime::instance().p2p();
  if (!p.completed(**slot)) p.progress();
  *flag = p.completed(**slot);
  if (!*flag) return MPI_SUCCESS;
  if (auto g = find_entry(request)->greq) {  // the query callback's status; the request stays
    MPI_Status tmp{};
    MPI_Status *q = status == MPI_STATUS_IGNORE ? &tmp : status;
    int kept = q->MPI_ERROR, err = g->query(g->extra, q);
    q->MPI_ERROR = kept;
    return err;
  }
  set_status(status, **slot, request_error(**slot));
  return MPI_SUCCESS;
}

// ---- MPI-4.1 3.7.3 / 3.7.5: statuses' fields, and the status of several
// requests without completing them
int PMPI_Status_set_source(MPI_Status *status, int source) {
  if (!status) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_set_source", "NULL status");
  status->MPI_SOURCE = source;
  return MPI_SUCCESS;
}
int PMPI_Status_set_tag(MPI_Status *status, int tag) {
  if (!status) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_set_tag", "NULL status");
  status->MPI_TAG = tag;
  return MPI_SUCCESS;
}
int PMPI_Status_set_error(MPI_Status *status, int error) {
  if (!status) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_set_error", "NULL status");
  status->MPI_ERROR = error;
  return MPI_SUCCESS;
}
int PMPI_Status_get_source(MPI_Status *status, int *source) {
  if (!status || !source)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_get_source", "NULL argument");
  *source = status->MPI_SOURCE;
  return MPI_SUCCESS;
}
int PMPI_Status_get_tag(MPI_Status *status, int *tag) {
  if (!status || !tag)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_get_tag", "NULL argument");
  *tag = status->MPI_TAG;
  return MPI_SUCCESS;
}
int PMPI_Status_get_error(MPI_Status *status, int *error) {
  if (!status || !error)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_get_error", "NULL argument");
  *error = status->MPI_ERROR;
  return MPI_SUCCESS;
}

// Whether request i is null or inactive (counts as complete, empty status).
static bool idle(MPI_Request h) {
  return h == MPI_REQUEST_NULL || (find_entry(h) && !find_request(h));
}

int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index,
                                int *flag, MPI_Status *status) {
  const char *fn = "MPI_Request_get_status_any";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!index || !flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (idle(array_of_requests[i])) continue;
    if (!find_entry(array_of_requests[i]))
      return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a valid request");
    any_active = true;
    int done = 0;
    if (int rc = PMPI_Request_get_status(array_of_requests[i], &done, status); rc != MPI_SUCCESS)
      return rc;
    if (done) {
      *index = i;
      *flag = 1;
      return MPI_SUCCESS;
    }
  }
  *index = MPI_UNDEFINED;
  *flag = !any_active;
  if (!any_active) set_empty_status(status);
  return MPI_SUCCESS;
}

int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[]) {
  const char *fn = "MPI_Request_get_status_all";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arguments");
  auto &p2p = impi::core::Runtime::instance().p2p();
  p2p.progress();
  for (int i = 0; i < count; ++i) {
    if (idle(array_of_requests[i])) continue;
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a valid request");
    if (!p2p.completed(**slot)) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  bool failed = false;
  std::uintptr_t failed_owner = 0;
  for (int i = 0; i < count; ++i) {
    MPI_Status tmp;
    MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? &tmp : &array_of_statuses[i];
    int done = 0, err = PMPI_Request_get_status(array_of_requests[i], &done, st);
    if (!find_entry(array_of_requests[i]) || !find_request(array_of_requests[i]) ||
        find_entry(array_of_requests[i])->greq)
      st->MPI_ERROR = err;
    else
      st->MPI_ERROR = err = request_error(**find_request(array_of_requests[i]));
    if (err != MPI_SUCCESS && !failed) failed_owner = find_entry(array_of_requests[i])->owner;
    failed = failed || err != MPI_SUCCESS;
  }
  return failed ? report_request(failed_owner, MPI_ERR_IN_STATUS, fn, "see the statuses")
                : MPI_SUCCESS;
}

int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  const char *fn = "MPI_Request_get_status_some";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!outcount || incount < 0 || (incount > 0 && (!array_of_requests || !array_of_indices)))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arguments");
  auto &p2p = impi::core::Runtime::instance().p2p();
  p2p.progress();
  int n = 0;
  bool active = false, failed = false;
  std::uintptr_t failed_owner = 0;
  for (int i = 0; i < incount; ++i) {
    if (idle(array_of_requests[i])) continue;
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a valid request");
    active = true;
    if (!p2p.completed(**slot)) continue;
    MPI_Status tmp;
    MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? &tmp : &array_of_statuses[n];
    int done = 0, err = PMPI_Request_get_status(array_of_requests[i], &done, st);
    if (!find_entry(array_of_requests[i])->greq)
      err = request_error(**find_request(array_of_requests[i]));
    st->MPI_ERROR = err;
    if (err != MPI_SUCCESS && !failed) failed_owner = find_entry(array_of_requests[i])->owner;
    failed = failed || err != MPI_SUCCESS;
    array_of_indices[n++] = i;
  }
  *outcount = active ? n : MPI_UNDEFINED;
  return failed ? report_request(failed_owner, MPI_ERR_IN_STATUS, fn, "see the statuses")
                : MPI_SUCCESS;
}

// ---- cancel
int PMPI_Cancel(MPI_Request *request) {
  if (!check_initialized("MPI_Cancel")) return MPI_ERR_OTHER;
  RequestPtr *slot = request ? find_request(*request) : nullptr;
  if (!slot) return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Cancel", "not an active request");
  Entry *e = find_entry(*request);
  if (e->persistent && e->persistent->coll)  // (MPI-4.0 3.8.4)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, "MPI_Cancel",
                  "a persistent collective operation cannot be cancelled");
  if (e->persistent && e->persistent->part) {  // a round none of whose messages went or matched
    impi::api::part::cancel(*e);
    return MPI_SUCCESS;
  }
  if (auto g = e->greq)  // the callback decides (MPI-3.1 12.2)
    return g->cancel(g->extra, (*slot)->done ? 1 : 0);
  // If too late, the operation completes normally.
  auto &p2p = impi::core::Runtime::instance().p2p();
  if (e->sent_seq != 0) {  // written into the ring at once: ask the receiver
    e->active = p2p.cancel_sent(e->sent_to, e->sent_seq);
    e->sent_seq = 0;
  } else if (e->buffered) {  // the copy's send: the handle completes with it once asked
    if (p2p.cancel(e->buffered)) e->active = e->buffered;
    e->buffered.reset();
  } else {
    p2p.cancel(*slot);
  }
  return MPI_SUCCESS;
}

// ---- generalized requests (MPI-3.1 12.2)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request) {
  constexpr const char *fn = "MPI_Grequest_start";
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!query_fn || !free_fn || !cancel_fn || !request)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "a callback or request is NULL");
  auto r = impi::core::make_request();
  r->kind = impi::core::Request::Kind::recv;
  *request = new_request(std::move(r));
  find_entry(*request)->greq =
      std::make_shared<Grequest>(query_fn, free_fn, cancel_fn, extra_state);
  return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request request) {
  constexpr const char *fn = "MPI_Grequest_complete";
  Entry *e = find_entry(request);
  if (!e || !e->greq || !e->active)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "not a generalized request");
  if (e->active->done)
    return report(MPI_COMM_NULL, MPI_ERR_REQUEST, fn, "the request is already complete");
  auto g = e->greq;
  e->active->done = true;  // (a waiting thread sees it on its next look)
  if (!(g->state.fetch_or(Grequest::kCompleted) & Grequest::kFreed)) return MPI_SUCCESS;
  release_request(&request);
  return g->free(g->extra);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
  if (!status || !flag)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Test_cancelled", "NULL argument");
  *flag = status->impi_cancelled;
  return MPI_SUCCESS;
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag) {
  if (!status) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled", "NULL status");
  status->impi_cancelled = flag != 0;
  return MPI_SUCCESS;
}

// ---- more completion calls
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status) {
  if (!check_initialized("MPI_Testany")) return MPI_ERR_OTHER;
  if (!index || !flag || count < 0 || (count > 0 && !array_of_requests))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Testany", "bad arguments");
  impi::core::Runtime::instance().p2p().progress();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (array_of_requests[i] == MPI_REQUEST_NULL) continue;
    RequestPtr *slot = find_request(array_of_requests[i]);
    if (!slot) continue;
    any_active = true;
    if (impi::core::Runtime::instance().p2p().completed(**slot)) {
      *index = i;
      *flag = 1;
      const std::uintptr_t owner = find_entry(array_of_requests[i])->owner;
      int err = complete_at(array_of_requests, i, status, false);
      return err == MPI_SUCCESS ? MPI_SUCCESS
                                : report_request(owner, err, "MPI_Testany", failure(err));
    }
  }
  *index = MPI_UNDEFINED;
  *flag = !any_active;
  if (!any_active) set_empty_status(status);
  return MPI_SUCCESS;
}

static int some(int incount, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[], bool wait, const char *fn) {
  if (!check_initialized(fn)) return MPI_ERR_OTHER;
  if (!outcount || incount < 0 || (incount > 0 && (!reqs || !indices)))
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "bad arguments");
  auto &p2p = impi::core::Runtime::instance().p2p();
  auto ready = [&] {
    bool active = false;
    for (int i = 0; i < incount; ++i)
      if (reqs[i] != MPI_REQUEST_NULL && find_request(reqs[i])) {
        active = true;
        if (impi::core::Runtime::instance().p2p().completed(**find_request(reqs[i]))) return true;
      }
    return !active;
  };
  if (wait)
    p2p.wait_until(ready);
  else
    p2p.progress();
  int n = 0;
  bool active = false, failed = false;
  std::uintptr_t failed_owner = 0;
  for (int i = 0; i < incount; ++i) {
    if (reqs[i] == MPI_REQUEST_NULL || !find_request(reqs[i])) continue;
    active = true;
    if (!impi::core::Runtime::instance().p2p().completed(**find_request(reqs[i]))) continue;
    MPI_Status tmp;
    const std::uintptr_t owner = find_entry(reqs[i])->owner;
    int err = complete_at(reqs, i, statuses == MPI_STATUSES_IGNORE ? &tmp : &statuses[n], true);
    if (err != MPI_SUCCESS && !failed) failed_owner = owner;
    failed = failed || err != MPI_SUCCESS;
    indices[n++] = i;
  }
  *outcount = active ? n : MPI_UNDEFINED;
  return failed ? report_request(failed_owner, MPI_ERR_IN_STATUS, fn, "see the statuses")
                : MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, true,
              "MPI_Waitsome");
}

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, false,
              "MPI_Testsome");
}

}  // extern "C"

#include "api/generated/completion_aliases.inc"
