#!/bin/bash
# hdem beside LAMMPS on the same decks and states (../shared/peers): the chute
# (32,000 spheres, gran/hertz/history) and the settle (64,000 spheres, Hertz + Tsuji +
# Mindlin) at 1 and 2 ranks.  Prints particle-steps per second per core of the time
# loop (hdem: summary.json; LAMMPS: its "Loop time"), their ratio, and peak memory per
# particle: max RSS of a rank x ranks / particles, and the same above each code's
# start-up floor (a process that starts and exits: `hdem version`, `lmp -h`, whose
# RSS is mostly shared libraries).  room_B/part: what LAMMPS's whole peak per particle
# leaves for particles once Debian's PETSc, HDF5 and Open MPI are loaded and initialised
# (build/hdem_petsc_floor, which holds none): no code on these libraries can show less
# whole memory per particle than LAMMPS where the room is below what its particles need.
# Needs Debian's lammps.
#   [BENCH_REPEAT=N] bash bench/run.sh [chute_steps] [settle_steps]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
HDEM=${HDEM:-build/hdem}
PEERS=${PEERS:-../shared/peers}
SC=${1:-2000}; SS=${2:-1500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Both codes' shared-memory messages copied through Open MPI's segment rather than
# by the kernel's cross-memory attach: under this VM's paravirtualised kernel each
# CMA transfer is a system call that pins pages (~25 us for hdem's 100 KB halo
# messages).  Set the variable to "cma" (Open MPI's default) to measure with it.
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
command -v lmp >/dev/null || { echo "LAMMPS (lmp) not found: apt-get install lammps" >&2; exit 1; }
OUT=$(mktemp -d)

# Start-up floor of a code, in bytes: the median over three runs of the max RSS
# of a process that starts (MPI, the libraries) and exits, measured as the runs
# below are (mpirun's largest process).
floor_rss() {
  for _ in 1 2 3; do /usr/bin/time -f "%M" -o "$OUT/floor" $MPI -np 1 "$@" > /dev/null 2>&1; tail -1 "$OUT/floor"; done |
    sort -n | sed -n 2p | awk '{print $1 * 1024}'
}

hdem_run() { # deck steps np -> "psps_per_core mem_per_particle above_floor_per_particle"
  local deck=$1 steps=$2 np=$3 dir=$OUT/hdem_$(basename "$1" .yaml)_$3
  $MPI -np "$np" "$HDEM" run "$deck" -steps "$steps" -output_dir "$dir" > "$dir.log" 2>&1
  /usr/bin/python3 - "$dir/summary.json" "$np" "$HFLOOR" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); np = int(sys.argv[2]); peak = max(s["peak_memory_bytes"])
print("%.4g %.0f %.0f" % (s["particle_steps_per_second"] / np, peak * np / s["particles"], (peak - float(sys.argv[3])) * np / s["particles"]))
PY
}

lammps_run() { # dir deck np steps extra-vars... -> "psps_per_core mem_per_particle above_floor_per_particle room_per_particle"
  local dir=$1 deck=$2 np=$3 steps=$4; shift 4
  local log=$OUT/lammps_$(basename "$deck")_$np.log
  (cd "$dir" && /usr/bin/time -f "%M" -o "$log.rss" $MPI -np "$np" lmp -in "$deck" -var nsteps "$steps" "$@" -log "$log" > /dev/null 2>&1)
  /usr/bin/python3 - "$log" "$log.rss" "$np" "$LFLOOR" "$PFLOOR" <<'PY'
import re, sys
txt = open(sys.argv[1]).read(); np = int(sys.argv[3])
m = re.search(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms", txt)
t, steps, atoms = float(m.group(1)), int(m.group(3)), int(m.group(4))
rss = float(open(sys.argv[2]).read().split()[-1]) * 1024  # max RSS of the largest process (mpirun's children)
print("%.4g %.0f %.0f %.0f" % (atoms * steps / t / np, rss * np / atoms, (rss - float(sys.argv[4])) * np / atoms, (rss - float(sys.argv[5])) * np / atoms))
PY
}

# Each repetition runs every case with hdem and with LAMMPS back to back, so a
# ratio compares runs made under the same load; on a shared machine the
# median over repetitions (BENCH_REPEAT, default 1) is the figure to quote.
REPEAT=${BENCH_REPEAT:-1}
HFLOOR=$(floor_rss "$HDEM" version)
LFLOOR=$(floor_rss lmp -h)
PFLOOR=$(floor_rss "${PETSC_FLOOR:-build/hdem_petsc_floor}")
echo "Open MPI shared-memory single copy: $OMPI_MCA_btl_vader_single_copy_mechanism"
echo "start-up floor (max RSS of a process that starts and exits): hdem $((HFLOOR / 1024)) KiB, LAMMPS $((LFLOOR / 1024)) KiB;" \
  "PETSc + HDF5 + MPI initialised, no particles: $((PFLOOR / 1024)) KiB"
FMT="%-8s %-5s %-4s %14s %14s %7s %12s %12s %12s %12s %12s\n"
printf "$FMT" deck ranks rep hdem_ps/s/core lammps_ps/s/core ratio hdem_B/part lammps_B/part hdem_B/p+fl lammps_B/p+fl room_B/part | tee "$OUT/runs.txt"
row() { # deck np rep, hdem's speed mem above-floor, LAMMPS's speed mem above-floor room
  printf "$FMT" "$1" "$2" "$3" "$4" "$7" "$(awk "BEGIN{printf \"%.2f\", $4 / $7}")" "$5" "$8" "$6" "$9" "${10}" | tee -a "$OUT/runs.txt"
}
for rep in $(seq "$REPEAT"); do
  for np in 1 2; do
    read -r hc hm hf < <(hdem_run inputs/chute.yaml "$SC" "$np")
    read -r lc lm lf lr < <(lammps_run "$PEERS/chute" in.chute_bench "$np" "$SC" -var model hertz)
    row chute "$np" "$rep" "$hc" "$hm" "$hf" "$lc" "$lm" "$lf" "$lr"
    read -r hc hm hf < <(hdem_run bench/settle.yaml "$SS" "$np")
    read -r lc lm lf lr < <(lammps_run "$PEERS/settle" in.settle_lammps "$np" "$SS")
    row settle "$np" "$rep" "$hc" "$hm" "$hf" "$lc" "$lm" "$lf" "$lr"
  done
done
echo "B/part: whole peak RSS (largest rank x ranks) per particle; B/p+fl: the part above the code's start-up floor;" \
  "room_B/part: LAMMPS's B/part less the initialised libraries' share (a particle's position, velocity, angular velocity, force and torque alone take 120)"
if [ "$REPEAT" -gt 1 ]; then
  echo "median over $REPEAT repetitions (ratio: median of the side-by-side ratios, with its range):"
  /usr/bin/python3 - "$OUT/runs.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
print("%-8s %-5s %14s %14s %7s %11s %12s %12s %12s %12s %12s" % ("deck", "ranks", "hdem_ps/s/core", "lammps_ps/s/core", "ratio", "range", "hdem_B/part", "lammps_B/part", "hdem_B/p+fl", "lammps_B/p+fl", "room_B/part"))
for deck in ("chute", "settle"):
    for np in ("1", "2"):
        r = [x for x in rows if x[0] == deck and x[1] == np]
        med = lambda c: statistics.median(float(x[c]) for x in r)
        ratios = [float(x[5]) for x in r]
        print("%-8s %-5s %14.4g %14.4g %7.2f %5.2f-%-5.2f %12.0f %12.0f %12.0f %12.0f %12.0f" % (deck, np, med(3), med(4), statistics.median(ratios), min(ratios), max(ratios), med(6), med(7), med(8), med(9), med(10)))
PY
fi
echo "logs in $OUT"
