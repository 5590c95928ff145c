# MPI-4 additions (issue 49), included from CMakeLists.txt: Isendrecv,
# persistent collectives, the MPI-4.1 small calls. Each in one client
# (np 1, 2, 4), across 2 and 3 clients, and with 2 procs per client.
foreach(prog isendrecv_check pcoll_check mpi41_check)
  add_executable(${prog} ${prog}.c)
  target_link_libraries(${prog} PRIVATE mpi)
  foreach(np 1 2 4)
    impi_add_mpi_test(${prog}_np${np} NP ${np} PROGRAM ${prog} EXPECT_RANKS ${np} MAX_SECONDS 60)
  endforeach()
  impi_add_mpi_test(${prog}_2clients NP 2 PROGRAM ${prog} LAUNCHER_ARGS --clients 2
    EXPECT_RANKS 2 MAX_SECONDS 60)
  impi_add_mpi_test(${prog}_3clients NP 3 PROGRAM ${prog} LAUNCHER_ARGS --clients 3
    EXPECT_RANKS 3 MAX_SECONDS 60)
  impi_add_mpi_test(${prog}_np4_2clients NP 4 PROGRAM ${prog} LAUNCHER_ARGS --clients 2
    EXPECT_RANKS 4 MAX_SECONDS 60)
  impi_add_mpi_test(${prog}_np6_3clients NP 6 PROGRAM ${prog} LAUNCHER_ARGS --clients 3
    EXPECT_RANKS 6 MAX_SECONDS 60)
endforeach()
# MPI_ERRORS_ABORT on MPI_COMM_SELF: the job ends with the error's class
# (MPI_ERR_RANK, 6), reported as MPI_ERRORS_ABORT's.
impi_add_mpi_test(mpi41_errors_abort NP 2 PROGRAM mpi41_check ARGS abort EXPECT_EXIT 6
  EXPECT_STDERR "MPI_ERRORS_ABORT" REJECT_STDERR "returned" MAX_SECONDS 30)
impi_add_mpi_test(mpi41_errors_abort_2clients NP 2 PROGRAM mpi41_check ARGS abort
  LAUNCHER_ARGS --clients 2 EXPECT_EXIT 6 EXPECT_STDERR "MPI_ERRORS_ABORT" REJECT_STDERR "returned"
  MAX_SECONDS 30)
# Partitioned communication (MPI-4.0 4.2): 4 threads ready 16 partitions;
# in one client, across 2 and 3 clients, and with 2 procs per client.
add_executable(part_check part_check.c)
target_link_libraries(part_check PRIVATE mpi Threads::Threads)
impi_add_mpi_test(part_check_np2 NP 2 PROGRAM part_check EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(part_check_np4 NP 4 PROGRAM part_check EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(part_check_2clients NP 2 PROGRAM part_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(part_check_np4_2clients NP 4 PROGRAM part_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(part_check_3clients NP 3 PROGRAM part_check LAUNCHER_ARGS --clients 3
  EXPECT_RANKS 3 MAX_SECONDS 60)
# MPI_T events (MPI-4.0 15.3.8): unexpected messages in one client and
# across clients; an IMPI flow-control stall across 2 clients.
add_executable(tool_events_check tool_events_check.c)
target_link_libraries(tool_events_check PRIVATE mpi)
impi_add_mpi_test(tool_events_np2 NP 2 PROGRAM tool_events_check EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(tool_events_np4_2clients NP 4 PROGRAM tool_events_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(tool_events_stall_2clients NP 2 PROGRAM tool_events_check ARGS stall
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 2 MAX_SECONDS 90)
# MPI-4 large counts (the _c calls): messages above 2 GiB at np 2 in one
# client (with and without cross-memory attach) and across 2 clients (TCP);
# each run holds 4.5 GiB. RUN_SERIAL: one at a time. `small`: the same calls
# with small counts.
add_executable(large_count large_count.c)
target_link_libraries(large_count PRIVATE mpi)
impi_add_mpi_test(large_count_np2 NP 2 PROGRAM large_count EXPECT_RANKS 2 MAX_SECONDS 180)
impi_add_mpi_test(large_count_np2_nocma COMMAND env IMPI_SHM_CMA_THRESHOLD=0 IMPI_RMA_CMA=0
  ${IMPIRUN} -np 2 $<TARGET_FILE:large_count> EXPECT_RANKS 2 MAX_SECONDS 180)
# (Across clients the bytes go through both host agents in 64 KiB IMPI
# packets: 31 s here when quiet, 150 s for sections 1 and 2 under heavy load.)
impi_add_mpi_test(large_count_2clients NP 2 PROGRAM large_count LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 2 MAX_SECONDS 600)
set_tests_properties(large_count_np2 large_count_np2_nocma large_count_2clients PROPERTIES
  RUN_SERIAL TRUE)
impi_add_mpi_test(large_count_small_np2 NP 2 PROGRAM large_count ARGS small EXPECT_RANKS 2)
impi_add_mpi_test(large_count_small_2clients NP 2 PROGRAM large_count ARGS small
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 2)
# The _c calls with small counts next to their int forms.
add_executable(large_count_sweep large_count_sweep.c)
target_link_libraries(large_count_sweep PRIVATE mpi)
impi_add_mpi_test(large_count_sweep_np2 NP 2 PROGRAM large_count_sweep EXPECT_RANKS 2)
impi_add_mpi_test(large_count_sweep_np4 NP 4 PROGRAM large_count_sweep EXPECT_RANKS 4)
impi_add_mpi_test(large_count_sweep_2clients NP 2 PROGRAM large_count_sweep
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 2)
impi_add_mpi_test(large_count_sweep_3clients NP 3 PROGRAM large_count_sweep
  LAUNCHER_ARGS --clients 3 EXPECT_RANKS 3)
impi_add_mpi_test(large_count_sweep_np4_3clients NP 4 PROGRAM large_count_sweep
  LAUNCHER_ARGS --clients 3 EXPECT_RANKS 4)
# MPI-4.1 3.6's buffered-send buffers (communicator, session, process;
# flush, MPI_BUFFER_AUTOMATIC): np 2 and 4 in one client, across 2 and 3
# clients, and with 2 procs per client.
add_executable(bsend41_check bsend41_check.c)
target_link_libraries(bsend41_check PRIVATE mpi)
impi_add_mpi_test(bsend41_np2 NP 2 PROGRAM bsend41_check EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(bsend41_np4 NP 4 PROGRAM bsend41_check EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(bsend41_2clients NP 2 PROGRAM bsend41_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(bsend41_np4_2clients NP 4 PROGRAM bsend41_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(bsend41_3clients NP 3 PROGRAM bsend41_check LAUNCHER_ARGS --clients 3
  EXPECT_RANKS 3 MAX_SECONDS 60)
# MPI-4.1's MPI_Get_hw_resource_info against hwloc, and HW_GUIDED splits by
# its keys: unbound and bound to cores, in one client and across clients.
add_executable(hw_info_check hw_info_check.c)
target_link_libraries(hw_info_check PRIVATE mpi PkgConfig::HWLOC)
impi_add_mpi_test(hw_info_np2 NP 2 PROGRAM hw_info_check EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(hw_info_np2_unbound NP 2 PROGRAM hw_info_check LAUNCHER_ARGS --bind-to none
  EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(hw_info_np4_2clients NP 4 PROGRAM hw_info_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(hw_info_3clients NP 3 PROGRAM hw_info_check LAUNCHER_ARGS --clients 3
  EXPECT_RANKS 3 MAX_SECONDS 60)
# Persistent collectives on MPI_COMM_WORLD and sub-communicators in every
# order the standard allows, mixed with blocking and nonblocking ones (in
# one client: the shared-memory slots without blocking), at np 2, 3 and 4
# in one client and across 2 and 3 clients, one and several procs per
# client.
add_executable(pcoll_order_check pcoll_order_check.c)
target_link_libraries(pcoll_order_check PRIVATE mpi Threads::Threads)
foreach(np 2 3 4)
  impi_add_mpi_test(pcoll_order_np${np} NP ${np} PROGRAM pcoll_order_check EXPECT_RANKS ${np}
    MAX_SECONDS 60)
  # MPI_THREAD_MULTIPLE, a second thread exchanging messages meanwhile.
  impi_add_mpi_test(pcoll_order_multiple_np${np} NP ${np} PROGRAM pcoll_order_check
    ARGS multiple EXPECT_RANKS ${np} MAX_SECONDS 60)
endforeach()
impi_add_mpi_test(pcoll_order_multiple_2clients NP 4 PROGRAM pcoll_order_check ARGS multiple
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(pcoll_order_2clients NP 2 PROGRAM pcoll_order_check LAUNCHER_ARGS --clients 2
  EXPECT_RANKS 2 MAX_SECONDS 60)
impi_add_mpi_test(pcoll_order_np4_2clients NP 4 PROGRAM pcoll_order_check
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 4 MAX_SECONDS 60)
impi_add_mpi_test(pcoll_order_np6_3clients NP 6 PROGRAM pcoll_order_check
  LAUNCHER_ARGS --clients 3 EXPECT_RANKS 6 MAX_SECONDS 60)

# Blocking collectives on communicators other than MPI_COMM_WORLD (in one
# client: their own slot pairs from the third call): more communicators
# than pairs, made and freed in different orders with changing members,
# threads on communicators of their own; in one client (np 2, 3, 5; 5
# procs share 2 cores), across 2 and 3 clients, and without the pairs.
add_executable(comm_slots_check comm_slots_check.c)
target_link_libraries(comm_slots_check PRIVATE mpi Threads::Threads)
foreach(np 2 3 5)
  impi_add_mpi_test(comm_slots_np${np} NP ${np} PROGRAM comm_slots_check EXPECT_RANKS ${np}
    MAX_SECONDS 90)
endforeach()
impi_add_mpi_test(comm_slots_multiple_np3 NP 3 PROGRAM comm_slots_check ARGS multiple
  EXPECT_RANKS 3 MAX_SECONDS 90)
impi_add_mpi_test(comm_slots_off_np3 NP 3 PROGRAM comm_slots_check
  LAUNCHER_ARGS -x IMPI_COLL_COMM_SLOTS=0 EXPECT_RANKS 3 MAX_SECONDS 90)
impi_add_mpi_test(comm_slots_np4_2clients NP 4 PROGRAM comm_slots_check
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 4 MAX_SECONDS 90)
impi_add_mpi_test(comm_slots_multiple_2clients NP 4 PROGRAM comm_slots_check ARGS multiple
  LAUNCHER_ARGS --clients 2 EXPECT_RANKS 4 MAX_SECONDS 90)
impi_add_mpi_test(comm_slots_np3_3clients NP 3 PROGRAM comm_slots_check
  LAUNCHER_ARGS --clients 3 EXPECT_RANKS 3 MAX_SECONDS 90)
