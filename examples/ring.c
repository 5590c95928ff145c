/* ring.c - pass a token around the ranks of MPI_COMM_WORLD.
 *
 * Rank 0 sends the value 10 to rank 1; each rank passes it on to the next,
 * rank 0 decrements it each time it comes back, and everyone stops when it
 * reaches 0. Within one client the messages go through shared memory;
 * between IMPI clients over the IMPI host channels.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, next, prev, token = 10;
  const int tag = 201;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;

  if (rank == 0) {
    printf("rank 0 sends %d to rank %d (%d processes in the ring)\n", token, next, size);
    MPI_Send(&token, 1, MPI_INT, next, tag, MPI_COMM_WORLD);
  }
  for (;;) {
    MPI_Recv(&token, 1, MPI_INT, prev, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
      --token;
      printf("rank 0 decremented the token to %d\n", token);
    }
    MPI_Send(&token, 1, MPI_INT, next, tag, MPI_COMM_WORLD);
    if (token == 0) {
      printf("rank %d exiting\n", rank);
      break;
    }
  }
  /* The last token sent by rank 0 to rank `next` still has to be received. */
  if (rank == 0) MPI_Recv(&token, 1, MPI_INT, prev, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
