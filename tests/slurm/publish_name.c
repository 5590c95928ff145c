/* publish_name.c - what MPI_Publish_name/Lookup_name/Unpublish_name return
 * under a launcher (e.g. srun --mpi=pmix): prints the error class and string
 * of each call; exits 0. "publish_name fatal" publishes under MPI_ERRORS_ARE_FATAL
 * (which prints the reason and ends the job). Used by tests/slurm/slurm_test.sh. */
#include <mpi.h>
#include <stdio.h>
static void report(const char *what, int rc, int rank) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0, cls = -1;
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, s, &len);
  printf("rank %d: %s -> rc=%d class=%d%s (%s)\n", rank, what, rc, cls,
         cls == MPI_SUCCESS                     ? " MPI_SUCCESS"
         : cls == MPI_ERR_NAME                  ? " MPI_ERR_NAME"
         : cls == MPI_ERR_SERVICE               ? " MPI_ERR_SERVICE"
         : cls == MPI_ERR_UNSUPPORTED_OPERATION ? " MPI_ERR_UNSUPPORTED_OPERATION"
         : cls == MPI_ERR_INTERN                ? " MPI_ERR_INTERN"
         : cls == MPI_ERR_OTHER                 ? " MPI_ERR_OTHER"
                                                : "",
         s);
  fflush(stdout);
}
int main(int argc, char **argv) {
  int rank, size, rc;
  char port[MPI_MAX_PORT_NAME], got[MPI_MAX_PORT_NAME];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && argv[1][0] == 'f') { /* "fatal": the default handler prints why */
    MPI_Publish_name("impi-slurm-test", MPI_INFO_NULL, "a-port");
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (rank == 0) {
    rc = MPI_Open_port(MPI_INFO_NULL, port);
    report("MPI_Open_port", rc, rank);
    if (rc == MPI_SUCCESS) printf("rank 0: port=%s\n", port);
    rc = MPI_Publish_name("impi-slurm-test", MPI_INFO_NULL, port);
    report("MPI_Publish_name", rc, rank);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_Lookup_name("impi-slurm-test", MPI_INFO_NULL, got);
  report("MPI_Lookup_name", rc, rank);
  if (rc == MPI_SUCCESS) printf("rank %d: looked up %s\n", rank, got);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    rc = MPI_Unpublish_name("impi-slurm-test", MPI_INFO_NULL, port);
    report("MPI_Unpublish_name", rc, rank);
    MPI_Close_port(port);
  }
  printf("rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
