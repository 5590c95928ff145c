#!/usr/bin/env bash
# A launch agent for tests (IMPI_LAUNCH_AGENT="netns_agent.sh TAG"): runs
# a command "on host H" = in the network namespace impi-TAG-H that
# multihost_test.sh created, as ssh would run it on machine H.
tag=$1 host=$2
shift 2
exec ip netns exec "impi-$tag-$host" "$@"
