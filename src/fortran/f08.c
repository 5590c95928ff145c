/* f08.c - what mpi_f08 needs from C: the address of a TYPE(*), DIMENSION(..)
 * buffer (any rank, from its descriptor). MPI_SUBARRAYS_SUPPORTED is .false.:
 * a non-contiguous array section is refused with an error message and
 * MPI_Abort rather than sending or receiving the wrong elements. */
#include <ISO_Fortran_binding.h>
#include <stdint.h>
#include <stdio.h>

#include "impi_fortran.h"

IMPI_F_API intptr_t impi_f08_addr(const CFI_cdesc_t *buf);

intptr_t impi_f08_addr(const CFI_cdesc_t *buf) {
  if (buf->rank > 0 && !CFI_is_contiguous(buf)) {
    fprintf(stderr,
            "impi: mpi_f08 was passed a non-contiguous array section as a buffer "
            "(MPI_SUBARRAYS_SUPPORTED is .false.: use a contiguous copy or a derived datatype)\n");
    MPI_Abort(MPI_COMM_WORLD, MPI_ERR_BUFFER);
  }
  return (intptr_t)buf->base_addr;
}
