/* env_check.c - the environment calls, checked in every process of a job.
 * Prints "rank R of N ok" when every check passed; exits 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                                       \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      fprintf(stderr, "env_check: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                                         \
    }                                                                                     \
  } while (0)

int main(int argc, char **argv) {
  int rank = -1, size = -1, flag = -1, provided = -1, len = 0, v = 0, sv = 0, rc;
  int expected_size = argc > 1 ? atoi(argv[1]) : -1;
  char name[MPI_MAX_PROCESSOR_NAME];
  double t0, t1;

  CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 0);
  CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS);
  CHECK(provided == MPI_THREAD_FUNNELED);
  CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1);
  CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 0);
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS);
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS);
  CHECK(rank >= 0 && rank < size);
  if (expected_size > 0) CHECK(size == expected_size);
  CHECK(MPI_Comm_rank(MPI_COMM_SELF, &v) == MPI_SUCCESS && v == 0);
  CHECK(MPI_Comm_size(MPI_COMM_SELF, &v) == MPI_SUCCESS && v == 1);
  CHECK(MPI_Get_processor_name(name, &len) == MPI_SUCCESS && len > 0 && (int)strlen(name) == len);
  CHECK(MPI_Get_version(&v, &sv) == MPI_SUCCESS && v == 4 && sv == 1);
  CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);
  t0 = MPI_Wtime();
  t1 = MPI_Wtime();
  CHECK(t1 >= t0 && MPI_Wtick() > 0.0);

  /* Errors come back as codes once MPI_ERRORS_RETURN is set. */
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
  rc = MPI_Comm_rank(MPI_COMM_NULL, &v);
  CHECK(rc == MPI_ERR_COMM);
  CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
  MPI_Request req;
  CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
        MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  int topo = 0;
  rc = MPI_Topo_test(MPI_COMM_WORLD, &topo); /* no topology on MPI_COMM_WORLD */
  CHECK(rc == MPI_SUCCESS && topo == MPI_UNDEFINED);
  MPI_Comm cart;
  int cdims[1] = {1}, cperiods[1] = {0};
  rc = MPI_Cart_create(MPI_COMM_WORLD, 1, cdims, cperiods, 0,
                       &cart); /* a grid of one: rank 0 only */
  CHECK(rc == MPI_SUCCESS && (cart == MPI_COMM_NULL) == (rank != 0));
  if (cart != MPI_COMM_NULL) {
    CHECK(MPI_Topo_test(cart, &topo) == MPI_SUCCESS && topo == MPI_CART);
    MPI_Comm_free(&cart);
  }

  CHECK(MPI_Finalize() == MPI_SUCCESS);
  CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 1);
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
