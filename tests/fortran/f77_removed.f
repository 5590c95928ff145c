! f77_removed.f - mpif.h: MPI-1's routines with INTEGER addresses (removed
! by MPI-3.0, kept as MPICH and Open MPI keep them): MPI_TYPE_HINDEXED,
! MPI_TYPE_STRUCT, MPI_TYPE_HVECTOR with INTEGER displacements, and
! MPI_TYPE_EXTENT/LB/UB, MPI_ADDRESS returning INTEGERs; and MPI-4's
! MPI_INFO_GET_STRING (Fortran lengths: no terminator).
      program f77removed
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, i, next, prev, errs, cls
      integer thv, thi, tst, ext, lb, ub, addr, sz
      integer bl(2), disp(2), types(2), st(MPI_STATUS_SIZE)
      integer ibuf(12), rbuf(12), pair(4), rpair(4)
      integer(kind=MPI_ADDRESS_KIND) a8
      integer info, buflen
      logical flag
      character*16 val
      errs = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      next = mod(rank + 1, nprocs)
      prev = mod(rank + nprocs - 1, nprocs)
      do i = 1, 12
        ibuf(i) = rank * 100 + i
        rbuf(i) = -1
      end do
! hvector: 3 blocks of 2 integers, 16 bytes apart (elements 1,2,5,6,9,10)
      call MPI_TYPE_HVECTOR(3, 2, 16, MPI_INTEGER, thv, ierr)
      call MPI_TYPE_COMMIT(thv, ierr)
      call MPI_TYPE_EXTENT(thv, ext, ierr)
      if (ext .ne. 40) errs = errs + 1
      call MPI_SENDRECV(ibuf, 1, thv, next, 1, rbuf, 1, thv, prev, 1,
     &     MPI_COMM_WORLD, st, ierr)
      do i = 1, 12
        if (mod(i - 1, 4) .lt. 2) then
          if (rbuf(i) .ne. prev * 100 + i) errs = errs + 1
        else
          if (rbuf(i) .ne. -1) errs = errs + 1
        end if
      end do
! hindexed: 1 integer at byte 4, 2 at byte 32 (elements 2, 9, 10)
      bl(1) = 1
      bl(2) = 2
      disp(1) = 4
      disp(2) = 32
      call MPI_TYPE_HINDEXED(2, bl, disp, MPI_INTEGER, thi, ierr)
      call MPI_TYPE_COMMIT(thi, ierr)
      call MPI_TYPE_LB(thi, lb, ierr)
      call MPI_TYPE_UB(thi, ub, ierr)
      if (lb .ne. 4 .or. ub .ne. 40) errs = errs + 1
      call MPI_TYPE_SIZE(thi, sz, ierr)
      if (sz .ne. 12) errs = errs + 1
      do i = 1, 12
        rbuf(i) = -1
      end do
      call MPI_SENDRECV(ibuf, 1, thi, next, 2, rbuf, 1, thi, prev, 2,
     &     MPI_COMM_WORLD, st, ierr)
      do i = 1, 12
        if (i .eq. 2 .or. i .eq. 9 .or. i .eq. 10) then
          if (rbuf(i) .ne. prev * 100 + i) errs = errs + 1
        else
          if (rbuf(i) .ne. -1) errs = errs + 1
        end if
      end do
! struct: an integer at byte 0 and an MPI_2INTEGER at byte 8
      bl(1) = 1
      bl(2) = 1
      disp(1) = 0
      disp(2) = 8
      types(1) = MPI_INTEGER
      types(2) = MPI_2INTEGER
      call MPI_TYPE_STRUCT(2, bl, disp, types, tst, ierr)
      call MPI_TYPE_COMMIT(tst, ierr)
      call MPI_TYPE_SIZE(tst, sz, ierr)
      call MPI_TYPE_EXTENT(tst, ext, ierr)
      if (sz .ne. 12 .or. ext .ne. 16) errs = errs + 1
      do i = 1, 4
        pair(i) = rank * 10 + i
        rpair(i) = -1
      end do
      call MPI_SENDRECV(pair, 1, tst, next, 3, rpair, 1, tst, prev, 3,
     &     MPI_COMM_WORLD, st, ierr)
      if (rpair(1) .ne. prev * 10 + 1 .or. rpair(2) .ne. -1) then
        errs = errs + 1
      end if
      if (rpair(3) .ne. prev * 10 + 3 .or. rpair(4) .ne. prev * 10 + 4)
     &     errs = errs + 1
      call MPI_TYPE_FREE(thv, ierr)
      call MPI_TYPE_FREE(thi, ierr)
      call MPI_TYPE_FREE(tst, ierr)
! MPI_ADDRESS: the INTEGER address, or MPI_ERR_ARG when it does not fit
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      call MPI_GET_ADDRESS(ibuf, a8, ierr)
      call MPI_ADDRESS(ibuf, addr, ierr)
      if (a8 .le. huge(addr) .and. a8 .ge. -huge(addr)) then
        if (ierr .ne. MPI_SUCCESS .or. addr .ne. a8) errs = errs + 1
      else
        call MPI_ERROR_CLASS(ierr, cls, i)
        if (cls .ne. MPI_ERR_ARG) errs = errs + 1
      end if
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD,
     &     MPI_ERRORS_ARE_FATAL, ierr)
! MPI_INFO_GET_STRING: lengths without a terminator
      call MPI_INFO_CREATE(info, ierr)
      call MPI_INFO_SET(info, 'color', 'purple', ierr)
      buflen = 0
      val = 'unchanged'
      call MPI_INFO_GET_STRING(info, 'color', buflen, val, flag, ierr)
      if (.not. flag .or. buflen .ne. 6) errs = errs + 1
      if (val .ne. 'unchanged') errs = errs + 1
      buflen = 2
      call MPI_INFO_GET_STRING(info, 'color', buflen, val, flag, ierr)
      if (buflen .ne. 6 .or. val .ne. 'pu') errs = errs + 1
      buflen = len(val)
      call MPI_INFO_GET_STRING(info, 'color', buflen, val, flag, ierr)
      if (buflen .ne. 6 .or. val .ne. 'purple') errs = errs + 1
      buflen = 6
      call MPI_INFO_GET_STRING(info, 'color', buflen, val, flag, ierr)
      if (buflen .ne. 6 .or. val .ne. 'purple') errs = errs + 1
      val = 'unchanged'
      call MPI_INFO_GET_STRING(info, 'shape', buflen, val, flag, ierr)
      if (flag .or. val .ne. 'unchanged') errs = errs + 1
      call MPI_INFO_FREE(info, ierr)
      if (errs .eq. 0) then
        print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
      else
        print *, 'rank ', rank, ' errors ', errs
      end if
      call MPI_FINALIZE(ierr)
      end
