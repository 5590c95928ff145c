! hello.f90 - the installed mpifort builds this with each binding
! (-DBINDING=1 mpif.h, 2 use mpi, 3 use mpi_f08; tests/install_test.sh).
program hello
#if BINDING == 3
  use mpi_f08
#elif BINDING == 2
  use mpi
#endif
  implicit none
#if BINDING == 1
  include 'mpif.h'
#endif
  integer :: rank, nprocs, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  print '(A,I0,A,I0)', 'rank ', rank, ' of ', nprocs
  call MPI_Finalize(ierr)
end program
