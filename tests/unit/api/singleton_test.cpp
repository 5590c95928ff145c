// The C API in a process started without a launcher: a singleton job.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <cstring>

namespace {
int g_handler_calls = 0;
int g_handler_code = 0;
void count_errors(MPI_Comm *, int *code, ...) {
  ++g_handler_calls;
  g_handler_code = *code;
}
}  // namespace

TEST_CASE("a singleton initializes as rank 0 of 1 and finalizes") {
  int flag = -1;
  REQUIRE(MPI_Initialized(&flag) == MPI_SUCCESS);
  CHECK(flag == 0);
  int provided = -1;
  REQUIRE(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
  CHECK(provided >= MPI_THREAD_SINGLE);
  CHECK(provided <= MPI_THREAD_MULTIPLE);
  int q = -1;
  CHECK(MPI_Query_thread(&q) == MPI_SUCCESS);
  CHECK(q == provided);
  CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS);
  CHECK(flag == 1);
  CHECK(MPI_Initialized(&flag) == MPI_SUCCESS);
  CHECK(flag == 1);

  int rank = -1, size = -1;
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS);
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS);
  CHECK(rank == 0);
  CHECK(size == 1);
  CHECK(MPI_Comm_rank(MPI_COMM_SELF, &rank) == MPI_SUCCESS);
  CHECK(MPI_Comm_size(MPI_COMM_SELF, &size) == MPI_SUCCESS);
  CHECK(rank == 0);
  CHECK(size == 1);

  char name[MPI_MAX_PROCESSOR_NAME];
  int len = -1;
  CHECK(MPI_Get_processor_name(name, &len) == MPI_SUCCESS);
  CHECK(len > 0);
  CHECK(std::strlen(name) == static_cast<size_t>(len));

  // With MPI_ERRORS_RETURN, errors come back as codes.
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS);
  CHECK(eh == MPI_ERRORS_ARE_FATAL);  // the default
  REQUIRE(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
  CHECK(MPI_Comm_rank(MPI_COMM_NULL, &rank) == MPI_ERR_COMM);
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, nullptr) == MPI_ERR_ARG);
  CHECK(MPI_Comm_rank(reinterpret_cast<MPI_Comm>(MPI_INT), &rank) == MPI_ERR_COMM);  // wrong kind
  int v = 1;
  CHECK(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(MPI_Bcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD) == MPI_ERR_ROOT);
  MPI_Request req0;
  CHECK(MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req0) == MPI_SUCCESS);
  CHECK(MPI_Wait(&req0, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  CHECK(MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD) == MPI_ERR_RANK);
  // A self-send completes into the unexpected queue; the receive finds it.
  int got = 0;
  MPI_Status st;
  CHECK(MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD) == MPI_SUCCESS);
  CHECK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st) ==
        MPI_SUCCESS);
  CHECK(got == 1);
  CHECK(st.MPI_SOURCE == 0);
  CHECK(st.MPI_TAG == 5);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, reinterpret_cast<MPI_Errhandler>(MPI_SUM)) ==
        MPI_ERR_ERRHANDLER);  // (MPI-4.1's class for an invalid handler)

  // A user handler is called with the error code.
  MPI_Errhandler mine;
  REQUIRE(MPI_Comm_create_errhandler(count_errors, &mine) == MPI_SUCCESS);
  REQUIRE(MPI_Comm_set_errhandler(MPI_COMM_SELF, mine) == MPI_SUCCESS);
  CHECK(MPI_Errhandler_free(&mine) == MPI_SUCCESS);  // still attached: stays alive
  CHECK(mine == MPI_ERRHANDLER_NULL);
  CHECK(MPI_Barrier(MPI_COMM_SELF) == MPI_SUCCESS);
  int cdims[1] = {2}, cperiods[1] = {0};  // a grid of 2 on a communicator of 1
  MPI_Comm cart;
  CHECK(MPI_Cart_create(MPI_COMM_SELF, 1, cdims, cperiods, 0, &cart) == MPI_ERR_TOPOLOGY);
  CHECK(g_handler_calls == 1);
  CHECK(g_handler_code == MPI_ERR_TOPOLOGY);
  CHECK(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER) == MPI_SUCCESS);
  CHECK(g_handler_calls == 2);
  CHECK(g_handler_code == MPI_ERR_OTHER);

  // MPI-IO works in a singleton too; files default to MPI_ERRORS_RETURN.
  MPI_File fh;
  int rc =
      MPI_File_open(MPI_COMM_SELF, "/nonexistent-impi-dir/x", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  int cls = MPI_SUCCESS;
  CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS);
  CHECK(cls == MPI_ERR_NO_SUCH_FILE);

  REQUIRE(MPI_Finalize() == MPI_SUCCESS);
  CHECK(MPI_Finalized(&flag) == MPI_SUCCESS);
  CHECK(flag == 1);
}
