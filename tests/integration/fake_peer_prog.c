/* fake_peer_prog.c - world rank 0 of a two-client job whose rank 1 is
 * fake_host (a scripted IMPI peer host with datalen 16, ackmark = hiwater
 * = 1). Each step mirrors one of fake_host.cpp's; fake_host checks the
 * packets, this program checks what MPI returns. Prints "rank 0 of 2 ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int failures;
#define CHECK(cond, ...)            \
  do {                              \
    if (!(cond)) {                  \
      fprintf(stderr, "rank 0: ");  \
      fprintf(stderr, __VA_ARGS__); \
      fprintf(stderr, "\n");        \
      ++failures;                   \
    }                               \
  } while (0)

static void pattern(unsigned char *b, int n, int seed) {
  for (int i = 0; i < n; ++i) b[i] = (unsigned char)(i * 3 + seed);
}
static int same(const unsigned char *b, int n, int seed) {
  for (int i = 0; i < n; ++i)
    if (b[i] != (unsigned char)(i * 3 + seed)) return 0;
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, count, flag;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && !strcmp(argv[1], "flood")) {
    /* Fault tests: stream 64 KiB messages to rank 1 (fake_host stall|reset),
       which never receives them; the job must end on its own. */
    static unsigned char big[65536];
    for (int i = 0; i < 1000; ++i) MPI_Send(big, (int)sizeof big, MPI_BYTE, 1, i, MPI_COMM_WORLD);
    fprintf(stderr, "rank 0: 1000 messages went to a peer that reads nothing\n");
    MPI_Finalize();
    return 1;
  }
  if (rank != 0 || size != 2) {
    fprintf(stderr, "fake_peer_prog runs as rank 0 of 2 (got %d of %d)\n", rank, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  unsigned char b[64];
  MPI_Status st;
  MPI_Request rq;
  /* 1 */
  const int sizes[] = {0, 1, 15, 16, 17, 50};
  for (int k = 0; k < 6; ++k) {
    pattern(b, sizes[k], sizes[k]);
    CHECK(MPI_Send(b, sizes[k], MPI_BYTE, 1, 1, MPI_COMM_WORLD) == MPI_SUCCESS, "step 1 send %d",
          sizes[k]);
  }
  /* 2 */
  int ints[3] = {1, -2, 0x01020304};
  MPI_Send(ints, 3, MPI_INT, 1, 2, MPI_COMM_WORLD);
  /* 3: the fake matches 200 ms late */
  double t0 = MPI_Wtime();
  MPI_Ssend(b, 4, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
  CHECK(MPI_Wtime() - t0 > 0.15,
        "step 3: MPI_Ssend returned %.3f s after it began, before the match", MPI_Wtime() - t0);
  /* 4 */
  memset(b, 0, sizeof b);
  MPI_Recv(b, 64, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == 5 && same(b, 5, 4) && st.MPI_SOURCE == 1 && st.MPI_TAG == 4, "step 4: count %d",
        count);
  /* 5: probe sees the long message once its first packet is in */
  MPI_Probe(1, 5, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == 40, "step 5: probe count %d", count);
  memset(b, 0, sizeof b);
  MPI_Recv(b, 64, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == 40 && same(b, 40, 5), "step 5: count %d", count);
  /* 6: matched late; the fake waits for the SYNCACK */
  struct timespec nap = {0, 100000000L};
  nanosleep(&nap, NULL);
  MPI_Recv(b, 64, MPI_BYTE, 1, 6, MPI_COMM_WORLD, &st);
  CHECK(same(b, 3, 6), "step 6: contents");
  /* 7: our cancels: yes, no, yes */
  MPI_Isend(b, 4, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &rq);
  MPI_Cancel(&rq);
  MPI_Wait(&rq, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1, "step 7a: not cancelled");
  MPI_Isend(b, 4, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &rq);
  MPI_Cancel(&rq);
  MPI_Wait(&rq, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 0, "step 7b: cancelled after CANCELNO");
  MPI_Issend(b, 4, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &rq);
  MPI_Cancel(&rq);
  MPI_Wait(&rq, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1, "step 7c: Issend not cancelled");
  /* 8: the fake cancels one message to us (never delivered) */
  MPI_Recv(b, 64, MPI_BYTE, 1, 11, MPI_COMM_WORLD, &st);
  CHECK(same(b, 4, 101), "step 8: tag 11 contents");
  MPI_Send(b, 0, MPI_BYTE, 1, 12, MPI_COMM_WORLD);
  MPI_Recv(b, 64, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &st);
  CHECK(same(b, 4, 100), "step 8: received the cancelled message (or not the second one)");
  MPI_Iprobe(1, 10, MPI_COMM_WORLD, &flag, &st);
  CHECK(!flag, "step 8: a second tag-10 message is waiting");
  /* 9: MPI_Finalize's barrier */
  MPI_Finalize();
  if (failures) return 1;
  printf("rank 0 of 2 ok\n");
  return 0;
}
