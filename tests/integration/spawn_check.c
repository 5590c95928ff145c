/* spawn_check.c - MPI_Comm_spawn and friends. Modes (argv[1]):
 *   parent N [nested]  every parent rank spawns (root 0 on MPI_COMM_WORLD)
 *                      N children of this program; parents and children
 *                      exchange messages (standard and synchronous), run
 *                      collectives on the intercommunicator and on the
 *                      merged one, then disconnect. "nested": child 0's
 *                      world spawns a grandchild, which talks to it.
 *   multiple N M       MPI_Comm_spawn_multiple: N copies of this program
 *                      and M of spawn_child2 (argv[2..]: the path), one
 *                      child world; MPI_APPNUM 0 and 1.
 *   missing            spawning a program that does not exist fails with
 *                      MPI_ERR_SPAWN and per-proc codes; the job goes on.
 *   selfonly           (multi-client jobs) spawn on MPI_COMM_WORLD is
 *                      refused with MPI_ERR_UNSUPPORTED_OPERATION; each
 *                      rank then spawns one child from MPI_COMM_SELF.
 *   names              two spawned jobs meet through a published name.
 *   childdies          the child exits with code 3 without MPI_Finalize.
 *   iccreate           rank 0 alone spawns 2 children (MPI_COMM_SELF), so
 *                      the other parents know nothing of them; then
 *                      MPI_Intercomm_create joins the parents' world and
 *                      the children's over that intercommunicator: every
 *                      parent and child exchange messages, Allreduce on
 *                      it, merge it, and MPI_Comm_disconnect sends what is
 *                      left before anyone exits.
 *   iccreate refused   (multi-client jobs) the same MPI_Intercomm_create
 *                      fails on every parent and child with
 *                      MPI_ERR_UNSUPPORTED_OPERATION: it would join procs of
 *                      another job with procs of several IMPI clients.
 * Parents print "rank r of n ok"; children "child r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, failures;
#include "check.h"

static const char *self_path;

static void exchange(MPI_Comm inter, int parent_side) {
  int lrank, lsize, rsize;
  MPI_Comm_rank(inter, &lrank);
  MPI_Comm_size(inter, &lsize);
  MPI_Comm_remote_size(inter, &rsize);
  /* Every proc sends one value to every remote proc (even local ranks by
   * MPI_Ssend), and receives one from each. */
  MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)rsize);
  int *in = malloc(sizeof(int) * (size_t)rsize), *out = malloc(sizeof(int) * (size_t)rsize);
  for (int r = 0; r < rsize; ++r) MPI_Irecv(&in[r], 1, MPI_INT, r, 7, inter, &rq[r]);
  for (int r = 0; r < rsize; ++r) {
    out[r] = (parent_side ? 50000 : 0) + lrank * 100 + r;
    if (lrank % 2 == 0)
      MPI_Ssend(&out[r], 1, MPI_INT, r, 7, inter);
    else
      MPI_Send(&out[r], 1, MPI_INT, r, 7, inter);
  }
  MPI_Status st[64];
  MPI_Waitall(rsize, rq, rsize <= 64 ? st : MPI_STATUSES_IGNORE);
  for (int r = 0; r < rsize; ++r) {
    CHECK(in[r] == (parent_side ? 0 : 50000) + r * 100 + lrank, "value from remote %d: %d", r,
          in[r]);
    if (rsize <= 64)
      CHECK(st[r].MPI_SOURCE == r && st[r].MPI_TAG == 7, "status from remote %d: %d/%d", r,
            st[r].MPI_SOURCE, st[r].MPI_TAG);
  }
  /* A large message both ways between the two rank 0s. */
  if (lrank == 0) {
    int n = 1 << 20;
    int *big = malloc(sizeof(int) * (size_t)n), *back = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) big[i] = i ^ (parent_side ? 0x5a5a : 0x3c3c);
    MPI_Sendrecv(big, n, MPI_INT, 0, 8, back, n, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += back[i] != (i ^ (parent_side ? 0x3c3c : 0x5a5a));
    CHECK(bad == 0, "4 MiB message: %d wrong ints", bad);
    free(big);
    free(back);
  }
  /* Collectives on the intercommunicator: Bcast from parent rank 0,
   * Allreduce (each side gets the sum over the other), Barrier. */
  int v = parent_side && lrank == 0 ? 4242 : -1;
  int root = parent_side ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Bcast(&v, 1, MPI_INT, root, inter);
  if (!parent_side) CHECK(v == 4242, "intercommunicator Bcast: %d", v);
  int mine = (parent_side ? 1000 : 1) * (lrank + 1), sum = -1;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
  int want = (parent_side ? 1 : 1000) * rsize * (rsize + 1) / 2;
  CHECK(sum == want, "intercommunicator Allreduce: %d, not %d", sum, want);
  MPI_Barrier(inter);
  /* Merge: parents low, children high. */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, parent_side ? 0 : 1, &merged);
  int mrank, msize;
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  int psize = parent_side ? lsize : rsize;
  CHECK(msize == lsize + rsize, "merged size %d", msize);
  CHECK(mrank == (parent_side ? lrank : psize + lrank), "merged rank %d", mrank);
  int *all = malloc(sizeof(int) * (size_t)msize);
  MPI_Allgather(&mrank, 1, MPI_INT, all, 1, MPI_INT, merged);
  for (int i = 0; i < msize; ++i) CHECK(all[i] == i, "merged Allgather[%d] = %d", i, all[i]);
  int total = -1;
  MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged);
  CHECK(total == msize * (msize - 1) / 2, "merged Allreduce %d", total);
  MPI_Comm dup;
  MPI_Comm_dup(merged, &dup); /* a context id both jobs agree on */
  MPI_Barrier(dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&merged);
  free(all);
  free(rq);
  free(in);
  free(out);
}

static int child_main(int argc, char **argv) {
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  CHECK(parent != MPI_COMM_NULL, "a spawned child has no parent");
  int *appnum = NULL, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  CHECK(flag && *appnum == 0, "MPI_APPNUM %d", flag ? *appnum : -1);
  CHECK(argc >= 4 && strcmp(argv[3], "tok en") == 0, "argv[3] is '%s'",
        argc >= 4 ? argv[3] : "(none)");
  const char *e = getenv("SPAWN_CHECK_ENV");
  CHECK(e && strcmp(e, "yes") == 0, "info env: SPAWN_CHECK_ENV=%s", e ? e : "(unset)");
  char cwd[4096];
  CHECK(getcwd(cwd, sizeof cwd) && strcmp(cwd, "/tmp") == 0, "info wdir: cwd %s", cwd);
  if (parent == MPI_COMM_NULL) return 1;
  if (argc >= 5 && strcmp(argv[4], "die") == 0) exit(3);
  exchange(parent, 0);
  if (argc >= 5 && strcmp(argv[4], "nested") == 0) {
    /* This world spawns one grandchild ("grandchild" mode). */
    char *args[] = {"grandchild", NULL};
    MPI_Comm gc;
    int code = -1;
    MPI_Comm_spawn(self_path, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &gc, &code);
    CHECK(code == MPI_SUCCESS, "nested spawn code %d", code);
    int v = rank == 0 ? 777 : 0;
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 0, 9, gc);
    if (rank == 0) {
      MPI_Recv(&v, 1, MPI_INT, 0, 10, gc, MPI_STATUS_IGNORE);
      CHECK(v == 778, "grandchild answered %d", v);
    }
    MPI_Comm_disconnect(&gc);
  }
  MPI_Comm_disconnect(&parent);
  CHECK(parent == MPI_COMM_NULL, "disconnect left the handle");
  MPI_Comm_get_parent(&parent);
  CHECK(parent == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
  MPI_Finalize();
  if (failures) return 1;
  printf("child %d of %d ok\n", rank, size);
  return 0;
}

static int grandchild_main(void) {
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  CHECK(parent != MPI_COMM_NULL, "the grandchild has no parent");
  int v = 0;
  MPI_Recv(&v, 1, MPI_INT, 0, 9, parent, MPI_STATUS_IGNORE);
  CHECK(v == 777, "grandchild got %d", v);
  v = 778;
  MPI_Send(&v, 1, MPI_INT, 0, 10, parent);
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  if (failures) return 1;
  printf("grandchild %d of %d ok\n", rank, size);
  return 0;
}

/* "names" mode, a spawned job: "server" publishes a port, "client" looks it up. */
static int names_main(const char *role) {
  MPI_Comm parent, other;
  MPI_Comm_get_parent(&parent);
  int v = 0;
  if (strcmp(role, "server") == 0) {
    char port[MPI_MAX_PORT_NAME];
    MPI_Open_port(MPI_INFO_NULL, port);
    CHECK(MPI_Publish_name("spawn-check-service", MPI_INFO_NULL, port) == MPI_SUCCESS, "publish");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Publish_name("spawn-check-service", MPI_INFO_NULL, port), &cls);
    CHECK(cls == MPI_ERR_SERVICE, "publishing twice: class %d", cls);
    {
      /* any string may be published and looked up, as both peers allow */
      char got[MPI_MAX_PORT_NAME] = "";
      CHECK(MPI_Publish_name("spawn-check-any", MPI_INFO_NULL, "otherhost:122") == MPI_SUCCESS,
            "publish a string");
      CHECK(MPI_Lookup_name("spawn-check-any", MPI_INFO_NULL, got) == MPI_SUCCESS &&
                strcmp(got, "otherhost:122") == 0,
            "lookup of a string: %s", got);
      CHECK(MPI_Unpublish_name("spawn-check-any", MPI_INFO_NULL, "otherhost:122") == MPI_SUCCESS,
            "unpublish");
    }
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
    MPI_Recv(&v, 1, MPI_INT, 0, 3, other, MPI_STATUS_IGNORE);
    CHECK(v == 31337, "server got %d", v);
    CHECK(MPI_Unpublish_name("spawn-check-service", MPI_INFO_NULL, port) == MPI_SUCCESS,
          "unpublish");
    MPI_Error_class(MPI_Unpublish_name("spawn-check-service", MPI_INFO_NULL, port), &cls);
    CHECK(cls == MPI_ERR_SERVICE, "unpublishing twice: class %d", cls);
    MPI_Close_port(port);
  } else {
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc, tries = 0;
    while ((rc = MPI_Lookup_name("spawn-check-service", MPI_INFO_NULL, port)) != MPI_SUCCESS &&
           tries++ < 500) {
      int cls;
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_NAME, "lookup of a name not (yet) published: class %d", cls);
      usleep(10000);
    }
    CHECK(rc == MPI_SUCCESS, "the service was never published");
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
    v = 31337;
    MPI_Send(&v, 1, MPI_INT, 0, 3, other);
  }
  MPI_Comm_disconnect(&other);
  v = failures;
  MPI_Send(&v, 1, MPI_INT, 0, 4, parent); /* the parent collects both verdicts */
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return failures ? 1 : 0;
}

static void spawn_children(int n, int nested) {
  char *args[] = {"child", "x", "tok en", nested ? "nested" : "plain", NULL};
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "wdir", "/tmp");
  MPI_Info_set(info, "env", "SPAWN_CHECK_ENV=yes\nOTHER=1");
  MPI_Info_set(info, "host", "localhost");
  /* the program by its bare name, found through the "path" key's second directory */
  char dirs[4096], *slash = strrchr(self_path, '/');
  const char *prog = slash ? slash + 1 : self_path;
  snprintf(dirs, sizeof dirs, "/nonexistent-impi-dir:%.*s", slash ? (int)(slash - self_path) : 1,
           slash ? self_path : ".");
  MPI_Info_set(info, "path", dirs);
  MPI_Comm inter;
  int codes[16];
  for (int i = 0; i < 16; ++i) codes[i] = -1;
  int rc = MPI_Comm_spawn(prog, args, n, info, 0, MPI_COMM_WORLD, &inter, codes);
  CHECK(rc == MPI_SUCCESS, "MPI_Comm_spawn returned %d", rc);
  for (int i = 0; i < n; ++i) CHECK(codes[i] == MPI_SUCCESS, "errcode[%d] = %d", i, codes[i]);
  MPI_Info_free(&info);
  int rsize = -1, flag = 0;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_remote_size(inter, &rsize);
  CHECK(flag && rsize == n, "spawned intercommunicator: inter %d, remote size %d", flag, rsize);
  exchange(inter, 1);
  MPI_Comm_disconnect(&inter);
  CHECK(inter == MPI_COMM_NULL, "disconnect left the handle");
}

/* Mode iccreate (see the top). `child`: this is one of the spawned;
 * `refused`: the intercommunicator must be refused. */
static int iccreate_main(int child, int refused) {
  MPI_Comm peer = MPI_COMM_NULL, inter, merged;
  if (child) {
    MPI_Comm_get_parent(&peer);
  } else if (rank == 0) {
    char *args[] = {"iccreate-child", refused ? "refused" : NULL, NULL};
    MPI_Comm_spawn(self_path, args, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &peer, MPI_ERRCODES_IGNORE);
  }
  if (refused) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    inter = MPI_COMM_NULL;
    int rc = MPI_Intercomm_create(MPI_COMM_WORLD, 0, peer, 0, 31, &inter), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION && inter == MPI_COMM_NULL,
          "Intercomm_create joining another job with several clients: class %d", cls);
    /* Each side goes on: a collective on its own world, and the spawn
     * intercommunicator still carries messages. */
    int one = 1, sum = 0, v = -1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "Allreduce after the refusal: %d", sum);
    if (peer != MPI_COMM_NULL) {
      if (child) {
        MPI_Send(&rank, 1, MPI_INT, 0, 8, peer);
      } else {
        for (int r = 0; r < 2; ++r) {
          MPI_Recv(&v, 1, MPI_INT, r, 8, peer, MPI_STATUS_IGNORE);
          CHECK(v == r, "child %d sent %d", r, v);
        }
      }
      MPI_Comm_disconnect(&peer);
    }
    MPI_Finalize();
    if (failures) return 1;
    printf("%s %d of %d %s\n", child ? "iccreate child" : "rank", rank, size,
           child ? "refused" : "ok");
    return 0;
  }
  MPI_Intercomm_create(MPI_COMM_WORLD, 0, peer, 0, 31, &inter);
  int rsize = -1;
  MPI_Comm_remote_size(inter, &rsize);
  /* (The children learn the parents' number only from the intercommunicator.) */
  CHECK(child ? rsize >= 1 : rsize == 2, "remote group size %d", rsize);
  /* Everyone sends its (side, rank) to every remote rank, then checks what came. */
  int side = child ? 1 : 0;
  for (int r = 0; r < rsize; ++r) {
    int v[2] = {side, rank};
    MPI_Send(v, 2, MPI_INT, r, 7, inter);
  }
  for (int r = 0; r < rsize; ++r) {
    int v[2] = {-1, -1};
    MPI_Recv(v, 2, MPI_INT, r, 7, inter, MPI_STATUS_IGNORE);
    CHECK(v[0] == 1 - side && v[1] == r, "from remote %d came (%d, %d)", r, v[0], v[1]);
  }
  int one = 1, remote_count = 0;
  MPI_Allreduce(&one, &remote_count, 1, MPI_INT, MPI_SUM, inter);
  CHECK(remote_count == rsize, "Allreduce over the intercommunicator: %d, expected %d",
        remote_count, rsize);
  MPI_Intercomm_merge(inter, child, &merged);
  int msize = -1, mrank = -1, sum = 0;
  MPI_Comm_size(merged, &msize);
  MPI_Comm_rank(merged, &mrank);
  MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged);
  CHECK(sum == msize * (msize - 1) / 2, "merged Allreduce: %d over %d ranks", sum, msize);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&inter);
  if (peer != MPI_COMM_NULL) MPI_Comm_disconnect(&peer);
  MPI_Finalize();
  if (failures) return 1;
  printf("%s %d of %d ok\n", child ? "iccreate child" : "rank", rank, size);
  return 0;
}

int main(int argc, char **argv) {
  self_path = argv[0];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "child") == 0) return child_main(argc, argv);
  if (strcmp(mode, "grandchild") == 0) return grandchild_main();
  if (strcmp(mode, "iccreate") == 0 || strcmp(mode, "iccreate-child") == 0)
    return iccreate_main(mode[8] == '-', argc > 2 && strcmp(argv[2], "refused") == 0);
  if (strcmp(mode, "child2-of-multiple") == 0) {
    /* App 0 of "multiple": tell parent rank 0 (world rank, MPI_APPNUM, program 1). */
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int *appnum = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    int v[3] = {rank, flag ? *appnum : -1, 1};
    MPI_Send(v, 3, MPI_INT, 0, 5, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  if (strcmp(mode, "names-server") == 0) return names_main("server");
  if (strcmp(mode, "names-client") == 0) return names_main("client");
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  CHECK(parent == MPI_COMM_NULL, "a job impirun started has a parent");
  int *usize = NULL, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
  CHECK(!flag || *usize >= size, "MPI_UNIVERSE_SIZE %d", flag ? *usize : -1);

  if (strcmp(mode, "parent") == 0) {
    int n = argc > 2 ? atoi(argv[2]) : 1;
    spawn_children(n, argc > 3 && strcmp(argv[3], "nested") == 0);
  } else if (strcmp(mode, "multiple") == 0) {
    int n = atoi(argv[2]), m = atoi(argv[3]);
    char *cmds[2] = {(char *)self_path, argv[4]};
    char *a0[] = {"child2-of-multiple", NULL};
    char **argvs[2] = {a0, MPI_ARGV_NULL};
    int np[2] = {n, m};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm inter;
    int codes[16];
    int rc = MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &inter, codes);
    CHECK(rc == MPI_SUCCESS, "MPI_Comm_spawn_multiple returned %d", rc);
    int rsize = -1;
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(rsize == n + m, "spawn_multiple: remote size %d", rsize);
    if (rank == 0) {
      /* Each child sends (its world rank, its MPI_APPNUM, which program). */
      for (int i = 0; i < n + m; ++i) {
        int v[3];
        MPI_Status st;
        MPI_Recv(v, 3, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st);
        CHECK(v[0] == st.MPI_SOURCE, "child world rank %d from source %d", v[0], st.MPI_SOURCE);
        int want_app = st.MPI_SOURCE < n ? 0 : 1;
        CHECK(v[1] == want_app && v[2] == want_app + 1, "child %d: appnum %d program %d",
              st.MPI_SOURCE, v[1], v[2]);
      }
    }
    MPI_Comm_disconnect(&inter);
  } else if (strcmp(mode, "missing") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm inter = MPI_COMM_SELF;
    int codes[3] = {-1, -1, -1};
    int rc = MPI_Comm_spawn("/nonexistent/impi-no-such-program", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0,
                            MPI_COMM_WORLD, &inter, codes);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawning a missing program: class %d", cls);
    for (int i = 0; i < 3; ++i) CHECK(codes[i] == MPI_ERR_SPAWN, "errcode[%d] = %d", i, codes[i]);
    char *bad_host[] = {"child", NULL};
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", "no-such-node.invalid");
    rc = MPI_Comm_spawn(self_path, bad_host, 1, info, 0, MPI_COMM_WORLD, &inter,
                        MPI_ERRCODES_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawning on another node: class %d", cls);
    MPI_Info_free(&info);
    /* The job is fine: a collective still works. */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "Allreduce after the failed spawn: %d", sum);
  } else if (strcmp(mode, "selfonly") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm inter;
    char *args[] = {"child", "x", "tok en", "plain", NULL};
    int rc = MPI_Comm_spawn(self_path, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                            MPI_ERRCODES_IGNORE);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "spawn on a communicator across clients: class %d",
          cls);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/tmp");
    MPI_Info_set(info, "env", "SPAWN_CHECK_ENV=yes");
    rc = MPI_Comm_spawn(self_path, args, 1, info, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE);
    CHECK(rc == MPI_SUCCESS, "spawn on MPI_COMM_SELF in a multi-client job: %d", rc);
    MPI_Info_free(&info);
    if (rc == MPI_SUCCESS) {
      exchange(inter, 1);
      MPI_Comm_disconnect(&inter);
    }
  } else if (strcmp(mode, "names") == 0) {
    if (rank == 0) {
      MPI_Comm a, b;
      MPI_Comm_spawn(self_path, (char *[]){"names-client", NULL}, 1, MPI_INFO_NULL, 0,
                     MPI_COMM_SELF, &b, NULL);
      MPI_Comm_spawn(self_path, (char *[]){"names-server", NULL}, 1, MPI_INFO_NULL, 0,
                     MPI_COMM_SELF, &a, NULL);
      int va = -1, vb = -1;
      MPI_Recv(&va, 1, MPI_INT, 0, 4, a, MPI_STATUS_IGNORE);
      MPI_Recv(&vb, 1, MPI_INT, 0, 4, b, MPI_STATUS_IGNORE);
      CHECK(va == 0 && vb == 0, "the two jobs reported %d and %d failures", va, vb);
      MPI_Comm_disconnect(&a);
      MPI_Comm_disconnect(&b);
    }
  } else if (strcmp(mode, "childdies") == 0) {
    char *args[] = {"child", "x", "tok en", "die", NULL};
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/tmp");
    MPI_Info_set(info, "env", "SPAWN_CHECK_ENV=yes");
    MPI_Comm inter;
    MPI_Comm_spawn(self_path, args, 1, info, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
    int v;
    MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE); /* never comes: the child dies */
    CHECK(0, "the dead child's message arrived");
  } else {
    CHECK(0, "unknown mode '%s'", mode);
  }
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
