! mpi_sizeof_procs.h - the specifics of MPI_Sizeof (see mpi_sizeof_interface.h).
subroutine impi_sizeof_i1(x, size, ierror)
  integer(1), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_i1
subroutine impi_sizeof_i2(x, size, ierror)
  integer(2), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_i2
subroutine impi_sizeof_i4(x, size, ierror)
  integer(4), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_i4
subroutine impi_sizeof_i8(x, size, ierror)
  integer(8), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_i8
subroutine impi_sizeof_r4(x, size, ierror)
  real(4), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_r4
subroutine impi_sizeof_r8(x, size, ierror)
  real(8), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_r8
subroutine impi_sizeof_c4(x, size, ierror)
  complex(4), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_c4
subroutine impi_sizeof_c8(x, size, ierror)
  complex(8), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_c8
subroutine impi_sizeof_l1(x, size, ierror)
  logical(1), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_l1
subroutine impi_sizeof_l2(x, size, ierror)
  logical(2), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_l2
subroutine impi_sizeof_l4(x, size, ierror)
  logical(4), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_l4
subroutine impi_sizeof_l8(x, size, ierror)
  logical(8), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = storage_size(x) / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_l8
subroutine impi_sizeof_ch(x, size, ierror)
  character(len=*), dimension(..), intent(in) :: x
  integer, intent(out) :: size
  integer, optional, intent(out) :: ierror
  size = len(x) * storage_size('a') / 8
  if (present(ierror)) ierror = 0
end subroutine impi_sizeof_ch
