#!/usr/bin/env bash
# Our client (fake_peer_prog as world rank 0) against fake_host (a scripted
# IMPI peer host checking every packet), through a real rendezvous server.
# Usage: fake_host_test.sh IMPIRUN FAKE_HOST FAKE_PEER_PROG
set -u
impirun=$1 fake=$2 prog=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_fake_host.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*; do echo "--- $f"; cat "$f"; done; exit 1; }
export IMPI_AUTH_KEY=4242
unset IMPI_AUTH_NONE
timeout 60 "$impirun" -server 2 --address 127.0.0.1 > "$work/server.out" 2> "$work/server.err" &
server=$!
for _ in $(seq 100); do
  addr=$(head -1 "$work/server.out" 2>/dev/null)
  [ -n "$addr" ] && break
  sleep 0.05
done
[ -n "$addr" ] || fail "the server printed no address"
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
