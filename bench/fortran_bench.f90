! fortran_bench.f90 - bench/fortran.sh: the per-call time of an 8-byte
! ping-pong (half round trip) and of a 1-double MPI_Allreduce through `use mpi`,
! 2 processes. Prints "pingpong <us>" and "allreduce <us>".
program fortran_bench
  use mpi
  implicit none
  integer, parameter :: iters = 20000, warm = 2000
  integer :: ierr, rank, i
  double precision :: buf(1), res(1), t0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = rank
  do i = 1, warm + iters
    if (i == warm + 1) t0 = MPI_Wtime()
    if (rank == 0) then
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) print '(A,F10.3)', 'pingpong ', (MPI_Wtime() - t0) / iters / 2 * 1d6
  do i = 1, warm + iters
    if (i == warm + 1) t0 = MPI_Wtime()
    call MPI_Allreduce(buf, res, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print '(A,F10.3)', 'allreduce ', (MPI_Wtime() - t0) / iters * 1d6
  call MPI_Finalize(ierr)
end program
