#!/usr/bin/env bash
# SIGTERM to impirun ends the job: impirun exits 143, no process is left.
set -u
impirun=$1 behave=$2
"$impirun" -np 3 "$behave" sleep 60 > "${TMPDIR:-/tmp}/impi_sigterm_$$.out" 2>&1 &
pid=$!
for _ in $(seq 100); do  # wait until all three ranks are up
  [ "$(grep -c started "${TMPDIR:-/tmp}/impi_sigterm_$$.out" 2>/dev/null)" = 3 ] && break
  sleep 0.1
done
children=$(pgrep -P "$pid" | tr '\n' ' ')
[ -n "$children" ] || { echo "no children of impirun found"; kill -9 $pid; exit 1; }
kill -TERM "$pid"
wait "$pid"
rc=$?
out=$(cat "${TMPDIR:-/tmp}/impi_sigterm_$$.out"); rm -f "${TMPDIR:-/tmp}/impi_sigterm_$$.out"
echo "$out"
[ "$rc" = 143 ] || { echo "impirun exited $rc, expected 143"; exit 1; }
echo "$out" | grep -q "caught signal 15" || { echo "no message about the signal"; exit 1; }
for c in $children; do
  if kill -0 "$c" 2>/dev/null; then echo "child $c still alive"; exit 1; fi
done
echo "ok: exit 143, children gone"
