! f08_mpi4.f90 - MPI-4 calls from mpi_f08 and `use mpi`:
! MPI_Request_get_status_all/any/some (the requests stay active),
! MPI_Status_f082f/MPI_Status_f2f08 (and C's MPI_Status_f082c/c2f08 on an
! mpi_f08 status, c_side.c), and MPI_Register_datarep with Fortran conversion
! callbacks: a representation that stores every INTEGER negated in the file,
! written through it and read back both raw (native) and through it.
module mpi4_callbacks
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: reads = 0, writes = 0, extents = 0, bad_state = 0
contains
  subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    call c_f_pointer(userbuf, u, [count])
    call c_f_pointer(filebuf, f, [count])
    if (extra_state /= 4242 .or. datatype /= MPI_INTEGER .or. position < 0) bad_state = bad_state + 1
    u = -f
    reads = reads + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    call c_f_pointer(userbuf, u, [count])
    call c_f_pointer(filebuf, f, [count])
    if (extra_state /= 4242 .or. datatype /= MPI_INTEGER .or. position < 0) bad_state = bad_state + 1
    f = -u
    writes = writes + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine neg_extent(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    integer :: size
    if (extra_state /= 4242) bad_state = bad_state + 1
    call MPI_Type_size(datatype, size)
    extent = size
    extents = extents + 1
    ierror = MPI_SUCCESS
  end subroutine
end module

! The same through `use mpi`: INTEGER handles and status arrays, EXTERNAL
! callbacks receiving the buffers as arrays.
module mpi4_usempi
  implicit none
  integer :: u_reads = 0, u_writes = 0
contains
  integer function usempi_checks(rank, nprocs, fname) result(errs)
    use mpi
    integer, intent(in) :: rank, nprocs
    character(len=*), intent(in) :: fname
    integer :: reqs(2), sts(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE), st2(MPI_STATUS_SIZE)
    integer :: ierr, idx, n, prev, next, inb, outb, i, fh, vals(4), indices(2)
    type(MPI_Status) :: st08
    logical :: flag
    external :: u_neg_read, u_neg_write, u_neg_extent
    errs = 0
    prev = mod(rank + nprocs - 1, nprocs)
    next = mod(rank + 1, nprocs)
    outb = 1000 + rank
    inb = -1
    call MPI_Irecv(inb, 1, MPI_INTEGER, prev, 21, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(outb, 1, MPI_INTEGER, next, 21, MPI_COMM_WORLD, reqs(2), ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Request_get_status_all(2, reqs, flag, sts, ierr)
    end do
    if (reqs(1) == MPI_REQUEST_NULL .or. reqs(2) == MPI_REQUEST_NULL) errs = errs + 1
    if (sts(MPI_SOURCE, 1) /= prev .or. sts(MPI_TAG, 1) /= 21) errs = errs + 1
    call MPI_Get_count(sts(:, 1), MPI_INTEGER, n, ierr)
    if (n /= 1) errs = errs + 1
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    if (inb /= 1000 + prev) errs = errs + 1

    reqs(1) = MPI_REQUEST_NULL
    st = 0  ! (MPI_ERROR is not set by a single-request call)
    call MPI_Irecv(inb, 1, MPI_INTEGER, prev, 22, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Send(outb, 1, MPI_INTEGER, next, 22, MPI_COMM_WORLD, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Request_get_status_any(2, reqs, idx, flag, st, ierr)
    end do
    if (idx /= 2 .or. st(MPI_TAG) /= 22 .or. reqs(2) == MPI_REQUEST_NULL) errs = errs + 1
    ! The status through TYPE(MPI_Status) and back.
    call MPI_Status_f2f08(st, st08, ierr)
    if (ierr /= MPI_SUCCESS .or. st08%MPI_SOURCE /= prev .or. st08%MPI_TAG /= 22) errs = errs + 1
    st2 = -7
    call MPI_Status_f082f(st08, st2, ierr)
    if (any(st2 /= st)) errs = errs + 1
    call MPI_Wait(reqs(2), MPI_STATUS_IGNORE, ierr)

    call MPI_Irecv(inb, 1, MPI_INTEGER, prev, 23, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Send(outb, 1, MPI_INTEGER, next, 23, MPI_COMM_WORLD, ierr)
    n = 0
    do while (n == 0)
      call MPI_Request_get_status_some(2, reqs, n, indices, sts, ierr)
    end do
    if (n /= 1 .or. indices(1) /= 2 .or. sts(MPI_TAG, 1) /= 23) errs = errs + 1
    call MPI_Wait(reqs(2), MPI_STATUS_IGNORE, ierr)
    ! Only null requests: MPI_UNDEFINED, and flag .true.
    reqs = MPI_REQUEST_NULL
    call MPI_Request_get_status_any(2, reqs, idx, flag, st, ierr)
    if (idx /= MPI_UNDEFINED .or. .not. flag) errs = errs + 1

    ! MPI_Register_datarep from `use mpi`: the file written through mpi_f08's
    ! representation, read again through this one (also negating).
    call MPI_Register_datarep('usempi_neg', u_neg_read, u_neg_write, u_neg_extent, &
                              4243_MPI_ADDRESS_KIND, ierr)
    if (ierr /= MPI_SUCCESS) errs = errs + 1
    call MPI_Register_datarep('usempi_neg', u_neg_read, u_neg_write, u_neg_extent, &
                              4243_MPI_ADDRESS_KIND, ierr)
    call MPI_Error_class(ierr, i, n)
    if (i /= MPI_ERR_DUP_DATAREP) errs = errs + 1
    call MPI_File_open(MPI_COMM_WORLD, fname, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
    call MPI_File_set_view(fh, int(rank * 16, MPI_OFFSET_KIND), MPI_INTEGER, MPI_INTEGER, &
                           'usempi_neg', MPI_INFO_NULL, ierr)
    call MPI_File_read_all(fh, vals, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    do i = 1, 4
      if (vals(i) /= rank * 10 + i) errs = errs + 1
    end do
    if (u_reads == 0) errs = errs + 1
    call MPI_File_close(fh, ierr)
  end function
end module

subroutine u_neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi, only: MPI_OFFSET_KIND, MPI_ADDRESS_KIND, MPI_SUCCESS
  use mpi4_usempi, only: u_reads
  integer :: userbuf(*), filebuf(*), datatype, count, ierror
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  userbuf(1:count) = -filebuf(1:count)
  u_reads = u_reads + 1
  ierror = MPI_SUCCESS
  if (extra_state /= 4243 .or. position < 0 .or. datatype == 0) ierror = 1
end subroutine
subroutine u_neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi, only: MPI_OFFSET_KIND, MPI_ADDRESS_KIND, MPI_SUCCESS
  use mpi4_usempi, only: u_writes
  integer :: userbuf(*), filebuf(*), datatype, count, ierror
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  filebuf(1:count) = -userbuf(1:count)
  u_writes = u_writes + 1
  ierror = MPI_SUCCESS
  if (extra_state /= 4243 .or. position < 0 .or. datatype == 0) ierror = 1
end subroutine
subroutine u_neg_extent(datatype, extent, extra_state, ierror)
  use mpi, only: MPI_ADDRESS_KIND, MPI_Type_size
  integer :: datatype, ierror, size
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  call MPI_Type_size(datatype, size, ierror)
  extent = size
  if (extra_state /= 4243) ierror = 1
end subroutine

program f08_mpi4
  use mpi_f08
  use mpi4_callbacks
  use mpi4_usempi
  implicit none
  interface
    ! c_side.c: MPI_Status_f082c/c2f08/f082f/f2f08 from C on this status.
    subroutine impi_test_f08_status(st, source, tag, count, same)
      import :: MPI_Status
      type(MPI_Status) :: st
      integer :: source, tag, count, same
    end subroutine
  end interface
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: sts(2), st
  type(MPI_File) :: fh
  integer :: rank, nprocs, errs, prev, next, outb(3), inb(3), idx, n, indices(2), i, ierr, cls
  integer :: fst(MPI_STATUS_SIZE), vals(4), raw(4), csrc, ctag, ccount, csame
  logical :: flag
  character(len=128) :: name
  type(MPI_Info) :: hw
  type(MPI_Comm) :: dup
  type(MPI_Request) :: fl
  integer :: bsbuf(64), bsize
  integer(kind=MPI_ADDRESS_KIND) :: baddr
  character(len=MPI_MAX_INFO_VAL) :: hwval
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  next = mod(rank + 1, nprocs)
  outb = [rank, 2 * rank, 3 * rank]

  ! get_status_all: complete, but the requests stay until MPI_Waitall.
  call MPI_Irecv(inb, 3, MPI_INTEGER, prev, 11, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(outb, 3, MPI_INTEGER, next, 11, MPI_COMM_WORLD, reqs(2))
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status_all(2, reqs, flag, sts)
  end do
  call check(reqs(1) /= MPI_REQUEST_NULL .and. reqs(2) /= MPI_REQUEST_NULL, 'all: requests kept')
  call check(sts(1)%MPI_SOURCE == prev .and. sts(1)%MPI_TAG == 11, 'all: status')
  call MPI_Get_count(sts(1), MPI_INTEGER, n)
  call check(n == 3, 'all: count')
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(all(inb == [prev, 2 * prev, 3 * prev]), 'all: payload')

  ! get_status_any: index 2 (1-based) when only the second is active.
  reqs(1) = MPI_REQUEST_NULL
  st = MPI_Status(0, 0, 0, 0, 0, 0)  ! (MPI_ERROR is not set by a single-request call)
  call MPI_Irecv(inb, 3, MPI_INTEGER, prev, 12, MPI_COMM_WORLD, reqs(2))
  call MPI_Send(outb, 2, MPI_INTEGER, next, 12, MPI_COMM_WORLD)
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status_any(2, reqs, idx, flag, st)
  end do
  call check(idx == 2 .and. st%MPI_TAG == 12 .and. reqs(2) /= MPI_REQUEST_NULL, 'any')
  ! mpi_f08 status <-> INTEGER array, and the C conversions.
  call MPI_Status_f082f(st, fst, ierr)
  call check(ierr == MPI_SUCCESS .and. fst(MPI_SOURCE) == prev .and. fst(MPI_TAG) == 12, 'f082f')
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 2, 'any: count')
  sts(1)%MPI_SOURCE = -5
  call MPI_Status_f2f08(fst, sts(1))
  call MPI_Get_count(sts(1), MPI_INTEGER, n)
  call check(sts(1)%MPI_SOURCE == prev .and. n == 2, 'f2f08')
  call impi_test_f08_status(st, csrc, ctag, ccount, csame)
  call check(csrc == prev .and. ctag == 12 .and. ccount == 2 .and. csame == 1, 'C f082c/c2f08')
  call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
  call check(reqs(2) == MPI_REQUEST_NULL, 'wait frees')

  ! get_status_some
  call MPI_Irecv(inb, 3, MPI_INTEGER, prev, 13, MPI_COMM_WORLD, reqs(1))
  reqs(2) = MPI_REQUEST_NULL
  call MPI_Send(outb, 1, MPI_INTEGER, next, 13, MPI_COMM_WORLD)
  n = 0
  do while (n == 0)
    call MPI_Request_get_status_some(2, reqs, n, indices, sts)
  end do
  call check(n == 1 .and. indices(1) == 1 .and. sts(1)%MPI_TAG == 13, 'some')
  call check(reqs(1) /= MPI_REQUEST_NULL, 'some: request kept')
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  reqs = MPI_REQUEST_NULL
  call MPI_Request_get_status_some(2, reqs, n, indices, sts)
  call check(n == MPI_UNDEFINED, 'some: all null')

  ! MPI_Register_datarep with Fortran callbacks.
  if (rank == 0) then
    call get_environment_variable('TMPDIR', name)
    if (len_trim(name) == 0) name = '/tmp'
    write (name, '(A,A,I0,A)') trim(name), '/impi_f08_mpi4_', getpid(), '.dat'
  end if
  call MPI_Bcast(name, len(name), MPI_CHARACTER, 0, MPI_COMM_WORLD)
  call MPI_Register_datarep('f08_neg', neg_read, neg_write, neg_extent, 4242_MPI_ADDRESS_KIND, ierr)
  call check(ierr == MPI_SUCCESS, 'register')
  call MPI_Register_datarep('f08_neg', neg_read, neg_write, neg_extent, 4242_MPI_ADDRESS_KIND, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_DUP_DATAREP, 'register twice')
  call MPI_File_open(MPI_COMM_WORLD, trim(name), ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh)
  call MPI_File_set_view(fh, int(rank * 16, MPI_OFFSET_KIND), MPI_INTEGER, MPI_INTEGER, 'f08_neg', &
                         MPI_INFO_NULL)
  vals = [(rank * 10 + i, i = 1, 4)]
  call MPI_File_write_all(fh, vals, 4, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 4 .and. writes > 0 .and. extents > 0, 'write through the representation')
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  ! Raw: the file holds the negated values.
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
  call MPI_File_read_at(fh, int(next * 4, MPI_OFFSET_KIND), raw, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
  call check(all(raw == [(-(next * 10 + i), i = 1, 4)]), 'file holds negated values')
  ! Through the representation again: the values.
  call MPI_File_set_view(fh, int(next * 16, MPI_OFFSET_KIND), MPI_INTEGER, MPI_INTEGER, 'f08_neg', &
                         MPI_INFO_NULL)
  vals = 0
  call MPI_File_read(fh, vals, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
  call check(all(vals == [(next * 10 + i, i = 1, 4)]) .and. reads > 0, 'read through the representation')
  call check(bad_state == 0, 'callback arguments')
  call MPI_File_close(fh)
  call MPI_Barrier(MPI_COMM_WORLD)

  ! MPI-4.1: hardware resource information; a communicator's buffer for
  ! MPI_Bsend, flushed and detached.
  call MPI_Get_hw_resource_info(hw, ierr)
  call MPI_Info_get_nkeys(hw, n)
  call MPI_Info_get(hw, 'mpi_shared_memory', MPI_MAX_INFO_VAL, hwval, flag)
  call check(ierr == MPI_SUCCESS .and. n > 1 .and. flag .and. trim(hwval) == '1', 'hw_resource_info')
  call MPI_Info_free(hw)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_attach_buffer(dup, bsbuf, int(sizeof(bsbuf)), ierr)
  call check(ierr == MPI_SUCCESS, 'Comm_attach_buffer')
  call MPI_Bsend(outb, 3, MPI_INTEGER, next, 31, dup, ierr)
  call check(ierr == MPI_SUCCESS, 'Bsend into the communicator buffer')
  call MPI_Comm_iflush_buffer(dup, fl, ierr)
  call MPI_Recv(inb, 3, MPI_INTEGER, prev, 31, dup, MPI_STATUS_IGNORE)
  call MPI_Wait(fl, MPI_STATUS_IGNORE)
  call check(all(inb == [prev, 2 * prev, 3 * prev]), 'Bsend payload')
  call MPI_Comm_flush_buffer(dup, ierr)
  call check(ierr == MPI_SUCCESS, 'Comm_flush_buffer')
  call MPI_Comm_detach_buffer(dup, baddr, bsize, ierr)
  call check(ierr == MPI_SUCCESS .and. bsize == int(sizeof(bsbuf)), 'Comm_detach_buffer')
  call MPI_Buffer_flush(ierr)
  call check(ierr == MPI_SUCCESS, 'Buffer_flush')
  call MPI_Comm_free(dup)

  errs = errs + usempi_checks(rank, nprocs, trim(name))
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
