/* port_check.c - two separately launched jobs meet (dynamic_jobs_test.sh
 * starts both). Modes (argv[1], argv[2] = a file both know):
 *   accept FILE    open a port, write its name to FILE, accept on
 *                  MPI_COMM_WORLD (root 1 if size > 1), exchange, disconnect
 *   connect FILE   read the port name from FILE, connect (root 0)
 *   joinsrv FILE   rank 0 listens on 127.0.0.1, writes the TCP port to
 *                  FILE, accepts one socket and calls MPI_Comm_join
 *   joincli FILE   rank 0 connects to that socket and calls MPI_Comm_join
 *   pubsrv         open a port, publish it as "port-check-svc" (IMPI_NAME_DIR
 *                  shared with the other impirun), accept, unpublish
 *   pubcli         look "port-check-svc" up (retrying until published), connect
 *   acceptabort    rank 0 waits in MPI_Comm_accept with nobody connecting;
 *                  rank 1 calls MPI_Abort(5): the job must end (exit 5)
 *   samejob        ranks of one job meet through a port (accept on rank 0's
 *                  MPI_COMM_SELF, connect on the others' split); their
 *                  messages then use the job's own shared memory
 *   garbage        (2 procs) rank 1 sends garbage, then a frame head with
 *                  an absurd length, to rank 0's dynamic listener; rank 0
 *                  drops those connections (warning) and the two then
 *                  connect through its port and talk as usual
 *   singleton      (no launcher) spawn and name publishing say they need
 *                  one (MPI_ERR_UNSUPPORTED_OPERATION); ports still open
 *   badport        connect to ports that are not open or not port names:
 *                  MPI_ERR_PORT, no hang
 *   names          every rank publishes a name, looks up every other
 *                  rank's (in one client or across IMPI clients: impirun
 *                  --clients gives them one name directory), cannot publish
 *                  another rank's name again (MPI_ERR_SERVICE), unpublishes
 *                  its own; then every lookup gives MPI_ERR_NAME
 * Prints "rank r of n ok" (accept/join server side: "server r of n ok"). */
#include <arpa/inet.h>
#include <mpi.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int rank, size, failures;
#include "check.h"

static void talk(MPI_Comm inter, int server) {
  int lsize, rsize, lrank;
  MPI_Comm_rank(inter, &lrank);
  MPI_Comm_size(inter, &lsize);
  MPI_Comm_remote_size(inter, &rsize);
  /* Every proc sends one int to every remote proc, and checks what it gets. */
  int in[64], out[64];
  MPI_Request rq[64];
  for (int r = 0; r < rsize && r < 64; ++r) MPI_Irecv(&in[r], 1, MPI_INT, r, 0, inter, &rq[r]);
  for (int r = 0; r < rsize && r < 64; ++r) {
    out[r] = (server ? 1000 : 2000) + lrank * 10 + r;
    MPI_Send(&out[r], 1, MPI_INT, r, 0, inter);
  }
  MPI_Waitall(rsize < 64 ? rsize : 64, rq, MPI_STATUSES_IGNORE);
  for (int r = 0; r < rsize && r < 64; ++r)
    CHECK(in[r] == (server ? 2000 : 1000) + r * 10 + lrank, "from remote %d: %d", r, in[r]);
  /* Each side's sum of ranks to the other. */
  int sum = -1;
  MPI_Allreduce(&lrank, &sum, 1, MPI_INT, MPI_SUM, inter);
  CHECK(sum == rsize * (rsize - 1) / 2, "intercommunicator Allreduce %d", sum);
  /* Messages of several sizes from server rank 0 to client rank 0, synchronous too. */
  if (lrank == 0) {
    for (int n = 1; n <= (1 << 20); n *= 8) {
      char *b = malloc((size_t)n);
      if (server) {
        for (int i = 0; i < n; ++i) b[i] = (char)(i * 7 + n);
        MPI_Ssend(b, n, MPI_CHAR, 0, 11, inter);
      } else {
        MPI_Status st;
        MPI_Recv(b, n, MPI_CHAR, 0, 11, inter, &st);
        int cnt = -1, bad = 0;
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        for (int i = 0; i < n; ++i) bad += b[i] != (char)(i * 7 + n);
        CHECK(cnt == n && bad == 0, "%d-byte message: count %d, %d bad bytes", n, cnt, bad);
      }
      free(b);
    }
  }
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, server ? 0 : 1, &merged);
  int msize, mrank, total = -1;
  MPI_Comm_size(merged, &msize);
  MPI_Comm_rank(merged, &mrank);
  CHECK(msize == lsize + rsize && mrank == (server ? lrank : rsize + lrank), "merged %d of %d",
        mrank, msize);
  MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged);
  CHECK(total == msize * (msize - 1) / 2, "merged Allreduce %d", total);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&inter);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "";
  const char *file = argc > 2 ? argv[2] : "";
  int server = 0;
  if (strcmp(mode, "accept") == 0) {
    server = 1;
    int root = size > 1 ? 1 : 0;
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == root) {
      MPI_Open_port(MPI_INFO_NULL, port);
      char tmp[4096];
      snprintf(tmp, sizeof tmp, "%s.tmp", file);
      FILE *f = fopen(tmp, "w");
      fprintf(f, "%s\n", port);
      fclose(f);
      rename(tmp, file); /* the other job never sees half a name */
    }
    MPI_Comm inter;
    MPI_Comm_accept(port, MPI_INFO_NULL, root, MPI_COMM_WORLD, &inter);
    if (rank == root) MPI_Close_port(port);
    talk(inter, 1);
  } else if (strcmp(mode, "pubsrv") == 0) {
    server = 1;
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
      MPI_Open_port(MPI_INFO_NULL, port);
      CHECK(MPI_Publish_name("port-check-svc", MPI_INFO_NULL, port) == MPI_SUCCESS, "publish");
    }
    MPI_Comm inter;
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    if (rank == 0) {
      CHECK(MPI_Unpublish_name("port-check-svc", MPI_INFO_NULL, port) == MPI_SUCCESS, "unpublish");
      MPI_Close_port(port);
    }
    talk(inter, 1);
  } else if (strcmp(mode, "pubcli") == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      int rc = MPI_ERR_NAME;
      for (int i = 0; i < 3000 && rc != MPI_SUCCESS; ++i)
        if ((rc = MPI_Lookup_name("port-check-svc", MPI_INFO_NULL, port)) != MPI_SUCCESS)
          usleep(10000);
      CHECK(rc == MPI_SUCCESS, "port-check-svc was never published");
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    MPI_Comm inter;
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    talk(inter, 0);
  } else if (strcmp(mode, "connect") == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
      FILE *f = NULL;
      for (int i = 0; i < 3000 && !(f = fopen(file, "r")); ++i) usleep(10000);
      CHECK(f != NULL, "no port file %s", file);
      if (f) {
        if (!fgets(port, sizeof port, f)) port[0] = 0;
        port[strcspn(port, "\n")] = 0;
        fclose(f);
      }
    }
    MPI_Comm inter;
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    talk(inter, 0);
  } else if (strcmp(mode, "joinsrv") == 0 || strcmp(mode, "joincli") == 0) {
    server = mode[4] == 's';
    int fd = -1;
    if (server) {
      int l = socket(AF_INET, SOCK_STREAM, 0);
      struct sockaddr_in a;
      memset(&a, 0, sizeof a);
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      socklen_t len = sizeof a;
      bind(l, (struct sockaddr *)&a, sizeof a);
      listen(l, 1);
      getsockname(l, (struct sockaddr *)&a, &len);
      char tmp[4096];
      snprintf(tmp, sizeof tmp, "%s.tmp", file);
      FILE *f = fopen(tmp, "w");
      fprintf(f, "%d\n", ntohs(a.sin_port));
      fclose(f);
      rename(tmp, file);
      fd = accept(l, NULL, NULL);
      close(l);
    } else {
      FILE *f = NULL;
      for (int i = 0; i < 3000 && !(f = fopen(file, "r")); ++i) usleep(10000);
      int port = 0;
      if (f) {
        if (fscanf(f, "%d", &port) != 1) port = 0;
        fclose(f);
      }
      fd = socket(AF_INET, SOCK_STREAM, 0);
      struct sockaddr_in a;
      memset(&a, 0, sizeof a);
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      a.sin_port = htons((unsigned short)port);
      CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "cannot connect to the join socket");
    }
    MPI_Comm inter;
    CHECK(MPI_Comm_join(fd, &inter) == MPI_SUCCESS, "MPI_Comm_join");
    close(fd);
    int rsize = -1;
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(rsize == 1, "joined remote size %d", rsize);
    talk(inter, server);
  } else if (strcmp(mode, "acceptabort") == 0) {
    if (rank == 0) {
      char port[MPI_MAX_PORT_NAME];
      MPI_Open_port(MPI_INFO_NULL, port);
      MPI_Comm inter;
      MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter); /* nobody comes */
      CHECK(0, "MPI_Comm_accept returned with nobody connecting");
    } else {
      sleep(1);
      MPI_Abort(MPI_COMM_WORLD, 5);
    }
  } else if (strcmp(mode, "samejob") == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm half;
    server = rank == 0;
    MPI_Comm_split(MPI_COMM_WORLD, server, rank, &half);
    if (server) MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Comm inter;
    if (server)
      MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
    else
      MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
    if (server) MPI_Close_port(port);
    talk(inter, server);
    MPI_Comm_free(&half);
  } else if (strcmp(mode, "garbage") == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Comm inter;
    if (rank == 1) {
      const char *u = strstr(port, " unix=");
      CHECK(u != NULL, "no unix socket in the port name '%s'", port);
      if (u) {
        char name[108] = {0};
        sscanf(u + 6, "%100s", name + 1); /* abstract: a leading NUL */
        for (int attempt = 0; attempt < 2; ++attempt) {
          int fd = socket(AF_UNIX, SOCK_STREAM, 0);
          struct sockaddr_un a;
          memset(&a, 0, sizeof a);
          a.sun_family = AF_UNIX;
          memcpy(a.sun_path, name, sizeof a.sun_path);
          socklen_t len =
              (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name + 1));
          CHECK(connect(fd, (struct sockaddr *)&a, len) == 0, "cannot reach rank 0's listener");
          if (attempt == 0) {
            const char junk[] =
                "GET / HTTP/1.0\r\n\r\n\x01\x02\x03 not a frame at all, padding padding padding";
            (void)!write(fd, junk, sizeof junk);
          } else {
            unsigned char head[40] = {0x49, 0x4d, 0x44, 0x59, 2}; /* "IMDY", msg ... */
            head[24] = 0x01;                                      /* ... of 2^56 bytes */
            (void)!write(fd, head, sizeof head);
          }
          close(fd);
        }
      }
      MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
      int v = 77;
      MPI_Send(&v, 1, MPI_INT, 0, 1, inter);
    } else {
      MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
      int v = 0;
      MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
      CHECK(v == 77, "after the garbage, got %d", v);
      MPI_Close_port(port);
    }
    MPI_Comm_disconnect(&inter);
  } else if (strcmp(mode, "singleton") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm inter, parent;
    int cls = -1, codes[2] = {-1, -1};
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL, "a singleton has a parent");
    MPI_Error_class(
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, codes),
        &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "spawn without a launcher: class %d", cls);
    CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN, "errcodes %d %d", codes[0],
          codes[1]);
    char port[MPI_MAX_PORT_NAME];
    CHECK(MPI_Open_port(MPI_INFO_NULL, port) == MPI_SUCCESS, "open a port without a launcher");
    MPI_Error_class(MPI_Publish_name("x", MPI_INFO_NULL, port), &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "publish without a launcher: class %d", cls);
    CHECK(MPI_Close_port(port) == MPI_SUCCESS, "close the port");
  } else if (strcmp(mode, "names") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char svc[64], val[MPI_MAX_PORT_NAME], got[MPI_MAX_PORT_NAME];
    snprintf(svc, sizeof svc, "port-check-names-%d", rank);
    snprintf(val, sizeof val, "value of rank %d (pid %d)", rank, (int)getpid());
    CHECK(MPI_Publish_name(svc, MPI_INFO_NULL, val) == MPI_SUCCESS, "publish %s", svc);
    MPI_Barrier(MPI_COMM_WORLD);
    int cls = -1;
    for (int r = 0; r < size; ++r) {
      char s2[64], want[64];
      snprintf(s2, sizeof s2, "port-check-names-%d", r);
      snprintf(want, sizeof want, "value of rank %d (pid ", r);
      got[0] = 0;
      CHECK(MPI_Lookup_name(s2, MPI_INFO_NULL, got) == MPI_SUCCESS &&
                strncmp(got, want, strlen(want)) == 0,
            "lookup of %s gave '%s'", s2, got);
      if (r != rank) {
        MPI_Error_class(MPI_Publish_name(s2, MPI_INFO_NULL, "mine"), &cls);
        CHECK(cls == MPI_ERR_SERVICE, "publishing rank %d's name again: class %d", r, cls);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Unpublish_name(svc, MPI_INFO_NULL, val) == MPI_SUCCESS, "unpublish %s", svc);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) {
      char s2[64];
      snprintf(s2, sizeof s2, "port-check-names-%d", r);
      MPI_Error_class(MPI_Lookup_name(s2, MPI_INFO_NULL, got), &cls);
      CHECK(cls == MPI_ERR_NAME, "lookup of unpublished %s: class %d", s2, cls);
    }
  } else if (strcmp(mode, "badport") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME];
    MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Close_port(port);
    MPI_Comm inter;
    int cls = -1;
    /* A port that was closed: the connection is refused at once. */
    MPI_Error_class(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter), &cls);
    CHECK(cls == MPI_ERR_PORT, "connect to a closed port: class %d", cls);
    MPI_Error_class(MPI_Comm_connect("garbage", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter), &cls);
    CHECK(cls == MPI_ERR_PORT, "connect to 'garbage': class %d", cls);
    MPI_Error_class(MPI_Close_port("impi-port/1 port=9 impi-dyn/1 job=x rank=0 host=h unix=u"),
                    &cls);
    CHECK(cls == MPI_ERR_PORT, "closing a port of another process: class %d", cls);
    char name[MPI_MAX_PORT_NAME];
    MPI_Error_class(MPI_Lookup_name("port-check-never-published", MPI_INFO_NULL, name), &cls);
    CHECK(cls == MPI_ERR_NAME, "lookup of an unknown name: class %d", cls);
    /* Collective error: every rank learns the root failed. */
    MPI_Error_class(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter), &cls);
    CHECK(cls == MPI_ERR_PORT || (rank != 0 && cls == MPI_ERR_PORT),
          "collective connect to a closed port: class %d", cls);
  } else {
    CHECK(0, "unknown mode '%s'", mode);
  }
  MPI_Finalize();
  if (failures) return 1;
  printf("%s %d of %d ok\n", server ? "server" : "rank", rank, size);
  return 0;
}
