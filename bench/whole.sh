#!/bin/bash
# hdem beside its peer on each bench deck, the whole process (start-up, reading the
# state, the steps, the final state) by the wall clock, with the peer's own damping law
# where hdem has it: settle and clumps `tsuji_marshall` for the peer's `damping tsuji`
# (Marshall's fit for e 0.5, as the peer's deck gives it) with a tangential dashpot
# (ζ_t 0.5: the path, not the peer's coefficient); the hopper `tsuji` for LIGGGHTS's Hertz
# damping from e 0.5; the chute harmonic (e 0.9917, contact ending at zero overlap) for
# LAMMPS's gran/hertz/history.  Alternating pairs, the median of the pairs' ratios
# (peer time over hdem time: above 1 hdem is faster) per deck and rank count.
#
#   [PAIRS=3] [RANKS="1 2"] [DECKS="chute settle hopper clumps"] bash bench/whole.sh [HDEM (default build/hdem)]
#   (from the repository root; the states as bench/run.sh makes them, in PEERS, default bench/peers)
set -euo pipefail
cd "$(dirname "$0")/.."
HDEM=$(realpath "${1:-build/hdem}")
PEERS=$(realpath "${PEERS:-bench/peers}")
PAIRS=${PAIRS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
make_states() { [ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" "$@"; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
TD=(-contact_tangential_damping 0.5)

timed() { # dir program... -> wall seconds
  local dir=$1; shift
  (cd "$dir" && /usr/bin/time -f %e -o "$OUT/t" "$@" > "$OUT/last.log" 2>&1) ||
    { echo "run failed: $* (log $OUT/last.log)" >&2; tail -5 "$OUT/last.log" >&2; exit 1; }
  cat "$OUT/t"
}

pair() { # deck np -> "hdem-seconds peer-seconds"
  local d=$1 np=$2 h p
  case "$d" in
    chute)
      h=$(timed . $MPI -np "$np" "$HDEM" run bench/chute.yaml -insert_file "$PEERS/chute/data.chute_equiv" \
        -steps 2000 -output_dir "$OUT/h")
      p=$(timed "$PEERS/chute" $MPI -np "$np" lmp -in in.chute_bench -var nsteps 2000 -var model hertz -log "$OUT/l") ;;
    settle)
      h=$(timed . $MPI -np "$np" "$HDEM" run bench/settle.yaml -insert_file "$PEERS/settle/data.settle" -steps 1500 \
        -contact_damping tsuji_marshall -contact_e 0.5 "${TD[@]}" -output_dir "$OUT/h")
      p=$(timed "$PEERS/settle" $MPI -np "$np" lmp -in in.settle_lammps -var nsteps 1500 -log "$OUT/l") ;;
    hopper)
      h=$(timed . $MPI -np "$np" "$HDEM" run bench/hopper.yaml -insert_file "$PEERS/hopper/data.hopper_settled" \
        -mesh0_file "$PEERS/hopper/hopper.stl" -steps 10000 -contact_damping tsuji -output_dir "$OUT/h")
      p=$(timed "$PEERS/hopper" $MPI -np "$np" liggghts -in in.hopper_liggghts -var ndis 10000 \
        -var dfile "$OUT/dis.txt" -log "$OUT/l") ;;
    clumps)
      h=$(timed . $MPI -np "$np" "$HDEM" run bench/clumps.yaml -insert_file "$PEERS/clumps/data.clumps" -steps 2000 \
        -contact_damping tsuji_marshall -contact_e 0.5 "${TD[@]}" -output_dir "$OUT/h")
      p=$(timed "$PEERS/clumps" $MPI -np "$np" lmp -in in.clumps_lammps -var nsteps 2000 -var final "$OUT/f.data" \
        -log "$OUT/l") ;;
    *) echo "unknown deck $d (chute, settle, hopper, clumps)" >&2; exit 2 ;;
  esac
  rm -rf "$OUT/h"
  echo "$h $p"
}

read -ra DECKLIST <<< "${DECKS:-chute settle hopper clumps}"
for d in "${DECKLIST[@]}"; do make_states "$d"; done
echo "whole process, peer time / hdem time ($HDEM), $PAIRS alternating pairs"
for np in ${RANKS:-1 2}; do
  for d in "${DECKLIST[@]}"; do
    r=()
    for _ in $(seq "$PAIRS"); do
      read -r h p < <(pair "$d" "$np")
      r+=("$(/usr/bin/python3 -c "print('%.2f' % ($p / $h))")")
      printf '%s np=%s: hdem %s s, peer %s s\n' "$d" "$np" "$h" "$p"
    done
    printf '%-7s np=%s  median %s (%s)\n' "$d" "$np" \
      "$(printf '%s\n' "${r[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')" "${r[*]}"
  done
done
