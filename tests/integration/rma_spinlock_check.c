/* rma_spinlock_check.c - a spin lock in one rank's window, taken by every
 * rank under MPI_Win_lock_all (issue 46, item 2): MPI_Compare_and_swap on
 * the lock word then MPI_Win_flush, repeated until the word was 0; then a
 * get of a counter, a put of counter + 1 and a releasing compare-and-swap,
 * each followed by a flush. The lock lives in the last rank's window, so
 * that rank spins on its own memory (self path) while the others reach it
 * through shared memory or through messages; every RMA call must let the
 * progress engine serve the other clients' requests, or the spinning
 * target never applies the lock holder's release and the job hangs.
 * Checked in windows of MPI_Win_allocate (processor atomics between the
 * procs of a host), MPI_Win_create (cross-memory attach) and
 * MPI_Win_create_dynamic; the counter must end at iterations * size, each
 * rank seeing only values in order. Then a window over a communicator
 * whose ranks are not the world's (reversed): the spin lock, fence and
 * post/start/complete/wait there; and exclusive epochs on the window of a
 * rank that polls with MPI_Iprobe; and exclusive locks on a rank that
 * polls its own window under exclusive locks of its own (MPICH's
 * linked_list: the owner must hand its lock to the other clients' requests
 * and its host's procs must not keep taking it first). Prints "rank r of n
 * ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int rank, size, failures;

enum { kIters = 40 };

static void spin(MPI_Win win, int owner, MPI_Aint lock_at, MPI_Aint count_at, const char *what) {
  const int one = 1, zero = 0;
  int last = -1;
  MPI_Win_lock_all(0, win);
  for (int it = 0; it < kIters; ++it) {
    int old = -1;
    do {
      MPI_Compare_and_swap(&one, &zero, &old, MPI_INT, owner, lock_at, win);
      MPI_Win_flush(owner, win);
    } while (old != 0);
    int c = -1;
    MPI_Get(&c, 1, MPI_INT, owner, count_at, 1, MPI_INT, win);
    MPI_Win_flush(owner, win);
    CHECK(c > last && c < kIters * size, "%s: counter %d after %d", what, c, last);
    last = c;
    c += 1;
    MPI_Put(&c, 1, MPI_INT, owner, count_at, 1, MPI_INT, win);
    MPI_Win_flush(owner, win);
    MPI_Compare_and_swap(&zero, &one, &old, MPI_INT, owner, lock_at, win);
    MPI_Win_flush(owner, win);
    CHECK(old == 1, "%s: the lock word was %d at release", what, old);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  int total = -1;
  MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
  MPI_Get(&total, 1, MPI_INT, owner, count_at, 1, MPI_INT, win);
  MPI_Win_unlock(owner, win);
  CHECK(total == kIters * size, "%s: the counter ends at %d, not %d", what, total, kIters * size);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The same over a communicator whose ranks are not the world's (reversed:
 * the owner, its last rank, is world rank 0), with fence and
 * post/start/complete/wait too: the answers and notices of the message
 * path are matched by communicator rank. */
static void reversed(void) {
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &rev);
  int me = -1;
  MPI_Comm_rank(rev, &me);
  int *words = calloc((size_t)size + 2, sizeof(int));
  MPI_Win win;
  MPI_Win_create(words, (MPI_Aint)(size + 2) * sizeof(int), sizeof(int), MPI_INFO_NULL, rev, &win);
  MPI_Barrier(MPI_COMM_WORLD);
  spin(win, size - 1, 0, 1, "reversed");

  /* fence: every rank adds me + 1 into rank 0's word 0, and gets it back */
  int add = me + 1, back = -1;
  MPI_Win_fence(0, win);
  MPI_Accumulate(&add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Get(&back, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK(back == size * (size + 1) / 2, "reversed fence: the sum is %d, not %d", back,
        size * (size + 1) / 2);

  /* post/start/complete/wait: every rank but 0 puts its rank into rank 0's word 2 + me */
  MPI_Group all, zero, others;
  MPI_Comm_group(rev, &all);
  int r0 = 0;
  MPI_Group_incl(all, 1, &r0, &zero);
  MPI_Group_excl(all, 1, &r0, &others);
  if (me == 0) {
    MPI_Win_post(others, 0, win);
    MPI_Win_wait(win);
    for (int r = 1; r < size; ++r)
      CHECK(words[2 + r] == 100 + r, "reversed pscw: word %d is %d", 2 + r, words[2 + r]);
  } else {
    int v = 100 + me;
    MPI_Win_start(zero, 0, win);
    MPI_Put(&v, 1, MPI_INT, 0, 2 + me, 1, MPI_INT, win);
    MPI_Win_complete(win);
  }
  MPI_Group_free(&all);
  MPI_Group_free(&zero);
  MPI_Group_free(&others);
  MPI_Win_free(&win);
  free(words);
  MPI_Comm_free(&rev);
}

/* The owner polls with MPI_Iprobe for a message that each other rank sends
 * only after an exclusive lock epoch on the owner's window (MPICH's
 * linked-list benchmarks poll so): MPI_Iprobe must serve those epochs. */
static void iprobe_poll(void) {
  const int owner = size - 1;
  int *words = calloc((size_t)size, sizeof(int));
  MPI_Win win;
  MPI_Win_create(words, (MPI_Aint)size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  if (rank == owner) {
    for (int got = 0; got < size - 1;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
      if (!flag) continue;
      MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++got;
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
    for (int r = 0; r < owner; ++r)
      CHECK(words[r] == 500 + r, "iprobe: word %d is %d, not %d", r, words[r], 500 + r);
    MPI_Win_unlock(owner, win);
  } else {
    int v = 500 + rank;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
    MPI_Put(&v, 1, MPI_INT, owner, rank, 1, MPI_INT, win);
    MPI_Win_unlock(owner, win);
    MPI_Send(NULL, 0, MPI_BYTE, owner, 77, MPI_COMM_WORLD);
  }
  MPI_Win_free(&win);
  free(words);
}

/* Every rank but the owner puts its mark into the owner's window under an
 * exclusive lock; the owner, and every other rank once its mark is in,
 * polls the marks under exclusive locks (lock, get, unlock) until all are
 * there. The owner's own polling and its host's procs' must leave the
 * lock free for the requests of other clients often enough. */
static void exclusive_handoff(MPI_Win win) {
  const int owner = 0;
  enum { kRounds = 20 };
  for (int round = 1; round <= kRounds; ++round) {
    if (rank != owner) {
      const int mark = round * 1000 + rank;
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
      MPI_Put(&mark, 1, MPI_INT, owner, rank, 1, MPI_INT, win);
      MPI_Win_unlock(owner, win);
    }
    int seen[64];
    int n = size < 64 ? size : 64, all = 0;
    while (!all) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win);
      MPI_Get(seen, n, MPI_INT, owner, 0, n, MPI_INT, win);
      MPI_Win_unlock(owner, win);
      all = 1;
      for (int r = 1; r < n; ++r) {
        CHECK(seen[r] <= round * 1000 + r, "handoff: mark %d of rank %d in round %d", seen[r], r,
              round);
        if (seen[r] != round * 1000 + r) all = 0;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int owner = size - 1;

  /* MPI_Win_allocate */
  int *mem = NULL;
  MPI_Win win;
  MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  mem[0] = mem[1] = 0;
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);
  spin(win, owner, 0, 1, "allocate");
  MPI_Win_free(&win);

  /* MPI_Win_create */
  int words[2] = {0, 0};
  MPI_Win_create(words, sizeof words, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Barrier(MPI_COMM_WORLD);
  spin(win, owner, 0, 1, "create");
  MPI_Win_free(&win);

  /* MPI_Win_create_dynamic: the owner attaches its words, advertises them */
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int *dyn = calloc(2, sizeof(int));
  MPI_Aint at = 0;
  if (rank == owner) {
    MPI_Win_attach(win, dyn, 2 * sizeof(int));
    MPI_Get_address(dyn, &at);
  }
  MPI_Bcast(&at, 1, MPI_AINT, owner, MPI_COMM_WORLD);
  spin(win, owner, at, at + (MPI_Aint)sizeof(int), "dynamic");
  if (rank == owner) MPI_Win_detach(win, dyn);
  MPI_Win_free(&win);
  free(dyn);

  reversed();
  iprobe_poll();

  /* Exclusive-lock handoff in rank 0's window (created and dynamic) */
  int marks[64] = {0};
  MPI_Win_create(marks, sizeof marks, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  exclusive_handoff(win);
  MPI_Win_free(&win);

  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
