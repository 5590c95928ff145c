#!/usr/bin/env bash
# two-clients.sh - an IMPI job the way the IMPI spec's example (2.2.3)
# runs one: a server for 2 clients, then each client started on its own
# (here in the background; on real machines, in two terminals or on two
# hosts), each with its own processes. They meet at the server, form one
# MPI_COMM_WORLD of 3 + 2 ranks, run the program and finish.
# Usage: examples/two-clients.sh [build-dir] [program args...]
set -eu
build=${1:-build}
shift || true
prog=${1:-$build/examples/pi}
shift || true
export IMPI_AUTH_KEY=${IMPI_AUTH_KEY:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}  # shared by all three
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$build/bin/impirun" -server 2 --address 127.0.0.1 > "$out" &   # prints its address
server=$!
while [ ! -s "$out" ]; do sleep 0.05; done
addr=$(head -1 "$out")
echo "server listening at $addr"
"$build/bin/impirun" -client 0 "$addr" -np 3 "$prog" "$@" &        # client 0: ranks 0-2
c0=$!
"$build/bin/impirun" -client 1 "$addr" --address 127.0.0.2 -np 2 "$prog" "$@" &  # client 1: ranks 3-4
c1=$!
wait $c0 $c1 $server
echo "all done"
