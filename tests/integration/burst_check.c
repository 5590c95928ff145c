/* burst_check.c - a burst of small messages between clients: rank r sends
 * N messages to rank r + size/2 (another client with --clients 2), which
 * receives them in order and then sends N back; every pair at once, so
 * several proc pairs share each host channel. Each message carries its
 * sequence number and sender. Run with ackmark = hiwater = 1 to exercise
 * flow control packet by packet. argv[1] = N (default 100000). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  const int half = size / 2;
  if (rank < 2 * half) {
    int peer = rank < half ? rank + half : rank - half;
    for (int phase = 0; phase < 2; ++phase) {
      int sending = (phase == 0) == (rank < half);
      for (int i = 0; i < n; ++i) {
        int v[2] = {i, rank};
        if (sending) {
          MPI_Send(v, 2, MPI_INT, peer, 7, MPI_COMM_WORLD);
        } else {
          MPI_Recv(v, 2, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (v[0] != i || v[1] != peer) {
            if (failures++ < 5)
              fprintf(stderr, "rank %d: message %d from %d is {%d, %d}\n", rank, i, peer, v[0],
                      v[1]);
          }
        }
      }
    }
  }
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
