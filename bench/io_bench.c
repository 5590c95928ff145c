/* io_bench.c - MPI-IO bandwidth and latency, the same program for impi,
 * Open MPI and MPICH (bench/io.sh).
 *   io_bench DIR
 * prints, rank 0, one line per case:
 *   <case> <bytes per proc> <write MB/s> <read MB/s>
 * (MB/s: all procs' bytes over the slowest proc's time, median of 5 or 15 after a warm-up; for n1
 * and nn over the time from the earliest proc's start to the latest proc's
 * end, IOR's aggregate rate, and n1_slowest / nn_slowest over the slowest
 * proc's own time), and
 *   open_close 0 <us per open+close> 0
 * Cases: n1 (one shared file, each proc a contiguous block, write_at_all
 * / read_at_all), nn (a file per proc, write_at / read_at), subarray (a
 * 3-D block of doubles of a global array through a subarray view,
 * write_all / read_all: the checkpoint pattern; subarray_rows: the same
 * with the fastest dimension split, pieces of 256 or 512 bytes), strided (independent
 * read through a view of 256-byte blocks interleaved by rank); n1_buf16:
 * n1 of 1 and 16 MiB with the program's buffers 16 bytes into a page (see
 * buf_alloc). Every read is checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, size;
static char dir[512];

/* Each phase runs once untimed (a warm-up: the first call faults in the
 * buffers and the file's pages, and a library sets up its state), then
 * kTries times timed; the median of those stands for it. A phase of one
 * call of 2 MiB lasts a quarter of a millisecond here, where one timer
 * tick of the VM's host is enough to swap two libraries' places: best of
 * 3 (warm-up included) gave cells that changed sides from run to run.
 * The one-call phases (subarray, strided: a fraction of a millisecond to
 * a few) take kShortTries: the libraries need a few calls to settle (the
 * 256 KiB subarray_rows write took 650, 270, 200 us in its first three
 * calls and ~200 after; MPICH's 1350, 520, 560 and ~370). The arrays hold
 * the warm-up at [0]: median_of(t + 1, n). */
enum { kTries = 5, kShortTries = 15 };
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double median_of(const double *t, int n) {
  double s[kShortTries];
  memcpy(s, t, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), by_value);
  return s[n / 2];
}
static double maxtime(double t) {
  double m;
  MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}
/* The host's clock (io.sh runs every proc on one host): CLOCK_MONOTONIC
 * is the same clock in every process, whatever origin a library gives
 * MPI_Wtime. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
/* From the earliest start to the latest end. The slowest proc's own time
 * (maxtime) says what one call costs, but with more procs than cores,
 * procs that poll without yielding run their calls one after another and
 * each times only its own turn: the phase took longer than any of them. */
static double span(double t0, double t1) {
  double se[2] = {-t0, t1}, m[2];
  MPI_Allreduce(se, m, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m[0] + m[1];
}
static void fill(char *b, long n, int seed) {
  for (long i = 0; i < n; ++i) b[i] = (char)(i * 7 + seed);
}
static void check(const char *b, long n, int seed, const char *what) {
  for (long i = 0; i < n; ++i)
    if (b[i] != (char)(i * 7 + seed)) {
      fprintf(stderr, "rank %d: %s: byte %ld wrong\n", rank, what, i);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
}
/* The program's buffers start on a page, or `off` bytes past one, and
 * every case takes them from the same memory: an arena allocated and
 * touched once at the start (buffers allocated once and used for every
 * checkpoint, as in an application). Where a plain malloc puts a block
 * depends on the heap's history, and that differs between libraries:
 * glibc gives a fresh block of 128 KiB or more a mapping of its own, but
 * once a library has freed such a block glibc raises its mmap threshold
 * and later blocks come from the heap (under MPICH the 16 MiB buffers sat
 * 1.6-1.9 KiB into a page, under impi 16 or 32 bytes; and each case's
 * buffers were fresh pages under impi, pages used before under MPICH).
 * The offset matters on some CPUs:
 * the kernel's copy into the buffer runs 2-3x slower when (buffer - file
 * offset) mod 4096 is 1-63 (AMD EPYC, `rep movsb`). So every library
 * gets the same placement and the same pages: a page for the tables'
 * cases, +16 (where a fresh malloc of 128 KiB or more starts) for
 * n1_buf16. */
static char *arena;
static size_t arena_size, arena_used;
static void arena_init(size_t most) {
  arena_size = 2 * (most + 8192);
  void *p = NULL;
  if (posix_memalign(&p, 4096, arena_size) != 0) {
    fprintf(stderr, "rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  arena = p;
  memset(arena, 0, arena_size);
}
/* A case's buffers: from the arena's start again for each case. */
static void arena_reset(void) {
  arena_used = 0;
}
static void *buf_alloc(size_t n, size_t off) {
  char *p = arena + arena_used + off;
  arena_used += (n + off + 4095) / 4096 * 4096;
  if (arena_used > arena_size) {
    fprintf(stderr, "rank %d: the arena is too small\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* `bytes`: per transfer (the table's column); `moved`: per proc in the phase */
static void report(const char *name, long bytes, long moved, double tw, double tr) {
  double total = (double)moved * size / 1e6;
  if (rank == 0) printf("%s %ld %.1f %.1f\n", name, bytes, total / tw, total / tr);
}

/* Each phase moves at least 1 MiB per proc: `reps` transfers of `bytes`
 * (IOR's segments), so a phase of small transfers is not only the skew of
 * the barrier before it. N-1: transfer j of proc r at (j * size + r) *
 * bytes; N-N: at j * bytes of the proc's own file. */
static void contiguous(long bytes, int per_proc_file, size_t off) {
  char path[600];
  MPI_File fh;
  long reps = bytes < (1L << 20) ? (1L << 20) / bytes : 1;
  arena_reset();
  char *buf = buf_alloc((size_t)bytes, off), *in = buf_alloc((size_t)(bytes * reps), off);
  double tw[kTries + 1], tr[kTries + 1], sw[kTries + 1], sr[kTries + 1];
  MPI_Comm comm = per_proc_file ? MPI_COMM_SELF : MPI_COMM_WORLD;
  if (per_proc_file)
    snprintf(path, sizeof path, "%s/nn.%d", dir, rank);
  else
    snprintf(path, sizeof path, "%s/n1", dir);
  fill(buf, bytes, rank);
  MPI_File_open(comm, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  for (int k = 0; k <= kTries; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), c0 = now();
    for (long j = 0; j < reps; ++j) {
      if (per_proc_file)
        MPI_File_write_at(fh, j * bytes, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
      else
        MPI_File_write_at_all(fh, (j * size + rank) * bytes, buf, (int)bytes, MPI_BYTE,
                              MPI_STATUS_IGNORE);
    }
    double c1 = now();
    tw[k] = maxtime(MPI_Wtime() - t0);
    sw[k] = span(c0, c1);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = now();
    for (long j = 0; j < reps; ++j) {
      if (per_proc_file)
        MPI_File_read_at(fh, j * bytes, in + j * bytes, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
      else
        MPI_File_read_at_all(fh, (j * size + rank) * bytes, in + j * bytes, (int)bytes, MPI_BYTE,
                             MPI_STATUS_IGNORE);
    }
    c1 = now();
    tr[k] = maxtime(MPI_Wtime() - t0);
    sr[k] = span(c0, c1);
    for (long j = 0; j < reps; ++j) check(in + j * bytes, bytes, rank, "contiguous read");
  }
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (per_proc_file || rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  /* the phase's aggregate rate, as IOR reports it; then the slowest
   * proc's own time (see span()) */
  const char *name = per_proc_file ? "nn" : off ? "n1_buf16" : "n1";
  report(name, bytes, bytes * reps, median_of(sw + 1, kTries), median_of(sr + 1, kTries));
  if (!off)
    report(per_proc_file ? "nn_slowest" : "n1_slowest", bytes, bytes * reps,
           median_of(tw + 1, kTries), median_of(tr + 1, kTries));
}

/* rows: the decomposition splits the fastest dimension first, so each
 * proc's part of the file is rows of n doubles (256 or 512 bytes) at any
 * np; otherwise MPI_Dims_create's order (at np 2 each proc's block is one
 * contiguous range, at np 4 runs of n * n doubles). */
static void subarray(int n, int rows) {
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Comm cart;
  MPI_Dims_create(size, 3, dims);
  if (rows) {
    int t = dims[0];
    dims[0] = dims[2];
    dims[2] = t;
  }
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Cart_coords(cart, rank, 3, coords);
  int gsz[3] = {dims[0] * n, dims[1] * n, dims[2] * n}, sub[3] = {n, n, n};
  int st[3] = {coords[0] * n, coords[1] * n, coords[2] * n};
  MPI_Datatype ft;
  MPI_Type_create_subarray(3, gsz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &ft);
  MPI_Type_commit(&ft);
  long cnt = (long)n * n * n, bytes = cnt * 8;
  arena_reset();
  double *a = buf_alloc((size_t)bytes, 0), *b = buf_alloc((size_t)bytes, 0);
  for (long i = 0; i < cnt; ++i) a[i] = rank * 1e9 + (double)i;
  char path[600];
  snprintf(path, sizeof path, "%s/subarray", dir);
  MPI_File fh;
  double tw[kShortTries + 1], tr[kShortTries + 1];
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, 0, MPI_DOUBLE, ft, "native", MPI_INFO_NULL);
  for (int k = 0; k <= kShortTries; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_write_at_all(fh, 0, a, (int)cnt, MPI_DOUBLE, MPI_STATUS_IGNORE);
    tw[k] = maxtime(MPI_Wtime() - t0);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_File_read_at_all(fh, 0, b, (int)cnt, MPI_DOUBLE, MPI_STATUS_IGNORE);
    tr[k] = maxtime(MPI_Wtime() - t0);
    if (memcmp(a, b, (size_t)bytes) != 0) {
      fprintf(stderr, "rank %d: subarray read wrong\n", rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  report(rows ? "subarray_rows" : "subarray", bytes, bytes, median_of(tw + 1, kShortTries),
         median_of(tr + 1, kShortTries));
  MPI_Type_free(&ft);
  MPI_Comm_free(&cart);
}

static void strided(long bytes) {
  const int blk = 256;
  long nblk = bytes / blk;
  char path[600];
  snprintf(path, sizeof path, "%s/strided", dir);
  arena_reset();
  char *buf = buf_alloc((size_t)bytes * size, 0), *in = buf_alloc((size_t)bytes, 0);
  MPI_File fh;
  MPI_Datatype b, ft;
  MPI_Type_contiguous(blk, MPI_BYTE, &b);
  MPI_Type_create_resized(b, 0, (MPI_Aint)blk * size, &ft);
  MPI_Type_commit(&ft);
  MPI_Type_free(&b);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  if (rank == 0) {
    /* the file: block j of proc r holds that proc's stream bytes */
    for (long j = 0; j < nblk; ++j)
      for (int r = 0; r < size; ++r)
        for (int i = 0; i < blk; ++i) buf[(j * size + r) * blk + i] = (char)((j * blk + i) * 7 + r);
    MPI_File_write_at(fh, 0, buf, (int)(bytes * size), MPI_BYTE, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_set_view(fh, (MPI_Offset)rank * blk, MPI_BYTE, ft, "native", MPI_INFO_NULL);
  double tr[kShortTries + 1];
  for (int k = 0; k <= kShortTries; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_read_at(fh, 0, in, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    tr[k] = maxtime(MPI_Wtime() - t0);
    check(in, bytes, rank, "strided read");
  }
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  double total = (double)bytes * size / 1e6;
  if (rank == 0) printf("strided %ld 0 %.1f\n", bytes, total / median_of(tr + 1, kShortTries));
  MPI_Type_free(&ft);
}

static void open_close(void) {
  char path[600];
  snprintf(path, sizeof path, "%s/oc", dir);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  MPI_File_close(&fh);
  const int reps = 20;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i) {
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_close(&fh);
  }
  double t = maxtime(MPI_Wtime() - t0);
  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL);
    printf("open_close 0 %.1f 0\n", t / reps * 1e6);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  snprintf(dir, sizeof dir, "%s", argc > 1 ? argv[1] : ".");
  long max = argc > 2 ? atol(argv[2]) : 16L << 20;
  /* the largest buffer: a contiguous case's, strided's (1 MiB per proc),
   * subarray's (2 MiB) */
  long most = max > (1L << 20) * size ? max : (1L << 20) * size;
  arena_init((size_t)(most > (2L << 20) ? most : (2L << 20)));
  /* IO_BENCH_ONLY=n1,strided,...: those groups only (to compare one
   * case in many alternating runs) */
  const char *only = getenv("IO_BENCH_ONLY");
#define RUN(group) (!only || strstr(only, group))
  if (RUN("n1"))
    for (long b = 4096; b <= max; b *= 16) contiguous(b, 0, 0);
  if (RUN("nn"))
    for (long b = 4096; b <= max; b *= 16) contiguous(b, 1, 0);
  if (RUN("buf16"))
    for (long b = 1L << 20; b <= max; b *= 16) contiguous(b, 0, 16);
  if (RUN("subarray")) {
    subarray(32, 0);
    subarray(64, 0);
  }
  if (RUN("rows")) {
    subarray(32, 1);
    subarray(64, 1);
  }
  if (RUN("strided")) strided(1L << 20);
  if (RUN("open")) open_close();
  MPI_Finalize();
  return 0;
}
