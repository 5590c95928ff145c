/* behave.c - a process that misbehaves on request, for the launcher tests.
 *   behave exit R CODE       rank R exits with CODE right after MPI_Init
 *   behave signal R SIG      rank R raises SIG
 *   behave abort R CODE      rank R calls MPI_Abort(MPI_COMM_WORLD, CODE)
 *   behave nofinalize R      rank R returns 0 without MPI_Finalize
 *   behave fatal R           rank R calls MPI_Send to a rank that does not exist, under
 *                            MPI_ERRORS_ARE_FATAL
 *   behave sleep S           every rank sleeps S seconds inside MPI
 *   behave env VAR           every rank prints "rank R VAR=value"
 *   behave affinity bound|any  prints the CPUs it may run on; "bound" checks it is one
 *   behave output N          every rank prints N numbered lines, half to stderr
 *   behave collectives S     every rank loops Allreduce, Bcast and Barrier for S seconds
 *                            (rank 0's clock decides), printing "collectives running" once
 *   behave flood N ROUNDS    rank 0 sends N 4 KiB messages (tag 1) then one with tag 2 to rank 1,
 *                            ROUNDS times; rank 1 receives the tag-2 one first (so the others
 *                            wait as unexpected messages), then the rest, checking contents,
 *                            and answers (tag 3) before rank 0 starts the next round: a round's
 *                            bytes are unexpected at once, the rounds' sum never is
 *   behave backpressure N    rank 0 sends N 64 KiB messages to rank 1, which sleeps 2 s before it
 *                            receives them; rank 0 then prints its peak resident memory
 *                            ("rank 0 peak rss K KiB ...: bounded" when under 100 MB, more with a
 *                            sanitizer): backpressure must keep it far below N x 64 KiB
 *   behave prekill R         the proc whose launcher rank (PMIX_RANK) is R kills itself with
 *                            SIGKILL before MPI_Init; the others go on into MPI_Init
 * Ranks that are not R go on to MPI_Finalize, which waits for R. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size, i;
  const char *mode = argc > 1 ? argv[1] : "";
  int who = argc > 2 ? atoi(argv[2]) : 0;
  int arg = argc > 3 ? atoi(argv[3]) : 0;

  if (!strcmp(mode, "prekill")) {
    const char *r = getenv("PMIX_RANK");
    if (r && atoi(r) == who) {
      signal(SIGKILL, SIG_DFL);
      raise(SIGKILL);
    }
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("rank %d started\n", rank);
  fflush(stdout);

  if (!strcmp(mode, "exit") && rank == who) exit(arg);
  if (!strcmp(mode, "signal") && rank == who) {
    signal(arg, SIG_DFL); /* a sanitizer runtime may have claimed it */
    raise(arg);
  }
  if (!strcmp(mode, "abort") && rank == who) MPI_Abort(MPI_COMM_WORLD, arg);
  if (!strcmp(mode, "nofinalize") && rank == who) return 0;
  if (!strcmp(mode, "fatal") && rank == who) {
    int x = 0;
    MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    printf("rank %d: MPI_Send returned under MPI_ERRORS_ARE_FATAL\n", rank);
  }
  if (!strcmp(mode, "sleep")) sleep((unsigned)who);
  if (!strcmp(mode, "env")) {
    const char *v = getenv(argv[2]);
    printf("rank %d %s=%s\n", rank, argv[2], v ? v : "(unset)");
  }
  if (!strcmp(mode, "affinity")) {
    cpu_set_t set;
    int n, first = -1;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    n = CPU_COUNT(&set);
    for (i = 0; i < CPU_SETSIZE && first < 0; ++i)
      if (CPU_ISSET(i, &set)) first = i;
    printf("rank %d cpus %d first %d\n", rank, n, first);
    if (!strcmp(argv[2], "bound") && n != 1) {
      fprintf(stderr, "rank %d is not bound to one cpu (%d)\n", rank, n);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (!strcmp(mode, "collectives")) {
    double start = MPI_Wtime();
    int go = 1, round = 0;
    while (go) {
      long v = rank + 1, sum = 0;
      MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (sum != (long)size * (size + 1) / 2) {
        fprintf(stderr, "rank %d: Allreduce gave %ld\n", rank, sum);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      if (rank == 0) go = MPI_Wtime() - start < who;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      if (++round == 10) {
        printf("rank %d collectives running\n", rank);
        fflush(stdout);
      }
    }
  }
  if (!strcmp(mode, "flood") && size >= 2 && rank < 2) {
    static int buf[1024];
    int n = who, rounds = arg > 0 ? arg : 1, r, k, j;
    for (r = 0; r < rounds; ++r) {
      if (rank == 0) {
        for (k = 0; k < n; ++k) {
          for (j = 0; j < 1024; ++j) buf[j] = r * 1000003 + k * 1024 + j;
          MPI_Send(buf, 1024, MPI_INT, 1, 1, MPI_COMM_WORLD);
        }
        MPI_Send(&n, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        int got;
        MPI_Recv(&got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = 0; k < n; ++k) {
          MPI_Recv(buf, 1024, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          for (j = 0; j < 1024; ++j)
            if (buf[j] != r * 1000003 + k * 1024 + j) {
              fprintf(stderr, "rank 1: round %d message %d word %d wrong\n", r, k, j);
              MPI_Abort(MPI_COMM_WORLD, 4);
            }
        }
        MPI_Send(NULL, 0, MPI_INT, 0, 3, MPI_COMM_WORLD);
      }
    }
    if (rank == 1) printf("rank 1 flood ok\n");
  }
  if (!strcmp(mode, "backpressure") && size >= 2 && rank < 2) {
    static unsigned char big[65536];
    int k;
    if (rank == 0) {
      for (k = 0; k < who; ++k) {
        big[0] = (unsigned char)k;
        MPI_Send(big, (int)sizeof big, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
      }
      FILE *f = fopen("/proc/self/status", "r");
      char line[256];
      long hwm = -1;
      while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &hwm) == 1) break;
      if (f) fclose(f);
        /* Without backpressure the sender holds about all it sent (402 MB for
           250 MB here, more with a sanitizer's shadow memory). */
#if defined(__SANITIZE_THREAD__)
      long limit = 600000;
#elif defined(__SANITIZE_ADDRESS__)
      long limit = 250000;
#else
      long limit = 100000;
#endif
      printf("rank 0 peak rss %ld KiB after sending %ld KiB: %s\n", hwm, (long)who * 64,
             hwm < limit ? "bounded" : "NOT bounded");
    } else {
      sleep(2);
      for (k = 0; k < who; ++k) {
        MPI_Recv(big, (int)sizeof big, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (big[0] != (unsigned char)k) {
          fprintf(stderr, "rank 1: message %d out of order\n", k);
          MPI_Abort(MPI_COMM_WORLD, 4);
        }
      }
      printf("rank 1 received %d\n", who);
    }
  }
  if (!strcmp(mode, "output")) {
    for (i = 0; i < who; ++i) fprintf(i % 2 ? stderr : stdout, "rank %d line %d\n", rank, i);
  }
  MPI_Finalize();
  return 0;
}
