/* pack_check.c - MPI_Pack on MPI_COMM_WORLD: native inside one client,
 * external32 with no header when the world spans IMPI clients (IMPI 4.1);
 * impi-wide (8-byte MPI_LONG) when every client is impi and advertised it.
 * Prints "rank R of N ok <format>". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int rank, size, psize, pos = 0, bad = 0,
                         expect_ext32 = argc > 1 && !strcmp(argv[1], "external32"),
                         expect_wide = argc > 1 && !strcmp(argv[1], "wide");
  long v = -2;
  unsigned char buf[16];
  long back = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Pack_size(1, MPI_LONG, MPI_COMM_WORLD, &psize);
  MPI_Pack(&v, 1, MPI_LONG, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  if (expect_ext32) {
    bad = psize != 4 || pos != 4 || buf[0] != 0xff || buf[3] != 0xfe;
  } else if (expect_wide) { /* impi-wide: external32 with an 8-byte long */
    bad = psize != 8 || pos != 8 || buf[0] != 0xff || buf[6] != 0xff || buf[7] != 0xfe;
  } else {
    bad = psize != (int)sizeof(long) || pos != (int)sizeof(long) || memcmp(buf, &v, sizeof v) != 0;
  }
  pos = 0;
  MPI_Unpack(buf, sizeof buf, &pos, &back, 1, MPI_LONG, MPI_COMM_WORLD);
  bad = bad || back != -2;
  /* MPI_COMM_SELF never spans clients. */
  MPI_Pack_size(1, MPI_LONG, MPI_COMM_SELF, &psize);
  bad = bad || psize != (int)sizeof(long);
  if (bad) {
    fprintf(stderr, "rank %d: wrong packing (size %d, pos %d)\n", rank, psize, pos);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  printf("rank %d of %d ok %s\n", rank, size,
         expect_ext32  ? "external32"
         : expect_wide ? "wide"
                       : "native");
  MPI_Finalize();
  return 0;
}
