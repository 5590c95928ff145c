/* fortran_types_check.c - Fortran datatype handles used from C (what
 * mpi4py and mixed-language programs do): sizes and names, point-to-point,
 * broadcast and reductions of MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION,
 * MPI_COMPLEX, MPI_LOGICAL, MPI_CHARACTER, the sized kinds and Fortran's
 * pairs, the F90 type constructors (their envelopes, and their types
 * in point-to-point and reductions) and Fortran statuses. With gfortran's
 * default kinds. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int rank, size, failures;

static void sizes_and_names(void) {
  struct {
    MPI_Datatype t;
    int size;
    const char *name;
  } all[] = {{MPI_CHARACTER, 1, "MPI_CHARACTER"},
             {MPI_LOGICAL, 4, "MPI_LOGICAL"},
             {MPI_INTEGER, 4, "MPI_INTEGER"},
             {MPI_REAL, 4, "MPI_REAL"},
             {MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION"},
             {MPI_COMPLEX, 8, "MPI_COMPLEX"},
             {MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX"},
             {MPI_2REAL, 8, "MPI_2REAL"},
             {MPI_2DOUBLE_PRECISION, 16, "MPI_2DOUBLE_PRECISION"},
             {MPI_2INTEGER, 8, "MPI_2INTEGER"},
             {MPI_INTEGER1, 1, "MPI_INTEGER1"},
             {MPI_INTEGER2, 2, "MPI_INTEGER2"},
             {MPI_INTEGER4, 4, "MPI_INTEGER4"},
             {MPI_INTEGER8, 8, "MPI_INTEGER8"},
             {MPI_REAL4, 4, "MPI_REAL4"},
             {MPI_REAL8, 8, "MPI_REAL8"},
             {MPI_COMPLEX8, 8, "MPI_COMPLEX8"},
             {MPI_COMPLEX16, 16, "MPI_COMPLEX16"}};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    int sz = -1, len;
    char name[MPI_MAX_OBJECT_NAME] = "";
    CHECK(MPI_Type_size(all[i].t, &sz) == MPI_SUCCESS && sz == all[i].size,
          "MPI_Type_size(%s) = %d", all[i].name, sz);
    MPI_Type_get_name(all[i].t, name, &len);
    CHECK(strcmp(name, all[i].name) == 0, "MPI_Type_get_name: %s, want %s", name, all[i].name);
    CHECK(MPI_Type_f2c(MPI_Type_c2f(all[i].t)) == all[i].t, "c2f/f2c of %s", all[i].name);
  }
}

static void point_to_point(void) {
  if (size < 2 || rank > 1) return;
  double dp[3] = {1.5, -2.25, 1e300};
  int32_t in[4] = {1, -2, 3, 0x01020304};
  char ch[5] = "abcd";
  float cx[4] = {1, 2, 3, 4};
  MPI_Status st;
  int n;
  if (rank == 0) {
    MPI_Send(dp, 3, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD);
    MPI_Send(in, 4, MPI_INTEGER, 1, 2, MPI_COMM_WORLD);
    MPI_Send(ch, 4, MPI_CHARACTER, 1, 3, MPI_COMM_WORLD);
    MPI_Send(cx, 2, MPI_COMPLEX, 1, 4, MPI_COMM_WORLD);
  } else {
    double rdp[3] = {0};
    int32_t rin[4] = {0};
    char rch[5] = "";
    float rcx[4] = {0};
    MPI_Recv(rdp, 3, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, &st);
    CHECK(memcmp(rdp, dp, sizeof dp) == 0, "MPI_DOUBLE_PRECISION payload");
    MPI_Recv(rin, 4, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, &st);
    CHECK(memcmp(rin, in, sizeof in) == 0, "MPI_INTEGER payload %x", rin[3]);
    MPI_Get_count(&st, MPI_INTEGER, &n);
    CHECK(n == 4, "MPI_Get_count MPI_INTEGER %d", n);
    MPI_Recv(rch, 4, MPI_CHARACTER, 0, 3, MPI_COMM_WORLD, &st);
    CHECK(strcmp(rch, "abcd") == 0, "MPI_CHARACTER payload %s", rch);
    MPI_Recv(rcx, 2, MPI_COMPLEX, 0, 4, MPI_COMM_WORLD, &st);
    CHECK(memcmp(rcx, cx, sizeof cx) == 0, "MPI_COMPLEX payload");
  }
}

static void collectives(void) {
  int32_t i = rank + 1, isum = 0;
  float r = 0.5f * (float)rank, rmax = -1;
  double d = 1.0, dsum = 0;
  int64_t i8 = (int64_t)1 << 40, i8sum = 0;
  float c[2] = {1.0f, (float)rank}, csum[2] = {0, 0};
  int32_t l = rank != 0, land = -1, lor = -1;
  double bc[2] = {0, 0};
  MPI_Allreduce(&i, &isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
  CHECK(isum == size * (size + 1) / 2, "MPI_INTEGER SUM %d", isum);
  MPI_Allreduce(&r, &rmax, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD);
  CHECK(rmax == 0.5f * (float)(size - 1), "MPI_REAL MAX %g", rmax);
  MPI_Allreduce(&d, &dsum, 1, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD);
  CHECK(dsum == size, "MPI_REAL8 SUM %g", dsum);
  MPI_Allreduce(&i8, &i8sum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD);
  CHECK(i8sum == ((int64_t)size << 40), "MPI_INTEGER8 SUM %lld", (long long)i8sum);
  MPI_Allreduce(c, csum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
  CHECK(csum[0] == size && csum[1] == size * (size - 1) / 2, "MPI_COMPLEX SUM (%g, %g)", csum[0],
        csum[1]);
  MPI_Allreduce(&l, &land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
  MPI_Allreduce(&l, &lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD);
  CHECK(land == 0 && lor == (size > 1), "MPI_LOGICAL LAND %d LOR %d", land, lor);
  if (rank == 0) bc[0] = 3.25, bc[1] = -1;
  MPI_Bcast(bc, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD);
  CHECK(bc[0] == 3.25 && bc[1] == -1, "MPI_DOUBLE_PRECISION Bcast");
  {
    /* Fortran's pairs carry the index in the value's type */
    int32_t ip[2] = {(rank * 5) % size, rank}, ipr[2];
    float rp[2] = {(float)((rank * 3) % size), (float)rank}, rpr[2];
    double dp[2] = {(double)rank, (double)rank}, dpr[2];
    MPI_Allreduce(ip, ipr, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(ipr[0] == 0 && ipr[1] == 0, "MPI_2INTEGER MINLOC (%d, %d)", ipr[0], ipr[1]);
    MPI_Allreduce(rp, rpr, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(rpr[0] == 0 && rpr[1] == 0, "MPI_2REAL MINLOC (%g, %g)", rpr[0], rpr[1]);
    MPI_Allreduce(dp, dpr, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(dpr[0] == size - 1 && dpr[1] == size - 1, "MPI_2DOUBLE_PRECISION MAXLOC (%g, %g)", dpr[0],
          dpr[1]);
  }
}

static int combiner_of(MPI_Datatype t) {
  int ni, na, nd, c = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
  return c;
}

static void constructors_and_status(void) {
  MPI_Datatype t, again;
  int sz, ints[2];
  MPI_Type_create_f90_integer(9, &t);
  MPI_Type_size(t, &sz);
  CHECK(sz == 4 && combiner_of(t) == MPI_COMBINER_F90_INTEGER, "f90_integer(9): %d bytes", sz);
  MPI_Type_get_contents(t, 1, 0, 0, ints, NULL, NULL);
  CHECK(ints[0] == 9, "f90_integer(9) contents %d", ints[0]);
  MPI_Type_create_f90_integer(9, &again);
  CHECK(again == t, "f90_integer(9) twice: one handle");
  MPI_Type_create_f90_integer(15, &t);
  MPI_Type_size(t, &sz);
  CHECK(sz == 8, "f90_integer(15): %d bytes", sz);
  MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
  MPI_Type_size(t, &sz);
  MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL);
  CHECK(sz == 4 && combiner_of(t) == MPI_COMBINER_F90_REAL && ints[0] == 6 &&
            ints[1] == MPI_UNDEFINED,
        "f90_real(6): %d bytes, contents %d %d", sz, ints[0], ints[1]);
  MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &t);
  MPI_Type_size(t, &sz);
  CHECK(sz == 8, "f90_real(r = 300): %d bytes", sz);
  MPI_Type_create_f90_complex(15, 300, &t);
  MPI_Type_size(t, &sz);
  CHECK(sz == 16 && combiner_of(t) == MPI_COMBINER_F90_COMPLEX, "f90_complex(15, 300): %d bytes",
        sz);
  {
    MPI_Status a, b;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    memset(&a, 0, sizeof a);
    a.MPI_SOURCE = 3;
    a.MPI_TAG = 77;
    a.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_Status_set_elements(&a, MPI_INTEGER, 5);
    MPI_Status_c2f(&a, f);
    MPI_Status_f2c(f, &b);
    int n;
    MPI_Get_count(&b, MPI_INTEGER, &n);
    CHECK(b.MPI_SOURCE == 3 && b.MPI_TAG == 77 && b.MPI_ERROR == MPI_ERR_TRUNCATE && n == 5,
          "Status_c2f/f2c round trip");
  }
}

/* The f90 types travel as the sized types they stand for (between
 * clients in external32: 8 bytes a REAL8, 1 an INTEGER1), and reduce as
 * them. Rank 0 and the last rank: in different clients when there are
 * several. */
static void f90_communication(void) {
  MPI_Datatype r8, r4, c16, i1, i8;
  MPI_Type_create_f90_real(15, 300, &r8);
  MPI_Type_create_f90_real(6, 30, &r4);
  MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &c16);
  MPI_Type_create_f90_integer(2, &i1);
  MPI_Type_create_f90_integer(18, &i8);
  const int last = size - 1;
  if (size >= 2 && (rank == 0 || rank == last)) {
    double d[3] = {1.5, -2.25, 1e300};
    float f[2] = {3.5f, -1e30f};
    double z[4] = {1, -2, 3e-300, 4};
    signed char b[4] = {-128, -1, 0, 127};
    int64_t q[2] = {-((int64_t)1 << 62), 0x0102030405060708LL};
    MPI_Status st;
    int n;
    if (rank == 0) {
      MPI_Send(d, 3, r8, last, 11, MPI_COMM_WORLD);
      MPI_Send(d, 3, MPI_REAL8, last, 12, MPI_COMM_WORLD); /* received as the f90 type */
      MPI_Send(f, 2, r4, last, 13, MPI_COMM_WORLD);
      MPI_Send(z, 2, c16, last, 14, MPI_COMM_WORLD);
      MPI_Send(b, 4, i1, last, 15, MPI_COMM_WORLD);
      MPI_Send(q, 2, i8, last, 16, MPI_COMM_WORLD);
    } else {
      double rd[3] = {0}, rz[4] = {0};
      float rf[2] = {0};
      signed char rb[4] = {0};
      int64_t rq[2] = {0};
      MPI_Recv(rd, 3, r8, 0, 11, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, r8, &n);
      CHECK(memcmp(rd, d, sizeof d) == 0 && n == 3, "f90 real(15, 300) payload, count %d", n);
      memset(rd, 0, sizeof rd);
      MPI_Recv(rd, 3, r8, 0, 12, MPI_COMM_WORLD, &st);
      CHECK(memcmp(rd, d, sizeof d) == 0, "MPI_REAL8 into f90 real(15, 300)");
      MPI_Recv(rf, 2, r4, 0, 13, MPI_COMM_WORLD, &st);
      CHECK(memcmp(rf, f, sizeof f) == 0, "f90 real(6, 30) payload");
      MPI_Recv(rz, 2, c16, 0, 14, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, c16, &n);
      CHECK(memcmp(rz, z, sizeof z) == 0 && n == 2, "f90 complex(15) payload, count %d", n);
      MPI_Recv(rb, 4, i1, 0, 15, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, i1, &n);
      CHECK(memcmp(rb, b, sizeof b) == 0 && n == 4, "f90 integer(2) payload, count %d", n);
      MPI_Recv(rq, 2, i8, 0, 16, MPI_COMM_WORLD, &st);
      CHECK(memcmp(rq, q, sizeof q) == 0, "f90 integer(18) payload");
    }
  }
  {
    double d = rank + 0.5, dsum = 0;
    double z[2] = {1, rank}, zsum[2] = {0, 0};
    signed char b = (signed char)(rank - 3), bmax = 0;
    int64_t q = (int64_t)rank << 40, qsum = 0;
    float f = (float)rank, fmin = 100;
    MPI_Allreduce(&d, &dsum, 1, r8, MPI_SUM, MPI_COMM_WORLD);
    CHECK(dsum == size * (size - 1) / 2.0 + size * 0.5, "f90 real(15) SUM %g", dsum);
    MPI_Allreduce(z, zsum, 1, c16, MPI_SUM, MPI_COMM_WORLD);
    CHECK(zsum[0] == size && zsum[1] == size * (size - 1) / 2, "f90 complex SUM (%g, %g)", zsum[0],
          zsum[1]);
    MPI_Allreduce(&b, &bmax, 1, i1, MPI_MAX, MPI_COMM_WORLD);
    CHECK(bmax == size - 4, "f90 integer(2) MAX %d", bmax);
    MPI_Allreduce(&q, &qsum, 1, i8, MPI_SUM, MPI_COMM_WORLD);
    CHECK(qsum == ((int64_t)(size * (size - 1) / 2) << 40), "f90 integer(18) SUM %lld",
          (long long)qsum);
    MPI_Allreduce(&f, &fmin, 1, r4, MPI_MIN, MPI_COMM_WORLD);
    CHECK(fmin == 0, "f90 real(6) MIN %g", fmin);
    double bc[2] = {0, 0};
    if (rank == size - 1) bc[0] = -7.75, bc[1] = 1e-300;
    MPI_Bcast(bc, 2, r8, size - 1, MPI_COMM_WORLD);
    CHECK(bc[0] == -7.75 && bc[1] == 1e-300, "f90 real Bcast");
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sizes_and_names();
  point_to_point();
  collectives();
  constructors_and_status();
  f90_communication();
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
