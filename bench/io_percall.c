/* io_percall.c - what an MPI library adds around one small independent
 * access: MPI_File_read_at / MPI_File_write_at of N bytes (default 4096)
 * against bare pread / pwrite of the same file in the same process,
 * best of 5 loops of IT calls (default 200000), rank 0's line:
 *   n=4096 read <us> us (bare <us>, +<overhead>)  write ...
 * Build it with each library's wrapper and run 1 or 2 procs, e.g.
 *   build/bin/mpicc -O2 -o pc bench/io_percall.c && build/bin/impirun -np 1 ./pc /dev/shm
 *   mpicc.mpich -O2 -o pcm bench/io_percall.c && mpiexec.mpich -n 1 ./pcm /dev/shm
 * (docs/io.md, Performance, 2026-12-03). */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int c, char **v) {
  MPI_Init(&c, &v);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  long n = c > 2 ? atol(v[2]) : 4096;
  int it = getenv("IT") ? atoi(getenv("IT")) : 200000;
  char p[256];
  snprintf(p, sizeof p, "%s/pc.%d", v[1], r);
  char *buf = NULL;
  if (c < 2 || n <= 0 || posix_memalign((void **)&buf, 4096, (size_t)n) != 0) {
    fprintf(stderr, "usage: io_percall DIR [bytes]\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buf, 1, (size_t)n);
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  for (int k = 0; k < 256; ++k) MPI_File_write_at(fh, k * n, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
  int fd = open(p, O_RDWR);
  if (fd < 0) {
    perror(p);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double best[4] = {1e9, 1e9, 1e9, 1e9};
  long bytes = 0; /* (the bare calls' results, checked at the end) */
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now();
    for (int i = 0; i < it; ++i)
      MPI_File_read_at(fh, (i & 255) * n, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
    double t1 = now();
    for (int i = 0; i < it; ++i) bytes += pread(fd, buf, (size_t)n, (i & 255) * n);
    double t2 = now();
    for (int i = 0; i < it; ++i)
      MPI_File_write_at(fh, (i & 255) * n, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
    double t3 = now();
    for (int i = 0; i < it; ++i) bytes += pwrite(fd, buf, (size_t)n, (i & 255) * n);
    double t4 = now();
    double d[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
    for (int k = 0; k < 4; ++k)
      if (d[k] < best[k]) best[k] = d[k];
  }
  if (r == 0)
    printf("n=%ld read %.3f us (bare %.3f, +%.3f)  write %.3f us (bare %.3f, +%.3f)\n", n,
           best[0] / it * 1e6, best[1] / it * 1e6, (best[0] - best[1]) / it * 1e6,
           best[2] / it * 1e6, best[3] / it * 1e6, (best[2] - best[3]) / it * 1e6);
  if (bytes != 2L * 5 * it * n) fprintf(stderr, "rank %d: short bare transfers\n", r);
  close(fd);
  MPI_File_close(&fh);
  MPI_File_delete(p, MPI_INFO_NULL);
  MPI_Finalize();
}
