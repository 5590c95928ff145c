/* constants.c - run at build time: prints mpif_constants.h, every integer
 * MPI_ constant of mpi.h (generated/constants.inc lists them) as a Fortran
 * PARAMETER, so the Fortran values are the C header's by construction.
 * Fixed and free form both accept the output (columns 7-72, no continuations).
 * Usage: impi_fortran_constants <output file> */
#include <stdint.h>
#include <stdio.h>

#include "mpi.h"

static int decl(FILE *f, const char *type, const char *name, long long value) {
  int n = fprintf(f, "      %s %s\n      PARAMETER (%s=%lld)\n", type, name, name, value);
  return n < 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <mpif_constants.h>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  int bad = 0;
  bad |=
      fprintf(
          f, "! Generated at build time by src/fortran/constants.c from mpi.h; do not edit.\n") < 0;
  bad |= decl(f, "INTEGER", "MPI_ADDRESS_KIND", (long long)sizeof(MPI_Aint));
  bad |= decl(f, "INTEGER", "MPI_OFFSET_KIND", (long long)sizeof(MPI_Offset));
  bad |= decl(f, "INTEGER", "MPI_COUNT_KIND", (long long)sizeof(MPI_Count));
  bad |= decl(f, "INTEGER", "MPI_INTEGER_KIND", (long long)sizeof(MPI_Fint));
  /* A Fortran status: MPI_STATUS_SIZE INTEGERs, fields at 1-based indices. */
  bad |= decl(f, "INTEGER", "MPI_STATUS_SIZE", MPI_F_STATUS_SIZE);
  bad |= decl(f, "INTEGER", "MPI_SOURCE", MPI_F_SOURCE + 1);
  bad |= decl(f, "INTEGER", "MPI_TAG", MPI_F_TAG + 1);
  bad |= decl(f, "INTEGER", "MPI_ERROR", MPI_F_ERROR + 1);
  bad |= decl(f, "INTEGER(KIND=MPI_OFFSET_KIND)", "MPI_DISPLACEMENT_CURRENT",
              (long long)MPI_DISPLACEMENT_CURRENT);
#define IMPI_F_CONST(name) bad |= decl(f, "INTEGER", #name, (long long)(intptr_t)(name));
#include "generated/constants.inc"
#undef IMPI_F_CONST
  bad |= fclose(f) != 0;
  if (bad) {
    perror(argv[1]);
    return 1;
  }
  return 0;
}
