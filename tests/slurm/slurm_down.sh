#!/usr/bin/env bash
# slurm_down.sh - stop the test cluster started by slurm_up.sh: cancel all
# jobs, stop every slurmd, slurmctld and munged (by their pid files only).
# Leaves packages, config and logs in place (IMPI_SLURM_PURGE=1 also removes
# $IMPI_SLURM_DIR and our /etc/slurm/slurm.conf symlink).
# IMPI_SLURM_KEEP_MUNGE=1 leaves munged running.
set -uo pipefail

dir=${IMPI_SLURM_DIR:-/tmp/impi-slurm}
export SLURM_CONF=$dir/etc/slurm.conf

log() { echo "slurm_down: $*"; }
# alive PID COMM: a live (non-zombie) process PID named COMM. A dead daemon can
# stay a zombie for seconds where PID 1 is slow to reap orphans.
alive() {
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
  local st
  st=$(sed 's/^.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
  [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
stop_pidfile() { # comm label pidfile
  local p
  p=$(cat "$3" 2>/dev/null) || return 0
  if [ -n "$p" ] && alive "$p" "$1"; then
    log "stopping $2 (pid $p)"
    kill -TERM "$p" 2>/dev/null
    for _ in $(seq 100); do alive "$p" "$1" || break; sleep 0.05; done
    if alive "$p" "$1"; then log "$2 still alive, SIGKILL"; kill -KILL "$p" 2>/dev/null; fi
  fi
  rm -f "$3"
}

if [ -f "$SLURM_CONF" ] && [ -e "$dir/run/slurmctld.pid" ] && scontrol ping 2>/dev/null | grep -q 'is UP'; then
  jobs=$(squeue -h -o %i 2>/dev/null)
  if [ -n "$jobs" ]; then
    log "cancelling jobs: ${jobs//$'\n'/ }"
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null
    for _ in $(seq 100); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.1; done
  fi
fi

for f in "$dir"/run/slurmd-*.pid; do
  [ -e "$f" ] || continue
  n=${f##*/slurmd-}; n=${n%.pid}
  stop_pidfile slurmd "slurmd $n" "$f"
done
stop_pidfile slurmctld slurmctld "$dir/run/slurmctld.pid"
if [ "${IMPI_SLURM_KEEP_MUNGE:-0}" != 1 ]; then
  stop_pidfile munged munged /run/munge/munged.pid
fi

# slurmstepd outlives slurmd; after the scancel above none should be left.
# Only reported: they are not ours to kill blindly.
left=""
stepd=$(readlink -f /usr/sbin/slurmstepd 2>/dev/null || true)
for e in /proc/[0-9]*/exe; do
  if [ -z "$stepd" ] || [ "$(readlink "$e" 2>/dev/null)" != "$stepd" ]; then continue; fi
  p=${e#/proc/}; p=${p%/exe}
  st=$(sed 's/^.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null)
  [ "$st" = Z ] || left="$left $p"
done
[ -z "$left" ] || log "warning: slurmstepd still running (pids:$left); kill them by pid if they are stuck"

if [ "${IMPI_SLURM_PURGE:-0}" = 1 ]; then
  [ "$(readlink /etc/slurm/slurm.conf 2>/dev/null)" = "$SLURM_CONF" ] && rm -f /etc/slurm/slurm.conf
  rm -rf "$dir"
  log "removed $dir"
fi
log "done"
