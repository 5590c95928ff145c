! f08_section_refused.f90 - a non-contiguous section given to a nonblocking
! call is refused (MPI_SUBARRAYS_SUPPORTED is .false.): the job stops with a
! message instead of sending the wrong elements.
program f08_section_refused
  use mpi_f08
  implicit none
  integer :: m(4, 3), rank
  type(MPI_Request) :: req
  if (MPI_SUBARRAYS_SUPPORTED) error stop 'MPI_SUBARRAYS_SUPPORTED'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  m = rank
  if (rank == 0) then
    call MPI_Isend(m(1, :), 3, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    print '(A)', 'sent a section: not refused'
  end if
  call MPI_Finalize()
end program
