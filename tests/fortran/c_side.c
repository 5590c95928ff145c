/* c_side.c - the C half of the Fortran interlanguage tests: handles and
 * attributes that Fortran made, used from C (MPI-3.1 17.2). */
#include <stdint.h>
#include <string.h>

#include "mpi.h"

/* Size of the Fortran communicator `fcomm` through MPI_Comm_f2c. */
void impi_test_comm_size_(const MPI_Fint *fcomm, MPI_Fint *size) {
  if (MPI_Comm_size(MPI_Comm_f2c(*fcomm), size) != MPI_SUCCESS) *size = -1;
}

/* The attribute Fortran set on `fcomm` with MPI_Comm_set_attr, as C sees it:
 * a pointer to the INTEGER(KIND=MPI_ADDRESS_KIND) value (MPI-3.1 17.2.7);
 * -1 if unset. */
void impi_test_comm_attr_(const MPI_Fint *fcomm, const MPI_Fint *keyval, MPI_Aint *value) {
  void *v = 0;
  int flag = 0;
  MPI_Comm_get_attr(MPI_Comm_f2c(*fcomm), *keyval, &v, &flag);
  *value = flag ? *(MPI_Aint *)v : -1;
}

/* Sets an attribute from C (a pointer to a C int) on `fcomm`; returns the
 * pointer as Fortran should read it (its address). */
static int c_value = 17;
void impi_test_c_set_attr_(const MPI_Fint *fcomm, const MPI_Fint *keyval, MPI_Aint *address) {
  MPI_Comm_set_attr(MPI_Comm_f2c(*fcomm), *keyval, &c_value);
  *address = (MPI_Aint)(intptr_t)&c_value;
}

/* A C datatype (3 ints) handed to Fortran as an INTEGER. */
void impi_test_c_type_(MPI_Fint *ftype) {
  MPI_Datatype t;
  MPI_Type_contiguous(3, MPI_INT, &t);
  MPI_Type_commit(&t);
  *ftype = MPI_Type_c2f(t);
}

/* An mpi_f08 status through MPI-4's C conversions (MPI_Status_f082c, then
 * back with MPI_Status_c2f08, and through MPI_Status_f082f/f2f08): its
 * source, tag and MPI_INT count as C reads them, and whether both round
 * trips give the same six integers (same = 1). */
void impi_test_f08_status_(const MPI_F08_status *f08, MPI_Fint *source, MPI_Fint *tag,
                           MPI_Fint *count, MPI_Fint *same) {
  MPI_Status c;
  MPI_F08_status back, back2;
  MPI_Fint f[MPI_F_STATUS_SIZE];
  int n = -1, ok = MPI_Status_f082c(f08, &c) == MPI_SUCCESS;
  MPI_Get_count(&c, MPI_INT, &n);
  *source = c.MPI_SOURCE;
  *tag = c.MPI_TAG;
  *count = n;
  ok = ok && MPI_Status_c2f08(&c, &back) == MPI_SUCCESS;
  ok = ok && MPI_Status_f082f(f08, f) == MPI_SUCCESS && f[MPI_F_SOURCE] == c.MPI_SOURCE;
  ok = ok && MPI_Status_f2f08(f, &back2) == MPI_SUCCESS;
  ok = ok && memcmp(&back, f08, sizeof back) == 0 && memcmp(&back2, f08, sizeof back2) == 0;
  *same = ok;
}
