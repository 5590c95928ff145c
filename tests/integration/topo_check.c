/* topo_check.c - process topologies and neighbourhood collectives
 * (MPI-3.1 chapter 7) on whatever MPI_COMM_WORLD the launcher made: a 2-D
 * grid, periodic rings (size 1 and 2 make a rank its own or its only
 * neighbour twice), a graph, distributed graphs both ways, duplicates and
 * sub-grids; every neighbourhood collective, blocking and not, with the
 * payload of each block checked. Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, failures;

/* The value rank `from` puts in the block it sends to its i-th out-neighbour. */
static int val(int from, int i) {
  return from * 100 + i;
}

/* Cartesian neighbourhood exchange on `cart`: allgather and alltoall,
 * blocking and not. In slot 2d the -1 neighbour's block, sent by it towards
 * +1 (its slot 2d + 1); MPI_PROC_NULL slots stay untouched. */
static void cart_exchange(MPI_Comm cart, const char *what) {
  int nd, i, me, src, dst, d;
  MPI_Cartdim_get(cart, &nd);
  MPI_Comm_rank(cart, &me);
  int *nb = malloc(sizeof(int) * (size_t)(2 * nd + 1));
  int *got = malloc(sizeof(int) * (size_t)(2 * nd + 1));
  int *send = malloc(sizeof(int) * (size_t)(2 * nd + 1));
  for (d = 0; d < nd; ++d) {
    MPI_Cart_shift(cart, d, 1, &src, &dst);
    nb[2 * d] = src;
    nb[2 * d + 1] = dst;
  }
  for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
    MPI_Request req;
    for (i = 0; i < 2 * nd; ++i) got[i] = -7;
    if (nonblocking) {
      MPI_Ineighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, cart, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, cart);
    }
    for (i = 0; i < 2 * nd; ++i)
      CHECK(got[i] == (nb[i] == MPI_PROC_NULL ? -7 : nb[i]),
            "%s allgather(nb=%d) slot %d: %d, want %d", what, nonblocking, i, got[i], nb[i]);
    for (i = 0; i < 2 * nd; ++i) {
      send[i] = val(me, i);
      got[i] = -7;
    }
    if (nonblocking) {
      MPI_Ineighbor_alltoall(send, 1, MPI_INT, got, 1, MPI_INT, cart, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      MPI_Neighbor_alltoall(send, 1, MPI_INT, got, 1, MPI_INT, cart);
    }
    for (i = 0; i < 2 * nd; ++i) {
      int want = nb[i] == MPI_PROC_NULL ? -7 : val(nb[i], i ^ 1);
      CHECK(got[i] == want, "%s alltoall(nb=%d) slot %d: %d, want %d", what, nonblocking, i, got[i],
            want);
    }
  }
  free(nb);
  free(got);
  free(send);
}

static void check_cart(void) {
  int dims[2] = {0, 0}, periods[2] = {1, 0}, gd[2], gp[2], gc[2], c[2], r, t, nd, me;
  MPI_Comm cart, dup, sub;
  MPI_Dims_create(size, 2, dims);
  CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1], "Dims_create(%d, 2) = %dx%d", size,
        dims[0], dims[1]);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Topo_test(cart, &t);
  CHECK(t == MPI_CART, "Topo_test of a grid: %d", t);
  MPI_Cartdim_get(cart, &nd);
  CHECK(nd == 2, "Cartdim_get: %d", nd);
  MPI_Comm_rank(cart, &me);
  MPI_Cart_get(cart, 2, gd, gp, gc);
  CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0, "Cart_get dims/periods");
  CHECK(gc[0] == me / dims[1] && gc[1] == me % dims[1], "Cart_get coords (%d,%d) of %d", gc[0],
        gc[1], me);
  for (r = 0; r < size; ++r) {
    int back;
    MPI_Cart_coords(cart, r, 2, c);
    MPI_Cart_rank(cart, c, &back);
    CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
  }
  c[0] = gc[0] - dims[0]; /* periodic: wraps */
  c[1] = gc[1];
  MPI_Cart_rank(cart, c, &r);
  CHECK(r == me, "Cart_rank wraps a periodic dimension: %d", r);
  {
    int src, dst;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(src == ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1],
          "Cart_shift periodic source %d", src);
    CHECK(dst == ((gc[0] + 1) % dims[0]) * dims[1] + gc[1], "Cart_shift periodic dest %d", dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    CHECK(src == (gc[1] == 0 ? MPI_PROC_NULL : me - 1), "Cart_shift open source %d", src);
    CHECK(dst == (gc[1] == dims[1] - 1 ? MPI_PROC_NULL : me + 1), "Cart_shift open dest %d", dst);
  }
  cart_exchange(cart, "grid");
  /* a duplicate keeps the topology */
  MPI_Comm_dup(cart, &dup);
  MPI_Topo_test(dup, &t);
  CHECK(t == MPI_CART, "Topo_test of a duplicate: %d", t);
  cart_exchange(dup, "dup");
  /* rows of the grid */
  {
    int remain[2] = {0, 1}, ss, sd, sp, sc;
    MPI_Cart_sub(cart, remain, &sub);
    MPI_Comm_size(sub, &ss);
    CHECK(ss == dims[1], "Cart_sub size %d", ss);
    MPI_Cartdim_get(sub, &nd);
    CHECK(nd == 1, "Cart_sub ndims %d", nd);
    MPI_Cart_get(sub, 1, &sd, &sp, &sc);
    CHECK(sd == dims[1] && sp == 0 && sc == gc[1], "Cart_sub get %d %d %d", sd, sp, sc);
    cart_exchange(sub, "sub");
    MPI_Comm_free(&sub);
  }
  MPI_Comm_free(&dup);
  MPI_Comm_free(&cart);
  /* a periodic ring over the first 2 ranks (and 1): the same neighbour twice */
  for (int n = 1; n <= 2 && n <= size; ++n) {
    int pd = n, pp = 1;
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &pd, &pp, 0, &ring);
    CHECK((ring == MPI_COMM_NULL) == (rank >= n), "ring of %d: MPI_COMM_NULL for rank %d", n, rank);
    if (ring != MPI_COMM_NULL) {
      cart_exchange(ring, n == 1 ? "ring1" : "ring2");
      MPI_Comm_free(&ring);
    }
  }
  {
    int cm;
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &cm);
    CHECK(cm == rank, "Cart_map %d", cm);
  }
}

static void check_graph(void) {
  /* a ring as a graph: node i's neighbours are i-1 and i+1 (one, twice, or
   * none when size is 2 or 1) */
  int *index = malloc(sizeof(int) * (size_t)size),
      *edges = malloc(sizeof(int) * (size_t)(2 * size));
  int ne = 0, i, t, nn, nedges, cnt, nb[2], got[4], counts[2] = {1, 2}, displs[2] = {0, 2}, me;
  MPI_Comm g;
  for (i = 0; i < size; ++i) {
    if (size > 1) {
      edges[ne++] = (i - 1 + size) % size;
      edges[ne++] = (i + 1) % size;
    }
    index[i] = ne;
  }
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
  MPI_Topo_test(g, &t);
  CHECK(t == MPI_GRAPH, "Topo_test of a graph: %d", t);
  MPI_Graphdims_get(g, &nn, &nedges);
  CHECK(nn == size && nedges == ne, "Graphdims_get %d %d", nn, nedges);
  MPI_Comm_rank(g, &me);
  MPI_Graph_neighbors_count(g, me, &cnt);
  CHECK(cnt == (size > 1 ? 2 : 0), "Graph_neighbors_count %d", cnt);
  if (cnt == 2) {
    MPI_Graph_neighbors(g, me, 2, nb);
    CHECK(nb[0] == (me - 1 + size) % size && nb[1] == (me + 1) % size, "Graph_neighbors %d %d",
          nb[0], nb[1]);
    /* allgatherv: one int from the first neighbour, two from the second */
    int mine[2] = {me, me};
    got[0] = got[1] = got[2] = got[3] = -7;
    MPI_Neighbor_allgatherv(mine, 1, MPI_INT, got, counts, displs, MPI_INT, g);
    CHECK(got[0] == nb[0] && got[1] == -7 && got[2] == nb[1] && got[3] == -7,
          "graph allgatherv %d %d %d %d", got[0], got[1], got[2], got[3]);
  }
  {
    int *gi = malloc(sizeof(int) * (size_t)size),
        *ge = malloc(sizeof(int) * (size_t)(2 * size + 1));
    MPI_Graph_get(g, size, 2 * size, gi, ge);
    CHECK(memcmp(gi, index, sizeof(int) * (size_t)size) == 0 &&
              memcmp(ge, edges, sizeof(int) * (size_t)ne) == 0,
          "Graph_get");
    free(gi);
    free(ge);
  }
  MPI_Comm_free(&g);
  free(index);
  free(edges);
}

/* Distributed graphs: each rank receives from rank-1 and rank-2 and sends
 * to rank+1 and rank+2 (weights: the distance), built both ways. */
static void check_dist_graph(void) {
  int src[2] = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
  int dst[2] = {(rank + 1) % size, (rank + 2) % size}, w[2] = {1, 2};
  int indeg, outdeg, weighted, gs[2], gsw[2], gd[2], gdw[2], t;
  MPI_Comm dg, dg2;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, w, 2, dst, w, MPI_INFO_NULL, 0, &dg);
  MPI_Topo_test(dg, &t);
  CHECK(t == MPI_DIST_GRAPH, "Topo_test of a dist graph: %d", t);
  MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
  CHECK(indeg == 2 && outdeg == 2 && weighted, "Dist_graph_neighbors_count %d %d %d", indeg, outdeg,
        weighted);
  MPI_Dist_graph_neighbors(dg, 2, gs, gsw, 2, gd, gdw);
  CHECK(gs[0] == src[0] && gs[1] == src[1] && gd[0] == dst[0] && gd[1] == dst[1],
        "Dist_graph_neighbors ranks");
  CHECK(gsw[0] == 1 && gsw[1] == 2 && gdw[0] == 1 && gdw[1] == 2, "Dist_graph_neighbors weights");
  {
    /* alltoallv: block i (i + 1 ints) to dst[i]; from src[j], j + 1 ints */
    int send[3], got[3] = {-7, -7, -7}, sc[2] = {1, 2}, sd[2] = {0, 1};
    send[0] = val(rank, 0);
    send[1] = send[2] = val(rank, 1);
    MPI_Neighbor_alltoallv(send, sc, sd, MPI_INT, got, sc, sd, MPI_INT, dg);
    CHECK(got[0] == val(src[0], 0) && got[1] == val(src[1], 1) && got[2] == val(src[1], 1),
          "dist alltoallv %d %d %d", got[0], got[1], got[2]);
  }
  {
    /* alltoallw: an int to dst[0], a double to dst[1], byte displacements */
    struct {
      int i;
      double d;
    } s, r;
    MPI_Aint sdis[2] = {0, (MPI_Aint)((char *)&s.d - (char *)&s)},
             rdis[2] = {0, (MPI_Aint)((char *)&r.d - (char *)&r)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    int one[2] = {1, 1};
    MPI_Request req;
    s.i = val(rank, 0);
    s.d = rank + 0.5;
    r.i = -7;
    r.d = -7;
    MPI_Ineighbor_alltoallw(&s, one, sdis, ty, &r, one, rdis, ty, dg, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(r.i == val(src[0], 0) && r.d == src[1] + 0.5, "dist alltoallw %d %g", r.i, r.d);
  }
  /* the same graph, every edge named by rank 0 */
  {
    int n = rank == 0 ? size : 0, *sources = malloc(sizeof(int) * (size_t)size),
        *degrees = malloc(sizeof(int) * (size_t)size),
        *dests = malloc(sizeof(int) * (size_t)(2 * size)), i;
    int got[2] = {-7, -7};
    for (i = 0; i < size; ++i) {
      sources[i] = i;
      degrees[i] = 2;
      dests[2 * i] = (i + 1) % size;
      dests[2 * i + 1] = (i + 2) % size;
    }
    MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, dests, MPI_UNWEIGHTED, MPI_INFO_NULL,
                          0, &dg2);
    MPI_Dist_graph_neighbors_count(dg2, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && !weighted, "Dist_graph_create counts %d %d %d", indeg,
          outdeg, weighted);
    MPI_Dist_graph_neighbors(dg2, 2, gs, MPI_UNWEIGHTED, 2, gd, MPI_UNWEIGHTED);
    /* sources in the order rank 0 named the edges: by source rank */
    int lo = src[0] < src[1] ? src[0] : src[1], hi = src[0] < src[1] ? src[1] : src[0];
    if (size > 2)
      CHECK(gs[0] == lo && gs[1] == hi && gd[0] == dst[0] && gd[1] == dst[1],
            "Dist_graph_create neighbours %d %d", gs[0], gs[1]);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, dg2);
    CHECK(got[0] == gs[0] && got[1] == gs[1], "Dist_graph_create allgather %d %d", got[0], got[1]);
    free(sources);
    free(degrees);
    free(dests);
  }
  MPI_Comm_free(&dg2);
  MPI_Comm_free(&dg);
}

static void check_errors(void) {
  int ec, rc, x = 0, big = size + 1, per = 0, t;
  MPI_Comm c;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Neighbor_allgather(&x, 1, MPI_INT, &x, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Error_class(rc, &ec);
  CHECK(ec == MPI_ERR_TOPOLOGY, "neighbour collective without a topology: class %d", ec);
  rc = MPI_Cart_create(MPI_COMM_WORLD, 1, &big, &per, 0, &c);
  MPI_Error_class(rc, &ec);
  CHECK(rc != MPI_SUCCESS && ec == MPI_ERR_TOPOLOGY, "grid larger than the communicator: class %d",
        ec);
  MPI_Topo_test(MPI_COMM_WORLD, &t);
  CHECK(t == MPI_UNDEFINED, "Topo_test of MPI_COMM_WORLD: %d", t);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_cart();
  check_graph();
  check_dist_graph();
  check_errors();
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
