#include "startup/slurm.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace impi::startup;

TEST_CASE("Slurm host lists expand as Slurm writes them") {
  using V = std::vector<std::string>;
  CHECK(expand_slurm_hostlist("n1") == V{"n1"});
  CHECK(expand_slurm_hostlist("n[1-3,7],m") == V{"n1", "n2", "n3", "n7", "m"});
  CHECK(expand_slurm_hostlist("node[08-10]") == V{"node08", "node09", "node10"});
  CHECK(expand_slurm_hostlist("a[1-2]-ib,b[5]") == V{"a1-ib", "a2-ib", "b5"});
  CHECK_FALSE(expand_slurm_hostlist("n[3-1]"));
  CHECK_FALSE(expand_slurm_hostlist("n[1-"));
  CHECK_FALSE(expand_slurm_hostlist("n]"));
  CHECK_FALSE(expand_slurm_hostlist("a,,b"));
}

TEST_CASE("Slurm task counts expand their repetitions") {
  using V = std::vector<int>;
  CHECK(expand_slurm_counts("4") == V{4});
  CHECK(expand_slurm_counts("2(x3),1") == V{2, 2, 2, 1});
  CHECK_FALSE(expand_slurm_counts("2(x"));
  CHECK_FALSE(expand_slurm_counts("x"));
}

namespace {
std::map<std::string, std::string> g_env;
const char *fake_env(const char *n) {
  auto it = g_env.find(n);
  return it == g_env.end() ? nullptr : it->second.c_str();
}
}  // namespace

TEST_CASE("an allocation gives the default process count and the hosts") {
  g_env = {{"SLURM_JOB_ID", "7"},
           {"SLURM_JOB_NODELIST", "n[1-2]"},
           {"SLURM_TASKS_PER_NODE", "3,2"},
           {"SLURM_NTASKS", "5"}};
  auto a = slurm_allocation(fake_env);
  REQUIRE(a);
  CHECK(a->ntasks == 5);
  REQUIRE(a->nodes.size() == 2);
  CHECK(a->nodes[0].name == "n1");
  CHECK(a->nodes[0].slots == 3);
  CHECK(a->nodes[1].slots == 2);
  g_env.erase("SLURM_JOB_ID");
  CHECK_FALSE(slurm_allocation(fake_env));  // outside an allocation
}
