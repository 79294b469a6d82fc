#!/bin/sh
# make_states.sh -- make the peers' benchmark states that are too large to keep in
# the repository, once, in place (bench/peers/<case>/), and leave them there as a cache.
#
#   bench/peers/make_states.sh [chute] [settle] [clumps] [hopper]    (default: all four)
#
# | case   | files                                  | made by                                      | needs                |
# |--------|----------------------------------------|----------------------------------------------|----------------------|
# | settle | data.settle (5.7 MB)                   | gen_settle.py                                | python3              |
# | clumps | data.clumps (1.6 MB)                   | gen_clumps.py                                | python3-numpy        |
# | hopper | hopper.stl, hopper_closed.stl          | gen_hopper.py                                | python3-numpy        |
# | hopper | data.hopper_settled (2.7 MB)           | liggghts -in in.hopper_prep (30,000 steps)   | Debian's liggghts    |
# | chute  | data.chute_init, data.chute_equiv (6 MB) | gen_chute.py, lmp -in in.chute_prep (70,000 steps) | Debian's lammps |
#
# The Python generators are seeded and write the same bytes every time. The two
# prepared states (chute_equiv, hopper_settled) are runs of the peer codes: another
# version or rank count of LAMMPS or LIGGGHTS gives a state of the same physics but
# not the same bits as the one bench/README.md's figures were measured on.
# PEERS_PREP_NP=N runs those preparations on N ranks (default 1). A file that exists
# is never remade: delete it to remake it.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
NP=${PEERS_PREP_NP:-1}
MPI="mpirun --oversubscribe -np $NP"
[ "$(id -u)" = 0 ] && MPI="mpirun --allow-run-as-root --oversubscribe -np $NP"
say() { echo "[make_states] $*"; }
need() { command -v "$1" >/dev/null || { say "$2 needs $1 (Debian: apt-get install $3)"; exit 1; }; }

gen() {   # gen CASE SCRIPT FILE...: run the generator in CASE/ unless every FILE exists
  c=$1; s=$2; shift 2
  for f in "$@"; do
    [ -s "$HERE/$c/$f" ] && continue
    say "$c: $s"
    (cd "$HERE/$c" && "$PY" "$s" > /dev/null)
    return
  done
}

[ $# -gt 0 ] || set -- chute settle clumps hopper
for c in "$@"; do
  case $c in
    settle) gen settle gen_settle.py data.settle ;;
    clumps) gen clumps gen_clumps.py data.clumps ;;
    hopper)
      gen hopper gen_hopper.py hopper.stl hopper_closed.stl
      if [ ! -s "$HERE/hopper/data.hopper_settled" ]; then
        need liggghts "the hopper's settled state" liggghts
        say "hopper: liggghts -in in.hopper_prep on $NP rank(s) (a few minutes)"
        (cd "$HERE/hopper" && $MPI liggghts -in in.hopper_prep -var settled data.hopper_settled.tmp \
           -log log.hopper_prep > /dev/null && mv data.hopper_settled.tmp data.hopper_settled)
      fi ;;
    chute)
      gen chute gen_chute.py data.chute_init
      if [ ! -s "$HERE/chute/data.chute_equiv" ]; then
        need lmp "the chute's developed flow" lammps
        say "chute: lmp -in in.chute_prep, 70,000 steps on $NP rank(s) (a few minutes)"
        # in.chute_prep writes data.chute_equiv itself; a run cut short leaves none
        (cd "$HERE/chute" && $MPI lmp -in in.chute_prep -var datain data.chute_init -var nprep 70000 \
           -log log.chute_prep > /dev/null) || { rm -f "$HERE/chute/data.chute_equiv"; exit 1; }
      fi ;;
    *) say "unknown case $c (chute, settle, clumps, hopper)"; exit 2 ;;
  esac
done
