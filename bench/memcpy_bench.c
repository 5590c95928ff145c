/* memcpy_bench.c - one process's memcpy bandwidth on `bytes` (default
 * 4 GiB; both buffers touched first): median and best of `reps` copies, in
 * GB/s (10^9 bytes/s). The upper bound of a single-copy transfer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? (size_t)atoll(argv[1]) : (size_t)4 << 30;
  int reps = argc > 2 ? atoi(argv[2]) : 3, i;
  char *a = malloc(bytes), *b = malloc(bytes);
  double t[64];
  if (!a || !b) return 2;
  if (reps > 64) reps = 64;
  memset(a, 1, bytes);
  memset(b, 2, bytes);
  for (i = 0; i < reps; ++i) {
    double t0 = now();
    memcpy(b, a, bytes);
    t[i] = now() - t0;
    a[i] = b[bytes - 1 - (size_t)i]; /* keep the copies */
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp);
  printf("memcpy %zu bytes: median %.3f s (%.2f GB/s), best %.3f s (%.2f GB/s)\n", bytes,
         t[reps / 2], (double)bytes / t[reps / 2] / 1e9, t[0], (double)bytes / t[0] / 1e9);
  free(a);
  free(b);
  return 0;
}
