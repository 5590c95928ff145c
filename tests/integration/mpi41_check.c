/* MPI-4.1's small calls: MPI_Status_set/get_source/tag/error,
 * MPI_Info_get_string, MPI_Info_create_env, MPI_Request_get_status_any/
 * all/some, MPI_Remove_error_class/code/string, MPI_Comm_idup_with_info,
 * the MPI-4 error classes and their strings, MPI_ERRORS_ABORT (with the
 * argument "abort": rank size-1 raises an error on MPI_COMM_SELF, whose
 * handler is MPI_ERRORS_ABORT: the job ends with the error class). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, rank, size;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

/* Keys of MPI_Info_create_env whose values match between two infos
 * (either both without the key, or the same value); the first that does
 * not in *bad. */
static int env_matches(MPI_Info a, MPI_Info b, const char **bad) {
  static const char *keys[] = {"command", "argv", "maxprocs",    "host",
                               "arch",    "wdir", "thread_level"};
  for (int i = 0; i < 7; ++i) {
    char va[MPI_MAX_INFO_VAL], vb[MPI_MAX_INFO_VAL];
    int la = sizeof va, lb = sizeof vb, fa = 0, fb = 0;
    MPI_Info_get_string(a, keys[i], &la, va, &fa);
    MPI_Info_get_string(b, keys[i], &lb, vb, &fb);
    if (fa != fb || (fa && strcmp(va, vb) != 0)) {
      *bad = keys[i];
      return 0;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  /* MPI_Info_create_env before MPI_Init (MPI-4.0 11.2.3): the same as after
   * it and after MPI_Finalize. */
  MPI_Info env_before;
  MPI_Info_create_env(argc, argv, &env_before);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  if (argc > 1 && strcmp(argv[1], "abort") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh);
    CHECK(eh == MPI_ERRORS_ABORT, "MPI_Comm_get_errhandler");
    MPI_Errhandler_free(&eh);
    if (rank == size - 1) {
      int x = 0;
      MPI_Send(&x, 1, MPI_INT, 5, 0, MPI_COMM_SELF); /* no rank 5: MPI_ERR_RANK, aborts */
      fprintf(stderr, "rank %d: MPI_ERRORS_ABORT returned\n", rank);
      return 3;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* (ended by the abort) */
    MPI_Finalize();
    return 4;
  }

  /* Status fields. */
  {
    MPI_Status st;
    MPI_Status_set_source(&st, 3);
    MPI_Status_set_tag(&st, 44);
    MPI_Status_set_error(&st, MPI_ERR_TAG);
    MPI_Status_set_elements(&st, MPI_INT, 7);
    int s = -1, t = -1, e = -1, n = -1;
    MPI_Status_get_source(&st, &s);
    MPI_Status_get_tag(&st, &t);
    MPI_Status_get_error(&st, &e);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(s == 3 && t == 44 && e == MPI_ERR_TAG && n == 7, "status %d %d %d %d", s, t, e, n);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 44 && st.MPI_ERROR == MPI_ERR_TAG, "fields");
  }

  /* Info_get_string, Info_create_env. */
  {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "color", "turquoise");
    int flag = 0, len = 0;
    char buf[64];
    MPI_Info_get_string(info, "color", &len, NULL, &flag);
    CHECK(flag && len == 10, "length query: flag %d len %d", flag, len);
    len = 4;
    MPI_Info_get_string(info, "color", &len, buf, &flag);
    CHECK(flag && len == 10 && strcmp(buf, "tur") == 0, "truncated: %d '%s'", len, buf);
    len = sizeof buf;
    MPI_Info_get_string(info, "color", &len, buf, &flag);
    CHECK(flag && len == 10 && strcmp(buf, "turquoise") == 0, "full: %d '%s'", len, buf);
    len = sizeof buf;
    MPI_Info_get_string(info, "size", &len, buf, &flag);
    CHECK(!flag, "a missing key was found");
    MPI_Info_free(&info);
    MPI_Info_create_env(argc, argv, &info);
    len = sizeof buf;
    MPI_Info_get_string(info, "maxprocs", &len, buf, &flag);
    CHECK(flag && atoi(buf) == size, "create_env maxprocs: %d '%s'", flag, buf);
    len = sizeof buf;
    MPI_Info_get_string(info, "command", &len, buf, &flag);
    CHECK(flag && strcmp(buf, argv[0]) == 0, "create_env command: %d '%s'", flag, buf);
    len = sizeof buf;
    MPI_Info_get_string(info, "argv", &len, buf, &flag);
    CHECK(flag == (argc > 1) && (argc < 2 || strcmp(buf, argv[1]) == 0), "create_env argv: %d '%s'",
          flag, buf);
    const char *bad = "";
    CHECK(env_matches(info, env_before, &bad), "create_env before MPI_Init differs: %s", bad);
    MPI_Info_free(&info);
    /* MPI_INFO_ENV holds the same (MPI_Init requested no thread level). */
    CHECK(env_matches(MPI_INFO_ENV, env_before, &bad), "MPI_INFO_ENV differs: %s", bad);
  }

  /* Error classes, codes and strings: the MPI-4 classes, and removal. */
  {
    const int classes[] = {MPI_ERR_SESSION,    MPI_ERR_PROC_ABORTED,     MPI_ERR_VALUE_TOO_LARGE,
                           MPI_ERR_ERRHANDLER, MPI_T_ERR_NOT_ACCESSIBLE, MPI_T_ERR_NOT_SUPPORTED};
    for (int i = 0; i < 6; ++i) {
      char s[MPI_MAX_ERROR_STRING];
      int len = 0, cls = -1;
      CHECK(classes[i] > 0 && classes[i] <= MPI_ERR_LASTCODE, "class %d", classes[i]);
      MPI_Error_string(classes[i], s, &len);
      CHECK(len > 0 && strcmp(s, "unknown error") != 0, "class %d: '%s'", classes[i], s);
      MPI_Error_class(classes[i], &cls);
      CHECK(cls == classes[i], "MPI_Error_class(%d) = %d", classes[i], cls);
    }
    int cls, code, rc, ecls = -1;
    /* An invalid error handler is MPI_ERR_ERRHANDLER (MPI-4.1). */
    MPI_Errhandler bad = MPI_ERRHANDLER_NULL;
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ERRHANDLER, "Comm_set_errhandler(NULL handler): %d", ecls);
    rc = MPI_Errhandler_free(&bad);
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ERRHANDLER, "Errhandler_free(NULL handler): %d", ecls);
    /* MPICH 4.0's names for MPI_Remove_error_*: MPIX_Delete_error_*. */
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "x");
    CHECK(MPIX_Delete_error_string(code) == MPI_SUCCESS, "MPIX_Delete_error_string");
    CHECK(MPIX_Delete_error_code(code) == MPI_SUCCESS, "MPIX_Delete_error_code");
    CHECK(MPIX_Delete_error_class(cls) == MPI_SUCCESS, "MPIX_Delete_error_class");
    rc = MPIX_Delete_error_class(cls); /* gone already */
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ARG, "deleting a class twice: %d", ecls);
    /* Adding and removing in a loop (as MPICH's errhan/adderr, 10000 x 32
     * classes of 5 codes) takes removed codes again: the codes stay few. */
    {
      int top = 0, bad = 0, c2, k2[5];
      for (int k = 0; k < 20000; ++k) {
        MPI_Add_error_class(&c2);
        for (int j = 0; j < 5; ++j) {
          MPI_Add_error_code(c2, &k2[j]);
          MPI_Add_error_string(k2[j], "loop");
          if (k2[j] > top) top = k2[j];
        }
        rc = MPI_Remove_error_class(c2); /* its codes are still there */
        MPI_Error_class(rc, &ecls);
        if (k == 0) CHECK(ecls == MPI_ERR_ARG, "removing a class with codes: %d", ecls);
        for (int j = 0; j < 5; ++j) {
          MPI_Remove_error_string(k2[j]);
          MPI_Remove_error_code(k2[j]);
        }
        if (MPI_Remove_error_class(c2) != MPI_SUCCESS) ++bad;
        if (c2 > top) top = c2;
      }
      CHECK(bad == 0, "%d class removals in the loop failed", bad);
      CHECK(top <= MPI_ERR_LASTCODE + 16, "codes up to %d after 20000 rounds", top);
    }
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "my code");
    MPI_Add_error_string(cls, "my class");
    rc = MPI_Remove_error_class(cls); /* a code still uses it */
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ARG, "removing a class with codes: %d", ecls);
    rc = MPI_Remove_error_code(MPI_ERR_TAG); /* predefined */
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ARG, "removing a predefined code: %d", ecls);
    CHECK(MPI_Remove_error_string(code) == MPI_SUCCESS, "Remove_error_string");
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    MPI_Error_string(code, s, &len);
    CHECK(len == 0, "string after removal: '%s'", s);
    CHECK(MPI_Remove_error_code(code) == MPI_SUCCESS, "Remove_error_code");
    CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS, "Remove_error_class");
    rc = MPI_Remove_error_code(code);
    MPI_Error_class(rc, &ecls);
    CHECK(ecls == MPI_ERR_ARG, "removing twice: %d", ecls);
    rc = MPI_Add_error_string(code, "again");
    CHECK(rc != MPI_SUCCESS, "a string for a removed code");
  }

  /* Request_get_status_any/all/some: nothing completes or is freed. */
  {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[2] = {-1, -1}, out = rank;
    MPI_Request r[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(&in[0], 1, MPI_INT, left, 8, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, left, 9, MPI_COMM_WORLD, &r[2]);
    int idx = -5, flag = -5, outc = -5, ind[3];
    MPI_Status st, sts[3];
    MPI_Request_get_status_any(3, r, &idx, &flag, &st);
    CHECK(!flag && idx == MPI_UNDEFINED, "any before the send: %d %d", flag, idx);
    MPI_Request_get_status_all(3, r, &flag, sts);
    CHECK(!flag, "all before the send");
    MPI_Request_get_status_some(3, r, &outc, ind, sts);
    CHECK(outc == 0, "some before the send: %d", outc);
    MPI_Barrier(MPI_COMM_WORLD); /* (every rank has looked before any sends) */
    MPI_Send(&out, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
    do MPI_Request_get_status_any(3, r, &idx, &flag, &st);
    while (!flag);
    CHECK(idx == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 8, "any: %d %d %d", idx, st.MPI_SOURCE,
          st.MPI_TAG);
    CHECK(r[0] != MPI_REQUEST_NULL, "get_status_any freed the request");
    MPI_Request_get_status_some(3, r, &outc, ind, sts);
    CHECK(outc == 1 && ind[0] == 0 && sts[0].MPI_TAG == 8 && sts[0].MPI_ERROR == MPI_SUCCESS,
          "some: %d", outc);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&out, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
    do MPI_Request_get_status_all(3, r, &flag, sts);
    while (!flag);
    CHECK(sts[0].MPI_TAG == 8 && sts[2].MPI_TAG == 9 && sts[2].MPI_SOURCE == left &&
              sts[1].MPI_SOURCE == MPI_ANY_SOURCE,
          "all: %d %d %d", sts[0].MPI_TAG, sts[2].MPI_TAG, sts[1].MPI_SOURCE);
    CHECK(r[0] != MPI_REQUEST_NULL && r[2] != MPI_REQUEST_NULL, "get_status_all freed");
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    CHECK(in[0] == left && in[1] == left, "values %d %d", in[0], in[1]);
    MPI_Request_get_status_some(3, r, &outc, ind, sts);
    CHECK(outc == MPI_UNDEFINED, "some over null requests: %d", outc);
    MPI_Request_get_status_any(3, r, &idx, &flag, &st);
    CHECK(flag && idx == MPI_UNDEFINED, "any over null requests");
  }

  /* Comm_idup_with_info: a working duplicate. */
  {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm dup;
    MPI_Request req;
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &req);
    MPI_Info_free(&info);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int sum = 0, one = rank + 1, result;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    CHECK(sum == size * (size + 1) / 2, "Allreduce on the duplicate: %d", sum);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &result);
    CHECK(result == MPI_CONGRUENT, "compare: %d", result);
    /* Its hints are the info's (freed above, after the call): the key set. */
    MPI_Info used;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0, nkeys = -1;
    MPI_Comm_get_info(dup, &used);
    MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0, "idup_with_info: hint %d '%s'", flag, v);
    MPI_Info_free(&used);
    /* A duplicate of it with MPI_INFO_NULL has none; MPI_Comm_idup keeps them. */
    MPI_Comm dup2, dup3;
    MPI_Comm_idup_with_info(dup, MPI_INFO_NULL, &dup2, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_get_info(dup2, &used);
    MPI_Info_get_nkeys(used, &nkeys);
    CHECK(nkeys == 0, "idup_with_info(MPI_INFO_NULL): %d keys", nkeys);
    MPI_Info_free(&used);
    MPI_Comm_idup(dup, &dup3, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_get_info(dup3, &used);
    flag = 0;
    MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0, "idup keeps the hints: %d '%s'", flag, v);
    MPI_Info_free(&used);
    MPI_Comm_free(&dup3);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  {
    MPI_Info after;
    const char *bad = "";
    MPI_Info_create_env(argc, argv, &after);
    CHECK(env_matches(after, env_before, &bad), "create_env after MPI_Finalize differs: %s", bad);
    MPI_Info_free(&after);
    MPI_Info_free(&env_before);
  }
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
