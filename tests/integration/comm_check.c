/* comm_check.c - groups and communicators (dup, split, create, free,
 * split_type, compare, names) with point-to-point and collectives on each,
 * in one client and across clients (the derived communicators interleave
 * the clients' ranks). argv[1] = how many dup/free rounds (default 1000).
 * Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;
#include "check.h"

static int handler_calls, handler_class;
static MPI_Comm handler_comm;
static void on_error(MPI_Comm *comm, int *code, ...) {
  ++handler_calls;
  handler_comm = *comm;
  MPI_Error_class(*code, &handler_class);
}

/* Point-to-point around the ring and a few collectives on `c`; `tag_base`
 * names the check. */
static void exercise(MPI_Comm c, const char *what) {
  int r, n, sum = 0, max = -1;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &n);
  int right = (r + 1) % n, left = (r + n - 1) % n, got = -1;
  int wr = rank;
  MPI_Sendrecv(&wr, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE);
  int lw = -1; /* left's world rank, via a world-group translation */
  MPI_Group cg, wg;
  MPI_Comm_group(c, &cg);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(cg, 1, &left, wg, &lw);
  CHECK(got == lw, "%s: from the left (%d) came world rank %d, expected %d", what, left, got, lw);
  MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == n * (n - 1) / 2, "%s: Allreduce sum %d", what, sum);
  int v = r == n - 1 ? 4242 : 0;
  MPI_Bcast(&v, 1, MPI_INT, n - 1, c);
  CHECK(v == 4242, "%s: Bcast %d", what, v);
  MPI_Reduce(&r, &max, 1, MPI_INT, MPI_MAX, 0, c);
  CHECK(r != 0 || max == n - 1, "%s: Reduce max %d", what, max);
  int *all = malloc((size_t)n * sizeof(int));
  MPI_Allgather(&wr, 1, MPI_INT, all, 1, MPI_INT, c);
  for (int i = 0; i < n; ++i) {
    int w = -1;
    MPI_Group_translate_ranks(cg, 1, &i, wg, &w);
    CHECK(all[i] == w, "%s: Allgather [%d] = %d, expected world rank %d", what, i, all[i], w);
  }
  free(all);
  MPI_Barrier(c);
  MPI_Group_free(&cg);
  MPI_Group_free(&wg);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rounds = argc > 1 ? atoi(argv[1]) : 1000;
  int res = -1, n = -1, r = -1;

  /* 1. groups */
  {
    MPI_Group wg, evens, odds, u, in, d, rg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(wg, &n);
    MPI_Group_rank(wg, &r);
    CHECK(n == size && r == rank, "world group: size %d rank %d", n, r);
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, ranges, &evens);
    MPI_Group_range_excl(wg, 1, ranges, &odds);
    MPI_Group_size(evens, &n);
    CHECK(n == (size + 1) / 2, "evens: size %d", n);
    MPI_Group_rank(evens, &r);
    CHECK(r == (rank % 2 ? MPI_UNDEFINED : rank / 2), "evens: my rank %d", r);
    MPI_Group_union(odds, evens, &u);
    MPI_Group_compare(u, wg, &res);
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "odds U evens vs world: %d", res);
    MPI_Group_intersection(odds, evens, &in);
    MPI_Group_size(in, &n);
    CHECK(n == 0 && in == MPI_GROUP_EMPTY, "odds ^ evens: size %d", n);
    MPI_Group_difference(wg, odds, &d);
    MPI_Group_compare(d, evens, &res);
    CHECK(res == MPI_IDENT, "world - odds vs evens: %d", res);
    int rev[64];
    for (int i = 0; i < size; ++i) rev[i] = size - 1 - i;
    MPI_Group_incl(wg, size, rev, &rg);
    int t = -1;
    MPI_Group_translate_ranks(rg, 1, &rev[rank], wg, &t); /* rank size-1-rank... */
    int zero = 0, last = -1;
    MPI_Group_translate_ranks(rg, 1, &zero, wg, &last);
    CHECK(last == size - 1, "reversed group: rank 0 is world %d", last);
    int bad = size, cls = -1;
    MPI_Error_class(MPI_Group_incl(wg, 1, &bad, &rg), &cls);
    CHECK(cls == MPI_ERR_RANK, "Group_incl with rank %d: class %d", size, cls);
    MPI_Error_class(MPI_Group_size(MPI_GROUP_NULL, &n), &cls);
    CHECK(cls == MPI_ERR_GROUP, "Group_size(MPI_GROUP_NULL): class %d", cls);
    MPI_Group_free(&wg);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&u);
    MPI_Group_free(&d);
    MPI_Group_free(&rg);
    CHECK(wg == MPI_GROUP_NULL, "Group_free leaves MPI_GROUP_NULL");
  }

  /* 2. dup: same group, its own context; inherits the error handler */
  {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_CONGRUENT, "dup vs world: %d", res);
    exercise(dup, "dup");
    int v = rank, flag = 1, got = -1;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Request rq;
    MPI_Isend(&v, 1, MPI_INT, to, 9, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Iprobe(from, 9, dup, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message sent on MPI_COMM_WORLD is visible on its dup");
    MPI_Recv(&got, 1, MPI_INT, from, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    int cls = -1;
    MPI_Error_class(MPI_Send(&v, 1, MPI_INT, size, 0, dup), &cls); /* MPI_ERRORS_RETURN inherited */
    CHECK(cls == MPI_ERR_RANK, "send to rank %d on dup: class %d", size, cls);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_set_name(dup, "my dup");
    MPI_Comm_get_name(dup, name, &len);
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "name %s", name);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0, "world's name %s", name);
    int inter = 1;
    MPI_Comm_test_inter(dup, &inter);
    CHECK(!inter, "dup is an intercommunicator");
    MPI_Error_class(MPI_Comm_remote_size(dup, &n), &cls);
    CHECK(cls == MPI_ERR_COMM, "remote_size of an intracommunicator: class %d", cls);
    MPI_Comm_free(&dup);
    CHECK(dup == MPI_COMM_NULL, "Comm_free leaves MPI_COMM_NULL");
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Error_class(MPI_Comm_free(&w), &cls);
    CHECK(cls == MPI_ERR_COMM, "freeing MPI_COMM_WORLD: class %d", cls);
  }

  /* 3. split: three colors, keys reversed, the last rank undefined; the
   * colors interleave the clients' ranks */
  {
    MPI_Comm s;
    int color = rank == size - 1 && size > 2 ? MPI_UNDEFINED : rank % 3;
    MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &s);
    if (color == MPI_UNDEFINED) {
      CHECK(s == MPI_COMM_NULL, "undefined color gave a communicator");
    } else {
      int members = 0, higher = 0;
      for (int q = 0; q < size; ++q)
        if (q % 3 == color && !(q == size - 1 && size > 2)) {
          ++members;
          if (q > rank) ++higher;
        }
      MPI_Comm_size(s, &n);
      MPI_Comm_rank(s, &r);
      CHECK(n == members && r == higher, "split color %d: size %d rank %d, expected %d %d", color,
            n, r, members, higher);
      exercise(s, "split");
      MPI_Comm_free(&s);
    }
    /* two colors (even/odd ranks): across clients these interleave them */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &s);
    exercise(s, "even/odd split");
    /* a split of a split */
    MPI_Comm s2;
    MPI_Comm_rank(s, &r);
    MPI_Comm_split(s, r / 2, r, &s2);
    exercise(s2, "split of a split");
    MPI_Comm_free(&s2);
    MPI_Comm_free(&s);
  }

  /* 4. create from a group (the evens); others get MPI_COMM_NULL */
  {
    MPI_Group wg, evens;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, ranges, &evens);
    MPI_Comm_create(MPI_COMM_WORLD, evens, &c);
    if (rank % 2) {
      CHECK(c == MPI_COMM_NULL, "an odd rank got a communicator of evens");
    } else {
      exercise(c, "create");
      MPI_Comm_free(&c);
    }
    MPI_Group_free(&wg);
    MPI_Group_free(&evens);
  }

  /* 5. split_type: the procs sharing memory (one client) */
  {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    int expected = argc > 2 ? atoi(argv[2]) : size;
    CHECK(n == expected, "split_type shared: size %d, expected %d", n, expected);
    exercise(node, "split_type");
    MPI_Comm_free(&node);
  }

  /* 5b. create_group (only the members call it), idup, a user error handler */
  {
    MPI_Group wg, evens;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, ranges, &evens);
    if (rank % 2 == 0) {
      MPI_Comm_create_group(MPI_COMM_WORLD, evens, 42, &c);
      exercise(c, "create_group");
      MPI_Comm_free(&c);
    }
    /* Overlapping random groups, one after another with the same tag: a
     * rank in the next group may start it while others still build this
     * one (their messages must not meet). */
    srand(7);
    for (int j = 0; j < 40; ++j) {
      int members[64], count = 0, in = 0;
      for (int i = 0; i < size && i < 64; ++i)
        if (rand() % 2) {
          if (i == rank) in = 1;
          members[count++] = i;
        }
      MPI_Group g;
      MPI_Group_incl(wg, count, members, &g);
      if (in) {
        MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c);
        exercise(c, "create_group, random groups");
        MPI_Comm_free(&c);
      }
      MPI_Group_free(&g);
    }
    MPI_Group_free(&wg);
    MPI_Group_free(&evens);
    /* Frees in different orders, and a free before a barrier on another
     * communicator that others reach first (as Open MPI and MPICH allow:
     * between clients the IMPI 4.5 barrier runs in the background). */
    MPI_Comm f[2];
    MPI_Comm_dup(MPI_COMM_WORLD, &f[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &f[1]);
    exercise(f[0], "dup to free");
    MPI_Comm_free(&f[rank % 2]);
    MPI_Comm_free(&f[1 - rank % 2]);
    if (size >= 2) { /* the same for intercommunicators (lower half, upper half) */
      MPI_Comm half, ic[2];
      int low = rank < size / 2;
      MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
      for (int k = 0; k < 2; ++k)
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 60 + k, &ic[k]);
      int one = 1, remote = 0;
      MPI_Allreduce(&one, &remote, 1, MPI_INT, MPI_SUM, ic[1]);
      CHECK(remote == (low ? size - size / 2 : size / 2), "intercomm Allreduce %d", remote);
      MPI_Comm_free(&ic[rank % 2]);
      MPI_Comm_free(&ic[1 - rank % 2]);
      MPI_Comm_free(&half);
    }
    MPI_Comm g1;
    MPI_Comm_dup(MPI_COMM_WORLD, &g1);
    if (rank == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Comm_free(&g1);
    } else {
      MPI_Comm_free(&g1);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Request rq;
    MPI_Comm d;
    /* idup is non-blocking: rank 0 starts it, then sends to rank 1, which
     * receives before it starts its own (a blocking dup would deadlock) */
    int token = 5;
    if (rank == 0) {
      MPI_Comm_idup(MPI_COMM_WORLD, &d, &rq);
      if (size > 1) MPI_Send(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD);
    } else {
      if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Comm_idup(MPI_COMM_WORLD, &d, &rq);
    }
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    exercise(d, "idup");
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(d, eh);
    int v = 0;
    handler_calls = 0;
    MPI_Send(&v, 1, MPI_INT, -5, 0, d);
    CHECK(handler_calls == 1 && handler_comm == d && handler_class == MPI_ERR_RANK,
          "user error handler: %d calls, class %d", handler_calls, handler_class);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&d);
  }

  /* 6. many communicators: their contexts must agree everywhere (or the
   * exchange on each would not match) and never collide: three live at
   * once, each carrying its own value, received in the other order */
  {
    for (int i = 0; i < rounds; ++i) {
      MPI_Comm d[3];
      MPI_Request rq[3];
      int to = (rank + 1) % size, from = (rank + size - 1) % size, v[3], got[3] = {-1, -1, -1};
      for (int j = 0; j < 3; ++j) {
        MPI_Comm_dup(MPI_COMM_WORLD, &d[j]);
        v[j] = i * 3 + j;
        MPI_Isend(&v[j], 1, MPI_INT, to, 0, d[j], &rq[j]);
      }
      for (int j = 2; j >= 0; --j) MPI_Recv(&got[j], 1, MPI_INT, from, 0, d[j], MPI_STATUS_IGNORE);
      MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
      if (got[0] != i * 3 || got[1] != i * 3 + 1 || got[2] != i * 3 + 2) {
        CHECK(0, "round %d: got %d %d %d", i, got[0], got[1], got[2]);
        break;
      }
      for (int j = 0; j < 3; ++j) MPI_Comm_free(&d[j]);
    }
  }
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
