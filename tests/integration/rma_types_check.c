/* rma_types_check.c - one-sided communication (MPI-3.1 chapter 11) with the
 * datatypes and targets that the plain cases do not exercise, in every
 * window flavour (create, allocate, allocate_shared on the node's
 * communicator, dynamic), every rank the target of every rank (itself
 * included), so that each path an operation can take is run: the origin's
 * own memory, memory mapped from a neighbour, cross-memory attach, and
 * messages to another client.
 *   pairs()    MPI_SHORT_INT, MPI_LONG_INT, MPI_DOUBLE_INT,
 *              MPI_LONG_DOUBLE_INT, MPI_FLOAT_INT and MPI_2INT (a pair's
 *              size is smaller than its extent, its members are not
 *              contiguous) in MPI_Accumulate, MPI_Get_accumulate,
 *              MPI_Fetch_and_op and the request forms, with MPI_MINLOC,
 *              MPI_MAXLOC, MPI_REPLACE and MPI_NO_OP, contiguous and
 *              through vectors on either side; every value and index
 *              checked against a model, result buffers checked for writes
 *              outside their typemap, the target's memory checked locally.
 *   bounds()   target (and origin and result) datatypes whose data does not
 *              start at offset 0: an indexed block at displacement 1,
 *              data at a negative displacement, a resized type with a
 *              negative lower bound, an indexed type; in put, get,
 *              accumulate, get_accumulate and the request forms.
 *   proc_null() MPI_PROC_NULL as the target of every communication call,
 *              of MPI_Win_lock/unlock and the flushes (no effect, requests
 *              complete at once), and the other arguments still checked.
 * RMA_TYPES_PARTS=pairs,bounds,proc_null runs only those. Prints "rank r of n ok". */
#include <float.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, failures;

#define RC(call)                                             \
  do {                                                       \
    int rc_ = (call);                                        \
    CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_); \
  } while (0)

/* An error class expected of a call. */
#define EXPECT_CLASS(call, cls)                                                              \
  do {                                                                                       \
    int rc_ = (call), c_ = MPI_SUCCESS;                                                      \
    if (rc_ != MPI_SUCCESS) MPI_Error_class(rc_, &c_);                                       \
    CHECK(c_ == (cls), "%s: %s returned class %d, expected %s (%d)", where, #call, c_, #cls, \
          (int)(cls));                                                                       \
  } while (0)

/* ---- windows of every flavour */

enum { CREATE, ALLOCATE, SHARED, DYNAMIC, NFLAVORS };
static const char *flavor_name[NFLAVORS] = {"create", "allocate", "allocate_shared", "dynamic"};

typedef struct {
  int flavor;
  MPI_Win win;
  MPI_Comm comm;  /* MPI_COMM_WORLD's duplicate, or the node's communicator */
  int me, n;      /* rank and size in it */
  char *mem;      /* this rank's window memory */
  MPI_Aint unit;  /* bytes of one displacement unit (dynamic: addresses, unit 1) */
  MPI_Aint *base; /* dynamic: every rank's memory address */
} Win;

static void win_open(Win *w, int flavor, MPI_Aint bytes, int unit) {
  memset(w, 0, sizeof *w);
  w->flavor = flavor;
  w->unit = unit;
  if (flavor == SHARED)
    RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &w->comm));
  else
    RC(MPI_Comm_dup(MPI_COMM_WORLD, &w->comm));
  MPI_Comm_rank(w->comm, &w->me);
  MPI_Comm_size(w->comm, &w->n);
  switch (flavor) {
    case CREATE:
      RC(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &w->mem));
      RC(MPI_Win_create(w->mem, bytes, unit, MPI_INFO_NULL, w->comm, &w->win));
      break;
    case ALLOCATE:
      RC(MPI_Win_allocate(bytes, unit, MPI_INFO_NULL, w->comm, &w->mem, &w->win));
      break;
    case SHARED:
      RC(MPI_Win_allocate_shared(bytes, unit, MPI_INFO_NULL, w->comm, &w->mem, &w->win));
      break;
    default: {
      MPI_Aint mine;
      w->mem = malloc((size_t)bytes);
      w->base = malloc(sizeof(MPI_Aint) * (size_t)w->n);
      RC(MPI_Win_create_dynamic(MPI_INFO_NULL, w->comm, &w->win));
      RC(MPI_Win_attach(w->win, w->mem, bytes));
      MPI_Get_address(w->mem, &mine);
      RC(MPI_Allgather(&mine, 1, MPI_AINT, w->base, 1, MPI_AINT, w->comm));
    }
  }
  RC(MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN));
}

/* The target displacement of unit i of rank t's memory. */
static MPI_Aint disp(const Win *w, int t, MPI_Aint i) {
  return w->flavor == DYNAMIC ? MPI_Aint_add(w->base[t], i * w->unit) : i;
}

static void win_close(Win *w) {
  MPI_Barrier(w->comm);
  if (w->flavor == DYNAMIC) RC(MPI_Win_detach(w->win, w->mem));
  RC(MPI_Win_free(&w->win));
  if (w->flavor == CREATE) MPI_Free_mem(w->mem);
  if (w->flavor == DYNAMIC) free(w->mem);
  free(w->base);
  MPI_Comm_free(&w->comm);
}

/* ---- pairs */

struct p_short {
  short a;
  int b;
};
struct p_long {
  long a;
  int b;
};
struct p_double {
  double a;
  int b;
};
struct p_ldouble {
  long double a;
  int b;
};
struct p_float {
  float a;
  int b;
};
struct p_int {
  int a;
  int b;
};

enum { V_SHORT, V_LONG, V_DOUBLE, V_LDOUBLE, V_FLOAT, V_INT };
typedef struct {
  const char *name;
  MPI_Datatype dt;
  int kind;
  size_t ext, off_b;
} Pair;
#define NPAIRS 6
static Pair pair_types[NPAIRS];

static void init_pair_types(void) {
  const Pair t[NPAIRS] = {
      {"MPI_SHORT_INT", MPI_SHORT_INT, V_SHORT, sizeof(struct p_short),
       offsetof(struct p_short, b)},
      {"MPI_LONG_INT", MPI_LONG_INT, V_LONG, sizeof(struct p_long), offsetof(struct p_long, b)},
      {"MPI_DOUBLE_INT", MPI_DOUBLE_INT, V_DOUBLE, sizeof(struct p_double),
       offsetof(struct p_double, b)},
      {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, V_LDOUBLE, sizeof(struct p_ldouble),
       offsetof(struct p_ldouble, b)},
      {"MPI_FLOAT_INT", MPI_FLOAT_INT, V_FLOAT, sizeof(struct p_float),
       offsetof(struct p_float, b)},
      {"MPI_2INT", MPI_2INT, V_INT, sizeof(struct p_int), offsetof(struct p_int, b)},
  };
  memcpy(pair_types, t, sizeof t);
}

/* A pair's value in the model (values are small integers: exact in every type). */
typedef struct {
  long a;
  int b;
} PV;

static void pset(const Pair *p, char *e, PV v) {
  switch (p->kind) {
    case V_SHORT: {
      short x = (short)v.a;
      memcpy(e, &x, sizeof x);
      break;
    }
    case V_LONG:
      memcpy(e, &v.a, sizeof v.a);
      break;
    case V_DOUBLE: {
      double x = (double)v.a;
      memcpy(e, &x, sizeof x);
      break;
    }
    case V_LDOUBLE: {
      long double x = (long double)v.a;
      memcpy(e, &x, sizeof x);
#if LDBL_MANT_DIG == 64
      /* (an x87 long double: 10 bytes of value, 6 left undefined; memcheck
       * would see them wherever the window's bytes go) */
      memset(e + 10, 0, sizeof x - 10);
#endif
      break;
    }
    case V_FLOAT: {
      float x = (float)v.a;
      memcpy(e, &x, sizeof x);
      break;
    }
    default: {
      int x = (int)v.a;
      memcpy(e, &x, sizeof x);
    }
  }
  memcpy(e + p->off_b, &v.b, sizeof v.b);
}

static PV pget(const Pair *p, const char *e) {
  PV v = {0, 0};
  switch (p->kind) {
    case V_SHORT: {
      short x;
      memcpy(&x, e, sizeof x);
      v.a = x;
      break;
    }
    case V_LONG:
      memcpy(&v.a, e, sizeof v.a);
      break;
    case V_DOUBLE: {
      double x;
      memcpy(&x, e, sizeof x);
      v.a = (long)x;
      if ((double)v.a != x) v.a = -999999;
      break;
    }
    case V_LDOUBLE: {
      long double x;
      memcpy(&x, e, sizeof x);
      v.a = (long)x;
      if ((long double)v.a != x) v.a = -999999;
      break;
    }
    case V_FLOAT: {
      float x;
      memcpy(&x, e, sizeof x);
      v.a = (long)x;
      if ((float)v.a != x) v.a = -999999;
      break;
    }
    default: {
      int x;
      memcpy(&x, e, sizeof x);
      v.a = x;
    }
  }
  memcpy(&v.b, e + p->off_b, sizeof v.b);
  return v;
}

static PV pv(long a, int b) {
  PV v = {a, b};
  return v;
}

/* MPI-3.1 5.9.4 and 11.3.4: the operators on one pair. */
static PV apply(MPI_Op op, PV cur, PV in) {
  if (op == MPI_REPLACE) return in;
  if (op == MPI_NO_OP) return cur;
  if (op == MPI_MAXLOC ? in.a > cur.a : in.a < cur.a) return in;
  if (in.a == cur.a && in.b < cur.b) cur.b = in.b;
  return cur;
}

#define K 6        /* pairs in each origin's slot of a target's memory */
#define GUARD 0x5a /* bytes a result buffer holds outside its typemap */

/* The value a target starts with at element i of an origin's slot. */
static PV pair_init(int t, int i) {
  return pv(10 * i + t, 1000 + i);
}

/* A result buffer of `n` pairs: filled with GUARD bytes. */
static void guard_fill(char *res, size_t bytes) {
  memset(res, GUARD, bytes);
}

/* Checks pair j of a result buffer against `want`. */
static void check_pair(const char *where, const char *step, const Pair *p, const char *res, int j,
                       PV want) {
  PV got = pget(p, res + (size_t)j * p->ext);
  CHECK(got.a == want.a && got.b == want.b, "%s: %s: result [%d] is {%ld, %d}, expected {%ld, %d}",
        where, step, j, got.a, got.b, want.a, want.b);
}

/* Checks that pair j of a result buffer was not written. */
static void check_guard(const char *where, const char *step, const Pair *p, const char *res,
                        int j) {
  size_t k;
  int clean = 1;
  for (k = 0; k < p->ext; ++k)
    if ((unsigned char)res[(size_t)j * p->ext + k] != GUARD) clean = 0;
  CHECK(clean, "%s: %s: result element %d, outside the result datatype, was written", where, step,
        j);
}

/* Origin o's operations on its slot of target t's memory, in order. With
 * run == 0 only the model `m` (the slot's K pairs) is brought up to date:
 * the target replays every origin's sequence to check its own memory. */
static void pair_sequence(const Pair *p, Win *w, int t, int o, PV *m, int run, const char *where) {
  const size_t ext = p->ext;
  char *in = malloc((K + 2) * ext), *res = malloc((K + 2) * ext);
  MPI_Datatype v2_3, v1_2;
  MPI_Request req;
  PV before[K];
  const MPI_Aint s = (MPI_Aint)o * K; /* the slot, in pairs */
  int i;
  memset(in, 0, (K + 2) * ext);
  if (run) {
    MPI_Type_vector(2, 2, 3, p->dt, &v2_3); /* pairs 0, 1, 3, 4 */
    MPI_Type_vector(2, 1, 2, p->dt, &v1_2); /* pairs 0, 2 */
    MPI_Type_commit(&v2_3);
    MPI_Type_commit(&v1_2);
  }

  /* 1: MPI_Accumulate MAXLOC, K contiguous (bigger, smaller, equal values;
   * equal values keep the smaller index). */
  for (i = 0; i < K; ++i) {
    PV x = pv(m[i].a + (i % 3 == 0 ? 3 : i % 3 == 1 ? -3 : 0), (i % 2 ? 1 : 3000) + i + o);
    pset(p, in + (size_t)i * ext, x);
    m[i] = apply(MPI_MAXLOC, m[i], x);
  }
  if (run) {
    RC(MPI_Accumulate(in, K, p->dt, t, disp(w, t, s), K, p->dt, MPI_MAXLOC, w->win));
    RC(MPI_Win_flush(t, w->win));
  }

  /* 2: MPI_Get_accumulate MINLOC, K contiguous, the result with two guards. */
  for (i = 0; i < K; ++i) {
    PV x = pv(m[i].a + (i % 3 == 0 ? -2 : i % 3 == 1 ? 2 : 0), (i % 2 ? 5000 : 2) + i);
    pset(p, in + (size_t)i * ext, x);
    before[i] = m[i];
    m[i] = apply(MPI_MINLOC, m[i], x);
  }
  if (run) {
    guard_fill(res, (K + 2) * ext);
    RC(MPI_Get_accumulate(in, K, p->dt, res, K, p->dt, t, disp(w, t, s), K, p->dt, MPI_MINLOC,
                          w->win));
    RC(MPI_Win_flush(t, w->win));
    for (i = 0; i < K; ++i) check_pair(where, "Get_accumulate MINLOC", p, res, i, before[i]);
    check_guard(where, "Get_accumulate MINLOC", p, res, K);
    check_guard(where, "Get_accumulate MINLOC", p, res, K + 1);
  }

  /* 3: MPI_Fetch_and_op REPLACE, NO_OP, MAXLOC and MINLOC (a tie: the
   * smaller index) on single pairs. */
  {
    const int at[4] = {2, 3, 4, 1};
    MPI_Op ops[4];
    PV x[4];
    ops[0] = MPI_REPLACE;
    ops[1] = MPI_NO_OP;
    ops[2] = MPI_MAXLOC;
    ops[3] = MPI_MINLOC;
    x[0] = pv(40 + o, 7 + t);
    x[1] = pv(0, 0);
    x[2] = pv(m[4].a + 5, 9);
    x[3] = pv(m[1].a, -1 - o);
    for (i = 0; i < 4; ++i) {
      PV old = m[at[i]];
      m[at[i]] = apply(ops[i], m[at[i]], x[i]);
      if (!run) continue;
      pset(p, in, x[i]);
      guard_fill(res, 2 * ext);
      RC(MPI_Fetch_and_op(ops[i] == MPI_NO_OP ? NULL : in, res, p->dt, t, disp(w, t, s + at[i]),
                          ops[i], w->win));
      RC(MPI_Win_flush(t, w->win));
      check_pair(where, "Fetch_and_op", p, res, 0, old);
      check_guard(where, "Fetch_and_op", p, res, 1);
    }
  }

  /* 4: MPI_Accumulate MINLOC through a vector of pairs at the target
   * (pairs 0, 1, 3, 4 of the slot), the origin contiguous. */
  {
    const int at[4] = {0, 1, 3, 4};
    for (i = 0; i < 4; ++i) {
      PV x = pv(m[at[i]].a - 1 + (i == 2), 11 + i);
      pset(p, in + (size_t)i * ext, x);
      m[at[i]] = apply(MPI_MINLOC, m[at[i]], x);
    }
    if (run) {
      RC(MPI_Accumulate(in, 4, p->dt, t, disp(w, t, s), 1, v2_3, MPI_MINLOC, w->win));
      RC(MPI_Win_flush(t, w->win));
    }
  }

  /* 5: MPI_Get_accumulate REPLACE on pairs 1 and 3 (a vector at the target),
   * the result through a vector too: result pairs 1 and 3 are not written. */
  {
    PV x[2], old[2];
    x[0] = pv(20 + o, 21);
    x[1] = pv(22 + o, 23);
    old[0] = m[1];
    old[1] = m[3];
    m[1] = x[0];
    m[3] = x[1];
    if (run) {
      pset(p, in, x[0]);
      pset(p, in + ext, x[1]);
      guard_fill(res, (K + 2) * ext);
      RC(MPI_Get_accumulate(in, 2, p->dt, res, 1, v1_2, t, disp(w, t, s + 1), 1, v1_2, MPI_REPLACE,
                            w->win));
      RC(MPI_Win_flush(t, w->win));
      check_pair(where, "Get_accumulate REPLACE (vectors)", p, res, 0, old[0]);
      check_pair(where, "Get_accumulate REPLACE (vectors)", p, res, 2, old[1]);
      check_guard(where, "Get_accumulate REPLACE (vectors)", p, res, 1);
      check_guard(where, "Get_accumulate REPLACE (vectors)", p, res, 3);
    }
  }

  /* 6: MPI_Get_accumulate NO_OP of the whole slot (no origin buffer). */
  if (run) {
    guard_fill(res, (K + 2) * ext);
    RC(MPI_Get_accumulate(NULL, 0, p->dt, res, K, p->dt, t, disp(w, t, s), K, p->dt, MPI_NO_OP,
                          w->win));
    RC(MPI_Win_flush(t, w->win));
    for (i = 0; i < K; ++i) check_pair(where, "Get_accumulate NO_OP", p, res, i, m[i]);
    check_guard(where, "Get_accumulate NO_OP", p, res, K);
  }

  /* 7: MPI_Rget_accumulate MAXLOC of the slot, MPI_Raccumulate REPLACE of pair 5. */
  for (i = 0; i < K; ++i) {
    PV x = pv(m[i].a + (i % 2), 50 + i);
    pset(p, in + (size_t)i * ext, x);
    before[i] = m[i];
    m[i] = apply(MPI_MAXLOC, m[i], x);
  }
  if (run) {
    guard_fill(res, (K + 2) * ext);
    RC(MPI_Rget_accumulate(in, K, p->dt, res, K, p->dt, t, disp(w, t, s), K, p->dt, MPI_MAXLOC,
                           w->win, &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (i = 0; i < K; ++i) check_pair(where, "Rget_accumulate MAXLOC", p, res, i, before[i]);
    check_guard(where, "Rget_accumulate MAXLOC", p, res, K);
    RC(MPI_Win_flush(t, w->win));
  }
  m[5] = pv(60 + o, 61);
  if (run) {
    pset(p, in, m[5]);
    RC(MPI_Raccumulate(in, 1, p->dt, t, disp(w, t, s + 5), 1, p->dt, MPI_REPLACE, w->win, &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    RC(MPI_Win_flush(t, w->win));
  }

  /* 8: MPI_Accumulate MAXLOC from a vector of pairs at the origin (pairs 0
   * and 2 of the buffer) to pairs 0 and 1 of the slot. */
  {
    PV x[2];
    x[0] = pv(m[0].a + 1, 70);
    x[1] = pv(m[1].a, -100);
    m[0] = apply(MPI_MAXLOC, m[0], x[0]);
    m[1] = apply(MPI_MAXLOC, m[1], x[1]);
    if (run) {
      pset(p, in, x[0]);
      pset(p, in + ext, pv(-5000, -5000)); /* (not in the origin datatype) */
      pset(p, in + 2 * ext, x[1]);
      RC(MPI_Accumulate(in, 1, v1_2, t, disp(w, t, s), 2, p->dt, MPI_MAXLOC, w->win));
      RC(MPI_Win_flush(t, w->win));
    }
  }

  /* 9: MPI_Get of the slot. */
  if (run) {
    guard_fill(res, (K + 2) * ext);
    RC(MPI_Get(res, K, p->dt, t, disp(w, t, s), K, p->dt, w->win));
    RC(MPI_Win_flush(t, w->win));
    for (i = 0; i < K; ++i) check_pair(where, "Get", p, res, i, m[i]);
    check_guard(where, "Get", p, res, K);
    MPI_Type_free(&v2_3);
    MPI_Type_free(&v1_2);
  }
  free(in);
  free(res);
}

static void pairs(int flavor) {
  int pi, t, o, i;
  for (pi = 0; pi < NPAIRS; ++pi) {
    const Pair *p = &pair_types[pi];
    Win w;
    char where[96];
    PV m[K];
    win_open(&w, flavor, (MPI_Aint)K * 64 * (MPI_Aint)p->ext, (int)p->ext);
    snprintf(where, sizeof where, "%s window, %s", flavor_name[flavor], p->name);
    /* (the window holds K pairs per origin; 64 origins at most) */
    if (w.n > 64) {
      CHECK(0, "%s: more than 64 ranks", where);
      win_close(&w);
      return;
    }
    for (o = 0; o < w.n; ++o)
      for (i = 0; i < K; ++i)
        pset(p, w.mem + ((size_t)o * K + (size_t)i) * p->ext, pair_init(w.me, i));
    MPI_Barrier(w.comm);
    RC(MPI_Win_lock_all(0, w.win));
    for (t = 0; t < w.n; ++t) {
      char at[128];
      snprintf(at, sizeof at, "%s, rank %d to %d", where, w.me, t);
      for (i = 0; i < K; ++i) m[i] = pair_init(t, i);
      pair_sequence(p, &w, t, w.me, m, 1, at);
    }
    RC(MPI_Win_unlock_all(w.win));
    MPI_Barrier(w.comm);
    /* Each origin's slot in our memory, as its sequence leaves it. */
    RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w.me, 0, w.win));
    for (o = 0; o < w.n; ++o) {
      for (i = 0; i < K; ++i) m[i] = pair_init(w.me, i);
      pair_sequence(p, &w, w.me, o, m, 0, where);
      for (i = 0; i < K; ++i) {
        PV got = pget(p, w.mem + ((size_t)o * K + (size_t)i) * p->ext);
        CHECK(got.a == m[i].a && got.b == m[i].b,
              "%s: rank %d's memory, rank %d's pair %d: {%ld, %d}, expected {%ld, %d}", where, w.me,
              o, i, got.a, got.b, m[i].a, m[i].b);
      }
    }
    RC(MPI_Win_unlock(w.me, w.win));
    win_close(&w);
  }
}

/* ---- datatypes whose data does not start at offset 0 */

#define SLOT 24            /* ints per origin in a target's memory */
static MPI_Datatype at1;   /* indexed block: one int at displacement 1 (lb 4) */
static MPI_Datatype neg8;  /* hindexed block: one int at byte -8 (lb -8) */
static MPI_Datatype rsz;   /* MPI_INT resized to lb -8, extent 12 */
static MPI_Datatype idx25; /* indexed: ints at 2 and 5 (lb 8) */

static void init_bound_types(void) {
  int d1 = 1, bl[2] = {1, 1}, d25[2] = {2, 5};
  MPI_Aint dm8 = -8;
  RC(MPI_Type_create_indexed_block(1, 1, &d1, MPI_INT, &at1));
  RC(MPI_Type_create_hindexed_block(1, 1, &dm8, MPI_INT, &neg8));
  RC(MPI_Type_create_resized(MPI_INT, -8, 12, &rsz));
  RC(MPI_Type_indexed(2, bl, d25, MPI_INT, &idx25));
  RC(MPI_Type_commit(&at1));
  RC(MPI_Type_commit(&neg8));
  RC(MPI_Type_commit(&rsz));
  RC(MPI_Type_commit(&idx25));
}

static int bound_init(int t, int o, int i) {
  return 10000 * (t + 1) + 100 * o + i;
}

#define CHECK_INT(step, got, want)                                                                 \
  CHECK((got) == (want), "%s: %s: got %d, expected %d (%s)", where, step, (int)(got), (int)(want), \
        #want)

static void bound_sequence(Win *w, int t, int o, int *m, int run, const char *where) {
  const MPI_Aint s = (MPI_Aint)o * SLOT;
  int v[4], x[4], r[4];
  MPI_Request req;
#define D(i) disp(w, t, s + (i))
#define FLUSH() RC(MPI_Win_flush(t, w->win))
  if (run) {
    /* Gets through each type. */
    v[0] = v[1] = -1;
    RC(MPI_Get(v, 1, MPI_INT, t, D(0), 1, at1, w->win));
    FLUSH();
    CHECK_INT("Get, indexed block at 1", v[0], m[1]);
    RC(MPI_Get(v, 2, MPI_INT, t, D(3), 2, at1, w->win));
    FLUSH();
    CHECK_INT("Get, 2 indexed blocks at 1", v[0], m[4]);
    CHECK_INT("Get, 2 indexed blocks at 1", v[1], m[5]);
    RC(MPI_Get(v, 1, MPI_INT, t, D(3), 1, neg8, w->win));
    FLUSH();
    CHECK_INT("Get, data at -8 bytes", v[0], m[1]);
    RC(MPI_Get(v, 2, MPI_INT, t, D(2), 2, rsz, w->win));
    FLUSH();
    CHECK_INT("Get, resized lb -8 extent 12", v[0], m[2]);
    CHECK_INT("Get, resized lb -8 extent 12", v[1], m[5]);
    RC(MPI_Get(v, 2, MPI_INT, t, D(0), 1, idx25, w->win));
    FLUSH();
    CHECK_INT("Get, indexed at 2 and 5", v[0], m[2]);
    CHECK_INT("Get, indexed at 2 and 5", v[1], m[5]);
  }
  /* Put through an indexed block at 1 and through data at -8 bytes. */
  x[0] = 500 + o;
  x[1] = 600 + o;
  x[2] = 700 + o;
  m[7] = x[0];
  m[8] = x[1];
  m[9] = x[2];
  if (run) {
    RC(MPI_Put(x, 1, MPI_INT, t, D(6), 1, at1, w->win));
    RC(MPI_Put(x + 1, 2, MPI_INT, t, D(10), 2, neg8, w->win));
    FLUSH();
  }
  /* Accumulate, Get_accumulate. */
  m[10] += 5;
  if (run) {
    x[0] = 5;
    RC(MPI_Accumulate(x, 1, MPI_INT, t, D(9), 1, at1, MPI_SUM, w->win));
    FLUSH();
  }
  r[0] = m[11];
  m[11] += 3;
  if (run) {
    x[0] = 3;
    v[0] = -1;
    RC(MPI_Get_accumulate(x, 1, MPI_INT, v, 1, MPI_INT, t, D(13), 1, neg8, MPI_SUM, w->win));
    FLUSH();
    CHECK_INT("Get_accumulate SUM, data at -8 bytes", v[0], r[0]);
  }
  if (run) {
    v[0] = v[1] = -1;
    RC(MPI_Get_accumulate(NULL, 0, MPI_INT, v, 2, MPI_INT, t, D(0), 2, rsz, MPI_NO_OP, w->win));
    FLUSH();
    CHECK_INT("Get_accumulate NO_OP, resized", v[0], m[0]);
    CHECK_INT("Get_accumulate NO_OP, resized", v[1], m[3]);
  }
  m[16] += 40;
  m[19] += 41;
  if (run) {
    x[0] = 40;
    x[1] = 41;
    RC(MPI_Accumulate(x, 2, MPI_INT, t, D(14), 1, idx25, MPI_SUM, w->win));
    FLUSH();
  }
  /* The request forms. */
  m[12] = 800 + o;
  if (run) {
    x[0] = m[12];
    RC(MPI_Rput(x, 1, MPI_INT, t, D(11), 1, at1, w->win, &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    FLUSH();
    v[0] = -1;
    RC(MPI_Rget(v, 1, MPI_INT, t, D(14), 1, neg8, w->win, &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_INT("Rget, data at -8 bytes", v[0], m[12]);
  }
  m[13] += 4;
  if (run) {
    x[0] = 4;
    RC(MPI_Raccumulate(x, 1, MPI_INT, t, D(13), 1, rsz, MPI_SUM, w->win, &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    FLUSH();
  }
  r[0] = m[14];
  m[14] = 900 + o;
  if (run) {
    x[0] = m[14];
    v[0] = -1;
    RC(MPI_Rget_accumulate(x, 1, MPI_INT, v, 1, MPI_INT, t, D(13), 1, at1, MPI_REPLACE, w->win,
                           &req));
    RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    FLUSH();
    CHECK_INT("Rget_accumulate REPLACE, indexed block at 1", v[0], r[0]);
  }
  /* Origin and result datatypes that do not start at 0. */
  m[15] = 1100 + o;
  if (run) {
    x[0] = -7;
    x[1] = m[15];
    RC(MPI_Put(x, 1, at1, t, D(15), 1, MPI_INT, w->win));
    FLUSH();
    v[0] = v[1] = -1;
    RC(MPI_Get(v, 1, at1, t, D(15), 1, MPI_INT, w->win));
    FLUSH();
    CHECK_INT("Get into an indexed block at 1", v[1], m[15]);
    CHECK_INT("Get into an indexed block at 1 (element 0 untouched)", v[0], -1);
  }
  m[6] += 6;
  if (run) {
    x[0] = -7;
    x[1] = 6;
    RC(MPI_Accumulate(x, 1, at1, t, D(6), 1, MPI_INT, MPI_SUM, w->win));
    FLUSH();
  }
  r[1] = m[18];
  m[18] += 8;
  if (run) {
    x[0] = -7;
    x[1] = 8;
    v[0] = v[1] = -1;
    RC(MPI_Get_accumulate(x, 1, at1, v, 1, at1, t, D(17), 1, at1, MPI_SUM, w->win));
    FLUSH();
    CHECK_INT("Get_accumulate into an indexed block at 1", v[1], r[1]);
    CHECK_INT("Get_accumulate into an indexed block at 1 (element 0 untouched)", v[0], -1);
  }
  /* Compare_and_swap and Fetch_and_op next to them (predefined types). */
  r[2] = m[20];
  m[20] += 2;
  if (run) {
    x[0] = 2;
    v[0] = -1;
    RC(MPI_Fetch_and_op(x, v, MPI_INT, t, D(20), MPI_SUM, w->win));
    FLUSH();
    CHECK_INT("Fetch_and_op", v[0], r[2]);
  }
  r[3] = m[21];
  m[21] = 1200 + o;
  if (run) {
    x[0] = m[21];
    v[0] = -1;
    RC(MPI_Compare_and_swap(x, &r[3], v, MPI_INT, t, D(21), w->win));
    FLUSH();
    CHECK_INT("Compare_and_swap", v[0], r[3]);
  }
  /* The slot as a whole. */
  if (run) {
    int all[SLOT], i;
    RC(MPI_Get(all, SLOT, MPI_INT, t, D(0), SLOT, MPI_INT, w->win));
    FLUSH();
    for (i = 0; i < SLOT; ++i)
      CHECK(all[i] == m[i], "%s: Get of the slot: [%d] is %d, expected %d", where, i, all[i], m[i]);
  }
#undef D
#undef FLUSH
}

static void bounds(int flavor) {
  Win w;
  char where[128];
  int t, o, i, m[SLOT];
  win_open(&w, flavor, (MPI_Aint)SLOT * 64 * (MPI_Aint)sizeof(int), (int)sizeof(int));
  if (w.n > 64) {
    CHECK(0, "bounds: more than 64 ranks");
    win_close(&w);
    return;
  }
  {
    int *mem = (int *)(void *)w.mem;
    for (o = 0; o < w.n; ++o)
      for (i = 0; i < SLOT; ++i) mem[o * SLOT + i] = bound_init(w.me, o, i);
  }
  MPI_Barrier(w.comm);
  RC(MPI_Win_lock_all(0, w.win));
  for (t = 0; t < w.n; ++t) {
    snprintf(where, sizeof where, "%s window, rank %d to %d", flavor_name[flavor], w.me, t);
    for (i = 0; i < SLOT; ++i) m[i] = bound_init(t, w.me, i);
    bound_sequence(&w, t, w.me, m, 1, where);
  }
  RC(MPI_Win_unlock_all(w.win));
  MPI_Barrier(w.comm);
  RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w.me, 0, w.win));
  for (o = 0; o < w.n; ++o) {
    const int *mem = (const int *)(const void *)w.mem;
    for (i = 0; i < SLOT; ++i) m[i] = bound_init(w.me, o, i);
    bound_sequence(&w, w.me, o, m, 0, "");
    for (i = 0; i < SLOT; ++i)
      CHECK(mem[o * SLOT + i] == m[i],
            "%s window: rank %d's memory, rank %d's slot [%d]: %d, expected %d",
            flavor_name[flavor], w.me, o, i, mem[o * SLOT + i], m[i]);
  }
  RC(MPI_Win_unlock(w.me, w.win));
  win_close(&w);
}

/* The window of MPI_COMM_SELF from the issue: two ints, an indexed block at 1. */
static void bounds_self(void) {
  int mem[2] = {11, 22}, v = -1;
  MPI_Datatype t;
  MPI_Win win;
  int d = 1;
  RC(MPI_Type_create_indexed_block(1, 1, &d, MPI_INT, &t));
  RC(MPI_Type_commit(&t));
  RC(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &win));
  RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  RC(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, t, win));
  RC(MPI_Win_unlock(0, win));
  CHECK(v == 22, "MPI_COMM_SELF window: MPI_Get through an indexed block at 1: %d, expected 22", v);
  RC(MPI_Win_free(&win));
  MPI_Type_free(&t);
}

/* ---- MPI_PROC_NULL */

/* Every communication call to MPI_PROC_NULL succeeds without effect; the
 * request forms return completed requests; result buffers are untouched. */
static void null_ops(Win *w, const char *where) {
  int buf[4] = {1, 2, 3, 4}, res[4] = {-1, -1, -1, -1}, cmp = 0, flag = 0, i;
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_CLASS(MPI_Put(buf, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Get(res, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Accumulate(buf, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, w->win),
               MPI_SUCCESS);
  EXPECT_CLASS(MPI_Get_accumulate(buf, 4, MPI_INT, res, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT,
                                  MPI_SUM, w->win),
               MPI_SUCCESS);
  EXPECT_CLASS(MPI_Fetch_and_op(buf, res, MPI_INT, MPI_PROC_NULL, 0, MPI_SUM, w->win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Compare_and_swap(buf, &cmp, res, MPI_INT, MPI_PROC_NULL, 0, w->win),
               MPI_SUCCESS);
  EXPECT_CLASS(MPI_Rput(buf, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win, &req), MPI_SUCCESS);
  CHECK(req != MPI_REQUEST_NULL, "%s: MPI_Rput to MPI_PROC_NULL gave MPI_REQUEST_NULL", where);
  RC(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  CHECK(flag && req == MPI_REQUEST_NULL, "%s: MPI_Rput's request to MPI_PROC_NULL is not complete",
        where);
  EXPECT_CLASS(MPI_Rget(res, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win, &req), MPI_SUCCESS);
  RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
  EXPECT_CLASS(
      MPI_Raccumulate(buf, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, w->win, &req),
      MPI_SUCCESS);
  flag = 0;
  RC(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  CHECK(flag, "%s: MPI_Raccumulate's request to MPI_PROC_NULL is not complete", where);
  EXPECT_CLASS(MPI_Rget_accumulate(buf, 4, MPI_INT, res, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT,
                                   MPI_SUM, w->win, &req),
               MPI_SUCCESS);
  RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
  for (i = 0; i < 4; ++i)
    CHECK(res[i] == -1, "%s: a result buffer of an operation on MPI_PROC_NULL was written", where);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t) {
  int i;
  (void)t;
  for (i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

static void proc_null(int flavor) {
  Win w;
  char where[128];
  int dummy = 0, res = 0;
  MPI_Datatype loose;
  MPI_Request req;
  MPI_Op userop;
  win_open(&w, flavor, 16 * sizeof(int), (int)sizeof(int));
  memset(w.mem, 0, 16 * sizeof(int));
  MPI_Barrier(w.comm);

  snprintf(where, sizeof where, "%s window, no epoch", flavor_name[flavor]);
  null_ops(&w, where);
  EXPECT_CLASS(MPI_Win_flush(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_flush_local(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_unlock(MPI_PROC_NULL, w.win), MPI_SUCCESS);

  snprintf(where, sizeof where, "%s window, fence", flavor_name[flavor]);
  RC(MPI_Win_fence(0, w.win));
  null_ops(&w, where);
  RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));

  /* MPICH's rmanull: lock and unlock MPI_PROC_NULL around the operations. */
  snprintf(where, sizeof where, "%s window, lock of MPI_PROC_NULL", flavor_name[flavor]);
  EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, w.win), MPI_SUCCESS);
  null_ops(&w, where);
  EXPECT_CLASS(MPI_Win_flush(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_flush_local(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  /* (the lock of MPI_PROC_NULL opened no epoch on a real rank) */
  EXPECT_CLASS(MPI_Put(&dummy, 1, MPI_INT, w.me, 0, 1, MPI_INT, w.win), MPI_ERR_RMA_SYNC);
  EXPECT_CLASS(MPI_Win_unlock(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, MPI_MODE_NOCHECK, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_unlock(MPI_PROC_NULL, w.win), MPI_SUCCESS);

  snprintf(where, sizeof where, "%s window, lock_all", flavor_name[flavor]);
  RC(MPI_Win_lock_all(0, w.win));
  null_ops(&w, where);
  EXPECT_CLASS(MPI_Win_flush(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_flush_local(MPI_PROC_NULL, w.win), MPI_SUCCESS);
  RC(MPI_Win_unlock_all(w.win));

  /* The other arguments are still checked. */
  snprintf(where, sizeof where, "%s window, MPI_PROC_NULL with a bad argument",
           flavor_name[flavor]);
  RC(MPI_Type_contiguous(2, MPI_INT, &loose)); /* (not committed) */
  RC(MPI_Op_create(user_sum, 1, &userop));
  RC(MPI_Win_lock_all(0, w.win));
  EXPECT_CLASS(MPI_Put(&dummy, -1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w.win), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Put(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, -1, MPI_INT, w.win), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Get(&dummy, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, 1, MPI_INT, w.win),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Get(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, 1, loose, w.win), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Accumulate(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_OP_NULL, w.win),
               MPI_ERR_OP);
  EXPECT_CLASS(MPI_Accumulate(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, userop, w.win),
               MPI_ERR_OP);
  EXPECT_CLASS(MPI_Accumulate(&dummy, 1, loose, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, w.win),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Get_accumulate(&dummy, 1, MPI_INT, &res, -1, MPI_INT, MPI_PROC_NULL, 0, 1,
                                  MPI_INT, MPI_SUM, w.win),
               MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Fetch_and_op(&dummy, &res, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_SUM, w.win),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Fetch_and_op(&dummy, &res, MPI_INT, MPI_PROC_NULL, 0, MPI_OP_NULL, w.win),
               MPI_ERR_OP);
  EXPECT_CLASS(
      MPI_Compare_and_swap(&dummy, &dummy, &res, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, w.win),
      MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Rput(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w.win, NULL),
               MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Rget(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, 1, loose, w.win, &req), MPI_ERR_TYPE);
  if (flavor != DYNAMIC)
    EXPECT_CLASS(MPI_Put(&dummy, 1, MPI_INT, MPI_PROC_NULL, -1, 1, MPI_INT, w.win), MPI_ERR_DISP);
  /* Ranks that are neither a member nor MPI_PROC_NULL. */
  EXPECT_CLASS(MPI_Put(&dummy, 1, MPI_INT, w.n, 0, 1, MPI_INT, w.win), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Get(&dummy, 1, MPI_INT, -7, 0, 1, MPI_INT, w.win), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Win_flush(w.n, w.win), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Win_flush_local(-7, w.win), MPI_ERR_RANK);
  RC(MPI_Win_unlock_all(w.win));
  EXPECT_CLASS(MPI_Win_lock(12345, MPI_PROC_NULL, 0, w.win), MPI_ERR_LOCKTYPE);
  EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, w.n, 0, w.win), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Win_unlock(-7, w.win), MPI_ERR_RANK);
  MPI_Type_free(&loose);
  MPI_Op_free(&userop);
  win_close(&w);
}

/* RMA_TYPES_PARTS=name,...: only those parts (default: all). */
static int part(const char *name) {
  const char *only = getenv("RMA_TYPES_PARTS");
  return !only || !*only || strstr(only, name) != NULL;
}

int main(int argc, char **argv) {
  int f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  init_pair_types();
  init_bound_types();
  if (part("proc_null"))
    for (f = 0; f < NFLAVORS; ++f) proc_null(f);
  if (part("bounds")) {
    bounds_self();
    for (f = 0; f < NFLAVORS; ++f) bounds(f);
  }
  if (part("pairs"))
    for (f = 0; f < NFLAVORS; ++f) pairs(f);
  MPI_Type_free(&at1);
  MPI_Type_free(&neg8);
  MPI_Type_free(&rsz);
  MPI_Type_free(&idx25);
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
