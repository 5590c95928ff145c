#!/usr/bin/env bash
# IMPI startup across separately launched clients: negotiation, bad peers,
# failures. Usage: impi_startup_test.sh IMPIRUN HELLO ENV_CHECK BEHAVE SCENARIO [BURST_CHECK]
# Every process runs under `timeout`, on 127.0.0.x only.
set -u
impirun=$1 hello=$2 envcheck=$3 behave=$4 scenario=$5 burst=${6:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_startup.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*; do echo "--- $f"; cat "$f"; done; exit 1; }

# start_server N [args...]: runs the server in the background, sets $server_pid and $addr.
start_server() {
  local n=$1; shift
  timeout 60 "$impirun" -server "$n" --address 127.0.0.1 "$@" > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 600); do
    addr=$(head -1 "$work/server.out" 2>/dev/null)
    [ -n "$addr" ] && return 0
    sleep 0.05
  done
  fail "the server printed no address"
}
port_of() { echo "${addr##*:}"; }

# rogue_login RANK KEY: bytes of AUTH(KEY) + key + IMPI(RANK), for bash's /dev/tcp.
be32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(( ($1>>24)&255 )) $(( ($1>>16)&255 )) $(( ($1>>8)&255 )) $(( $1&255 )); }
rogue_login() {
  printf "$(be32 0x41555448)$(be32 4)$(be32 2)$(be32 0)$(be32 $2)$(be32 0x494D5049)$(be32 4)$(be32 $1)"
}

wait_for() {  # wait_for PID SECONDS -> exit status, or fail on timeout
  local pid=$1 secs=$2
  for _ in $(seq $((secs * 20))); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid"; return $?; }
    sleep 0.05
  done
  fail "process $pid still running after $secs s"
}

# Fault tests: every client's session under $work/sessions, so that what a
# dead job leaves behind can be checked. procs_gone PATTERN, leaves_nothing.
use_sessions() { mkdir -p "$work/sessions"; export TMPDIR=$work/sessions; }
procs_gone() {
  for _ in $(seq 100); do pgrep -f "$1" > /dev/null || return 0; sleep 0.1; done
  pkill -9 -f "$1"; fail "procs matching '$1' outlived the job"
}
leaves_nothing() {  # no session or agent directory left, no /dev/shm segment of these impiruns
  local left
  left=$(ls -A "$work/sessions")
  [ -z "$left" ] || fail "temporary files left behind: $left"
  for p in "$@"; do
    ! ls /dev/shm | grep -q "^impi-impi\.$p\." || fail "impirun $p left shared memory behind"
  done
}
# start_clients N NP PROG ARGS...: clients 0..N-1 with NP procs each on 127.0.0.(c+1),
# as $cpid[c] (the `timeout`) and $imp[c] (its impirun).
start_clients() {
  local n=$1 np=$2; shift 2
  cpid=() imp=()
  for c in $(seq 0 $((n - 1))); do
    timeout 60 "$impirun" -client $c "$addr" --address 127.0.0.$((c + 1)) -np $np "$@" \
      > "$work/c$c.out" 2> "$work/c$c.err" &
    cpid[$c]=$!
  done
  for c in $(seq 0 $((n - 1))); do
    for _ in $(seq 50); do imp[$c]=$(pgrep -P ${cpid[$c]} | head -1); [ -n "${imp[$c]}" ] && break; sleep 0.05; done
  done
}
# wait_running N: every one of N clients' rank lines say the collectives run.
wait_running() {
  for _ in $(seq 300); do
    [ "$(cat "$work"/c*.out 2>/dev/null | grep -c "collectives running")" -ge "$1" ] && return 0
    sleep 0.05
  done
  fail "the collectives never ran"
}
# lost_host_named H C...: after client H (address 127.0.0.(H+1); its split
# hosts 127.K.0.(H+1)) died, one of the surviving clients C names one of its
# hosts, and each names a lost host: one that noticed first ends its part,
# and another may see that end before its own channel to H reports (a
# cascade, as with the server).
lost_host_named() {
  local h=$1; shift
  local named=0
  for c in "$@"; do
    grep -q "host [0-9]* (client $h, 127.[0-9]*.0.$((h + 1)):[0-9]*)" "$work/c$c.err" && named=1
    grep -q "host [0-9]* (client [0-9], 127.[0-9]*.0.[0-9]:[0-9]*)" "$work/c$c.err" || fail "client $c names no lost host"
  done
  [ $named = 1 ] || fail "no client names client $h's host"
}
# server_named: after the server's death, one of two clients names it; the
# other may notice its peer host ending first, and names that.
server_named() {
  grep -q "the IMPI server $addr closed its connection during the job" "$work"/c*.err ||
    fail "no client names the lost server"
  for c in 0 1; do
    grep -q "the IMPI server $addr closed its connection during the job\|host [0-9]* (client $((1 - c)), " \
      "$work/c$c.err" || fail "client $c names neither the server nor its peer host"
  done
}
# ends_within SECS C...: each client C exits non-zero within SECS seconds.
ends_within() {
  local secs=$1; shift
  for c in "$@"; do
    wait_for ${cpid[$c]} $secs; rc=$?
    [ $rc != 0 ] || fail "client $c exited 0"
  done
}

export IMPI_AUTH_KEY=5678
unset IMPI_AUTH_NONE

case "$scenario" in
negotiate2)
  # Two clients, different sizes and values, started in the opposite order.
  start_server 2
  IMPI_SHOW_JOB=1 timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 1 --datalen 1000 \
    --tag-ub 32767 --ackmark 3 --hiwater 50 "$envcheck" 4 > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  IMPI_SHOW_JOB=1 timeout 60 "$impirun" -client 0 "$addr" -np 3 --datalen 9000 --tag-ub 99999 \
    --ackmark 8 --hiwater 9 "$envcheck" 4 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  for p in $c0 $c1; do wait_for $p 30 || fail "client exited $?"; done
  wait_for $server_pid 10 || fail "server exited $?"
  cat "$work"/c*.out > "$work/all"
  for r in 0 1 2 3; do
    grep -q "^rank $r of 4 ok" "$work/all" || fail "rank $r missing"
    sed -n "s/^impi-job\[$r\] //p" "$work/all" > "$work/view$r"
    cmp -s "$work/view0" "$work/view$r" || fail "rank $r sees another job than rank 0"
  done
  grep -q "clients=2 maxdatalen=1000 tag_ub=32767 coll_xsize=1024 coll_maxlinear=4 ackmark=3 hiwater=9" \
    "$work/view0" || fail "negotiated values wrong"
  # Both clients list impi's version (0.0x696d0001): the job's, and impi-wide between them.
  grep -q "^version=0.1768751105 .* wide_clients=0x3$" "$work/view0" || fail "impi-wide not agreed"
  # (split hosts: client 0's three procs are hosts 0-2)
  grep -q "^proc 3 client=1 host=3 id=127.0.0.2/" "$work/view0" || fail "rank 3 not on client 1"
  ;;
negotiate3)
  # Three clients with different sizes and tunables; every proc must agree.
  start_server 3 -v
  # (Client 2 does not list impi's version, as a client that is not impi:
  # the job's version stays 0.0, and impi-wide holds between clients 0 and 1.)
  IMPI_SHOW_JOB=1 IMPI_WIDE_DATAREP=0 timeout 60 "$impirun" -client 2 "$addr" --address 127.0.0.3 -np 3 --datalen 6000 \
    --tag-ub 2147483647 --ackmark 7 --hiwater 25 "$hello" > "$work/c2.out" 2> "$work/c2.err" &
  c2=$!
  IMPI_SHOW_JOB=1 timeout 60 "$impirun" -client 0 "$addr" --address 127.0.0.1 -np 1 --datalen 8000 \
    --tag-ub 40000 --ackmark 5 --hiwater 30 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  IMPI_SHOW_JOB=1 IMPI_DATALEN=4000 IMPI_TAG_UB=50000 timeout 60 "$impirun" -client 1 "$addr" \
    --address 127.0.0.2 -np 2 --hiwater 20 "$hello" > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for p in $c0 $c1 $c2; do wait_for $p 30 || fail "client exited $?"; done
  wait_for $server_pid 10 || fail "server exited $?"
  cat "$work"/c*.out > "$work/all"
  for r in 0 1 2 3 4 5; do
    grep -q "^Hello from rank $r of 6" "$work/all" || fail "rank $r missing"
    sed -n "s/^impi-job\[$r\] //p" "$work/all" > "$work/view$r"
    [ -s "$work/view$r" ] || fail "rank $r printed no job"
    cmp -s "$work/view0" "$work/view$r" || fail "rank $r sees another job than rank 0"
  done
  grep -q "version=0.0 clients=3 maxdatalen=4000 tag_ub=40000 coll_xsize=1024 coll_maxlinear=4 ackmark=5 hiwater=20 wide_clients=0x3$" \
    "$work/view0" || fail "negotiated values wrong"
  grep -q "^proc 0 client=0 host=0 id=127.0.0.1/" "$work/view0" || fail "rank 0 not on client 0"
  # Split hosts: each proc is a host; on loopback the k-th of a client's
  # hosts (from 0) has 127.k.0.x.
  grep -q "^proc 2 client=1 host=2 id=127.1.0.2/" "$work/view0" || fail "rank 2 not on client 1"
  grep -q "^proc 5 client=2 host=5 id=127.2.0.3/" "$work/view0" || fail "rank 5 not on client 2"
  grep -q "^host 1 client=1 addr=127.0.0.2 port=[0-9]* nprocs=1 ackmark=10 hiwater=20" "$work/view0" \
    || fail "host 1 wrong"
  grep -q "^host 2 client=1 addr=127.1.0.2 port=[0-9]* nprocs=1 ackmark=10 hiwater=20" "$work/view0" \
    || fail "host 2 wrong"
  grep -q "every client sent FINI" "$work/server.err" || fail "server did not see every FINI"
  ;;
wrong_key)
  start_server 1 -v
  IMPI_AUTH_KEY=1234 timeout 20 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/rogue.out" 2> "$work/rogue.err"
  [ $? != 0 ] || fail "a client with the wrong key succeeded"
  grep -q "Server disconnected (wrong authentication key" "$work/rogue.err" || fail "no clear message for the wrong key"
  grep -q "wrong IMPI_AUTH_KEY.*connection from 127.0.0.1:[0-9]* closed" "$work/server.err" || fail "server did not report the wrong key"
  grep -q "IMPI_AUTH_HMAC" "$work/server.err" || fail "the server did not prefer IMPI_AUTH_HMAC"
  timeout 20 "$impirun" -client 0 "$addr" -np 2 "$envcheck" 2 > "$work/c0.out" 2> "$work/c0.err" || fail "real client failed"
  grep -c "of 2 ok" "$work/c0.out" | grep -q 2 || fail "real client's ranks missing"
  wait_for $server_pid 10 || fail "server exited $?"
  ;;
auth_key_in_clear)
  # The spec's IMPI_AUTH_KEY still works when the server asks for it (-auth 1),
  # with a wrong key refused; the default is impi's IMPI_AUTH_HMAC.
  start_server 1 -v -auth 1
  IMPI_AUTH_KEY=1234 timeout 20 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/rogue.out" 2> "$work/rogue.err"
  [ $? != 0 ] || fail "a client with the wrong key succeeded"
  timeout 20 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" || fail "the IMPI_AUTH_KEY client failed"
  wait_for $server_pid 10 || fail "server exited $?"
  grep -q "authenticates with IMPI_AUTH_KEY" "$work/server.err" || fail "the server did not use IMPI_AUTH_KEY"
  ! grep -q "authenticated with IMPI_AUTH_HMAC" "$work/server.err" || fail "the server used HMAC against -auth 1"
  ;;
no_auth)
  env -u IMPI_AUTH_KEY timeout 10 "$impirun" -server 2 --address 127.0.0.1 > "$work/s.out" 2> "$work/s.err"
  [ $? = 1 ] || fail "server without an auth method did not exit 1"
  grep -q "No authentication methods available for negotiation" "$work/s.err" || fail "server message"
  [ ! -s "$work/s.out" ] || fail "server printed an address without a method"
  env -u IMPI_AUTH_KEY timeout 10 "$impirun" -client 0 127.0.0.1:1 -np 1 "$hello" 2> "$work/c.err"
  [ $? = 1 ] || fail "client without an auth method did not exit 1"
  grep -q "No authentication methods available for negotiation" "$work/c.err" || fail "client message"
  # NONE on both sides works, and the server warns, naming the client's address.
  start_server 1 -v
  kill $server_pid; wait $server_pid 2>/dev/null
  IMPI_AUTH_NONE=1 timeout 60 "$impirun" -server 1 --address 127.0.0.1 -auth 0 > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 600); do addr=$(head -1 "$work/server.out" 2>/dev/null); [ -n "$addr" ] && break; sleep 0.05; done
  IMPI_AUTH_NONE=1 timeout 20 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" || fail "NONE client failed"
  wait_for $server_pid 10 || fail "server exited $?"
  grep -q "warning: 127.0.0.1:[0-9]* has authenticated with IMPI_AUTH_NONE" "$work/server.err" || fail "no NONE warning"
  ;;
xsize_mismatch)
  start_server 2
  timeout 30 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  timeout 30 "$impirun" -client 1 "$addr" -np 1 --coll-xsize 2048 "$hello" > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  wait_for $c0 20; [ $? != 0 ] || fail "client 0 accepted disagreeing XSIZE"
  wait_for $c1 20; [ $? != 0 ] || fail "client 1 accepted disagreeing XSIZE"
  grep -q "IMPI_C_COLL_XSIZE: clients disagree (client 0 sent -1, client 1 sent 2048)" "$work/c0.err" || fail "client 0 message"
  wait_for $server_pid 10; [ $? != 0 ] || fail "server exited 0 after a failed startup"
  ! grep -q "^Hello" "$work"/c*.out || fail "procs ran despite the failed startup"
  ;;
client_killed)
  # kill -9 of a client after it joined, while the job waits for a third.
  start_server 3 -v
  timeout 30 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  timeout 30 "$impirun" -client 1 "$addr" -np 1 "$hello" > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for _ in $(seq 100); do grep -q "client 1 joined" "$work/server.err" && break; sleep 0.05; done
  grep -q "client 1 joined" "$work/server.err" || fail "client 1 never joined"
  pkill -9 -P $c1 impirun 2>/dev/null || kill -9 $c1
  wait_for $server_pid 10; [ $? = 1 ] || fail "server did not exit 1"
  grep -q "client 1 (127.0.0.1:[0-9]*) disconnected before FINI" "$work/server.err" || fail "server message"
  wait_for $c0 10; [ $? != 0 ] || fail "client 0 exited 0"
  grep -q "server closed the connection" "$work/c0.err" || fail "client 0 message"
  ;;
peer_host_died)
  # A client dies while the job runs: the other client's agent sees its
  # channel end without FINI, names the host, and ends its part of the job.
  start_server 2 -v
  mkdir -p "$work/sessions"
  export TMPDIR=$work/sessions
  timeout 60 "$impirun" -client 0 "$addr" -np 1 "$behave" sleep 30 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  timeout 60 "$impirun" -client 1 "$addr" -np 1 "$behave" sleep 30 > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for _ in $(seq 200); do grep -q "startup complete" "$work/server.err" 2>/dev/null && break; sleep 0.05; done
  sleep 1  # the procs are up
  imp1=$(pgrep -P $c1 | head -1)  # client 1's impirun (under timeout): its pid names its session directory
  pkill -9 -P $c1 2>/dev/null; kill -9 $c1
  wait_for $c0 15; rc=$?
  [ $rc != 0 ] || fail "client 0 exited 0 without its peer host"
  grep -q "host 1 (client 1, .*) closed its channel without FINI" "$work/c0.err" || fail "client 0 message"
  # The killed impirun could not remove its session directory; the next
  # impirun under the same TMPDIR does (and no segment is left in /dev/shm).
  for _ in $(seq 50); do kill -0 "$imp1" 2>/dev/null || break; sleep 0.1; done
  ls -d "$work/sessions"/impirun.$imp1.* > /dev/null 2>&1 || fail "the killed client left no session directory to sweep"
  timeout 30 "$impirun" -np 1 "$hello" > /dev/null 2>&1 || fail "a later job failed"
  ls -d "$work/sessions"/impirun.$imp1.* > /dev/null 2>&1 && fail "the killed client's session directory is still there"
  ls /dev/shm | grep -q "^impi-impi\.$imp1\." && fail "the killed client left shared memory behind"
  ;;
fini_lost)
  # Direct channels (one proc per client): client 1's proc dies in
  # MPI_Finalize where its FINI would go (a test hook). Client 0's proc,
  # waiting for that FINI after the finalize barrier, sees the channel end
  # without it: it fails, naming the host, within seconds; nothing hangs.
  start_server 2 -v
  timeout 60 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  IMPI_TEST_EXIT_BEFORE_FINI=1 timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 1 "$hello" \
    > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  wait_for $c0 20; rc=$?
  [ $rc != 0 ] || fail "client 0 exited 0 although host 1 sent no FINI"
  # (an end without FINI, or a reset if our FINI was still unread there)
  grep -q "finishing the host channels: .*host 1 (client 1, 127.0.0.2:[0-9]*)" \
    "$work/c0.err" || fail "client 0 does not name host 1"
  wait_for $c1 20; rc=$?
  [ $rc != 0 ] || fail "client 1 exited 0 although its proc died in MPI_Finalize"
  wait_for $server_pid 10; rc=$?
  [ $rc != 0 ] || fail "the server exited 0"
  ;;
killed_mid_transfer)
  # A client is killed while its procs exchange messages with the other
  # client's: the survivor names the lost host and client, ends its procs
  # and exits non-zero within seconds; the server reports the lost client.
  start_server 2 -v
  timeout 60 "$impirun" -client 0 "$addr" -np 2 "$burst" 100000000 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 2 "$burst" 100000001 \
    > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for _ in $(seq 200); do grep -q "startup complete" "$work/server.err" 2>/dev/null && break; sleep 0.05; done
  sleep 1.5  # messages are flowing
  pkill -9 -P $c1 2>/dev/null; kill -9 $c1
  wait_for $c0 15; rc=$?
  [ $rc != 0 ] || fail "client 0 exited 0 without its peer host"
  grep -q "host [0-9]* (client 1, 127.[0-9]*.0.2:[0-9]*)" "$work/c0.err" ||
    fail "client 0 does not name the lost host"
  wait_for $server_pid 10; rc=$?
  [ $rc != 0 ] || fail "the server exited 0"
  grep -q "client 1 .* disconnected before FINI" "$work/server.err" || fail "the server does not name client 1"
  # The killed client's procs do not outlive it (nor do the survivor's).
  for _ in $(seq 100); do pgrep -f "$burst 10000000[01]" > /dev/null || break; sleep 0.1; done
  ! pgrep -f "$burst 10000000[01]" > /dev/null || { pkill -9 -f "$burst 10000000[01]"; fail "procs outlived the job"; }
  ;;
hostile)
  # Garbage, a silent connection and a rank thief: the job is unaffected.
  start_server 1 -v --join-timeout 2
  exec 3<>/dev/tcp/127.0.0.1/$(port_of)   # says nothing: closed after 2 s
  exec 6<>/dev/tcp/127.0.0.1/$(port_of)   # a slow loris: a valid AUTH, one byte every 0.3 s
  ( for b in $(rogue_login 0 5678 | od -An -v -tx1); do printf "\\x$b" >&6 2>/dev/null || break; sleep 0.3; done ) &
  printf 'GET / HTTP/1.0\r\n\r\n' > /dev/tcp/127.0.0.1/$(port_of)
  head -c 300 /dev/urandom > /dev/tcp/127.0.0.1/$(port_of)
  timeout 30 "$impirun" -client 0 "$addr" -np 1 "$behave" sleep 3 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  for _ in $(seq 100); do grep -q "client 0 joined" "$work/server.err" && break; sleep 0.05; done
  exec 4<>/dev/tcp/127.0.0.1/$(port_of)
  rogue_login 0 5678 >&4                 # claims the taken rank 0
  sleep 0.5
  wait_for $c0 20 || fail "the real client failed"
  wait_for $server_pid 10 || fail "server exited $?"
  grep -q "first command was 0x47455420, not AUTH" "$work/server.err" || fail "no message for the HTTP garbage"
  grep -q "client rank 0 is already taken by 127.0.0.1:" "$work/server.err" || fail "no message for the rank thief"
  [ "$(grep -c "did not authenticate and join within 2 s" "$work/server.err")" -ge 2 ] ||
    fail "the silent connection and the slow loris were not both timed out"
  exec 3>&- 4>&- 6>&-
  ;;
startup_timeout)
  start_server 2 --startup-timeout 2
  timeout 30 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  wait_for $server_pid 10; [ $? = 1 ] || fail "server did not give up"
  grep -q "startup did not complete within 2 s (1 of 2 clients joined; waiting for client 1)" "$work/server.err" || fail "server message"
  wait_for $c0 10; [ $? != 0 ] || fail "client 0 exited 0"
  ;;
server_killed)
  # kill -9 of the server mid-collective: every client notices its server
  # connection end, names the server and ends its procs within seconds.
  use_sessions
  start_server 2 -v
  start_clients 2 2 "$behave" collectives 40
  wait_running 4
  pkill -9 -P $server_pid; kill -9 $server_pid  # the server, and its `timeout`
  ends_within 10 0 1
  server_named
  procs_gone "$behave collectives 40"
  leaves_nothing "${imp[@]}"
  ;;
server_killed_startup)
  # kill -9 of the server while client 0 waits for client 1.
  start_server 2 -v
  timeout 30 "$impirun" -client 0 "$addr" -np 1 "$hello" > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  for _ in $(seq 100); do grep -q "client 0 joined" "$work/server.err" && break; sleep 0.05; done
  pkill -9 -P $server_pid; kill -9 $server_pid
  wait_for $c0 10; [ $? != 0 ] || fail "client 0 exited 0"
  grep -q "server closed the connection" "$work/c0.err" || fail "client 0 message"
  ;;
proc_killed_collective)
  # kill -9 of one proc of client 1 (3 clients x 2 procs) mid-collective:
  # its launcher names the rank, the other clients name host 1, the server
  # names client 1; nothing is left behind.
  use_sessions
  start_server 3 -v
  start_clients 3 2 "$behave" collectives 41
  wait_running 6
  victim=$(pgrep -P "${imp[1]}" -f "behave collectives" | head -1)
  [ -n "$victim" ] || fail "no proc of client 1 found"
  kill -9 "$victim"
  ends_within 10 0 1 2
  grep -q "rank [23] (pid $victim) was killed by signal 9" "$work/c1.err" || fail "client 1 does not name the rank"
  lost_host_named 1 0 2
  wait_for $server_pid 10; [ $? != 0 ] || fail "the server exited 0"
  grep -q "client 1 .* disconnected before FINI" "$work/server.err" || fail "the server does not name client 1"
  procs_gone "$behave collectives 41"
  leaves_nothing "${imp[@]}"
  ;;
client_killed_collective)
  # kill -9 of client 2's impirun (its agent) mid-collective, 3 clients.
  use_sessions
  start_server 3 -v
  start_clients 3 2 "$behave" collectives 42
  wait_running 6
  kill -9 "${imp[2]}"
  ends_within 10 0 1 2
  lost_host_named 2 0 1
  wait_for $server_pid 10; [ $? != 0 ] || fail "the server exited 0"
  grep -q "client 2 .* disconnected before FINI" "$work/server.err" || fail "the server does not name client 2"
  procs_gone "$behave collectives 42"
  # client 2 could not clean up after itself: the next impirun sweeps it
  timeout 30 "$impirun" -np 1 "$hello" > /dev/null 2>&1 || fail "a later job failed"
  leaves_nothing "${imp[@]}"
  ;;
proc_killed_startup)
  # A proc of client 1 dies before MPI_Init; client 0's procs are starting.
  use_sessions
  start_server 2 -v
  start_clients 1 2 "$behave" prekill 99  # client 0: nobody dies
  timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 2 "$behave" prekill 1 \
    > "$work/c1.out" 2> "$work/c1.err" &
  cpid[1]=$!
  for _ in $(seq 50); do imp[1]=$(pgrep -P ${cpid[1]} | head -1); [ -n "${imp[1]}" ] && break; sleep 0.05; done
  for c in 0 1; do
    wait_for ${cpid[$c]} 15; rc=$?
    [ $rc != 0 ] || fail "client $c exited 0"
  done
  grep -q "rank 3 (pid [0-9]*) was killed by signal 9" "$work/c1.err" ||
    fail "client 1 does not name its rank"
  grep -q "host [0-9]* (client 1, 127.[0-9]*.0.2:[0-9]*)" "$work/c0.err" || fail "client 0 does not name host 1"
  procs_gone "$behave prekill"
  leaves_nothing "${imp[@]}"
  ;;
hostile_after_startup)
  # After startup: a connection to a host's port (the dance is over: its
  # listener is closed, the connection refused) and a command to the server
  # announcing 2^31 bytes (closed with a message). The job is unaffected.
  start_server 2 -v
  IMPI_SHOW_JOB=1 timeout 60 "$impirun" -client 0 "$addr" -np 1 "$behave" sleep 3 > "$work/c0.out" 2> "$work/c0.err" &
  c0=$!
  timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 1 "$behave" sleep 3 > "$work/c1.out" 2> "$work/c1.err" &
  c1=$!
  for _ in $(seq 200); do grep -q "^rank 0 started" "$work/c0.out" 2>/dev/null && break; sleep 0.05; done
  hp=$(sed -n 's/^impi-job\[0\] host 0 client=0 addr=127.0.0.1 port=\([0-9]*\).*/\1/p' "$work/c0.out" | head -1)
  [ -n "$hp" ] || fail "no host port in the job description"
  if (exec 5<>/dev/tcp/127.0.0.1/$hp) 2>/dev/null; then fail "host 0's port still accepts connections after the dance"; fi
  printf '\x41\x55\x54\x48\x7f\xff\xff\xff' > /dev/tcp/127.0.0.1/$(port_of)
  wait_for $c0 20 || fail "client 0 failed"
  wait_for $c1 20 || fail "client 1 failed"
  wait_for $server_pid 10 || fail "server exited $?"
  grep -q "command 0x41555448 announces 2147483647 payload bytes (limit 16777216); connection from 127.0.0.1:[0-9]* closed" \
    "$work/server.err" || fail "no message for the oversized command"
  grep -q "every client sent FINI" "$work/server.err" || fail "the job did not finish normally"
  ;;
proc_killed_transfer|proc_killed_transfer_3per|proc_killed_transfer_3per_funnel|server_killed_transfer)
  # kill -9 of a proc of client 1, or of the server, while procs of two
  # clients (machines of 2 procs, or 3: split hosts, or _funnel one host of
  # 3 procs each) stream messages to each other.
  use_sessions
  start_server 2 -v
  per=2
  case $scenario in *_3per*) per=3 ;; esac
  case $scenario in *_funnel) export IMPI_SPLIT_HOSTS=0 ;; esac
  start_clients 2 $per "$burst" 100000002
  for _ in $(seq 200); do grep -q "startup complete" "$work/server.err" 2>/dev/null && break; sleep 0.05; done
  sleep 1.5  # messages are flowing
  if [ $scenario != server_killed_transfer ]; then
    victim=$(pgrep -P "${imp[1]}" -f "burst_check" | head -1)
    [ -n "$victim" ] || fail "no proc of client 1 found"
    kill -9 "$victim"
  else
    pkill -9 -P $server_pid; kill -9 $server_pid
  fi
  ends_within 10 0 1
  if [ $scenario != server_killed_transfer ]; then
    grep -q "rank [2-5] (pid $victim) was killed by signal 9" "$work/c1.err" || fail "client 1 does not name the rank"
    grep -q "host [0-9]* (client 1, 127.[0-9]*.0.2:[0-9]*)" "$work/c0.err" || fail "client 0 does not name host 1"
  else
    server_named
  fi
  procs_gone "$burst 100000002"
  leaves_nothing "${imp[@]}"
  ;;
*) fail "unknown scenario $scenario" ;;
esac
echo "ok: $scenario"
