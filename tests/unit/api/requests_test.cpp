// Completing null and inactive requests: every completion call gives an
// empty status (MPI-3.1 3.7.3): source MPI_ANY_SOURCE, tag MPI_ANY_TAG,
// error MPI_SUCCESS, count 0 (and 0 elements), not cancelled.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "unit/api/init.hpp"

namespace {
void init() {
  impi::test::init_mpi();
}

// A status full of values no empty status has.
MPI_Status garbage() {
  MPI_Status st;
  std::memset(&st, 0x5a, sizeof st);
  st.MPI_SOURCE = 7;
  st.MPI_TAG = 99;
  st.MPI_ERROR = MPI_ERR_TRUNCATE;
  REQUIRE(MPI_Status_set_elements(&st, MPI_INT, 5) == MPI_SUCCESS);
  REQUIRE(MPI_Status_set_cancelled(&st, 1) == MPI_SUCCESS);
  return st;
}

void check_empty(const MPI_Status &st) {
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE);
  CHECK(st.MPI_TAG == MPI_ANY_TAG);
  CHECK(st.MPI_ERROR == MPI_SUCCESS);
  int n = -1, flag = -1;
  CHECK(MPI_Get_count(&st, MPI_BYTE, &n) == MPI_SUCCESS);
  CHECK(n == 0);
  n = -1;
  CHECK(MPI_Get_elements(&st, MPI_INT, &n) == MPI_SUCCESS);
  CHECK(n == 0);
  MPI_Count nx = -1;
  CHECK(MPI_Get_elements_x(&st, MPI_DOUBLE, &nx) == MPI_SUCCESS);
  CHECK(nx == 0);
  CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS);
  CHECK(flag == 0);
}
}  // namespace

TEST_CASE("MPI_Request_get_status of MPI_REQUEST_NULL: flag true, an empty status") {
  init();
  MPI_Status st = garbage();
  int flag = 0;
  REQUIRE(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st) == MPI_SUCCESS);
  CHECK(flag == 1);
  check_empty(st);
  flag = 0;
  CHECK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  CHECK(flag == 1);
}

TEST_CASE("MPI_Wait and MPI_Test of MPI_REQUEST_NULL: an empty status") {
  init();
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Status st = garbage();
  REQUIRE(MPI_Wait(&r, &st) == MPI_SUCCESS);
  check_empty(st);
  CHECK(r == MPI_REQUEST_NULL);
  st = garbage();
  int flag = 0;
  REQUIRE(MPI_Test(&r, &flag, &st) == MPI_SUCCESS);
  CHECK(flag == 1);
  check_empty(st);
}

TEST_CASE("the array completion calls on null requests") {
  init();
  MPI_Request rs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status sts[3] = {garbage(), garbage(), garbage()};
  REQUIRE(MPI_Waitall(3, rs, sts) == MPI_SUCCESS);
  for (const auto &st : sts) check_empty(st);
  for (auto &st : sts) st = garbage();
  int flag = 0;
  REQUIRE(MPI_Testall(3, rs, &flag, sts) == MPI_SUCCESS);
  CHECK(flag == 1);
  for (const auto &st : sts) check_empty(st);

  MPI_Status st = garbage();
  int index = -5;
  REQUIRE(MPI_Waitany(3, rs, &index, &st) == MPI_SUCCESS);
  CHECK(index == MPI_UNDEFINED);
  check_empty(st);
  st = garbage();
  index = -5;
  flag = 0;
  REQUIRE(MPI_Testany(3, rs, &index, &flag, &st) == MPI_SUCCESS);
  CHECK(flag == 1);
  CHECK(index == MPI_UNDEFINED);
  check_empty(st);
  // Testany/Waitany with no requests at all: the same.
  st = garbage();
  REQUIRE(MPI_Testany(0, rs, &index, &flag, &st) == MPI_SUCCESS);
  CHECK((flag == 1 && index == MPI_UNDEFINED));
  check_empty(st);

  // Some: outcount MPI_UNDEFINED, statuses untouched.
  int outcount = -5, indices[3] = {-1, -1, -1};
  for (auto &s : sts) s = garbage();
  REQUIRE(MPI_Testsome(3, rs, &outcount, indices, sts) == MPI_SUCCESS);
  CHECK(outcount == MPI_UNDEFINED);
  outcount = -5;
  REQUIRE(MPI_Waitsome(3, rs, &outcount, indices, sts) == MPI_SUCCESS);
  CHECK(outcount == MPI_UNDEFINED);
  CHECK(sts[0].MPI_TAG == 99);
}

TEST_CASE("inactive persistent requests complete at once with an empty status") {
  init();
  int buf = 0, payload = 42;
  MPI_Request r = MPI_REQUEST_NULL;
  REQUIRE(MPI_Recv_init(&buf, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r) == MPI_SUCCESS);
  MPI_Status st = garbage();
  int flag = 0;
  REQUIRE(MPI_Request_get_status(r, &flag, &st) == MPI_SUCCESS);  // never started
  CHECK(flag == 1);
  check_empty(st);
  st = garbage();
  REQUIRE(MPI_Wait(&r, &st) == MPI_SUCCESS);
  check_empty(st);
  CHECK(r != MPI_REQUEST_NULL);  // (a persistent request stays allocated)
  st = garbage();
  flag = 0;
  REQUIRE(MPI_Test(&r, &flag, &st) == MPI_SUCCESS);
  CHECK(flag == 1);
  check_empty(st);

  // Started and completed: its real status once, then inactive again.
  REQUIRE(MPI_Start(&r) == MPI_SUCCESS);
  REQUIRE(MPI_Send(&payload, 1, MPI_INT, 0, 3, MPI_COMM_SELF) == MPI_SUCCESS);
  REQUIRE(MPI_Wait(&r, &st) == MPI_SUCCESS);
  CHECK((st.MPI_SOURCE == 0 && st.MPI_TAG == 3 && buf == 42));
  MPI_Request arr[2] = {r, MPI_REQUEST_NULL};
  MPI_Status sts[2] = {garbage(), garbage()};
  REQUIRE(MPI_Waitall(2, arr, sts) == MPI_SUCCESS);
  check_empty(sts[0]);
  check_empty(sts[1]);
  int index = -5;
  st = garbage();
  REQUIRE(MPI_Waitany(2, arr, &index, &st) == MPI_SUCCESS);
  CHECK(index == MPI_UNDEFINED);
  check_empty(st);
  st = garbage();
  REQUIRE(MPI_Testany(2, arr, &index, &flag, &st) == MPI_SUCCESS);
  CHECK((flag == 1 && index == MPI_UNDEFINED));
  check_empty(st);
  REQUIRE(MPI_Request_free(&r) == MPI_SUCCESS);
}
