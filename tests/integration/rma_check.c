/* rma_check.c - one-sided communication (MPI-3.1 chapter 11), checked in
 * every process, at any np >= 1 (a rank is its own neighbour at np 1):
 * windows of every flavour (create with disp units 1, 4 and 8 and with
 * zero-size NULL-based parts, allocate, allocate_shared with shared_query
 * and direct load/store, dynamic with attach/detach), their attributes,
 * group, name, info, keyvals and error handlers; Put, Get, Accumulate with
 * every predefined operation, Get_accumulate, Fetch_and_op,
 * Compare_and_swap and the request-based calls; derived datatypes on
 * either side; every synchronisation mode (fence with asserts,
 * post/start/complete/wait and Win_test, lock/unlock shared and exclusive,
 * lock_all, the flushes, Win_sync); exact results of concurrent
 * accumulates, fetch-and-adds and a compare-and-swap mutex; 4 MiB
 * transfers; passive-target access while the target sits in a barrier.
 * Prints "rank r of n ok". RMA_STRICT=1 adds odd_sizes() (see pad16).
 *
 * Checked against Open MPI 4.1.4 and MPICH 4.0.2 (both pass at np 1-5, over
 * shared memory and over TCP). Open MPI needs `--mca osc sm,pt2pt`: the
 * Debian configuration leaves only osc/rdma, which fails MPI_Win_create
 * here (MPI_ERR_WIN at np 1) and segfaults in btl/vader atomics at np >= 2
 * (open-mpi/ompi#11349); osc/sm then serves MPI_Win_allocate[_shared]
 * windows and osc/pt2pt the others. What the peers get wrong: MPICH
 * misplaces MPI_Win_allocate parts not a multiple of 16 bytes long (so
 * those are checked only with RMA_STRICT, see pad16); Open MPI's
 * osc/pt2pt, when forced onto MPI_Win_allocate windows (--mca osc pt2pt),
 * fails concurrent(): one origin's fetch-and-ops return values out of
 * program order, against the default accumulate_ordering; its osc/ucx
 * fails accumulate_ops() (double sums through a resized type are lost);
 * its default window name is "rdma window 3", not "" (so not checked). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, failures, left, right;

/* A call that must succeed (windows keep MPI_ERRORS_ARE_FATAL here, so this
 * mostly documents; MPI_ERRORS_RETURN is set on MPI_COMM_WORLD). */
#define RC(call)                                             \
  do {                                                       \
    int rc_ = (call);                                        \
    CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_); \
  } while (0)

/* Locking one's own window exclusively makes its public and private copies
 * agree (needed in the separate model; harmless in the unified one). */
static void lock_self(MPI_Win win) {
  RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
}
static void unlock_self(MPI_Win win) {
  RC(MPI_Win_unlock(rank, win));
}

/* The predefined attributes of a window. */
static void check_attrs(MPI_Win win, const char *what, void *base, MPI_Aint sz, int du,
                        int flavor) {
  void *b = (void *)&b;
  MPI_Aint *s = NULL;
  int *d = NULL, *f = NULL, *m = NULL, flag = 0;
  RC(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
  CHECK(flag && b == base, "%s: MPI_WIN_BASE flag %d %p, expected %p", what, flag, b, base);
  RC(MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag));
  CHECK(flag && s && *s == sz, "%s: MPI_WIN_SIZE flag %d %ld, expected %ld", what, flag,
        s ? (long)*s : -1L, (long)sz);
  RC(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &d, &flag));
  CHECK(flag && d && *d == du, "%s: MPI_WIN_DISP_UNIT flag %d %d, expected %d", what, flag,
        d ? *d : -1, du);
  RC(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag));
  CHECK(flag && f && *f == flavor, "%s: MPI_WIN_CREATE_FLAVOR flag %d %d, expected %d", what, flag,
        f ? *f : -1, flavor);
  RC(MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag));
  CHECK(flag && m && (*m == MPI_WIN_UNIFIED || *m == MPI_WIN_SEPARATE),
        "%s: MPI_WIN_MODEL flag %d %d, expected MPI_WIN_UNIFIED or MPI_WIN_SEPARATE", what, flag,
        m ? *m : -1);
}

/* Bytes for MPI_Win_allocate: MPICH 4.0.2 (ch4, shared memory) misplaces
 * remote accesses to a rank's part when the parts' sizes are not multiples
 * of 16 bytes (the data lands some bytes before the base it returned), so
 * the windows here are padded; odd_sizes() checks the unpadded case. */
static MPI_Aint pad16(MPI_Aint bytes) {
  return (bytes + 15) / 16 * 16;
}

static int win_model(MPI_Win win) {
  int *m = NULL, flag = 0;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag);
  return flag && m ? *m : -1;
}

/* ---- windows of every flavour ---- */

/* Element i of rank r's source data, for elements of du bytes. */
static long long elem(int du, int r, int i) {
  long long v = (long long)r * 1000 + i + 1;
  if (du == 1) return (unsigned char)(r * 16 + i + 1);
  if (du == 8) v += (long long)(r + 1) << 40;
  return v;
}
static void put_elem(unsigned char *p, int du, long long v) {
  if (du == 1) *p = (unsigned char)v;
  if (du == 4) {
    int x = (int)v;
    memcpy(p, &x, 4);
  }
  if (du == 8) memcpy(p, &v, 8);
}
static long long get_elem(const unsigned char *p, int du) {
  int x;
  long long v;
  if (du == 1) return *p;
  if (du == 4) {
    memcpy(&x, p, 4);
    return x;
  }
  memcpy(&v, p, 8);
  return v;
}

/* MPI_Win_create with disp units 1, 4 and 8: a put of 5 elements to the
 * right neighbour at displacement 3 (in units), then a get of them back. */
static void create_disp_units(void) {
  const int dus[3] = {1, 4, 8}, n = 16;
  const MPI_Datatype types[3] = {MPI_UNSIGNED_CHAR, MPI_INT, MPI_LONG_LONG};
  for (int u = 0; u < 3; ++u) {
    int du = dus[u], i;
    unsigned char *buf = malloc((size_t)(n * du)), *src = malloc((size_t)(n * du)),
                  *dst = malloc((size_t)(n * du));
    char what[64];
    MPI_Win win;
    memset(buf, 0xEE, (size_t)(n * du));
    memset(dst, 0xDD, (size_t)(n * du));
    for (i = 0; i < n; ++i) put_elem(src + i * du, du, elem(du, rank, i));
    RC(MPI_Win_create(buf, (MPI_Aint)n * du, du, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    snprintf(what, sizeof what, "Win_create disp_unit %d", du);
    check_attrs(win, what, buf, (MPI_Aint)n * du, du, MPI_WIN_FLAVOR_CREATE);
    RC(MPI_Win_fence(0, win));
    RC(MPI_Put(src + 2 * du, 5, types[u], right, 3, 5, types[u], win));
    RC(MPI_Win_fence(0, win));
    for (i = 0; i < n; ++i) {
      long long got = get_elem(buf + i * du, du);
      if (i >= 3 && i < 8) {
        long long want = elem(du, left, i - 1);
        CHECK(got == want, "%s: put element %d: got %lld, expected %lld", what, i, got, want);
      } else {
        int untouched = 1;
        for (int k = 0; k < du; ++k) untouched &= buf[i * du + k] == 0xEE;
        CHECK(untouched, "%s: element %d outside the put was written (%lld)", what, i, got);
      }
    }
    RC(MPI_Get(dst, 5, types[u], right, 3, 5, types[u], win));
    RC(MPI_Win_fence(0, win));
    for (i = 0; i < 5; ++i) {
      long long got = get_elem(dst + i * du, du), want = elem(du, rank, i + 2);
      CHECK(got == want, "%s: get element %d: got %lld, expected %lld", what, i, got, want);
    }
    RC(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "%s: MPI_Win_free left the handle set", what);
    free(buf);
    free(src);
    free(dst);
  }
}

/* MPI_Win_create where odd ranks give no memory (base NULL, size 0): every
 * rank puts its number in slot `rank` of every even rank; zero-count puts
 * to the empty parts are allowed. */
static void create_zero_size(void) {
  int *buf = NULL, i, zero = 0;
  MPI_Aint sz = 0;
  MPI_Win win;
  if (rank % 2 == 0) {
    buf = malloc(sizeof(int) * (size_t)size);
    for (i = 0; i < size; ++i) buf[i] = -1;
    sz = (MPI_Aint)sizeof(int) * size;
  }
  RC(MPI_Win_create(buf, sz, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  check_attrs(win, rank % 2 ? "Win_create of size 0" : "Win_create beside size-0 parts", buf, sz,
              sizeof(int), MPI_WIN_FLAVOR_CREATE);
  RC(MPI_Win_lock_all(0, win));
  for (i = 0; i < size; ++i) {
    if (i % 2 == 0)
      RC(MPI_Put(&rank, 1, MPI_INT, i, rank, 1, MPI_INT, win));
    else
      RC(MPI_Put(&zero, 0, MPI_INT, i, 0, 0, MPI_INT, win));
  }
  RC(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank % 2 == 0) {
    lock_self(win);
    for (i = 0; i < size; ++i)
      CHECK(buf[i] == i, "zero-size neighbours: slot %d: got %d, expected %d", i, buf[i], i);
    unlock_self(win);
  }
  RC(MPI_Win_free(&win));
  free(buf);
}

/* MPI_Win_allocate, each rank a different size: a put that ends exactly at
 * the end of the right neighbour's part, flushed and read back. */
static void allocate(void) {
  const int n = 64 * (rank + 1), nr = 64 * (right + 1);
  int *base = NULL, i, src[8], dst[8];
  MPI_Win win;
  RC(MPI_Win_allocate((MPI_Aint)n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                      &win));
  CHECK(base != NULL, "MPI_Win_allocate gave a NULL base");
  check_attrs(win, "Win_allocate", base, (MPI_Aint)n * sizeof(int), sizeof(int),
              MPI_WIN_FLAVOR_ALLOCATE);
  lock_self(win);
  for (i = 0; i < n; ++i) base[i] = -1;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < 8; ++i) {
    src[i] = rank * 100 + i;
    dst[i] = -2;
  }
  RC(MPI_Win_lock_all(0, win));
  RC(MPI_Put(src, 8, MPI_INT, right, nr - 8, 8, MPI_INT, win));
  RC(MPI_Win_flush(right, win));
  RC(MPI_Get(dst, 8, MPI_INT, right, nr - 8, 8, MPI_INT, win));
  RC(MPI_Win_flush(right, win));
  RC(MPI_Win_unlock_all(win));
  for (i = 0; i < 8; ++i)
    CHECK(dst[i] == src[i], "Win_allocate: get after flushed put [%d]: got %d, expected %d", i,
          dst[i], src[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  lock_self(win);
  for (i = 0; i < n; ++i) {
    int want = i >= n - 8 ? left * 100 + i - (n - 8) : -1;
    CHECK(base[i] == want, "Win_allocate: element %d: got %d, expected %d", i, base[i], want);
  }
  unlock_self(win);
  RC(MPI_Win_free(&win));
}

/* MPI_Win_allocate_shared on the node's communicator (rank 0 of it gives no
 * memory when there are others): MPI_Win_shared_query of every part
 * (contiguous by default), stores straight into the right neighbour's part
 * made visible with MPI_Win_sync and a barrier, and an MPI_Put read back
 * with a plain load. */
static int shm_ints(int r, int n) {
  return (r == 0 && n > 1) ? 0 : 16 * (r % 3 + 1);
}
static void shared(void) {
  MPI_Comm shm;
  int srank, ssize, r, i, *mine = NULL, du, next, prev;
  MPI_Aint qs;
  MPI_Win win;
  RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  MPI_Comm_rank(shm, &srank);
  MPI_Comm_size(shm, &ssize);
  const int n = shm_ints(srank, ssize);
  RC(MPI_Win_allocate_shared((MPI_Aint)n * sizeof(int), sizeof(int), MPI_INFO_NULL, shm, &mine,
                             &win));
  check_attrs(win, "Win_allocate_shared", mine, (MPI_Aint)n * sizeof(int), sizeof(int),
              MPI_WIN_FLAVOR_SHARED);
  int **parts = malloc(sizeof(int *) * (size_t)ssize);
  for (r = 0; r < ssize; ++r) {
    parts[r] = NULL;
    RC(MPI_Win_shared_query(win, r, &qs, &du, &parts[r]));
    CHECK(qs == (MPI_Aint)shm_ints(r, ssize) * (MPI_Aint)sizeof(int) && du == (int)sizeof(int),
          "Win_shared_query(%d): size %ld disp_unit %d, expected %ld %d", r, (long)qs, du,
          (long)shm_ints(r, ssize) * (long)sizeof(int), (int)sizeof(int));
    if (r == srank && n > 0)
      CHECK(parts[r] == mine, "Win_shared_query(own rank) %p, expected %p", (void *)parts[r],
            (void *)mine);
    if (r > 0 && shm_ints(r, ssize) > 0 && shm_ints(r - 1, ssize) > 0)
      CHECK(parts[r] == parts[r - 1] + shm_ints(r - 1, ssize),
            "Win_allocate_shared: part %d at %p, not right after part %d (%p + %d ints)", r,
            (void *)parts[r], r - 1, (void *)parts[r - 1], shm_ints(r - 1, ssize));
  }
  {
    int *p = NULL, first = ssize > 1 ? 1 : 0;
    RC(MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &du, &p));
    CHECK(p == parts[first] && qs == (MPI_Aint)shm_ints(first, ssize) * (MPI_Aint)sizeof(int),
          "Win_shared_query(MPI_PROC_NULL): %p size %ld, expected the first nonempty part %d (%p)",
          (void *)p, (long)qs, first, (void *)parts[first]);
  }
  next = (srank + 1) % ssize;
  prev = (srank + ssize - 1) % ssize;
  RC(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
  for (i = 0; i < n; ++i) mine[i] = -1;
  RC(MPI_Win_sync(win));
  MPI_Barrier(shm);
  RC(MPI_Win_sync(win));
  for (i = 0; i < shm_ints(next, ssize); ++i) parts[next][i] = srank * 1000 + i;
  RC(MPI_Win_sync(win));
  MPI_Barrier(shm);
  RC(MPI_Win_sync(win));
  for (i = 0; i < n; ++i)
    CHECK(mine[i] == prev * 1000 + i, "shared store from part %d [%d]: got %d, expected %d", prev,
          i, mine[i], prev * 1000 + i);
  MPI_Barrier(shm);
  if (shm_ints(next, ssize) > 0) {
    int v = 7000 + srank;
    RC(MPI_Put(&v, 1, MPI_INT, next, shm_ints(next, ssize) - 1, 1, MPI_INT, win));
    RC(MPI_Win_flush(next, win));
  }
  RC(MPI_Win_sync(win));
  MPI_Barrier(shm);
  RC(MPI_Win_sync(win));
  if (n > 0)
    CHECK(mine[n - 1] == 7000 + prev, "shared: load after MPI_Put from %d: got %d, expected %d",
          prev, mine[n - 1], 7000 + prev);
  RC(MPI_Win_unlock_all(win));
  RC(MPI_Win_free(&win));
  free(parts);
  MPI_Comm_free(&shm);
}

/* MPI_Win_create_dynamic: two regions attached on every rank, addresses
 * exchanged with MPI_Get_address + MPI_Allgather; puts and gets at
 * absolute addresses; detach. */
static void dynamic(void) {
  int *a = malloc(32 * sizeof(int)), i, got[4];
  double *b = malloc(8 * sizeof(double)), d = rank + 0.25, dgot = -1;
  MPI_Aint mine[2], *all = malloc(sizeof(MPI_Aint) * 2 * (size_t)size);
  MPI_Win win;
  RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  check_attrs(win, "Win_create_dynamic", MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  for (i = 0; i < 32; ++i) a[i] = -1;
  for (i = 0; i < 8; ++i) b[i] = -1;
  RC(MPI_Win_attach(win, a, 32 * sizeof(int)));
  RC(MPI_Win_attach(win, b, 8 * sizeof(double)));
  MPI_Get_address(a, &mine[0]);
  MPI_Get_address(b, &mine[1]);
  MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
  RC(MPI_Win_lock_all(0, win));
  {
    int src[4] = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
    RC(MPI_Put(src, 4, MPI_INT, right, MPI_Aint_add(all[2 * right], 8 * sizeof(int)), 4, MPI_INT,
               win));
    RC(MPI_Put(&d, 1, MPI_DOUBLE, right, MPI_Aint_add(all[2 * right + 1], 3 * sizeof(double)), 1,
               MPI_DOUBLE, win));
    RC(MPI_Win_flush_all(win));
    RC(MPI_Get(got, 4, MPI_INT, right, MPI_Aint_add(all[2 * right], 8 * sizeof(int)), 4, MPI_INT,
               win));
    RC(MPI_Get(&dgot, 1, MPI_DOUBLE, right, MPI_Aint_add(all[2 * right + 1], 3 * sizeof(double)), 1,
               MPI_DOUBLE, win));
    RC(MPI_Win_flush(right, win));
    for (i = 0; i < 4; ++i)
      CHECK(got[i] == src[i], "dynamic: get [%d]: got %d, expected %d", i, got[i], src[i]);
    CHECK(dgot == d, "dynamic: get double: got %g, expected %g", dgot, d);
  }
  RC(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);
  lock_self(win);
  for (i = 0; i < 32; ++i) {
    int want = (i >= 8 && i < 12) ? left * 10 + i - 8 : -1;
    CHECK(a[i] == want, "dynamic: element %d: got %d, expected %d", i, a[i], want);
  }
  CHECK(b[3] == left + 0.25 && b[2] == -1, "dynamic: doubles: got %g %g, expected %g -1", b[3],
        b[2], left + 0.25);
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_detach(win, b));
  RC(MPI_Win_detach(win, a));
  RC(MPI_Win_free(&win));
  free(a);
  free(b);
  free(all);
}

/* ---- group, name, info, keyvals, error handlers ---- */

static void group_name_info(void) {
  static const char *keys[5][2] = {{"no_locks", "true"},
                                   {"accumulate_ordering", "none"},
                                   {"accumulate_ops", "same_op"},
                                   {"same_size", "true"},
                                   {"same_disp_unit", "true"}};
  MPI_Info info, used;
  MPI_Group wg, cg;
  MPI_Win win;
  int buf[4] = {-1, -1, -1, -1}, i, cmp, len, nkeys, flag;
  char name[MPI_MAX_OBJECT_NAME], val[MPI_MAX_INFO_VAL + 1];
  MPI_Info_create(&info);
  for (i = 0; i < 5; ++i) MPI_Info_set(info, keys[i][0], keys[i][1]);
  RC(MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win));
  MPI_Info_free(&info);
  RC(MPI_Win_get_info(win, &used));
  CHECK(used != MPI_INFO_NULL, "MPI_Win_get_info gave MPI_INFO_NULL");
  if (used != MPI_INFO_NULL) {
    RC(MPI_Info_get_nkeys(used, &nkeys));
    CHECK(nkeys >= 0, "Win_get_info: %d keys", nkeys);
    /* an implementation may drop hints, but those it reports are the ones given */
    for (i = 0; i < 5; ++i) {
      flag = 0;
      MPI_Info_get(used, keys[i][0], MPI_MAX_INFO_VAL, val, &flag);
      if (flag && strcmp(keys[i][0], "accumulate_ordering") != 0)
        CHECK(strcmp(val, keys[i][1]) == 0, "Win_get_info: %s = '%s', expected '%s'", keys[i][0],
              val, keys[i][1]);
    }
    MPI_Info_free(&used);
  }
  MPI_Info_create(&info);
  MPI_Info_set(info, "impi_rma_check_unknown_key", "1");
  MPI_Info_set(info, "accumulate_ops", "same_op");
  RC(MPI_Win_set_info(win, info));
  MPI_Info_free(&info);
  RC(MPI_Win_get_info(win, &used));
  if (used != MPI_INFO_NULL) MPI_Info_free(&used);
  /* no_locks: only fences here */
  RC(MPI_Win_fence(0, win));
  RC(MPI_Put(&rank, 1, MPI_INT, right, 2, 1, MPI_INT, win));
  RC(MPI_Win_fence(0, win));
  CHECK(buf[2] == left && buf[1] == -1, "window with info: got %d %d, expected %d -1", buf[2],
        buf[1], left);
  RC(MPI_Win_get_group(win, &wg));
  MPI_Comm_group(MPI_COMM_WORLD, &cg);
  MPI_Group_compare(wg, cg, &cmp);
  CHECK(cmp == MPI_IDENT, "MPI_Win_get_group vs the communicator's group: %d, expected MPI_IDENT",
        cmp);
  MPI_Group_free(&wg);
  MPI_Group_free(&cg);
  /* (not checked: the name before one is set; MPI-3.1 6.8 says empty, MPICH
   * gives "", Open MPI 4.1 its own such as "rdma window 3") */
  RC(MPI_Win_set_name(win, "rma check window"));
  RC(MPI_Win_get_name(win, name, &len));
  CHECK(len == 16 && strcmp(name, "rma check window") == 0, "MPI_Win_get_name: '%s' (%d)", name,
        len);
  RC(MPI_Win_set_name(win, "renamed"));
  RC(MPI_Win_get_name(win, name, &len));
  CHECK(len == 7 && strcmp(name, "renamed") == 0, "MPI_Win_get_name after rename: '%s' (%d)", name,
        len);
  RC(MPI_Win_free(&win));
}

static int extra_marker, del_calls, copy_calls;
static void *del_last;
static MPI_Win del_win;
static int del_fn(MPI_Win w, int kv, void *val, void *extra) {
  (void)kv;
  ++del_calls;
  del_last = val;
  del_win = w;
  CHECK(extra == &extra_marker, "window delete callback: extra_state %p, expected %p", extra,
        (void *)&extra_marker);
  return MPI_SUCCESS;
}
static int copy_fn(MPI_Win w, int kv, void *extra, void *in, void *out, int *flag) {
  (void)w, (void)kv, (void)extra, (void)in, (void)out;
  ++copy_calls;
  *flag = 0;
  return MPI_SUCCESS;
}

static void keyvals(void) {
  int kv, kv2, vals[3], flag, *base;
  void *got;
  MPI_Win win, w0;
  RC(MPI_Win_create_keyval(copy_fn, del_fn, &kv, &extra_marker));
  RC(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv2, NULL));
  RC(MPI_Win_allocate(16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  w0 = win;
  flag = 1;
  RC(MPI_Win_get_attr(win, kv, &got, &flag));
  CHECK(flag == 0, "Win_get_attr before Win_set_attr: flag %d", flag);
  RC(MPI_Win_set_attr(win, kv, &vals[0]));
  RC(MPI_Win_get_attr(win, kv, &got, &flag));
  CHECK(flag == 1 && got == &vals[0], "Win_get_attr: flag %d %p, expected %p", flag, got,
        (void *)&vals[0]);
  RC(MPI_Win_set_attr(win, kv, &vals[1]));
  CHECK(del_calls == 1 && del_last == &vals[0] && del_win == win,
        "replacing an attribute: %d delete calls (last %p), expected 1 (%p)", del_calls, del_last,
        (void *)&vals[0]);
  RC(MPI_Win_delete_attr(win, kv));
  CHECK(del_calls == 2 && del_last == &vals[1],
        "Win_delete_attr: %d delete calls (last %p), expected 2 (%p)", del_calls, del_last,
        (void *)&vals[1]);
  RC(MPI_Win_get_attr(win, kv, &got, &flag));
  CHECK(flag == 0, "Win_get_attr after Win_delete_attr: flag %d", flag);
  RC(MPI_Win_set_attr(win, kv, &vals[2]));
  RC(MPI_Win_set_attr(win, kv2, &vals[0]));
  RC(MPI_Win_get_attr(win, kv2, &got, &flag));
  CHECK(flag == 1 && got == &vals[0], "Win_get_attr (null callbacks): flag %d %p", flag, got);
  RC(MPI_Win_free_keyval(&kv));
  CHECK(kv == MPI_KEYVAL_INVALID, "Win_free_keyval left the keyval %d", kv);
  CHECK(del_calls == 2, "Win_free_keyval ran the delete callback (%d calls)", del_calls);
  RC(MPI_Win_free(&win));
  CHECK(del_calls == 3 && del_last == &vals[2] && del_win == w0,
        "MPI_Win_free: %d delete calls (last %p), expected 3 (%p)", del_calls, del_last,
        (void *)&vals[2]);
  CHECK(copy_calls == 0, "the copy callback ran %d times (windows are never copied)", copy_calls);
  RC(MPI_Win_free_keyval(&kv2));
}

static int eh_calls, eh_code;
static MPI_Win eh_win;
static void eh_fn(MPI_Win *w, int *code, ...) {
  ++eh_calls;
  eh_win = *w;
  eh_code = *code;
}

static void errhandlers(void) {
  MPI_Errhandler eh, got;
  MPI_Win win;
  int buf[2];
  RC(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  RC(MPI_Win_get_errhandler(win, &got));
  CHECK(got == MPI_ERRORS_ARE_FATAL, "a new window's error handler is not MPI_ERRORS_ARE_FATAL");
  MPI_Errhandler_free(&got);
  RC(MPI_Win_create_errhandler(eh_fn, &eh));
  RC(MPI_Win_set_errhandler(win, eh));
  RC(MPI_Win_get_errhandler(win, &got));
  CHECK(got == eh, "MPI_Win_get_errhandler is not the handler set");
  MPI_Errhandler_free(&got);
  RC(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
  CHECK(eh_calls == 1 && eh_win == win && eh_code == MPI_ERR_OTHER,
        "MPI_Win_call_errhandler: %d calls, code %d (expected 1 call, code %d, the window)",
        eh_calls, eh_code, MPI_ERR_OTHER);
  MPI_Errhandler_free(&eh); /* the window keeps it */
  RC(MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
  CHECK(eh_calls == 2 && eh_code == MPI_ERR_RMA_SYNC,
        "MPI_Win_call_errhandler after MPI_Errhandler_free: %d calls, code %d", eh_calls, eh_code);
  RC(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  MPI_Win_call_errhandler(win, MPI_ERR_OTHER); /* returns; its code differs between peers */
  CHECK(eh_calls == 2, "MPI_ERRORS_RETURN called the user handler");
  RC(MPI_Win_free(&win));
}

/* ---- operations ---- */

enum kind { K_INT, K_UINT, K_DOUBLE, K_2INT };
struct acc_case {
  const char *name;
  MPI_Op op;
  enum kind kind;
};
#define NACC 8

/* The target's initial element i for case c, and rank r's operand: small
 * values (products stay below 2^31), logical operands zero or not,
 * bitwise ones varied bit patterns. */
static long long acc_init(int c, int i) {
  return (c * 5 + i) % 4 == 0 ? 0 : (i % 3 ? -1 - i : 3 + i);
}
static long long acc_contrib(MPI_Op op, int r, int i) {
  if (op == MPI_PROD) return (r + i) % 3 + 1;
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return ((i >> (r % 3)) & 1) ? r + 1 : 0;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
    return 0xF0F0 ^ (r * 0x1111) ^ (i << (r % 4));
  return (r * 7 + i * 3) % 11 - 5;
}
static long long apply_ll(MPI_Op op, long long a, long long b) {
  if (op == MPI_SUM) return a + b;
  if (op == MPI_PROD) return a * b;
  if (op == MPI_MAX) return a > b ? a : b;
  if (op == MPI_MIN) return a < b ? a : b;
  if (op == MPI_LAND) return a && b;
  if (op == MPI_LOR) return a || b;
  if (op == MPI_LXOR) return !a != !b;
  if (op == MPI_BAND) return a & b;
  if (op == MPI_BOR) return a | b;
  if (op == MPI_BXOR) return a ^ b;
  return b; /* MPI_REPLACE */
}

/* Every rank accumulates into every rank (itself too) under fences, for
 * each predefined operation on suitable types; exact results. */
static void accumulate_ops(void) {
  static const struct acc_case cases[] = {
      {"SUM int", MPI_SUM, K_INT},         {"PROD int", MPI_PROD, K_INT},
      {"MAX int", MPI_MAX, K_INT},         {"MIN int", MPI_MIN, K_INT},
      {"LAND int", MPI_LAND, K_INT},       {"LOR int", MPI_LOR, K_INT},
      {"LXOR int", MPI_LXOR, K_INT},       {"BAND int", MPI_BAND, K_INT},
      {"BOR int", MPI_BOR, K_INT},         {"BXOR int", MPI_BXOR, K_INT},
      {"BAND unsigned", MPI_BAND, K_UINT}, {"BOR unsigned", MPI_BOR, K_UINT},
      {"BXOR unsigned", MPI_BXOR, K_UINT}, {"SUM double", MPI_SUM, K_DOUBLE},
      {"PROD double", MPI_PROD, K_DOUBLE}, {"MAX double", MPI_MAX, K_DOUBLE},
      {"MIN double", MPI_MIN, K_DOUBLE},   {"MAXLOC 2int", MPI_MAXLOC, K_2INT},
      {"MINLOC 2int", MPI_MINLOC, K_2INT}, {"REPLACE int", MPI_REPLACE, K_INT},
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  union slot {
    int i;
    unsigned u;
    double d;
    int p[2];
  };
  union slot *base, src[NACC];
  MPI_Win win;
  RC(MPI_Win_allocate((MPI_Aint)sizeof(union slot) * NACC, sizeof(union slot), MPI_INFO_NULL,
                      MPI_COMM_WORLD, &base, &win));
  for (int c = 0; c < ncases; ++c) {
    const struct acc_case *k = &cases[c];
    MPI_Datatype t = k->kind == K_INT      ? MPI_INT
                     : k->kind == K_UINT   ? MPI_UNSIGNED
                     : k->kind == K_DOUBLE ? MPI_DOUBLE
                                           : MPI_2INT;
    int i, r, tgt;
    RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (i = 0; i < NACC; ++i) {
      memset(&base[i], 0, sizeof base[i]);
      memset(&src[i], 0, sizeof src[i]);
      long long v0 = acc_init(c, i), v = acc_contrib(k->op, rank, i);
      switch (k->kind) {
        case K_INT:
          base[i].i = (int)v0, src[i].i = (int)v;
          break;
        case K_UINT:
          base[i].u = (unsigned)(v0 & 0xFFFF), src[i].u = (unsigned)v;
          break;
        case K_DOUBLE:
          base[i].d = k->op == MPI_PROD ? 1.5 : v0 + 0.5;
          src[i].d = k->op == MPI_PROD ? ((rank + i) % 2 ? 2.0 : 0.5) : v * 0.5;
          break;
        case K_2INT:
          base[i].p[0] = 2, base[i].p[1] = 99;
          src[i].p[0] = (rank * 7 + i) % 5, src[i].p[1] = rank;
          break;
      }
      if (k->op == MPI_REPLACE) src[i].i = rank * 100 + i;
    }
    /* the elements are spaced one union slot apart: a resized type */
    MPI_Datatype spaced;
    MPI_Type_create_resized(t, 0, (MPI_Aint)sizeof(union slot), &spaced);
    MPI_Type_commit(&spaced);
    RC(MPI_Win_fence(0, win)); /* not NOSTORE: the stores above */
    for (tgt = 0; tgt < size; ++tgt)
      RC(MPI_Accumulate(src, NACC, spaced, tgt, 0, NACC, spaced, k->op, win));
    RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Type_free(&spaced);
    for (i = 0; i < NACC; ++i) {
      if (k->kind == K_INT || k->kind == K_UINT) {
        long long want = k->kind == K_UINT ? (acc_init(c, i) & 0xFFFF) : acc_init(c, i);
        long long got = k->kind == K_UINT ? (long long)base[i].u : base[i].i;
        if (k->op == MPI_REPLACE) {
          CHECK(got % 100 == i && got / 100 >= 0 && got / 100 < size,
                "Accumulate %s [%d]: got %lld, expected r*100+%d for some rank r", k->name, i, got,
                i);
          continue;
        }
        for (r = 0; r < size; ++r) want = apply_ll(k->op, want, acc_contrib(k->op, r, i));
        if (k->kind == K_UINT) want &= 0xFFFFFFFFLL;
        CHECK(got == want, "Accumulate %s [%d]: got %lld, expected %lld", k->name, i, got, want);
      } else if (k->kind == K_DOUBLE) {
        double want = k->op == MPI_PROD ? 1.5 : acc_init(c, i) + 0.5;
        for (r = 0; r < size; ++r) {
          double v = k->op == MPI_PROD ? ((r + i) % 2 ? 2.0 : 0.5) : acc_contrib(k->op, r, i) * 0.5;
          want = k->op == MPI_SUM    ? want + v
                 : k->op == MPI_PROD ? want * v
                 : k->op == MPI_MAX  ? (want > v ? want : v)
                                     : (want < v ? want : v);
        }
        CHECK(base[i].d == want, "Accumulate %s [%d]: got %g, expected %g", k->name, i, base[i].d,
              want);
      } else {
        int wv = 2, wi = 99;
        for (r = 0; r < size; ++r) {
          int v = (r * 7 + i) % 5;
          int better = k->op == MPI_MAXLOC ? v > wv : v < wv;
          if (better)
            wv = v, wi = r;
          else if (v == wv && r < wi)
            wi = r;
        }
        CHECK(base[i].p[0] == wv && base[i].p[1] == wi,
              "Accumulate %s [%d]: got (%d, %d), expected (%d, %d)", k->name, i, base[i].p[0],
              base[i].p[1], wv, wi);
      }
    }
  }
  /* MPI_REPLACE from one origin per target is exact; so is MPI_Accumulate
   * a sum of MPI_LONG_LONG beyond 32 bits. */
  {
    long long *ll = (long long *)base;
    long long one = 3LL << 33;
    RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    ll[0] = 5;
    ll[1] = 1;
    RC(MPI_Win_fence(0, win));
    long long rep = 1000 + rank;
    RC(MPI_Accumulate(&rep, 1, MPI_LONG_LONG, right, 0, 1, MPI_LONG_LONG, MPI_REPLACE, win));
    for (int t = 0; t < size; ++t)
      RC(MPI_Accumulate(&one, 1, MPI_LONG_LONG, t, 1, 1, MPI_LONG_LONG, MPI_SUM, win));
    RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(ll[0] == 1000 + left, "Accumulate REPLACE long long: got %lld, expected %d", ll[0],
          1000 + left);
    CHECK(ll[1] == 1 + (3LL << 33) * size, "Accumulate SUM long long: got %lld, expected %lld",
          ll[1], 1 + (3LL << 33) * size);
  }
  RC(MPI_Win_free(&win));
}

/* MPI_Get_accumulate: a sum returning the old values, MPI_NO_OP as an
 * atomic read, MPI_REPLACE as an atomic swap. */
static void get_accumulate(void) {
  int *v, i, add[4], res[4], swap[4], dummy[4] = {0, 0, 0, 0};
  MPI_Win win;
  RC(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  lock_self(win);
  for (i = 0; i < 16; ++i) v[i] = rank * 100 + i;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < 4; ++i) {
    add[i] = i + 1;
    res[i] = -5;
    swap[i] = 5000 + rank * 10 + i;
  }
  RC(MPI_Win_fence(0, win));
  RC(MPI_Get_accumulate(add, 4, MPI_INT, res, 4, MPI_INT, right, 2, 4, MPI_INT, MPI_SUM, win));
  RC(MPI_Win_fence(0, win));
  for (i = 0; i < 4; ++i) {
    CHECK(res[i] == right * 100 + i + 2, "Get_accumulate SUM result [%d]: got %d, expected %d", i,
          res[i], right * 100 + i + 2);
    CHECK(v[i + 2] == rank * 100 + i + 2 + i + 1,
          "Get_accumulate SUM target [%d]: got %d, expected %d", i + 2, v[i + 2],
          rank * 100 + i + 2 + i + 1);
  }
  RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  RC(MPI_Get_accumulate(dummy, 4, MPI_INT, res, 4, MPI_INT, right, 2, 4, MPI_INT, MPI_NO_OP, win));
  RC(MPI_Win_unlock(right, win));
  for (i = 0; i < 4; ++i)
    CHECK(res[i] == right * 100 + 2 * i + 3, "Get_accumulate NO_OP [%d]: got %d, expected %d", i,
          res[i], right * 100 + 2 * i + 3);
  RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  RC(MPI_Get_accumulate(swap, 4, MPI_INT, res, 4, MPI_INT, right, 2, 4, MPI_INT, MPI_REPLACE, win));
  RC(MPI_Win_flush(right, win));
  for (i = 0; i < 4; ++i)
    CHECK(res[i] == right * 100 + 2 * i + 3, "Get_accumulate REPLACE old [%d]: got %d, expected %d",
          i, res[i], right * 100 + 2 * i + 3);
  RC(MPI_Get_accumulate(dummy, 4, MPI_INT, res, 4, MPI_INT, right, 2, 4, MPI_INT, MPI_NO_OP, win));
  RC(MPI_Win_unlock(right, win));
  for (i = 0; i < 4; ++i)
    CHECK(res[i] == swap[i], "Get_accumulate REPLACE new [%d]: got %d, expected %d", i, res[i],
          swap[i]);
  /* a strided result buffer */
  {
    int wide[8], j;
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (j = 0; j < 8; ++j) wide[j] = -9;
    RC(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    RC(MPI_Get_accumulate(dummy, 4, MPI_INT, wide, 1, vec, right, 2, 4, MPI_INT, MPI_NO_OP, win));
    RC(MPI_Win_unlock(right, win));
    for (j = 0; j < 8; ++j) {
      int want = j % 2 ? -9 : swap[j / 2];
      CHECK(wide[j] == want, "Get_accumulate into a vector [%d]: got %d, expected %d", j, wide[j],
            want);
    }
    MPI_Type_free(&vec);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_free(&win));
}

/* MPI_Fetch_and_op (SUM, NO_OP, REPLACE, MAX; int, long long, double) and
 * MPI_Compare_and_swap (failing and succeeding) to the right neighbour. */
static void fetch_op_cas(void) {
  long long *s, r = -1, ll;
  int i, iv, ir, cmp;
  double d, dr;
  MPI_Win win;
  RC(MPI_Win_allocate(6 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &s,
                      &win));
  lock_self(win);
  for (i = 0; i < 6; ++i) s[i] = 0;
  *(int *)&s[0] = 10 + rank;
  s[1] = (long long)rank << 36;
  *(double *)&s[2] = rank + 0.5;
  *(int *)&s[3] = 7;
  s[4] = 1LL << 50;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  iv = 5;
  ir = -1;
  RC(MPI_Fetch_and_op(&iv, &ir, MPI_INT, right, 0, MPI_SUM, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 10 + right, "Fetch_and_op SUM int: fetched %d, expected %d", ir, 10 + right);
  RC(MPI_Fetch_and_op(NULL, &ir, MPI_INT, right, 0, MPI_NO_OP, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 15 + right, "Fetch_and_op NO_OP int: fetched %d, expected %d", ir, 15 + right);
  iv = 42;
  RC(MPI_Fetch_and_op(&iv, &ir, MPI_INT, right, 0, MPI_REPLACE, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 15 + right, "Fetch_and_op REPLACE int: fetched %d, expected %d", ir, 15 + right);
  iv = 30;
  RC(MPI_Fetch_and_op(&iv, &ir, MPI_INT, right, 0, MPI_MAX, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 42, "Fetch_and_op MAX int: fetched %d, expected 42", ir);
  ll = 1LL << 33;
  RC(MPI_Fetch_and_op(&ll, &r, MPI_LONG_LONG, right, 1, MPI_SUM, win));
  RC(MPI_Win_flush_local(right, win));
  CHECK(r == (long long)right << 36, "Fetch_and_op SUM long long: fetched %lld, expected %lld", r,
        (long long)right << 36);
  d = 0.25;
  dr = -1;
  RC(MPI_Fetch_and_op(&d, &dr, MPI_DOUBLE, right, 2, MPI_SUM, win));
  RC(MPI_Win_flush(right, win));
  CHECK(dr == right + 0.5, "Fetch_and_op SUM double: fetched %g, expected %g", dr, right + 0.5);
  /* compare-and-swap: 7 is there, so comparing with 8 fails, with 7 succeeds */
  iv = 100 + rank;
  cmp = 8;
  ir = -1;
  RC(MPI_Compare_and_swap(&iv, &cmp, &ir, MPI_INT, right, 3, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 7, "Compare_and_swap (no match): fetched %d, expected 7", ir);
  cmp = 7;
  RC(MPI_Compare_and_swap(&iv, &cmp, &ir, MPI_INT, right, 3, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 7, "Compare_and_swap (match): fetched %d, expected 7", ir);
  RC(MPI_Fetch_and_op(NULL, &ir, MPI_INT, right, 3, MPI_NO_OP, win));
  RC(MPI_Win_flush(right, win));
  CHECK(ir == 100 + rank, "after Compare_and_swap: %d, expected %d", ir, 100 + rank);
  {
    long long nv = 77, c = 1LL << 50, old = -1;
    RC(MPI_Compare_and_swap(&nv, &c, &old, MPI_LONG_LONG, right, 4, win));
    RC(MPI_Win_unlock(right, win));
    CHECK(old == 1LL << 50, "Compare_and_swap long long: fetched %lld, expected %lld", old,
          1LL << 50);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  lock_self(win);
  CHECK(*(int *)&s[0] == 42, "after Fetch_and_op: int %d, expected 42", *(int *)&s[0]);
  CHECK(s[1] == ((long long)rank << 36) + (1LL << 33), "after Fetch_and_op: long long %lld", s[1]);
  CHECK(*(double *)&s[2] == rank + 0.75, "after Fetch_and_op: double %g, expected %g",
        *(double *)&s[2], rank + 0.75);
  CHECK(*(int *)&s[3] == 100 + left, "after Compare_and_swap: %d, expected %d", *(int *)&s[3],
        100 + left);
  CHECK(s[4] == 77, "after Compare_and_swap long long: %lld, expected 77", s[4]);
  unlock_self(win);
  RC(MPI_Win_free(&win));
}

/* MPI_Rput, Rget, Raccumulate, Rget_accumulate in lock epochs, completed
 * with MPI_Wait, MPI_Test loops and MPI_Waitall. */
static void request_ops(void) {
  int *v, i, src[8], dst[8], ones[8], twos[8], res[8], flag;
  MPI_Request req, reqs[2];
  MPI_Status sts[2];
  MPI_Win win;
  RC(MPI_Win_allocate(32 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  lock_self(win);
  for (i = 0; i < 32; ++i) v[i] = -1;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < 8; ++i) {
    src[i] = rank * 100 + i;
    ones[i] = 1;
    twos[i] = 2;
    dst[i] = res[i] = -3;
  }
  RC(MPI_Win_lock_all(0, win));
  RC(MPI_Rput(src, 8, MPI_INT, right, 0, 8, MPI_INT, win, &req));
  RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left an Rput request");
  for (i = 0; i < 8; ++i) src[i] = -7; /* locally complete: the buffer is ours again */
  RC(MPI_Win_flush(right, win));
  RC(MPI_Rget(dst, 8, MPI_INT, right, 0, 8, MPI_INT, win, &req));
  flag = 0;
  while (!flag) RC(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  for (i = 0; i < 8; ++i)
    CHECK(dst[i] == rank * 100 + i, "Rget after Rput [%d]: got %d, expected %d", i, dst[i],
          rank * 100 + i);
  RC(MPI_Raccumulate(ones, 8, MPI_INT, right, 8, 8, MPI_INT, MPI_SUM, win, &req));
  RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
  /* same origin, same target location: ordered after the Raccumulate */
  RC(MPI_Rget_accumulate(twos, 8, MPI_INT, res, 8, MPI_INT, right, 8, 8, MPI_INT, MPI_SUM, win,
                         &req));
  flag = 0;
  while (!flag) RC(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  for (i = 0; i < 8; ++i)
    CHECK(res[i] == 0, "Rget_accumulate after Raccumulate [%d]: got %d, expected 0", i, res[i]);
  RC(MPI_Win_unlock_all(win));
  /* two gets at once in an exclusive lock, Waitall */
  RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  RC(MPI_Rget(dst, 4, MPI_INT, right, 4, 4, MPI_INT, win, &reqs[0]));
  RC(MPI_Rget(dst + 4, 4, MPI_INT, right, 8, 4, MPI_INT, win, &reqs[1]));
  RC(MPI_Waitall(2, reqs, sts));
  RC(MPI_Win_unlock(right, win));
  for (i = 0; i < 4; ++i) {
    CHECK(dst[i] == rank * 100 + 4 + i, "Rget pair [%d]: got %d, expected %d", i, dst[i],
          rank * 100 + 4 + i);
    CHECK(dst[4 + i] == 2, "Rget pair [%d]: got %d, expected 2", 4 + i, dst[4 + i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  lock_self(win);
  for (i = 0; i < 16; ++i) {
    int want = i < 8 ? left * 100 + i : 2;
    CHECK(v[i] == want, "request ops target [%d]: got %d, expected %d", i, v[i], want);
  }
  CHECK(v[16] == -1, "request ops wrote past the end: %d", v[16]);
  unlock_self(win);
  RC(MPI_Win_free(&win));
}

/* Derived datatypes on either side: vector origin/contiguous target and the
 * reverse, indexed target, vector on both sides, get through a vector,
 * accumulate to a vector, and a struct of int + double for put and get. */
static void datatypes(void) {
  int *v, i, src[16], dst[8], ones[4] = {1, 1, 1, 1};
  MPI_Datatype vec3, vec2, idx;
  MPI_Win win;
  const int blens[3] = {2, 1, 3}, disps[3] = {0, 5, 9};
  RC(MPI_Win_allocate(80 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  MPI_Type_vector(4, 1, 3, MPI_INT, &vec3);
  MPI_Type_commit(&vec3);
  MPI_Type_vector(4, 1, 2, MPI_INT, &vec2);
  MPI_Type_commit(&vec2);
  MPI_Type_indexed(3, blens, disps, MPI_INT, &idx);
  MPI_Type_commit(&idx);
  for (i = 0; i < 80; ++i) v[i] = -1;
  for (i = 0; i < 16; ++i) src[i] = rank * 100 + i;
  RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  RC(MPI_Put(src, 1, vec3, right, 0, 4, MPI_INT, win));  /* -> 0..3 */
  RC(MPI_Put(src, 4, MPI_INT, right, 16, 1, vec3, win)); /* -> 16,19,22,25 */
  RC(MPI_Put(src, 6, MPI_INT, right, 32, 1, idx, win));  /* -> 32,33,37,41,42,43 */
  RC(MPI_Put(src, 1, vec3, right, 48, 1, vec2, win));    /* -> 48,50,52,54 */
  RC(MPI_Put(src, 2, vec2, right, 60, 8, MPI_INT, win)); /* count 2 of a vector */
  RC(MPI_Win_fence(0, win));
  {
    /* (48..54 are checked after the next fence: the left neighbour may
     * already be accumulating to them) */
    static const int at[] = {0, 1, 2, 3, 16, 19, 22, 25, 32, 33, 37, 41, 42, 43};
    static const int from[] = {0, 3, 6, 9, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5};
    for (i = 0; i < (int)(sizeof at / sizeof at[0]); ++i)
      CHECK(v[at[i]] == left * 100 + from[i], "datatypes: element %d: got %d, expected %d", at[i],
            v[at[i]], left * 100 + from[i]);
    CHECK(v[4] == -1 && v[17] == -1 && v[34] == -1 && v[26] == -1,
          "datatypes: a gap was written: %d %d %d %d", v[4], v[17], v[34], v[26]);
    /* vector(4,1,2) twice: extent 7 ints, so elements 0,2,4,6 then 7,9,11,13 */
    static const int from2[] = {0, 2, 4, 6, 7, 9, 11, 13};
    for (i = 0; i < 8; ++i)
      CHECK(v[60 + i] == left * 100 + from2[i],
            "datatypes: count-2 vector [%d]: got %d, "
            "expected %d",
            i, v[60 + i], left * 100 + from2[i]);
  }
  for (i = 0; i < 8; ++i) dst[i] = -2;
  RC(MPI_Get(dst, 4, MPI_INT, right, 16, 1, vec3, win));
  RC(MPI_Accumulate(ones, 4, MPI_INT, right, 48, 1, vec2, MPI_SUM, win));
  RC(MPI_Win_fence(0, win));
  for (i = 0; i < 4; ++i)
    CHECK(dst[i] == rank * 100 + i, "datatypes: get through a vector [%d]: got %d, expected %d", i,
          dst[i], rank * 100 + i);
  CHECK(dst[4] == -2, "datatypes: get wrote past its end");
  for (i = 0; i < 4; ++i)
    CHECK(v[48 + 2 * i] == left * 100 + 3 * i + 1,
          "datatypes: put vector to vector, then accumulate to it [%d]: got %d, expected %d", i,
          v[48 + 2 * i], left * 100 + 3 * i + 1);
  CHECK(v[49] == -1 && v[55] == -1, "datatypes: a gap was written: %d %d", v[49], v[55]);
  RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  MPI_Type_free(&vec3);
  MPI_Type_free(&vec2);
  MPI_Type_free(&idx);
  RC(MPI_Win_free(&win));

  /* struct {int; double} on both sides (put and get allow any datatype) */
  {
    struct s {
      int i;
      double d;
    } * w, out[3], back[3];
    int lens[2] = {1, 1};
    MPI_Aint offs[2] = {offsetof(struct s, i), offsetof(struct s, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st0, st;
    MPI_Type_create_struct(2, lens, offs, types, &st0);
    MPI_Type_create_resized(st0, 0, sizeof(struct s), &st);
    MPI_Type_commit(&st);
    MPI_Type_free(&st0);
    RC(MPI_Win_allocate(5 * sizeof(struct s), sizeof(struct s), MPI_INFO_NULL, MPI_COMM_WORLD, &w,
                        &win));
    for (i = 0; i < 5; ++i) w[i].i = -1, w[i].d = -1;
    for (i = 0; i < 3; ++i) {
      out[i].i = rank * 10 + i;
      out[i].d = rank + i * 0.125;
      back[i].i = -2;
      back[i].d = -2;
    }
    RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    RC(MPI_Put(out, 3, st, right, 1, 3, st, win));
    RC(MPI_Win_fence(0, win));
    RC(MPI_Get(back, 3, st, right, 1, 3, st, win));
    RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (i = 0; i < 3; ++i) {
      CHECK(w[1 + i].i == left * 10 + i && w[1 + i].d == left + i * 0.125,
            "struct put [%d]: got (%d, %g), expected (%d, %g)", i, w[1 + i].i, w[1 + i].d,
            left * 10 + i, left + i * 0.125);
      CHECK(back[i].i == out[i].i && back[i].d == out[i].d,
            "struct get [%d]: got (%d, %g), expected (%d, %g)", i, back[i].i, back[i].d, out[i].i,
            out[i].d);
    }
    CHECK(w[0].i == -1 && w[4].i == -1, "struct put wrote outside its elements");
    MPI_Type_free(&st);
    RC(MPI_Win_free(&win));
  }
}

/* ---- synchronisation ---- */

/* Fences with asserts: NOPRECEDE opens, NOSTORE|NOPUT before an epoch of
 * gets only, NOSUCCEED closes. */
static void sync_fence(void) {
  int *v, g = -1, i;
  MPI_Win win;
  RC(MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  for (i = 0; i < 8; ++i) v[i] = -1;
  RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  RC(MPI_Put(&rank, 1, MPI_INT, right, 1, 1, MPI_INT, win));
  RC(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
  CHECK(v[1] == left, "fence: put: got %d, expected %d", v[1], left);
  RC(MPI_Get(&g, 1, MPI_INT, right, 1, 1, MPI_INT, win));
  RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  CHECK(g == rank, "fence: get: got %d, expected %d", g, rank);
  /* after NOSUCCEED, another kind of epoch may follow */
  RC(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
  RC(MPI_Get(&g, 1, MPI_INT, left, 1, 1, MPI_INT, win));
  RC(MPI_Win_unlock(left, win));
  CHECK(g == (left + size - 1) % size, "lock after fences: got %d, expected %d", g,
        (left + size - 1) % size);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_free(&win));
}

/* Post/start/complete/wait in a ring, then every rank into rank 0 which
 * polls MPI_Win_test. */
static void sync_pscw(void) {
  int *v, i, flag, val, sum = -1;
  MPI_Group wg, from, to, all, zero;
  MPI_Win win;
  const int z = 0;
  RC(MPI_Win_allocate(pad16((MPI_Aint)(size + 2) * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                      MPI_COMM_WORLD, &v, &win));
  for (i = 0; i < size + 2; ++i) v[i] = -1;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_incl(wg, 1, &left, &from);
  MPI_Group_incl(wg, 1, &right, &to);
  MPI_Group_incl(wg, 1, &z, &zero);
  MPI_Comm_group(MPI_COMM_WORLD, &all);
  RC(MPI_Win_post(from, 0, win));
  RC(MPI_Win_start(to, 0, win));
  RC(MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win));
  RC(MPI_Win_complete(win));
  RC(MPI_Win_wait(win));
  CHECK(v[0] == left, "PSCW ring: got %d, expected %d", v[0], left);
  /* (no local store to the window from here: the posts say MPI_MODE_NOSTORE) */
  /* several rounds, so a round's post cannot be confused with the next */
  for (int round = 0; round < 3; ++round) {
    if (rank == 0) RC(MPI_Win_post(all, MPI_MODE_NOSTORE, win));
    RC(MPI_Win_start(zero, 0, win));
    val = rank * 7 + round;
    RC(MPI_Put(&val, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
    RC(MPI_Accumulate(&val, 1, MPI_INT, 0, 1 + size, 1, MPI_INT, MPI_SUM, win));
    RC(MPI_Win_complete(win));
    for (i = 0; i < size; ++i) sum += i * 7 + round;
    if (rank == 0) {
      flag = 0;
      while (!flag) RC(MPI_Win_test(win, &flag));
      for (i = 0; i < size; ++i) {
        CHECK(v[1 + i] == i * 7 + round,
              "PSCW into rank 0, round %d, slot %d: got %d, "
              "expected %d",
              round, i, v[1 + i], i * 7 + round);
      }
      CHECK(v[1 + size] == sum, "PSCW accumulate into rank 0, round %d: got %d, expected %d", round,
            v[1 + size], sum);
    }
  }
  MPI_Group_free(&wg);
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  MPI_Group_free(&all);
  MPI_Group_free(&zero);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_free(&win));
}

/* Exclusive locks protect a get-increment-put on every rank; shared locks
 * put to distinct slots; lock_all with flush, flush_local, flush_all,
 * flush_local_all; Win_sync between a local store and a remote get. */
static void sync_locks(void) {
  const int rounds = 5;
  int *v, i, t, k, c, x, back;
  MPI_Win win;
  RC(MPI_Win_allocate(pad16((MPI_Aint)(size + 4) * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                      MPI_COMM_WORLD, &v, &win));
  lock_self(win);
  for (i = 0; i < size + 4; ++i) v[i] = -1;
  v[size] = 0;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (k = 0; k < rounds; ++k)
    for (i = 0; i < size; ++i) {
      t = (rank + i) % size;
      RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
      c = -100;
      RC(MPI_Get(&c, 1, MPI_INT, t, size, 1, MPI_INT, win));
      RC(MPI_Win_flush(t, win));
      ++c;
      RC(MPI_Put(&c, 1, MPI_INT, t, size, 1, MPI_INT, win));
      RC(MPI_Win_unlock(t, win));
    }
  for (t = 0; t < size; ++t) {
    RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    RC(MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win));
    RC(MPI_Win_unlock(t, win));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  lock_self(win);
  CHECK(v[size] == rounds * size, "exclusive get-increment-put: got %d, expected %d", v[size],
        rounds * size);
  for (i = 0; i < size; ++i)
    CHECK(v[i] == i, "shared-lock put slot %d: got %d, expected %d", i, v[i], i);
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);

  RC(MPI_Win_lock_all(0, win));
  x = 1000 + rank;
  RC(MPI_Put(&x, 1, MPI_INT, right, size + 1, 1, MPI_INT, win));
  RC(MPI_Win_flush(right, win));
  back = -1;
  RC(MPI_Get(&back, 1, MPI_INT, right, size + 1, 1, MPI_INT, win));
  RC(MPI_Win_flush(right, win));
  CHECK(back == x, "get after flush: got %d, expected %d", back, x);
  x = 2000 + rank;
  RC(MPI_Put(&x, 1, MPI_INT, right, size + 2, 1, MPI_INT, win));
  RC(MPI_Win_flush_local(right, win));
  x = -55; /* the put took the value already */
  RC(MPI_Win_flush(right, win));
  RC(MPI_Get(&back, 1, MPI_INT, right, size + 2, 1, MPI_INT, win));
  RC(MPI_Win_flush_local(right, win));
  CHECK(back == 2000 + rank, "put after flush_local and buffer reuse: got %d, expected %d", back,
        2000 + rank);
  RC(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);

  /* every rank puts to every rank's slot rank, flush_all, then gets them
   * all back completed by flush_local_all */
  {
    int *got = malloc(sizeof(int) * (size_t)size), w = 3000 + rank;
    RC(MPI_Win_lock_all(0, win));
    for (t = 0; t < size; ++t) RC(MPI_Put(&w, 1, MPI_INT, t, rank, 1, MPI_INT, win));
    RC(MPI_Win_flush_all(win));
    for (t = 0; t < size; ++t) {
      got[t] = -1;
      RC(MPI_Get(&got[t], 1, MPI_INT, t, rank, 1, MPI_INT, win));
    }
    RC(MPI_Win_flush_local_all(win));
    for (t = 0; t < size; ++t)
      CHECK(got[t] == w, "flush_all then get from %d: got %d, expected %d", t, got[t], w);
    RC(MPI_Win_unlock_all(win));
    free(got);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* a local store made visible by MPI_Win_sync (unified model) */
  if (win_model(win) == MPI_WIN_UNIFIED) {
    RC(MPI_Win_lock_all(0, win));
    v[size + 3] = 500 + rank;
    RC(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    back = -1;
    RC(MPI_Get(&back, 1, MPI_INT, left, size + 3, 1, MPI_INT, win));
    RC(MPI_Win_flush(left, win));
    CHECK(back == 500 + left, "store + Win_sync, remote get: got %d, expected %d", back,
          500 + left);
    MPI_Barrier(MPI_COMM_WORLD);
    RC(MPI_Win_unlock_all(win));
  }
  RC(MPI_Win_free(&win));
}

/* ---- concurrency, size, progress ---- */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* All ranks at once to rank 0: N accumulates of 1 and N fetch-and-adds
 * (all fetched values distinct), then a compare-and-swap mutex guarding a
 * plain get-increment-put counter. */
static void concurrent(void) {
  const int n = 1000, m = 20;
  int *v, i, one = 1, *fetched = malloc(sizeof(int) * n), me = rank + 1, zero = 0, res, c;
  MPI_Win win;
  RC(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  lock_self(win);
  for (i = 0; i < 4; ++i) v[i] = 0;
  unlock_self(win);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  for (i = 0; i < n; ++i) RC(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
  for (i = 0; i < n; ++i) RC(MPI_Fetch_and_op(&one, &fetched[i], MPI_INT, 0, 1, MPI_SUM, win));
  RC(MPI_Win_unlock(0, win));
  for (i = 1; i < n; ++i)
    if (fetched[i] <= fetched[i - 1]) break;
  CHECK(i == n, "Fetch_and_op from one origin not increasing at %d: %d after %d", i, fetched[i],
        fetched[i - 1]);
  {
    int *all = rank == 0 ? malloc(sizeof(int) * (size_t)n * size) : NULL;
    MPI_Gather(fetched, n, MPI_INT, all, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      qsort(all, (size_t)n * size, sizeof(int), cmp_int);
      for (i = 0; i < n * size; ++i)
        if (all[i] != i) break;
      CHECK(i == n * size, "fetched values are not 0..%d each once: sorted [%d] = %d", n * size - 1,
            i, i < n * size ? all[i] : -1);
      free(all);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_lock_all(0, win));
  for (i = 0; i < m; ++i) {
    int spins = 0;
    do {
      RC(MPI_Compare_and_swap(&me, &zero, &res, MPI_INT, 0, 2, win));
      RC(MPI_Win_flush(0, win));
      ++spins;
    } while (res != 0);
    RC(MPI_Get(&c, 1, MPI_INT, 0, 3, 1, MPI_INT, win));
    RC(MPI_Win_flush(0, win));
    ++c;
    RC(MPI_Put(&c, 1, MPI_INT, 0, 3, 1, MPI_INT, win));
    RC(MPI_Win_flush(0, win));
    RC(MPI_Fetch_and_op(&zero, &res, MPI_INT, 0, 2, MPI_REPLACE, win));
    RC(MPI_Win_flush(0, win));
    CHECK(res == me, "mutex released by %d: it held %d", me, res);
  }
  RC(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    lock_self(win);
    CHECK(v[0] == n * size, "concurrent Accumulate SUM: got %d, expected %d", v[0], n * size);
    CHECK(v[1] == n * size, "concurrent Fetch_and_op SUM: got %d, expected %d", v[1], n * size);
    CHECK(v[2] == 0, "mutex left held by %d", v[2]);
    CHECK(v[3] == m * size, "counter under the CAS mutex: got %d, expected %d", v[3], m * size);
    unlock_self(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_free(&win));
  free(fetched);
}

static unsigned char pat(long i, int seed) {
  return (unsigned char)(i * 131 + (i >> 12) * 7 + seed * 29 + 1);
}

/* 4 MiB: a get and a put under fences, a get under a lock. */
static void big_transfers(void) {
  const long nb = 4L << 20;
  unsigned char *w, *buf = malloc((size_t)nb);
  long i;
  MPI_Win win;
  RC(MPI_Win_allocate(nb, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w, &win));
  for (i = 0; i < nb; ++i) w[i] = pat(i, rank);
  memset(buf, 0, (size_t)nb);
  RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  RC(MPI_Get(buf, (int)nb, MPI_BYTE, right, 0, (int)nb, MPI_BYTE, win));
  RC(MPI_Win_fence(0, win));
  for (i = 0; i < nb; ++i)
    if (buf[i] != pat(i, right)) break;
  CHECK(i == nb, "4 MiB get: byte %ld: got %d, expected %d", i, i < nb ? buf[i] : -1,
        i < nb ? pat(i, right) : -1);
  for (i = 0; i < nb; ++i) buf[i] = pat(i, rank + 100);
  RC(MPI_Put(buf, (int)nb, MPI_BYTE, right, 0, (int)nb, MPI_BYTE, win));
  RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  for (i = 0; i < nb; ++i)
    if (w[i] != pat(i, left + 100)) break;
  CHECK(i == nb, "4 MiB put: byte %ld: got %d, expected %d", i, i < nb ? w[i] : -1,
        i < nb ? pat(i, left + 100) : -1);
  memset(buf, 0, (size_t)nb);
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  RC(MPI_Get(buf, (int)nb, MPI_BYTE, right, 0, (int)nb, MPI_BYTE, win));
  RC(MPI_Win_unlock(right, win));
  for (i = 0; i < nb; ++i)
    if (buf[i] != pat(i, rank + 100)) break;
  CHECK(i == nb, "4 MiB get under a lock: byte %ld: got %d, expected %d", i, i < nb ? buf[i] : -1,
        i < nb ? pat(i, rank + 100) : -1);
  /* Many large puts in flight at once (the target may take their data in
   * any order): 15 pieces of 256 KiB under lock_all, a get of the 16th
   * (untouched) piece among them, then a flush and a get of it all. */
  {
    const long piece = nb / 16;
    unsigned char *back = malloc((size_t)nb);
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < nb; ++i) buf[i] = pat(i, rank + 200);
    memset(back, 0, (size_t)nb);
    RC(MPI_Win_lock_all(0, win));
    for (int k = 0; k < 15; ++k) {
      RC(MPI_Put(buf + k * piece, (int)piece, MPI_BYTE, right, k * piece, (int)piece, MPI_BYTE,
                 win));
      if (k == 7)
        RC(MPI_Get(back + 15 * piece, (int)piece, MPI_BYTE, right, 15 * piece, (int)piece, MPI_BYTE,
                   win));
    }
    RC(MPI_Win_flush(right, win));
    RC(MPI_Get(back, (int)(15 * piece), MPI_BYTE, right, 0, (int)(15 * piece), MPI_BYTE, win));
    RC(MPI_Win_unlock_all(win));
    for (i = 0; i < nb; ++i)
      if (back[i] != (i < 15 * piece ? pat(i, rank + 200) : pat(i, rank + 100))) break;
    CHECK(i == nb, "15 puts of 256 KiB in flight: byte %ld: got %d, expected %d", i,
          i < nb ? back[i] : -1,
          i < nb ? (i < 15 * piece ? pat(i, rank + 200) : pat(i, rank + 100)) : -1);
    free(back);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  RC(MPI_Win_free(&win));
  free(buf);
}

/* Rank 0 waits in MPI_Barrier while every other rank locks it (shared or
 * exclusive by parity), puts, flushes, gets, accumulates and unlocks. */
static void passive_during_barrier(void) {
  const int slots = 4 * size + 1;
  int *v = NULL, i, k, src[4], got[4];
  MPI_Win win;
  RC(MPI_Win_allocate(rank == 0 ? pad16((MPI_Aint)slots * sizeof(int)) : 0, sizeof(int),
                      MPI_INFO_NULL, MPI_COMM_WORLD, &v, &win));
  if (rank == 0) {
    lock_self(win);
    for (i = 0; i < slots; ++i) v[i] = -1;
    v[slots - 1] = 0;
    unlock_self(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    for (k = 0; k < 4; ++k) src[k] = rank * 10 + k, got[k] = -2;
    RC(MPI_Win_lock(rank % 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 0, 0, win));
    RC(MPI_Put(src, 4, MPI_INT, 0, 4 * rank, 4, MPI_INT, win));
    RC(MPI_Win_flush(0, win));
    RC(MPI_Get(got, 4, MPI_INT, 0, 4 * rank, 4, MPI_INT, win));
    RC(MPI_Accumulate(&rank, 1, MPI_INT, 0, slots - 1, 1, MPI_INT, MPI_SUM, win));
    RC(MPI_Win_flush(0, win));
    for (k = 0; k < 4; ++k)
      CHECK(got[k] == src[k], "passive get from rank 0 in a barrier [%d]: got %d, expected %d", k,
            got[k], src[k]);
    RC(MPI_Win_unlock(0, win));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    lock_self(win);
    for (i = 0; i < 4 * size; ++i) {
      int want = i < 4 ? -1 : (i / 4) * 10 + i % 4;
      CHECK(v[i] == want, "passive put into rank 0 in a barrier [%d]: got %d, expected %d", i, v[i],
            want);
    }
    CHECK(v[slots - 1] == size * (size - 1) / 2,
          "passive accumulate into rank 0 in a barrier: got %d, expected %d", v[slots - 1],
          size * (size - 1) / 2);
    unlock_self(win);
  }
  RC(MPI_Win_free(&win));
}

/* MPI_Win_allocate of size+1 .. size+3 ints per rank, those counts that
 * are not multiples of 16 bytes: every rank puts its number into slot
 * `rank` of every rank. Only with RMA_STRICT=1: MPICH 4.0.2 fails it (see
 * pad16). */
static void odd_sizes(void) {
  for (int n = size + 1; n <= size + 3; ++n) {
    int *v = NULL, i, t;
    MPI_Win win;
    if (n % 4 == 0) continue;
    RC(MPI_Win_allocate((MPI_Aint)n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &v,
                        &win));
    lock_self(win);
    for (i = 0; i < n; ++i) v[i] = -1;
    unlock_self(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (t = 0; t < size; ++t) {
      RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
      RC(MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win));
      RC(MPI_Win_unlock(t, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    lock_self(win);
    for (i = 0; i < n; ++i) {
      int want = i < size ? i : -1;
      CHECK(v[i] == want, "Win_allocate of %d ints: slot %d: got %d, expected %d", n, i, v[i],
            want);
    }
    unlock_self(win);
    MPI_Barrier(MPI_COMM_WORLD);
    RC(MPI_Win_free(&win));
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  create_disp_units();
  create_zero_size();
  allocate();
  shared();
  dynamic();
  group_name_info();
  keyvals();
  errhandlers();
  accumulate_ops();
  get_accumulate();
  fetch_op_cas();
  request_ops();
  datatypes();
  sync_fence();
  sync_pscw();
  sync_locks();
  concurrent();
  big_transfers();
  passive_during_barrier();
  if (getenv("RMA_STRICT") && strcmp(getenv("RMA_STRICT"), "1") == 0) odd_sizes();
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
