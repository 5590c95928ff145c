/* f08.c - what mpi_f08 needs from C: the address of a TYPE(*), DIMENSION(..)
 * buffer of any rank, from its descriptor.
 *
 * A contiguous buffer goes as it is. A non-contiguous array section passed
 * to a routine that is done with the buffer when it returns (blocking
 * point-to-point and collectives, pack/unpack, blocking file I/O) goes
 * through a contiguous copy, copied back afterwards when the routine may
 * write it: what gfortran does for `use mpi`'s assumed-size buffers. A
 * routine that keeps using the buffer after it returns (nonblocking and
 * persistent calls, RMA, windows, attached buffers) cannot take a copy:
 * MPI_SUBARRAYS_SUPPORTED is .false., and such a call stops the program
 * with a message and MPI_Abort rather than transfer the wrong elements. */
#include <ISO_Fortran_binding.h>
#include <stdint.h>
#include <stdio.h>

#include "impi_fortran.h"

/* mode (tools/gen_fortran.py, f08_buffer_mode): 1 a non-contiguous section
 * goes through a copy, 2 as the address of its first element
 * (MPI_Get_address), 0 is refused. */
IMPI_F_API intptr_t impi_f08_buf(const CFI_cdesc_t *buf, intptr_t *tmp, int mode);
IMPI_F_API void impi_f08_buf_done(const CFI_cdesc_t *buf, intptr_t *tmp, int copy_back);

/* Copies every element of the section to (to_flat) or from the contiguous
 * copy `flat`, in array element order. */
static void each_element(const CFI_cdesc_t *d, char *flat, int to_flat) {
  CFI_index_t idx[CFI_MAX_RANK] = {0};
  size_t n = 1;
  for (int r = 0; r < d->rank; ++r) n *= (size_t)d->dim[r].extent;
  for (size_t i = 0; i < n; ++i) {
    char *e = (char *)d->base_addr;
    for (int r = 0; r < d->rank; ++r) e += idx[r] * d->dim[r].sm;
    if (to_flat)
      memcpy(flat + i * d->elem_len, e, d->elem_len);
    else
      memcpy(e, flat + i * d->elem_len, d->elem_len);
    for (int r = 0; r < d->rank && ++idx[r] == d->dim[r].extent; ++r) idx[r] = 0;
  }
}

intptr_t impi_f08_buf(const CFI_cdesc_t *buf, intptr_t *tmp, int mode) {
  *tmp = 0;
  if (buf->rank == 0 || mode == 2 || CFI_is_contiguous(buf)) return (intptr_t)buf->base_addr;
  if (mode == 0) {
    fprintf(stderr,
            "impi: a non-contiguous array section was passed as the buffer of a nonblocking, "
            "persistent or one-sided MPI call (mpi_f08: MPI_SUBARRAYS_SUPPORTED is .false.); "
            "pass a contiguous array or describe the layout with a derived datatype\n");
    MPI_Abort(MPI_COMM_WORLD, MPI_ERR_BUFFER);
  }
  size_t n = 1;
  for (int r = 0; r < buf->rank; ++r) n *= (size_t)buf->dim[r].extent;
  char *flat = (char *)malloc(n * buf->elem_len + 1);
  if (!flat) {
    fprintf(stderr, "impi: out of memory for a copy of a non-contiguous buffer\n");
    MPI_Abort(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    return 0;
  }
  each_element(buf, flat, 1);
  *tmp = (intptr_t)flat;
  return *tmp;
}

void impi_f08_buf_done(const CFI_cdesc_t *buf, intptr_t *tmp, int copy_back) {
  if (!*tmp) return;
  if (copy_back) each_element(buf, (char *)*tmp, 0);
  free((void *)*tmp);
  *tmp = 0;
}
