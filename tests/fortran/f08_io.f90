! f08_io.f90 - MPI-IO from `use mpi_f08`: a file shared by every rank (in one
! client or across clients), explicit offsets, a view in etype units,
! collective reads, sizes, statuses, an error class for a missing file, and
! the same file read back through `use mpi`'s INTEGER handles (io_usempi).
module io_usempi
  implicit none
contains
  ! Rank r reads rank r's block through `use mpi` (INTEGER handles).
  integer function read_back(name, rank) result(errs)
    use mpi
    character(len=*), intent(in) :: name
    integer, intent(in) :: rank
    integer :: fh, ierr, buf(10), i, n
    integer :: st(MPI_STATUS_SIZE)
    integer(kind=MPI_OFFSET_KIND) :: off
    errs = 0
    call MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
    if (ierr /= MPI_SUCCESS) then
      errs = 1
      return
    end if
    off = int(rank, MPI_OFFSET_KIND) * 40
    call MPI_File_read_at_all(fh, off, buf, 10, MPI_INTEGER, st, ierr)
    call MPI_Get_count(st, MPI_INTEGER, n, ierr)
    if (n /= 10) errs = errs + 1
    do i = 1, 10
      if (buf(i) /= rank * 100 + i) errs = errs + 1
    end do
    call MPI_File_close(fh, ierr)
    if (ierr /= MPI_SUCCESS .or. fh /= MPI_FILE_NULL) errs = errs + 1
  end function
end module

program f08_io
  use mpi_f08
  use io_usempi
  implicit none
  type(MPI_File) :: fh
  type(MPI_Status) :: st
  character(len=128) :: name
  integer :: rank, nprocs, ierr, errs, i, n, cls, next
  integer :: mine(10), got(10), all(10)
  integer(kind=MPI_OFFSET_KIND) :: size
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  if (rank == 0) then
    call get_environment_variable('TMPDIR', name)
    if (len_trim(name) == 0) name = '/tmp'
    write (name, '(A,A,I0,A)') trim(name), '/impi_f08_io_', getpid(), '.dat'
  end if
  call MPI_Bcast(name, len(name), MPI_CHARACTER, 0, MPI_COMM_WORLD)

  ! A missing file: the error comes back (files default to MPI_ERRORS_RETURN).
  call MPI_File_open(MPI_COMM_WORLD, trim(name) // '.missing', MPI_MODE_RDONLY, MPI_INFO_NULL, &
                     fh, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_NO_SUCH_FILE, 'missing file: error class')

  call MPI_File_open(MPI_COMM_WORLD, trim(name), ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                     MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'open')
  do i = 1, 10
    mine(i) = rank * 100 + i
  end do
  call MPI_File_write_at(fh, int(rank, MPI_OFFSET_KIND) * 40, mine, 10, MPI_INTEGER, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(ierr == MPI_SUCCESS .and. n == 10, 'write_at')
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_get_size(fh, size)
  call check(size == int(nprocs, MPI_OFFSET_KIND) * 40, 'size')

  ! The next rank's block, through a view in integers.
  next = mod(rank + 1, nprocs)
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
  call MPI_File_read_at_all(fh, int(next * 10, MPI_OFFSET_KIND), got, 10, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 10, 'read_at_all count')
  do i = 1, 10
    call check(got(i) == next * 100 + i, 'read_at_all value')
  end do
  ! Individual file pointer: seek to rank 0's block, read it.
  call MPI_File_seek(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_SET)
  call MPI_File_read(fh, all, 10, MPI_INTEGER, st)
  do i = 1, 10
    call check(all(i) == i, 'read after seek')
  end do
  call MPI_File_close(fh)
  call check(fh == MPI_FILE_NULL, 'close sets MPI_FILE_NULL')

  errs = errs + read_back(trim(name), rank)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call MPI_File_delete(trim(name), MPI_INFO_NULL)

  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize()
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print '(A,I0,A,A)', 'rank ', rank, ': failed: ', what
    end if
  end subroutine
end program
