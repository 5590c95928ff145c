/* ops_peers_check.c - type/operation pairs beyond the standard that both
 * Open MPI 4.1 and MPICH 4.0 accept, so programs written for them (the OSU
 * benchmarks sum MPI_CHAR) run unchanged: every integer operation on
 * MPI_CHAR, and MPI_LAND/LOR/LXOR on MPI_AINT, MPI_OFFSET, MPI_COUNT.
 * Checks the values through Allreduce (the one-node fast path and the
 * general one, and across clients) and Reduce. Prints "rank r of n ok". */
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
