/* coll_check.c - every blocking collective on MPI_COMM_WORLD (Bcast,
 * Reduce, Allreduce, Gather(v), Allgather(v), Scatter(v), Alltoall(v),
 * Reduce_scatter(_block), Scan, Exscan), from every root, with contents checked:
 * counts 0, 1, 1000 and 200000 ints (long messages across clients),
 * doubles, a strided derived type, MPI_IN_PLACE, a user-defined
 * non-commutative operation (2x2 matrix product: the result must be
 * M0 M1 ... M(p-1) in rank order), and error classes for a bad root, a bad
 * operation and a bad count. In one client the native algorithms run;
 * across clients the IMPI ones. Prints "rank r of n ok". */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;
#include "check.h"

#define P 1000003LL
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  long long *a = in, *b = inout;
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    long long c[4] = {(a[0] * b[0] + a[1] * b[2]) % P, (a[0] * b[1] + a[1] * b[3]) % P,
                      (a[2] * b[0] + a[3] * b[2]) % P, (a[2] * b[1] + a[3] * b[3]) % P};
    memcpy(b, c, sizeof c);
  }
}
static void mat_of(int r, long long m[4]) {
  m[0] = 1;
  m[1] = r + 1;
  m[2] = 2 * r + 3;
  m[3] = r; /* no two commute */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int counts[] = {0, 1, 1000, 200000};
  int *a = malloc(200000 * sizeof(int)), *b = malloc(200000 * sizeof(int));
  int *g = malloc((size_t)size * 1000 * sizeof(int));

  for (int root = 0; root < size; ++root) {
    for (int k = 0; k < 4; ++k) {
      int n = counts[k];
      /* Bcast */
      for (int i = 0; i < n; ++i) a[i] = rank == root ? root * 7 + i : -1;
      CHECK(MPI_Bcast(a, n, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS, "Bcast failed");
      for (int i = 0; i < n; ++i)
        if (a[i] != root * 7 + i) {
          CHECK(0, "Bcast root %d n %d: [%d] = %d", root, n, i, a[i]);
          break;
        }
      /* Reduce (sum, max) */
      for (int i = 0; i < n; ++i) a[i] = rank + i;
      memset(b, 0, (size_t)n * sizeof(int));
      CHECK(MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "Reduce failed");
      if (rank == root)
        for (int i = 0; i < n; ++i)
          if (b[i] != size * (size - 1) / 2 + size * i) {
            CHECK(0, "Reduce sum root %d n %d: [%d] = %d", root, n, i, b[i]);
            break;
          }
      /* in place at the root */
      for (int i = 0; i < n; ++i) a[i] = (rank * 31 + i) % 97;
      CHECK(MPI_Reduce(rank == root ? MPI_IN_PLACE : a, a, n, MPI_INT, MPI_MAX, root,
                       MPI_COMM_WORLD) == MPI_SUCCESS,
            "Reduce in place failed");
      if (rank == root)
        for (int i = 0; i < n; ++i) {
          int want = 0;
          for (int r = 0; r < size; ++r) want = (r * 31 + i) % 97 > want ? (r * 31 + i) % 97 : want;
          if (a[i] != want) {
            CHECK(0, "Reduce max in place root %d: [%d] = %d, want %d", root, i, a[i], want);
            break;
          }
        }
    }
    /* Gather: 1000 ints from each */
    for (int i = 0; i < 1000; ++i) a[i] = rank * 1000 + i;
    memset(g, 0xff, (size_t)size * 1000 * sizeof(int));
    if (rank == root) memcpy(g + root * 1000, a, 1000 * sizeof(int));
    CHECK(MPI_Gather(rank == root && root % 2 ? MPI_IN_PLACE : a, 1000, MPI_INT, g, 1000, MPI_INT,
                     root, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Gather failed");
    if (rank == root)
      for (int i = 0; i < size * 1000; ++i)
        if (g[i] != i) {
          CHECK(0, "Gather root %d: [%d] = %d", root, i, g[i]);
          break;
        }
    /* Gather of small blocks (across clients with MAXLINEAR 2: the tree among masters), 5 ints
       each, and of a strided type (every other int of 10) */
    {
      int sm[5], *gs = malloc((size_t)size * 10 * sizeof(int));
      MPI_Datatype every2;
      MPI_Type_vector(5, 1, 2, MPI_INT, &every2);
      MPI_Type_commit(&every2);
      for (int i = 0; i < 5; ++i) sm[i] = rank * 10 + i;
      for (int i = 0; i < size * 10; ++i) gs[i] = -1;
      CHECK(MPI_Gather(sm, 5, MPI_INT, gs, 5, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "small Gather failed");
      if (rank == root)
        for (int r = 0; r < size; ++r)
          for (int i = 0; i < 5; ++i)
            if (gs[r * 5 + i] != r * 10 + i) {
              CHECK(0, "small Gather root %d: rank %d [%d] = %d", root, r, i, gs[r * 5 + i]);
              r = size;
              break;
            }
      for (int i = 0; i < size * 10; ++i) gs[i] = -1;
      CHECK(MPI_Gather(sm, 5, MPI_INT, gs, 1, every2, root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "strided Gather failed");
      if (rank == root) /* block r: ints r*9 + 0, 2, 4, 6, 8 (the type's extent is 9 ints) */
        for (int r = 0; r < size; ++r)
          for (int i = 0; i < 5; ++i)
            if (gs[r * 9 + 2 * i] != r * 10 + i) {
              CHECK(0, "strided Gather root %d: rank %d [%d] = %d", root, r, i, gs[r * 9 + 2 * i]);
              r = size;
              break;
            }
      MPI_Type_free(&every2);
      /* Scatter of small blocks (the tree, mirrored) */
      for (int i = 0; i < size * 10; ++i) gs[i] = root * 1000 + i;
      for (int i = 0; i < 5; ++i) sm[i] = -1;
      CHECK(MPI_Scatter(gs, 5, MPI_INT, sm, 5, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "small Scatter failed");
      for (int i = 0; i < 5; ++i)
        if (sm[i] != root * 1000 + rank * 5 + i) {
          CHECK(0, "small Scatter root %d: [%d] = %d", root, i, sm[i]);
          break;
        }
      free(gs);
    }
    /* non-commutative: the matrix product in rank order */
    {
      MPI_Datatype mat;
      MPI_Op mul;
      MPI_Type_contiguous(4, MPI_LONG_LONG, &mat);
      MPI_Type_commit(&mat);
      MPI_Op_create(matmul, 0, &mul);
      long long m[4], out[4] = {0, 0, 0, 0}, want[4] = {1, 0, 0, 1};
      mat_of(rank, m);
      for (int r = 0; r < size; ++r) {
        long long x[4];
        int len = 1;
        MPI_Datatype d = mat;
        mat_of(r, x);
        /* want = want * x */
        matmul(want, x, &len, &d);
        memcpy(want, x, sizeof x);
      }
      CHECK(MPI_Reduce(m, out, 1, mat, mul, root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "Reduce (user op) failed");
      if (rank == root)
        CHECK(memcmp(out, want, sizeof want) == 0,
              "non-commutative Reduce root %d: {%lld %lld %lld %lld}", root, out[0], out[1], out[2],
              out[3]);
      MPI_Op_free(&mul);
      MPI_Type_free(&mat);
    }
  }
  /* Allreduce: doubles, in place; a strided type */
  {
    double d[3] = {rank + 0.5, -rank, 1.0}, e[3];
    CHECK(MPI_Allreduce(d, e, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Allreduce failed");
    CHECK(e[0] == size * (size - 1) / 2.0 + size * 0.5 && e[1] == -size * (size - 1) / 2.0 &&
              e[2] == size,
          "Allreduce doubles: %g %g %g", e[0], e[1], e[2]);
    int v = rank;
    CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS &&
              v == size - 1,
          "Allreduce in place: %d", v);
    MPI_Datatype every_other;
    MPI_Type_vector(500, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 1000; ++i) a[i] = i % 2 ? -7 : rank + i;
    for (int i = 0; i < 1000; ++i) b[i] = -9;
    CHECK(MPI_Allreduce(a, b, 1, every_other, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Allreduce vector failed");
    for (int i = 0; i < 1000; ++i) {
      int want = i % 2 ? -9 : size * (size - 1) / 2 + size * i;
      if (b[i] != want) {
        CHECK(0, "Allreduce vector: [%d] = %d, want %d", i, b[i], want);
        break;
      }
    }
    MPI_Type_free(&every_other);
  }
  /* Allreduce of counts around the size of a collective slot (4088 bytes: MPI_COMM_WORLD's
   * small Allreduce inside one client), out of place and in place */
  {
    static const int counts[] = {1, 29, 30, 31, 255, 256, 1021, 1022, 1023, 1024, 2000};
    int *x = malloc(2000 * sizeof(int)), *y = malloc(2000 * sizeof(int));
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
      const int n = counts[k];
      for (int i = 0; i < n; ++i) x[i] = (rank + 1) * (i + 7) + (int)k;
      memset(y, 0xff, 2000 * sizeof(int));
      CHECK(MPI_Allreduce(x, y, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
            "Allreduce of %d failed", n);
      for (int i = 0; i < n; ++i)
        if (y[i] != size * (size + 1) / 2 * (i + 7) + size * (int)k) {
          CHECK(0, "Allreduce of %d: [%d] = %d", n, i, y[i]);
          break;
        }
      CHECK(n == 2000 || y[n] == -1, "Allreduce of %d wrote past the count", n);
      CHECK(MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD) == MPI_SUCCESS,
            "in place %d", n);
      for (int i = 0; i < n; ++i)
        if (x[i] != (i + 7) + (int)k) {
          CHECK(0, "Allreduce min of %d: [%d] = %d", n, i, x[i]);
          break;
        }
    }
    free(x);
    free(y);
  }
  /* a long Allreduce (the ring inside one client), a count not divisible by the size */
  {
    const int nl = 200003;
    int *la = malloc(nl * sizeof(int)), *lb = malloc(nl * sizeof(int));
    for (int i = 0; i < nl; ++i) la[i] = (rank + 1) * (i % 1000);
    CHECK(MPI_Allreduce(la, lb, nl, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "long Allreduce failed");
    for (int i = 0; i < nl; ++i)
      if (lb[i] != size * (size + 1) / 2 * (i % 1000)) {
        CHECK(0, "long Allreduce [%d] = %d", i, lb[i]);
        break;
      }
    CHECK(MPI_Allreduce(MPI_IN_PLACE, la, nl, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS,
          "long Allreduce in place");
    for (int i = 0; i < nl; ++i)
      if (la[i] != size * (i % 1000)) {
        CHECK(0, "long Allreduce max [%d] = %d", i, la[i]);
        break;
      }
    free(la);
    free(lb);
  }
  /* Allgather, also in place */
  {
    for (int i = 0; i < 1000; ++i) a[i] = rank * 1000 + i;
    memset(g, 0, (size_t)size * 1000 * sizeof(int));
    CHECK(MPI_Allgather(a, 1000, MPI_INT, g, 1000, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Allgather failed");
    for (int i = 0; i < size * 1000; ++i)
      if (g[i] != i) {
        CHECK(0, "Allgather: [%d] = %d", i, g[i]);
        break;
      }
    memset(g, 0, (size_t)size * 1000 * sizeof(int));
    for (int i = 0; i < 1000; ++i) g[rank * 1000 + i] = rank * 1000 + i;
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1000, MPI_INT, MPI_COMM_WORLD) ==
              MPI_SUCCESS,
          "Allgather in place failed");
    for (int i = 0; i < size * 1000; ++i)
      if (g[i] != i) {
        CHECK(0, "Allgather in place: [%d] = %d", i, g[i]);
        break;
      }
  }
  /* the v forms, scatter, alltoall, reduce_scatter, scan: rank r contributes
   * r + 1 ints to the v forms */
  {
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    int total = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = r + 1;
      displs[r] = total + r; /* a gap of r ints before each block */
      total += r + 1 + r;
    }
    int *big = malloc((size_t)(total + 8) * sizeof(int)), mine[64];
    for (int root = 0; root < size; ++root) {
      /* Gatherv */
      for (int i = 0; i <= rank; ++i) mine[i] = rank * 100 + i;
      for (int i = 0; i < total; ++i) big[i] = -1;
      CHECK(MPI_Gatherv(mine, rank + 1, MPI_INT, big, counts, displs, MPI_INT, root,
                        MPI_COMM_WORLD) == MPI_SUCCESS,
            "Gatherv failed");
      if (rank == root)
        for (int r = 0; r < size; ++r)
          for (int i = 0; i <= r; ++i)
            if (big[displs[r] + i] != r * 100 + i) {
              CHECK(0, "Gatherv root %d: rank %d [%d] = %d", root, r, i, big[displs[r] + i]);
              r = size;
              break;
            }
      /* Scatterv back, and Scatter of one int each */
      for (int i = 0; i < 64; ++i) mine[i] = -1;
      if (rank == root)
        for (int r = 0; r < size; ++r)
          for (int i = 0; i <= r; ++i) big[displs[r] + i] = root * 1000 + r * 10 + i;
      CHECK(MPI_Scatterv(big, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, root,
                         MPI_COMM_WORLD) == MPI_SUCCESS,
            "Scatterv failed");
      for (int i = 0; i <= rank; ++i)
        if (mine[i] != root * 1000 + rank * 10 + i) {
          CHECK(0, "Scatterv root %d: [%d] = %d", root, i, mine[i]);
          break;
        }
      int one = -1;
      if (rank == root)
        for (int r = 0; r < size; ++r) big[r] = root * 7 + r;
      CHECK(MPI_Scatter(big, 1, MPI_INT, rank == root && root % 2 ? MPI_IN_PLACE : &one, 1, MPI_INT,
                        root, MPI_COMM_WORLD) == MPI_SUCCESS,
            "Scatter failed");
      if (!(rank == root && root % 2))
        CHECK(one == root * 7 + rank, "Scatter root %d: %d", root, one);
    }
    /* Allgatherv */
    for (int i = 0; i <= rank; ++i) mine[i] = rank * 100 + i;
    for (int i = 0; i < total; ++i) big[i] = -1;
    CHECK(MPI_Allgatherv(mine, rank + 1, MPI_INT, big, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
              MPI_SUCCESS,
          "Allgatherv failed");
    for (int r = 0; r < size; ++r)
      for (int i = 0; i <= r; ++i)
        if (big[displs[r] + i] != r * 100 + i) {
          CHECK(0, "Allgatherv: rank %d [%d] = %d", r, i, big[displs[r] + i]);
          r = size;
          break;
        }
    /* Alltoall: block j of rank i is i*1000+j */
    int *s2 = malloc((size_t)size * 2 * sizeof(int)), *r2 = malloc((size_t)size * 2 * sizeof(int));
    for (int j = 0; j < size; ++j) {
      s2[2 * j] = rank * 1000 + j;
      s2[2 * j + 1] = -rank;
    }
    CHECK(MPI_Alltoall(s2, 2, MPI_INT, r2, 2, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Alltoall failed");
    for (int j = 0; j < size; ++j)
      CHECK(r2[2 * j] == j * 1000 + rank && r2[2 * j + 1] == -j, "Alltoall: from %d got %d %d", j,
            r2[2 * j], r2[2 * j + 1]);
    for (int j = 0; j < size; ++j) {
      r2[2 * j] = rank * 1000 + j;
      r2[2 * j + 1] = -rank;
    }
    CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r2, 2, MPI_INT, MPI_COMM_WORLD) ==
              MPI_SUCCESS,
          "Alltoall in place failed");
    for (int j = 0; j < size; ++j)
      CHECK(r2[2 * j] == j * 1000 + rank && r2[2 * j + 1] == -j,
            "Alltoall in place: from %d got %d", j, r2[2 * j]);
    /* Alltoallv: rank i sends j+1 ints to j; all equal to i*100+j */
    int *sc = malloc((size_t)size * sizeof(int)), *sd = malloc((size_t)size * sizeof(int));
    int *rc = malloc((size_t)size * sizeof(int)), *rd = malloc((size_t)size * sizeof(int));
    int *sv = malloc((size_t)(size * size + size) * sizeof(int)),
        *rv = malloc((size_t)(size * (rank + 1) + 1) * sizeof(int));
    int off = 0;
    for (int j = 0; j < size; ++j) {
      sc[j] = j + 1;
      sd[j] = off;
      for (int i = 0; i <= j; ++i) sv[off + i] = rank * 100 + j;
      off += j + 1;
      rc[j] = rank + 1;
      rd[j] = j * (rank + 1);
    }
    CHECK(MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Alltoallv failed");
    for (int j = 0; j < size; ++j)
      for (int i = 0; i <= rank; ++i)
        if (rv[rd[j] + i] != j * 100 + rank) {
          CHECK(0, "Alltoallv: from %d [%d] = %d", j, i, rv[rd[j] + i]);
          j = size;
          break;
        }
    /* Alltoallw, in place: to j a pair {int, double} (a struct type) and
     * 1 + j ints, byte displacements; what comes back replaces it */
    {
      struct pair {
        int i;
        double d;
      };
      MPI_Datatype pt, tys[64];
      int bl[2] = {1, 1};
      MPI_Aint ds[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
      MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE};
      MPI_Type_create_struct(2, bl, ds, ts, &pt);
      MPI_Type_commit(&pt);
      struct pair *pv = malloc((size_t)size * sizeof(struct pair));
      int wc[64], wd[64];
      for (int j = 0; j < size && j < 64; ++j) {
        pv[j].i = rank * 100 + j;
        pv[j].d = rank + j / 10.0;
        wc[j] = 1;
        wd[j] = j * (int)sizeof(struct pair);
        tys[j] = pt;
      }
      CHECK(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, pv, wc, wd, tys, MPI_COMM_WORLD) ==
                MPI_SUCCESS,
            "Alltoallw in place failed");
      for (int j = 0; j < size && j < 64; ++j)
        CHECK(pv[j].i == j * 100 + rank && pv[j].d == j + rank / 10.0,
              "Alltoallw in place: from %d got %d %g", j, pv[j].i, pv[j].d);
      MPI_Type_free(&pt);
      free(pv);
    }
    /* Reduce_scatter(_block): element k of every rank's input is k + rank */
    int *in = malloc((size_t)total * sizeof(int)), *outv = malloc(64 * sizeof(int));
    int n_all = 0;
    for (int r = 0; r < size; ++r) n_all += counts[r];
    for (int k = 0; k < n_all; ++k) in[k] = k + rank;
    CHECK(MPI_Reduce_scatter(in, outv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Reduce_scatter failed");
    int first = 0;
    for (int r = 0; r < rank; ++r) first += counts[r];
    for (int i = 0; i <= rank; ++i)
      CHECK(outv[i] == size * (first + i) + size * (size - 1) / 2, "Reduce_scatter: [%d] = %d", i,
            outv[i]);
    for (int k = 0; k < 2 * size; ++k) in[k] = k + rank;
    CHECK(MPI_Reduce_scatter_block(in, outv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Reduce_scatter_block failed");
    for (int i = 0; i < 2; ++i)
      CHECK(outv[i] == size * (2 * rank + i) + size * (size - 1) / 2,
            "Reduce_scatter_block: [%d] = %d", i, outv[i]);
    /* Scan / Exscan (sum), and Scan with the non-commutative matrix product */
    int x = rank + 1, sum = -1, ex = -1;
    CHECK(MPI_Scan(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "Scan failed");
    CHECK(sum == (rank + 1) * (rank + 2) / 2, "Scan: %d", sum);
    CHECK(MPI_Exscan(&x, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "Exscan failed");
    if (rank > 0) CHECK(ex == rank * (rank + 1) / 2, "Exscan: %d", ex);
    x = rank + 1;
    CHECK(MPI_Scan(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS &&
              x == rank + 1,
          "Scan in place: %d", x);
    {
      MPI_Datatype mat;
      MPI_Op mul;
      MPI_Type_contiguous(4, MPI_LONG_LONG, &mat);
      MPI_Type_commit(&mat);
      MPI_Op_create(matmul, 0, &mul);
      long long m[4], out[4], want[4] = {1, 0, 0, 1};
      mat_of(rank, m);
      for (int r = 0; r <= rank; ++r) {
        long long xm[4];
        int len = 1;
        MPI_Datatype d = mat;
        mat_of(r, xm);
        matmul(want, xm, &len, &d);
        memcpy(want, xm, sizeof xm);
      }
      MPI_Scan(m, out, 1, mat, mul, MPI_COMM_WORLD);
      CHECK(memcmp(out, want, sizeof want) == 0, "non-commutative Scan: {%lld %lld %lld %lld}",
            out[0], out[1], out[2], out[3]);
      MPI_Op_free(&mul);
      MPI_Type_free(&mat);
    }
    free(counts);
    free(displs);
    free(big);
    free(s2);
    free(r2);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sv);
    free(rv);
    free(in);
    free(outv);
  }
  /* errors */
  {
    int x = 0, cls = -1;
    MPI_Error_class(MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_ROOT, "Bcast with root %d: class %d", size, cls);
    MPI_Error_class(MPI_Reduce(&x, &cls, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_OP, "Reduce with MPI_OP_NULL: class %d", cls);
    MPI_Error_class(MPI_Allreduce(&x, &cls, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_COUNT, "Allreduce with count -1: class %d", cls);
    double dd = 0, de = 0;
    MPI_Error_class(MPI_Allreduce(&dd, &de, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_OP, "MPI_BAND on doubles: class %d", cls);
  }
  free(a);
  free(b);
  free(g);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
