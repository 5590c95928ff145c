/* datarep_check.c - typed data whose native and external32 sizes differ,
 * between ranks of different IMPI clients (docs/data-representation.md).
 *
 *   datarep_check        every rank exchanges longs (0x123456789a), unsigned
 *                        longs (ULONG_MAX), MPI_LONG_INT pairs, long doubles,
 *                        wchar_t, bool, MPI_AINT..., a long message and a
 *                        derived type with every rank of another client, and
 *                        runs collectives (Allreduce BXOR/BOR on unsigned
 *                        long, SUM, MAXLOC, Bcast, Gather, Allgather,
 *                        Scatter), MPI_Pack, Bsend, Sendrecv_replace and RMA
 *                        on them: every value arrives whole (impi-wide
 *                        between impi clients; shared memory in one client).
 *   datarep_check external32
 *                        run with IMPI_WIDE_DATAREP=0 (every client takes
 *                        only external32, as a peer that is not impi): a long
 *                        that does not fit in 4 bytes fails the send with
 *                        MPI_ERR_CONVERSION, its MPI_Error_string names the
 *                        type and the value, nothing arrives; values that fit
 *                        arrive exactly.
 *   datarep_check mixed F
 *                        client F alone takes only external32: whole between
 *                        the others, MPI_ERR_CONVERSION or exact with F.
 *   datarep_check fatal  (external32 too) rank 0 sends 0x123456789a as
 *                        MPI_LONG under MPI_ERRORS_ARE_FATAL: the job ends
 *                        with a message naming it (no rank hangs).
 * Prints "rank R of N ok". */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"

static int rank, size, failures;
static int *color;   /* each rank's IMPI client */
static int *targets; /* ranks of another client (all others in a one-client job) */
static int ntargets;

#define BIG 0x123456789aL

typedef struct {
  long v;
  int i;
} LongInt;
typedef struct {
  long double v;
  int i;
} LongDoubleInt;

static int same_ld(long double a, long double b) {
  return a == b && signbit(a) == signbit(b);
}

/* Each rank sends `count` of `type` from `out` to every target and receives
   from every target into `in` (ntargets blocks of `bytes`). */
static void exchange(const void *out, void *in, int count, MPI_Datatype type, size_t bytes,
                     int tag) {
  MPI_Request rq[64];
  int n = 0;
  for (int k = 0; k < ntargets; ++k) {
    MPI_Irecv((char *)in + k * bytes, count, type, targets[k], tag, MPI_COMM_WORLD, &rq[n++]);
    MPI_Isend(out, count, type, targets[k], tag, MPI_COMM_WORLD, &rq[n++]);
  }
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
}

static void p2p_whole(void) {
  long l[6] = {0, BIG, -BIG, LONG_MAX, LONG_MIN, -1};
  unsigned long ul[4] = {ULONG_MAX, 0xfedcba9876543210UL, 0x100000000UL, 0};
  LongInt li[2] = {{BIG, 0}, {LONG_MIN, -7}};
  long double ld[7] = {1.0L / 3, LDBL_MAX, LDBL_MIN, LDBL_MIN / 1024, -0.0L, INFINITY, 0};
  LongDoubleInt ldi[1] = {{2.0L / 3, 0}};
  long double _Complex ldc[1] = {1.0L / 3 + 2.0L / 7 * 1.0il};
  wchar_t wc[2] = {0x1F600, L'a'};
  bool b[2] = {true, false};
  MPI_Aint ai[2] = {(MPI_Aint)0x123456789abcdefLL, -2};
  MPI_Offset of[2] = {(MPI_Offset)0x123456789abcdefLL, -3};
  MPI_Count co[2] = {(MPI_Count)0x123456789abcdefLL, -4};
  long long ll[2] = {LLONG_MIN, 0x123456789abcdef0LL};
  int64_t i8[1] = {0x123456789abcLL};
  l[0] = rank;
  ul[3] = (unsigned long)rank;
  li[0].i = rank;
  ld[6] = rank + 0.5L;
  ldi[0].i = rank;
  static long big[20000], bigin[64 * 20000 / 16];
  for (int i = 0; i < 20000; ++i) big[i] = (long)i * 0x100000001L + rank;

  long lin[64 * 6];
  unsigned long ulin[64 * 4];
  LongInt liin[64 * 2];
  long double ldin[64 * 7];
  LongDoubleInt ldiin[64];
  long double _Complex ldcin[64];
  wchar_t wcin[64 * 2];
  bool bin[64 * 2];
  MPI_Aint aiin[64 * 2];
  MPI_Offset ofin[64 * 2];
  MPI_Count coin[64 * 2];
  long long llin[64 * 2];
  int64_t i8in[64];
  exchange(l, lin, 6, MPI_LONG, sizeof l, 1);
  exchange(ul, ulin, 4, MPI_UNSIGNED_LONG, sizeof ul, 2);
  exchange(li, liin, 2, MPI_LONG_INT, sizeof li, 3);
  exchange(ld, ldin, 7, MPI_LONG_DOUBLE, sizeof ld, 4);
  exchange(ldi, ldiin, 1, MPI_LONG_DOUBLE_INT, sizeof ldi, 5);
  exchange(ldc, ldcin, 1, MPI_C_LONG_DOUBLE_COMPLEX, sizeof ldc, 6);
  exchange(wc, wcin, 2, MPI_WCHAR, sizeof wc, 7);
  exchange(b, bin, 2, MPI_C_BOOL, sizeof b, 8);
  exchange(ai, aiin, 2, MPI_AINT, sizeof ai, 9);
  exchange(of, ofin, 2, MPI_OFFSET, sizeof of, 10);
  exchange(co, coin, 2, MPI_COUNT, sizeof co, 11);
  exchange(ll, llin, 2, MPI_LONG_LONG, sizeof ll, 12);
  exchange(i8, i8in, 1, MPI_INTEGER8, sizeof i8, 13);
  for (int k = 0; k < ntargets; ++k) {
    int s = targets[k];
    const long *L = lin + 6 * k;
    CHECK(L[0] == s && L[1] == BIG && L[2] == -BIG && L[3] == LONG_MAX && L[4] == LONG_MIN &&
              L[5] == -1,
          "MPI_LONG from %d: %lx %lx %lx %lx %lx %lx", s, L[0], L[1], L[2], L[3], L[4], L[5]);
    const unsigned long *U = ulin + 4 * k;
    CHECK(U[0] == ULONG_MAX && U[1] == 0xfedcba9876543210UL && U[2] == 0x100000000UL &&
              U[3] == (unsigned long)s,
          "MPI_UNSIGNED_LONG from %d: %lx %lx %lx %lx", s, U[0], U[1], U[2], U[3]);
    CHECK(liin[2 * k].v == BIG && liin[2 * k].i == s && liin[2 * k + 1].v == LONG_MIN &&
              liin[2 * k + 1].i == -7,
          "MPI_LONG_INT from %d: {%lx, %d} {%lx, %d}", s, liin[2 * k].v, liin[2 * k].i,
          liin[2 * k + 1].v, liin[2 * k + 1].i);
    const long double *D = ldin + 7 * k;
    CHECK(same_ld(D[0], 1.0L / 3) && same_ld(D[1], LDBL_MAX) && same_ld(D[2], LDBL_MIN) &&
              same_ld(D[3], LDBL_MIN / 1024) && same_ld(D[4], -0.0L) && isinf(D[5]) &&
              same_ld(D[6], s + 0.5L),
          "MPI_LONG_DOUBLE from %d: %La %La %La %La %La %La %La", s, D[0], D[1], D[2], D[3], D[4],
          D[5], D[6]);
    CHECK(same_ld(ldiin[k].v, 2.0L / 3) && ldiin[k].i == s, "MPI_LONG_DOUBLE_INT from %d: %La %d",
          s, ldiin[k].v, ldiin[k].i);
    CHECK(same_ld(__real__ ldcin[k], 1.0L / 3) && same_ld(__imag__ ldcin[k], 2.0L / 7),
          "MPI_C_LONG_DOUBLE_COMPLEX from %d", s);
    CHECK(wcin[2 * k] == 0x1F600 && wcin[2 * k + 1] == L'a', "MPI_WCHAR from %d: %x %x", s,
          (unsigned)wcin[2 * k], (unsigned)wcin[2 * k + 1]);
    CHECK(bin[2 * k] == true && bin[2 * k + 1] == false, "MPI_C_BOOL from %d", s);
    CHECK(aiin[2 * k] == ai[0] && aiin[2 * k + 1] == -2, "MPI_AINT from %d", s);
    CHECK(ofin[2 * k] == of[0] && ofin[2 * k + 1] == -3, "MPI_OFFSET from %d", s);
    CHECK(coin[2 * k] == co[0] && coin[2 * k + 1] == -4, "MPI_COUNT from %d", s);
    CHECK(llin[2 * k] == LLONG_MIN && llin[2 * k + 1] == ll[1], "MPI_LONG_LONG from %d", s);
    CHECK(i8in[k] == i8[0], "MPI_INTEGER8 from %d", s);
  }

  /* A long message (several packets), one target at a time, probed first. */
  for (int k = 0; k < ntargets; ++k) {
    MPI_Request rq;
    MPI_Status st;
    int count = -1;
    MPI_Isend(big, 20000, MPI_LONG, targets[k], 20, MPI_COMM_WORLD, &rq);
    MPI_Probe(targets[k], 20, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == 20000, "probe of 20000 longs from %d counts %d", targets[k], count);
    MPI_Recv(bigin, 20000, MPI_LONG, targets[k], 20, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_LONG, &count);
    CHECK(count == 20000, "20000 longs from %d: count %d", targets[k], count);
    int bad = 0;
    for (int i = 0; i < 20000; ++i) bad += bigin[i] != (long)i * 0x100000001L + targets[k];
    CHECK(bad == 0, "20000 longs from %d: %d wrong", targets[k], bad);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  }

  /* A derived type mixing them: {char; long; long double} x 3. */
  struct Mix {
    char c;
    long l;
    long double d;
  } mx[3], mxin[3];
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct Mix, c), offsetof(struct Mix, l), offsetof(struct Mix, d)};
  MPI_Datatype ty[3] = {MPI_CHAR, MPI_LONG, MPI_LONG_DOUBLE}, mix;
  MPI_Type_create_struct(3, bl, disp, ty, &mix);
  MPI_Type_commit(&mix);
  for (int i = 0; i < 3; ++i) {
    mx[i].c = (char)('a' + i);
    mx[i].l = BIG * (i + 1) + rank;
    mx[i].d = 1.0L / (3 + i);
  }
  for (int k = 0; k < ntargets; ++k) {
    MPI_Sendrecv(mx, 3, mix, targets[k], 21, mxin, 3, mix, targets[k], 21, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; ++i)
      CHECK(mxin[i].c == 'a' + i && mxin[i].l == BIG * (i + 1) + targets[k] &&
                same_ld(mxin[i].d, 1.0L / (3 + i)),
            "struct {char, long, long double} %d from %d: %c %lx", i, targets[k], mxin[i].c,
            mxin[i].l);
  }
  MPI_Type_free(&mix);

  /* MPI_Pack on MPI_COMM_WORLD, sent as MPI_PACKED. */
  char packed[64], packin[64];
  int pos = 0, psize = 0;
  long pl[2] = {BIG, -BIG - rank};
  MPI_Pack_size(2, MPI_LONG, MPI_COMM_WORLD, &psize);
  MPI_Pack(pl, 2, MPI_LONG, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  CHECK(pos == psize, "MPI_Pack wrote %d bytes, MPI_Pack_size says %d", pos, psize);
  for (int k = 0; k < ntargets; ++k) {
    MPI_Sendrecv(packed, pos, MPI_PACKED, targets[k], 22, packin, sizeof packin, MPI_PACKED,
                 targets[k], 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long back[2] = {0, 0};
    int at = 0;
    MPI_Unpack(packin, sizeof packin, &at, back, 2, MPI_LONG, MPI_COMM_WORLD);
    CHECK(back[0] == BIG && back[1] == -BIG - targets[k], "MPI_Unpack from %d: %lx %lx", targets[k],
          back[0], back[1]);
  }

  /* Bsend and Sendrecv_replace (they pack the peer's form themselves). */
  static char bbuf[4096];
  void *bptr;
  int bsz;
  MPI_Buffer_attach(bbuf, sizeof bbuf);
  for (int k = 0; k < ntargets; ++k) {
    long v = BIG + rank, got = 0;
    MPI_Bsend(&v, 1, MPI_LONG, targets[k], 23, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_LONG, targets[k], 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == BIG + targets[k], "MPI_Bsend from %d: %lx", targets[k], got);
    unsigned long r[2] = {ULONG_MAX - (unsigned long)rank, BIG};
    MPI_Sendrecv_replace(r, 2, MPI_UNSIGNED_LONG, targets[k], 24, targets[k], 24, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    CHECK(r[0] == ULONG_MAX - (unsigned long)targets[k] && r[1] == (unsigned long)BIG,
          "MPI_Sendrecv_replace from %d: %lx %lx", targets[k], r[0], r[1]);
  }
  MPI_Buffer_detach(&bptr, &bsz);
}

static void collectives_whole(void) {
  /* Allreduce BXOR and BOR on 7 unsigned longs (MPICH's coll/allred and
     coll/opbor, in miniature), SUM on long, MAXLOC on MPI_LONG_INT. */
  unsigned long v[7], x[7], o[7], ex[7], eo[7];
  for (int i = 0; i < 7; ++i) {
    ex[i] = 0;
    eo[i] = 0;
    for (int r = 0; r < size; ++r) {
      unsigned long w =
          (0x0101010101010101UL << i) * (unsigned long)(r + 1) ^ ((unsigned long)r << 40);
      ex[i] ^= w;
      eo[i] |= w;
      if (r == rank) v[i] = w;
    }
  }
  MPI_Allreduce(v, x, 7, MPI_UNSIGNED_LONG, MPI_BXOR, MPI_COMM_WORLD);
  MPI_Allreduce(v, o, 7, MPI_UNSIGNED_LONG, MPI_BOR, MPI_COMM_WORLD);
  for (int i = 0; i < 7; ++i) {
    CHECK(x[i] == ex[i], "Allreduce BXOR unsigned long [%d]: %lx, expected %lx", i, x[i], ex[i]);
    CHECK(o[i] == eo[i], "Allreduce BOR unsigned long [%d]: %lx, expected %lx", i, o[i], eo[i]);
  }
  long s = BIG * (rank + 1), sum = 0, esum = 0;
  for (int r = 0; r < size; ++r) esum += BIG * (r + 1);
  MPI_Allreduce(&s, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == esum, "Allreduce SUM long: %lx, expected %lx", sum, esum);
  LongInt mine = {0x1000000000L * (rank + 1), rank}, best;
  MPI_Allreduce(&mine, &best, 1, MPI_LONG_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  CHECK(best.v == 0x1000000000L * size && best.i == size - 1, "Allreduce MAXLOC: {%lx, %d}", best.v,
        best.i);

  /* Bcast from the last rank; Gather, Allgather, Scatter. */
  long bc[3] = {0, 0, 0};
  if (rank == size - 1) {
    bc[0] = BIG;
    bc[1] = LONG_MIN;
    bc[2] = -BIG;
  }
  MPI_Bcast(bc, 3, MPI_LONG, size - 1, MPI_COMM_WORLD);
  CHECK(bc[0] == BIG && bc[1] == LONG_MIN && bc[2] == -BIG, "Bcast: %lx %lx %lx", bc[0], bc[1],
        bc[2]);
  long g[2] = {BIG + rank, -BIG - rank}, *all = malloc(sizeof(long) * 2 * (size_t)size);
  MPI_Gather(g, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      CHECK(all[2 * r] == BIG + r && all[2 * r + 1] == -BIG - r, "Gather from %d: %lx %lx", r,
            all[2 * r], all[2 * r + 1]);
  memset(all, 0, sizeof(long) * 2 * (size_t)size);
  MPI_Allgather(g, 2, MPI_LONG, all, 2, MPI_LONG, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(all[2 * r] == BIG + r && all[2 * r + 1] == -BIG - r, "Allgather from %d: %lx %lx", r,
          all[2 * r], all[2 * r + 1]);
  unsigned long *sc = malloc(sizeof(unsigned long) * (size_t)size), part = 0;
  for (int r = 0; r < size; ++r) sc[r] = ULONG_MAX - (unsigned long)r;
  MPI_Scatter(sc, 1, MPI_UNSIGNED_LONG, &part, 1, MPI_UNSIGNED_LONG, size - 1, MPI_COMM_WORLD);
  CHECK(part == ULONG_MAX - (unsigned long)rank, "Scatter: %lx", part);
  free(sc);
  free(all);
}

static void rma_whole(void) {
  /* Each rank puts a long into its first target's window and gets one back. */
  long *base;
  MPI_Win win;
  MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  base[0] = 0;
  base[1] = -BIG * 3 - rank;
  MPI_Win_fence(0, win);
  long put = BIG * 2 + rank, got = 0;
  if (ntargets > 0) {
    MPI_Put(&put, 1, MPI_LONG, targets[0], 0, 1, MPI_LONG, win);
    MPI_Get(&got, 1, MPI_LONG, targets[0], 1, 1, MPI_LONG, win);
  }
  MPI_Win_fence(0, win);
  if (ntargets > 0)
    CHECK(got == -BIG * 3 - targets[0], "MPI_Get of a long from %d: %lx", targets[0], got);
  int from = 0, puts = 0;
  for (int r = 0; r < size; ++r) {
    /* which ranks put into us: those whose first target we are */
    int first = -1;
    for (int q = 0; q < size && first < 0; ++q)
      if (q != r && (color[q] != color[r] || ntargets == size - 1)) first = q;
    if (first == rank) {
      from = r;
      ++puts;
    }
  }
  if (puts == 1) CHECK(base[0] == BIG * 2 + from, "MPI_Put of a long from %d: %lx", from, base[0]);
  MPI_Win_free(&win);
}

static int conversion_error(int rc, const char *type, const char *value, const char *what) {
  int cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING] = "";
  if (rc != MPI_SUCCESS) {
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
  }
  CHECK(cls == MPI_ERR_CONVERSION, "%s: error class %d (code %d), expected MPI_ERR_CONVERSION",
        what, cls, rc);
  CHECK(strstr(text, type) && strstr(text, value),
        "%s: MPI_Error_string \"%s\" does not name %s and %s", what, text, type, value);
  return cls == MPI_ERR_CONVERSION;
}

/* Every client takes only external32: what fits arrives, what does not
   fails the send and never arrives. */
static void external32_only(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int k = 0; k < ntargets; ++k) {
    int t = targets[k];
    long big = BIG, fits[3] = {-5, 0x7fffffff, -0x80000000L};
    unsigned long ubig = 0x100000000UL, ufits = 0xffffffffUL;
    LongInt libig = {BIG, 1}, lifits = {-3, 9};
    long double ld[4] = {1.0L / 3, LDBL_MAX, LDBL_MIN / 1024, -0.0L};
    MPI_Request rq;
    conversion_error(MPI_Send(&big, 1, MPI_LONG, t, 1, MPI_COMM_WORLD), "MPI_LONG", "0x123456789a",
                     "MPI_Send of MPI_LONG 0x123456789a");
    conversion_error(MPI_Ssend(&ubig, 1, MPI_UNSIGNED_LONG, t, 3, MPI_COMM_WORLD),
                     "MPI_UNSIGNED_LONG", "0x100000000", "MPI_Ssend of MPI_UNSIGNED_LONG");
    conversion_error(MPI_Send(&libig, 1, MPI_LONG_INT, t, 5, MPI_COMM_WORLD), "MPI_LONG_INT",
                     "0x123456789a", "MPI_Send of MPI_LONG_INT");
    conversion_error(MPI_Isend(&big, 1, MPI_LONG, t, 7, MPI_COMM_WORLD, &rq), "MPI_LONG",
                     "78187493530", "MPI_Isend of MPI_LONG");
    conversion_error(MPI_Bsend(&big, 1, MPI_LONG, t, 9, MPI_COMM_WORLD), "MPI_LONG", "0x123456789a",
                     "MPI_Bsend of MPI_LONG");
    long neg = -BIG;
    conversion_error(MPI_Send(&neg, 1, MPI_LONG, t, 11, MPI_COMM_WORLD), "MPI_LONG",
                     "-0x123456789a", "MPI_Send of MPI_LONG -0x123456789a");
    /* What fits, after the failures: arrives as sent. */
    long lin[3] = {0, 0, 0};
    unsigned long uin = 0;
    LongInt liin = {0, 0};
    long double ldin[4];
    MPI_Sendrecv(fits, 3, MPI_LONG, t, 2, lin, 3, MPI_LONG, t, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(lin[0] == -5 && lin[1] == 0x7fffffff && lin[2] == -0x80000000L,
          "MPI_LONG that fits from %d: %lx %lx %lx", t, lin[0], lin[1], lin[2]);
    MPI_Sendrecv(&ufits, 1, MPI_UNSIGNED_LONG, t, 4, &uin, 1, MPI_UNSIGNED_LONG, t, 4,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(uin == 0xffffffffUL, "MPI_UNSIGNED_LONG that fits from %d: %lx", t, uin);
    MPI_Sendrecv(&lifits, 1, MPI_LONG_INT, t, 6, &liin, 1, MPI_LONG_INT, t, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(liin.v == -3 && liin.i == 9, "MPI_LONG_INT that fits from %d: {%ld, %d}", t, liin.v,
          liin.i);
    MPI_Sendrecv(ld, 4, MPI_LONG_DOUBLE, t, 8, ldin, 4, MPI_LONG_DOUBLE, t, 8, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(same_ld(ldin[0], 1.0L / 3) && same_ld(ldin[1], LDBL_MAX) &&
              same_ld(ldin[2], LDBL_MIN / 1024) && same_ld(ldin[3], -0.0L),
          "MPI_LONG_DOUBLE (binary128 in external32) from %d: %La %La %La %La", t, ldin[0], ldin[1],
          ldin[2], ldin[3]);
  }
  /* MPI_Pack on a communicator spanning such clients, and MPI_Pack_external. */
  char buf[16];
  int pos = 0;
  long big = BIG;
  if (ntargets > 0 && color[targets[0]] != color[rank])
    conversion_error(MPI_Pack(&big, 1, MPI_LONG, buf, sizeof buf, &pos, MPI_COMM_WORLD), "MPI_LONG",
                     "0x123456789a", "MPI_Pack of MPI_LONG across clients");
  /* Collectives on values that fit. */
  unsigned long v = 0xf0f0f0f0UL >> rank, x = 0, ex = 0;
  for (int r = 0; r < size; ++r) ex ^= 0xf0f0f0f0UL >> r;
  MPI_Allreduce(&v, &x, 1, MPI_UNSIGNED_LONG, MPI_BXOR, MPI_COMM_WORLD);
  CHECK(x == ex, "Allreduce BXOR of unsigned longs that fit: %lx, expected %lx", x, ex);
  /* Nothing of the failed sends arrived. */
  MPI_Barrier(MPI_COMM_WORLD);
  int tags[] = {1, 3, 5, 7, 9, 11};
  for (int i = 0; i < 6; ++i) {
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, tags[i], MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message with tag %d (a send that failed) arrived", tags[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* A job mixing impi clients and one client F that takes only external32
   (IMPI_WIDE_DATAREP=0, as LAM would): between impi clients longs arrive
   whole; to and from F a long that does not fit fails at its sender and
   what fits arrives. */
static void mixed(int foreign) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int me_foreign = color[rank] == foreign;
  for (int k = 0; k < ntargets; ++k) {
    int t = targets[k], ext32 = me_foreign || color[t] == foreign;
    long v[2] = {BIG + rank, -5}, in[2] = {0, 0};
    unsigned long u = ULONG_MAX, uin = 0;
    if (ext32) {
      conversion_error(MPI_Send(v, 2, MPI_LONG, t, 1, MPI_COMM_WORLD), "MPI_LONG", "0x12345678",
                       "MPI_Send of MPI_LONG to/from the external32 client");
      conversion_error(MPI_Send(&u, 1, MPI_UNSIGNED_LONG, t, 2, MPI_COMM_WORLD),
                       "MPI_UNSIGNED_LONG", "0xffffffffffffffff",
                       "MPI_Send of MPI_UNSIGNED_LONG to/from the external32 client");
      v[0] = 0x7fffffff - rank;
      u = 0xfffffffeUL;
    }
    MPI_Sendrecv(v, 2, MPI_LONG, t, 3, in, 2, MPI_LONG, t, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u, 1, MPI_UNSIGNED_LONG, t, 4, &uin, 1, MPI_UNSIGNED_LONG, t, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    long want = ext32 ? 0x7fffffff - t : BIG + t;
    unsigned long uwant = ext32 ? 0xfffffffeUL : ULONG_MAX;
    CHECK(in[0] == want && in[1] == -5, "MPI_LONG from %d (%s): %lx %lx, expected %lx", t,
          ext32 ? "external32" : "impi-wide", in[0], in[1], want);
    CHECK(uin == uwant, "MPI_UNSIGNED_LONG from %d (%s): %lx, expected %lx", t,
          ext32 ? "external32" : "impi-wide", uin, uwant);
  }
  /* A collective across all: values that fit everywhere. */
  long s = 0x1000 * (rank + 1), sum = 0, esum = 0;
  for (int r = 0; r < size; ++r) esum += 0x1000 * (r + 1);
  MPI_Allreduce(&s, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == esum, "Allreduce SUM long (mixed job): %lx, expected %lx", sum, esum);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int tag = 1; tag <= 2; ++tag) {
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message with tag %d (a send that failed) arrived", tag);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "whole";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *c, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, IMPI_CLIENT_COLOR, &c, &flag);
  int mycolor = flag ? *c : 0;
  color = malloc(sizeof(int) * (size_t)size);
  targets = malloc(sizeof(int) * (size_t)size);
  MPI_Allgather(&mycolor, 1, MPI_INT, color, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    if (color[r] != mycolor) targets[ntargets++] = r;
  if (ntargets == 0)
    for (int r = 0; r < size; ++r)
      if (r != rank) targets[ntargets++] = r;

  /* MPI_Pack_external: the standard's external32 in every job. */
  char ext[16];
  MPI_Aint epos = 0;
  long big = BIG;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  conversion_error(MPI_Pack_external("external32", &big, 1, MPI_LONG, ext, sizeof ext, &epos),
                   "MPI_LONG", "0x123456789a", "MPI_Pack_external of MPI_LONG");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  if (!strcmp(mode, "external32")) {
    external32_only();
  } else if (!strcmp(mode, "mixed")) {
    mixed(argc > 2 ? atoi(argv[2]) : 0);
  } else if (!strcmp(mode, "fatal")) {
    if (rank == 0) {
      MPI_Send(&big, 1, MPI_LONG, targets[0], 1, MPI_COMM_WORLD);
      fprintf(stderr, "rank 0: MPI_Send of MPI_LONG 0x123456789a returned\n");
    } else {
      int to = -1; /* rank 0's first target */
      for (int r = 1; r < size && to < 0; ++r)
        if (color[r] != color[0] || ntargets == size - 1) to = r;
      if (rank != to) goto done;
      long got = 0;
      MPI_Recv(&got, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      fprintf(stderr, "rank %d: received %lx\n", rank, got);
    }
    ++failures;
  done:;
  } else {
    p2p_whole();
    collectives_whole();
    rma_whole();
  }
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  free(color);
  free(targets);
  MPI_Finalize();
  return failures ? 1 : 0;
}
