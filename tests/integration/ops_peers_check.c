/* ops_peers_check.c - type/operation pairs beyond the standard that both
 * Open MPI 4.1 and MPICH 4.0 accept, so programs written for them (the OSU
 * benchmarks sum MPI_CHAR) run unchanged: every integer operation on
 * MPI_CHAR, and MPI_LAND/LOR/LXOR on MPI_AINT, MPI_OFFSET, MPI_COUNT.
 * Checks the values through Allreduce (the one-node fast path and the
 * general one, and across clients) and Reduce. Also the pair types as
 * both peers size them: MPI_DOUBLE_INT is 12 bytes of data in a 16-byte
 * extent; a message of them moves and counts its elements (value and int)
 * right, and MINLOC works on them. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

static int rank, failures;

int main(int argc, char **argv) {
  int size, n, i;
  static char in[5000], out[5000];
  long long off, offr;
  MPI_Aint a, ar;
  MPI_Count c, cr;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < 5000; ++i) in[i] = (char)(i % 50 + rank);
  for (n = 1; n <= 5000; n *= 7) {
    MPI_Allreduce(in, out, n, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < n; ++i)
      CHECK(out[i] == (char)(size * (i % 50) + size * (size - 1) / 2),
            "MPI_CHAR SUM count %d at %d: %d", n, i, out[i]);
    MPI_Reduce(in, out, n, MPI_CHAR, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      for (i = 0; i < n; ++i)
        CHECK(out[i] == (char)(i % 50 + size - 1), "MPI_CHAR MAX count %d at %d", n, i);
    MPI_Allreduce(in, out, n, MPI_CHAR, MPI_BOR, MPI_COMM_WORLD);
  }
  off = rank + 1;
  MPI_Allreduce(&off, &offr, 1, MPI_OFFSET, MPI_LAND, MPI_COMM_WORLD);
  CHECK(offr == 1, "MPI_OFFSET LAND: %lld", offr);
  a = rank;
  MPI_Allreduce(&a, &ar, 1, MPI_AINT, MPI_LOR, MPI_COMM_WORLD);
  CHECK(ar == (size > 1), "MPI_AINT LOR: %ld", (long)ar);
  c = 1;
  MPI_Allreduce(&c, &cr, 1, MPI_COUNT, MPI_LXOR, MPI_COMM_WORLD);
  CHECK(cr == (size % 2), "MPI_COUNT LXOR: %lld", (long long)cr);
  {
    /* pairs: 12 bytes each on the wire; a {double, int, double} arrives as
     * one and a half MPI_DOUBLE_INT: 3 elements, count undefined */
    struct {
      double v;
      int i;
    } mine = {1.0 + (rank * 7) % size, rank}, best[2];
    int sz, n;
    MPI_Type_size(MPI_DOUBLE_INT, &sz);
    CHECK(sz == 12, "MPI_Type_size(MPI_DOUBLE_INT) = %d", sz);
    MPI_Allreduce(&mine, best, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(best[0].v == 1.0 && best[0].i == 0, "MINLOC on MPI_DOUBLE_INT: %g at %d", best[0].v,
          best[0].i);
    if (size > 1 && rank < 2) {
      struct {
        double a;
        int b;
        double c;
      } __attribute__((packed)) three = {2.5, 7, 3.5};
      MPI_Status st;
      if (rank == 0) {
        /* the same type signature as 1.5 pairs (what type matching asks) */
        int lens[3] = {1, 1, 1};
        MPI_Aint disps[3] = {0, 8, 12};
        MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE}, tuple;
        MPI_Type_create_struct(3, lens, disps, types, &tuple);
        MPI_Type_commit(&tuple);
        MPI_Send(&three, 1, tuple, 1, 9, MPI_COMM_WORLD);
        MPI_Type_free(&tuple);
        MPI_Send(&mine, 1, MPI_DOUBLE_INT, 1, 10, MPI_COMM_WORLD);
      } else {
        best[0].v = best[1].v = 0;
        best[0].i = best[1].i = -1;
        MPI_Recv(best, 2, MPI_DOUBLE_INT, 0, 9, MPI_COMM_WORLD, &st);
        MPI_Get_elements(&st, MPI_DOUBLE_INT, &n);
        CHECK(n == 3, "Get_elements of a double, int, double as MPI_DOUBLE_INT: %d", n);
        MPI_Get_count(&st, MPI_DOUBLE_INT, &n);
        CHECK(n == MPI_UNDEFINED, "Get_count of 1.5 pairs: %d", n);
        CHECK(best[0].v == 2.5 && best[0].i == 7 && best[1].v == 3.5 && best[1].i == -1,
              "pairs from a tuple: %g %d %g %d", best[0].v, best[0].i, best[1].v, best[1].i);
        MPI_Recv(best, 2, MPI_DOUBLE_INT, 0, 10, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE_INT, &n);
        CHECK(n == 1 && best[0].i == 0 && best[0].v == 1.0, "a pair: count %d, %g %d", n, best[0].v,
              best[0].i);
      }
    }
  }
  /* what both peers reject stays an error: MPI_WCHAR has no operation */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  {
    int ec = 0, rc = MPI_Allreduce(in, out, 1, MPI_WCHAR, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_OP, "MPI_WCHAR SUM gave class %d", ec);
  }
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
