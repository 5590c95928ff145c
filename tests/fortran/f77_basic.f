! f77_basic.f - mpif.h from fixed form: hello, point-to-point with
! statuses, collectives, a derived type, a user op, one-sided, attributes.
      program f77basic
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, i, peer, cnt, dtype, op, win
      integer status(MPI_STATUS_SIZE), buf(10), rbuf(10), expect
      integer req(2), statuses(MPI_STATUS_SIZE, 2)
      double precision d(4), dsum(4)
      integer(kind=MPI_ADDRESS_KIND) wsize, disp, tagub
      logical flag
      external myop
      integer errs
      errs = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
! point-to-point ring with status
      do i = 1, 10
        buf(i) = rank * 100 + i
      end do
      peer = mod(rank + 1, nprocs)
      call MPI_SENDRECV(buf, 10, MPI_INTEGER, peer, 7, rbuf, 10,
     &     MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
     &     status, ierr)
      peer = mod(rank + nprocs - 1, nprocs)
      if (status(MPI_SOURCE) .ne. peer) errs = errs + 1
      if (status(MPI_TAG) .ne. 7) errs = errs + 1
      call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
      if (cnt .ne. 10) errs = errs + 1
      do i = 1, 10
        if (rbuf(i) .ne. peer * 100 + i) errs = errs + 1
      end do
! nonblocking with Waitall and statuses
      call MPI_IRECV(rbuf, 3, MPI_INTEGER, peer, 9, MPI_COMM_WORLD,
     &     req(1), ierr)
      call MPI_ISEND(buf, 3, MPI_INTEGER, mod(rank + 1, nprocs), 9,
     &     MPI_COMM_WORLD, req(2), ierr)
      call MPI_WAITALL(2, req, statuses, ierr)
      if (req(1) .ne. MPI_REQUEST_NULL) errs = errs + 1
      if (statuses(MPI_SOURCE, 1) .ne. peer) errs = errs + 1
      if (statuses(MPI_TAG, 1) .ne. 9) errs = errs + 1
      if (rbuf(3) .ne. peer * 100 + 3) errs = errs + 1
      call MPI_RECV(rbuf, 0, MPI_INTEGER, MPI_PROC_NULL, 0,
     &     MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
! collectives: allreduce in place, bcast of doubles
      buf(1) = rank + 1
      call MPI_ALLREDUCE(MPI_IN_PLACE, buf, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, ierr)
      if (buf(1) .ne. nprocs * (nprocs + 1) / 2) errs = errs + 1
      do i = 1, 4
        d(i) = 0.0d0
        if (rank .eq. 0) d(i) = 1.5d0 * i
      end do
      call MPI_BCAST(d, 4, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &     ierr)
      if (d(4) .ne. 6.0d0) errs = errs + 1
! derived type: every other integer
      call MPI_TYPE_VECTOR(5, 1, 2, MPI_INTEGER, dtype, ierr)
      call MPI_TYPE_COMMIT(dtype, ierr)
      do i = 1, 10
        buf(i) = i
        rbuf(i) = -1
      end do
      if (rank .eq. 0) then
        call MPI_SEND(buf, 1, dtype, nprocs - 1, 3, MPI_COMM_WORLD,
     &       ierr)
      end if
      if (rank .eq. nprocs - 1) then
        call MPI_RECV(rbuf, 5, MPI_INTEGER, 0, 3, MPI_COMM_WORLD,
     &       status, ierr)
        do i = 1, 5
          if (rbuf(i) .ne. 2 * i - 1) errs = errs + 1
        end do
      end if
      call MPI_TYPE_FREE(dtype, ierr)
! user op (Fortran callback): elementwise max of |x|
      call MPI_OP_CREATE(myop, .true., op, ierr)
      d(1) = rank
      d(2) = -rank
      call MPI_ALLREDUCE(d, dsum, 2, MPI_DOUBLE_PRECISION, op,
     &     MPI_COMM_WORLD, ierr)
      if (dsum(1) .ne. nprocs - 1) errs = errs + 1
      if (dsum(2) .ne. nprocs - 1) errs = errs + 1
      call MPI_OP_FREE(op, ierr)
! one-sided: put my rank into the next rank's window
      rbuf(1) = -1
      wsize = 40
      call MPI_WIN_CREATE(rbuf, wsize, 4, MPI_INFO_NULL,
     &     MPI_COMM_WORLD, win, ierr)
      call MPI_WIN_FENCE(0, win, ierr)
      disp = 0
      call MPI_PUT(rank, 1, MPI_INTEGER, mod(rank + 1, nprocs), disp,
     &     1, MPI_INTEGER, win, ierr)
      call MPI_WIN_FENCE(0, win, ierr)
      call MPI_F_SYNC_REG(rbuf)
      if (rbuf(1) .ne. peer) errs = errs + 1
      call MPI_WIN_FREE(win, ierr)
! predefined attribute reads as its value
      call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag,
     &     ierr)
      if (.not. flag .or. tagub .lt. 32767) errs = errs + 1
      if (errs .eq. 0) then
        print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
      else
        print *, 'rank', rank, 'errors', errs
      end if
      call MPI_FINALIZE(ierr)
      end

      subroutine myop(invec, inoutvec, len, datatype)
      implicit none
      include 'mpif.h'
      integer len, datatype, i
      double precision invec(len), inoutvec(len)
      if (datatype .ne. MPI_DOUBLE_PRECISION) then
        print *, 'myop: wrong datatype', datatype
        call MPI_ABORT(MPI_COMM_WORLD, 1, i)
      end if
      do i = 1, len
        inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
      end do
      end
