#!/usr/bin/env bash
# What impirun does as mpirun does, in one client and with --clients K:
#   output    stdout forwarded byte for byte (binary data, a 200 KB line,
#             no newline at the end), tags only at line starts
#   stdin     to world rank 0 only by default; --stdin R|all|none
#   timeout   MPIEXEC_TIMEOUT ends a hung job with a nonzero exit
#   options   every option acts in --clients mode (or is refused)
#   names     host names where an address is expected
# Usage: launcher_fidelity_test.sh MODE IMPIRUN IO_CHECK BEHAVE HELLO
set -u
mode=$1 impirun=$2 io=$3 behave=$4 hello=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_fidelity.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

case $mode in
output)
  # The reference: the same program without a launcher (a singleton).
  "$io" bytes 0 600000 42 > "$work/ref" || fail "singleton io_check"
  for k in 1 2 3; do
    "$impirun" -np 3 --clients $k "$io" bytes 0 600000 42 > "$work/got.$k" || fail "--clients $k"
    cmp "$work/ref" "$work/got.$k" || fail "--clients $k: binary output differs"
    # The writer is the last rank, in the last client.
    "$impirun" -np 3 --clients $k "$io" bytes 2 600000 42 > "$work/got.$k" || fail "--clients $k"
    cmp "$work/ref" "$work/got.$k" || fail "--clients $k, rank 2: binary output differs"
  done
  "$impirun" -np 2 "$io" longline 1 > "$work/long" || fail "longline"
  [ "$(wc -c < "$work/long")" = 200005 ] || fail "the 200 KB line: $(wc -c < "$work/long") bytes, not 200005"
  [ "$(head -c 200001 "$work/long" | tr -d x)" = "" ] || fail "the 200 KB line was changed"
  [ "$(tail -c 4 "$work/long")" = tail ] || fail "the unterminated tail was changed"
  "$impirun" -np 2 --clients 2 --tag-output "$io" longline 1 > "$work/tagged" || fail "tagged"
  [ "$(wc -c < "$work/tagged")" = $((200005 + 2 * 14)) ] || fail "tagged: $(wc -c < "$work/tagged") bytes"
  [ "$(head -c 15 "$work/tagged")" = "[1,1]<stdout>:x" ] || fail "tagged: no tag at the line start"
  [ "$(tail -c 18 "$work/tagged")" = "[1,1]<stdout>:tail" ] || fail "tagged: tail"
  "$impirun" -np 2 --clients 2 --timestamp-output "$io" longline 1 > "$work/ts" || fail "timestamps"
  [ "$(grep -c '^\[20[0-9-]* [0-9:.]*\]' "$work/ts")" = 2 ] || fail "timestamps: $(head -c 80 "$work/ts")"
  echo "ok: output byte for byte, tags at line starts, in 1, 2 and 3 clients"
  ;;
stdin)
  seq 1 200000 > "$work/in"
  want=$("$io" stdin < "$work/in" | sed 's/rank 0 //')
  check() {  # check "LABEL" "expected readers" impirun args...
    local label=$1 readers=$2
    shift 2
    "$impirun" "$@" "$io" stdin < "$work/in" > "$work/out" || fail "$label: impirun failed"
    local got
    got=$(grep -v ' read 0 bytes sum 0$' "$work/out" | sort | sed 's/rank \([0-9]*\) \(.*\)/\1 \2/')
    local exp=""
    for r in $readers; do exp+="$r $want"$'\n'; done
    [ "$got" = "$(printf '%s' "$exp" | sort)" ] || fail "$label: got
$got
expected readers $readers"
    [ "$(wc -l < "$work/out")" -eq "$np" ] || fail "$label: not every rank reported"
  }
  np=4
  check "one client" "0" -np 4
  check "--clients 2" "0" -np 4 --clients 2
  check "--clients 3" "0" -np 4 --clients 3
  check "--clients 2 --stdin 3" "3" -np 4 --clients 2 --stdin 3
  check "--stdin 2" "2" -np 4 --stdin 2
  check "--clients 2 --stdin all" "0 1 2 3" -np 4 --clients 2 --stdin all
  check "--stdin all" "0 1 2 3" -np 4 --stdin all
  check "--clients 2 --stdin none" "" -np 4 --clients 2 --stdin none
  err=$("$impirun" -np 2 --stdin 5 "$io" stdin 2>&1 < /dev/null) && fail "--stdin 5 of 2 ranks ran"
  grep -q "stdin 5" <<< "$err" || fail "--stdin 5: $err"
  echo "ok: stdin to rank 0 by default, to the chosen rank, all or none, in one and several clients"
  ;;
timeout)
  for k in 1 2; do
    start=$(date +%s)
    err=$(MPIEXEC_TIMEOUT=3 "$impirun" -np 2 --clients $k "$behave" sleep 60 2>&1 >/dev/null)
    rc=$? took=$(( $(date +%s) - start ))
    [ $rc -ne 0 ] || fail "--clients $k: a hung job ended with 0"
    [ $took -lt 20 ] || fail "--clients $k: took $took s"
    grep -q "MPIEXEC_TIMEOUT 3 s" <<< "$err" || fail "--clients $k: $err"
  done
  err=$(MPIEXEC_TIMEOUT=100 "$impirun" -np 1 --timeout 2 "$behave" sleep 60 2>&1) && fail "--timeout"
  grep -q -- "--timeout 2 s" <<< "$err" || fail "--timeout does not win over the variable: $err"
  err=$(MPIEXEC_TIMEOUT=soon "$impirun" -np 1 "$hello" 2>&1) && fail "a bad MPIEXEC_TIMEOUT ran"
  grep -q "MPIEXEC_TIMEOUT='soon'" <<< "$err" || fail "bad value: $err"
  MPIEXEC_TIMEOUT=60 "$impirun" -np 2 --clients 2 "$hello" > /dev/null || fail "a job within the limit"
  echo "ok: MPIEXEC_TIMEOUT ends hung jobs (1 and 2 clients); --timeout wins; bad values refused"
  ;;
options)
  # --output-filename: world ranks' files
  "$impirun" -np 4 --clients 2 --output-filename "$work/o" "$behave" output 2 > "$work/term" 2>&1 ||
    fail "--output-filename"
  [ -s "$work/term" ] && fail "--output-filename: output reached the terminal: $(head -3 "$work/term")"
  for r in 0 1 2 3; do
    grep -q "^rank $r line 0" "$work/o/1/rank.$r/stdout" || fail "--output-filename: rank $r"
  done
  # --report-bindings, --map-by
  err=$("$impirun" -np 4 --clients 2 --report-bindings "$hello" 2>&1 >/dev/null) || fail "--report-bindings"
  for r in 0 1 2 3; do grep -q "rank $r \(bound\|is not bound\)" <<< "$err" || fail "--report-bindings: rank $r: $err"; done
  # With fewer cores than procs, clients of several procs bind in blocks:
  # a client's procs share cores with each other (ranks 0 and 1), the
  # clients' masters (ranks 0 and 2) get different cores; clients of one
  # proc each bind from core i on.
  if [ "$(nproc)" -ge 2 ] && [ "$(nproc)" -lt 4 ]; then
    core_of() { sed -n "s/.*rank $1 bound to [A-Za-z]* \\([0-9]*\\):.*/\\1/p" <<< "$err"; }
    c0=$(core_of 0) c1=$(core_of 1) c2=$(core_of 2)
    [ -n "$c0" ] && [ -n "$c2" ] && [ "$c0" != "$c2" ] || fail "--clients 2 oversubscribed: ranks 0 and 2 on cores '$c0' and '$c2': $err"
    [ "$c0" = "$c1" ] || fail "--clients 2 oversubscribed: ranks 0 and 1 on cores '$c0' and '$c1': $err"
    err=$("$impirun" -np 4 --clients 4 --report-bindings "$hello" 2>&1 >/dev/null) || fail "--clients 4"
    c0=$(core_of 0) c1=$(core_of 1)
    [ -n "$c0" ] && [ -n "$c1" ] && [ "$c0" != "$c1" ] || fail "--clients 4 oversubscribed: ranks 0 and 1 on cores '$c0' and '$c1': $err"
  fi
  err=$("$impirun" -np 2 --clients 2 --map-by hwthread --report-bindings "$hello" 2>&1 >/dev/null) ||
    fail "--map-by"
  grep -q "bound to PU" <<< "$err" || fail "--map-by hwthread: $err"
  # Within the cpus it was given (taskset), as Open MPI and MPICH: every
  # proc bound inside them, and told how many there are.
  if command -v taskset > /dev/null && [ "$(nproc --all)" -ge 2 ]; then
    err=$(taskset -c 1 "$impirun" -np 2 --clients 2 --report-bindings "$hello" 2>&1 >/dev/null) ||
      fail "taskset -c 1"
    [ "$(grep -c 'bound to .*: cpus 1$' <<< "$err")" = 2 ] ||
      fail "taskset -c 1: procs bound outside the cpus given: $err"
    out=$(taskset -c 1 "$impirun" -np 2 "$behave" env IMPI_MACHINE_CPUS) || fail "taskset -c 1 env"
    [ "$(grep -c 'IMPI_MACHINE_CPUS=1' <<< "$out")" = 2 ] || fail "taskset -c 1: IMPI_MACHINE_CPUS: $out"
  fi
  # --host slots: MPI_UNIVERSE_SIZE, and the limit --nooversubscribe keeps
  out=$("$impirun" -np 4 --clients 2 --host localhost:6 "$io" universe) || fail "--host"
  grep -q "universe 6" <<< "$out" || fail "--host localhost:6 with --clients 2: $out"
  err=$("$impirun" -np 3 --clients 3 --host localhost:2 --nooversubscribe "$hello" 2>&1) &&
    fail "--nooversubscribe let 3 procs run on 2 slots"
  grep -q "only 2 slots" <<< "$err" || fail "--nooversubscribe: $err"
  "$impirun" -np 2 --clients 2 --host localhost:2 --nooversubscribe "$hello" > /dev/null ||
    fail "--nooversubscribe within the slots"
  # -x, --bind-to none
  out=$("$impirun" -np 2 --clients 2 -x IMPI_FIDELITY=yes --bind-to none "$behave" env IMPI_FIDELITY) ||
    fail "-x"
  [ "$(grep -c 'IMPI_FIDELITY=yes' <<< "$out")" = 2 ] || fail "-x: $out"
  # --address names one client's address: refused, not ignored
  err=$("$impirun" -np 2 --clients 2 --address 127.0.0.9 "$hello" 2>&1) && fail "--address was ignored"
  grep -q "address" <<< "$err" || fail "--address: $err"
  echo "ok: --output-filename, --report-bindings, --map-by, --host, --nooversubscribe, -x, --address with --clients"
  ;;
names)
  export IMPI_AUTH_KEY=4242
  for spec in "localhost localhost" "$(hostname) 127.0.0.1" "[::1] ::1"; do
    set -- $spec
    srv=$1 bind=$2
    # The shell truncates the file in the background job: a stale address
    # from the last round could be read first.
    rm -f "$work/addr"
    "$impirun" -server 2 --address "$bind" > "$work/addr" 2> "$work/srv.err" &
    spid=$!
    for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
    port=${addr:-}
    port=$(sed 's/.*://' "$work/addr")
    [ -n "$port" ] || fail "server on $bind did not start: $(cat "$work/srv.err")"
    a0=localhost a1=127.0.0.2
    [ "$bind" = ::1 ] && a0=::1 a1=::1
    timeout 60 "$impirun" -client 0 "$srv:$port" --address "$a0" -np 1 "$hello" > "$work/c0" 2>&1 &
    timeout 60 "$impirun" -client 1 "$srv:$port" --address "$a1" -np 1 "$hello" > "$work/c1" 2>&1 ||
      fail "client 1 via $srv:$port: $(cat "$work/c1")"
    wait %2 || fail "client 0 via $srv:$port: $(cat "$work/c0")"
    wait $spid || fail "server $bind: $(cat "$work/srv.err")"
    grep -q "rank 0 of 2" "$work/c0" || fail "$srv: $(cat "$work/c0")"
  done
  err=$("$impirun" -client 0 no-such-host.invalid:5 -np 1 "$hello" 2>&1) && fail "an unknown host name"
  grep -q "cannot resolve the host name 'no-such-host.invalid'" <<< "$err" || fail "unknown name: $err"
  "$impirun" -np 2 --host "$(hostname):2" "$hello" > /dev/null || fail "--host $(hostname)"
  printf '%s slots=2\n' "$(hostname)" > "$work/hf"
  "$impirun" -np 2 --hostfile "$work/hf" --nooversubscribe "$hello" > /dev/null || fail "hostfile name"
  echo "ok: host names for the server, clients, --address, --host and hostfiles; IPv6"
  ;;
abort)
  # MPI_Abort's message is said once, in one client and across clients.
  for k in 1 2; do
    err=$("$impirun" -np 4 --clients $k "$behave" abort 3 7 2>&1 >/dev/null)
    rc=$?
    [ $rc = 7 ] || fail "--clients $k: exit $rc, not 7"
    [ "$(grep -c 'MPI_Abort' <<< "$err")" = 1 ] || fail "--clients $k: MPI_Abort said more than once: $err"
    grep -q "rank 3 with error code 7; ending the job" <<< "$err" || fail "--clients $k: $err"
  done
  # A client that times out waiting to join names the server it waited for.
  export IMPI_AUTH_KEY=4244
  "$impirun" -server 2 --address 127.0.0.1 > "$work/addr" 2> "$work/srv.err" &
  spid=$!
  for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
  addr=$(cat "$work/addr")
  err=$("$impirun" -client 0 "$addr" --startup-timeout 2 -np 1 "$hello" 2>&1) && fail "client 0 joined alone"
  grep -q "timed out waiting for the IMPI server at $addr" <<< "$err" || fail "join timeout: $err"
  kill $spid 2>/dev/null
  wait $spid 2>/dev/null
  echo "ok: MPI_Abort's message once (1 and 2 clients); a join timeout names the server"
  ;;
one_client_hosts)
  # One IMPI client on two "hosts" (the second started through a launch
  # agent that runs it here): its procs reach each other through the
  # IMPI host channels, and collectives leave the shared-memory fast paths.
  printf '#!/bin/sh\nshift\nexec "$@"\n' > "$work/agent"
  chmod +x "$work/agent"
  export IMPI_AUTH_KEY=4243 IMPI_LAUNCH_AGENT=$work/agent
  for hosts in localhost:1,fakehost-b:1 localhost:2,fakehost-b:2; do
    np=$(( $(tr ',' '+' <<< "${hosts//[^0-9,]/}") ))
    for prog in "$hello" "$(dirname "$io")/p2p_check" "$(dirname "$io")/coll_check"; do
      rm -f "$work/addr"  # (not the last round's address: see "names")
      "$impirun" -server 1 --address 127.0.0.1 > "$work/addr" 2> "$work/srv.err" &
      spid=$!
      for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
      timeout 90 "$impirun" -client 0 "$(cat "$work/addr")" --address 127.0.0.1 --host "$hosts" \
        -np "$np" "$prog" > "$work/out" 2>&1 || fail "$(basename "$prog") on $hosts: $(tail -5 "$work/out")"
      wait $spid || fail "server: $(cat "$work/srv.err")"
      [ "$(grep -c "of $np\b" "$work/out")" -ge "$np" ] || fail "$(basename "$prog") on $hosts: $(tail -5 "$work/out")"
    done
  done
  echo "ok: one client on two hosts: hello, p2p_check and coll_check at 1 and 2 procs per host"
  ;;
*) fail "unknown mode $mode" ;;
esac
