#!/bin/bash
# hdem beside LAMMPS and LIGGGHTS on the same decks and states (bench/peers): the
# chute (bench/chute.yaml: 32,000 spheres, gran/hertz/history) and the settle
# (bench/settle.yaml: 64,000 spheres, Hertz + Tsuji + Mindlin) beside LAMMPS, the
# hopper discharge (bench/hopper.yaml: 10,000 spheres through an STL hopper of 3,072
# triangles) beside LIGGGHTS, and the dumbbell settle (bench/clumps.yaml: 8,000 rigid
# dumbbells, 16,000 spheres) beside LAMMPS's fix rigid/small, at 1 and 2 ranks, no
# snapshots.  Needs Debian's lammps and liggghts (the hopper is skipped without
# liggghts).  A body counts as its spheres: particle-steps are sphere-steps, memory is
# per sphere, in both codes.
#
# Speed: particle-steps per second per core of the time loop (hdem: summary.json;
# LAMMPS: its "Loop time") and their ratio, repeated BENCH_REPEAT times side by side.
#
# Memory, from every rank's peak RSS (each process wrapped in /usr/bin/time, both
# codes alike), summed over the ranks:
#   whole   the sum over the particles;
#   +floor  the same less each process's start-up floor (a process that starts and
#           exits: `hdem version`, `lmp -h`, mostly shared libraries);
#   room    LAMMPS's whole figure less the share of processes that only load and
#           initialise Debian's PETSc, HDF5 and Open MPI (build/hdem_petsc_floor):
#           what any code on those libraries has left per particle to match it;
#   slope   memory per particle proper: the growth of the summed peak between the
#           deck's state and the same state tiled 2 x 2 along its periodic x and y
#           (4x the particles, bench/replicate.py), over the particles added.
#           Fixed per-process costs (libraries, MPI buffers) cancel out.
#
# Discharge: the hopper run for BENCH_RATE_STEPS steps (default 50,000 = 1 s, the
# peer's) at 2 ranks by both codes, and the rate W each gives (a line fitted from 0.2 s
# to the end, with its standard error and the spread of 0.1 s windows' slopes) beside
# Beverloo's (the peer's README: rho_b 1495, D 28 mm, d 4 mm, C 0.58, k 1.5).
#
#   [BENCH_REPEAT=N] [BENCH_MEM_STEPS=S] [BENCH_RATE_STEPS=S] [BENCH_DECKS="chute settle hopper clumps"]
#     bash bench/run.sh [chute_steps] [settle_steps] [hopper_steps] [clumps_steps]
#   (from the repository root; BENCH_MEM_STEPS=0 skips the slope runs, BENCH_REPEAT=0
#   the speed runs, BENCH_DECKS the speed runs' decks)
set -euo pipefail
cd "$(dirname "$0")/.."
HDEM=$(realpath "${HDEM:-build/hdem}")
PFLOORBIN=$(realpath "${PETSC_FLOOR:-build/hdem_petsc_floor}")
PEERS=$(realpath "${PEERS:-bench/peers}")
SC=${1:-2000}; SS=${2:-1500}; SH=${3:-10000}; SK=${4:-2000}
DECKS=" ${BENCH_DECKS:-chute settle hopper clumps} "
want() { case "$DECKS" in *" $1 "*) return 0 ;; esac; return 1; }
MEMSTEPS=${BENCH_MEM_STEPS:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Both codes' shared-memory messages copied through Open MPI's segment rather than
# by the kernel's cross-memory attach: under this VM's paravirtualised kernel each
# CMA transfer is a system call that pins pages (~25 us for hdem's 100 KB halo
# messages).  Set the variable to "cma" (Open MPI's default) to measure with it.
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
MPI="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPI="$MPI --allow-run-as-root"
command -v lmp >/dev/null || { echo "LAMMPS (lmp) not found: apt-get install lammps" >&2; exit 1; }
# The states too large to keep in the repository are made on first use and kept
# (bench/peers/make_states.sh); a PEERS folder without that script must hold them.
make_states() { [ ! -x "$PEERS/make_states.sh" ] || "$PEERS/make_states.sh" "$@"; }
make_states chute settle clumps
! command -v liggghts >/dev/null || make_states hopper
OUT=$(mktemp -d)
ROOT=$PWD

# Every rank under /usr/bin/time: its peak RSS (KiB) into $RSSDIR/rss.<rank>.
cat > "$OUT/rss.sh" <<'EOF'
#!/bin/sh
exec /usr/bin/time -f %M -o "$RSSDIR/rss.${OMPI_COMM_WORLD_RANK:-0}" "$@"
EOF
chmod +x "$OUT/rss.sh"

# mpirun NP PROGRAM... with per-rank peaks; prints the sum in bytes.
mpi_rss() {
  local np=$1; shift
  export RSSDIR=$OUT/rss_$RANDOM$RANDOM
  mkdir -p "$RSSDIR"
  $MPI -np "$np" "$OUT/rss.sh" "$@" > "$RSSDIR.log" 2>&1 || { echo "failed: $* (log $RSSDIR.log)" >&2; return 1; }
  cat "$RSSDIR"/rss.* | awk '{s += $1 * 1024} END {printf "%.0f\n", s}'
}

# A process's start-up floor in bytes: the median of three.
floor_rss() {
  for _ in 1 2 3; do mpi_rss 1 "$@"; done | sort -n | sed -n 2p
}

# The bench decks turn snapshots off (snapshot: frames: 0).  A build from before
# that key (no snapshots by default; unknown keys refused: HDEM=an old build) runs a
# copy of the deck without the snapshot block, in $OUT.  The state files are given
# on the command line (-insert_file), so a copy's paths need not resolve.
deck_for() { # deck -> the deck $HDEM reads
  case $("$HDEM" run -help 2>&1) in *-snapshot_frames*) echo "$1"; return ;; esac
  mkdir -p "$OUT/decks"
  awk '/^snapshot:/ {skip = 1; next} skip && /^[ \t]/ {next} {skip = 0; print}' "$1" > "$OUT/decks/${1//\//_}"
  echo "$OUT/decks/${1//\//_}"
}

hdem_run() { # deck steps np [options] -> "psps_per_core rss_sum particles"
  local deck steps=$2 np=$3 dir=$OUT/hdem_$RANDOM rss
  deck=$(deck_for "$1"); shift 3
  rss=$(mpi_rss "$np" "$HDEM" run "$deck" -steps "$steps" -output_dir "$dir" "$@")
  /usr/bin/python3 - "$dir/summary.json" "$np" "$rss" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); np = int(sys.argv[2])
print("%.4g %s %d" % (s["particle_steps_per_second"] / np, sys.argv[3], s["particles"]))
PY
}

lammps_run() { # dir deck np steps extra-vars... -> "psps_per_core rss_sum particles"
  local dir=$1 deck=$2 np=$3 steps=$4; shift 4
  local log=$OUT/lammps_$RANDOM.log rss
  rss=$(cd "$dir" && mpi_rss "$np" lmp -in "$deck" -var nsteps "$steps" "$@" -log "$log")
  /usr/bin/python3 - "$log" "$np" "$rss" <<'PY'
import re, sys
txt = open(sys.argv[1]).read(); np = int(sys.argv[2])
m = re.search(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms", txt)
t, steps, atoms = float(m.group(1)), int(m.group(3)), int(m.group(4))
print("%.4g %s %d" % (atoms * steps / t / np, sys.argv[3], atoms))
PY
}

# LIGGGHTS counts particle-steps as LAMMPS does: the atoms at the end times the steps
# (the hopper loses some 2.5 % of its particles in 10,000 steps; hdem counts alike).
liggghts_run() { # dir deck np steps extra-vars... -> "psps_per_core rss_sum particles"
  local dir=$1 deck=$2 np=$3 steps=$4; shift 4
  local log=$OUT/liggghts_$RANDOM.log rss
  rss=$(cd "$dir" && mpi_rss "$np" liggghts -in "$deck" -var ndis "$steps" -var dfile "$OUT/discharge_$RANDOM.txt" "$@" -log "$log")
  /usr/bin/python3 - "$log" "$np" "$rss" <<'PY'
import re, sys
txt = open(sys.argv[1]).read(); np = int(sys.argv[2])
m = re.findall(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms", txt)[-1]
t, steps, atoms = float(m[0]), int(m[2]), int(m[3])
print("%.4g %s %d" % (atoms * steps / t / np, sys.argv[3], atoms))
PY
}
HOPPER=0
command -v liggghts >/dev/null && [ -f "$PEERS/hopper/data.hopper_settled" ] && HOPPER=1
GFLOOR=0
[ "$HOPPER" = 1 ] && GFLOOR=$(cd "$OUT" && floor_rss liggghts -in /dev/null -log none) # (it writes log.liggghts where it runs)

REPEAT=${BENCH_REPEAT:-1}
HFLOOR=$(floor_rss "$HDEM" version)
LFLOOR=$(floor_rss lmp -h)
PFLOOR=$(floor_rss "$PFLOORBIN")
echo "Open MPI shared-memory single copy: $OMPI_MCA_btl_vader_single_copy_mechanism"
# The floor depends on the libraries hdem was built on (README, Build): say which.
echo "hdem's PETSc and 64-bit BLAS: $(ldd "$HDEM" | awk '/libpetsc|libblas64|openblas/ {printf "%s ", $3}')"
echo "start-up floor (peak RSS of a process that starts and exits): hdem $((HFLOOR / 1024)) KiB, LAMMPS $((LFLOOR / 1024)) KiB;" \
  "PETSc + HDF5 + MPI initialised, no particles: $((PFLOOR / 1024)) KiB"

# Speed, side by side.  Each repetition runs every case with hdem and with LAMMPS
# back to back, so a ratio compares runs made under the same load; on a shared
# machine the median over repetitions is the figure to quote.
FMT="%-8s %-5s %-4s %14s %14s %7s %12s %12s %12s %12s %12s\n"
printf "$FMT" deck ranks rep hdem_ps/s/core peer_ps/s/core ratio hdem_B/part peer_B/part hdem_B/p+fl peer_B/p+fl room_B/part | tee "$OUT/runs.txt"
row() { # deck np rep | hdem: speed rss n | LAMMPS: speed rss n
  whole() { awk "BEGIN{printf \"%.0f\", ($1 - $2 * $3) / $4}"; }
  printf "$FMT" "$1" "$2" "$3" "$4" "$7" "$(awk "BEGIN{printf \"%.2f\", $4 / $7}")" \
    "$(whole "$5" 0 "$2" "$6")" "$(whole "$8" 0 "$2" "$9")" "$(whole "$5" "$HFLOOR" "$2" "$6")" "$(whole "$8" "${RFLOOR:-$LFLOOR}" "$2" "$9")" \
    "$(whole "$8" "$PFLOOR" "$2" "$9")" | tee -a "$OUT/runs.txt"
}
for rep in $(seq "$REPEAT"); do
  for np in 1 2; do
    if want chute; then
      read -r hc hm hn < <(hdem_run bench/chute.yaml "$SC" "$np" -insert_file "$PEERS/chute/data.chute_equiv")
      read -r lc lm ln < <(lammps_run "$PEERS/chute" in.chute_bench "$np" "$SC" -var model hertz)
      row chute "$np" "$rep" "$hc" "$hm" "$hn" "$lc" "$lm" "$ln"
    fi
    if want settle; then
      read -r hc hm hn < <(hdem_run bench/settle.yaml "$SS" "$np" -insert_file "$PEERS/settle/data.settle")
      read -r lc lm ln < <(lammps_run "$PEERS/settle" in.settle_lammps "$np" "$SS")
      row settle "$np" "$rep" "$hc" "$hm" "$hn" "$lc" "$lm" "$ln"
    fi
    if want clumps; then # LAMMPS's grid never cuts z (processors * * 1); hdem's cuts x and y alike at 2 ranks
      read -r hc hm hn < <(hdem_run bench/clumps.yaml "$SK" "$np" -insert_file "$PEERS/clumps/data.clumps")
      read -r lc lm ln < <(lammps_run "$PEERS/clumps" in.clumps_lammps "$np" "$SK" -var final "$OUT/clumps_final_$RANDOM.data")
      row clumps "$np" "$rep" "$hc" "$hm" "$hn" "$lc" "$lm" "$ln"
    fi
    if [ "$HOPPER" = 1 ] && want hopper; then
      read -r hc hm hn < <(hdem_run bench/hopper.yaml "$SH" "$np" -insert_file "$PEERS/hopper/data.hopper_settled" -mesh0_file "$PEERS/hopper/hopper.stl")
      read -r lc lm ln < <(liggghts_run "$PEERS/hopper" in.hopper_liggghts "$np" "$SH")
      RFLOOR=$GFLOOR row hopper "$np" "$rep" "$hc" "$hm" "$hn" "$lc" "$lm" "$ln"
    fi
  done
done
echo "peer: LAMMPS for chute, settle and clumps (fix rigid/small), LIGGGHTS for hopper (start-up floor $((GFLOOR / 1024)) KiB)"
echo "B/part: summed peak RSS of the ranks per particle; B/p+fl: less each rank's start-up floor;" \
  "room_B/part: LAMMPS's B/part less the initialised libraries' share (a particle's position, velocity, angular velocity, force and torque alone take 120)"
if [ "$REPEAT" -gt 1 ]; then
  echo "median over $REPEAT repetitions (ratio: median of the side-by-side ratios, with its range):"
  /usr/bin/python3 - "$OUT/runs.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
print("%-8s %-5s %14s %14s %7s %11s %12s %12s %12s %12s %12s" % ("deck", "ranks", "hdem_ps/s/core", "peer_ps/s/core", "ratio", "range", "hdem_B/part", "peer_B/part", "hdem_B/p+fl", "peer_B/p+fl", "room_B/part"))
for deck in ("chute", "settle", "hopper", "clumps"):
    for np in ("1", "2"):
        r = [x for x in rows if x[0] == deck and x[1] == np]
        if not r:
            continue
        med = lambda c: statistics.median(float(x[c]) for x in r)
        ratios = [float(x[5]) for x in r]
        print("%-8s %-5s %14.4g %14.4g %7.2f %5.2f-%-5.2f %12.0f %12.0f %12.0f %12.0f %12.0f" % (deck, np, med(3), med(4), statistics.median(ratios), min(ratios), max(ratios), med(6), med(7), med(8), med(9), med(10)))
PY
fi

# Memory per particle as a slope: each deck's state and the same state tiled
# 2 x 2 (4x the particles), both codes, BENCH_MEM_STEPS steps.
if [ "$MEMSTEPS" -gt 0 ]; then
  mkdir -p "$OUT/tile/chute" "$OUT/tile/settle" "$OUT/tile/clumps"
  python3 bench/replicate.py "$PEERS/chute/data.chute_equiv" "$OUT/tile/chute/data.chute_equiv" 2 2
  python3 bench/replicate.py "$PEERS/settle/data.settle" "$OUT/tile/settle/data.settle" 2 2
  python3 bench/replicate.py "$PEERS/clumps/data.clumps" "$OUT/tile/clumps/data.clumps" 2 2
  cp "$PEERS/chute/in.chute_bench" "$OUT/tile/chute/"
  cp "$PEERS/settle/in.settle_lammps" "$OUT/tile/settle/"
  cp "$PEERS/clumps/in.clumps_lammps" "$OUT/tile/clumps/"
  echo "memory per particle as a slope ($MEMSTEPS steps; the state and its 2 x 2 tiling):"
  MFMT="%-8s %-5s %10s %10s %13s %13s %13s %13s\n"
  printf "$MFMT" deck ranks particles tiled hdem_slope_B lammps_slope_B hdem_B/p_tiled lammps_B/p_tiled
  slope() { awk "BEGIN{printf \"%.0f\", ($2 - $1) / ($4 - $3)}"; }
  # hdem's cuts by particle count here, as LAMMPS's even slabs: balancing by measured
  # time moves them with this VM's speed noise, and a move's migration adds 1-3 MB to a
  # rank's peak in a 300-step run, which the slope would count as per-particle memory
  BAL=(-balance_mode count)
  for np in 1 2; do
    if want chute; then
      read -r _ h1 n1 < <(hdem_run bench/chute.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$PEERS/chute/data.chute_equiv")
      read -r _ h4 n4 < <(hdem_run bench/chute.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$OUT/tile/chute/data.chute_equiv" -domain_hi 80,40,60)
      read -r _ l1 _ < <(lammps_run "$PEERS/chute" in.chute_bench "$np" "$MEMSTEPS" -var model hertz)
      read -r _ l4 _ < <(lammps_run "$OUT/tile/chute" in.chute_bench "$np" "$MEMSTEPS" -var model hertz)
      printf "$MFMT" chute "$np" "$n1" "$n4" "$(slope "$h1" "$h4" "$n1" "$n4")" "$(slope "$l1" "$l4" "$n1" "$n4")" \
        "$(awk "BEGIN{printf \"%.0f\", $h4 / $n4}")" "$(awk "BEGIN{printf \"%.0f\", $l4 / $n4}")"
    fi
    if want settle; then
      read -r _ h1 n1 < <(hdem_run bench/settle.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$PEERS/settle/data.settle")
      read -r _ h4 n4 < <(hdem_run bench/settle.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$OUT/tile/settle/data.settle" -domain_hi 0.168,0.168,0.12)
      read -r _ l1 _ < <(lammps_run "$PEERS/settle" in.settle_lammps "$np" "$MEMSTEPS")
      read -r _ l4 _ < <(lammps_run "$OUT/tile/settle" in.settle_lammps "$np" "$MEMSTEPS")
      printf "$MFMT" settle "$np" "$n1" "$n4" "$(slope "$h1" "$h4" "$n1" "$n4")" "$(slope "$l1" "$l4" "$n1" "$n4")" \
        "$(awk "BEGIN{printf \"%.0f\", $h4 / $n4}")" "$(awk "BEGIN{printf \"%.0f\", $l4 / $n4}")"
    fi
  done
  if want clumps; then # per sphere: a body counts as its spheres in both codes
    for np in 1 2; do
      read -r _ h1 n1 < <(hdem_run bench/clumps.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$PEERS/clumps/data.clumps")
      read -r _ h4 n4 < <(hdem_run bench/clumps.yaml "$MEMSTEPS" "$np" "${BAL[@]}" -insert_file "$OUT/tile/clumps/data.clumps" -domain_hi 0.096,0.096,0.1253)
      read -r _ l1 _ < <(lammps_run "$PEERS/clumps" in.clumps_lammps "$np" "$MEMSTEPS" -var final "$OUT/clumps_mem_$RANDOM.data")
      read -r _ l4 _ < <(lammps_run "$OUT/tile/clumps" in.clumps_lammps "$np" "$MEMSTEPS" -var final "$OUT/clumps_mem_$RANDOM.data")
      printf "$MFMT" clumps "$np" "$n1" "$n4" "$(slope "$h1" "$h4" "$n1" "$n4")" "$(slope "$l1" "$l4" "$n1" "$n4")" \
        "$(awk "BEGIN{printf \"%.0f\", $h4 / $n4}")" "$(awk "BEGIN{printf \"%.0f\", $l4 / $n4}")"
    done
  fi
  echo "slope_B: growth of the summed peak RSS per added particle (fixed per-process costs cancel); B/p_tiled: whole summed peak per particle of the tiled state"
fi
RSTEPS=${BENCH_RATE_STEPS:-50000}
if [ "$HOPPER" = 1 ] && [ "$RSTEPS" -gt 0 ]; then
  echo "hopper discharge, $RSTEPS steps at 2 ranks, both codes:"
  $MPI -np 2 "$HDEM" run "$(deck_for bench/hopper.yaml)" -steps "$RSTEPS" -output_dir "$OUT/rate_hdem" \
    -insert_file "$PEERS/hopper/data.hopper_settled" -mesh0_file "$PEERS/hopper/hopper.stl" > "$OUT/rate_hdem.log" 2>&1
  (cd "$PEERS/hopper" && $MPI -np 2 liggghts -in in.hopper_liggghts -var ndis "$RSTEPS" -var dfile "$OUT/rate_liggghts.txt" -log "$OUT/rate_liggghts.log" > /dev/null 2>&1)
  /usr/bin/python3 - "$OUT/rate_hdem/flow.csv" "$OUT/rate_liggghts.txt" <<'PY'
import csv, math, sys
def fit(t, m):
    n = len(t); tm = sum(t) / n; mm = sum(m) / n
    sxx = sum((x - tm) ** 2 for x in t)
    w = sum((x - tm) * (y - mm) for x, y in zip(t, m)) / sxx
    return w, math.sqrt(sum((y - mm - w * (x - tm)) ** 2 for x, y in zip(t, m)) / (n - 2) / sxx)
def windows(t, m, t0, span=0.1):
    out, a = [], t0
    while a + span <= t[-1] + 1e-12:
        sel = [(x, y) for x, y in zip(t, m) if a - 1e-12 <= x <= a + span + 1e-12]
        if len(sel) >= 3: out.append(fit([x for x, _ in sel], [y for _, y in sel])[0])
        a += span
    return out
rows = list(csv.DictReader(open(sys.argv[1])))
th = [float(r["time"]) for r in rows]; mh = [float(r["outflow0_mass"]) for r in rows]
lg = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
tl = [float(x[0]) for x in lg]; ml = [float(x[1]) for x in lg]
bev = 0.58 * 1495 * math.sqrt(9.81) * (0.028 - 1.5 * 0.004) ** 2.5
for name, t, m, what in (("hdem", th, mh, "outflow 10 mm below the plate"), ("LIGGGHTS", tl, ml, "centres below the plate")):
    sel = [(x, y) for x, y in zip(t, m) if x >= 0.2 - 1e-12]
    if len(sel) < 3:
        print("  %-9s too short a run for a rate from 0.2 s" % name); continue
    w, se = fit([x for x, _ in sel], [y for _, y in sel])
    ws = windows(t, m, 0.2)
    sd = (sum((x - sum(ws) / len(ws)) ** 2 for x in ws) / (len(ws) - 1)) ** 0.5 if len(ws) > 1 else float("nan")
    print("  %-9s W = %.4f +- %.4f kg/s (fit 0.2-%.2f s; %d windows of 0.1 s: s.d. %.4f, s.e. %.4f) = %.3f of Beverloo's %.4f kg/s (%s)"
          % (name, w, se, t[-1], len(ws), sd, sd / max(len(ws), 1) ** 0.5, w / bev, bev, what))
PY
fi
echo "logs in $OUT"
