/* constants.c - run at build time: prints every integer MPI_ constant of
 * mpi.h (generated/constants.inc lists them) as a Fortran PARAMETER, so the
 * Fortran values are the C header's by construction:
 *   mpif_constants.h      mpif.h and `use mpi`: handles are INTEGERs; fixed
 *                         and free form both accept it (columns 7-72)
 *   mpif_constants_f08.h  mpi_f08: handles are TYPE(MPI_Comm) & co.
 * Usage: impi_fortran_constants <mpif_constants.h> <mpif_constants_f08.h> */
#include <stdint.h>
#include <stdio.h>

#include "mpi.h"

static int decl(FILE *f, FILE *f08, const char *type, const char *name, long long value) {
  int n = fprintf(f, "      %s %s\n      PARAMETER (%s=%lld)\n", type, name, name, value);
  return n < 0 || fprintf(f08, "%s, parameter :: %s = %lld\n", type, name, value) < 0;
}

static int handle(FILE *f, FILE *f08, const char *type, const char *name, long long value) {
  int n = fprintf(f, "      INTEGER %s\n      PARAMETER (%s=%lld)\n", name, name, value);
  return n < 0 ||
         fprintf(f08, "type(%s), parameter :: %s = %s(%lld)\n", type, name, type, value) < 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <mpif_constants.h> <mpif_constants_f08.h>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "w");
  FILE *f08 = fopen(argv[2], "w");
  if (!f || !f08) {
    perror(argv[!f ? 1 : 2]);
    return 1;
  }
  int bad = 0;
  const char *banner =
      "! Generated at build time by src/fortran/constants.c from mpi.h; do not edit.\n";
  bad |= fprintf(f, "%s", banner) < 0 || fprintf(f08, "%s", banner) < 0;
  bad |= decl(f, f08, "INTEGER", "MPI_ADDRESS_KIND", (long long)sizeof(MPI_Aint));
  bad |= decl(f, f08, "INTEGER", "MPI_OFFSET_KIND", (long long)sizeof(MPI_Offset));
  bad |= decl(f, f08, "INTEGER", "MPI_COUNT_KIND", (long long)sizeof(MPI_Count));
  bad |= decl(f, f08, "INTEGER", "MPI_INTEGER_KIND", (long long)sizeof(MPI_Fint));
  /* A Fortran status: MPI_STATUS_SIZE INTEGERs, fields at 1-based indices. */
  bad |= decl(f, f08, "INTEGER", "MPI_STATUS_SIZE", MPI_F_STATUS_SIZE);
  bad |= decl(f, f08, "INTEGER", "MPI_SOURCE", MPI_F_SOURCE + 1);
  bad |= decl(f, f08, "INTEGER", "MPI_TAG", MPI_F_TAG + 1);
  bad |= decl(f, f08, "INTEGER", "MPI_ERROR", MPI_F_ERROR + 1);
  bad |= decl(f, f08, "INTEGER(KIND=MPI_OFFSET_KIND)", "MPI_DISPLACEMENT_CURRENT",
              (long long)MPI_DISPLACEMENT_CURRENT);
#define IMPI_F_CONST(name) bad |= decl(f, f08, "INTEGER", #name, (long long)(intptr_t)(name));
#define IMPI_F_HANDLE(name, type) bad |= handle(f, f08, #type, #name, (long long)(intptr_t)(name));
#include "generated/constants.inc"
#undef IMPI_F_CONST
#undef IMPI_F_HANDLE
  bad |= fclose(f) != 0;
  bad |= fclose(f08) != 0;
  if (bad) {
    perror(argv[1]);
    return 1;
  }
  return 0;
}
