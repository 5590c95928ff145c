/* session_check.c - MPI-4.0 sessions (11.3): process sets, their info,
 * groups from them, communicators from groups (MPI_Comm_create_from_group,
 * MPI_Intercomm_create_from_groups) used for collectives and point-to-point
 * with payload checks, session error handlers, and sessions beside the
 * world model in several orders. The mode (argv[1]):
 *   only     sessions only, never MPI_Init; two sessions interleaved
 *   before   MPI_Session_init, then MPI_Init; MPI_Finalize before
 *            MPI_Session_finalize (the session's communicators still work)
 *   after    MPI_Init, then MPI_Session_init .. MPI_Session_finalize, then
 *            MPI_Finalize; a session after that fails cleanly
 *   reinit   a session begun and ended, then MPI_Init .. MPI_Finalize
 * Prints "rank r of n ok" (r, n: the rank in and size of mpi://WORLD). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank = -1, size, failures;
#include "check.h"

static int handler_calls, handler_class;
static MPI_Session handler_session;
static void on_session_error(MPI_Session *s, int *code, ...) {
  ++handler_calls;
  handler_session = *s;
  MPI_Error_class(*code, &handler_class);
}

static MPI_Comm comm_from_pset(MPI_Session s, const char *pset, const char *tag) {
  MPI_Group g;
  MPI_Comm c = MPI_COMM_NULL;
  CHECK(MPI_Group_from_session_pset(s, pset, &g) == MPI_SUCCESS, "group of %s", pset);
  CHECK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) == MPI_SUCCESS,
        "comm from %s", pset);
  MPI_Group_free(&g);
  return c;
}

/* Allreduce and a ring Sendrecv on c, payload checked; its members are the
 * world ranks `members` (n of them) in rank order. */
static void exercise(MPI_Comm c, const int *members, int n, const char *what) {
  int r, sz;
  CHECK(MPI_Comm_rank(c, &r) == MPI_SUCCESS && MPI_Comm_size(c, &sz) == MPI_SUCCESS, "%s", what);
  CHECK(sz == n && members[r] == rank, "%s: rank %d size %d", what, r, sz);
  long sum = 0, want = 0;
  long mine = 1000 + rank;
  for (int i = 0; i < n; ++i) want += 1000 + members[i];
  CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, c) == MPI_SUCCESS && sum == want,
        "%s: allreduce %ld, want %ld", what, sum, want);
  enum { N = 3000 }; /* past the short-message size across clients */
  static int out[N], in[N];
  for (int i = 0; i < N; ++i) out[i] = rank * 100000 + i;
  int to = (r + 1) % sz, from = (r + sz - 1) % sz;
  MPI_Status st;
  CHECK(MPI_Sendrecv(out, N, MPI_INT, to, 7, in, N, MPI_INT, from, 7, c, &st) == MPI_SUCCESS,
        "%s: sendrecv", what);
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += in[i] != members[from] * 100000 + i;
  CHECK(bad == 0 && st.MPI_SOURCE == from && st.MPI_TAG == 7, "%s: %d wrong ints", what, bad);
  CHECK(MPI_Barrier(c) == MPI_SUCCESS, "%s: barrier", what);
}

/* The process sets: mpi://WORLD, mpi://SELF and one per IMPI client. */
static void check_psets(MPI_Session s) {
  int n = 0, world = 0, self = 0, clients = 0, total = 0;
  CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS && n >= 3, "%d psets", n);
  for (int i = 0; i < n; ++i) {
    char name[MPI_MAX_PSET_NAME_LEN];
    int len = 0;
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL) == MPI_SUCCESS && len > 1,
          "pset %d length", i);
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name) == MPI_SUCCESS &&
              (int)strlen(name) + 1 == len,
          "pset %d name", i);
    MPI_Info info;
    char v[32];
    int flag = 0;
    CHECK(MPI_Session_get_pset_info(s, name, &info) == MPI_SUCCESS, "info of %s", name);
    CHECK(MPI_Info_get(info, "mpi_size", sizeof v - 1, v, &flag) == MPI_SUCCESS && flag,
          "mpi_size of %s", name);
    MPI_Info_free(&info);
    int psize = atoi(v), gsize = -1;
    MPI_Group g;
    CHECK(MPI_Group_from_session_pset(s, name, &g) == MPI_SUCCESS, "group of %s", name);
    MPI_Group_size(g, &gsize);
    CHECK(gsize == psize, "%s: group size %d, mpi_size %d", name, gsize, psize);
    MPI_Group_free(&g);
    if (strcmp(name, "mpi://WORLD") == 0) {
      world = 1;
      CHECK(psize == size, "WORLD size %d", psize);
    } else if (strcmp(name, "mpi://SELF") == 0) {
      self = 1;
      CHECK(psize == 1, "SELF size %d", psize);
    } else if (strncmp(name, "impi://client/", 14) == 0) {
      CHECK(atoi(name + 14) == clients, "client pset %s out of order", name);
      ++clients;
      total += psize;
    } else if (strcmp(name, "impi://app/0") == 0) {
      CHECK(psize == size, "%s (the only program) size %d", name, psize); /* mpmd_check: more */
    } else {
      CHECK(0, "unexpected pset %s", name);
    }
  }
  CHECK(world && self && clients >= 1 && total == size, "world %d self %d clients %d (%d procs)",
        world, self, clients, total);
  /* names compare without case; an unknown one is MPI_ERR_ARG on the session */
  MPI_Group g;
  CHECK(MPI_Group_from_session_pset(s, "MPI://self", &g) == MPI_SUCCESS, "mpi://self");
  MPI_Group_free(&g);
}

/* The communicators a session makes: WORLD, SELF, this proc's client, the
 * even ranks (their own tag), two at once from one group (tags tell them
 * apart), an intercommunicator evens/odds. */
static void session_work(MPI_Session s, const char *tagbase) {
  char tag[64];
  int all[512], one[1] = {rank}, evens[512], nev = 0, odds[512], nodd = 0;
  for (int i = 0; i < size; ++i) all[i] = i;
  for (int i = 0; i < size; ++i) {
    if (i % 2 == 0)
      evens[nev++] = i;
    else
      odds[nodd++] = i;
  }
  snprintf(tag, sizeof tag, "%s/world", tagbase);
  MPI_Comm w = comm_from_pset(s, "mpi://WORLD", tag);
  exercise(w, all, size, "WORLD");
  snprintf(tag, sizeof tag, "%s/self", tagbase);
  MPI_Comm me = comm_from_pset(s, "mpi://SELF", tag);
  exercise(me, one, 1, "SELF");
  MPI_Comm_free(&me);

  /* the even ranks (and the odd ones, with another tag, at the same time) */
  MPI_Group wg, sub;
  CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg) == MPI_SUCCESS, "world group");
  int odd = rank % 2;
  MPI_Group_incl(wg, odd ? nodd : nev, odd ? odds : evens, &sub);
  MPI_Comm half = MPI_COMM_NULL, half2 = MPI_COMM_NULL;
  snprintf(tag, sizeof tag, "%s/%s", tagbase, odd ? "odds" : "evens");
  CHECK(
      MPI_Comm_create_from_group(sub, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &half) == MPI_SUCCESS,
      "half");
  snprintf(tag, sizeof tag, "%s/%s-2", tagbase, odd ? "odds" : "evens");
  CHECK(
      MPI_Comm_create_from_group(sub, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &half2) == MPI_SUCCESS,
      "half2");
  exercise(half2, odd ? odds : evens, odd ? nodd : nev, "half2");
  exercise(half, odd ? odds : evens, odd ? nodd : nev, "half");
  MPI_Comm_free(&half);
  MPI_Comm_free(&half2);

  /* an intercommunicator: evens with odds */
  if (size >= 2) {
    MPI_Group ge, go;
    MPI_Group_incl(wg, nev, evens, &ge);
    MPI_Group_incl(wg, nodd, odds, &go);
    MPI_Comm inter = MPI_COMM_NULL;
    snprintf(tag, sizeof tag, "%s/inter", tagbase);
    CHECK(MPI_Intercomm_create_from_groups(odd ? go : ge, 0, odd ? ge : go, 0, tag, MPI_INFO_NULL,
                                           MPI_ERRORS_RETURN, &inter) == MPI_SUCCESS,
          "intercomm");
    int flag = 0, rsize = 0, lr = -1;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &lr);
    CHECK(flag && rsize == (odd ? nev : nodd) && lr == rank / 2, "intercomm shape");
    /* local rank 0 of each side swaps a value with the other side's rank 0 */
    if (lr == 0) {
      int got = -1, mine = 4242 + odd;
      CHECK(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &got, 1, MPI_INT, 0, 3, inter,
                         MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                got == 4242 + !odd,
            "intercomm payload %d", got);
    }
    int bsum = -1, v = rank;
    /* the other side's sum, through an intercommunicator allreduce */
    CHECK(MPI_Allreduce(&v, &bsum, 1, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS, "inter allreduce");
    int want = 0;
    for (int i = 0; i < (odd ? nev : nodd); ++i) want += odd ? evens[i] : odds[i];
    CHECK(bsum == want, "inter allreduce %d, want %d", bsum, want);
    MPI_Comm_free(&inter);
    MPI_Group_free(&ge);
    MPI_Group_free(&go);
  }
  MPI_Group_free(&sub);
  MPI_Group_free(&wg);
  MPI_Comm_free(&w);
}

/* The session's handler: called with the error's class, on the session. */
static void check_handler(void) {
  MPI_Errhandler eh, got;
  MPI_Session s;
  CHECK(MPI_Session_create_errhandler(on_session_error, &eh) == MPI_SUCCESS, "create handler");
  CHECK(MPI_Session_init(MPI_INFO_NULL, eh, &s) == MPI_SUCCESS, "session with handler");
  MPI_Group g = MPI_GROUP_NULL;
  handler_calls = 0;
  int rc = MPI_Group_from_session_pset(s, "mpi://nowhere", &g);
  CHECK(rc != MPI_SUCCESS && handler_calls == 1 && handler_class == MPI_ERR_ARG &&
            handler_session == s,
        "bad pset: rc %d, %d calls, class %d", rc, handler_calls, handler_class);
  CHECK(MPI_Session_call_errhandler(s, MPI_ERR_SESSION) == MPI_SUCCESS && handler_calls == 2 &&
            handler_class == MPI_ERR_SESSION,
        "call_errhandler: %d calls, class %d", handler_calls, handler_class);
  CHECK(MPI_Session_get_errhandler(s, &got) == MPI_SUCCESS && got == eh, "get handler");
  MPI_Errhandler_free(&got);
  CHECK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN) == MPI_SUCCESS, "set handler");
  int len0 = 0;
  rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 1000, &len0, NULL);
  CHECK(rc == MPI_ERR_ARG && handler_calls == 2, "nth pset 1000: %d", rc);
  MPI_Fint f = MPI_Session_c2f(s);
  CHECK(MPI_Session_f2c(f) == s, "c2f/f2c");
  CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS && s == MPI_SESSION_NULL, "finalize");
  MPI_Errhandler_free(&eh);
}

/* A session asking for a thread level: MPI_Session_get_info tells what it got. */
static MPI_Session open_session(const char *level) {
  MPI_Info info;
  MPI_Session s = MPI_SESSION_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "thread_level", level);
  CHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS, "session init");
  MPI_Info_free(&info);
  MPI_Info used;
  char v[64];
  int flag = 0;
  CHECK(MPI_Session_get_info(s, &used) == MPI_SUCCESS, "get_info");
  CHECK(MPI_Info_get(used, "thread_level", sizeof v - 1, v, &flag) == MPI_SUCCESS && flag &&
            strncmp(v, "MPI_THREAD_", 11) == 0,
        "thread_level %s", flag ? v : "(none)");
  MPI_Info_free(&used);
  return s;
}

static void learn_world(MPI_Session s) {
  MPI_Group g;
  MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
  MPI_Group_rank(g, &rank);
  MPI_Group_size(g, &size);
  MPI_Group_free(&g);
}

/* MPI-4.0 7.4.2: MPI_COMM_TYPE_HW_GUIDED with "mpi_shared_memory" is the
 * shared-memory split; another resource, or none, gives MPI_COMM_NULL;
 * HW_UNGUIDED gives a strict subset or MPI_COMM_NULL. */
static void hw_split_check(void) {
  MPI_Comm shm, hw;
  MPI_Info info;
  int a = -1, b = -2, ra = -1, rb = -2;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &hw) ==
                MPI_SUCCESS &&
            hw != MPI_COMM_NULL,
        "HW_GUIDED mpi_shared_memory");
  MPI_Comm_size(shm, &a);
  MPI_Comm_size(hw, &b);
  MPI_Comm_rank(shm, &ra);
  MPI_Comm_rank(hw, &rb);
  CHECK(a == b && ra == rb, "HW_GUIDED: size %d rank %d; shared size %d rank %d", b, rb, a, ra);
  MPI_Info got;
  char v[64] = "";
  int flag = 0;
  MPI_Comm_get_info(hw, &got);
  MPI_Info_get(got, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
  CHECK(flag && strcmp(v, "mpi_shared_memory") == 0, "HW_GUIDED comm info: %s", v);
  MPI_Info_free(&got);
  MPI_Comm_free(&hw);
  MPI_Info_set(info, "mpi_hw_resource_type", "L7cache");
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &hw) == MPI_SUCCESS &&
            hw == MPI_COMM_NULL,
        "HW_GUIDED unknown resource");
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &hw) ==
                MPI_SUCCESS &&
            hw == MPI_COMM_NULL,
        "HW_GUIDED without info");
  MPI_Info_free(&info);
  MPI_Info_create(&info);
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, info, &hw) == MPI_SUCCESS,
        "HW_UNGUIDED");
  if (a == size) {
    CHECK(hw == MPI_COMM_NULL, "HW_UNGUIDED: no strict subset, yet a communicator");
  } else {
    b = -1;
    if (hw != MPI_COMM_NULL) MPI_Comm_size(hw, &b);
    CHECK(b == a, "HW_UNGUIDED: size %d, shared-memory split %d", b, a);
    flag = 0;
    MPI_Info_get(info, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
    CHECK(flag && strcmp(v, "mpi_shared_memory") == 0, "HW_UNGUIDED names no resource");
  }
  if (hw != MPI_COMM_NULL) MPI_Comm_free(&hw);
  MPI_Info_free(&info);
  MPI_Comm_free(&shm);
}

/* MPI-4.0 7.4.2: MPI_Comm_dup keeps the hints, MPI_Comm_dup_with_info has
 * the info's instead. */
static void dup_info_check(void) {
  MPI_Comm a, b, c;
  MPI_Info info, got;
  char v[64];
  int flag = 0;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  MPI_Comm_set_info(a, info);
  MPI_Info_free(&info);
  MPI_Comm_dup(a, &b);
  MPI_Comm_get_info(b, &got);
  MPI_Info_get(got, "mpi_assert_no_any_tag", sizeof v - 1, v, &flag);
  CHECK(flag && strcmp(v, "true") == 0, "MPI_Comm_dup dropped the hints");
  MPI_Info_free(&got);
  MPI_Info_create(&info);
  MPI_Info_set(info, "impi_test_key", "42");
  MPI_Comm_dup_with_info(a, info, &c);
  MPI_Info_free(&info);
  MPI_Comm_get_info(c, &got);
  MPI_Info_get(got, "impi_test_key", sizeof v - 1, v, &flag);
  CHECK(flag && strcmp(v, "42") == 0, "MPI_Comm_dup_with_info: the info's key is missing");
  MPI_Info_get(got, "mpi_assert_no_any_tag", sizeof v - 1, v, &flag);
  CHECK(!flag, "MPI_Comm_dup_with_info kept the parent's hints");
  MPI_Info_free(&got);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free(&c);
}

/* MPI-4.1: MPI_Type_get_value_index names the MINLOC/MAXLOC pair types. */
static void value_index_check(void) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  CHECK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t) == MPI_SUCCESS && t == MPI_DOUBLE_INT,
        "double/int pair");
  CHECK(MPI_Type_get_value_index(MPI_INT, MPI_INT, &t) == MPI_SUCCESS && t == MPI_2INT,
        "int/int pair");
  CHECK(MPI_Type_get_value_index(MPI_REAL, MPI_REAL, &t) == MPI_SUCCESS && t == MPI_2REAL,
        "real/real pair");
  CHECK(MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &t) == MPI_SUCCESS && t == MPI_DATATYPE_NULL,
        "char/int has no pair type");
}

static void model_flags(int init, int fin, const char *when) {
  int a = -1, b = -1;
  MPI_Initialized(&a);
  MPI_Finalized(&b);
  CHECK(a == init && b == fin, "%s: initialized %d finalized %d", when, a, b);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "only";
  if (strcmp(mode, "only") == 0) {
    model_flags(0, 0, "start");
    MPI_Session a = open_session("MPI_THREAD_SINGLE");
    learn_world(a);
    MPI_Session b = open_session("MPI_THREAD_MULTIPLE");
    check_psets(a);
    session_work(a, "a");
    session_work(b, "b");
    model_flags(0, 0, "sessions only");
    CHECK(MPI_Session_finalize(&a) == MPI_SUCCESS, "finalize a");
    session_work(b, "b2"); /* b outlives a */
    check_handler();
    CHECK(MPI_Session_finalize(&b) == MPI_SUCCESS, "finalize b");
    model_flags(0, 0, "end");
  } else if (strcmp(mode, "before") == 0) {
    MPI_Session s = open_session("MPI_THREAD_SINGLE");
    learn_world(s);
    MPI_Comm c = comm_from_pset(s, "mpi://WORLD", "before");
    MPI_Init(&argc, &argv);
    model_flags(1, 0, "after MPI_Init");
    int wr = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    CHECK(wr == rank, "world rank %d, pset rank %d", wr, rank);
    int all[512];
    for (int i = 0; i < size; ++i) all[i] = i;
    exercise(c, all, size, "session comm");
    exercise(MPI_COMM_WORLD, all, size, "MPI_COMM_WORLD");
    session_work(s, "before");
    MPI_Finalize();
    model_flags(1, 1, "after MPI_Finalize");
    exercise(c, all, size, "session comm after MPI_Finalize");
    MPI_Comm_free(&c);
    check_psets(s);
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "finalize");
  } else if (strcmp(mode, "after") == 0) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Session s = open_session("MPI_THREAD_MULTIPLE");
    check_psets(s);
    session_work(s, "after");
    int all[512];
    for (int i = 0; i < size; ++i) all[i] = i;
    exercise(MPI_COMM_WORLD, all, size, "MPI_COMM_WORLD");
    check_handler();
    hw_split_check();
    dup_info_check();
    value_index_check();
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "finalize");
    exercise(MPI_COMM_WORLD, all, size, "MPI_COMM_WORLD after the session");
    MPI_Finalize();
    model_flags(1, 1, "end");
    /* impi cannot start again: the error comes back, nothing crashes */
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    CHECK(rc == MPI_ERR_OTHER, "session after the end: %d", rc);
  } else if (strcmp(mode, "reinit") == 0) {
    MPI_Session s = open_session("MPI_THREAD_SINGLE");
    learn_world(s);
    session_work(s, "first");
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "finalize");
    model_flags(0, 0, "between");
    MPI_Init(&argc, &argv);
    int all[512];
    for (int i = 0; i < size; ++i) all[i] = i;
    exercise(MPI_COMM_WORLD, all, size, "MPI_COMM_WORLD");
    s = open_session("MPI_THREAD_SINGLE");
    session_work(s, "second");
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "finalize 2");
    MPI_Finalize();
  } else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  return failures ? 1 : 0;
}
