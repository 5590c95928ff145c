/* rma_errors_check.c - errors of one-sided communication (MPI-3.1 chapter
 * 11, 8.4) with MPI_ERRORS_RETURN on the window: displacements outside the
 * target's window, calls outside or against the epoch they need, bad
 * arguments, and a handler from MPI_Win_create_errhandler called with the
 * window and the code. After the errors the window still works and
 * MPI_Win_free succeeds. For windows of MPI_Win_create and of
 * MPI_Win_allocate, at any np >= 1. Prints "rank r of n ok".
 *
 * Only what both peers do is asserted unconditionally; the rest needs
 * RMA_STRICT=1 (set by our ctest). What the peers return, 2 procs on one
 * machine (Open MPI 4.1.4 run with --mca osc sm,pt2pt: its Debian default
 * osc/rdma cannot create windows here, and segfaults in vader atomics;
 * osc/sm then serves MPI_Win_allocate windows and osc/pt2pt MPI_Win_create
 * ones; MPICH 4.0.2 ch4, shared memory and TCP alike):
 *
 *   case                                 Open MPI create  Open MPI allocate  MPICH
 *   put/get/acc/get_acc/fop/cas beyond   not detected     not detected       not detected
 *     the target's window size           (RMA_STRICT: MPI_ERR_RMA_RANGE, at the call)
 *   negative target_disp                 MPI_ERR_DISP     MPI_ERR_DISP       MPI_ERR_DISP
 *   put/get/acc/get_acc/fop/cas/rput     MPI_ERR_RMA_SYNC not detected       MPI_ERR_RMA_SYNC
 *     outside any epoch
 *   flush, flush_all, flush_local,       MPI_ERR_RMA_SYNC not detected       MPI_ERR_RMA_SYNC
 *     flush_local_all outside a lock
 *   fence inside a lock epoch            MPI_ERR_RMA_SYNC not detected       MPI_ERR_RMA_SYNC
 *   unlock without lock, unlock_all      MPI_ERR_RMA_SYNC MPI_ERR_RMA_SYNC   MPI_ERR_RMA_SYNC
 *     without lock_all, complete without
 *     start, wait without post, lock_all
 *     twice
 *   lock of a target already locked      MPI_ERR_RMA_     MPI_ERR_RMA_SYNC   MPI_ERR_RMA_SYNC
 *                                          CONFLICT       (RMA_STRICT: MPI_ERR_RMA_SYNC)
 *   rput inside a fence epoch            not detected     not detected       not detected
 *                                        (RMA_STRICT: MPI_ERR_RMA_SYNC)
 *   put to rank = size                   MPI_ERR_RANK     MPI_ERR_RANK       MPI_ERR_RANK
 *   lock type 12345                      MPI_ERR_LOCKTYPE MPI_ERR_LOCKTYPE   MPI_ERR_ARG
 *                                        (RMA_STRICT: MPI_ERR_LOCKTYPE)
 *   shared_query of a non-shared window  MPI_ERR_RMA_     MPI_ERR_WIN        MPI_ERR_RMA_FLAVOR
 *                                          FLAVOR         (RMA_STRICT: MPI_ERR_RMA_FLAVOR)
 *   user handler: called once with the window and the returned code, the
 *   communicator's handler not at all                     both peers
 *
 * So: epoch errors of MPI_Win_create windows are asserted always, those of
 * MPI_Win_allocate windows only with RMA_STRICT=1 (Open MPI's osc/sm does
 * not check); range errors only with RMA_STRICT=1 (neither peer checks: a
 * rejected operation must also write nothing, which the padding after each
 * MPI_Win_create window's memory shows). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { CREATE, ALLOCATE };
#define NINTS 16    /* window size in ints (64 bytes: see pad16 in rma_check.c) */
#define PADDED 1040 /* ints of memory under an MPI_Win_create window (with what follows it) */
#define CANARY 0x5A5A5A5A
#define NONE (-12345)

static int rank, size, failures, left, right, strict;
static const char *fname[2] = {"MPI_Win_create window", "MPI_Win_allocate window"};

static int error_class(int rc) {
  int c = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c);
  return c;
}

static const char *class_name(int c) {
#define NAME(x) \
  { x, #x }
  static const struct {
    int code;
    const char *name;
  } names[] = {NAME(MPI_SUCCESS),          NAME(MPI_ERR_RMA_SYNC),   NAME(MPI_ERR_RMA_RANGE),
               NAME(MPI_ERR_RMA_CONFLICT), NAME(MPI_ERR_RMA_ATTACH), NAME(MPI_ERR_RMA_SHARED),
               NAME(MPI_ERR_RMA_FLAVOR),   NAME(MPI_ERR_DISP),       NAME(MPI_ERR_ARG),
               NAME(MPI_ERR_RANK),         NAME(MPI_ERR_WIN),        NAME(MPI_ERR_LOCKTYPE),
               NAME(MPI_ERR_OTHER),        NAME(MPI_ERR_COUNT),      NAME(MPI_ERR_TYPE),
               NAME(MPI_ERR_ASSERT),       NAME(MPI_ERR_INTERN),     NAME(MPI_ERR_UNKNOWN),
               NAME(MPI_ERR_REQUEST),      NAME(MPI_ERR_OP)};
#undef NAME
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (names[i].code == c) return names[i].name;
  return "another class";
}

/* rc's class must be `want` (or `alt`, unless alt is NONE). */
static void expect(int flavour, const char *what, int rc, int want, int alt) {
  int c = error_class(rc);
  if (alt == NONE)
    CHECK(c == want, "%s: %s: got class %d (%s), expected %s", fname[flavour], what, c,
          class_name(c), class_name(want));
  else
    CHECK(c == want || c == alt, "%s: %s: got class %d (%s), expected %s or %s", fname[flavour],
          what, c, class_name(c), class_name(want), class_name(alt));
}

/* A window of NINTS ints holding -1 (an MPI_Win_create one has CANARY
 * ints after it), errors returned. */
static MPI_Win make_window(int flavour, int **base) {
  MPI_Win win;
  MPI_Errhandler eh;
  int i;
  if (flavour == CREATE) {
    *base = malloc(PADDED * sizeof(int));
    for (i = 0; i < PADDED; ++i) (*base)[i] = i < NINTS ? -1 : CANARY;
    CHECK(MPI_Win_create(*base, NINTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                         &win) == MPI_SUCCESS,
          "MPI_Win_create failed");
  } else {
    CHECK(MPI_Win_allocate(NINTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base,
                           &win) == MPI_SUCCESS,
          "MPI_Win_allocate failed");
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (i = 0; i < NINTS; ++i) (*base)[i] = -1;
    MPI_Win_unlock(rank, win);
  }
  CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN) == MPI_SUCCESS,
        "MPI_Win_set_errhandler(MPI_ERRORS_RETURN) failed");
  MPI_Win_get_errhandler(win, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "%s: MPI_Win_get_errhandler is not MPI_ERRORS_RETURN",
        fname[flavour]);
  MPI_Errhandler_free(&eh);
  MPI_Barrier(MPI_COMM_WORLD);
  return win;
}

/* After the errors: a put to the right neighbour and a get of it back work,
 * the left neighbour's put arrived, nothing was written past the window,
 * and MPI_Win_free succeeds. */
static void still_works_and_free(int flavour, MPI_Win win, int *base) {
  int x = 700 + rank, y = -1, i, rc;
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
  CHECK(rc == MPI_SUCCESS, "%s: lock after the errors: class %s", fname[flavour],
        class_name(error_class(rc)));
  rc = MPI_Put(&x, 1, MPI_INT, right, 5, 1, MPI_INT, win);
  CHECK(rc == MPI_SUCCESS, "%s: put after the errors: class %s", fname[flavour],
        class_name(error_class(rc)));
  MPI_Win_flush(right, win);
  rc = MPI_Get(&y, 1, MPI_INT, right, 5, 1, MPI_INT, win);
  CHECK(rc == MPI_SUCCESS, "%s: get after the errors: class %s", fname[flavour],
        class_name(error_class(rc)));
  rc = MPI_Win_unlock(right, win);
  CHECK(rc == MPI_SUCCESS, "%s: unlock after the errors: class %s", fname[flavour],
        class_name(error_class(rc)));
  CHECK(y == x, "%s: get after the errors: got %d, expected %d", fname[flavour], y, x);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  CHECK(base[5] == 700 + left,
        "%s: the left neighbour's put after the errors: got %d, "
        "expected %d",
        fname[flavour], base[5], 700 + left);
  MPI_Win_unlock(rank, win);
  if (flavour == CREATE && strict) {
    for (i = NINTS; i < PADDED; ++i)
      if (base[i] != CANARY) break;
    CHECK(i == PADDED, "%s: memory after the window was written: int %d is %#x", fname[flavour], i,
          (unsigned)(i < PADDED ? base[i] : 0));
  }
  rc = MPI_Win_free(&win);
  CHECK(rc == MPI_SUCCESS && win == MPI_WIN_NULL, "%s: MPI_Win_free after the errors: class %s",
        fname[flavour], class_name(error_class(rc)));
  if (flavour == CREATE) free(base);
}

/* Displacements: operations ending exactly at the end of the target's
 * window succeed; negative ones are MPI_ERR_DISP (both peers); beyond the
 * end MPI_ERR_RMA_RANGE at the call (RMA_STRICT only: neither peer checks),
 * and the epoch goes on. */
static void range_errors(int flavour) {
  int *base, src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, res[8], one = 1, cmp = 0;
  MPI_Datatype vec; /* 4 ints 3 apart: true extent 10 ints */
  MPI_Win win = make_window(flavour, &base);
  MPI_Type_vector(4, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  expect(flavour, "put of 4 ints ending at the window's end",
         MPI_Put(src, 4, MPI_INT, right, NINTS - 4, 4, MPI_INT, win), MPI_SUCCESS, NONE);
  expect(flavour, "get of 4 ints ending at the window's end (value not checked)",
         MPI_Get(res, 4, MPI_INT, right, NINTS - 4, 4, MPI_INT, win), MPI_SUCCESS, NONE);
  expect(flavour, "put through a vector ending at the window's end",
         MPI_Put(src, 4, MPI_INT, right, NINTS - 10, 1, vec, win), MPI_SUCCESS, NONE);
  expect(flavour, "put at displacement -1", MPI_Put(src, 1, MPI_INT, right, -1, 1, MPI_INT, win),
         MPI_ERR_DISP, NONE);
  expect(flavour, "get at displacement -4", MPI_Get(res, 1, MPI_INT, right, -4, 1, MPI_INT, win),
         MPI_ERR_DISP, NONE);
  if (strict) {
    expect(flavour, "put of 4 ints one past the end",
           MPI_Put(src, 4, MPI_INT, right, NINTS - 3, 4, MPI_INT, win), MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "put of 1 int at displacement = size",
           MPI_Put(src, 1, MPI_INT, right, NINTS, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, NONE);
    if (flavour == CREATE) /* (inside the padding if a peer writes it) */
      expect(flavour, "put of 1 int at displacement 1000",
             MPI_Put(src, 1, MPI_INT, right, 1000, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "put through a vector one past the end",
           MPI_Put(src, 4, MPI_INT, right, NINTS - 9, 1, vec, win), MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "get of 4 ints one past the end",
           MPI_Get(res, 4, MPI_INT, right, NINTS - 3, 4, MPI_INT, win), MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "get of 1 int at displacement = size",
           MPI_Get(res, 1, MPI_INT, right, NINTS, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "accumulate of 2 ints one past the end",
           MPI_Accumulate(src, 2, MPI_INT, right, NINTS - 1, 2, MPI_INT, MPI_SUM, win),
           MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "get_accumulate of 2 ints one past the end",
           MPI_Get_accumulate(src, 2, MPI_INT, res, 2, MPI_INT, right, NINTS - 1, 2, MPI_INT,
                              MPI_SUM, win),
           MPI_ERR_RMA_RANGE, NONE);
    expect(flavour, "fetch_and_op at displacement = size",
           MPI_Fetch_and_op(&one, res, MPI_INT, right, NINTS, MPI_SUM, win), MPI_ERR_RMA_RANGE,
           NONE);
    expect(flavour, "compare_and_swap at displacement = size",
           MPI_Compare_and_swap(&one, &cmp, res, MPI_INT, right, NINTS, win), MPI_ERR_RMA_RANGE,
           NONE);
  }
  /* the epoch goes on after the errors: element NINTS - 3 has the first
   * put's src[1] (the vector put wrote 6, 9, 12, 15) */
  expect(flavour, "flush after the rejected calls", MPI_Win_flush(right, win), MPI_SUCCESS, NONE);
  res[0] = -9;
  expect(flavour, "get after the rejected calls",
         MPI_Get(res, 1, MPI_INT, right, NINTS - 3, 1, MPI_INT, win), MPI_SUCCESS, NONE);
  expect(flavour, "unlock after the rejected calls", MPI_Win_unlock(right, win), MPI_SUCCESS, NONE);
  CHECK(res[0] == 2, "%s: get after the rejected calls: got %d, expected 2", fname[flavour],
        res[0]);
  MPI_Type_free(&vec);
  still_works_and_free(flavour, win, base);
}

/* Synchronisation calls without the epoch they need, or against one. */
static void epoch_errors(int flavour) {
  int *base, x = 1, res[2] = {0, 0}, cmp = 0, rc;
  MPI_Request req;
  MPI_Win win = make_window(flavour, &base);
  /* detected by both peers for both flavours */
  expect(flavour, "MPI_Win_unlock without a lock", MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC,
         NONE);
  expect(flavour, "MPI_Win_unlock_all without lock_all", MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC,
         NONE);
  expect(flavour, "MPI_Win_complete without start", MPI_Win_complete(win), MPI_ERR_RMA_SYNC, NONE);
  expect(flavour, "MPI_Win_wait without post", MPI_Win_wait(win), MPI_ERR_RMA_SYNC, NONE);
  expect(flavour, "MPI_Win_lock_all", MPI_Win_lock_all(0, win), MPI_SUCCESS, NONE);
  expect(flavour, "MPI_Win_lock_all inside lock_all", MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC,
         NONE);
  expect(flavour, "MPI_Win_unlock_all", MPI_Win_unlock_all(win), MPI_SUCCESS, NONE);
  expect(flavour, "MPI_Win_lock", MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_SUCCESS, NONE);
  /* Open MPI's osc/pt2pt says MPI_ERR_RMA_CONFLICT */
  expect(flavour, "MPI_Win_lock of a target already locked",
         MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC,
         strict ? NONE : MPI_ERR_RMA_CONFLICT);
  expect(flavour, "MPI_Win_unlock after the second lock failed", MPI_Win_unlock(right, win),
         MPI_SUCCESS, NONE);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Open MPI's osc/sm (its MPI_Win_allocate windows) checks none of these */
  if (flavour == CREATE || strict) {
    expect(flavour, "MPI_Put outside any epoch", MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win),
           MPI_ERR_RMA_SYNC, NONE);
    expect(flavour, "MPI_Get outside any epoch",
           MPI_Get(res, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, NONE);
    expect(flavour, "MPI_Accumulate outside any epoch",
           MPI_Accumulate(&x, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC,
           NONE);
    expect(flavour, "MPI_Get_accumulate outside any epoch",
           MPI_Get_accumulate(&x, 1, MPI_INT, res, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win),
           MPI_ERR_RMA_SYNC, NONE);
    expect(flavour, "MPI_Fetch_and_op outside any epoch",
           MPI_Fetch_and_op(&x, res, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC, NONE);
    expect(flavour, "MPI_Compare_and_swap outside any epoch",
           MPI_Compare_and_swap(&x, &cmp, res, MPI_INT, right, 0, win), MPI_ERR_RMA_SYNC, NONE);
    req = MPI_REQUEST_NULL;
    rc = MPI_Rput(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req);
    expect(flavour, "MPI_Rput outside any epoch", rc, MPI_ERR_RMA_SYNC, NONE);
    if (rc == MPI_SUCCESS) MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect(flavour, "MPI_Win_flush outside a lock", MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC,
           NONE);
    expect(flavour, "MPI_Win_flush_all outside a lock", MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC,
           NONE);
    expect(flavour, "MPI_Win_flush_local outside a lock", MPI_Win_flush_local(right, win),
           MPI_ERR_RMA_SYNC, NONE);
    expect(flavour, "MPI_Win_flush_local_all outside a lock", MPI_Win_flush_local_all(win),
           MPI_ERR_RMA_SYNC, NONE);
    MPI_Barrier(MPI_COMM_WORLD);
    /* every rank calls the fence, so it completes if it is not refused */
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    expect(flavour, "MPI_Win_fence inside a lock epoch", MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC,
           NONE);
    expect(flavour, "MPI_Win_unlock after the refused fence", MPI_Win_unlock(right, win),
           MPI_SUCCESS, NONE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* request-based operations belong to passive-target epochs only (no peer checks) */
  if (strict) {
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    req = MPI_REQUEST_NULL;
    rc = MPI_Rput(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req);
    expect(flavour, "MPI_Rput inside a fence epoch", rc, MPI_ERR_RMA_SYNC, NONE);
    if (rc == MPI_SUCCESS) MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  }
  still_works_and_free(flavour, win, base);
}

/* Bad arguments: rank, lock type, shared_query of a window that is not shared. */
static void argument_errors(int flavour) {
  int *base, x = 1, du = 0;
  MPI_Aint sz = 0;
  void *p = NULL;
  MPI_Win win = make_window(flavour, &base);
  MPI_Win_lock_all(0, win);
  expect(flavour, "MPI_Put to rank = size", MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win),
         MPI_ERR_RANK, NONE);
  expect(flavour, "MPI_Get from rank -5", MPI_Get(&x, 1, MPI_INT, -5, 0, 1, MPI_INT, win),
         MPI_ERR_RANK, NONE);
  MPI_Win_unlock_all(win);
  /* MPICH says MPI_ERR_ARG */
  expect(flavour, "MPI_Win_lock with lock type 12345", MPI_Win_lock(12345, right, 0, win),
         MPI_ERR_LOCKTYPE, strict ? NONE : MPI_ERR_ARG);
  /* Open MPI's osc/sm says MPI_ERR_WIN */
  expect(flavour, "MPI_Win_shared_query of a window that is not shared",
         MPI_Win_shared_query(win, rank, &sz, &du, &p), MPI_ERR_RMA_FLAVOR,
         strict ? NONE : MPI_ERR_WIN);
  still_works_and_free(flavour, win, base);
}

static int win_calls, win_code, comm_calls;
static MPI_Win win_seen;
static void win_handler(MPI_Win *w, int *code, ...) {
  ++win_calls;
  win_code = *code;
  win_seen = *w;
}
static void comm_handler(MPI_Comm *c, int *code, ...) {
  (void)c, (void)code;
  ++comm_calls;
}

/* A handler from MPI_Win_create_errhandler is called once per error with
 * the window and the code the call returns; the communicator's is not. */
static void user_handler(int flavour) {
  int *base, x = 1, rc;
  MPI_Errhandler weh, ceh;
  MPI_Win win = make_window(flavour, &base);
  MPI_Win_create_errhandler(win_handler, &weh);
  MPI_Comm_create_errhandler(comm_handler, &ceh);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, ceh);
  CHECK(MPI_Win_set_errhandler(win, weh) == MPI_SUCCESS, "MPI_Win_set_errhandler failed");
  win_calls = comm_calls = 0;
  win_code = MPI_SUCCESS;
  rc = MPI_Win_unlock(right, win);
  expect(flavour, "MPI_Win_unlock without a lock, user handler", rc, MPI_ERR_RMA_SYNC, NONE);
  CHECK(win_calls == 1 && win_code == rc && win_seen == win,
        "%s: window handler: %d calls with code %d (window %s), expected 1 with code %d",
        fname[flavour], win_calls, win_code, win_seen == win ? "right" : "wrong", rc);
  MPI_Win_lock_all(0, win);
  rc = MPI_Put(&x, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win);
  MPI_Win_unlock_all(win);
  expect(flavour, "MPI_Put to a rank beyond the window's group, user handler", rc, MPI_ERR_RANK,
         NONE);
  CHECK(win_calls == 2 && win_code == rc,
        "%s: window handler: %d calls, last code %d, expected "
        "2, last %d",
        fname[flavour], win_calls, win_code, rc);
  CHECK(comm_calls == 0, "%s: the communicator's handler ran %d times for window errors",
        fname[flavour], comm_calls);
  MPI_Errhandler_free(&weh); /* the window keeps it */
  rc = MPI_Win_complete(win);
  CHECK(win_calls == 3 && win_code == rc && error_class(rc) == MPI_ERR_RMA_SYNC,
        "%s: window handler after MPI_Errhandler_free: %d calls, class %s", fname[flavour],
        win_calls, class_name(error_class(rc)));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&ceh);
  still_works_and_free(flavour, win, base);
  CHECK(win_calls == 3 && comm_calls == 0, "%s: handlers ran after being replaced (%d, %d)",
        fname[flavour], win_calls, comm_calls);
}

int main(int argc, char **argv) {
  const char *s;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  s = getenv("RMA_STRICT");
  strict = s && strcmp(s, "1") == 0;
  for (int flavour = CREATE; flavour <= ALLOCATE; ++flavour) {
    range_errors(flavour);
    epoch_errors(flavour);
    argument_errors(flavour);
    user_handler(flavour);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
