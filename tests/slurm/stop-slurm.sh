#!/usr/bin/env bash
# stop-slurm.sh -- undo tests/slurm/start-slurm.sh: cancel the jobs, stop slurmd and
# slurmctld, and munged if start-slurm.sh started it. Packages and slurm.conf stay.
#   SLURM_LOCAL_PURGE_STATE=1   also delete the saved job and node state and the logs
set -uo pipefail
MARK=/run/hdem-slurm
log() { echo "[stop-slurm $(date +%T)] $*"; }
[ "$(id -u)" = 0 ] || { echo "stop-slurm.sh: must run as root" >&2; exit 1; }

alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  kill -0 "$pid" 2>/dev/null && [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "$2" ]
}
stop() {
  local pid i
  alive "$1" "$2" || return 0
  pid=$(cat "$1"); log "stopping $2 (pid $pid)"; kill "$pid"
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  log "$2 ignored SIGTERM for 20 s: SIGKILL"; kill -9 "$pid" 2>/dev/null
}

# jobs first, while the controller answers, so no slurmstepd is left behind
if alive /run/slurmctld.pid slurmctld; then
  jobs=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ')
  if [ -n "${jobs// /}" ]; then
    log "cancelling jobs $jobs"; scancel $jobs 2>/dev/null
    for i in $(seq 1 60); do [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break; sleep 0.5; done
  fi
fi
stop /run/slurmd.pid slurmd
stop /run/slurmctld.pid slurmctld
# a stale slurmctld.pid makes Debian's slurmctld prerm (and so apt-get remove) fail
rm -f /run/slurmctld.pid /run/slurmd.pid "$MARK/slurmd" "$MARK/slurmctld"
if [ -e "$MARK/munged" ]; then
  stop /run/munge/munged.pid munged && rm -f "$MARK/munged"
fi
if [ "${SLURM_LOCAL_PURGE_STATE:-0}" = 1 ]; then
  rm -rf /var/spool/slurmctld/* /var/spool/slurmd/* /var/log/slurm/*.log
fi
log "done"
