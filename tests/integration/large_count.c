/* large_count.c - messages larger than 2 GiB through the MPI-4 large-count
 * (_c) calls, at np 2 (one client, or one proc per client across clients):
 *  - MPI_Send_c/MPI_Recv_c of 2.25 GiB of MPI_BYTE; MPI_Get_count_c gives
 *    the count, MPI_Get_count/MPI_Get_elements MPI_UNDEFINED;
 *  - MPI_Isend_c/MPI_Irecv_c back of INT_MAX + 4100 MPI_CHARs;
 *  - MPI_Bcast_c of 2.25 GiB;
 *  - MPI_Type_contiguous_c of INT_MAX + 11 bytes: MPI_Type_size_c, the
 *    large-count envelope, one instance sent;
 *  - MPI_Put_c/MPI_Get_c of INT_MAX + 4100 bytes across the 2 GiB line of
 *    a window (MPI_Win_create_c).
 * Each payload is checked at thousands of offsets spread over the message,
 * and byte by byte around 2 GiB and at both ends. Each process holds one
 * buffer of 2.25 GiB (4.5 GiB for the job). Prints "rank r of n ok".
 * `large_count small`: the same calls with small counts (no memory).
 * `large_count 125`: only those sections (1: Send_c, 2: Isend_c, 3: Bcast_c,
 * 4: the big type, 5: one-sided). */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_rank, g_errors;

#define CHECK(cond, ...)                                       \
  do {                                                         \
    if (!(cond)) {                                             \
      ++g_errors;                                              \
      fprintf(stderr, "rank %d: line %d: ", g_rank, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                            \
      fprintf(stderr, "\n");                                   \
    }                                                          \
  } while (0)

#define MPI_OK(call) CHECK((call) == MPI_SUCCESS, "%s failed", #call)

/* The payload: byte i of a message with `seed` (depends on the high bits of i too). */
static uint64_t word_at(uint64_t w, uint64_t seed) {
  return (w + 1) * 0x9E3779B97F4A7C15ull ^ seed;
}
static unsigned char byte_at(uint64_t i, uint64_t seed) {
  return (unsigned char)(word_at(i / 8, seed) >> (8 * (i % 8)));
}
static void fill(unsigned char *p, uint64_t n, uint64_t seed) {
  uint64_t w, nw = n / 8, i;
  for (w = 0; w < nw; ++w) {
    uint64_t v = word_at(w, seed);
    memcpy(p + 8 * w, &v, 8);
  }
  for (i = nw * 8; i < n; ++i) p[i] = byte_at(i, seed);
}
static int check_range(const unsigned char *p, uint64_t from, uint64_t to, uint64_t n,
                       uint64_t seed, const char *what) {
  uint64_t i;
  if (to > n) to = n;
  for (i = from; i < to; ++i)
    if (p[i] != byte_at(i, seed)) {
      CHECK(0, "%s: byte %llu is %u, expected %u", what, (unsigned long long)i, p[i],
            byte_at(i, seed));
      return 0;
    }
  return 1;
}
/* Every 4099th byte, then dense windows at the ends and around 2 GiB. */
static void check(const unsigned char *p, uint64_t n, uint64_t seed, const char *what) {
  uint64_t i, edges[] = {0, (uint64_t)1 << 31, n};
  int k;
  for (i = 0; i < n; i += 4099)
    if (p[i] != byte_at(i, seed)) {
      CHECK(0, "%s: byte %llu is %u, expected %u", what, (unsigned long long)i, p[i],
            byte_at(i, seed));
      return;
    }
  for (k = 0; k < 3; ++k) {
    uint64_t lo = edges[k] > (1u << 20) ? edges[k] - (1u << 20) : 0;
    if (!check_range(p, lo, edges[k] + (1u << 20), n, seed, what)) return;
  }
}

int main(int argc, char **argv) {
  int size, small = argc > 1 && strcmp(argv[1], "small") == 0;
  const char *only = argc > 1 && argv[1][0] >= '1' && argv[1][0] <= '5' ? argv[1] : "12345";
  const MPI_Count big = small ? 9000 : (MPI_Count)9 << 28;         /* 2.25 GiB */
  const MPI_Count over = small ? 4099 : (MPI_Count)INT_MAX + 4100; /* > INT_MAX, odd */
  const MPI_Count tcount = small ? 11 : (MPI_Count)INT_MAX + 11;
  const MPI_Count disp = small ? 100 : (MPI_Count)64 << 20; /* the Put ends beyond 2 GiB */
  unsigned char *buf;
  MPI_Status st;
  MPI_Count c;
  int ic;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size != 2) {
    if (g_rank == 0) fprintf(stderr, "large_count runs at np 2\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  buf = malloc((size_t)big);
  if (!buf) {
    fprintf(stderr, "rank %d: cannot allocate %lld bytes\n", g_rank, (long long)big);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }

  /* 1. MPI_Send_c / MPI_Recv_c of `big` bytes, 0 -> 1. */
  if (!strchr(only, '1')) {
  } else if (g_rank == 0) {
    fill(buf, (uint64_t)big, 1);
    MPI_OK(MPI_Send_c(buf, big, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
  } else {
    memset(buf, 0, (size_t)big);
    MPI_OK(MPI_Recv_c(buf, big, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st));
    check(buf, (uint64_t)big, 1, "MPI_Send_c of MPI_BYTE");
    MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &c));
    CHECK(c == big, "MPI_Get_count_c: %lld, expected %lld", (long long)c, (long long)big);
    MPI_OK(MPI_Get_elements_c(&st, MPI_BYTE, &c));
    CHECK(c == big, "MPI_Get_elements_c: %lld", (long long)c);
    MPI_OK(MPI_Get_count(&st, MPI_BYTE, &ic));
    if (!small) CHECK(ic == MPI_UNDEFINED, "MPI_Get_count above INT_MAX: %d", ic);
    MPI_OK(MPI_Get_elements(&st, MPI_BYTE, &ic));
    if (!small) CHECK(ic == MPI_UNDEFINED, "MPI_Get_elements above INT_MAX: %d", ic);
    MPI_OK(MPI_Get_count_c(&st, MPI_INT, &c));
    CHECK(c == big / 4, "MPI_Get_count_c of MPI_INT: %lld", (long long)c);
  }

  /* 2. MPI_Isend_c / MPI_Irecv_c of `over` MPI_CHARs, 1 -> 0 (count > INT_MAX). */
  if (strchr(only, '2')) {
    MPI_Request r;
    if (g_rank == 1) {
      fill(buf, (uint64_t)over, 2);
      MPI_OK(MPI_Isend_c(buf, over, MPI_CHAR, 0, 8, MPI_COMM_WORLD, &r));
      MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
      memset(buf, 0, (size_t)big);
      MPI_OK(MPI_Irecv_c(buf, big, MPI_CHAR, 1, 8, MPI_COMM_WORLD, &r));
      MPI_OK(MPI_Wait(&r, &st));
      check(buf, (uint64_t)over, 2, "MPI_Isend_c of MPI_CHAR");
      CHECK(buf[over] == 0, "a byte past the message was written");
      MPI_OK(MPI_Get_count_c(&st, MPI_CHAR, &c));
      CHECK(c == over, "MPI_Get_count_c: %lld, expected %lld", (long long)c, (long long)over);
      MPI_OK(MPI_Get_count(&st, MPI_CHAR, &ic));
      if (!small) CHECK(ic == MPI_UNDEFINED, "MPI_Get_count of > INT_MAX chars: %d", ic);
      MPI_OK(MPI_Get_count(&st, MPI_DOUBLE, &ic)); /* not a whole number of doubles */
      CHECK(ic == MPI_UNDEFINED, "MPI_Get_count of MPI_DOUBLE: %d", ic);
    }
  }

  /* 3. MPI_Bcast_c of `big` bytes from rank 1. */
  if (strchr(only, '3')) {
    if (g_rank == 1)
      fill(buf, (uint64_t)big, 3);
    else
      memset(buf, 0, (size_t)big);
    MPI_OK(MPI_Bcast_c(buf, big, MPI_BYTE, 1, MPI_COMM_WORLD));
    check(buf, (uint64_t)big, 3, "MPI_Bcast_c");
  }

  /* 4. A contiguous type of more than INT_MAX bytes, one instance 0 -> 1. */
  if (strchr(only, '4')) {
    MPI_Datatype t;
    MPI_Count ni, na, nl, nd, lb, ext, large[1];
    int comb, i1, i2, i3, i4;
    MPI_Datatype inner[1];
    MPI_OK(MPI_Type_contiguous_c(tcount, MPI_BYTE, &t));
    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_size_c(t, &c));
    CHECK(c == tcount, "MPI_Type_size_c: %lld", (long long)c);
    MPI_OK(MPI_Type_size(t, &ic));
    if (!small) CHECK(ic == MPI_UNDEFINED, "MPI_Type_size above INT_MAX: %d", ic);
    MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == tcount, "MPI_Type_get_extent_c: %lld %lld", (long long)lb,
          (long long)ext);
    MPI_OK(MPI_Type_get_true_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == tcount, "MPI_Type_get_true_extent_c");
    MPI_OK(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb));
    CHECK(ni == 0 && na == 0 && nl == 1 && nd == 1 && comb == MPI_COMBINER_CONTIGUOUS,
          "MPI_Type_get_envelope_c: %lld %lld %lld %lld %d", (long long)ni, (long long)na,
          (long long)nl, (long long)nd, comb);
    MPI_OK(MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, large, inner));
    CHECK(large[0] == tcount && inner[0] == MPI_BYTE, "MPI_Type_get_contents_c: %lld",
          (long long)large[0]);
    if (!small) /* the int form cannot say the count */
      CHECK(MPI_Type_get_envelope(t, &i1, &i2, &i3, &i4) != MPI_SUCCESS,
            "MPI_Type_get_envelope of a count above INT_MAX succeeded");
    if (g_rank == 0) {
      fill(buf, (uint64_t)tcount, 4);
      MPI_OK(MPI_Send(buf, 1, t, 1, 9, MPI_COMM_WORLD));
    } else {
      memset(buf, 0, (size_t)big);
      MPI_OK(MPI_Recv_c(buf, big, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st));
      check(buf, (uint64_t)tcount, 4, "a contiguous type above INT_MAX");
      MPI_OK(MPI_Get_count(&st, t, &ic));
      CHECK(ic == 1, "MPI_Get_count of the big type: %d", ic);
      MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &c));
      CHECK(c == tcount, "MPI_Get_count_c: %lld", (long long)c);
    }
    MPI_OK(MPI_Type_free(&t));
  }

  /* 5. One-sided: rank 0 puts `over` bytes at `disp` into rank 1's window (the
   * span crosses 2 GiB), gets them back into a cleared buffer. */
  if (strchr(only, '5')) {
    MPI_Win win;
    if (g_rank == 1) memset(buf, 0, (size_t)big);
    MPI_OK(MPI_Win_create_c(buf, big, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_OK(MPI_Win_fence(0, win));
    if (g_rank == 0) {
      fill(buf, (uint64_t)over, 5);
      MPI_OK(MPI_Put_c(buf, over, MPI_BYTE, 1, (MPI_Aint)disp, over, MPI_BYTE, win));
    }
    MPI_OK(MPI_Win_fence(0, win));
    if (g_rank == 1) {
      check(buf + disp, (uint64_t)over, 5, "MPI_Put_c");
      CHECK(buf[disp - 1] == 0 && buf[disp + over] == 0, "MPI_Put_c wrote outside its span");
    }
    MPI_OK(MPI_Win_fence(0, win));
    if (g_rank == 0) {
      memset(buf, 0, (size_t)over);
      MPI_OK(MPI_Get_c(buf, over, MPI_BYTE, 1, (MPI_Aint)disp, over, MPI_BYTE, win));
    }
    MPI_OK(MPI_Win_fence(0, win));
    if (g_rank == 0) check(buf, (uint64_t)over, 5, "MPI_Get_c");
    MPI_OK(MPI_Win_free(&win));
  }

  free(buf);
  if (g_errors == 0) printf("rank %d of %d ok\n", g_rank, size);
  fflush(stdout);
  MPI_Finalize();
  return g_errors ? 1 : 0;
}
