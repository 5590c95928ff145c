#include "startup/exit_policy.hpp"

#include <catch2/catch.hpp>

using namespace impi::startup;

namespace {
ProcEnd exited(int rank, int code, bool init = true, bool fin = true) {
  ProcEnd e;
  e.rank = rank;
  e.pid = 1000 + rank;
  e.exited = true;
  e.exit_code = code;
  e.called_init = init;
  e.called_finalize = fin;
  return e;
}
ProcEnd killed(int rank, int sig) {
  ProcEnd e;
  e.rank = rank;
  e.pid = 1000 + rank;
  e.term_signal = sig;
  return e;
}
}  // namespace

TEST_CASE("clean exits keep the job going and the status 0") {
  JobOutcome j;
  CHECK_FALSE(j.on_proc_end(exited(0, 0)).end_job);
  CHECK_FALSE(j.on_proc_end(exited(1, 0, false, false)).end_job);  // not an MPI program
  CHECK(j.exit_code() == 0);
}

TEST_CASE("the first failure decides the status and speaks once") {
  JobOutcome j;
  auto v = j.on_proc_end(exited(2, 3));
  CHECK(v.end_job);
  REQUIRE(v.message);
  CHECK_THAT(*v.message, Catch::Contains("rank 2 (pid 1002) exited with code 3"));
  auto later = j.on_proc_end(killed(0, 15));  // killed by our own teardown
  CHECK_FALSE(later.message);
  CHECK(j.exit_code() == 3);
}

TEST_CASE("a signal death is reported with rank and signal") {
  JobOutcome j;
  auto v = j.on_proc_end(killed(1, 9));
  REQUIRE(v.message);
  CHECK_THAT(*v.message, Catch::Contains("rank 1") && Catch::Contains("signal 9"));
  CHECK(j.exit_code() == 128 + 9);
}

TEST_CASE("MPI_Abort sets the status to its error code") {
  JobOutcome j;
  auto v = j.on_abort(0, 7, "gave up");
  REQUIRE(v.message);
  CHECK_THAT(*v.message, Catch::Contains("rank 0") && Catch::Contains("error code 7") &&
                             Catch::Contains("gave up"));
  CHECK(j.exit_code() == 7);
}

TEST_CASE("MPI_Abort's message is said once") {
  JobOutcome j;
  auto v = j.on_abort(3, 7, "MPI_Abort called by rank 3 with error code 7");
  REQUIRE(v.message);
  CHECK(*v.message == "MPI_Abort was called by rank 3 with error code 7; ending the job");
}

TEST_CASE("exiting without MPI_Finalize is a failure") {
  JobOutcome j;
  auto v = j.on_proc_end(exited(1, 0, true, false));
  CHECK(v.end_job);
  CHECK(j.exit_code() == 1);
  REQUIRE(v.message);
  CHECK_THAT(*v.message, Catch::Contains("without calling MPI_Finalize"));
}

TEST_CASE("among procs that ended together, the likely cause comes first") {
  CHECK(cause_rank(killed(0, 9)) < cause_rank(exited(1, 0, true, false)));
  CHECK(cause_rank(exited(1, 0, true, false)) < cause_rank(exited(0, 16)));
  CHECK(cause_rank(exited(0, 16)) < cause_rank(exited(2, 0)));
}
