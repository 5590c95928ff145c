! mpi_sizeof_interface.h - MPI_Sizeof (MPI-3.1 17.1.9) in `use mpi` and `use mpi_f08`:
! the size in bytes of one element of x, for every intrinsic type and kind gfortran has
! (a generic of assumed-rank specifics, so scalars and arrays of any rank).
interface MPI_Sizeof
  module procedure impi_sizeof_i1, impi_sizeof_i2, impi_sizeof_i4, impi_sizeof_i8, impi_sizeof_r4, impi_sizeof_r8, impi_sizeof_c4, &
    impi_sizeof_c8, impi_sizeof_l1, impi_sizeof_l2, impi_sizeof_l4, impi_sizeof_l8, impi_sizeof_ch
end interface MPI_Sizeof
! MPI_F_sync_reg (MPI-3.1 17.1.8): an external call the compiler must assume
! reads and writes buf, so no register copy of it survives across it.
interface
  subroutine MPI_F_sync_reg(buf)
    !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
    type(*), dimension(*) :: buf
  end subroutine MPI_F_sync_reg
end interface
