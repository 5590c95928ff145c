/* io_check.c - output and input through the launcher, for its fidelity tests.
 *   io_check bytes R N SEED   rank R writes N pseudo-random bytes (any byte value, long
 *                             stretches without a newline, no newline at the end) to stdout
 *                             in writes of varying size; run without a launcher, it writes
 *                             the reference bytes
 *   io_check longline R       rank R writes a 200000-byte line, then "tail" without newline
 *   io_check stdin            every rank reads stdin to its end and prints
 *                             "rank R read N bytes sum S"
 *   io_check universe         rank 0 prints "universe N" (or "universe unset") */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t state;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static void write_all(const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(STDOUT_FILENO, p, n);
    if (w <= 0) exit(3);
    p += w;
    n -= (size_t)w;
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!strcmp(mode, "bytes") && argc > 4 && rank == atoi(argv[2])) {
    size_t n = (size_t)atol(argv[3]), at = 0;
    state = (uint64_t)atoll(argv[4]) | 1;
    char *buf = malloc(n + 1);
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = next();
      /* every 64 KiB a stretch of 70000 bytes with no newline in it */
      buf[i] = (i / 65536) % 3 == 1 && i % 65536 < 70000 ? (char)('A' + v % 26) : (char)(v & 0xff);
    }
    while (at < n) {
      size_t chunk = 1 + (size_t)(next() % 9000);
      if (chunk > n - at) chunk = n - at;
      write_all(buf + at, chunk);
      at += chunk;
    }
    free(buf);
  } else if (!strcmp(mode, "longline") && argc > 2 && rank == atoi(argv[2])) {
    char *b = malloc(200001);
    memset(b, 'x', 200000);
    b[200000] = '\n';
    write_all(b, 200001);
    write_all("tail", 4);
    free(b);
  } else if (!strcmp(mode, "stdin")) {
    char buf[4096];
    size_t n, total = 0;
    unsigned sum = 0;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
      for (size_t i = 0; i < n; i++) sum = sum * 31u + (unsigned char)buf[i];
      total += n;
    }
    printf("rank %d read %zu bytes sum %u\n", rank, total, sum);
  } else if (!strcmp(mode, "universe") && rank == 0) {
    int *v = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
    if (flag)
      printf("universe %d\n", *v);
    else
      printf("universe unset\n");
  }
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
