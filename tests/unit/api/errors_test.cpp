// Calls that are valid before MPI_Init: errors, versions, timers, conversions.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>

TEST_CASE("every error class has its own text") {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  std::string prev;
  for (int c = MPI_SUCCESS; c <= MPI_ERR_LASTCODE; ++c) {
    REQUIRE(MPI_Error_string(c, s, &len) == MPI_SUCCESS);
    CHECK(len > 0);
    CHECK(std::strlen(s) == static_cast<size_t>(len));
    CHECK(prev != s);
    prev = s;
    int cls = -1;
    CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS);
    CHECK(cls == c);
  }
  REQUIRE(MPI_Error_string(MPI_ERR_UNSUPPORTED_OPERATION, s, &len) == MPI_SUCCESS);
  CHECK(std::string(s) == "unsupported operation");
}

TEST_CASE("version queries") {
  int v = 0, sv = 0;
  CHECK(MPI_Get_version(&v, &sv) == MPI_SUCCESS);
  CHECK(v == 4);
  CHECK(sv == 1);
  CHECK(MPI_VERSION == 4);
  CHECK(MPI_SUBVERSION == 1);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS);
  CHECK(std::string(lib).rfind("impi 0.1.0", 0) == 0);
  CHECK(std::string(lib).find("(MPI 4.1,") != std::string::npos);
}

TEST_CASE("Wtime advances and Wtick is a plausible resolution") {
  double t0 = MPI_Wtime();
  double tick = MPI_Wtick();
  CHECK(tick > 0.0);
  CHECK(tick <= 1e-3);
  double t1 = t0;
  while (t1 == t0) t1 = MPI_Wtime();
  CHECK(t1 > t0);
}

TEST_CASE("handles convert to Fortran integers and back") {
  CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
  CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE);
  CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM);
  CHECK(MPI_Comm_c2f(MPI_COMM_NULL) == 0);
  CHECK(MPI_Comm_c2f(MPI_COMM_WORLD) != MPI_Comm_c2f(MPI_COMM_SELF));
}

TEST_CASE("address arithmetic") {
  int a[4];
  MPI_Aint p0, p2;
  CHECK(MPI_Get_address(&a[0], &p0) == MPI_SUCCESS);
  CHECK(MPI_Get_address(&a[2], &p2) == MPI_SUCCESS);
  CHECK(MPI_Aint_diff(p2, p0) == 2 * static_cast<MPI_Aint>(sizeof(int)));
  CHECK(MPI_Aint_add(p0, 2 * sizeof(int)) == p2);
  void *mem = nullptr;
  CHECK(MPI_Alloc_mem(64, MPI_INFO_NULL, &mem) == MPI_SUCCESS);
  REQUIRE(mem);
  std::memset(mem, 1, 64);
  CHECK(MPI_Free_mem(mem) == MPI_SUCCESS);
}
