/* impi_fortran.h - helpers of the Fortran entry points (libmpifort).
 *
 * Fortran handles are the INTEGER values MPI_*_c2f returns: the C handle's
 * encoded (kind << 26) | index, so converting is a cast. gfortran passes
 * everything by reference and appends the lengths of CHARACTER arguments
 * (size_t) after the other arguments. */
#ifndef IMPI_FORTRAN_H
#define IMPI_FORTRAN_H

#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#define IMPI_F_ALIAS(target) __attribute__((weak, alias(#target), visibility("default")))
#define IMPI_F_API __attribute__((visibility("default")))

#define IMPI_F2C(type, f) ((type)(size_t)(unsigned)(f))
#define IMPI_C2F(c) ((MPI_Fint)(size_t)(c))

/* The common blocks behind MPI_BOTTOM & co. (gfortran's names for them). */
extern IMPI_F_API MPI_Fint mpi_fortran_bottom_;
extern IMPI_F_API MPI_Fint mpi_fortran_in_place_;
extern IMPI_F_API MPI_Fint mpi_fortran_st_ign_[MPI_F_STATUS_SIZE];
extern IMPI_F_API MPI_Fint mpi_fortran_sts_ign_[MPI_F_STATUS_SIZE];
extern IMPI_F_API MPI_Fint mpi_fortran_errcodes_ign_;
extern IMPI_F_API char mpi_fortran_argv_null_;
extern IMPI_F_API char mpi_fortran_argvs_null_;
extern IMPI_F_API MPI_Fint mpi_fortran_unweighted_;
extern IMPI_F_API MPI_Fint mpi_fortran_weights_empty_;

static inline void *impi_f_buf(const void *p) {
  if (p == (const void *)&mpi_fortran_bottom_) return MPI_BOTTOM;
  if (p == (const void *)&mpi_fortran_in_place_) return MPI_IN_PLACE;
  return (void *)p;
}
#define IMPI_F_BUF(p) impi_f_buf(p)

/* Integer arrays that may be MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY / MPI_ERRCODES_IGNORE. */
static inline MPI_Fint *impi_f_ints(const MPI_Fint *p) {
  if (p == &mpi_fortran_unweighted_) return MPI_UNWEIGHTED;
  if (p == &mpi_fortran_weights_empty_) return MPI_WEIGHTS_EMPTY;
  if (p == &mpi_fortran_errcodes_ign_) return MPI_ERRCODES_IGNORE;
  return (MPI_Fint *)p;
}

static inline int impi_f_status_ignored(const MPI_Fint *f) {
  return f == mpi_fortran_st_ign_ || f == mpi_fortran_sts_ign_;
}

/* A Fortran status (MPI_STATUS_SIZE INTEGERs, MPI_Status's layout but only
 * 4-byte aligned) through a properly aligned C copy. */
static inline MPI_Status *impi_f_status_in(const MPI_Fint *f, MPI_Status *c) {
  if (impi_f_status_ignored(f)) return MPI_STATUS_IGNORE;
  memcpy(c, f, sizeof *c);
  return c;
}
#define IMPI_F_STATUS_IN(f, c) impi_f_status_in(f, c)
#define IMPI_F_STATUS_OUT(c, f)              \
  do {                                       \
    if (c) memcpy(f, c, sizeof(MPI_Status)); \
  } while (0)

/* CHARACTER(LEN=n) -> malloc'd C string without trailing blanks. */
static inline char *impi_f2c_string_keep_leading(const char *f, size_t n) {
  while (n > 0 && f[n - 1] == ' ') --n;
  char *c = (char *)malloc(n + 1);
  if (!c) return NULL;
  memcpy(c, f, n);
  c[n] = '\0';
  return c;
}

/* ... and without leading blanks either (as Open MPI; MPI-3.1 9 says so of
 * info keys and values). */
static inline char *impi_f2c_string(const char *f, size_t n) {
  while (n > 0 && f[0] == ' ') ++f, --n;
  return impi_f2c_string_keep_leading(f, n);
}

/* A C buffer big enough for any string MPI returns into a CHARACTER(LEN=n). */
static inline char *impi_f_string_buffer(size_t n, int extra) {
  size_t size = n > 1024 ? n : 1024;
  if (extra > 0 && (size_t)extra > size) size = (size_t)extra;
  char *c = (char *)calloc(size + 1, 1);
  return c;
}

/* C string -> blank-padded CHARACTER(LEN=n) if `cond`; frees c. */
static inline void impi_c2f_string_if(int cond, char *c, char *f, size_t n) {
  if (!c) return;
  if (!cond) {
    free(c);
    return;
  }
  size_t len = strlen(c);
  if (len > n) len = n;
  memcpy(f, c, len);
  if (n > len) memset(f + len, ' ', n - len);
  free(c);
}

#endif
