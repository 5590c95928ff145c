/* coll_trace.c - a fixed sequence of collectives on MPI_COMM_WORLD whose
 * global phases coll_trace_test.py checks message by message against the
 * spec's algorithms (the agents trace what crosses clients):
 *   Barrier; for every root: Bcast of 16 bytes, Reduce (MPI_SUM) of 2
 *   MPI_LONG; Allreduce (MPI_SUM) of 1 MPI_LONG; Reduce with a
 *   non-commutative user operation on 3 MPI_INT to root size-1; then
 *   MPI_Finalize (its barrier). Results are checked too.
 * Prints "rank R of N ok". */
#include <mpi.h>
#include <stdio.h>

static void first(void *in, void *inout, int *len, MPI_Datatype *t) {
  /* (a op b) = a: non-commutative; the result is rank 0's value */
  int *a = in, *b = inout;
  (void)t;
  for (int i = 0; i < *len; ++i) b[i] = a[i];
}

int main(int argc, char **argv) {
  int rank, size, bad = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int root = 0; root < size; ++root) {
    unsigned char b[16];
    for (int i = 0; i < 16; ++i) b[i] = (unsigned char)(rank == root ? root + i : 0);
    MPI_Bcast(b, 16, MPI_BYTE, root, MPI_COMM_WORLD);
    for (int i = 0; i < 16; ++i) bad += b[i] != (unsigned char)(root + i);
    long v[2] = {rank, 1}, s[2] = {0, 0};
    MPI_Reduce(v, s, 2, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root) bad += s[0] != (long)size * (size - 1) / 2 || s[1] != size;
  }
  long one = 1, all = 0;
  MPI_Allreduce(&one, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  bad += all != size;
  MPI_Op op;
  MPI_Op_create(first, 0, &op);
  int x[3] = {rank, rank, rank}, y[3] = {-1, -1, -1};
  /* x0 op (x1 op (...)) with a op b = b ... as MPI defines: the result is
     the fold in rank order; with "first" (keep the left operand) it is x0 */
  MPI_Reduce(x, y, 3, MPI_INT, op, size - 1, MPI_COMM_WORLD);
  if (rank == size - 1) bad += y[0] != 0 || y[2] != 0;
  MPI_Op_free(&op);
  if (bad)
    fprintf(stderr, "rank %d: %d wrong results\n", rank, bad);
  else
    printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return bad != 0;
}
