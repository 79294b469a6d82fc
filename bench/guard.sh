#!/bin/bash
# The erosion guard: a build against a base for speed on every path of the step, the
# sphere decks (bench/chute.yaml, bench/settle.yaml), the mesh deck (bench/hopper.yaml),
# the clump deck (bench/clumps.yaml) and, when named, the clump screen (screen:
# inputs/screening/continuous.yaml fed straight trimers, from its start), no snapshots.
# Each deck runs at the two builds in alternating pairs (the order within a pair
# alternates too, so a load that drifts over the run favours neither), and the median
# of the pairs' ratios is printed per deck: the time loop's (particle-steps per second
# from summary.json), the whole process's (start-up, reading and final.h5 included,
# from the wall clock) and its CPU time's (user + system of every rank, which other
# workers' load disturbs less than the wall clock).  Ratios are HEAD over BASE in
# speed: above 1 HEAD is faster.  The machine is shared and noisy: a single pair says
# little, the median of five (PAIRS) is what the bench log keeps.
#
#   [PAIRS=5] [RANKS="1"] [DECKS="chute settle hopper clumps [screen]"] [STEPS="chute=1000 ..."] \
#   [BASE_OPTS="..."] [HEAD_OPTS="..."] \
#     bash bench/guard.sh BASE_HDEM [HEAD_HDEM (default build/hdem) [options for both builds...]]
#   (from the repository root; the states come from PEERS, default bench/peers, made
#   there on first use by bench/peers/make_states.sh; the hopper's needs Debian's liggghts)
#
# Options after the two builds go to every run of both (e.g. -contact_damping tsuji to
# guard that law's path); BASE_OPTS and HEAD_OPTS to one side's runs only, so one build
# against itself compares two models (HEAD_OPTS="-contact_damping tsuji": that law's cost
# over the deck's own).  It runs the loop bench/speed_vs.sh runs, with the clumps and the
# whole process besides.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,25p' "$0" >&2; exit 2; }
BASE=$(realpath "$1"); HEAD=$(realpath "${2:-build/hdem}"); shift $(($# >= 2 ? 2 : 1))
EXTRA=("$@")
read -ra BOPTS <<< "${BASE_OPTS:-}"
read -ra HOPTS <<< "${HEAD_OPTS:-}"
PAIRS=${PAIRS:-5}
PEERS=$(realpath "${PEERS:-bench/peers}")
declare -A NSTEPS=([chute]=1000 [settle]=800 [hopper]=3000 [clumps]=1000 [screen]=60000)
for kv in ${STEPS:-}; do NSTEPS[${kv%%=*}]=${kv#*=}; done
make_states() { [ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" "$@"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# A build from before -snapshot_frames (no snapshots by default, unknown keys refused)
# reads a copy of the deck without its snapshot block.
deck_for() { # bin deck -> the deck that build reads
  case $("$1" run -help 2>&1) in *-snapshot_frames*) echo "$2"; return ;; esac
  mkdir -p "$OUT/decks"
  awk '/^snapshot:/ {skip = 1; next} skip && /^[ \t]/ {next} {skip = 0; print}' "$2" > "$OUT/decks/${2//\//_}"
  echo "$OUT/decks/${2//\//_}"
}

deck_args() { # deck -> ARGS: its deck file and state files
  case "$1" in
    chute) ARGS=(bench/chute.yaml -insert_file "$PEERS/chute/data.chute_equiv") ;;
    settle) ARGS=(bench/settle.yaml -insert_file "$PEERS/settle/data.settle") ;;
    hopper) ARGS=(bench/hopper.yaml -insert_file "$PEERS/hopper/data.hopper_settled" -mesh0_file "$PEERS/hopper/hopper.stl") ;;
    clumps) ARGS=(bench/clumps.yaml -insert_file "$PEERS/clumps/data.clumps") ;;
    screen) ARGS=(inputs/screening/continuous.yaml -stream0_body clump0 -clump0_spheres -1,0,0,1,0,0,0,1,1,0,0,1
                  -steps "${NSTEPS[$1]}" -thermo_interval_time 1)
            return ;;
    *) echo "unknown deck $1 (chute, settle, hopper, clumps, screen)" >&2; exit 2 ;;
  esac
  ARGS+=(-steps "${NSTEPS[$1]}" -thermo_interval 100000)
}

run() { # bin np deck options... -> "particle-steps/s wall-seconds cpu-seconds"
  local bin=$1 np=$2 deck dir=$OUT/run_$RANDOM$RANDOM; shift 2
  deck=$(deck_for "$bin" "$1"); shift
  if ! /usr/bin/time -f "%e %U %S" -o "$dir.time" $MPI -np "$np" "$bin" run "$deck" "$@" "${EXTRA[@]}" -output_dir "$dir" > "$dir.log" 2>&1; then
    echo "run failed: $bin $deck (log $dir.log)" >&2; tail -5 "$dir.log" >&2; exit 1
  fi
  /usr/bin/python3 -c "import json,sys; e,u,s=open(sys.argv[2]).read().split()[-3:]; print(json.load(open(sys.argv[1]))['particle_steps_per_second'], e, float(u) + float(s))" "$dir/summary.json" "$dir.time"
  rm -rf "$dir" "$dir.log" "$dir.time"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

read -ra DECKLIST <<< "${DECKS:-chute settle hopper clumps}"
for d in "${DECKLIST[@]}"; do [ "$d" = screen ] || make_states "$d"; done
echo "guard: HEAD $HEAD${HOPTS[*]:+ (${HOPTS[*]})} against BASE $BASE${BOPTS[*]:+ (${BOPTS[*]})}, $PAIRS alternating pairs${EXTRA[*]:+, options ${EXTRA[*]}}"
summary=()
for np in ${RANKS:-1}; do
  for d in "${DECKLIST[@]}"; do
    deck_args "$d"
    loop=(); whole=(); cpu=()
    for p in $(seq 1 "$PAIRS"); do
      if [ $((p % 2)) = 1 ]; then
        read -r bl bw bc < <(run "$BASE" "$np" "${ARGS[@]}" "${BOPTS[@]}"); read -r hl hw hc < <(run "$HEAD" "$np" "${ARGS[@]}" "${HOPTS[@]}")
      else
        read -r hl hw hc < <(run "$HEAD" "$np" "${ARGS[@]}" "${HOPTS[@]}"); read -r bl bw bc < <(run "$BASE" "$np" "${ARGS[@]}" "${BOPTS[@]}")
      fi
      loop+=("$(/usr/bin/python3 -c "print('%.3f' % ($hl / $bl))")")
      whole+=("$(/usr/bin/python3 -c "print('%.3f' % ($bw / $hw))")")
      cpu+=("$(/usr/bin/python3 -c "print('%.3f' % ($bc / $hc))")")
      printf '%s np=%s pair %d: loop base %.4g head %.4g ps/s (%s), whole base %.2f head %.2f s (%s), cpu base %.2f head %.2f s (%s)\n' \
        "$d" "$np" "$p" "$bl" "$hl" "${loop[-1]}" "$bw" "$hw" "${whole[-1]}" "$bc" "$hc" "${cpu[-1]}"
    done
    summary+=("$(printf '%-7s np=%s  loop %s (%s)  whole %s (%s)  cpu %s (%s)' "$d" "$np" \
      "$(printf '%s\n' "${loop[@]}" | median)" "${loop[*]}" "$(printf '%s\n' "${whole[@]}" | median)" "${whole[*]}" \
      "$(printf '%s\n' "${cpu[@]}" | median)" "${cpu[*]}")")
  done
done
echo "median speed ratio HEAD/BASE per deck over $PAIRS pairs (>1: HEAD faster), the pairs' ratios in brackets:"
printf '%s\n' "${summary[@]}"
