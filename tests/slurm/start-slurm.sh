#!/usr/bin/env bash
# start-slurm.sh -- a one-node SLURM on localhost for tests/slurm_test.sh and CI.
#
#   tests/slurm/start-slurm.sh          (as root; Debian or Ubuntu)
#
# Installs munge and slurm-wlm if missing, writes /etc/slurm/slurm.conf, starts
# munged, slurmctld and slurmd itself (containers and CI runners often have no
# systemd, or policy-rc.d forbids apt to start services) and waits until the node
# takes jobs. Running it again while the daemons are up is a no-op unless the
# generated slurm.conf changed (then both slurm daemons are restarted).
# Environment:
#   SLURM_LOCAL_CPUS=N         CPUs to advertise (default nproc); more than the
#                              machine has lets a 2-core runner run 4-rank jobs
#   SLURM_LOCAL_MPI_DEFAULT=   none (default) or pmix: what a plain `srun prog` uses
#   SLURM_LOCAL_PARTITION=p    partition name (default debug)
#   SLURM_LOCAL_CLEAN_STATE=1  forget saved jobs and node state first
#   SLURM_LOCAL_WAIT=S         seconds to wait for the node (default 90)
# Prints "ready: node HOST is STATE" on success. tests/slurm/stop-slurm.sh undoes it.
set -euo pipefail

CPUS=${SLURM_LOCAL_CPUS:-$(nproc)}
MPIDEF=${SLURM_LOCAL_MPI_DEFAULT:-none}
PART=${SLURM_LOCAL_PARTITION:-debug}
CLEAN=${SLURM_LOCAL_CLEAN_STATE:-0}
WAIT=${SLURM_LOCAL_WAIT:-90}
CONF=/etc/slurm/slurm.conf
MARK=/run/hdem-slurm            # what this script started, for stop-slurm.sh

log() { echo "[start-slurm $(date +%T)] $*"; }
die() { echo "[start-slurm] ERROR: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (installs packages, starts daemons)"

# ---------------------------------------------------------------- packages
apt_get() {     # another apt may hold the dpkg lock (CI images update in the background)
  local i
  for i in 1 2 3; do
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q "$@" && return 0
    log "apt-get $1 failed (try $i)"; sleep 10
  done
  return 1
}
PKGS=(munge slurm-wlm slurmctld slurmd slurm-client slurm-wlm-basic-plugins)
need=0
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need=1
done
if [ "$need" = 1 ]; then
  command -v apt-get >/dev/null || die "slurm-wlm and munge are missing and there is no apt-get"
  log "installing ${PKGS[*]}"
  apt-cache show slurmctld >/dev/null 2>&1 || apt_get update
  apt_get install -y --no-install-recommends "${PKGS[@]}"
fi
# Where systemd runs, apt starts the units (and slurm's fail without a config):
# this script owns the daemons, so stop them.
[ -d /run/systemd/system ] && systemctl stop slurmd slurmctld >/dev/null 2>&1 || true
mkdir -p "$MARK"

# A pid file alone is not enough: slurmctld leaves its own behind on exit.
alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  kill -0 "$pid" 2>/dev/null && [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "$2" ]
}
stop() {
  local i
  alive "$1" "$2" || return 0
  kill "$(cat "$1")"
  for i in $(seq 1 100); do alive "$1" "$2" || return 0; sleep 0.2; done
  die "$2 did not stop"
}

# ---------------------------------------------------------------- munge
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null; then mungekey --create --keyfile=/etc/munge/munge.key --force
  else dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none; fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
fi
# systemd's RuntimeDirectory makes /run/munge; without systemd nobody does
install -d -o munge -g munge -m 0755 /run/munge
munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
if ! munge_ok; then
  log "starting munged"
  runuser -u munge -- /usr/sbin/munged
  touch "$MARK/munged"
  for i in $(seq 1 50); do munge_ok && break; sleep 0.2; done
  munge_ok || die "munge does not work (/var/log/munge/munged.log)"
fi

# ---------------------------------------------------------------- slurm.conf
# slurmd finds its node by the short host name; the addresses avoid DNS.
HOST=$(hostname -s)
REALMEM=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
SUSER=slurm
id slurm >/dev/null 2>&1 || SUSER=root
OVERRIDE=""
[ "$CPUS" -gt "$(nproc)" ] && OVERRIDE="SlurmdParameters=config_overrides"
NEW=$(mktemp)
# linuxproc and task/none: no cgroups in containers. EnforcePartLimits: an
# impossible request fails at submission instead of pending for ever.
cat > "$NEW" <<EOF
# written by hdem's tests/slurm/start-slurm.sh: a one-node test cluster
ClusterName=hdemtest
SlurmctldHost=${HOST}(127.0.0.1)
SlurmUser=${SUSER}
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=${MPIDEF}
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
EnforcePartLimits=ALL
ReturnToService=2
MailProg=/bin/true
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=300
KillWait=10
${OVERRIDE}
NodeName=${HOST} NodeAddr=127.0.0.1 CPUs=${CPUS} RealMemory=$(( ${REALMEM:-1024} * 9 / 10 )) State=UNKNOWN
PartitionName=${PART} Nodes=${HOST} Default=YES MaxTime=INFINITE State=UP
EOF
mkdir -p /etc/slurm
RESTART=$CLEAN
if ! cmp -s "$NEW" "$CONF"; then log "writing $CONF"; install -m 0644 "$NEW" "$CONF"; RESTART=1; fi
rm -f "$NEW"
install -d -o "$SUSER" -g "$SUSER" -m 0755 /var/spool/slurmctld /var/log/slurm
install -d -m 0755 /var/spool/slurmd
if [ "$RESTART" = 1 ]; then
  stop /run/slurmd.pid slurmd
  stop /run/slurmctld.pid slurmctld
fi
[ "$CLEAN" = 1 ] && rm -rf /var/spool/slurmctld/* /var/spool/slurmd/*

# ---------------------------------------------------------------- daemons
if ! alive /run/slurmctld.pid slurmctld; then log "starting slurmctld"; /usr/sbin/slurmctld; touch "$MARK/slurmctld"; fi
for i in $(seq 1 100); do scontrol ping 2>/dev/null | grep -q 'is UP' && break; sleep 0.3; done
scontrol ping 2>/dev/null | grep -q 'is UP' || { tail -20 /var/log/slurm/slurmctld.log; die "slurmctld is not up"; }
if ! alive /run/slurmd.pid slurmd; then log "starting slurmd"; /usr/sbin/slurmd; touch "$MARK/slurmd"; fi

state=""
for i in $(seq 1 $((WAIT * 2))); do
  state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null | head -1)
  case "$state" in
    idle|mixed|allocated|completing) break ;;
    down*|drain*) scontrol update NodeName="$HOST" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 0.5
done
case "$state" in
  idle|mixed|allocated|completing) ;;
  *) tail -20 /var/log/slurm/slurmd.log; die "node $HOST is '$state' after ${WAIT} s" ;;
esac
log "ready: node $HOST is $state, $CPUS CPUs, MpiDefault=$MPIDEF"
