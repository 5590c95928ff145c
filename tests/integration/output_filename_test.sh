#!/usr/bin/env bash
# --output-filename DIR: each rank's stdout and stderr land in
# DIR/1/rank.R/{stdout,stderr}, nothing of theirs on the terminal.
set -u
impirun=$1 behave=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/impi_outfile.XXXXXX")
trap 'rm -rf "$dir"' EXIT
out=$("$impirun" -np 3 --output-filename "$dir/o" "$behave" output 2 2>&1) || { echo "impirun failed: $out"; exit 1; }
[ -z "$out" ] || { echo "FAIL: output reached the terminal: $out"; exit 1; }
for r in 0 1 2; do
  f=$dir/o/1/rank.$r/stdout
  [ -f "$f" ] && [ -f "$dir/o/1/rank.$r/stderr" ] || { echo "FAIL: no files for rank $r"; find "$dir"; exit 1; }
  grep -q "^rank $r line 0" "$f" || { echo "FAIL: $f lacks rank $r's lines:"; cat "$f"; exit 1; }
  grep -vq "^rank $r " "$f" && { echo "FAIL: $f has another rank's lines:"; cat "$f"; exit 1; }
done
echo "ok: every rank's output in its own files"
