! usempi_basic.f90 - `use mpi` (explicit interfaces): point-to-point with
! statuses, collectives, derived types, one-sided, a user op, keyval
! callbacks, and handles and attributes shared with C (c_side.c).
module usempi_ops
  implicit none
contains
  subroutine absmax(invec, inoutvec, len, datatype)
    use mpi
    integer :: len, datatype, i
    double precision :: invec(len), inoutvec(len)
    if (datatype /= MPI_DOUBLE_PRECISION) error stop 'absmax: wrong datatype'
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine
  subroutine copy_plus_one(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    use mpi
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    val_out = val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine
  subroutine count_delete(comm, keyval, val, extra_state, ierror)
    use mpi
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    integer, save :: deletes = 0
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine
end module

program usempi_basic
  use mpi
  use usempi_ops
  implicit none
  integer :: ierr, rank, nprocs, i, peer, next, cnt, vec, op, win, keyval, dup, csize, ctype
  integer :: status(MPI_STATUS_SIZE), req(2), statuses(MPI_STATUS_SIZE, 2), idx
  integer :: buf(10), rbuf(10), gathered(64)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, val
  double precision :: d(2), dmax(2)
  real :: r(3, 3)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  integer :: errs = 0

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  peer = mod(rank + nprocs - 1, nprocs)
  call MPI_Get_processor_name(host, cnt, ierr)
  if (cnt <= 0 .or. len_trim(host) /= cnt) call fail('processor name')

  ! point-to-point: scalar, array, 2-d section (copy-in/out), statuses
  buf = [(rank * 100 + i, i = 1, 10)]
  call MPI_Sendrecv(buf, 10, MPI_INTEGER, next, 5, rbuf, 10, MPI_INTEGER, MPI_ANY_SOURCE, &
                    MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
  if (status(MPI_SOURCE) /= peer .or. status(MPI_TAG) /= 5) call fail('sendrecv status')
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  if (cnt /= 10 .or. any(rbuf /= [(peer * 100 + i, i = 1, 10)])) call fail('sendrecv data')
  r = reshape([(real(rank * 10 + i), i = 1, 9)], [3, 3])
  call MPI_Irecv(d, 3, MPI_REAL, peer, 6, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(r(2, :), 3, MPI_REAL, next, 6, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitany(2, req, idx, status, ierr)
  if (idx < 1 .or. idx > 2 .or. req(idx) /= MPI_REQUEST_NULL) call fail('waitany index')
  call MPI_Waitall(2, req, statuses, ierr)
  block
    real :: got(3)
    got = transfer(d, got, 3)
    if (any(got /= [real(peer * 10 + 2), real(peer * 10 + 5), real(peer * 10 + 8)])) &
      call fail('row section')
  end block
  call MPI_Send(rank, 1, MPI_INTEGER, next, 8, MPI_COMM_WORLD, ierr)
  call MPI_Recv(i, 1, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (i /= peer) call fail('scalar')

  ! collectives
  call MPI_Allgather(rank * 2, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (any(gathered(1:nprocs) /= [(2 * i, i = 0, nprocs - 1)])) call fail('allgather')
  call MPI_Reduce(rank, cnt, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. cnt /= nprocs - 1) call fail('reduce')
  call MPI_Op_create(absmax, .true., op, ierr)
  d = [dble(rank), -dble(2 * rank)]
  call MPI_Allreduce(d, dmax, 2, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD, ierr)
  if (any(dmax /= [dble(nprocs - 1), dble(2 * (nprocs - 1))])) call fail('user op')
  call MPI_Op_free(op, ierr)

  ! derived type: a column of a 3x3 REAL matrix is contiguous, a row is a vector
  call MPI_Type_vector(3, 1, 3, MPI_REAL, vec, ierr)
  call MPI_Type_commit(vec, ierr)
  r = reshape([(real(rank * 10 + i), i = 1, 9)], [3, 3])
  call MPI_Sendrecv(r, 1, vec, next, 9, d, 3, MPI_REAL, peer, 9, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, MPI_REAL, cnt, ierr)
  block
    real :: got(3)
    got = transfer(d, got, 3)
    if (cnt /= 3 .or. any(got /= [real(peer * 10 + 1), real(peer * 10 + 4), real(peer * 10 + 7)])) &
      call fail('vector type')
  end block
  call MPI_Type_set_name(vec, 'row of r', ierr)
  call MPI_Type_get_name(vec, name, cnt, ierr)
  if (name /= 'row of r' .or. cnt /= 8) call fail('type name')
  call MPI_Type_free(vec, ierr)
  if (vec /= MPI_DATATYPE_NULL) call fail('type free')

  ! one-sided: accumulate into rank 0
  rbuf = 0
  wsize = 40
  call MPI_Win_create(rbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 1
  call MPI_Accumulate(rank + 1, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  if (rank == 0 .and. (rbuf(2) /= nprocs * (nprocs + 1) / 2 .or. rbuf(1) /= 0)) call fail('rma')
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
  if (.not. flag .or. val /= 40) call fail('win size attribute')
  call MPI_Win_free(win, ierr)

  ! keyval with Fortran callbacks; the attribute read from C, a C type used here
  call MPI_Comm_create_keyval(copy_plus_one, count_delete, keyval, 1000_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 42_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
  if (.not. flag .or. val /= 1042) call fail('copy callback')
  call impi_test_comm_attr(dup, keyval, val)
  if (val /= 1042) call fail('attribute seen from C')
  call impi_test_comm_size(dup, csize)
  if (csize /= nprocs) call fail('handle seen from C')
  block  ! set in C, read in Fortran: the address C stored
    integer(kind=MPI_ADDRESS_KIND) :: addr
    call impi_test_c_set_attr(dup, keyval, addr)
    call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
    if (.not. flag .or. val /= addr) call fail('C attribute read in Fortran')
  end block
  call MPI_Comm_free(dup, ierr)
  if (dup /= MPI_COMM_NULL) call fail('comm free')
  call MPI_Comm_free_keyval(keyval, ierr)
  call impi_test_c_type(ctype)
  call MPI_Type_size(ctype, cnt, ierr)
  if (cnt /= 12) call fail('C datatype in Fortran')
  call MPI_Type_free(ctype, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (.not. flag .or. val < 32767) call fail('tag_ub')
  if (MPI_Wtime() <= 0.0d0) call fail('wtime')
  call MPI_Sizeof(d, cnt, ierr)
  if (cnt /= 8) call fail('sizeof double')
  call MPI_Sizeof(r(1, 1), cnt, ierr)
  if (cnt /= 4) call fail('sizeof real')
  call MPI_Sizeof(flag, cnt, ierr)
  if (cnt /= 4) call fail('sizeof logical')

  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what)
    character(len=*) :: what
    print *, 'rank', rank, 'FAILED: ', what
    errs = errs + 1
  end subroutine
end program
