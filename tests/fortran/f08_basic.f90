! f08_basic.f90 - `use mpi_f08`: derived-type handles, TYPE(MPI_Status),
! assumed-rank buffers of several ranks, optional ierror; point-to-point,
! collectives, derived types, one-sided, a user op (f08 interface), keyval
! callbacks, and handles/attributes shared with C (c_side.c).
module f08_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer, save :: f08_handled = 0
contains
  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    if (comm == MPI_COMM_WORLD) f08_handled = error_code
  end subroutine
  subroutine absmax(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    real(8), pointer :: a(:), b(:)
    if (datatype /= MPI_DOUBLE_PRECISION) error stop 'absmax: wrong datatype'
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine
  subroutine copy_plus_extra(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    val_out = val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine
end module

program f08_basic
  use mpi_f08
  use f08_ops
  implicit none
  integer :: ierr, rank, nprocs, i, j, next, peer, cnt, keyval, csize
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: req(2)
  type(MPI_Datatype) :: vec
  type(MPI_Op) :: op
  type(MPI_Win) :: win
  type(MPI_Comm) :: dup
  integer :: m(4, 3), rm(4, 3), buf(8)
  real(8) :: d(2), dmax(2)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, val
  logical :: flag
  integer :: errs = 0

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (ierr /= MPI_SUCCESS) call fail('ierror')
  next = mod(rank + 1, nprocs)
  peer = mod(rank + nprocs - 1, nprocs)

  ! rank-2 buffers, statuses as TYPE(MPI_Status)
  m = reshape([((rank * 100 + i * 10 + j, i = 1, 4), j = 1, 3)], [4, 3])
  call MPI_Sendrecv(m, 12, MPI_INTEGER, next, 4, rm, 12, MPI_INTEGER, MPI_ANY_SOURCE, &
                    MPI_ANY_TAG, MPI_COMM_WORLD, status)
  if (status%MPI_SOURCE /= peer .or. status%MPI_TAG /= 4) call fail('status')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  if (cnt /= 12 .or. rm(3, 2) /= peer * 100 + 32) call fail('sendrecv')
  ! a contiguous column section, nonblocking
  call MPI_Irecv(rm(:, 1), 4, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, req(1))
  call MPI_Isend(m(:, 3), 4, MPI_INTEGER, next, 5, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, statuses)
  if (any(req /= MPI_REQUEST_NULL)) call fail('requests freed')
  if (statuses(1)%MPI_SOURCE /= peer) call fail('statuses')
  if (any(rm(:, 1) /= [(peer * 100 + i * 10 + 3, i = 1, 4)])) call fail('column')
  ! non-contiguous sections on blocking calls (copied in and out): a row to a row
  rm = -1
  call MPI_Sendrecv(m(2, :), 3, MPI_INTEGER, next, 8, rm(3, :), 3, MPI_INTEGER, peer, 8, &
                    MPI_COMM_WORLD, status)
  if (any(rm(3, :) /= [(peer * 100 + 20 + j, j = 1, 3)]) .or. any(rm(1:2, :) /= -1) &
      .or. any(rm(4, :) /= -1)) call fail('row sections')
  if (rank == 0) rm(1, :) = [11, 22, 33]
  call MPI_Bcast(rm(1, 1:3:2), 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rm(1, 1) /= 11 .or. rm(1, 3) /= 33 .or. (rank /= 0 .and. rm(1, 2) /= -1)) &
    call fail('bcast section')
  ! scalars and MPI_STATUS_IGNORE
  call MPI_Send(rank, 1, MPI_INTEGER, next, 6, MPI_COMM_WORLD)
  call MPI_Recv(i, 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  if (i /= peer) call fail('scalar')

  ! collectives, in place
  buf = rank
  call MPI_Allreduce(MPI_IN_PLACE, buf, 8, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(buf /= nprocs * (nprocs - 1) / 2)) call fail('allreduce in place')
  call MPI_Op_create(absmax, .true., op)
  d = [real(rank, 8), -real(3 * rank, 8)]
  call MPI_Allreduce(d, dmax, 2, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD)
  if (any(dmax /= [real(nprocs - 1, 8), real(3 * (nprocs - 1), 8)])) call fail('user op')
  call MPI_Op_free(op)
  if (op /= MPI_OP_NULL) call fail('op free')

  ! derived type: row 2 of m (stride 4)
  call MPI_Type_vector(3, 1, 4, MPI_INTEGER, vec)
  call MPI_Type_commit(vec)
  call MPI_Sendrecv(m(2, 1), 1, vec, next, 7, buf, 3, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, status)
  if (any(buf(1:3) /= [(peer * 100 + 20 + j, j = 1, 3)])) call fail('vector type')
  call MPI_Type_free(vec)

  ! one-sided: get from the next rank
  wsize = 4 * 12
  call MPI_Win_create(m, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_fence(0, win)
  disp = 5
  call MPI_Get(buf, 2, MPI_INTEGER, next, disp, 2, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(buf)
  if (buf(1) /= m(2, 2) - rank * 100 + next * 100 .or. buf(2) /= next * 100 + 32) call fail('rma get')
  call MPI_Win_free(win)

  ! keyval callbacks; handle and attribute seen from C
  call MPI_Comm_create_keyval(copy_plus_extra, MPI_COMM_NULL_DELETE_FN, keyval, 7_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 35_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  if (.not. flag .or. val /= 42) call fail('copy callback')
  call impi_test_comm_attr(dup%MPI_VAL, keyval, val)
  if (val /= 42) call fail('attribute from C')
  call impi_test_comm_size(dup%MPI_VAL, csize)
  if (csize /= nprocs) call fail('handle from C')
  call MPI_Comm_free(dup)
  if (dup /= MPI_COMM_NULL) call fail('comm free')
  call MPI_Comm_free_keyval(keyval)

  ! an f08 error handler, called with the communicator and the code
  block
    type(MPI_Errhandler) :: eh
    call MPI_Comm_create_errhandler(on_error, eh)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh)
    call MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER)
    if (f08_handled /= MPI_ERR_OTHER) call fail('f08 error handler')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Send(buf, 1, MPI_INTEGER, nprocs + 3, 0, MPI_COMM_WORLD, ierr)
    if (ierr == MPI_SUCCESS) call fail('optional ierror of a failing call')
    call MPI_Errhandler_free(eh)
    if (eh /= MPI_ERRHANDLER_NULL) call fail('errhandler free')
  end block
  call PMPI_Comm_size(MPI_COMM_WORLD, cnt)  ! the profiling interface
  if (cnt /= nprocs) call fail('PMPI_Comm_size')
  if (PMPI_Wtime() <= 0.0d0) call fail('PMPI_Wtime')
  call MPI_Sizeof(m, cnt)
  if (cnt /= 4) call fail('sizeof integer')
  call MPI_Sizeof(dmax(1), cnt)
  if (cnt /= 8) call fail('sizeof real(8)')
  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize()
contains
  subroutine fail(what)
    character(len=*) :: what
    print *, 'rank', rank, 'FAILED: ', what
    errs = errs + 1
  end subroutine
end program
