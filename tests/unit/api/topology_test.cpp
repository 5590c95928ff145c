// MPI_Dims_create: the results Open MPI 4.1 and MPICH 4.0 give (both were
// run on these inputs and agree), and the error classes.
#include <mpi.h>

#include <algorithm>
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

namespace {
// Every non-increasing way to write n as k factors, the most balanced one
// by MPICH's rule: the least spread between largest and smallest factor,
// then the largest smallest factor, then the largest second smallest...
// (By brute force, for the comparison below.)
void factorisations(int rest, int k, int cap, std::vector<int> &cur,
                    std::vector<std::vector<int>> &out) {
  if (k == 0) {
    if (rest == 1) out.push_back(cur);
    return;
  }
  for (int d = std::min(cap, rest); d >= 1; --d) {
    if (rest % d) continue;
    cur.push_back(d);
    factorisations(rest / d, k - 1, d, cur, out);
    cur.pop_back();
  }
}
std::vector<int> most_balanced(int n, int k) {
  std::vector<std::vector<int>> all;
  std::vector<int> cur;
  factorisations(n, k, n, cur, all);
  const std::vector<int> *best = nullptr;
  for (const auto &v : all) {
    if (!best) {
      best = &v;
      continue;
    }
    int s = v.front() - v.back(), bs = best->front() - best->back();
    if (s < bs || (s == bs && std::lexicographical_compare(best->rbegin(), best->rend(), v.rbegin(),
                                                           v.rend())))
      best = &v;
  }
  return *best;
}
}  // namespace

TEST_CASE("MPI_Dims_create gives MPICH's answers (test/mpi/topo dims1-5)") {
  init();
  using V = std::vector<int>;
  // dims5 (baddims.h): where a greedy or round-robin split goes wrong.
  // 590520 in 4: 38x37x21x20 and 37x30x28x19 both spread 18; the one with
  // the larger smallest factor wins.
  CHECK(dims(590520, V(4)) == V{38, 37, 21, 20});
  CHECK(dims(590520, V(3)) == V{95, 84, 74});
  CHECK(dims(590520, V(2)) == V{777, 760});
  struct Case {
    int n;
    V want;
  };
  const Case table[] = {
      // A sample of baddims.h (every 2500th line, and the 15- to 17-d ones).
      {76230, {315, 242}},
      {146652, {404, 363}},
      {216720, {504, 430}},
      {284350, {550, 517}},
      {352044, {693, 508}},
      {419190, {785, 534}},
      {486324, {711, 684}},
      {552630, {845, 654}},
      {590520, {777, 760}},
      {618332, {1012, 611}},
      {684046, {1003, 682}},
      {750105, {1055, 711}},
      {815859, {1107, 737}},
      {881250, {1175, 750}},
      {946580, {1007, 940}},
      {28140, {67, 21, 20}},
      {145740, {347, 21, 20}},
      {253330, {77, 70, 47}},
      {357000, {75, 70, 68}},
      {456960, {84, 80, 68}},
      {555768, {93, 83, 72}},
      {590520, {95, 84, 74}},
      {653760, {227, 60, 48}},
      {751296, {96, 91, 86}},
      {848016, {151, 78, 72}},
      {943152, {401, 49, 48}},
      {146952, {157, 13, 9, 8}},
      {419904, {27, 27, 24, 24}},
      {590520, {38, 37, 21, 20}},
      {665550, {34, 29, 27, 25}},
      {896832, {173, 18, 18, 16}},
      {572544, {71, 14, 9, 8, 8}},
      {145800, {5, 5, 4, 3, 3, 3, 3, 3, 3, 2}},
      {221184, {4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {331776, {4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {442368, {4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {497664, {4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {663552, {4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {746496, {4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2}},
      {829440, {5, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {884736, {4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {995328, {4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2}},
      {442368, {4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {663552, {4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {884736, {4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {995328, {4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
      {884736, {4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
  };
  for (const auto &c : table) {
    CAPTURE(c.n, c.want.size());
    CHECK(dims(c.n, V(c.want.size())) == c.want);
  }
  // dims1: products and order.
  CHECK(dims(2 * 3 * 5 * 7 * 11, V(2)) == V{55, 42});
  CHECK(dims(2 * 7, V(2)) == V{7, 2});
  CHECK(dims(2 * 2 * 3 * 3 * 5 * 7 * 11, V(2)) == V{126, 110});
  CHECK(dims(11, V(2)) == V{11, 1});
  CHECK(dims(5 * 7 * 11, V(4)) == V{11, 7, 5, 1});
  CHECK(dims(64, V(4)) == V{4, 4, 2, 2});
  // dims2: given entries stay; all given is no work.
  for (int n = 1; n <= 32; n *= 2) {
    CHECK(dims(n, V{0, n}) == V{1, n});
    CHECK(dims(n, V{1, n}) == V{1, n});
  }
  for (int n = 4; n <= 32; n *= 2) CHECK(dims(n, V{0, n / 2, 0, 2}) == V{1, n / 2, 1, 2});
  // dims3: powers of two, each dimension within a factor 2 of the next.
  for (int k = 3; k <= 4; ++k)
    for (int n = 2; n <= 4096; n *= 2) {
      V d = dims(n, V(static_cast<std::size_t>(k)));
      for (int i = 0; i + 1 < k; ++i) CHECK(d[i] / 2 <= d[i + 1]);
    }
  // dims4: a billion in 3.
  CHECK(dims(1000 * 1000 * 1000, V(3)) == V{1000, 1000, 1000});
}

TEST_CASE("MPI_Dims_create matches an exhaustive search") {
  init();
  for (int k = 2; k <= 5; ++k)
    for (int n = 1; n <= (k <= 3 ? 4000 : 1500); ++n) {
      CAPTURE(n, k);
      std::vector<int> d(static_cast<std::size_t>(k), 0);
      REQUIRE(MPI_Dims_create(n, k, d.data()) == MPI_SUCCESS);
      REQUIRE(d == most_balanced(n, k));
    }
  // Around 2^31, with many dimensions (checked offline by exhaustive
  // search: 2095133040 has 667952 factorisations in 5).
  using V = std::vector<int>;
  CHECK(dims(2095133040, V(3)) == V{1292, 1287, 1260});
  CHECK(dims(2095133040, V(4)) == V{221, 216, 210, 209});
  CHECK(dims(2095133040, V(5)) == V{81, 77, 76, 68, 65});
  CHECK(dims(1396755360, V(6)) == V{39, 38, 34, 33, 30, 28});
  CHECK(dims(2147483646, V(4)) == V{331, 217, 198, 151});
  CHECK(dims(1162261467, V(4)) == V{243, 243, 243, 81});
  CHECK(dims(2147483647, V(3)) == V{2147483647, 1, 1});  // a prime
  V twenty(20, 1);
  twenty[0] = 2147483647;
  CHECK(dims(2147483647, V(20)) == twenty);
  V pow2(20, 2);
  for (int i = 0; i < 10; ++i) pow2[static_cast<std::size_t>(i)] = 4;  // 2^30 in 20: 4^10 2^10
  CHECK(dims(1 << 30, V(20)) == pow2);
  V many(40, 1);
  for (int i = 0; i < 30; ++i) many[static_cast<std::size_t>(i)] = 2;
  CHECK(dims(1 << 30, V(40)) == many);
  // Given entries with the rest free, in a large job.
  CHECK(dims(2095133040, V{0, 17, 0, 0}) == V{504, 17, 495, 494});
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
