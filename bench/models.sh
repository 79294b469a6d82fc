#!/bin/bash
# Each contact model's time on the settle deck against its reference: the time
# loop (summary.json) of bench/settle.yaml at 1 rank, the model and its reference
# in alternating pairs (the order within a pair alternating too), the model's time
# over the reference's per pair, printed as the rows of bench/README.md's model
# table: median (range) and the issue's target.  A model that fell off the fast
# path shows here as a ratio well above 1.
#
#   [PAIRS=3] [STEPS=800] [MODELS="tsuji flores ..."] bash bench/models.sh [HDEM (default build/hdem)]
#   (from the repository root; the settle state as bench/run.sh makes it, in PEERS, default bench/peers)
set -euo pipefail
cd "$(dirname "$0")/.."
HDEM=$(realpath "${1:-build/hdem}")
PEERS=$(realpath "${PEERS:-bench/peers}")
PAIRS=${PAIRS:-3}
STEPS=${STEPS:-800}
[ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" settle
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# the deck without its restitution, for `damping: none` (which takes none)
grep -v '^  e:' bench/settle.yaml > "$OUT/settle_no_e.yaml"

# Hertz's k of the deck's pairs (E 1e7, nu 0.3, d 2 mm): (4/3) E* sqrt(R*), for the
# laws that state it themselves (the same force through their own paths)
KH=1.63813e5
HARMONIC_FORCE="-contact_separation force"
LINEAR="-contact_law linear -contact_k 2000"
# name | target | model's options | reference's options | reference's name
CASES=(
  "tsuji|1.10|-contact_damping tsuji||harmonic"
  "tsuji_marshall|1.10|-contact_damping tsuji_marshall||harmonic"
  "hunt_crossley|1.10|-contact_damping hunt_crossley||harmonic"
  "lankarani_nikravesh|1.10|-contact_damping lankarani_nikravesh||harmonic"
  "flores|1.10|-contact_damping flores||harmonic"
  "hu_guo|1.10|-contact_damping hu_guo||harmonic"
  "gonthier|1.10|-contact_damping gonthier||harmonic"
  "none|1.10|-contact_damping none @no_e||harmonic"
  "constant_damper|1.10|-contact_damping constant_damper $HARMONIC_FORCE|$HARMONIC_FORCE|harmonic, separation force"
  "harmonic_force|1.10|$HARMONIC_FORCE||harmonic, separation overlap"
  "linear_dashpot|1.10|$LINEAR -contact_damping linear_dashpot|$LINEAR|linear law, harmonic"
  "linear|—|$LINEAR||hertz"
  "power|—|-contact_law power -contact_k $KH -contact_p 1.5||hertz"
  "poly|—|-contact_law poly -contact_poly_k $KH -contact_poly_p 1.5||hertz"
  "incremental|1.10|-contact_tangential_model incremental||shear_displacement"
  "mindlin_deresiewicz|1.10|-contact_tangential_model mindlin_deresiewicz||shear_displacement"
  "tangential_damping|1.05|-contact_tangential_damping 1.0||no tangential dashpot"
  "rolling_epsd|—|-contact_mu_roll 0.1||no rolling resistance"
  "rolling_constant|—|-contact_mu_roll 0.1 -contact_rolling constant||no rolling resistance"
)
# how each is written in the table's first column
label() {
  case $1 in
    harmonic_force) echo '`separation: force` (harmonic)' ;;
    linear|power|poly) echo "\`law: $1\`" ;;
    incremental|mindlin_deresiewicz) echo "\`tangential_model: $1\`" ;;
    tangential_damping) echo '`tangential_damping: 1.0`' ;;
    rolling_epsd) echo '`mu_roll: 0.1` (epsd)' ;;
    rolling_constant) echo '`mu_roll: 0.1`, `rolling: constant`' ;;
    *) echo "\`damping: $1\`" ;;
  esac
}

loop() { # options... -> the time loop's seconds
  local deck=bench/settle.yaml args=()
  for a in "$@"; do if [ "$a" = @no_e ]; then deck=$OUT/settle_no_e.yaml; else args+=("$a"); fi; done
  "$HDEM" run "$deck" -insert_file "$PEERS/settle/data.settle" -steps "$STEPS" "${args[@]}" -output_dir "$OUT/r" \
    > "$OUT/last.log" 2>&1 || { echo "run failed: $deck ${args[*]} (log:)" >&2; tail -5 "$OUT/last.log" >&2; exit 1; }
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['parallel']['time']['total']['max'])" \
    "$OUT/r/summary.json"
}

echo "each model's loop time over its reference's, bench/settle.yaml, 1 rank, $STEPS steps, $PAIRS alternating pairs ($HDEM)"
echo "| model | reference | time ratio: median (range) | target |"
echo "|---|---|---|---|"
for c in "${CASES[@]}"; do
  IFS='|' read -r name target mopt ropt rname <<< "$c"
  if [ -n "${MODELS:-}" ] && [[ " $MODELS " != *" $name "* ]]; then continue; fi
  read -ra M <<< "$mopt"
  read -ra R <<< "$ropt"
  r=()
  for p in $(seq "$PAIRS"); do
    if [ $((p % 2)) = 1 ]; then tm=$(loop "${M[@]}"); tr=$(loop "${R[@]}")
    else tr=$(loop "${R[@]}"); tm=$(loop "${M[@]}"); fi
    r+=("$(/usr/bin/python3 -c "print('%.3f' % ($tm / $tr))")")
  done
  printf '| %s | %s | %s | %s |\n' "$(label "$name")" "$rname" \
    "$(printf '%s\n' "${r[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f (%s–%s)", m, a[1], a[NR]}')" \
    "$target"
done
