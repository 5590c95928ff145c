/* rma_bench.c - one-sided communication (MPI_Win_*) between ranks 0 and 1,
 * an ordinary MPI program so the same source measures any MPI library.
 * Rank 0 is the origin, rank 1 the target (its window memory is the one
 * read and written); further ranks only take part in window creation.
 *
 * Tests (one op of `bytes`, then the epoch's completion, per iteration):
 *   put_lat, get_lat  MPI_Put / MPI_Get of MPI_BYTE, us per iteration
 *   put_bw, get_bw    32 ops (16 from 1 MiB) to the same target offset, then
 *                     one completion, MB/s (1e6 bytes per second)
 *   acc_lat           MPI_Accumulate, MPI_SUM on bytes/8 MPI_DOUBLE, us
 *   fop_lat           MPI_Fetch_and_op, MPI_SUM on one MPI_INT64_T, us
 *   cas_lat           MPI_Compare_and_swap on one MPI_INT64_T, us
 * Epochs (the completion):
 *   fence     both ranks: MPI_Win_fence(0) after the origin's op(s); the
 *             timed loop sits between a fence(MPI_MODE_NOPRECEDE) and a
 *             fence(MPI_MODE_NOSUCCEED)
 *   lock      origin: MPI_Win_lock(EXCLUSIVE, 1) op(s) MPI_Win_unlock(1) per
 *             iteration; the target waits in MPI_Barrier (so it progresses)
 *   lock_all  origin: MPI_Win_lock_all once per repetition, then op(s) +
 *             MPI_Win_flush(1) per iteration; the target as for lock
 * For each (test, epoch, size): a warm-up whose time decides the iteration
 * count (rank 0 decides, broadcasts) so one repetition takes about
 * RMA_BENCH_REP_S seconds (default 0.01; at least 1 iteration), then
 * `reps` timed repetitions, each count re-aimed at that time from the last
 * repetition's. Each point ends with a check that the data
 * arrived (put: the target's bytes; get: the origin's; acc/fop: the sum;
 * cas: the swapped value); a wrong value prints "CHECK FAILED" and aborts.
 * Prints "# <test> <epoch>" as each (test, epoch) starts (so a run that dies
 * or hangs names the pair at fault), then per size
 * "<test> <epoch> <bytes> <median> <min> <max>" (over the repetitions), and
 * "# done" after the last point, before MPI_Win_free and MPI_Finalize.
 *
 * Usage: rma_bench [-t TESTS] [-e EPOCHS] [-x SKIP] [-s MIN] [-S MAX] [-r REPS] [-c]
 *   TESTS, EPOCHS: comma-separated, or "all" (the default)
 *   SKIP: comma-separated test:epoch pairs to leave out (bench/rma.sh uses
 *   it to go on after a pair that crashed or hung)
 *   sizes: 8 and the powers of 4 from 16, within MIN..MAX (default 8..4 MiB;
 *   acc_lat stops at 64 KiB; fop_lat and cas_lat are 8 B only)
 *   -r REPS: timed repetitions per point (default 5)
 *   -c: the window from MPI_Win_create over malloc'd memory instead of
 *   MPI_Win_allocate */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 32     /* bandwidth: ops per completion */
#define WINDOW_BIG 16 /* ... from BIG bytes */
#define BIG 1048576L
#define ACC_MAX 65536L

static const char *tests[] = {"put_lat", "get_lat", "put_bw", "get_bw",
                              "acc_lat", "fop_lat", "cas_lat"};
static const char *epochs[] = {"fence", "lock", "lock_all"};
enum { PUT_LAT, GET_LAT, PUT_BW, GET_BW, ACC_LAT, FOP_LAT, CAS_LAT, NTESTS };
enum { FENCE, LOCK, LOCK_ALL, NEPOCHS };

static int rank;
static MPI_Win win;
static unsigned char *wbase; /* the window's memory on this rank */
static unsigned char *obuf;  /* the origin's buffer (put source, get target) */
static int64_t fop_in = 1, fop_out, cas_cmp, cas_new, cas_out;
static long done_ops; /* ops applied at the target during this point */

static int selected(const char *list, const char *name) {
  size_t n = strlen(name);
  const char *p = list;
  if (!strcmp(list, "all")) return 1;
  if (!*list) return 0;
  while ((p = strstr(p, name))) {
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0)) return 1;
    p += n;
  }
  return 0;
}

/* One RMA operation of `size` bytes to rank 1 at offset 0. */
static void op(int t, long size) {
  switch (t) {
    case PUT_LAT:
    case PUT_BW:
      MPI_Put(obuf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win);
      break;
    case GET_LAT:
    case GET_BW:
      MPI_Get(obuf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win);
      break;
    case ACC_LAT:
      MPI_Accumulate(obuf, (int)(size / 8), MPI_DOUBLE, 1, 0, (int)(size / 8), MPI_DOUBLE, MPI_SUM,
                     win);
      break;
    case FOP_LAT:
      MPI_Fetch_and_op(&fop_in, &fop_out, MPI_INT64_T, 1, 0, MPI_SUM, win);
      break;
    case CAS_LAT:
      /* the target holds cas_cmp: swap in cas_new, and next time back */
      MPI_Compare_and_swap(&cas_new, &cas_cmp, &cas_out, MPI_INT64_T, 1, 0, win);
      break;
  }
}

/* After an op's completion: CAS alternates the two values. */
static void after(int t) {
  if (t == CAS_LAT) {
    int64_t x = cas_cmp;
    cas_cmp = cas_new;
    cas_new = x;
  }
}

static int ops_per_iter(int t, long size) {
  if (t != PUT_BW && t != GET_BW) return 1;
  return size >= BIG ? WINDOW_BIG : WINDOW;
}

/* `iters` iterations of test t in epoch e; seconds on rank 0. As few
 * synchronizations as will do (on a loaded machine each can cost a time
 * slice): in fence epochs the fences themselves; in passive ones the target
 * waits in a barrier, progressing, until the origin is done. */
static double run(int t, int e, long size, long iters) {
  int nops = ops_per_iter(t, size);
  long i;
  int w;
  double t0 = 0, t1 = 0;
  if (e == FENCE) {
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    t0 = MPI_Wtime();
    for (i = 0; i < iters; ++i) {
      if (rank == 0)
        for (w = 0; w < nops; ++w) op(t, size);
      MPI_Win_fence(0, win);
      if (rank == 0) after(t);
    }
    t1 = MPI_Wtime();
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  } else if (rank == 0 && e == LOCK) {
    t0 = MPI_Wtime();
    for (i = 0; i < iters; ++i) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
      for (w = 0; w < nops; ++w) op(t, size);
      MPI_Win_unlock(1, win);
      after(t);
    }
    t1 = MPI_Wtime();
  } else if (rank == 0) {
    MPI_Win_lock_all(0, win);
    t0 = MPI_Wtime();
    for (i = 0; i < iters; ++i) {
      for (w = 0; w < nops; ++w) op(t, size);
      MPI_Win_flush(1, win);
      after(t);
    }
    t1 = MPI_Wtime();
    MPI_Win_unlock_all(win);
  }
  if (e != FENCE) MPI_Barrier(MPI_COMM_WORLD);
  done_ops += iters * nops;
  return t1 - t0;
}

static unsigned char pattern(int t, long size, long i) {
  return (unsigned char)(i * 7 + size + 13 * t);
}

/* Before a point: rank 1's window (and rank 0's buffer) in a known state. */
static void prepare(int t, long size) {
  long i, n = size < 8 ? 8 : size;
  if (rank == 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    if (t == GET_LAT || t == GET_BW)
      for (i = 0; i < n; ++i) wbase[i] = pattern(t, size, i);
    else
      memset(wbase, 0, n);
    if (t == CAS_LAT) *(int64_t *)wbase = 11;
    MPI_Win_unlock(1, win);
  } else if (rank == 0) {
    if (t == PUT_LAT || t == PUT_BW)
      for (i = 0; i < n; ++i) obuf[i] = pattern(t, size, i);
    else if (t == ACC_LAT)
      for (i = 0; i < size / 8; ++i) ((double *)obuf)[i] = 1.0;
    else
      memset(obuf, 0, n);
    cas_cmp = 11;
    cas_new = 22;
  }
  done_ops = 0;
  MPI_Barrier(MPI_COMM_WORLD);
}

/* After a point: did the data arrive? Aborts if not. */
static void check(int t, int e, long size) {
  long i, bad = -1;
  double got = 0, want = 0;
#define EXPECT(idx, g, w)                                                          \
  do {                                                                             \
    if (bad < 0 && (g) != (w)) bad = (idx), got = (double)(g), want = (double)(w); \
  } while (0)
  if (rank == 1) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    if (t == PUT_LAT || t == PUT_BW)
      for (i = 0; i < size && bad < 0; ++i) EXPECT(i, wbase[i], pattern(t, size, i));
    else if (t == ACC_LAT)
      for (i = 0; i < size / 8 && bad < 0; ++i) EXPECT(i, ((double *)wbase)[i], (double)done_ops);
    else if (t == FOP_LAT)
      EXPECT(0, *(int64_t *)wbase, done_ops);
    else if (t == CAS_LAT)
      EXPECT(0, *(int64_t *)wbase, done_ops % 2 ? 22 : 11);
    MPI_Win_unlock(1, win);
  } else if (rank == 0) {
    if (t == GET_LAT || t == GET_BW)
      for (i = 0; i < size && bad < 0; ++i) EXPECT(i, obuf[i], pattern(t, size, i));
    else if (t == FOP_LAT)
      EXPECT(0, fop_out, done_ops - 1);
    else if (t == CAS_LAT)
      EXPECT(0, cas_out, cas_new); /* the last op returned the value it replaced */
  }
#undef EXPECT
  if (bad >= 0) {
    fprintf(stderr,
            "rma_bench: CHECK FAILED: %s %s %ld bytes, rank %d, element %ld is %.0f, not %.0f (%ld "
            "ops)\n",
            tests[t], epochs[e], size, rank, bad, got, want, done_ops);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double target_rep_s = 0.01;

static void point(int t, int e, long size, int reps) {
  int nops = ops_per_iter(t, size), r;
  long warm = size <= 8192 ? 20 : size <= 262144 ? 5 : 1, iters;
  double v[64];
  if (nops > 1) warm = size <= 8192 ? 3 : size <= 262144 ? 2 : 1;
  prepare(t, size);
  run(t, e, size, warm); /* first touch, connection set-up, lazy locks */
  double per = run(t, e, size, warm) / warm;
  iters = per > 0 ? (long)(target_rep_s / per) : 100000;
  if (iters < 1) iters = 1;
  if (iters > 100000) iters = 100000;
  MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  for (r = 0; r < reps; ++r) {
    double s = run(t, e, size, iters);
    v[r] = t == PUT_BW || t == GET_BW ? (double)size * nops * iters / s / 1e6 : s * 1e6 / iters;
    /* a warm-up timed in a quiet moment must not make every repetition
       take seconds on a loaded machine: aim the next one at the target */
    if (rank == 0 && s > 0) {
      double next = iters * target_rep_s / s;
      iters = next < 1 ? 1 : next > 2.0 * iters ? 2 * iters : (long)next;
      if (iters > 100000) iters = 100000;
    }
    MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  }
  check(t, e, size);
  if (rank == 0) {
    qsort(v, reps, sizeof v[0], cmp_double);
    double med = reps % 2 ? v[reps / 2] : (v[reps / 2 - 1] + v[reps / 2]) / 2;
    printf("%s %s %ld %.3f %.3f %.3f\n", tests[t], epochs[e], size, med, v[0], v[reps - 1]);
    fflush(stdout);
  }
}

static void usage(void) {
  if (rank == 0)
    fprintf(stderr,
            "usage: rma_bench [-t TESTS] [-e EPOCHS] [-x SKIP] [-s MIN] [-S MAX] [-r REPS] [-c]\n"
            "  TESTS: put_lat,get_lat,put_bw,get_bw,acc_lat,fop_lat,cas_lat or all\n"
            "  EPOCHS: fence,lock,lock_all or all\n"
            "  SKIP: test:epoch,... to leave out\n");
  MPI_Finalize();
  exit(1);
}

int main(int argc, char **argv) {
  const char *tsel = "all", *esel = "all", *skip = "";
  char pair[64];
  long min = 8, max = 1L << 22, size, wsize;
  int reps = 5, create = 0, nprocs, i, t, e;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-c"))
      create = 1;
    else if (!v)
      usage();
    else if (!strcmp(a, "-t"))
      tsel = v, ++i;
    else if (!strcmp(a, "-e"))
      esel = v, ++i;
    else if (!strcmp(a, "-x"))
      skip = v, ++i;
    else if (!strcmp(a, "-s"))
      min = atol(v), ++i;
    else if (!strcmp(a, "-S"))
      max = atol(v), ++i;
    else if (!strcmp(a, "-r"))
      reps = atoi(v), ++i;
    else
      usage();
  }
  if (nprocs < 2 || reps < 1 || reps > 64 || max < 8) usage();
  if (getenv("RMA_BENCH_REP_S")) target_rep_s = atof(getenv("RMA_BENCH_REP_S"));
  if (min < 8) min = 8;
  /* origin buffer and window: max bytes, at least a page (MPICH 4.0.2 on
     shared memory loses every RMA op to an 8-byte MPI_Win_allocate window) */
  wsize = max < 4096 ? 4096 : max;
  obuf = malloc(wsize);
  memset(obuf, 0, wsize);
  if (create) {
    wbase = malloc(wsize);
    memset(wbase, 0, wsize);
    MPI_Win_create(wbase, wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  } else {
    MPI_Win_allocate(wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbase, &win);
  }
  for (t = 0; t < NTESTS; ++t) {
    if (!selected(tsel, tests[t])) continue;
    for (e = 0; e < NEPOCHS; ++e) {
      if (!selected(esel, epochs[e])) continue;
      snprintf(pair, sizeof pair, "%s:%s", tests[t], epochs[e]);
      if (selected(skip, pair)) continue;
      if (rank == 0) {
        printf("# %s %s\n", tests[t], epochs[e]);
        fflush(stdout);
      }
      for (size = 8; size <= max; size = size == 8 ? 16 : size * 4) {
        if (size < min) continue;
        if (t == ACC_LAT && size > ACC_MAX) break;
        if ((t == FOP_LAT || t == CAS_LAT) && size > 8) break;
        point(t, e, size, reps);
      }
    }
  }
  if (rank == 0) {
    printf("# done\n"); /* whatever MPI_Win_free and MPI_Finalize then do */
    fflush(stdout);
  }
  MPI_Win_free(&win);
  if (create) free(wbase);
  free(obuf);
  MPI_Finalize();
  return 0;
}
