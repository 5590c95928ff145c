/* mpmd_check.c - one job of several programs (impirun A : B) and the
 * launcher's process sets.
 *
 * Usage: mpmd_check TAG APPNUM LAYOUT [PSET@APPS ...]
 *   TAG     this program's name in the command line ("A", "B", ...)
 *   APPNUM  the MPI_APPNUM this app context must have
 *   LAYOUT  processes per app context, in order: "3,2"
 *   PSET@APPS  a --pset name and the app contexts that gave it: "user://both@0+1"
 * Checks: MPI_APPNUM, that every rank's app context is where LAYOUT puts it,
 * the per-app variable (-x given after ':' reaches that app only), and in a
 * session: impi://app/K for every K and each PSET with exactly its apps'
 * ranks, and a communicator made from this app's set. Prints
 * "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(c, ...)                                 \
  do {                                                \
    if (!(c)) {                                       \
      fprintf(stderr, "mpmd_check: FAILED %s: ", #c); \
      fprintf(stderr, __VA_ARGS__);                   \
      fprintf(stderr, "\n");                          \
      ++failures;                                     \
    }                                                 \
  } while (0)

enum { MAX_APPS = 8 };
static int napps, app_np[MAX_APPS], app_first[MAX_APPS];

/* The world ranks of pset `name` in a session, via its group; -1 if absent. */
static int pset_members(MPI_Session s, const char *name, int *ranks, int max) {
  MPI_Group wg, g;
  if (MPI_Group_from_session_pset(s, "mpi://WORLD", &wg) != MPI_SUCCESS) return -1;
  if (MPI_Group_from_session_pset(s, name, &g) != MPI_SUCCESS) {
    MPI_Group_free(&wg);
    return -1;
  }
  int n;
  MPI_Group_size(g, &n);
  if (n > max) n = max;
  int *idx = malloc(sizeof(int) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; ++i) idx[i] = i;
  MPI_Group_translate_ranks(g, n, idx, wg, ranks);
  free(idx);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  return n;
}

/* Does the set hold exactly the ranks of the apps in mask, in order? */
static int is_apps(const int *ranks, int n, unsigned mask) {
  int k = 0;
  for (int a = 0; a < napps; ++a) {
    if (!(mask & (1u << a))) continue;
    for (int i = 0; i < app_np[a]; ++i, ++k)
      if (k >= n || ranks[k] != app_first[a] + i) return 0;
  }
  return k == n;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: mpmd_check TAG APPNUM LAYOUT [PSET@APPS ...]\n");
    return 2;
  }
  const char *tag = argv[1];
  int my_app = atoi(argv[2]);
  for (char *p = argv[3]; *p && napps < MAX_APPS; ++napps) {
    app_np[napps] = (int)strtol(p, &p, 10);
    app_first[napps] = napps ? app_first[napps - 1] + app_np[napps - 1] : 0;
    if (*p == ',') ++p;
  }
  int total = app_first[napps - 1] + app_np[napps - 1];

  MPI_Init(&argc, &argv);
  int rank, size, flag, *appnum;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == total, "world size %d, layout says %d", size, total);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  CHECK(flag && *appnum == my_app, "MPI_APPNUM %d (flag %d), expected %d", flag ? *appnum : -1,
        flag, my_app);

  /* Where the layout puts each rank, and what each rank says it runs. */
  int *apps = malloc(sizeof(int) * (size_t)size);
  MPI_Allgather(&my_app, 1, MPI_INT, apps, 1, MPI_INT, MPI_COMM_WORLD);
  for (int a = 0; a < napps; ++a)
    for (int i = 0; i < app_np[a]; ++i)
      CHECK(apps[app_first[a] + i] == a, "rank %d runs app %d, expected %d", app_first[a] + i,
            apps[app_first[a] + i], a);
  free(apps);

  /* -x after ':' is that app's (MPMD_APP=TAG); -x before the first program everyone's. */
  const char *mine = getenv("MPMD_APP");
  if (my_app == 0)
    CHECK(mine == NULL, "app 0 has MPMD_APP=%s", mine);
  else
    CHECK(mine && strcmp(mine, tag) == 0, "MPMD_APP=%s, expected %s", mine ? mine : "(unset)", tag);
  const char *all = getenv("MPMD_ALL");
  CHECK(all && strcmp(all, "1") == 0, "MPMD_ALL not set");

  /* The launcher's process sets in a session. */
  MPI_Session s;
  CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS, "Session_init");
  int npsets = 0;
  MPI_Session_get_num_psets(s, MPI_INFO_NULL, &npsets);
  CHECK(npsets >= 2 + napps, "%d process sets, expected at least %d", npsets, 2 + napps);
  int *ranks = malloc(sizeof(int) * (size_t)size);
  for (int a = 0; a < napps; ++a) {
    char name[64];
    snprintf(name, sizeof name, "impi://app/%d", a);
    int n = pset_members(s, name, ranks, size);
    CHECK(n >= 0 && is_apps(ranks, n, 1u << a), "%s: %d members, not app %d's ranks", name, n, a);
  }
  for (int i = 4; i < argc; ++i) {
    char name[256];
    snprintf(name, sizeof name, "%s", argv[i]);
    char *at = strchr(name, '@');
    if (!at) continue;
    *at = '\0';
    unsigned mask = 0;
    for (char *p = at + 1; *p;) {
      mask |= 1u << strtol(p, &p, 10);
      if (*p == '+') ++p;
    }
    int n = pset_members(s, name, ranks, size);
    CHECK(n >= 0 && is_apps(ranks, n, mask), "%s: %d members, not apps 0x%x", name, n, mask);
    /* The pset info says its size. */
    MPI_Info info;
    if (MPI_Session_get_pset_info(s, name, &info) == MPI_SUCCESS) {
      char v[32];
      int vl = sizeof v, f = 0;
      MPI_Info_get_string(info, "mpi_size", &vl, v, &f);
      CHECK(f && atoi(v) == n, "%s: mpi_size %s, %d members", name, f ? v : "(none)", n);
      MPI_Info_free(&info);
    }
  }
  free(ranks);
  int bad = MPI_Group_from_session_pset(s, "impi://app/99", &(MPI_Group){MPI_GROUP_NULL});
  CHECK(bad != MPI_SUCCESS, "impi://app/99 exists");

  /* A communicator of this app's ranks, from its set. */
  char mine_set[64];
  snprintf(mine_set, sizeof mine_set, "impi://app/%d", my_app);
  MPI_Group g;
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Group_from_session_pset(s, mine_set, &g);
  CHECK(MPI_Comm_create_from_group(g, "mpmd_check", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) ==
            MPI_SUCCESS,
        "Comm_create_from_group");
  int csize = 0, sum = 0, one = 1;
  MPI_Comm_size(c, &csize);
  CHECK(csize == app_np[my_app], "app comm size %d, expected %d", csize, app_np[my_app]);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == app_np[my_app], "app comm sum %d", sum);
  MPI_Comm_free(&c);
  MPI_Group_free(&g);
  MPI_Session_finalize(&s);

  int failed = 0;
  MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
