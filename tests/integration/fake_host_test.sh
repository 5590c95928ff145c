#!/usr/bin/env bash
# Our client (fake_peer_prog as world rank 0) against fake_host (a scripted
# IMPI peer host checking every packet), through a real rendezvous server.
# Usage: fake_host_test.sh IMPIRUN FAKE_HOST FAKE_PEER_PROG [stall|reset]
# With a mode, the fake host stops reading or resets the connection while
# our proc streams to it: our client must end within seconds, naming it.
set -u
impirun=$1 fake=$2 prog=$3 mode=${4:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_fake_host.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*; do echo "--- $f"; cat "$f"; done; exit 1; }
export IMPI_AUTH_KEY=4242
unset IMPI_AUTH_NONE
timeout 60 "$impirun" -server 2 --address 127.0.0.1 > "$work/server.out" 2> "$work/server.err" &
server=$!
for _ in $(seq 600); do
  addr=$(head -1 "$work/server.out" 2>/dev/null)
  [ -n "$addr" ] && break
  sleep 0.05
done
[ -n "$addr" ] || fail "the server printed no address"
if [ -n "$mode" ]; then
  mkdir -p "$work/sessions"
  TMPDIR=$work/sessions IMPI_PEER_STALL_S=2 timeout 60 "$impirun" -client 0 "$addr" --address 127.0.0.1 -np 1 \
    --datalen 65536 --ackmark 1000 --hiwater 100000 "$prog" flood "$work" > "$work/client0.out" 2> "$work/client0.err" &
  c0=$!
  timeout 60 "$fake" "$addr" $mode > "$work/fake.out" 2> "$work/fake.err" &
  fk=$!
  start=$(date +%s)
  for _ in $(seq 400); do kill -0 $c0 2>/dev/null || break; sleep 0.05; done
  kill -0 $c0 2>/dev/null && fail "our client still runs 20 s after the peer host's fault"
  wait $c0; r0=$?
  [ $r0 -ne 0 ] || fail "our client exited 0"
  case $mode in
  stall) grep -q "fake host: stalling" "$work/fake.out" || fail "the fake host did not get to stall"
         grep -q "host 1 (client 1, 127.0.0.2:[0-9]*) took none of our data for 2 s (it stopped reading" \
           "$work/client0.err" || fail "no message naming the stalled host" ;;
  reset) grep -q "fake host: reset after" "$work/fake.out" || fail "the fake host did not reset"
         grep -q "host 1 (client 1, 127.0.0.2:[0-9]*).*reset by peer\|reading from host 1 (client 1, 127.0.0.2:[0-9]*): Connection reset" \
           "$work/client0.err" || fail "no message naming the host that reset" ;;
  esac
  # (this run's proc only: the stall and reset tests may run at once)
  for _ in $(seq 50); do pgrep -f "$prog flood $work" > /dev/null || break; sleep 0.1; done
  ! pgrep -f "$prog flood $work" > /dev/null || fail "our proc outlived the job"
  [ -z "$(ls -A "$work/sessions")" ] || fail "temporary files left: $(ls -A "$work/sessions")"
  echo "ok: $mode, ended in $(( $(date +%s) - start )) s"
  exit 0
fi
timeout 60 "$impirun" -client 0 "$addr" --address 127.0.0.1 -np 1 --datalen 16 --ackmark 1 --hiwater 1 \
  "$prog" > "$work/client0.out" 2> "$work/client0.err" &
c0=$!
timeout 60 "$fake" "$addr" > "$work/fake.out" 2> "$work/fake.err" &
fk=$!
# If either side fails, the other may wait for it: end everything then.
wait -n $fk $c0; first=$?
if [ $first -ne 0 ]; then sleep 1; kill $fk $c0 $server 2>/dev/null; fi
wait $fk; rf=$?
wait $c0; r0=$?
wait $server; rs=$?
[ $rf -eq 0 ] || fail "fake host exited $rf"
[ $r0 -eq 0 ] || fail "client 0 exited $r0"
[ $rs -eq 0 ] || fail "server exited $rs"
grep -q "^fake host: ok" "$work/fake.out" || fail "fake host did not finish"
grep -q "^rank 0 of 2 ok" "$work/client0.out" || fail "rank 0 did not finish"
echo "ok"
