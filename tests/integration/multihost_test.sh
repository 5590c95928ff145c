#!/usr/bin/env bash
# An IMPI client on several hosts. The "hosts" are network namespaces this
# test creates (impi-TAG-a, -b, -c), each with its own address on a veth
# pair into a bridge (10.77.0.1, .2, .3; nothing leaves them). The server
# and client 0 run in a; client 0 spans a and b (its agent on b started
# through netns_agent.sh, as ssh would); client 1 runs in c.
# Usage: multihost_test.sh IMPIRUN REMOTE_CHECK COLL_CHECK BEHAVE SCENARIO
# Skips (exit 77) when namespaces cannot be created here.
set -u
impirun=$1 remote=$2 coll=$3 behave=$4 scenario=$5
here=$(cd "$(dirname "$0")" && pwd)
tag=t$$
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_multihost.XXXXXX")
ns() { echo "impi-$tag-$1"; }
cleanup() {
  kill $(jobs -p) 2>/dev/null
  for x in a b c hub; do ip netns pids "$(ns $x)" 2>/dev/null | xargs -r kill -9 2>/dev/null; done
  for x in a b c hub; do ip netns del "$(ns $x)" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*.out "$work"/*.err; do echo "--- $f"; cat "$f"; done; exit 1; }

if ! ip netns add "$(ns hub)" 2>"$work/netns.err"; then
  echo "SKIP: cannot create network namespaces here ($(head -1 "$work/netns.err")); run as root with iproute2"
  exit 77
fi
ip -n "$(ns hub)" link add br0 type bridge && ip -n "$(ns hub)" link set br0 up || fail "no bridge"
n=1
for x in a b c; do
  ip netns add "$(ns $x)" && ip -n "$(ns $x)" link set lo up &&
    ip link add "v$tag$x" type veth peer name "h$tag$x" &&
    ip link set "v$tag$x" netns "$(ns $x)" && ip link set "h$tag$x" netns "$(ns hub)" &&
    ip -n "$(ns hub)" link set "h$tag$x" master br0 && ip -n "$(ns hub)" link set "h$tag$x" up &&
    ip -n "$(ns $x)" addr add "10.77.0.$n/24" dev "v$tag$x" && ip -n "$(ns $x)" link set "v$tag$x" up ||
    fail "cannot set up host $x"
  n=$((n + 1))
done
in_ns() { local x=$1; shift; ip netns exec "$(ns $x)" "$@"; }
export IMPI_AUTH_KEY=7777 IMPI_LAUNCH_AGENT="$here/netns_agent.sh $tag"
unset IMPI_AUTH_NONE
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp

in_ns a timeout 90 "$impirun" -server 2 --address 10.77.0.1 > "$work/server.out" 2> "$work/server.err" &
server=$!
for _ in $(seq 600); do addr=$(head -1 "$work/server.out" 2>/dev/null); [ -n "$addr" ] && break; sleep 0.05; done
[ -n "$addr" ] || fail "the server printed no address"

# coll_funnel: one IMPI host per machine, whose agent multiplexes its procs
case $scenario in *_funnel) export IMPI_SPLIT_HOSTS=0 ;; esac
case $scenario in
p2p|coll|coll_funnel)
  # p2p names the hosts with --host, coll with a hostfile
  prog=$remote hosts=(--host localhost:2,b:2)
  if [ $scenario != p2p ]; then
    prog=$coll
    printf 'localhost slots=2\nb slots=2 # the second host\n' > "$work/hostfile"
    hosts=(--hostfile "$work/hostfile")
  fi
  IMPI_SHOW_JOB=1 in_ns a timeout 90 "$impirun" -client 0 "$addr" --address 10.77.0.1 "${hosts[@]}" -np 4 \
    "$prog" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  in_ns c timeout 90 "$impirun" -client 1 "$addr" --address 10.77.0.3 -np 2 "$prog" > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  wait $c0 || fail "client 0 exited $?"
  wait $c1 || fail "client 1 exited $?"
  wait $server || fail "the server exited $?"
  for r in 0 1 2 3 4 5; do grep -q "^rank $r of 6 ok" "$work"/c*.out || fail "rank $r did not report ok"; done
  if [ $scenario = coll_funnel ]; then
    grep -q "^impi-job\[2\] host 0 client=0 addr=10.77.0.1 port=[0-9]* nprocs=2" "$work/c0.out" || fail "host 0"
    grep -q "^impi-job\[2\] host 1 client=0 addr=10.77.0.2 port=[0-9]* nprocs=2" "$work/c0.out" || fail "host 1 (b)"
    grep -q "^impi-job\[2\] host 2 client=1 addr=10.77.0.3 port=[0-9]* nprocs=2" "$work/c0.out" || fail "host 2 (c)"
  else
    # Every machine's two procs are split hosts (an address of its own,
    # ports of their own), b's too, whose agent reports both ports.
    grep -q "^impi-job\[2\] host 0 client=0 addr=10.77.0.1 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 0"
    grep -q "^impi-job\[2\] host 1 client=0 addr=10.77.0.1 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 1 (a)"
    grep -q "^impi-job\[2\] host 2 client=0 addr=10.77.0.2 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 2 (b)"
    grep -q "^impi-job\[2\] host 3 client=0 addr=10.77.0.2 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 3 (b)"
    grep -q "^impi-job\[2\] host 4 client=1 addr=10.77.0.3 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 4 (c)"
    grep -q "^impi-job\[2\] host 5 client=1 addr=10.77.0.3 port=[0-9]* nprocs=1" "$work/c0.out" || fail "host 5 (c)"
    grep -q "^impi-job\[3\] proc 3 client=0 host=3 id=10.77.0.2/" "$work/c0.out" || fail "rank 3 is not on b"
  fi
  ;;
agent_killed)
  # The agent of host b dies mid-job: client 0 and client 1 end, naming it.
  in_ns a timeout 90 "$impirun" -client 0 "$addr" --address 10.77.0.1 --host localhost,b -np 2 \
    "$behave" collectives 60 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  in_ns c timeout 90 "$impirun" -client 1 "$addr" --address 10.77.0.3 -np 1 "$behave" collectives 60 \
    > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for _ in $(seq 300); do [ "$(cat "$work"/c*.out | grep -c "collectives running")" -ge 3 ] && break; sleep 0.05; done
  [ "$(cat "$work"/c*.out | grep -c "collectives running")" -ge 3 ] || fail "the job never ran"
  victim=$(ip netns pids "$(ns b)" | xargs -r ps -o pid=,args= -p | grep -- "--host-agent" | awk '{print $1}' | head -1)
  [ -n "$victim" ] || fail "no agent in host b"
  kill -9 "$victim"
  for p in $c0 $c1; do
    for _ in $(seq 200); do kill -0 $p 2>/dev/null || break; sleep 0.05; done
    kill -0 $p 2>/dev/null && fail "a client still runs 10 s after host b's agent died"
  done
  wait $c0 && fail "client 0 exited 0"
  wait $c1 && fail "client 1 exited 0"
  # One of them names host b; each names a lost host (whoever notices first
  # ends its part, and the other may see that end before b's).
  grep -q "host 1 (client 0, 10.77.0.2:[0-9]*)\|the agent of host b" "$work/c0.err" "$work/c1.err" ||
    fail "nobody names host b"
  for c in 0 1; do
    grep -q "host [0-9] (client [01], 10.77.0.[1-3]:[0-9]*)\|the agent of host b" "$work/c$c.err" ||
      fail "client $c names no lost host"
  done
  for _ in $(seq 100); do pgrep -f "$behave collectives 60" > /dev/null || break; sleep 0.1; done
  pgrep -f "$behave collectives 60" > /dev/null && fail "procs outlived the job"
  ;;
*) fail "unknown scenario $scenario" ;;
esac
[ "${MULTIHOST_SHOW:-0}" = 1 ] && cat "$work"/c*.err
echo "ok: $scenario"
