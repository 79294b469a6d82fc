#!/bin/bash
# slurm_test.sh -- end-to-end test of slurm/ against a real one-node SLURM.
#
#   tests/slurm_test.sh HDEM_BINARY SOURCE_DIR
#
# Starts SLURM with tests/slurm/start-slurm.sh (SLURM_LOCAL_CPUS=4,
# SLURM_LOCAL_MPI_DEFAULT=pmix) unless a controller already answers, then
#  (a) the signal-and-resubmit chain of slurm/hdem.sbatch with -t 1 and
#      SBATCH_SIGNAL=B:USR1@25: at least one resubmission, every job's exit code, steps
#      continuing from job to job, the final state bitwise equal (hdem diff) to an
#      uninterrupted run of the same deck, thermo.csv equal but for its wall column;
#  (b) a signal sent in the job's first second (held back until hdem can take it) and
#      the chain-length guard (HDEM_CHAIN_MAX=1: checkpoint, exit 75, no resubmission);
#  (c) strong-scaling.sh and weak-scaling.sh at 1 and 2 ranks and scaling-report (PNG,
#      two rows per series, CSV and markdown);
# and stops SLURM (tests/slurm/stop-slurm.sh) if it started it. Runs on one machine
# take turns (a lock in /run/lock). Exit 77 (skip) if not
# root, or if SLURM is missing and there is no apt-get to install it.
# Knobs: SLURM_TEST_END_TIME (simulated time of the chain's deck, default 0.3 s: about
# 65 s of one idle core here (0.12 s took 26 s), more than one job gets before its USR1
# at 5-35 s),
# SLURM_TEST_KEEP=1 keeps the work directory.
set -u
T0=$SECONDS
say()  { printf '[slurm_test %4ds] %s\n' $((SECONDS - T0)) "$*"; }
FAILS=0
pass() { say "PASS: $*"; }
fail() { say "FAIL: $*"; FAILS=$((FAILS + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

[ $# -eq 2 ] || { echo "usage: $0 HDEM_BINARY SOURCE_DIR" >&2; exit 2; }
HDEM=$(readlink -f "$1"); SRC=$(readlink -f "$2")
START=$SRC/tests/slurm/start-slurm.sh; STOP=$SRC/tests/slurm/stop-slurm.sh
if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root (start-slurm.sh installs packages and starts daemons)"; exit 77; fi
if ! command -v slurmctld >/dev/null && ! command -v apt-get >/dev/null; then
  echo "SKIP: no slurm-wlm and no apt-get (Debian/Ubuntu) to install it and munge"; exit 77
fi
[ -x "$HDEM" ] || { echo "no hdem binary at $1" >&2; exit 2; }
for f in slurm/hdem.sbatch slurm/strong-scaling.sh slurm/weak-scaling.sh slurm/scaling-report inputs/settle.yaml; do
  [ -f "$SRC/$f" ] || { echo "no $SRC/$f" >&2; exit 2; }
done
for f in "$START" "$STOP"; do [ -x "$f" ] || { echo "no executable $f" >&2; exit 2; }; done

# Two runs on one machine (two build folders) would stop SLURM under each other
# and see each other's jobs: they take turns. The daemons it starts must not
# inherit the lock (9>&- below), or it would outlive the test.
LOCK=/run/lock/hdem-slurm-test.lock
exec 9> "$LOCK"
if ! flock -w 240 9; then echo "another slurm_test.sh held $LOCK for 240 s" >&2; exit 1; fi

export HDEM OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset SBATCH_SIGNAL HDEM_CHAIN_MAX HDEM_CHAIN_ID HDEM_CHAIN_INDEX HDEM_LAUNCHER HDEM_RESUBMIT SLURM_JOB_ID
WORK=$(mktemp -d /tmp/hdem-slurm-test.XXXXXX)
JOBS=()          # every job id this test submitted or saw in its chains
STARTED=0
cleanup() {
  local live
  if [ ${#JOBS[@]} -gt 0 ]; then
    live=$(squeue -h -o %A -j "$(IFS=,; echo "${JOBS[*]}")" 2>/dev/null | tr '\n' ' ')
    [ -n "${live// /}" ] && { say "cancelling leftover jobs $live"; scancel $live 2>/dev/null; }
  fi
  if [ "$STARTED" = 1 ]; then
    say "stopping SLURM (this test started it)"
    "$STOP" > "$WORK/stop-slurm.log" 2>&1 || say "stop-slurm.sh failed (see $WORK/stop-slurm.log)"
  else
    say "leaving SLURM running (it was running before the test)"
  fi
  if [ "$FAILS" = 0 ] && [ "${SLURM_TEST_KEEP:-0}" != 1 ]; then rm -rf "$WORK"; else say "work directory kept: $WORK"; fi
}
trap cleanup EXIT
trap 'say "interrupted"; FAILS=$((FAILS + 1)); exit 1' INT TERM

# ------------------------------------------------------------------ SLURM
if scontrol ping 2>/dev/null | grep -q 'is UP'; then
  say "SLURM already running: using it"
  if ! scontrol show config 2>/dev/null | grep -q '^MpiDefault *= *pmix'; then export HDEM_SRUN_ARGS=--mpi=pmix; fi
else
  say "starting SLURM: SLURM_LOCAL_CPUS=4 SLURM_LOCAL_MPI_DEFAULT=pmix $START"
  STARTED=1
  if ! SLURM_LOCAL_CPUS=4 SLURM_LOCAL_MPI_DEFAULT=pmix "$START" 9>&- > "$WORK/start-slurm.log" 2>&1; then
    tail -20 "$WORK/start-slurm.log"; fail "start-slurm.sh"; exit 1
  fi
  say "SLURM up: $(grep -o 'ready: .*' "$WORK/start-slurm.log")"
fi
PY=/usr/bin/python3
if ! "$PY" -c 'import matplotlib, numpy' 2>/dev/null; then
  say "installing python3-matplotlib (for scaling-report)"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q install -y --no-install-recommends python3-matplotlib python3-numpy > "$WORK/apt.log" 2>&1 ||
    { tail -5 "$WORK/apt.log"; fail "apt-get install python3-matplotlib"; exit 1; }
fi

wait_jobs() {   # wait_jobs TIMEOUT ID...: poll squeue until none is queued or running
  local limit=$1 ids; shift; ids=$(IFS=,; echo "$*")
  local t=$SECONDS
  while squeue -h -j "$ids" -t PD,R,CG,CF,S 2>/dev/null | grep -q .; do
    [ $((SECONDS - t)) -ge "$limit" ] && return 1; sleep 0.5
  done
}
job_field() { scontrol show job "$1" 2>/dev/null | sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" | head -1; }

DECK=$SRC/inputs/settle.yaml
END_TIME=${SLURM_TEST_END_TIME:-0.3}
OPTS=(-insert_count 3000 -steps 1000000000 -end_time "$END_TIME" -snapshot_interval_steps 0 -progress_interval 5)

# ------------------------------------------------------------------ (a) the chain
say "(a) chain: sbatch -n 1 -t 1 (SBATCH_SIGNAL=B:USR1@25) hdem.sbatch settle.yaml ${OPTS[*]}"
mkdir -p "$WORK/chain" "$WORK/ref"
( cd "$WORK/ref" && "$HDEM" run "$DECK" "${OPTS[@]}" -output_dir "$WORK/ref/out" > run.log 2>&1; echo $? > rc ) &
REF_PID=$!
t_chain=$SECONDS
first=$(cd "$WORK/chain" && SBATCH_SIGNAL=B:USR1@25 HDEM_CHAIN_MAX=20 \
        sbatch --parsable -n 1 -t 1 -J hdem-test-chain -o "$WORK/chain/slurm-%j.out" \
        "$SRC/slurm/hdem.sbatch" "$DECK" "${OPTS[@]}" -output_dir out) || { fail "sbatch of the chain"; exit 1; }
JOBS+=("$first")
say "first job $first; uninterrupted reference run (pid $REF_PID) alongside, outside SLURM"
LOG=$WORK/chain/out/chain.log
ended=0
while [ $((SECONDS - t_chain)) -lt 300 ]; do
  if [ -f "$LOG" ]; then
    for j in $(awk -F'\t' '!/^#/ { print $3 } /resubmitted as/ { sub(/.*resubmitted as /, ""); print }' "$LOG"); do
      [[ " ${JOBS[*]} " == *" $j "* ]] || { JOBS+=("$j"); say "chain job $j"; }
    done
    if grep -qP '\t(completed|stopped: .*)$' "$LOG"; then ended=1; break; fi
  fi
  sleep 1
done
[ "$ended" = 1 ] && wait_jobs 30 "${JOBS[@]}"
say "chain ended after $((SECONDS - t_chain)) s:"; sed 's/^/    /' "$LOG" 2>/dev/null
check "the chain ended within 300 s" [ "$ended" = 1 ]
njobs=$(grep -vc '^#' "$LOG" 2>/dev/null)
nres=$(grep -c 'resubmitted as' "$LOG" 2>/dev/null)
check "at least one resubmission ($nres; $njobs jobs) -- if 0, the run fit in one job: raise SLURM_TEST_END_TIME" [ "${nres:-0}" -ge 1 ]
check "the last job completed the run (exit 0)" awk -F'\t' '!/^#/ { last = $7 "/" $10 } END { exit last != "0/completed" }' "$LOG"
check "every earlier job exited 75 and was resubmitted" awk -F'\t' '!/^#/ { n++; if (prev != "" && prev != "75/resubmitted") bad = 1; split($10, a, " "); prev = $7 "/" a[1] } END { exit bad || n < 2 }' "$LOG"
check "each job continued from the previous job's last checkpoint" awk -F'\t' '!/^#/ { if (n++ && $8 != last) bad = 1; if ($9 <= $8) bad = 1; last = $9 } END { exit bad }' "$LOG"
ok=1; for j in "${JOBS[@]}"; do
  [ "$(job_field "$j" JobState)" = COMPLETED ] && [ "$(job_field "$j" ExitCode)" = 0:0 ] || { ok=0; say "job $j: $(job_field "$j" JobState) $(job_field "$j" ExitCode)"; }
  [ -s "$WORK/chain/slurm-$j.out" ] || { ok=0; say "no $WORK/chain/slurm-$j.out"; }
done
check "every chain job COMPLETED with 0:0 and wrote slurm-<id>.out (output pattern carried over)" [ "$ok" = 1 ]
check "some job forwarded SIGUSR1 to hdem" grep -q 'forwarding SIGUSR1' "$WORK"/chain/slurm-*.out
wait "$REF_PID"; ref_rc=$(cat "$WORK/ref/rc" 2>/dev/null)
say "reference run done at $((SECONDS - t_chain)) s (exit $ref_rc)"
check "the uninterrupted reference run exited 0" [ "$ref_rc" = 0 ]
"$HDEM" diff "$WORK/chain/out/final.h5" "$WORK/ref/out/final.h5" > "$WORK/diff.json" 2>&1
sed 's/^/    /' "$WORK/diff.json" | grep -E 'identical|values_differing|step_'
check "hdem diff: the chain's final.h5 is bitwise identical to the uninterrupted run's" grep -q '"identical": true' "$WORK/diff.json"
check "summary.json of the chain says completed" grep -q '"status": "completed"' "$WORK/chain/out/summary.json"
check "thermo.csv of the chain equals the reference's (all columns but wall_seconds)" \
  cmp -s <(cut -d, -f1-10 "$WORK/chain/out/thermo.csv") <(cut -d, -f1-10 "$WORK/ref/out/thermo.csv")

# ------------------------------------------------------------------ (b) early signal, guard
say "(b) USR1 in the job's first second, HDEM_CHAIN_MAX=1"
mkdir -p "$WORK/guard"
g=$(cd "$WORK/guard" && HDEM_CHAIN_MAX=1 sbatch --parsable -n 2 -t 5 -J hdem-test-guard -o "$WORK/guard/slurm-%j.out" \
    "$SRC/slurm/hdem.sbatch" "$DECK" -insert_count 2000 -steps 1000000 -snapshot_interval_steps 0 -output_dir out) || fail "sbatch of the guard job"
JOBS+=("$g")
# as soon as the batch shell runs (its first log line), before srun has started hdem
for i in $(seq 1 240); do grep -q '\] chain ' "$WORK/guard/slurm-$g.out" 2>/dev/null && break; sleep 0.1; done
scancel --signal=USR1 --batch "$g"; say "sent USR1 to job $g's batch shell"
wait_jobs 60 "$g" || fail "the guard job did not end within 60 s"
sed 's/^/    /' "$WORK/guard/out/chain.log" 2>/dev/null
check "guard job: hdem checkpointed and exited 75, no resubmission (chain length 1 reached)" \
  grep -qP '\t75\t-1\t[0-9]+\tstopped: chain length HDEM_CHAIN_MAX=1 reached$' "$WORK/guard/out/chain.log"
check "guard job: the early signal was held back until hdem could take it" grep -q 'forwarding SIGUSR1' "$WORK"/guard/slurm-"$g".out
check "guard job: SLURM exit code 75" [ "$(job_field "$g" ExitCode)" = 75:0 ]
check "guard job: a checkpoint in out/checkpoints" bash -c "ls $WORK/guard/out/checkpoints/step_*.h5 >/dev/null"

# ------------------------------------------------------------------ (c) scaling
say "(c) strong and weak scaling at 1 and 2 ranks"
mkdir -p "$WORK/scaling"; cd "$WORK/scaling" || exit 1
t=$SECONDS
if "$SRC/slurm/strong-scaling.sh" --wait --series --time 5 --out strong "$DECK" 1,2 -insert_count 2000 -steps 300 -snapshot_interval_steps 0 > strong.log 2>&1; then
  pass "strong-scaling.sh --wait 1,2 ($((SECONDS - t)) s)"; else cat strong.log; fail "strong-scaling.sh"; fi
JOBS+=($(cut -f2 strong/jobs.txt 2>/dev/null))
t=$SECONDS
if "$SRC/slurm/weak-scaling.sh" --wait --series --grow 3d --time 5 --out weak "$DECK" 1000 1,2 -steps 300 -snapshot_interval_steps 0 > weak.log 2>&1; then
  pass "weak-scaling.sh --wait 1000/rank 1,2 ($((SECONDS - t)) s)"; else cat weak.log; fail "weak-scaling.sh"; fi
JOBS+=($(cut -f2 weak/jobs.txt 2>/dev/null))
check "strong: 2000 particles on 1 and 2 ranks" bash -c 'grep -q "\"particles\": 2000" strong/np_1/summary.json && grep -q "\"particles\": 2000" strong/np_2/summary.json && grep -q "\"ranks\": 2" strong/np_2/summary.json'
check "weak --grow 3d: 1000 and 2000 particles, the 2-rank box twice as long in x" bash -c 'grep -q "\"particles\": 1000" weak/np_1/summary.json && grep -q "\"particles\": 2000" weak/np_2/summary.json && grep -Eq "box  *\[0\.?, 0.168\]" weak/np_2/check.txt'
"$SRC/slurm/scaling-report" strong weak -o scaling.png > report.txt 2>&1; rc=$?
sed 's/^/    /' report.txt
check "scaling-report exited 0" [ "$rc" = 0 ]
check "scaling.png is a PNG" bash -c '[ "$(head -c 8 scaling.png | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]'
check "scaling.csv: 2 rows per series, ranks 1 and 2, efficiency 1 at 1 rank, imbalance from busy_seconds" "$PY" - <<'EOF'
import csv, sys
rows = list(csv.DictReader(open("scaling.csv")))
for s in ("strong", "weak"):
    rs = [r for r in rows if r["series"] == s]
    assert len(rs) == 2, (s, rs)
    assert [int(r["ranks"]) for r in rs] == [1, 2], rs
    assert rs[0]["kind"] == s and float(rs[0]["efficiency"]) == 1.0, rs[0]
    assert all(float(r["efficiency"]) > 0 and float(r["load_imbalance"]) >= 1.0 for r in rs), rs
    assert rs[1]["imbalance_from"] == "busy_seconds", rs[1]
EOF
check "scaling.md has two tables of a header and 4 rows" [ "$(grep -c '^|' scaling.md 2>/dev/null)" = 12 ]
check "scaling.csv: phases, halo bytes (none on 1 rank) and memory per rank" "$PY" - <<'EOF'
import csv
for r in csv.DictReader(open("scaling.csv")):
    assert float(r["step_ms"]) > 0 and float(r["compute_ms"]) > 0, r
    assert (float(r["halo_bytes_mean"]) > 0) == (r["ranks"] == "2"), r
    assert float(r["memory_max_mb"]) >= float(r["memory_mean_mb"]) > 1, r
EOF
cd /

say "done in $((SECONDS - T0)) s: $FAILS failure(s)"
[ "$FAILS" = 0 ]
