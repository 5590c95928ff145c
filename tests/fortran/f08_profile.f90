! f08_profile.f90 - a tool intercepting mpi_f08 routines by their specific
! procedure names (MPI-4.1 19.1.5): MPI_Send_f08ts (a choice buffer) and
! MPI_Comm_rank_f08 (none) are external procedures this program replaces;
! its versions count the calls and go on through PMPI_Send / PMPI_Comm_rank.
module profile_counts
  implicit none
  integer :: sends = 0, sent = 0, ranks = 0
end module

subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08, library_version => MPI_Send_f08ts
  use profile_counts
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  sent = sent + count
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine

subroutine MPI_Comm_rank_f08(comm, rank, ierror)
  use mpi_f08, library_version => MPI_Comm_rank_f08
  use profile_counts
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer :: rank  ! (impi declares no INTENT for it; the standard says OUT)
  integer, optional, intent(out) :: ierror
  ranks = ranks + 1
  call PMPI_Comm_rank(comm, rank, ierror)
end subroutine

program f08_profile
  use mpi_f08
  use profile_counts
  implicit none
  integer :: rank, nprocs, errs, buf(4), got(4), ierr
  type(MPI_Status) :: st
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (ranks /= 2 .or. ierr /= MPI_SUCCESS) errs = errs + 1
  buf = [1, 2, 3, rank]
  ! A ring: everyone sends 4 then 3 integers through the wrapper.
  if (mod(rank, 2) == 0) then
    call MPI_Send(buf, 4, MPI_INTEGER, mod(rank + 1, nprocs), 5, MPI_COMM_WORLD)
    call MPI_Recv(got, 4, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 5, MPI_COMM_WORLD, st)
  else
    call MPI_Recv(got, 4, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 5, MPI_COMM_WORLD, st)
    call MPI_Send(buf, 4, MPI_INTEGER, mod(rank + 1, nprocs), 5, MPI_COMM_WORLD)
  end if
  if (got(4) /= mod(rank + nprocs - 1, nprocs)) errs = errs + 1
  call MPI_Send(buf, 3, MPI_INTEGER, 0, 6, MPI_COMM_SELF, ierr)
  call MPI_Recv(got, 3, MPI_INTEGER, 0, 6, MPI_COMM_SELF, st)
  if (ierr /= MPI_SUCCESS .or. got(3) /= 3) errs = errs + 1
  if (sends /= 2 .or. sent /= 7) then
    errs = errs + 1
    print '(A,I0,A,I0,A,I0)', 'rank ', rank, ': intercepted sends ', sends, ' elements ', sent
  end if
  ! PMPI_ calls are not counted.
  call PMPI_Comm_rank(MPI_COMM_WORLD, rank)
  if (ranks /= 2) errs = errs + 1
  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize()
end program
