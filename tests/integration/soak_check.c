/* soak_check.c - load and soak: every rank streams MSGS messages of random
 * sizes (0 B to MAXSIZE, mostly small), random tags and random cancels to
 * random other ranks, while receiving whatever comes (MPI_Improbe/MPI_Mrecv
 * on MPI_ANY_SOURCE, MPI_ANY_TAG). It checks exactly-once, in-order
 * delivery per sender:
 *  - every payload carries a pattern derived from (source, size, tag), and
 *    its sequence number when it has room (>= 4 bytes);
 *  - after its last send completes, a rank sends each peer an END message
 *    listing every message it sent there (size, tag, cancelled or not);
 *    the receiver compares what arrived with the ones not cancelled, in
 *    order (END comes last: per-sender order).
 * Then, unless COMMS is 0, it creates and frees communicators (dup, split,
 * create) COMMS times and checks that its resident memory stays flat.
 *
 * Usage: soak_check MSGS [SEED] [MAXSIZE] [COMMS]
 * Prints "rank R soak ok: S sent (C cancelled), G received, ..." per rank. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_END 30000
#define WINDOW 16

typedef struct {
  int32_t size, tag, cancelled;
} Entry;
typedef struct {
  Entry *e;
  long n, cap;
} Log;

static void log_add(Log *l, Entry x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->e = realloc(l->e, (size_t)l->cap * sizeof *l->e);
    if (!l->e) abort();
  }
  l->e[l->n++] = x;
}

typedef struct {
  int32_t seq, size, tag;
} Got;
typedef struct {
  Got *g;
  long n, cap;
} GotLog;
static void got_add(GotLog *l, Got x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->g = realloc(l->g, (size_t)l->cap * sizeof *l->g);
    if (!l->g) abort();
  }
  l->g[l->n++] = x;
}

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}
static long pick_size(long maxsize) {
  uint64_t u = rnd() % 10000;
  long lo, hi;
  if (u < 9000)
    lo = 0, hi = 64; /* 90%: one packet at datalen 64 */
  else if (u < 9900)
    lo = 65, hi = 4096; /* 9% */
  else if (u < 9990)
    lo = 4097, hi = 65536; /* 0.9% */
  else
    lo = 65537, hi = maxsize; /* 0.1%: up to MAXSIZE */
  if (hi > maxsize) hi = maxsize;
  if (lo > hi) lo = hi;
  return lo + (long)(rnd() % (uint64_t)(hi - lo + 1));
}
static unsigned char pat(int src, long size, int tag, long i) {
  return (unsigned char)(src * 31 + size * 7 + tag * 13 + i);
}
static void fill(unsigned char *b, long size, int src, int tag, int32_t seq) {
  for (long i = 0; i < size; ++i) b[i] = pat(src, size, tag, i);
  if (size >= 4) memcpy(b, &seq, 4);
}

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &v) == 1) break;
  fclose(f);
  return v;
}

int main(int argc, char **argv) {
  int rank, size, failures = 0;
  long msgs = argc > 1 ? atol(argv[1]) : 1000;
  long seed = argc > 2 ? atol(argv[2]) : 1;
  long maxsize = argc > 3 ? atol(argv[3]) : 4L << 20;
  long comms = argc > 4 ? atol(argv[4]) : 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "soak_check needs 2 ranks or more\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  rng_state = (uint64_t)(seed * 1000003 + rank + 1) * 0x9E3779B97F4A7C15ULL;
  double t0 = MPI_Wtime();

  Log *sent = calloc((size_t)size, sizeof *sent);
  GotLog *got = calloc((size_t)size, sizeof *got);
  int32_t *next_seq = calloc((size_t)size, sizeof *next_seq);
  int *ended = calloc((size_t)size, sizeof *ended);
  MPI_Request req[WINDOW];
  unsigned char *buf[WINDOW];
  int dest_of[WINDOW], slot_of[WINDOW];
  long slot_entry[WINDOW];
  int nfree = WINDOW, freelist[WINDOW];
  for (int i = 0; i < WINDOW; ++i) req[i] = MPI_REQUEST_NULL, freelist[i] = i, buf[i] = NULL;
  (void)slot_of;
  long issued = 0, cancelled = 0, received = 0, bytes_in = 0;
  int ends_left = size - 1, ends_sent = 0;
  MPI_Request *end_req = calloc((size_t)size, sizeof *end_req);
  int32_t **end_buf = calloc((size_t)size, sizeof *end_buf);
  unsigned char *rbuf = malloc((size_t)maxsize + 16);
  long rss_mid = -1;

  while (ends_left > 0 || !ends_sent) {
    /* sends: keep the window full */
    while (issued < msgs && nfree > 0) {
      int s = freelist[--nfree];
      int d = (int)(rnd() % (uint64_t)(size - 1));
      if (d >= rank) ++d;
      long sz = pick_size(maxsize);
      int tag = (int)(rnd() % 1000);
      buf[s] = malloc((size_t)sz + 1);
      fill(buf[s], sz, rank, tag, next_seq[d]);
      Entry e = {(int32_t)sz, tag, 0};
      log_add(&sent[d], e);
      slot_entry[s] = sent[d].n - 1;
      dest_of[s] = d;
      ++next_seq[d];
      MPI_Isend(buf[s], (int)sz, MPI_BYTE, d, tag, MPI_COMM_WORLD, &req[s]);
      if (rnd() % 100 < 5) MPI_Cancel(&req[s]); /* 5%: cancel; it may or may not succeed */
      ++issued;
      if (issued == msgs / 2 && rss_mid < 0) rss_mid = rss_kib();
    }
    /* completions */
    if (nfree < WINDOW) {
      int outcount, idx[WINDOW];
      MPI_Status st[WINDOW];
      MPI_Testsome(WINDOW, req, &outcount, idx, st);
      for (int k = 0; outcount != MPI_UNDEFINED && k < outcount; ++k) {
        int s = idx[k], flag = 0;
        MPI_Test_cancelled(&st[k], &flag);
        if (flag) {
          sent[dest_of[s]].e[slot_entry[s]].cancelled = 1;
          ++cancelled;
        }
        free(buf[s]);
        buf[s] = NULL;
        freelist[nfree++] = s;
      }
    }
    /* END messages once every send is complete */
    if (!ends_sent && issued == msgs && nfree == WINDOW) {
      for (int d = 0; d < size; ++d) {
        if (d == rank) continue;
        long n = sent[d].n;
        end_buf[d] = malloc((size_t)(1 + 3 * n) * sizeof(int32_t));
        end_buf[d][0] = (int32_t)n;
        for (long i = 0; i < n; ++i) {
          end_buf[d][1 + 3 * i] = sent[d].e[i].size;
          end_buf[d][2 + 3 * i] = sent[d].e[i].tag;
          end_buf[d][3 + 3 * i] = sent[d].e[i].cancelled;
        }
        MPI_Isend(end_buf[d], (int)(1 + 3 * n), MPI_INT32_T, d, TAG_END, MPI_COMM_WORLD,
                  &end_req[d]);
      }
      end_req[rank] = MPI_REQUEST_NULL;
      ends_sent = 1;
    }
    /* receives: whatever is there */
    for (int polls = 0; polls < 8; ++polls) {
      int flag = 0, count = 0;
      MPI_Message m;
      MPI_Status st;
      MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st);
      if (!flag) break;
      int src = st.MPI_SOURCE;
      if (st.MPI_TAG == TAG_END) {
        MPI_Get_count(&st, MPI_INT32_T, &count);
        int32_t *e = malloc((size_t)count * sizeof *e);
        MPI_Mrecv(e, count, MPI_INT32_T, &m, &st);
        long n = e[0], k = 0;
        if (count != 1 + 3 * n) {
          fprintf(stderr, "rank %d: END from %d has %d ints for %ld entries\n", rank, src, count,
                  n);
          ++failures;
          n = 0;
        }
        for (long i = 0; i < n; ++i) {
          if (e[3 + 3 * i]) continue; /* cancelled: must not have arrived */
          if (k >= got[src].n) {
            fprintf(stderr, "rank %d: message %ld from %d (size %d, tag %d) never arrived\n", rank,
                    i, src, e[1 + 3 * i], e[2 + 3 * i]);
            ++failures;
            break;
          }
          Got g = got[src].g[k++];
          if (g.size != e[1 + 3 * i] || g.tag != e[2 + 3 * i] ||
              (g.seq >= 0 && g.seq != (int32_t)i)) {
            fprintf(
                stderr,
                "rank %d: from %d, arrival %ld is (seq %d, size %d, tag %d); expected message %ld "
                "(size %d, tag %d)\n",
                rank, src, k - 1, g.seq, g.size, g.tag, i, e[1 + 3 * i], e[2 + 3 * i]);
            ++failures;
            break;
          }
        }
        if (failures == 0 && k != got[src].n) {
          fprintf(stderr,
                  "rank %d: %ld messages from %d arrived; %ld were sent and not cancelled\n", rank,
                  got[src].n, src, k);
          ++failures;
        }
        free(e);
        ended[src] = 1;
        --ends_left;
        continue;
      }
      if (ended[src]) {
        fprintf(stderr, "rank %d: a message from %d after its END\n", rank, src);
        ++failures;
      }
      MPI_Get_count(&st, MPI_BYTE, &count);
      if (count > maxsize) {
        fprintf(stderr, "rank %d: a %d-byte message from %d\n", rank, count, src);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      MPI_Mrecv(rbuf, count, MPI_BYTE, &m, &st);
      Got g = {-1, count, st.MPI_TAG};
      for (long i = count >= 4 ? 4 : 0; i < count; ++i)
        if (rbuf[i] != pat(src, count, st.MPI_TAG, i)) {
          fprintf(stderr, "rank %d: from %d, a %d-byte message (tag %d) has byte %ld wrong\n", rank,
                  src, count, st.MPI_TAG, i);
          ++failures;
          break;
        }
      if (count >= 4) memcpy(&g.seq, rbuf, 4);
      got_add(&got[src], g);
      ++received;
      bytes_in += count;
    }
    if (failures > 5) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Waitall(size, end_req, MPI_STATUSES_IGNORE);
  double t1 = MPI_Wtime();
  long rss_end = rss_kib();
  long lo_rss = -1, hi_rss = -1;

  /* communicators created and freed: memory must stay flat */
  if (comms > 0) {
    long warm = comms / 10 + 10;
    for (long i = 0; i < comms + warm; ++i) {
      MPI_Comm a, b, c;
      MPI_Group g;
      MPI_Comm_dup(MPI_COMM_WORLD, &a);
      MPI_Comm_split(a, rank % 2, -rank, &b);
      MPI_Comm_group(b, &g);
      MPI_Comm_create(b, g, &c);
      int x = 1, y = 0;
      MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
      int bs;
      MPI_Comm_size(b, &bs);
      if (y != bs) {
        fprintf(stderr, "rank %d: Allreduce on a new communicator gave %d, not %d\n", rank, y, bs);
        ++failures;
      }
      MPI_Group_free(&g);
      MPI_Comm_free(&c);
      MPI_Comm_free(&b);
      MPI_Comm_free(&a);
      if (i == warm - 1) lo_rss = rss_kib();
    }
    hi_rss = rss_kib();
    /* a leak of 256 bytes per iteration would add comms/4 KiB. (Under
       AddressSanitizer freed memory sits in its quarantine, so resident memory
       grows anyway; there LeakSanitizer does this check at exit.) */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    int judge_rss = 0;
#else
    int judge_rss = 1;
#endif
    { /* under valgrind (its preload library) freed blocks are held back too */
      const char *pre = getenv("LD_PRELOAD");
      if (pre && strstr(pre, "vgpreload")) judge_rss = 0;
    }
    if (judge_rss && hi_rss - lo_rss > 1024 + comms / 8) {
      fprintf(stderr,
              "rank %d: resident memory grew from %ld to %ld KiB over %ld communicator rounds\n",
              rank, lo_rss, hi_rss, comms);
      ++failures;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0)
    printf(
        "rank %d soak ok: %ld sent (%ld cancelled), %ld received (%ld bytes) in %.2f s; rss %ld -> "
        "%ld KiB; "
        "communicators: %ld rounds, rss %ld -> %ld KiB\n",
        rank, issued, cancelled, received, bytes_in, t1 - t0, rss_mid, rss_end, comms, lo_rss,
        hi_rss);
  for (int d = 0; d < size; ++d) {
    free(sent[d].e);
    free(got[d].g);
    free(end_buf[d]);
  }
  free(sent), free(got), free(next_seq), free(ended), free(end_req), free(end_buf), free(rbuf);
  MPI_Finalize();
  return failures ? 1 : 0;
}
