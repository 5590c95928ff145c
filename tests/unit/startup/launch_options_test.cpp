#include "startup/launch_options.hpp"

#include <catch2/catch.hpp>
#include <cstring>

#include "startup/host_agents.hpp"

using namespace impi::startup;

namespace {
const char *fake_env(const char *name) {
  return std::strcmp(name, "HOME") == 0 ? "/root" : nullptr;
}
ParsedCommandLine parse(std::vector<std::string> a) {
  return parse_launch_options(a, fake_env);
}
std::string usage_error(const ParsedCommandLine &p) {
  auto *e = std::get_if<UsageError>(&p);
  return e ? e->message : "";
}
}  // namespace

TEST_CASE("mpirun-style options parse into LaunchOptions") {
  auto p = parse({"-np", "4", "--bind-to", "none", "--tag-output", "-x", "A=1", "-x", "HOME",
                  "./prog", "-np", "arg"});
  auto *o = std::get_if<LaunchOptions>(&p);
  REQUIRE(o);
  CHECK(o->np == 4);
  CHECK(o->bind == BindPolicy::none);
  CHECK(o->tag_output);
  CHECK(o->env == std::vector<std::string>{"A=1", "HOME=/root"});
  // Everything after the program belongs to the program.
  CHECK(o->argv == std::vector<std::string>{"./prog", "-np", "arg"});
}

TEST_CASE("-n and --np are synonyms; -np defaults to 1; -- ends options") {
  CHECK(std::get<LaunchOptions>(parse({"-n", "3", "a.out"})).np == 3);
  CHECK(std::get<LaunchOptions>(parse({"--np", "2", "a.out"})).np == 2);
  CHECK(std::get<LaunchOptions>(parse({"a.out"})).np == 1);
  auto o = std::get<LaunchOptions>(parse({"-np", "2", "--", "-weird-name"}));
  CHECK(o.argv == std::vector<std::string>{"-weird-name"});
}

TEST_CASE("bad command lines give one clear message") {
  CHECK_THAT(usage_error(parse({"-np", "0", "a.out"})),
             Catch::Contains("invalid number of processes '0'"));
  CHECK_THAT(usage_error(parse({"-np", "x", "a.out"})), Catch::Contains("invalid number"));
  CHECK_THAT(usage_error(parse({"-np"})), Catch::Contains("needs a number"));
  CHECK_THAT(usage_error(parse({"-np", "2"})), Catch::Contains("no program given"));
  CHECK_THAT(usage_error(parse({})), Catch::Contains("no program given"));
  CHECK_THAT(usage_error(parse({"--frobnicate", "a.out"})),
             Catch::Contains("unknown option '--frobnicate'"));
  CHECK_THAT(usage_error(parse({"--bind-to", "socket", "a.out"})),
             Catch::Contains("unknown binding 'socket'"));
  CHECK_THAT(usage_error(parse({"-x", "NOT_SET_ANYWHERE", "a.out"})),
             Catch::Contains("is not set"));
  CHECK_THAT(usage_error(parse({"--timeout", "0", "a.out"})), Catch::Contains("--timeout"));
}

TEST_CASE("help and version requests") {
  CHECK(std::holds_alternative<HelpRequest>(parse({"--help"})));
  CHECK(std::holds_alternative<HelpRequest>(parse({"-h"})));
  CHECK(std::holds_alternative<VersionRequest>(parse({"--version"})));
  CHECK_THAT(launch_usage(), Catch::Contains("--bind-to"));
}

TEST_CASE("Open MPI's placement and output options") {
  auto o = std::get<LaunchOptions>(
      parse({"--map-by", "hwthread", "--report-bindings", "--output-filename", "/tmp/x",
             "--nooversubscribe", "--host", "localhost:3,127.0.0.1", "a.out"}));
  CHECK(o.map_by == MapBy::hwthread);
  CHECK(o.report_bindings);
  CHECK(o.output_dir == "/tmp/x");
  CHECK(o.no_oversubscribe);
  CHECK(o.slots == 4);
  CHECK(std::get<LaunchOptions>(parse({"--map-by", "slot:PE=1", "a.out"})).map_by == MapBy::core);
  CHECK(std::get<LaunchOptions>(parse({"--map-by", "socket", "a.out"})).map_by == MapBy::socket);
  auto b = std::get<LaunchOptions>(parse({"--core-offset", "2", "--core-blocks", "6", "a.out"}));
  CHECK(b.core_offset == 2);
  CHECK(b.core_blocks == 6);
  CHECK_THAT(usage_error(parse({"--core-blocks", "0", "a.out"})),
             Catch::Contains("--core-blocks needs a positive number"));
  CHECK_FALSE(std::get<LaunchOptions>(parse({"--nooversubscribe", "--oversubscribe", "a.out"}))
                  .no_oversubscribe);
  CHECK_THAT(usage_error(parse({"--map-by", "node", "a.out"})),
             Catch::Contains("this machine only"));
  CHECK_THAT(usage_error(parse({"--map-by", "diagonal", "a.out"})),
             Catch::Contains("unknown mapping"));
  CHECK_THAT(usage_error(parse({"--host", "node7", "a.out"})),
             Catch::Contains("this machine only"));
  CHECK_THAT(usage_error(parse({"--host", "localhost:0", "a.out"})),
             Catch::Contains("bad slot count"));
  CHECK_THAT(usage_error(parse({"--hostfile", "/nonexistent/hosts", "a.out"})),
             Catch::Contains("cannot read"));
}

TEST_CASE("environment options: -x, --env and MPICH's -env/-genv") {
  auto o = std::get<LaunchOptions>(
      parse({"--env", "A=1", "-env", "B", "two words", "-genv", "C", "3", "-x", "HOME", "a.out"}));
  CHECK(o.env == std::vector<std::string>{"A=1", "B=two words", "C=3", "HOME=/root"});
  CHECK_THAT(usage_error(parse({"-env", "B"})),
             Catch::Contains("needs a variable name and a value"));
}

TEST_CASE("a client on several hosts: -client with other machines in --host") {
  auto o = std::get<LaunchOptions>(parse({"-client", "0", "10.0.0.1:5000", "--host",
                                          "localhost:2,nodeb:2,nodec,nodeb", "-np", "6", "a.out"}));
  CHECK(o.slots == 2);
  REQUIRE(o.remote_hosts.size() == 2);
  CHECK(o.remote_hosts[0].name == "nodeb");
  CHECK(o.remote_hosts[0].slots == 3);  // mentions add up
  CHECK(o.remote_hosts[1].name == "nodec");
  CHECK(place_procs(6, o.slots, o.remote_hosts) == std::vector<int>{2, 3, 1});
  CHECK(place_procs(8, 1, {{"b", 1}}) == std::vector<int>{4, 4});  // beyond the slots: round robin
  CHECK(place_procs(2, 4, {{"b", 4}}) == std::vector<int>{1, 1});  // every host gets one first
  CHECK_THAT(usage_error(parse({"-client", "0", "h:1", "--host", "nodeb", "a.out"})),
             Catch::Contains("list this machine (localhost) too"));
  CHECK_THAT(
      usage_error(parse({"-client", "0", "h:1", "--host", "localhost,nodeb", "-np", "1", "a.out"})),
      Catch::Contains("every IMPI host needs a process"));
  CHECK_THAT(usage_error(parse({"-client", "0", "h:1", "--nooversubscribe", "--host",
                                "localhost,nodeb", "-np", "3", "a.out"})),
             Catch::Contains("not enough slots"));
  auto a = std::get<LaunchOptions>(
      parse({"--host-agent", "10.0.0.1:777", "--host-token", "abc", "-np", "2", "a.out"}));
  REQUIRE(a.host_agent);
  CHECK(a.host_agent->coordinator == "10.0.0.1:777");
  CHECK(a.host_agent->token == "abc");
}

TEST_CASE("split hosts: how many a machine advertises, and their addresses") {
  // (defaults: IMPI_SPLIT_HOSTS 16, direct channels on)
  CHECK(split_count(1, true) == 1);
  CHECK(split_count(2, true) == 2);
  CHECK(split_count(16, true) == 16);
  CHECK(split_count(17, true) == 1);  // beyond the limit: the agent funnels
  CHECK(split_count(4, false) == 1);  // no agent to hand the channels over
  // On loopback each host gets its own address; elsewhere the machine's.
  CHECK(split_address("127.0.0.2", 0) == "127.0.0.2");
  CHECK(split_address("127.0.0.2", 1) == "127.1.0.2");
  CHECK(split_address("127.0.0.2", 15) == "127.15.0.2");
  CHECK(split_address("127.3.4.5", 2) == "127.5.4.5");
  CHECK(split_address("10.77.0.1", 3) == "10.77.0.1");
  CHECK(split_address("::1", 2) == "::1");
  CHECK(split_address("127.0.0.1x", 1) == "127.0.0.1x");  // not an address: left alone
}

TEST_CASE("MPMD: app contexts after ':' with their own counts, variables and sets") {
  auto p = parse({"-x", "A=1", "-np",    "2",    "--pset", "user://x", "./a", "1",   ":", "-n", "3",
                  "-x", "B=2", "--wdir", "/tmp", "--pset", "user://y", "./b", "-np", ":", "./c"});
  auto *o = std::get_if<LaunchOptions>(&p);
  REQUIRE(o);
  CHECK(o->np == 6);
  CHECK(o->argv == std::vector<std::string>{"./a", "1"});
  REQUIRE(o->apps.size() == 3);
  CHECK(o->env == std::vector<std::string>{"A=1"});  // before the first program: everyone's
  CHECK(o->apps[0].np == 2);
  CHECK(o->apps[0].psets == std::vector<std::string>{"user://x"});
  CHECK(o->apps[0].env.empty());
  CHECK(o->apps[1].np == 3);
  CHECK(o->apps[1].argv == std::vector<std::string>{"./b", "-np"});
  CHECK(o->apps[1].env == std::vector<std::string>{"B=2"});
  CHECK(o->apps[1].wdir == "/tmp");
  CHECK(o->apps[2].np == 1);  // no -np: one
  CHECK(o->apps[2].argv == std::vector<std::string>{"./c"});
  auto sets = app_psets(o->apps);
  REQUIRE(sets.size() == 5);
  CHECK(sets[0].name == "impi://app/0");
  CHECK(sets[0].ranks == std::vector<int>{0, 1});
  CHECK(sets[1].name == "user://x");
  CHECK(sets[2].name == "impi://app/1");
  CHECK(sets[2].ranks == std::vector<int>{2, 3, 4});
  CHECK(sets[3].name == "user://y");
  CHECK(sets[4].ranks == std::vector<int>{5});
}

TEST_CASE("MPMD: bad app contexts are refused clearly") {
  CHECK_THAT(usage_error(parse({"./a", ":"})), Catch::Contains("has no program"));
  CHECK_THAT(usage_error(parse({"./a", ":", "-np", "2"})), Catch::Contains("has no program"));
  CHECK_THAT(usage_error(parse({"./a", ":", "--tag-output", "./b"})),
             Catch::Contains("put it before the first program"));
  CHECK_THAT(usage_error(parse({"./a", ":", "-np", "0", "./b"})),
             Catch::Contains("invalid number of processes"));
  CHECK_THAT(usage_error(parse({"--pset", "a,b", "./a"})), Catch::Contains("--pset needs"));
  CHECK_THAT(usage_error(parse({"-np", "4000", "./a", ":", "-np", "100", "./b"})),
             Catch::Contains("at most 4096"));
}

TEST_CASE("the internal --world-pset and --appnum of a client's slice") {
  auto o = std::get<LaunchOptions>(parse({"--world-pset", "user://z=3,4", "-np", "1", "--appnum",
                                          "1", "./b", ":", "-np", "1", "--appnum", "2", "./c"}));
  REQUIRE(o.world_psets.size() == 1);
  CHECK(o.world_psets[0].ranks == std::vector<int>{3, 4});
  CHECK(o.apps[0].appnum == 1);
  CHECK(o.apps[1].appnum == 2);
  CHECK(app_psets(o.apps)[0].name == "impi://app/1");
  CHECK_THAT(usage_error(parse({"--world-pset", "x=1,a", "./b"})), Catch::Contains("bad rank"));
}
