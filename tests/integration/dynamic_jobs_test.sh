#!/usr/bin/env bash
# Two separately launched jobs (two impirun invocations) meet:
#  1. through a port name passed in a file (accept: 2 procs, connect: 3);
#  2. through MPI_Comm_join over a TCP socket on 127.0.0.1;
#  3. through a name one publishes and the other looks up (IMPI_NAME_DIR
#     shared by the two impiruns); the directory must be empty afterwards.
# Both sides must finish cleanly, with every rank's "ok" line.
set -u
impirun=$1 prog=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/impi_dynjobs.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
run_pair() {  # name, server args, client args, server np, client np (the environment passes on)
  local name=$1 sargs=$2 cargs=$3 snp=$4 cnp=$5
  "$impirun" -np "$snp" --timeout 60 $prog $sargs > "$dir/$name.srv" 2>&1 &
  local spid=$!
  "$impirun" -np "$cnp" --timeout 60 $prog $cargs > "$dir/$name.cli" 2>&1
  local crc=$?
  wait $spid
  local src=$?
  echo "--- $name: server exit $src, client exit $crc"
  cat "$dir/$name.srv" "$dir/$name.cli"
  [ $src = 0 ] && [ $crc = 0 ] || { echo "FAIL: $name exit codes"; fail=1; }
  for r in $(seq 0 $((snp - 1))); do
    grep -q "^server $r of $snp ok" "$dir/$name.srv" || { echo "FAIL: $name: no 'server $r of $snp ok'"; fail=1; }
  done
  for r in $(seq 0 $((cnp - 1))); do
    grep -q "^rank $r of $cnp ok" "$dir/$name.cli" || { echo "FAIL: $name: no 'rank $r of $cnp ok'"; fail=1; }
  done
}
run_pair port "accept $dir/port" "connect $dir/port" 2 3
run_pair join "joinsrv $dir/join" "joincli $dir/join" 1 1
mkdir "$dir/names"
IMPI_NAME_DIR=$dir/names run_pair names "pubsrv" "pubcli" 2 2
[ -z "$(ls -A "$dir/names")" ] || { echo "FAIL: names left in IMPI_NAME_DIR: $(ls "$dir/names")"; fail=1; }
[ $fail = 0 ] && echo "ok: every pair of jobs met and finished"
exit $fail
