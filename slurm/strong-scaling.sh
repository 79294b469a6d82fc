#!/bin/bash
# strong-scaling.sh -- the same problem on several rank counts, one SLURM job each.
#
#   slurm/strong-scaling.sh [driver options] DECK RANKS_LIST [hdem options]
#   slurm/strong-scaling.sh --wait inputs/settle.yaml 1,2,4,8 -steps 500
#   slurm/scaling-report scaling/strong -o strong.png
#
# RANKS_LIST: comma- or space-separated rank counts. Each rank count R is one job
# (`sbatch -n R slurm/hdem.sbatch DECK [hdem options] -output_dir OUT/np_R`, with
# resubmission and the periodic checkpoint off), so every run has its own summary.json.
# Prints "ranks job_id directory" per job (also in OUT/jobs.txt).
#
# Driver options:
#   --out DIR        parent of the np_<R> directories (default scaling/strong)
#   --time LIMIT     sbatch -t for every job (default: the partition's default)
#   --series         each job waits for the previous one (afterany): runs never share a
#                    node, which matters on a small or shared partition
#   --exclusive      sbatch --exclusive (whole nodes: no other jobs alongside)
#   --sbatch "ARGS"  more sbatch options for every job (word-split), e.g. "-p big -A me"
#   --wait           poll squeue until every job has ended, print each job's state and
#                    exit code, exit non-zero if one failed
#   --force          delete existing OUT/np_<R> directories first (otherwise an error:
#                    -restart auto would continue an old run)
#   --local          no SLURM: run each count in turn here, `mpirun --oversubscribe -np R
#                    HDEM run ...` (HDEM_MPIRUN_ARGS added), its output in OUT/np_<R>/run.log;
#                    jobs.txt's job column is "local"; exits non-zero if a run failed
#   --check-only     make and check every rank count's deck (hdem check), run nothing
# Environment: HDEM (binary; default build/hdem next to this slurm/ directory),
# HDEM_LAUNCHER, HDEM_SRUN_ARGS, HDEM_MPIRUN_ARGS as for hdem.sbatch.
set -u
SLURM_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")

scaling_die() { echo "${SCALING_KIND:-strong}-scaling: ERROR: $*" >&2; exit 2; }

# Parse the driver options into SC_* variables; the remaining words are in SC_ARGS.
scaling_parse() {
  SC_OUT="" SC_TIME="" SC_SERIES=0 SC_EXCL=0 SC_SBATCH="" SC_WAIT=0 SC_FORCE=0 SC_LOCAL=0 SC_CHECK_ONLY=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --out)       [ $# -ge 2 ] || scaling_die "--out needs a value"; SC_OUT=$2; shift 2 ;;
      --time|-t)   [ $# -ge 2 ] || scaling_die "--time needs a value"; SC_TIME=$2; shift 2 ;;
      --series)    SC_SERIES=1; shift ;;
      --exclusive) SC_EXCL=1; shift ;;
      --sbatch)    [ $# -ge 2 ] || scaling_die "--sbatch needs a value"; SC_SBATCH=$2; shift 2 ;;
      --wait)      SC_WAIT=1; shift ;;
      --force)     SC_FORCE=1; shift ;;
      --local)     SC_LOCAL=1; shift ;;
      --check-only) SC_CHECK_ONLY=1; shift ;;
      -h|--help)   sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      --)          shift; break ;;
      --*)         scaling_die "unknown driver option $1 (see --help)" ;;
      *)           break ;;
    esac
  done
  SC_ARGS=("$@")
}

# Rank list "1,2,4" or "1 2 4" -> SC_RANKS array of positive integers.
scaling_ranks() {
  local r
  SC_RANKS=()
  for r in ${1//,/ }; do
    [[ "$r" =~ ^[1-9][0-9]*$ ]] || scaling_die "rank count '$r' is not a positive integer"
    SC_RANKS+=("$r")
  done
  [ ${#SC_RANKS[@]} -gt 0 ] || scaling_die "empty RANKS_LIST"
}

scaling_find_hdem() {
  if [ -z "${HDEM:-}" ]; then
    local root=${HDEM_ROOT:-$(dirname "$SLURM_DIR")}
    HDEM=$root/build/hdem
  fi
  [ -x "$HDEM" ] || scaling_die "no hdem binary at $HDEM: set HDEM=/path/to/hdem"
  export HDEM=$(readlink -f "$HDEM")
}

# scaling_submit R DIR HDEM_ARGS...: one job; prints its id.
SC_PREV=""
SC_JOBS=()
scaling_submit() {
  local r=$1 dir=$2; shift 2
  if [ "$SC_CHECK_ONLY" = 1 ]; then printf '%s\t%s\t%s\n' "$r" none "$dir" | tee -a "$SC_OUT/jobs.txt"; return; fi
  if [ "$SC_LOCAL" = 1 ]; then scaling_run_local "$r" "$dir" "$@"; return; fi
  local sb=(--parsable -n "$r" -J "hdem-${SCALING_KIND}-np$r" -o "$dir/slurm-%j.out")
  [ -n "$SC_TIME" ] && sb+=(-t "$SC_TIME")
  [ "$SC_EXCL" = 1 ] && sb+=(--exclusive)
  [ "$SC_SERIES" = 1 ] && [ -n "$SC_PREV" ] && sb+=(--dependency="afterany:$SC_PREV")
  sb+=($SC_SBATCH)
  local jid
  jid=$(HDEM_RESUBMIT=0 HDEM_CHECKPOINT_WALLTIME=0 sbatch "${sb[@]}" "$SLURM_DIR/hdem.sbatch" "$@" -output_dir "$dir") ||
    scaling_die "sbatch failed for $r ranks"
  jid=${jid%%;*}
  SC_PREV=$jid
  SC_JOBS+=("$jid")
  printf '%s\t%s\t%s\n' "$r" "$jid" "$dir" | tee -a "$SC_OUT/jobs.txt"
}

# scaling_run_local R DIR HDEM_ARGS...: run now with mpirun, no SLURM; a failure is remembered.
SC_LOCAL_FAILED=0
scaling_run_local() {
  local r=$1 dir=$2 rc; shift 2
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --oversubscribe -np "$r" ${HDEM_MPIRUN_ARGS:-} "$HDEM" run "$@" -output_dir "$dir" > "$dir/run.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] ||
    { SC_LOCAL_FAILED=1; echo "${SCALING_KIND}-scaling: $r ranks failed (exit $rc), see $dir/run.log" >&2; }
  printf '%s\t%s\t%s\n' "$r" local "$dir" | tee -a "$SC_OUT/jobs.txt"
}

scaling_prepare_dir() {   # scaling_prepare_dir DIR
  if [ -e "$1" ]; then
    [ "$SC_FORCE" = 1 ] || scaling_die "$1 exists (it would be continued by -restart auto): remove it, use another --out, or --force"
    rm -rf -- "$1"
  fi
  mkdir -p "$1" || scaling_die "cannot create $1"
}

# Poll squeue (sbatch --wait is slow: it polls after 2, 8, 32 s ...) until all jobs ended.
scaling_wait() {
  local ids failed=0 j info state code
  ids=$(IFS=,; echo "${SC_JOBS[*]}")
  echo "waiting for jobs $ids ..."
  while squeue -h -j "$ids" -t PD,R,CG,CF,S 2>/dev/null | grep -q .; do sleep 1; done
  for j in "${SC_JOBS[@]}"; do
    info=$(scontrol show job "$j" 2>/dev/null)
    state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$info")
    code=$(sed -n 's/.*[[:space:]]ExitCode=\([0-9:]*\).*/\1/p' <<<"$info" | head -1)
    echo "job $j: ${state:-unknown} exit ${code:-?}"
    [ "$state" = COMPLETED ] && [ "$code" = 0:0 ] || failed=1
  done
  [ "$failed" = 0 ] || { echo "${SCALING_KIND}-scaling: some jobs failed (see $SC_OUT/np_*/slurm-*.out)" >&2; return 1; }
  echo "all jobs completed; report: $SLURM_DIR/scaling-report $SC_OUT"
}

[ "${HDEM_SCALING_LIB:-0}" = 1 ] && return 0

# --------------------------------------------------------------- strong scaling
SCALING_KIND=strong
scaling_parse "$@"
set -- "${SC_ARGS[@]}"
[ $# -ge 2 ] || scaling_die "usage: strong-scaling.sh [--wait] [--series] [--out DIR] [--time LIMIT] DECK RANKS_LIST [hdem options]"
DECK=$(readlink -f "$1") || scaling_die "no deck $1"; [ -r "$DECK" ] || scaling_die "cannot read deck $1"
scaling_ranks "$2"; shift 2
scaling_find_hdem
SC_OUT=${SC_OUT:-scaling/strong}
mkdir -p "$SC_OUT" && SC_OUT=$(readlink -f "$SC_OUT") || scaling_die "cannot create $SC_OUT"
"$HDEM" check "$DECK" "$@" > "$SC_OUT/check.txt" 2>&1 || { cat "$SC_OUT/check.txt" >&2; scaling_die "hdem check rejected the deck"; }
grep '^particles' "$SC_OUT/check.txt"
: > "$SC_OUT/jobs.txt"
for r in "${SC_RANKS[@]}"; do
  dir=$SC_OUT/np_$r
  scaling_prepare_dir "$dir"
  scaling_submit "$r" "$dir" "$DECK" "$@"
done
[ "$SC_CHECK_ONLY" = 1 ] && exit 0
[ "$SC_LOCAL" = 1 ] && exit "$SC_LOCAL_FAILED"
[ "$SC_WAIT" = 1 ] && { scaling_wait || exit 1; }
exit 0
