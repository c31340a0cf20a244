#!/usr/bin/env bash
# From ../shared/specs/slurm-local.md (verified on these machines); used by the Slurm tests and bench/slurm.
# Stop the daemons started by start-slurm.sh, identified only by the pid files
# under $SLURM_BASE (a pid is signalled only if its /proc/<pid>/comm matches).
set -uo pipefail

BASE=${SLURM_BASE:-/tmp/assay-slurm}
export SLURM_CONF=$BASE/etc/slurm.conf
log() { echo "[stop-slurm] $*" >&2; }

alive() {  # alive <pid> <comm>
  [ -r "/proc/$1/comm" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
  [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]   # zombie = already dead
}

stop_pidfile() {  # stop_pidfile <pidfile> <comm>
  local pf=$1 name=$2 pid i
  if [ ! -s "$pf" ]; then log "$name: no pid file ($pf)"; return 0; fi
  pid=$(cat "$pf")
  if ! alive "$pid" "$name"; then log "$name: pid $pid not running (stale pid file)"; rm -f "$pf"; return 0; fi
  kill -TERM "$pid"
  for i in $(seq 100); do alive "$pid" "$name" || break; sleep 0.1; done
  if alive "$pid" "$name"; then log "$name: pid $pid ignored SIGTERM, sending SIGKILL"; kill -KILL "$pid"; fi
  rm -f "$pf"
  log "$name: stopped pid $pid"
}

# Cancel whatever is still queued/running on *this* cluster so no slurmstepd
# (and job processes) outlive slurmd.
if [ -s "$BASE/run/slurmctld.pid" ] && alive "$(cat "$BASE/run/slurmctld.pid")" slurmctld; then
  jobs=$(squeue -h -o '%A' 2>/dev/null | tr '\n' ' ')
  if [ -n "${jobs// /}" ]; then
    log "cancelling jobs: $jobs"
    scancel $jobs 2>/dev/null || true
    for i in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
fi

stop_pidfile "$BASE/run/slurmd.pid"     slurmd
stop_pidfile "$BASE/run/slurmctld.pid"  slurmctld
stop_pidfile "$BASE/munge/munged.pid"   munged
exit 0
