#!/bin/bash
# Two hdem builds against each other for speed: alternating pairs of runs of
# the chute and settle benchmark decks (bench/chute.yaml, bench/settle.yaml, no
# snapshots) at 1 and 2 ranks, or the hopper (bench/hopper.yaml, CASES="hopper 2") (the order within a pair alternates too),
# particle-steps per second from summary.json, the ratio new / old of each pair
# and their median per case.  For a change that must not cost speed.
#
#   [PAIRS=N] [CASES="chute 2,settle 1"] bash bench/speed_vs.sh OLD_HDEM NEW_HDEM [chute_steps] [settle_steps] [hopper_steps]
#   (from the repository root; the states come from PEERS, default bench/peers,
#   made there on first use by bench/peers/make_states.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$(realpath "$1"); NEW=$(realpath "$2")
SC=${3:-1000}; SS=${4:-800}; SH=${5:-3000}; PAIRS=${PAIRS:-5}
PEERS=$(realpath "${PEERS:-bench/peers}")
# The states too large to keep in the repository are made on first use and kept
# (bench/peers/make_states.sh); a PEERS folder without that script must hold them.
make_states() { [ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" "$@"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
OUT=$(mktemp -d)

# The bench decks turn snapshots off (snapshot: frames: 0).  A build from before
# that key (no snapshots by default; unknown keys refused) runs a copy of the deck
# without the snapshot block; the state files are given on the command line.
deck_for() { # bin deck -> the deck that build reads
  case $("$1" run -help 2>&1) in *-snapshot_frames*) echo "$2"; return ;; esac
  mkdir -p "$OUT/decks"
  awk '/^snapshot:/ {skip = 1; next} skip && /^[ \t]/ {next} {skip = 0; print}' "$2" > "$OUT/decks/${2//\//_}"
  echo "$OUT/decks/${2//\//_}"
}

psps() { # bin np deck options... -> particle-steps/s
  local bin=$1 np=$2 deck dir=$OUT/run_$RANDOM; shift 2
  deck=$(deck_for "$bin" "$1"); shift
  $MPI -np "$np" "$bin" run "$deck" "$@" -output_dir "$dir" > "$dir.log" 2>&1
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['particle_steps_per_second'])" "$dir/summary.json"
}

IFS=, read -ra CASELIST <<< "${CASES:-chute 1,chute 2,settle 1,settle 2}"
for c in "${CASELIST[@]}"; do make_states "${c%% *}"; done
for case in "${CASELIST[@]}"; do
  set -- $case
  case "$1" in
    chute) ARGS=(bench/chute.yaml -insert_file "$PEERS/chute/data.chute_equiv" -steps "$SC" -thermo_interval 100000) ;;
    settle) ARGS=(bench/settle.yaml -insert_file "$PEERS/settle/data.settle" -steps "$SS" -thermo_interval 100000) ;;
    hopper) ARGS=(bench/hopper.yaml -insert_file "$PEERS/hopper/data.hopper_settled" -mesh0_file "$PEERS/hopper/hopper.stl" -steps "$SH" -thermo_interval 100000) ;;
    *) echo "unknown case $1" >&2; exit 2 ;;
  esac
  ratios=()
  for p in $(seq 1 "$PAIRS"); do
    if [ $((p % 2)) = 1 ]; then o=$(psps "$OLD" "$2" "${ARGS[@]}"); n=$(psps "$NEW" "$2" "${ARGS[@]}"); else n=$(psps "$NEW" "$2" "${ARGS[@]}"); o=$(psps "$OLD" "$2" "${ARGS[@]}"); fi
    ratios+=("$(/usr/bin/python3 -c "print('%.3f' % ($n / $o))")")
    printf '%s np=%s pair %d: old %.4g new %.4g ratio %s\n' "$1" "$2" "$p" "$o" "$n" "${ratios[-1]}"
  done
  printf '%s np=%s: median ratio new/old %s over %d pairs (%s)\n' "$1" "$2" "$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')" "$PAIRS" "${ratios[*]}"
done
rm -rf "$OUT"
