#!/usr/bin/env bash
# A job of three separately started clients where client 1 takes only
# external32 (IMPI_WIDE_DATAREP=0: it lists only IMPI 0.0, as LAM/MPI or
# any other implementation does): clients 0 and 2 still move longs whole
# between them (impi-wide, per pair), and with client 1 a long that 4 bytes
# cannot hold fails at its sender (MPI_ERR_CONVERSION) while what fits
# arrives. Usage: datarep_mixed_test.sh IMPIRUN DATAREP_CHECK
set -u
impirun=$1 prog=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_datarep.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*; do echo "--- $f"; cat "$f"; done; exit 1; }
export IMPI_AUTH_KEY=4321
unset IMPI_AUTH_NONE
timeout 60 "$impirun" -server 3 --address 127.0.0.1 > "$work/server.out" 2> "$work/server.err" &
for _ in $(seq 600); do
  addr=$(head -1 "$work/server.out" 2>/dev/null)
  [ -n "$addr" ] && break
  sleep 0.05
done
[ -n "$addr" ] || fail "the server printed no address"
IMPI_SHOW_JOB=1 timeout 60 "$impirun" -client 0 "$addr" --address 127.0.0.1 -np 2 "$prog" mixed 1 \
  > "$work/c0.out" 2> "$work/c0.err" &
c0=$!
IMPI_WIDE_DATAREP=0 timeout 60 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 1 "$prog" mixed 1 \
  > "$work/c1.out" 2> "$work/c1.err" &
c1=$!
timeout 60 "$impirun" -client 2 "$addr" --address 127.0.0.3 -np 2 "$prog" mixed 1 \
  > "$work/c2.out" 2> "$work/c2.err" &
c2=$!
for p in $c0 $c1 $c2; do wait $p || fail "a client exited $?"; done
cat "$work"/c*.out > "$work/all"
for r in 0 1 2 3 4; do grep -q "^rank $r of 5 ok" "$work/all" || fail "rank $r not ok"; done
grep -q "^impi-job\[0\] version=0.0 .* wide_clients=0x5$" "$work/all" ||
  fail "the job is not IMPI 0.0 with impi-wide between clients 0 and 2"
echo "datarep mixed: ok"
