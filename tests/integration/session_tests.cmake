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
