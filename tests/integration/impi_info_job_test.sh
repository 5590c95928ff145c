#!/usr/bin/env bash
# impi_info --job: while a 2-client job runs, it prints both clients'
# negotiated parameters; --job FILE prints a saved description; a file that
# is not one, or no running client, is a clear error (exit 1).
set -u
impirun=$1 impi_info=$2 behave=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_jobinfo.XXXXXX")
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
export TMPDIR=$work  # our job's session directories, and impi_info's search, stay here
"$impirun" -np 2 --clients 2 --datalen 4096 "$behave" sleep 20 > "$work/job.out" 2>&1 &
pid=$!
out=""
for _ in $(seq 100); do
  out=$("$impi_info" --job 2>&1) && [ "$(echo "$out" | grep -c '^# impi job')" = 2 ] && break
  sleep 0.1
done
echo "$out"
[ "$(echo "$out" | grep -c '^# impi job: client [01] of 2')" = 2 ] || { echo "FAIL: not both clients"; exit 1; }
echo "$out" | grep -q "clients=2 maxdatalen=4096" || { echo "FAIL: no negotiated values"; exit 1; }
echo "$out" | grep -q "^proc 1 client=1" || { echo "FAIL: no proc list"; exit 1; }
f=$(ls "$work"/impirun.*/impi-job | head -1)
cp "$f" "$work/saved"
"$impi_info" --job "$work/saved" | grep -q "clients=2" || { echo "FAIL: --job FILE"; exit 1; }
echo "garbage" > "$work/bad"
"$impi_info" --job "$work/bad" 2> "$work/err" && { echo "FAIL: garbage accepted"; exit 1; }
grep -q "not an impi job description" "$work/err" || { echo "FAIL: message: $(cat "$work/err")"; exit 1; }
kill $pid; wait $pid 2>/dev/null
TMPDIR=$work/empty; mkdir -p "$TMPDIR"
"$impi_info" --job 2> "$work/err2" && { echo "FAIL: a job found where none runs"; exit 1; }
grep -q "no IMPI client is running" "$work/err2" || { echo "FAIL: message: $(cat "$work/err2")"; exit 1; }
echo "ok: impi_info --job"
