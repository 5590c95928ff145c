! usempi_more.f90 - `use mpi`: the hand-written entry points (request and
! status arrays, datatype arrays, error handlers, strings, info) and error
! codes returned through IERROR.
module more_handlers
  implicit none
  integer, save :: handled = 0, handled_code = 0, freed = 0
contains
  subroutine greq_query(extra_state, status, ierror)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    status(MPI_SOURCE) = int(extra_state)
    status(MPI_TAG) = 77
    status(MPI_ERROR) = MPI_SUCCESS
    call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierror)
    call MPI_Status_set_cancelled(status, .false., ierror)
  end subroutine
  subroutine greq_free(extra_state, ierror)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    freed = freed + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine greq_cancel(extra_state, complete, ierror)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine
  subroutine on_error(comm, code)
    use mpi
    integer :: comm, code, n, ierr
    call MPI_Comm_size(comm, n, ierr)  ! the handle the library passed is usable
    if (ierr == MPI_SUCCESS .and. n > 0) handled = handled + 1
    handled_code = code
  end subroutine
end module

program usempi_more
  use mpi
  use more_handlers
  implicit none
  integer :: ierr, rank, nprocs, i, next, peer, outcount, idx, eh, info, cls, resultlen
  integer :: req(4), indices(4), statuses(MPI_STATUS_SIZE, 4), status(MPI_STATUS_SIZE)
  integer :: sbuf(4), rbuf(4), newtype, types(2), blens(2), ints(8), dtypes(4)
  integer :: counts(64), displs(64), wtypes(64), rcounts(64), rdispls(64), rtypes(64)
  integer :: sa(64), ra(64), ni, na, nd, combiner
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), addrs(4), base, a2
  logical :: flag
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=20) :: value
  type pair
    integer :: i
    double precision :: d
  end type
  type(pair) :: ps(2), pr(2)
  integer :: errs = 0

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  peer = mod(rank + nprocs - 1, nprocs)

  ! Testsome/Waitsome/Testany/Startall: indices are 1-based, statuses filled
  sbuf = [(rank * 10 + i, i = 1, 4)]
  do i = 1, 2
    call MPI_Irecv(rbuf(i), 1, MPI_INTEGER, peer, i, MPI_COMM_WORLD, req(i), ierr)
  end do
  do i = 1, 2
    call MPI_Isend(sbuf(i), 1, MPI_INTEGER, next, i, MPI_COMM_WORLD, req(2 + i), ierr)
  end do
  outcount = 0
  do while (outcount == 0)
    call MPI_Testsome(4, req, outcount, indices, statuses, ierr)
  end do
  if (outcount == MPI_UNDEFINED .or. any(indices(1:outcount) < 1) .or. &
      any(indices(1:outcount) > 4)) call fail('testsome indices')
  do i = 1, outcount
    if (req(indices(i)) /= MPI_REQUEST_NULL) call fail('testsome request')
    if (indices(i) <= 2 .and. statuses(MPI_TAG, i) /= indices(i)) call fail('testsome status')
  end do
  do
    call MPI_Waitsome(4, req, outcount, indices, statuses, ierr)
    if (outcount == MPI_UNDEFINED) exit
    do i = 1, outcount
      if (indices(i) <= 2 .and. statuses(MPI_SOURCE, i) /= peer) call fail('waitsome status')
    end do
  end do
  if (any(rbuf(1:2) /= [peer * 10 + 1, peer * 10 + 2])) call fail('some data')
  call MPI_Recv_init(rbuf(3), 1, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Send_init(sbuf(3), 1, MPI_INTEGER, next, 9, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Startall(2, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(2, req, idx, flag, status, ierr)
  end do
  if (idx < 1 .or. idx > 2) call fail('testany index')
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  if (rbuf(3) /= peer * 10 + 3) call fail('persistent')
  call MPI_Request_free(req(1), ierr)
  call MPI_Request_free(req(2), ierr)

  ! Type_create_struct of a derived type, Type_get_contents back
  call MPI_Get_address(ps(1)%i, base, ierr)
  call MPI_Get_address(ps(1)%d, a2, ierr)
  disps = [0_MPI_ADDRESS_KIND, a2 - base]
  blens = [1, 1]
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  call MPI_Type_create_struct(2, blens, disps, types, newtype, ierr)
  call MPI_Get_address(ps(2), a2, ierr)
  call MPI_Type_create_resized(newtype, 0_MPI_ADDRESS_KIND, a2 - base, newtype, ierr)
  call MPI_Type_commit(newtype, ierr)
  ps = [pair(rank, rank + 0.5d0), pair(-rank, rank + 0.25d0)]
  call MPI_Sendrecv(ps, 2, newtype, next, 3, pr, 2, newtype, peer, 3, MPI_COMM_WORLD, status, ierr)
  if (pr(1)%i /= peer .or. pr(1)%d /= peer + 0.5d0 .or. pr(2)%i /= -peer .or. &
      pr(2)%d /= peer + 0.25d0) call fail('struct type')
  call MPI_Type_get_envelope(newtype, ni, na, nd, combiner, ierr)
  if (combiner /= MPI_COMBINER_RESIZED .or. nd /= 1) call fail('envelope')
  call MPI_Type_get_contents(newtype, 8, 4, 4, ints, addrs, dtypes, ierr)
  call MPI_Type_get_envelope(dtypes(1), ni, na, nd, combiner, ierr)
  if (combiner /= MPI_COMBINER_STRUCT .or. ni /= 3) call fail('contents')
  call MPI_Type_get_contents(dtypes(1), 8, 4, 4, ints, addrs, dtypes, ierr)
  if (dtypes(1) /= MPI_INTEGER .or. dtypes(2) /= MPI_DOUBLE_PRECISION .or. ints(1) /= 2 &
      .or. addrs(2) /= disps(2)) call fail('struct contents')
  call MPI_Type_free(newtype, ierr)

  ! Alltoallw: one integer to and from everyone, with a datatype per peer
  do i = 1, nprocs
    sa(i) = rank * 1000 + i - 1
    counts(i) = 1
    displs(i) = (i - 1) * 4
    wtypes(i) = MPI_INTEGER
    rcounts(i) = 1
    rdispls(i) = (i - 1) * 4
    rtypes(i) = MPI_INTEGER
  end do
  call MPI_Alltoallw(sa, counts, displs, wtypes, ra, rcounts, rdispls, rtypes, MPI_COMM_WORLD, ierr)
  if (any(ra(1:nprocs) /= [(i * 1000 + rank, i = 0, nprocs - 1)])) call fail('alltoallw')

  ! error handlers: a Fortran handler, then MPI_ERRORS_RETURN and error strings
  call MPI_Comm_create_errhandler(on_error, eh, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh, ierr)
  call MPI_Send(sbuf, 1, MPI_INTEGER, nprocs + 5, 0, MPI_COMM_WORLD, ierr)
  if (handled /= 1) call fail('fortran error handler')
  call MPI_Error_class(handled_code, cls, ierr)
  if (cls /= MPI_ERR_RANK) call fail('handler code')
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(sbuf, -1, MPI_INTEGER, next, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, i)
  if (cls /= MPI_ERR_COUNT) call fail('ierror of a bad count')
  call MPI_Error_string(ierr, msg, resultlen, i)
  if (resultlen <= 0 .or. len_trim(msg) /= resultlen) call fail('error string')

  ! a generalized request: Fortran query/free callbacks, status through them
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 5_MPI_ADDRESS_KIND, req(1), ierr)
  call MPI_Grequest_complete(req(1), ierr)
  call MPI_Wait(req(1), status, ierr)
  if (req(1) /= MPI_REQUEST_NULL .or. freed /= 5) call fail('grequest free')
  call MPI_Get_count(status, MPI_INTEGER, i, ierr)
  if (status(MPI_SOURCE) /= 5 .or. status(MPI_TAG) /= 77 .or. i /= 3) call fail('grequest status')

  ! strings: names and info keys/values (trailing blanks dropped, results padded)
  call MPI_Comm_set_name(MPI_COMM_WORLD, 'world of fortran   ', ierr)
  call MPI_Comm_get_name(MPI_COMM_WORLD, cname, resultlen, ierr)
  if (cname /= 'world of fortran' .or. resultlen /= 16) call fail('comm name')
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, ' colour ', ' blue  ', ierr)
  call MPI_Info_get(info, 'colour', 20, value, flag, ierr)
  if (.not. flag .or. value /= 'blue') call fail('info get')
  call MPI_Info_get_valuelen(info, 'colour', i, flag, ierr)
  if (.not. flag .or. i /= 4) call fail('info valuelen')
  value = 'unchanged'
  call MPI_Info_get(info, 'shape', 20, value, flag, ierr)
  if (flag .or. value /= 'unchanged') call fail('info missing key')
  call MPI_Info_free(info, ierr)
  if (info /= MPI_INFO_NULL) call fail('info free')

  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what)
    character(len=*) :: what
    print *, 'rank', rank, 'FAILED: ', what
    errs = errs + 1
  end subroutine
end program
