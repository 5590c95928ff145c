# MPI-4.0 sessions (src/api/session.cpp), included from CMakeLists.txt:
# session_check in each mode (sessions only; before, after and without the
# world model) in one client (np 1, 4), across 2 clients with 2 procs each
# and across 3 clients.
add_executable(session_check session_check.c)
target_link_libraries(session_check PRIVATE mpi)
foreach(mode only before after reinit)
  impi_add_mpi_test(session_${mode}_np1 NP 1 PROGRAM session_check ARGS ${mode} EXPECT_RANKS 1
    MAX_SECONDS 60)
  impi_add_mpi_test(session_${mode}_np4 NP 4 PROGRAM session_check ARGS ${mode} EXPECT_RANKS 4
    MAX_SECONDS 60)
  impi_add_mpi_test(session_${mode}_np4_2clients NP 4 PROGRAM session_check ARGS ${mode}
    LAUNCHER_ARGS --clients 2 EXPECT_RANKS 4 MAX_SECONDS 60)
  impi_add_mpi_test(session_${mode}_3clients NP 3 PROGRAM session_check ARGS ${mode}
    LAUNCHER_ARGS --clients 3 EXPECT_RANKS 3 MAX_SECONDS 60)
endforeach()
# A singleton (no launcher): the process sets of a job of one.
impi_add_mpi_test(session_only_singleton NO_LAUNCHER PROGRAM session_check ARGS only EXPECT_RANKS 1)

# Several programs in one job (impirun A : B, src/startup/launch_options.cpp)
# and the launcher's process sets (impi://app/K, --pset) in a session: in one
# client, across 2 clients split at the programs' boundary (3+2), and across
# clients that each run part of both (1+3 in 2 clients, 3+2 in 3 clients).
add_executable(mpmd_check mpmd_check.c)
target_link_libraries(mpmd_check PRIVATE mpi)
set(mpmd_sets user://ocean@0 user://both@0+1 user://atmos@1)
foreach(layout "3;2" "1;3")
  list(GET layout 0 na)
  list(GET layout 1 nb)
  math(EXPR n "${na} + ${nb}")
  set(cmd -x MPMD_ALL=1 -np ${na} --pset user://ocean --pset user://both
    $<TARGET_FILE:mpmd_check> A 0 ${na},${nb} ${mpmd_sets}
    : -np ${nb} --pset user://both --pset user://atmos -x MPMD_APP=B
    $<TARGET_FILE:mpmd_check> B 1 ${na},${nb} ${mpmd_sets})
  impi_add_mpi_test(mpmd_${na}_${nb} COMMAND ${IMPIRUN} ${cmd} EXPECT_RANKS ${n})
  impi_add_mpi_test(mpmd_${na}_${nb}_2clients COMMAND ${IMPIRUN} --clients 2 ${cmd}
    EXPECT_RANKS ${n})
  impi_add_mpi_test(mpmd_${na}_${nb}_3clients COMMAND ${IMPIRUN} --clients 3 ${cmd}
    EXPECT_RANKS ${n})
endforeach()
# A ':' with nothing after it, and a job-wide option after ':', are refused.
impi_add_mpi_test(mpmd_bad_empty COMMAND ${IMPIRUN} -np 1 $<TARGET_FILE:mpmd_check> A 0 1 :
  EXPECT_EXIT 1 EXPECT_STDERR "has no program")
impi_add_mpi_test(mpmd_bad_option COMMAND ${IMPIRUN} -np 1 /bin/true : --bind-to none /bin/true
  EXPECT_EXIT 1 EXPECT_STDERR "put it before the first program")
