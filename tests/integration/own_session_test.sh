#!/usr/bin/env bash
# Every proc impirun starts leads a session of its own (as MPICH's Hydra
# starts them: the kernel's autogroup scheduler then gives each proc its
# own share instead of one share for the whole job), in one client and
# across clients; and a signal to impirun still reaches and ends them.
set -u
impirun=$1
# (the session id: field 6 of /proc/PID/stat; no ps needed)
mine=$(cut -d' ' -f6 /proc/$$/stat)
for args in "-np 2" "-np 3 --clients 3"; do
  # shellcheck disable=SC2086
  out=$("$impirun" $args sh -c 'echo "$$ $(cut -d" " -f6 /proc/$$/stat)"' 2>&1) || { echo "impirun $args failed: $out"; exit 1; }
  n=0
  while read -r pid sid; do
    [ "$pid" = "$sid" ] || { echo "FAIL ($args): proc $pid is in session $sid, not its own"; exit 1; }
    [ "$sid" != "$mine" ] || { echo "FAIL ($args): proc $pid in the caller's session"; exit 1; }
    n=$((n + 1))
  done <<<"$out"
  want=${args#-np }; want=${want%% *}
  [ "$n" = "$want" ] || { echo "FAIL ($args): $n procs answered, not $want: $out"; exit 1; }
done
# SIGINT to impirun (as Ctrl-C would send it to impirun alone now) ends the procs.
dir=$(mktemp -d "${TMPDIR:-/tmp}/impi_session.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$impirun" -np 2 sh -c 'echo $$ > '"$dir"'/pid.$PMIX_RANK; exec sleep 60' >/dev/null 2>&1 &
launcher=$!
for _ in $(seq 100); do [ -f "$dir/pid.0" ] && [ -f "$dir/pid.1" ] && break; sleep 0.1; done
[ -f "$dir/pid.0" ] && [ -f "$dir/pid.1" ] || { echo "FAIL: the procs did not start"; kill "$launcher"; exit 1; }
kill -INT "$launcher"
wait "$launcher"
rc=$?
[ "$rc" -ne 0 ] || { echo "FAIL: impirun exited 0 after SIGINT"; exit 1; }
for r in 0 1; do
  p=$(cat "$dir/pid.$r")
  for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$p" 2>/dev/null; then echo "FAIL: proc $p outlived impirun's SIGINT"; kill -KILL "$p"; exit 1; fi
done
echo "ok: every proc in its own session; SIGINT to impirun ends them"
