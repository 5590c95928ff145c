// MPI_Dims_create: the results Open MPI 4.1 and MPICH 4.0 give (both were
// run on these inputs and agree), and the error classes.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <vector>

#include "unit/api/init.hpp"

namespace {
void init() {
  impi::test::init_mpi();
}

std::vector<int> dims(int nnodes, std::vector<int> d) {
  REQUIRE(MPI_Dims_create(nnodes, static_cast<int>(d.size()), d.data()) == MPI_SUCCESS);
  return d;
}

int error_class(int rc) {
  int c = -1;
  MPI_Error_class(rc, &c);
  return c;
}
}  // namespace

TEST_CASE("MPI_Dims_create balances the free dimensions as the peers do") {
  init();
  using V = std::vector<int>;
  CHECK(dims(12, V(2)) == V{4, 3});
  CHECK(dims(16, V(3)) == V{4, 2, 2});
  CHECK(dims(6, V(3)) == V{3, 2, 1});
  CHECK(dims(7, V(2)) == V{7, 1});
  CHECK(dims(1, V(3)) == V{1, 1, 1});
  CHECK(dims(24, V(3)) == V{4, 3, 2});
  CHECK(dims(30, V(2)) == V{6, 5});
  CHECK(dims(64, V(4)) == V{4, 4, 2, 2});
  CHECK(dims(100, V(3)) == V{5, 5, 4});
  CHECK(dims(360, V(4)) == V{6, 5, 4, 3});
  CHECK(dims(1024, V(5)) == V{4, 4, 4, 4, 4});
  // Where the peers disagree, the most balanced answer, as MPICH gives it
  // (Open MPI 4.1: 12x6, 20x18x14, 13x12x6x6, 12x6x6).
  CHECK(dims(72, V(2)) == V{9, 8});
  CHECK(dims(5040, V(3)) == V{21, 16, 15});
  CHECK(dims(5616, V(4)) == V{13, 9, 8, 6});
  CHECK(dims(432, V(3)) == V{9, 8, 6});
  CHECK(dims(28, V(3)) == V{7, 2, 2});
  // Large counts: the search walks divisors, not every number below n.
  CHECK(dims(1 << 30, V(3)) == V{1024, 1024, 1024});
  CHECK(dims(2 * 3 * 5 * 7 * 11 * 13 * 17 * 19, V(8)) == V{19, 17, 13, 11, 7, 5, 3, 2});
  CHECK(dims(97, V(2)) == V{97, 1});
  CHECK(dims(60, V(3)) == V{5, 4, 3});
  CHECK(dims(18, V(3)) == V{3, 3, 2});
  CHECK(dims(2, V(4)) == V{2, 1, 1, 1});
  CHECK(dims(6, V{0, 3, 0}) == V{2, 3, 1});  // fixed entries stay
  CHECK(dims(6, V{2, 3}) == V{2, 3});
  CHECK(dims(1, V{}) == V{});  // no dimensions, one node
}

TEST_CASE("MPI_Dims_create refuses what cannot be satisfied") {
  init();
  int d[2] = {0, 4};
  CHECK(error_class(MPI_Dims_create(6, 2, d)) == MPI_ERR_DIMS);  // 4 does not divide 6
  int e[2] = {0, -1};
  CHECK(error_class(MPI_Dims_create(6, 2, e)) == MPI_ERR_DIMS);
  int f[2] = {2, 2};
  CHECK(error_class(MPI_Dims_create(6, 2, f)) == MPI_ERR_DIMS);  // 2x2 is not 6
  int g[1] = {0};
  CHECK(error_class(MPI_Dims_create(6, -1, g)) == MPI_ERR_DIMS);
  CHECK(error_class(MPI_Dims_create(0, 1, g)) == MPI_ERR_ARG);
}

TEST_CASE("MPI_Topo_test: communicators without a topology") {
  init();
  int st = -5;
  REQUIRE(MPI_Topo_test(MPI_COMM_WORLD, &st) == MPI_SUCCESS);
  CHECK(st == MPI_UNDEFINED);
  MPI_Comm dup;
  REQUIRE(MPI_Comm_dup(MPI_COMM_SELF, &dup) == MPI_SUCCESS);
  st = -5;
  REQUIRE(MPI_Topo_test(dup, &st) == MPI_SUCCESS);
  CHECK(st == MPI_UNDEFINED);
  MPI_Comm_free(&dup);
  CHECK(error_class(MPI_Topo_test(MPI_COMM_NULL, &st)) == MPI_ERR_COMM);
}
