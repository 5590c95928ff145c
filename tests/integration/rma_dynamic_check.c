/* rma_dynamic_check.c - dynamic windows at scale (issue 46, item 3), at any
 * np >= 2, in one client or spread over clients:
 *  - list(): every rank builds a linked list of kElems elements, each
 *    malloc'ed and attached with an MPI_Win_attach of its own (MPICH's
 *    linked-list benchmarks attach one element per node), and its left
 *    neighbour walks it remotely (MPI_Get + MPI_Win_flush per node,
 *    following the `next` addresses); then every other element is
 *    detached and the list relinked, and walked again; a get from a
 *    detached element must fail with MPI_ERR_RMA_RANGE;
 *  - spanning(): one access across two adjacent attached regions (MPICH's
 *    win_dynamic_rma_flush_get with count 9216);
 *  - advertise(): a region attached and at once advertised with
 *    MPI_Get_address and a message is reachable by the receiver's very next
 *    operation, round after round, while the table of regions grows.
 * Arguments name the parts to run (default: all). Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, failures, left, right;

enum { kElems = 10000, kRounds = 300 };

struct elem {
  long long value;
  MPI_Aint next; /* 0: the end */
};

static long long elem_value(int owner, int i) {
  return (long long)owner * 1000003 + i * 7 + 1;
}

/* Walks `owner`'s list from `head`; returns the nodes seen, checking each
 * value against `expect(i)` (the i-th node's index in the original list). */
static int walk(MPI_Win win, int owner, MPI_Aint head, int stride) {
  int n = 0;
  MPI_Win_lock(MPI_LOCK_SHARED, owner, 0, win);
  for (MPI_Aint at = head; at != 0 && n <= kElems; ++n) {
    struct elem e = {-1, 0};
    int rc = MPI_Get(&e, (int)sizeof e, MPI_BYTE, owner, at, (int)sizeof e, MPI_BYTE, win);
    int rf = MPI_Win_flush(owner, win);
    if (rc != MPI_SUCCESS || rf != MPI_SUCCESS) {
      CHECK(0, "get of node %d of rank %d's list at %#lx failed (%d, %d)", n, owner,
            (unsigned long)at, rc, rf);
      break;
    }
    CHECK(e.value == elem_value(owner, n * stride),
          "node %d of rank %d's list holds %lld, not %lld", n, owner, e.value,
          elem_value(owner, n * stride));
    at = e.next;
  }
  MPI_Win_unlock(owner, win);
  return n;
}

static void list(void) {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  struct elem **mine = malloc(kElems * sizeof *mine);
  for (int i = 0; i < kElems; ++i) {
    mine[i] = malloc(sizeof **mine);
    mine[i]->value = elem_value(rank, i);
    mine[i]->next = 0;
    int rc = MPI_Win_attach(win, mine[i], sizeof **mine);
    CHECK(rc == MPI_SUCCESS, "MPI_Win_attach of element %d returned %d", i, rc);
    if (i > 0) MPI_Get_address(mine[i], &mine[i - 1]->next);
  }
  MPI_Aint head = 0, theirs = 0;
  MPI_Get_address(mine[0], &head);
  /* Our list to the left neighbour (it walks ours), the right one's to us. */
  MPI_Sendrecv(&head, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  int n = walk(win, right, theirs, 1);
  CHECK(n == kElems, "rank %d's list has %d nodes here, not %d", right, n, kElems);

  /* Every other element detached, the rest relinked; its old address kept. */
  MPI_Aint gone = 0;
  MPI_Get_address(mine[1], &gone);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 1; i < kElems; i += 2) {
    int rc = MPI_Win_detach(win, mine[i]);
    CHECK(rc == MPI_SUCCESS, "MPI_Win_detach of element %d returned %d", i, rc);
  }
  for (int i = 0; i + 2 < kElems; i += 2) MPI_Get_address(mine[i + 2], &mine[i]->next);
  mine[kElems - 2]->next = 0;
  MPI_Aint gone_theirs = 0;
  MPI_Sendrecv(&gone, 1, MPI_AINT, left, 1, &gone_theirs, 1, MPI_AINT, right, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  n = walk(win, right, theirs, 2);
  CHECK(n == kElems / 2, "rank %d's halved list has %d nodes here, not %d", right, n, kElems / 2);

  /* A detached element is out of reach: the get or its completion says so. */
  struct elem e;
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  int rc = MPI_Get(&e, (int)sizeof e, MPI_BYTE, right, gone_theirs, (int)sizeof e, MPI_BYTE, win);
  int rf = MPI_Win_flush(right, win);
  int ru = MPI_Win_unlock(right, win);
  int bad = rc != MPI_SUCCESS ? rc : rf != MPI_SUCCESS ? rf : ru;
  int cls = -1;
  if (bad != MPI_SUCCESS) MPI_Error_class(bad, &cls);
  CHECK(cls == MPI_ERR_RMA_RANGE, "a get from a detached element gave class %d (%d %d %d)", cls, rc,
        rf, ru);

  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < kElems; i += 2) MPI_Win_detach(win, mine[i]);
  /* Detaching what is not attached is an error. */
  rc = MPI_Win_detach(win, mine[0]);
  cls = -1;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_RMA_ATTACH, "a second detach gave class %d", cls);
  MPI_Win_free(&win);
  for (int i = 0; i < kElems; ++i) free(mine[i]);
  free(mine);
}

static void spanning(void) {
  enum { kHalf = 8192, kCount = 9216 };
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int *mem = calloc(2 * kHalf, sizeof(int));
  MPI_Win_attach(win, mem, kHalf * sizeof(int));
  MPI_Win_attach(win, mem + kHalf, kHalf * sizeof(int));
  /* Overlapping what is attached is refused. */
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int rc = MPI_Win_attach(win, mem + kHalf - 1, 2 * sizeof(int)), cls = -1;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_RMA_ATTACH, "an overlapping attach gave class %d", cls);
  MPI_Aint base = 0, theirs = 0;
  MPI_Get_address(mem, &base);
  MPI_Sendrecv(&base, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  int *src = malloc(kCount * sizeof(int)), *back = malloc(kCount * sizeof(int));
  for (int i = 0; i < kCount; ++i) src[i] = rank * 100000 + i;
  MPI_Win_lock_all(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_Put(src, kCount, MPI_INT, right, theirs + 1000 * (MPI_Aint)sizeof(int), kCount, MPI_INT,
               win);
  CHECK(rc == MPI_SUCCESS, "a put across two attached regions returned %d", rc);
  rc = MPI_Win_flush(right, win);
  CHECK(rc == MPI_SUCCESS, "the flush of a put across two regions returned %d", rc);
  rc = MPI_Accumulate(src, kCount, MPI_INT, right, theirs + 1000 * (MPI_Aint)sizeof(int), kCount,
                      MPI_INT, MPI_SUM, win);
  CHECK(rc == MPI_SUCCESS, "an accumulate across two attached regions returned %d", rc);
  MPI_Win_flush(right, win);
  rc = MPI_Get(back, kCount, MPI_INT, right, theirs + 1000 * (MPI_Aint)sizeof(int), kCount, MPI_INT,
               win);
  CHECK(rc == MPI_SUCCESS, "a get across two attached regions returned %d", rc);
  rc = MPI_Win_flush(right, win);
  CHECK(rc == MPI_SUCCESS, "the flush of a get across two regions returned %d", rc);
  for (int i = 0, bad = 0; i < kCount && bad < 3; ++i)
    if (back[i] != 2 * src[i]) {
      CHECK(0, "element %d across two regions: %d, not %d", i, back[i], 2 * src[i]);
      ++bad;
    }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, mem);
  MPI_Win_detach(win, mem + kHalf);
  MPI_Win_free(&win);
  free(mem);
  free(src);
  free(back);
}

/* Rank 0 attaches a fresh region each round and sends its address to
 * everyone; each uses it at once (a get, a put, a get back), then answers. */
static void advertise(void) {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  long long *regions[kRounds];
  if (rank != 0) MPI_Win_lock_all(0, win);
  for (int r = 0; r < kRounds; ++r) {
    if (rank == 0) {
      regions[r] = malloc(size * sizeof(long long));
      for (int i = 0; i < size; ++i) regions[r][i] = 1000LL * r + i;
      MPI_Win_attach(win, regions[r], size * sizeof(long long));
      MPI_Aint at = 0;
      MPI_Get_address(regions[r], &at);
      for (int i = 1; i < size; ++i) MPI_Send(&at, 1, MPI_AINT, i, r, MPI_COMM_WORLD);
      for (int i = 1; i < size; ++i)
        MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 1; i < size; ++i)
        CHECK(regions[r][i] == -(1000LL * r + i), "round %d: rank %d's put left %lld", r, i,
              regions[r][i]);
      /* Every third region goes again: the table shrinks and grows. */
      if (r % 3 == 2) {
        MPI_Win_detach(win, regions[r]);
        free(regions[r]);
        regions[r] = NULL;
      }
    } else {
      MPI_Aint at = 0;
      MPI_Recv(&at, 1, MPI_AINT, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      long long v = -1, w = -(1000LL * r + rank);
      MPI_Aint mine = at + rank * (MPI_Aint)sizeof(long long);
      int rc = MPI_Get(&v, 1, MPI_LONG_LONG, 0, mine, 1, MPI_LONG_LONG, win);
      int rf = MPI_Win_flush(0, win);
      CHECK(rc == MPI_SUCCESS && rf == MPI_SUCCESS,
            "round %d: a get from the region just advertised failed (%d, %d)", r, rc, rf);
      CHECK(v == 1000LL * r + rank, "round %d: got %lld", r, v);
      rc = MPI_Put(&w, 1, MPI_LONG_LONG, 0, mine, 1, MPI_LONG_LONG, win);
      rf = MPI_Win_flush(0, win);
      CHECK(rc == MPI_SUCCESS && rf == MPI_SUCCESS, "round %d: the put failed (%d, %d)", r, rc, rf);
      MPI_Send(NULL, 0, MPI_BYTE, 0, r, MPI_COMM_WORLD);
    }
  }
  if (rank != 0) MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < kRounds; ++r)
      if (regions[r]) {
        MPI_Win_detach(win, regions[r]);
        free(regions[r]);
      }
  MPI_Win_free(&win);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  /* Arguments name the parts to run (default: all). */
  int all = argc < 2;
  for (int i = 1; i < argc; ++i) all |= strcmp(argv[i], "all") == 0;
  for (int i = 0; i < 3; ++i) {
    static const char *names[] = {"list", "spanning", "advertise"};
    static void (*parts[])(void) = {list, spanning, advertise};
    int run = all;
    for (int k = 1; k < argc; ++k) run |= strcmp(argv[k], names[i]) == 0;
    if (run) parts[i]();
  }
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
