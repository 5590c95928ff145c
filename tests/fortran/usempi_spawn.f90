! usempi_spawn.f90 - MPI_Comm_spawn and MPI_Comm_spawn_multiple from Fortran:
! CHARACTER argv arrays (blank-terminated), MPI_ARGV(S)_NULL, errcodes, the
! children see their arguments and talk to the parents.
program usempi_spawn
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, parent, inter, n, i, got, errcodes(4), infos(2), maxprocs(2)
  integer :: status(MPI_STATUS_SIZE)
  character(len=256) :: prog, arg
  character(len=16) :: argv(3), argvs(2, 3), cmds(2)
  integer :: errs = 0

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_get_parent(parent, ierr)
  if (parent /= MPI_COMM_NULL) then
    ! a child: report how many arguments it got and whether they are right
    n = command_argument_count()
    got = n
    if (n >= 1) then
      call get_command_argument(1, arg)
      if (arg == 'one') got = got + 100
      if (arg == 'multi') got = got + 200
    end if
    if (n >= 2) then
      call get_command_argument(2, arg)
      if (arg /= 'two words') got = -1  ! use mpi: leading and trailing blanks dropped
    end if
    call MPI_Send(got, 1, MPI_INTEGER, 0, 1, parent, ierr)
    call MPI_Comm_disconnect(parent, ierr)
    call MPI_Finalize(ierr)
    stop
  end if
  call get_command_argument(0, prog)

  ! MPI_Comm_spawn: two children with the arguments 'one' 'two words'
  argv(1) = 'one'
  argv(2) = ' two words'
  argv(3) = ' '
  errcodes = -7
  call MPI_Comm_spawn(prog, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  if (ierr /= MPI_SUCCESS .or. any(errcodes(1:2) /= MPI_SUCCESS)) call fail('spawn')
  call MPI_Comm_remote_size(inter, n, ierr)
  if (n /= 2) call fail('spawn remote size')
  if (rank == 0) then
    do i = 1, 2
      call MPI_Recv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, inter, status, ierr)
      if (got /= 102) call fail('spawned child arguments')
    end do
  end if
  call MPI_Comm_disconnect(inter, ierr)

  ! MPI_Comm_spawn_multiple: one child with 'multi' 'two words', one without arguments
  cmds = [character(len=16) :: 'x', 'x']
  argvs = ' '
  argvs(1, 1) = 'multi'
  argvs(1, 2) = ' two words'
  infos = MPI_INFO_NULL
  maxprocs = 1
  call MPI_Comm_spawn_multiple(2, [prog, prog], argvs, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                               MPI_ERRCODES_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) call fail('spawn_multiple')
  if (rank == 0) then
    n = 0
    do i = 1, 2
      call MPI_Recv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, inter, status, ierr)
      if (status(MPI_SOURCE) == 0 .and. got /= 202) call fail('spawn_multiple child 0')
      if (status(MPI_SOURCE) == 1 .and. got /= 0) call fail('spawn_multiple child 1')
      n = n + 1
    end do
  end if
  call MPI_Comm_disconnect(inter, ierr)
  if (cmds(1) /= 'x') call fail('cmds')

  if (errs == 0) print '(A,I0,A,I0,A)', 'rank ', rank, ' of ', nprocs, ' ok'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what)
    character(len=*) :: what
    print *, 'rank', rank, 'FAILED: ', what
    errs = errs + 1
  end subroutine
end program
