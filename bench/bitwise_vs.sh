#!/bin/bash
# Two hdem builds against each other, bitwise: the final states (hdem diff, by id)
# and thermo.csv (less its wall-clock column) of the chute and settle benchmark
# decks (bench/chute.yaml, bench/settle.yaml) and of the rank-count test deck, at
# 1-4 ranks, on the fused contact path (Hertz, harmonic damping; the chute with
# separation at zero overlap, the settle with the force clipped) and the generic one
# (other damping and laws), plus hdem impact's JSON.  For a change that must not
# move a bit (a refactoring).  No snapshots: a build that knows -snapshot_frames
# runs with it at 0 (the bench decks say so too); an older one (no snapshots by
# default, unknown keys refused) reads the bench decks without their snapshot block.
#
#   [RANKS="1 2"] bash bench/bitwise_vs.sh OLD_HDEM NEW_HDEM [chute_steps] [settle_steps]
#   (RANKS: the rank counts, default 1 2 3 4)
#   (from the repository root; the states come from PEERS, default bench/peers,
#   made there on first use by bench/peers/make_states.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
OLD=$(realpath "$1"); NEW=$(realpath "$2")
SC=${3:-300}; SS=${4:-300}
PEERS=$(realpath "${PEERS:-bench/peers}")
# The states too large to keep in the repository are made on first use and kept
# (bench/peers/make_states.sh); a PEERS folder without that script must hold them.
make_states() { [ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" "$@"; }
make_states chute settle clumps
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
OUT=$(mktemp -d)
pass=0; fail=0

# bin -> 1 if it knows -snapshot_frames (and writes snapshots unless told not to)
knows_snapshots() { case $("$1" run -help 2>&1) in *-snapshot_frames*) echo 1 ;; *) echo 0 ;; esac; }
SNAP_old=$(knows_snapshots "$OLD"); SNAP_new=$(knows_snapshots "$NEW")
mkdir -p "$OUT/decks"

# case name, ranks, deck, options...  The cuts are balanced by count: the
# time mode's cuts follow the wall clock, and thermo's energy sums (not the
# state) follow the cuts in their last bit.
one() {
  local name=$1 np=$2 deck=$3; shift 3
  local ok=1
  for v in old new; do
    local bin=$OLD snap=$SNAP_old d=$deck; [ $v = new ] && bin=$NEW snap=$SNAP_new
    local opts=()
    if [ "$snap" = 1 ]; then
      opts=(-snapshot_frames 0)
    elif grep -q '^snapshot:' "$deck"; then # the deck less that block (state files are on the command line)
      d=$OUT/decks/${deck//\//_}
      awk '/^snapshot:/ {skip = 1; next} skip && /^[ \t]/ {next} {skip = 0; print}' "$deck" > "$d"
    fi
    if ! $MPI -np "$np" "$bin" run "$d" -output_dir "$OUT/$v/$name.$np" -balance_mode count "${opts[@]}" "$@" > "$OUT/$v.$name.$np.log" 2>&1; then
      echo "FAIL $name np=$np: $v run failed ($OUT/$v.$name.$np.log)"; fail=$((fail + 1)); return
    fi
  done
  "$NEW" diff "$OUT/old/$name.$np/final.h5" "$OUT/new/$name.$np/final.h5" > "$OUT/diff.$name.$np.json" 2>&1 || ok=0
  if ! cmp -s <(cut -d, -f1-10 "$OUT/old/$name.$np/thermo.csv") <(cut -d, -f1-10 "$OUT/new/$name.$np/thermo.csv"); then ok=0; echo "  thermo.csv differs"; fi
  if [ $ok = 1 ]; then echo "PASS $name np=$np"; pass=$((pass + 1)); else echo "FAIL $name np=$np: $(head -c 400 "$OUT/diff.$name.$np.json")"; fail=$((fail + 1)); fi
}

CHUTE=(-insert_file "$PEERS/chute/data.chute_equiv" -steps "$SC" -thermo_interval 50)
SETTLE=(-insert_file "$PEERS/settle/data.settle" -steps "$SS" -thermo_interval 50)
BW=tests/data/bitwise.yaml
GENERIC_TSUJI=(-contact_damping tsuji)
GENERIC_LINEAR=(-contact_law linear -contact_k 2000 -contact_damping linear_dashpot -contact_separation overlap)
# the models whose arithmetic has paths of its own in the lanes: the calibrated constant damper, the
# Mindlin-Deresiewicz spring, rolling resistance
CDAMP=(-contact_damping constant_damper -contact_separation force)
MD=(-contact_tangential_stiffness mindlin -contact_tangential_model mindlin_deresiewicz)
ROLL=(-contact_mu_roll 0.1)
# multi-sphere bodies: the dumbbells; three shapes with the adaptive step and walls
CLUMPS=(-insert_file "$PEERS/clumps/data.clumps" -steps "$SS" -thermo_interval 50)
for np in ${RANKS:-1 2 3 4}; do
  one chute "$np" bench/chute.yaml "${CHUTE[@]}"
  one chute_tsuji "$np" bench/chute.yaml "${CHUTE[@]}" "${GENERIC_TSUJI[@]}"
  one settle "$np" bench/settle.yaml "${SETTLE[@]}"
  one settle_tsuji "$np" bench/settle.yaml "${SETTLE[@]}" "${GENERIC_TSUJI[@]}"
  one settle_cdamp "$np" bench/settle.yaml "${SETTLE[@]}" "${CDAMP[@]}"
  one settle_md "$np" bench/settle.yaml "${SETTLE[@]}" "${MD[@]}"
  one settle_roll "$np" bench/settle.yaml "${SETTLE[@]}" "${ROLL[@]}"
  one clumps "$np" bench/clumps.yaml "${CLUMPS[@]}"
  one clumps_tsuji_td "$np" bench/clumps.yaml "${CLUMPS[@]}" -contact_damping tsuji_marshall -contact_e 0.5 \
    -contact_tangential_damping 0.5
  one clumps_cdamp "$np" bench/clumps.yaml "${CLUMPS[@]}" "${CDAMP[@]}"
  one clumps_md "$np" bench/clumps.yaml "${CLUMPS[@]}" "${MD[@]}"
  one clumps_roll "$np" bench/clumps.yaml "${CLUMPS[@]}" "${ROLL[@]}"
  one clumps_mixed "$np" inputs/clumps.yaml -steps "$SS" -thermo_interval 50
  one bitwise "$np" $BW -steps 2000
  one bitwise_fixed "$np" $BW -steps 2000 -timestep_mode fixed -timestep_dt 5e-7
  one bitwise_tsuji "$np" $BW -steps 2000 "${GENERIC_TSUJI[@]}"
  one bitwise_linear "$np" $BW -steps 2000 "${GENERIC_LINEAR[@]}"
  one bitwise_hc_overlap "$np" $BW -steps 2000 -contact_damping hunt_crossley -contact_separation overlap -contact_mu 0.3 -contact_tangential_stiffness constant -contact_kt 500
  one bitwise_walled "$np" $BW -steps 2000 -domain_periodic false,true,false -balance_mode count -balance_interval 20
done
for args in "-impact_v0 1" "-impact_v0 0.3 -contact_law power -contact_k 1e6 -contact_p 1.7 -contact_damping tsuji" "-impact_v0 2 -contact_separation overlap"; do
  # shellcheck disable=SC2086
  # every field the old build prints, the same in the new one's JSON (which may add fields)
  "$OLD" impact $args > "$OUT/impact_old.json" 2>&1
  "$NEW" impact $args > "$OUT/impact_new.json" 2>&1
  if /usr/bin/python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(any(b.get(k, object()) != v for k, v in a.items()))' \
       "$OUT/impact_old.json" "$OUT/impact_new.json"; then echo "PASS impact $args"; pass=$((pass + 1)); else echo "FAIL impact $args"; fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed (outputs in $OUT)"
[ $fail = 0 ]
