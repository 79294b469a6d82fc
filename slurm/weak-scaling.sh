#!/bin/bash
# weak-scaling.sh -- a problem that grows with the rank count, one SLURM job per count.
#
#   slurm/weak-scaling.sh [driver options] DECK PARTICLES_PER_RANK RANKS_LIST [hdem options]
#   slurm/weak-scaling.sh --wait inputs/settle.yaml 20000 1,2,4,8 -steps 500
#   slurm/scaling-report scaling/weak -o weak.png
#
# The 1-rank problem is the deck with -insert_count P. On R ranks the box holds P*R
# particles and is stretched about domain_lo by factors whose product is R: domain_lo/hi
# and insert_region_lo/hi (the deck's, or the ones in [hdem options]) alike, so the
# particle density stays that of the 1-rank problem. By default R times as long along
# one axis (--axis, default x). With --axes AXES (e.g. xyz, xy) R's prime factors are
# dealt out, largest first, each to the listed axis with the smallest factor so far
# (ties in the order given): with xyz, R = 2: x2; 4: x2 y2; 8: x2 y2 z2; 16: x4 y2 z2;
# 27: x3 y3 z3; 12: x3 y2 z2 -- every axis grows as evenly as integers allow, and the
# surface between ranks grows as in a 3-D decomposition. --grow 3d is --axes xyz.
# Every scaled deck is checked with `hdem check` (and its particle count compared with
# P*R) before anything is submitted.
# Works for decks with insert mode lattice or random; not for lammps files, nor for
# decks with extra walls (wall0..wall7) whose position depends on the stretched axis.
#
# Driver options: --axis x|y|z, --axes AXES, --grow 3d, and those of strong-scaling.sh
# (--out DIR, default scaling/weak; --time, --series, --exclusive, --sbatch, --wait,
# --force, --local, --check-only).
set -u
SLURM_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
HDEM_SCALING_LIB=1 source "$SLURM_DIR/strong-scaling.sh"
SCALING_KIND=weak
PYTHON=/usr/bin/python3; [ -x "$PYTHON" ] || PYTHON=python3

AXIS=x
args=()             # the driver options without --axis, for scaling_parse
while [ $# -gt 0 ]; do
  case "$1" in
    --axis)                  [ $# -ge 2 ] || scaling_die "--axis needs x, y or z"; AXIS=$2; shift 2 ;;
    --axes)                  [ $# -ge 2 ] || scaling_die "--axes needs some of x, y, z (e.g. xyz)"; AXIS=$2; shift 2 ;;
    --grow)                  [ "${2:-}" = 3d ] || scaling_die "--grow takes 3d (or use --axes)"; AXIS=xyz; shift 2 ;;
    --out|--time|-t|--sbatch) args+=("$1" "${2:-}"); shift; [ $# -gt 0 ] && shift ;;
    --) shift; break ;;
    --*) args+=("$1"); shift ;;
    *) break ;;
  esac
done
scaling_parse "${args[@]}" "$@"
set -- "${SC_ARGS[@]}"
axes_sorted() { fold -w1 <<<"$AXIS" | sort "$@" | tr -d '\n'; }
[[ "$AXIS" =~ ^[xyz]{1,3}$ ]] && [ "$(axes_sorted -u)" = "$(axes_sorted)" ] ||
  scaling_die "--axis/--axes must be one or more of x, y, z, each once (e.g. x, xy, xyz), not '$AXIS'"
AX=$AXIS
[ $# -ge 3 ] || scaling_die "usage: weak-scaling.sh [--wait] [--axis x|y|z | --axes xyz] [--local] [--out DIR] DECK PARTICLES_PER_RANK RANKS_LIST [hdem options]"
DECK=$(readlink -f "$1") || scaling_die "no deck $1"; [ -r "$DECK" ] || scaling_die "cannot read deck $1"
PER_RANK=$2
[[ "$PER_RANK" =~ ^[1-9][0-9]*$ ]] || scaling_die "PARTICLES_PER_RANK '$PER_RANK' is not a positive integer"
scaling_ranks "$3"; shift 3
scaling_find_hdem
SC_OUT=${SC_OUT:-scaling/weak}
mkdir -p "$SC_OUT" && SC_OUT=$(readlink -f "$SC_OUT") || scaling_die "cannot create $SC_OUT"

# scaled_options R: the options that make the R-rank problem, one per line.
scaled_options() {
  "$PYTHON" - "$DECK" "$AX" "$PER_RANK" "$1" "${HDEM_OPTS[@]}" <<'EOF'
import sys
deck, axes, per_rank, ranks = sys.argv[1], ["xyz".index(c) for c in sys.argv[2]], int(sys.argv[3]), int(sys.argv[4])
opts = sys.argv[5:]
try:
    import yaml
    with open(deck) as f:
        tree = yaml.safe_load(f) or {}
except ImportError:
    sys.exit("weak-scaling: python3-yaml is needed to read the deck")

flat = {}
def walk(node, prefix):
    for k, v in node.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            walk(v, key + "_")
        else:
            flat[key] = v
walk(tree, "")
for i, o in enumerate(opts):          # the command line overrides the deck (last wins)
    if o.startswith("-") and i + 1 < len(opts) and o[1:] in ("domain_lo", "domain_hi", "insert_region_lo", "insert_region_hi", "insert_mode"):
        flat[o[1:]] = opts[i + 1]

def vec(key):
    v = flat.get(key)
    if v is None:
        return None
    if isinstance(v, str):
        v = [s for s in v.replace("[", "").replace("]", "").split(",") if s.strip()]
    v = [float(x) for x in v]
    if len(v) != 3:
        sys.exit(f"weak-scaling: {key} must have 3 components, not {v}")
    return v

mode = str(flat.get("insert_mode", "lattice"))
if mode not in ("lattice", "random"):
    sys.exit(f"weak-scaling: insert mode {mode}: only lattice and random fills can be scaled")
lo, hi = vec("domain_lo"), vec("domain_hi")
if lo is None or hi is None:
    sys.exit("weak-scaling: the deck has no domain lo/hi")
rlo, rhi = vec("insert_region_lo") or list(lo), vec("insert_region_hi") or list(hi)
walls = sorted(k for k in flat if k.startswith("wall") and k[4:5].isdigit())
if walls:
    print(f"weak-scaling: warning: the deck has extra walls ({', '.join(walls)}); they are not moved", file=sys.stderr)

def factors(n):                    # prime factors, largest first
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    if n > 1:
        out.append(n)
    return sorted(out, reverse=True)

scale = [1, 1, 1]
for p in factors(ranks):
    a = min(axes, key=lambda i: scale[i])   # first listed axis among the smallest
    scale[a] *= p

def stretch(v):
    return [lo[i] + (v[i] - lo[i]) * scale[i] for i in range(3)]
fmt = lambda v: ",".join(repr(float(x)) for x in v)
out = ["-insert_count", str(per_rank * ranks),
       "-domain_lo", fmt(lo), "-domain_hi", fmt(stretch(hi)),
       "-insert_region_lo", fmt(stretch(rlo)), "-insert_region_hi", fmt(stretch(rhi))]
print("\n".join(out))
print(f"weak-scaling: {ranks} ranks: box scaled by {scale[0]} x {scale[1]} x {scale[2]}", file=sys.stderr)
EOF
}

HDEM_OPTS=("$@")
: > "$SC_OUT/jobs.txt"
for r in "${SC_RANKS[@]}"; do
  mapfile -t extra < <(scaled_options "$r") && [ ${#extra[@]} -gt 0 ] || scaling_die "cannot scale $DECK to $r ranks"
  dir=$SC_OUT/np_$r
  scaling_prepare_dir "$dir"
  # user options first, the scaled geometry and count last (the last occurrence wins)
  "$HDEM" check "$DECK" "$@" "${extra[@]}" > "$dir/check.txt" 2>&1 ||
    { cat "$dir/check.txt" >&2; scaling_die "hdem check rejected the $r-rank deck: ${extra[*]}"; }
  n=$(sed -n 's/^particles[[:space:]]*\([0-9]*\).*/\1/p' "$dir/check.txt")
  [ "$n" = $((PER_RANK * r)) ] || scaling_die "the $r-rank deck holds $n particles, not $((PER_RANK * r)) (is the fill region large enough?): ${extra[*]}"
  echo "np $r: $n particles, ${extra[*]:2}" >&2
  scaling_submit "$r" "$dir" "$DECK" "$@" "${extra[@]}"
done
[ "$SC_CHECK_ONLY" = 1 ] && exit 0
[ "$SC_LOCAL" = 1 ] && exit "$SC_LOCAL_FAILED"
[ "$SC_WAIT" = 1 ] && { scaling_wait || exit 1; }
exit 0
