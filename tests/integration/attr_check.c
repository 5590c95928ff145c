/* attr_check.c - attribute caching: keyvals with copy/delete callbacks on
 * communicators and datatypes (called exactly when MPI-3.1 6.7 says), the
 * MPI-1 forms, the predefined attributes of MPI_COMM_WORLD, and IMPI's
 * client/host attributes on every communicator (checked against the world
 * colors gathered from every rank). argv[1] = the expected MPI_TAG_UB,
 * argv[2] = the number of IMPI clients; ATTR_CHECK_HOST_PER_PROC=1: every
 * proc is an IMPI host of its own (split hosts). Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;
#include "check.h"

static int copies, deletes, self_deleted, type_copies, type_deletes;
static int copy_plus_one(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c;
  (void)k;
  CHECK(extra == &copies, "copy callback: extra_state %p", extra);
  ++copies;
  *(void **)out = (void *)((char *)in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}
static int count_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)c;
  (void)k;
  (void)v;
  (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}
static int self_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)k;
  (void)v;
  (void)extra;
  int initialized = 0, finalized = 1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  self_deleted = c == MPI_COMM_SELF && initialized && !finalized;
  return MPI_SUCCESS;
}
/* Records the order MPI_Finalize deletes MPI_COMM_SELF's attributes in
 * (the value says which), and that MPI still works then (a barrier). */
static int self_order[3], self_seen;
static int ordered_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)c;
  (void)k;
  (void)extra;
  if (self_seen < 3) self_order[self_seen++] = (int)(long)v;
  return MPI_Barrier(MPI_COMM_WORLD);
}
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag) {
  (void)t;
  (void)k;
  (void)extra;
  ++type_copies;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void *v, void *extra) {
  (void)t;
  (void)k;
  (void)v;
  (void)extra;
  ++type_deletes;
  return MPI_SUCCESS;
}

static int info_handler_ok;
static void info_handler(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
  MPI_Info i;
  if (MPI_Info_create(&i) == MPI_SUCCESS && MPI_Info_free(&i) == MPI_SUCCESS) ++info_handler_ok;
}

/* IMPI_CLIENT_SIZE/COLOR of `c` against what the world colors say. */
static void check_impi_attrs(MPI_Comm c, const int *world_color, const char *what) {
  int *v, flag = 0, n, r;
  MPI_Comm_size(c, &n);
  MPI_Comm_rank(c, &r);
  MPI_Group g, wg;
  MPI_Comm_group(c, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int seen[64] = {0}, distinct = 0, mine = world_color[rank], below = 0;
  for (int i = 0; i < n; ++i) {
    int w;
    MPI_Group_translate_ranks(g, 1, &i, wg, &w);
    if (!seen[world_color[w]]++) {
      ++distinct;
      if (world_color[w] < mine) ++below;
    }
  }
  MPI_Comm_get_attr(c, IMPI_CLIENT_SIZE, &v, &flag);
  CHECK(flag && *v == distinct, "%s: IMPI_CLIENT_SIZE %d, expected %d", what, flag ? *v : -1,
        distinct);
  MPI_Comm_get_attr(c, IMPI_CLIENT_COLOR, &v, &flag);
  CHECK(flag && *v == below, "%s: IMPI_CLIENT_COLOR %d, expected %d", what, flag ? *v : -1, below);
  /* One host per client, or (ATTR_CHECK_HOST_PER_PROC=1: split hosts) one
   * per proc, ordered as the world ranks. */
  int hosts = distinct, host_below = below;
  if (getenv("ATTR_CHECK_HOST_PER_PROC")) {
    hosts = n;
    host_below = 0;
    for (int i = 0; i < n; ++i) {
      int w;
      MPI_Group_translate_ranks(g, 1, &i, wg, &w);
      if (w < rank) ++host_below;
    }
  }
  MPI_Comm_get_attr(c, IMPI_HOST_SIZE, &v, &flag);
  CHECK(flag && *v == hosts, "%s: IMPI_HOST_SIZE %d, expected %d", what, flag ? *v : -1, hosts);
  MPI_Comm_get_attr(c, IMPI_HOST_COLOR, &v, &flag);
  CHECK(flag && *v == host_below, "%s: IMPI_HOST_COLOR %d, expected %d", what, flag ? *v : -1,
        host_below);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int want_tag_ub = argc > 1 ? atoi(argv[1]) : 2147483647, nclients = argc > 2 ? atoi(argv[2]) : 1;
  int want_universe = argc > 3 ? atoi(argv[3]) : 0; /* 0: not set */
  int *v, flag = 0;

  /* predefined attributes */
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
  CHECK(flag && *v == want_tag_ub, "MPI_TAG_UB %d, expected %d", flag ? *v : -1, want_tag_ub);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
  CHECK(want_universe ? flag && *v == want_universe : !flag,
        "MPI_UNIVERSE_SIZE %d (flag %d), expected %d", flag ? *v : -1, flag, want_universe);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag);
  CHECK(flag && *v == 0, "MPI_APPNUM %d", flag ? *v : -1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &v, &flag);
  CHECK(flag && *v == MPI_PROC_NULL, "MPI_HOST %d", flag ? *v : -1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &v, &flag);
  CHECK(flag && *v == MPI_ANY_SOURCE, "MPI_IO %d", flag ? *v : -1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
  CHECK(flag && (*v == 0 || *v == 1), "MPI_WTIME_IS_GLOBAL");
  MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag); /* MPI-1 form */
  CHECK(flag && *v == want_tag_ub, "MPI_Attr_get(MPI_TAG_UB)");
  MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &v, &flag);
  CHECK(!flag, "MPI_TAG_UB on MPI_COMM_SELF");

  /* IMPI attributes on WORLD, SELF and derived communicators */
  int world_color[64];
  MPI_Comm_get_attr(MPI_COMM_WORLD, IMPI_CLIENT_COLOR, &v, &flag);
  MPI_Allgather(v, 1, MPI_INT, world_color, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 1; i < size; ++i)
    CHECK(world_color[i] >= world_color[i - 1], "client colors not in world order");
  CHECK(world_color[size - 1] == nclients - 1, "last rank's client color %d, expected %d",
        world_color[size - 1], nclients - 1);
  check_impi_attrs(MPI_COMM_WORLD, world_color, "world");
  check_impi_attrs(MPI_COMM_SELF, world_color, "self");
  MPI_Comm odd_even, pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd_even);
  check_impi_attrs(odd_even, world_color, "even/odd split");
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &pair);
  check_impi_attrs(pair, world_color, "pairs");

  /* user keyvals on communicators */
  int kcopy, knull, kdup, kself, kold;
  MPI_Comm_create_keyval(copy_plus_one, count_delete, &kcopy, &copies);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &knull, NULL);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL);
  MPI_Comm_set_attr(pair, kcopy, (void *)100);
  MPI_Comm_set_attr(pair, knull, (void *)200);
  MPI_Comm_set_attr(pair, kdup, (void *)300);
  MPI_Comm_set_attr(pair, kcopy, (void *)101); /* replaces: the old value is deleted */
  CHECK(deletes == 1, "replacing an attribute: %d delete calls", deletes);
  MPI_Comm d;
  MPI_Comm_dup(pair, &d);
  CHECK(copies == 1, "Comm_dup: %d copy calls", copies);
  void *got;
  MPI_Comm_get_attr(d, kcopy, &got, &flag);
  CHECK(flag && got == (void *)102, "copied attribute %p", got);
  MPI_Comm_get_attr(d, knull, &got, &flag);
  CHECK(!flag, "MPI_COMM_NULL_COPY_FN attribute was copied");
  MPI_Comm_get_attr(d, kdup, &got, &flag);
  CHECK(flag && got == (void *)300, "MPI_COMM_DUP_FN attribute %p", got);
  MPI_Comm_delete_attr(d, kcopy);
  CHECK(deletes == 2, "Comm_delete_attr: %d delete calls", deletes);
  MPI_Comm_free_keyval(&knull);
  CHECK(knull == MPI_KEYVAL_INVALID, "free_keyval leaves MPI_KEYVAL_INVALID");
  MPI_Comm_get_attr(pair, kcopy, &got, &flag); /* still there */
  CHECK(flag && got == (void *)101, "attribute on the original %p", got);
  MPI_Comm_free(&d);
  CHECK(deletes == 2, "Comm_free of the dup: %d delete calls (no attribute of kcopy left)",
        deletes);
  MPI_Comm_free(&pair); /* kcopy and the freed knull's attributes are deleted */
  CHECK(deletes == 4, "Comm_free: %d delete calls, expected 4", deletes);
  int cls = -1;
  MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, 12345, NULL), &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "an invalid keyval: class %d", cls);
  MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &kold, NULL); /* MPI-1 */
  MPI_Attr_put(MPI_COMM_WORLD, kold, (void *)7);
  MPI_Attr_get(MPI_COMM_WORLD, kold, &got, &flag);
  CHECK(flag && got == (void *)7, "MPI_Attr_get %p", got);
  MPI_Attr_delete(MPI_COMM_WORLD, kold);
  MPI_Keyval_free(&kold);
  MPI_Comm_free_keyval(&kcopy);
  MPI_Comm_free_keyval(&kdup);
  MPI_Comm_free(&odd_even);

  /* datatypes */
  int kt;
  MPI_Datatype t, t2;
  MPI_Type_create_keyval(type_copy, type_delete, &kt, NULL);
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_set_attr(t, kt, (void *)9);
  MPI_Type_dup(t, &t2);
  MPI_Type_get_attr(t2, kt, &got, &flag);
  CHECK(type_copies == 1 && flag && got == (void *)9, "Type_dup: %d copies, attribute %p",
        type_copies, got);
  MPI_Type_free(&t);
  MPI_Type_free(&t2);
  CHECK(type_deletes == 2, "Type_free: %d delete calls", type_deletes);
  MPI_Type_free_keyval(&kt);

  /* info objects */
  {
    MPI_Info info, dup;
    char value[16], key[MPI_MAX_INFO_KEY + 1];
    int nkeys = -1, len = -1;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alpha", "1");
    MPI_Info_set(info, "beta", "a longer value");
    MPI_Info_set(info, "alpha", "2"); /* replaces, keeps its place */
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 2, "info: %d keys", nkeys);
    MPI_Info_get_nthkey(info, 0, key);
    CHECK(strcmp(key, "alpha") == 0, "info: key 0 is %s", key);
    MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag);
    CHECK(flag && strcmp(value, "2") == 0, "info: alpha = %s", value);
    MPI_Info_get(info, "beta", 4, value, &flag); /* truncated to 4 characters */
    CHECK(flag && strcmp(value, "a lo") == 0, "info: truncated beta = %s", value);
    MPI_Info_get_valuelen(info, "beta", &len, &flag);
    CHECK(flag && len == 14, "info: valuelen %d", len);
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(info, "alpha");
    MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag);
    CHECK(!flag, "info: deleted key still there");
    MPI_Info_get(dup, "alpha", sizeof value - 1, value, &flag);
    CHECK(flag, "info: the dup lost a key");
    MPI_Error_class(MPI_Info_delete(info, "alpha"), &cls);
    CHECK(cls == MPI_ERR_INFO_NOKEY, "info: deleting a missing key: class %d", cls);
    MPI_Error_class(MPI_Info_set(info, "", "x"), &cls);
    CHECK(cls == MPI_ERR_INFO_KEY, "info: empty key: class %d", cls);
    MPI_Comm_set_info(MPI_COMM_WORLD, dup);
    MPI_Info used;
    MPI_Comm_get_info(MPI_COMM_WORLD, &used);
    MPI_Info_get_nkeys(used, &nkeys);
    CHECK(nkeys == 2, "Comm_get_info: %d keys", nkeys);
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof value - 1, value, &flag);
    CHECK(flag && atoi(value) == size, "MPI_INFO_ENV maxprocs %s", flag ? value : "(none)");
    /* an error handler that itself uses MPI_Info (the info table is not locked against it) */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(info_handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Info_delete(info, "no such key");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    CHECK(info_handler_ok == 1, "an error handler calling MPI_Info_create: %d", info_handler_ok);
    MPI_Info_free(&info);
    MPI_Info_free(&dup);
    MPI_Info_free(&used);
    CHECK(info == MPI_INFO_NULL, "Info_free leaves MPI_INFO_NULL");
    MPI_Error_class(MPI_Info_get_nkeys(info, &nkeys), &cls);
    CHECK(cls == MPI_ERR_INFO, "a freed info: class %d", cls);
  }

  /* user error classes, codes and strings */
  {
    int ecls, ecode, got_cls = -1, len = 0, *last;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&ecls);
    MPI_Add_error_code(ecls, &ecode);
    MPI_Add_error_string(ecode, "the frobnicator jammed");
    CHECK(ecls > MPI_ERR_LASTCODE && ecode > ecls, "user class %d, code %d", ecls, ecode);
    MPI_Error_class(ecode, &got_cls);
    CHECK(got_cls == ecls, "class of the user code: %d, expected %d", got_cls, ecls);
    MPI_Error_string(ecode, text, &len);
    CHECK(strcmp(text, "the frobnicator jammed") == 0, "user error string: %s", text);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    CHECK(flag && *last >= ecode, "MPI_LASTUSEDCODE %d", flag ? *last : -1);
    MPI_Error_class(MPI_Add_error_string(MPI_ERR_TAG, "mine"), &got_cls);
    CHECK(got_cls == MPI_ERR_ARG, "a string for a predefined code: class %d", got_cls);
    int rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, ecode); /* MPI_ERRORS_RETURN: returns */
    CHECK(rc == MPI_SUCCESS, "Comm_call_errhandler returned %d", rc);
  }

  /* MPI_COMM_SELF's attributes go first in MPI_Finalize */
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &kself, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, kself, NULL);
  {
    /* ... in the reverse order of setting, whatever the keyvals' order */
    int ka, kb, kc;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ordered_delete, &ka, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ordered_delete, &kb, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ordered_delete, &kc, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, kb, (void *)1L);
    MPI_Comm_set_attr(MPI_COMM_SELF, kc, (void *)2L);
    MPI_Comm_set_attr(MPI_COMM_SELF, ka, (void *)3L);
    {
      int copy = kc, rc, cls;
      MPI_Comm_free_keyval(&kc);        /* still used: stays valid for its attribute */
      rc = MPI_Comm_free_keyval(&copy); /* a copy freed again meanwhile: nothing changes */
      CHECK(rc == MPI_SUCCESS && copy == MPI_KEYVAL_INVALID, "second free of a keyval in use: %d",
            rc);
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &copy, NULL);
      kc = copy;
      MPI_Comm_free_keyval(&copy);
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      rc = MPI_Comm_free_keyval(&kc); /* unused and freed: gone */
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_KEYVAL, "second free of an unused keyval: class %d", cls);
    }
  }
  MPI_Finalize();
  CHECK(self_deleted == 1,
        "MPI_COMM_SELF's attribute was not deleted at the start of MPI_Finalize");
  CHECK(self_seen == 3 && self_order[0] == 3 && self_order[1] == 2 && self_order[2] == 1,
        "MPI_COMM_SELF's attributes deleted in the order %d %d %d (%d seen), want 3 2 1",
        self_order[0], self_order[1], self_order[2], self_seen);
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
