! f77_mpi4.f - MPI-4 and MPI-IO callbacks through mpif.h (fixed form):
! MPI_REGISTER_DATAREP with Fortran callbacks and MPI_CONVERSION_FN_NULL,
! MPI_REQUEST_GET_STATUS_ALL/ANY/SOME, MPI_STATUS_F2F08/F082F.
      program f77mpi4
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, i, prev, next, fh, idx, n, cls
      integer req(2), sts(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE)
      integer st08(MPI_STATUS_SIZE), st2(MPI_STATUS_SIZE)
      integer inb, outb, vals(4), raw(4), indices(2), errs
      integer(kind=MPI_OFFSET_KIND) disp
      logical flag
      character*128 fname
      external negread, fextent
      integer nreads
      common /f77cnt/ nreads
      errs = 0
      nreads = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      prev = mod(rank + nprocs - 1, nprocs)
      next = mod(rank + 1, nprocs)
      outb = 500 + rank
      do i = 1, MPI_STATUS_SIZE
        st(i) = 0
      end do
! get_status_all / any / some: the requests stay active
      call MPI_IRECV(inb, 1, MPI_INTEGER, prev, 31, MPI_COMM_WORLD,
     &     req(1), ierr)
      call MPI_ISEND(outb, 1, MPI_INTEGER, next, 31, MPI_COMM_WORLD,
     &     req(2), ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_REQUEST_GET_STATUS_ALL(2, req, flag, sts, ierr)
      end do
      if (req(1) .eq. MPI_REQUEST_NULL) errs = errs + 1
      if (sts(MPI_SOURCE, 1) .ne. prev) errs = errs + 1
      call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
      if (inb .ne. 500 + prev) errs = errs + 1
      req(1) = MPI_REQUEST_NULL
      call MPI_IRECV(inb, 1, MPI_INTEGER, prev, 32, MPI_COMM_WORLD,
     &     req(2), ierr)
      call MPI_SEND(outb, 1, MPI_INTEGER, next, 32, MPI_COMM_WORLD,
     &     ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_REQUEST_GET_STATUS_ANY(2, req, idx, flag, st, ierr)
      end do
      if (idx .ne. 2 .or. st(MPI_TAG) .ne. 32) errs = errs + 1
      call MPI_STATUS_F2F08(st, st08, ierr)
      call MPI_STATUS_F082F(st08, st2, ierr)
      do i = 1, MPI_STATUS_SIZE
        if (st2(i) .ne. st(i)) errs = errs + 1
      end do
      call MPI_WAIT(req(2), MPI_STATUS_IGNORE, ierr)
      call MPI_IRECV(inb, 1, MPI_INTEGER, prev, 33, MPI_COMM_WORLD,
     &     req(2), ierr)
      call MPI_SEND(outb, 1, MPI_INTEGER, next, 33, MPI_COMM_WORLD,
     &     ierr)
      n = 0
      do while (n .eq. 0)
        call MPI_REQUEST_GET_STATUS_SOME(2, req, n, indices, sts, ierr)
      end do
      if (n .ne. 1 .or. indices(1) .ne. 2) errs = errs + 1
      if (sts(MPI_TAG, 1) .ne. 33) errs = errs + 1
      call MPI_WAIT(req(2), MPI_STATUS_IGNORE, ierr)
! a representation that negates on read only (written natively:
! MPI_CONVERSION_FN_NULL as the write conversion)
      if (rank .eq. 0) then
        call get_environment_variable('TMPDIR', fname)
        if (len_trim(fname) .eq. 0) fname = '/tmp'
        write (fname, '(A,A,I0,A)') trim(fname), '/impi_f77_mpi4_',
     &       getpid(), '.dat'
      end if
      call MPI_BCAST(fname, len(fname), MPI_CHARACTER, 0,
     &     MPI_COMM_WORLD, ierr)
      call MPI_REGISTER_DATAREP('f77_neg', negread,
     &     MPI_CONVERSION_FN_NULL, fextent, 77_MPI_ADDRESS_KIND, ierr)
      if (ierr .ne. MPI_SUCCESS) errs = errs + 1
      call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname),
     &     MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
      disp = rank * 16
      call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, MPI_INTEGER,
     &     'f77_neg', MPI_INFO_NULL, ierr)
      do i = 1, 4
        vals(i) = rank * 10 + i
      end do
      call MPI_FILE_WRITE_ALL(fh, vals, 4, MPI_INTEGER,
     &     MPI_STATUS_IGNORE, ierr)
      if (ierr .ne. MPI_SUCCESS) errs = errs + 1
      call MPI_FILE_SYNC(fh, ierr)
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      call MPI_FILE_SYNC(fh, ierr)
      disp = next * 16
      call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, MPI_INTEGER,
     &     'native', MPI_INFO_NULL, ierr)
      call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, raw, 4,
     &     MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
      call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, MPI_INTEGER,
     &     'f77_neg', MPI_INFO_NULL, ierr)
      call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, vals, 4,
     &     MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
      do i = 1, 4
        if (raw(i) .ne. next * 10 + i) errs = errs + 1
        if (vals(i) .ne. -(next * 10 + i)) errs = errs + 1
      end do
      if (nreads .eq. 0) errs = errs + 1
      call MPI_FILE_CLOSE(fh, ierr)
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) call MPI_FILE_DELETE(trim(fname),
     &     MPI_INFO_NULL, ierr)
! registering a name twice
      call MPI_REGISTER_DATAREP('f77_neg', negread,
     &     MPI_CONVERSION_FN_NULL, fextent, 77_MPI_ADDRESS_KIND, ierr)
      call MPI_ERROR_CLASS(ierr, cls, i)
      if (cls .ne. MPI_ERR_DUP_DATAREP) errs = errs + 1
      if (errs .eq. 0) then
        print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
      else
        print *, 'rank ', rank, ' errors ', errs
      end if
      call MPI_FINALIZE(ierr)
      end

      subroutine negread(ubuf, dtype, count, fbuf, pos, extra, ierror)
      implicit none
      include 'mpif.h'
      integer ubuf(*), fbuf(*), dtype, count, ierror, i
      integer(kind=MPI_OFFSET_KIND) pos
      integer(kind=MPI_ADDRESS_KIND) extra
      integer nreads
      common /f77cnt/ nreads
      do i = 1, count
        ubuf(i) = -fbuf(i)
      end do
      nreads = nreads + 1
      ierror = MPI_SUCCESS
      if (extra .ne. 77 .or. dtype .ne. MPI_INTEGER) ierror = 1
      end

      subroutine fextent(dtype, extent, extra, ierror)
      implicit none
      include 'mpif.h'
      integer dtype, ierror, size
      integer(kind=MPI_ADDRESS_KIND) extent, extra
      call MPI_TYPE_SIZE(dtype, size, ierror)
      extent = size
      if (extra .ne. 77) ierror = 1
      end
