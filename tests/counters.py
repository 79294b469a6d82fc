#!/usr/bin/python3
"""summary.json's "parallel" block and the closing block's counters (engine/counters.h) against what the runs
must have sent and timed.

    python3 tests/counters.py --hdem HDEM --mpiexec MPIEXEC --deck tests/data/bitwise.yaml --docs docs/outputs.md

- A still bed (no gravity, no velocity, no contact, walled box, no rebuild in the run): every step's halo is
  the ghosts' forward fields, x, v, w and the predicted v and w (src/particles/particles.c: 15 reals, 120
  bytes a ghost), so each rank receives exactly its ghosts x 120 bytes a step, the ghosts counted here from
  final.h5's positions, the equal slabs and the ghost cutoff (2 r_max + skin); one message a step per
  neighbour side of a rank's slab; nothing at 1 rank.
- A busy deck (tests/data/bitwise.yaml, periodic in x and y, walls in z) on 1, 2 (2,1,1), 4 (2,2,1) ranks and
  on 4 ranks under the rcb tree: all ranks' sent messages and bytes equal the received ones exactly, by kind;
  on a slab grid each rebuild sends 2 messages (a size, then the rows) per neighbour side for the borders and
  for the migration, and each other step one halo message per side, a migration message at least its 2-real
  header; at 1 rank nothing (a rank's own periodic images are copies, not messages); the rebuilds are the
  summary's and thermo.csv's (after a restart, this run's alone); the phases' times are non-negative, their
  sum within each rank's total (other >= 0), the total within the process's wall clock; the closing block
  says the same.
- Every key of the block is documented in docs/outputs.md."""
import argparse
import json
import os
import re
import sys
import tempfile
import time
import harness

GHOST_BYTES = 15 * 8  # x, v, w, vp, wp: the FIELD_FORWARD fields of a sphere
STILL = """domain:
  lo: [0, 0, 0]
  hi: [0.016, 0.012, 0.008]
  periodic: [false, false, false]
gravity: [0, 0, 0]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.5
insert:
  mode: lattice
  count: 600
  seed: 3
  spacing: 1.3
  radius:
    distribution: uniform
    min: 0.35e-3
    max: 0.45e-3
neighbor:
  skin: 0.2e-3
steps: 40
timestep:
  mode: fixed
  dt: 1.0e-6
balance:
  mode: none
"""
KINDS = ("halo", "borders", "migration")
WHAT = ("messages_sent", "messages_received", "bytes_sent", "bytes_received")
PHASES = ("force", "halo", "rebuild", "balance", "integrate", "reduction", "output")


def run(args, np_, grid, out, deck, extra=()):
    cmd = harness.mpi(args.mpiexec, np_, serial_bare=False)
    cmd += [args.hdem, "run", deck, "-domain_grid", grid, "-output_dir", out, "-snapshot_frames", "0", *extra]
    t0 = time.time()
    p = harness.run(cmd, timeout=300)
    wall = time.time() - t0
    return json.load(open(os.path.join(out, "summary.json"))), p.stdout, wall


def sides(grid, periodic):
    """Per rank of a slab grid (MPI_Cart order, the last axis fastest): its neighbour sides, other ranks."""
    out = []
    for r in range(grid[0] * grid[1] * grid[2]):
        c = (r // (grid[1] * grid[2]), (r // grid[2]) % grid[1], r % grid[2])
        n = 0
        for a in range(3):
            if grid[a] == 1:
                continue
            n += sum(1 for s in (-1, 1) if periodic[a] or 0 <= c[a] + s < grid[a])
        out.append(n)
    return out


def expected_ghosts(final, grid, lo, hi, cut):
    """Ghosts per slab: the particles of other slabs within the cutoff of it along every axis (walled box)."""
    import h5py
    with h5py.File(final, "r") as f:
        x = f["particles/position"][()]
    out = []
    for r in range(grid[0] * grid[1] * grid[2]):
        c = (r // (grid[1] * grid[2]), (r // grid[2]) % grid[1], r % grid[2])
        n = 0
        for p in x:
            inside, near = True, True
            for a in range(3):
                s0 = lo[a] + (hi[a] - lo[a]) * c[a] / grid[a]
                s1 = hi[a] if c[a] == grid[a] - 1 else lo[a] + (hi[a] - lo[a]) * (c[a] + 1) / grid[a]
                inside = inside and s0 <= p[a] < s1
                near = near and s0 - cut <= p[a] < s1 + cut
            n += near and not inside
        out.append(n)
    return out


def check_common(check, tag, s, stdout, wall, thermo):
    pb = s["parallel"]
    check(pb["ranks"] == s["ranks"] and pb["steps"] == s["steps_this_run"], "%s: ranks and steps as the summary's" % tag)
    check(pb["rebuilds"] == s["rebuilds"], "%s: %d rebuilds, as the summary's %d" % (tag, pb["rebuilds"], s["rebuilds"]))
    rows = open(thermo).read().splitlines()
    col = rows[0].split(",").index("rebuilds")
    last = int(rows[-1].split(",")[col])
    check(last == pb["rebuilds"], "%s: thermo.csv's last row says %d rebuilds" % (tag, last))
    for k in KINDS:
        t = pb["traffic"][k]
        check(t["messages_sent"] == t["messages_received"] and t["bytes_sent"] == t["bytes_received"],
              "%s: %s sent = received over the ranks (%d messages, %d bytes)" % (tag, k, t["messages_sent"], t["bytes_sent"]))
        for q in WHAT:
            sp = pb["per_rank_per_step"]["%s_%s" % (k, q)]
            ok = 0 <= sp["min"] <= sp["mean"] * (1 + 1e-12) and sp["mean"] <= sp["max"] * (1 + 1e-12)
            ok = ok and abs(sp["mean"] * pb["ranks"] * pb["steps"] - t[q]) <= 1e-9 * max(1, t[q])
            if not ok:
                check(False, "%s: %s_%s per rank per step %s against the total %d" % (tag, k, q, sp, t[q]))
    tm = pb["time"]
    check(all(tm[p]["min"] >= 0 for p in PHASES), "%s: every phase's time is non-negative" % tag)
    named = sum(tm[p]["mean"] for p in PHASES)
    check(tm["other"]["min"] >= -1e-9 and named <= tm["total"]["mean"] * (1 + 1e-12),
          "%s: the phases add to at most each rank's total (other >= %.3g s, %.3g of %.3g s on the mean)"
          % (tag, tm["other"]["min"], named, tm["total"]["mean"]))
    check(s["wall_seconds"] <= tm["total"]["max"] + 1e-3 and tm["total"]["max"] <= wall,
          "%s: the total %.3f s covers the loop's %.3f s and is within the process's %.3f s"
          % (tag, tm["total"]["max"], s["wall_seconds"], wall))
    m = re.search(r"^  time +per rank, the mean of (\d+): (.*) of ([0-9.e+-]+) s$", stdout, re.M)
    ok = bool(m) and int(m.group(1)) == pb["ranks"]
    if ok:
        shares = dict((w.rsplit(" ", 2)[0], float(w.rsplit(" ", 2)[1])) for w in m.group(2).split(", "))
        ok = list(shares) == list(PHASES) + ["other"] and abs(sum(shares.values()) - 100) <= 4.5
        ok = ok and all(abs(shares[p] - 100 * tm[p]["mean"] / tm["total"]["mean"]) <= 0.51 for p in PHASES)
    check(ok, "%s: the closing block gives each phase's share of the time, as summary.json" % tag)
    m = re.search(r"^  sent +per rank per step, at most: (.*); (\d+) rebuilds$", stdout, re.M)
    check(bool(m) and int(m.group(2)) == pb["rebuilds"] and m.group(1).startswith("halo "),
          "%s: the closing block's traffic line" % tag)


def check_slab(check, tag, pb, grid, periodic):
    """Exact message counts of a slab grid."""
    n = sum(sides(grid, periodic))
    reb, halo_steps = pb["rebuilds"], pb["steps"] - pb["rebuilds"]
    t = pb["traffic"]
    check(t["halo"]["messages_sent"] == halo_steps * n,
          "%s: %d halo messages = %d steps without a rebuild x %d neighbour sides" % (tag, t["halo"]["messages_sent"], halo_steps, n))
    for k in ("borders", "migration"):
        check(t[k]["messages_sent"] == 2 * reb * n,
              "%s: %d %s messages = 2 x %d rebuilds x %d neighbour sides" % (tag, t[k]["messages_sent"], k, reb, n))
    check(t["migration"]["bytes_sent"] >= reb * n * (4 + 16),
          "%s: every migration message carries at least its header (%d bytes)" % (tag, t["migration"]["bytes_sent"]))


def still_runs(args, check, tmp):
    deck = os.path.join(tmp, "still.yaml")
    open(deck, "w").write(STILL)
    lo, hi, cut = (0, 0, 0), (0.016, 0.012, 0.008), 2 * 0.45e-3 + 0.2e-3
    for np_, grid in ((1, (1, 1, 1)), (2, (2, 1, 1)), (4, (2, 2, 1))):
        tag = "still bed, %d rank%s" % (np_, "s" if np_ > 1 else "")
        out = os.path.join(tmp, "still%d" % np_)
        s, stdout, wall = run(args, np_, ",".join(map(str, grid)), out, deck)
        pb = s["parallel"]
        check(pb["rebuilds"] == 0 and s["particles"] == 600, "%s: 600 particles, no rebuild in the run" % tag)
        check_common(check, tag, s, stdout, wall, os.path.join(out, "thermo.csv"))
        check_slab(check, tag, pb, grid, (False, False, False))
        ghosts = expected_ghosts(os.path.join(out, "final.h5"), grid, lo, hi, cut)
        got = pb["per_rank_per_step"]["halo_bytes_received"]
        want = [g * GHOST_BYTES for g in ghosts]
        check(got["min"] == min(want) and got["max"] == max(want)
              and pb["traffic"]["halo"]["bytes_received"] == pb["steps"] * sum(want),
              "%s: halo bytes a step = ghosts %s x %d bytes (got min %g, max %g, total %d)"
              % (tag, ghosts, GHOST_BYTES, got["min"], got["max"], pb["traffic"]["halo"]["bytes_received"]))
        if np_ > 1:
            check(min(ghosts) > 0, "%s: every rank has ghosts" % tag)
        for k in ("borders", "migration"):
            check(pb["traffic"][k]["messages_sent"] == 0, "%s: no %s messages without a rebuild" % (tag, k))


def busy_runs(args, check, tmp):
    extra, two = ["-steps", "300"], None
    for np_, grid, bal in ((1, (1, 1, 1), None), (2, (2, 1, 1), None), (4, (2, 2, 1), None), (4, (2, 2, 1), "rcb")):
        tag = "busy deck, %d rank%s%s" % (np_, "s" if np_ > 1 else "", ", rcb tree" if bal else "")
        out = os.path.join(tmp, "busy%d%s" % (np_, bal or ""))
        more = extra + (["-balance_mode", bal, "-balance_interval", "50", "-balance_threshold", "1"] if bal else [])
        s, stdout, wall = run(args, np_, ",".join(map(str, grid)), out, args.deck, more)
        pb = s["parallel"]
        check_common(check, tag, s, stdout, wall, os.path.join(out, "thermo.csv"))
        check(pb["rebuilds"] > 0 and pb["time"]["force"]["mean"] > 0 and pb["time"]["rebuild"]["mean"] > 0,
              "%s: %d rebuilds, force and rebuild time measured" % (tag, pb["rebuilds"]))
        if np_ == 1:
            check(all(pb["traffic"][k][q] == 0 for k in KINDS for q in WHAT),
                  "%s: nothing sent (periodic images are the rank's own copies)" % tag)
            continue
        check(all(pb["traffic"][k]["bytes_sent"] > 0 for k in KINDS), "%s: every kind sent bytes" % tag)
        if not bal:
            check_slab(check, tag, pb, grid, (True, True, False))
        if not bal and np_ == 2:
            two = s
    return two


def restart_run(args, check, tmp):
    """A run continued from a checkpoint counts its own steps and rebuilds only."""
    out = os.path.join(tmp, "cont")
    run(args, 2, "2,1,1", out, args.deck, ["-steps", "200", "-checkpoint_interval_steps", "100", "-thermo_interval", "100"])
    s, stdout, wall = run(args, 2, "2,1,1", out, args.deck,
                          ["-steps", "300", "-thermo_interval", "100", "-restart", os.path.join(out, "checkpoints", "step_000000200.h5")])
    pb = s["parallel"]
    rows = [r.split(",") for r in open(os.path.join(out, "thermo.csv")).read().splitlines()]
    col = rows[0].index("rebuilds")
    at = dict((int(r[0]), int(r[col])) for r in rows[1:])
    check(pb["steps"] == 100 and pb["rebuilds"] == at[300] - at[200] and s["rebuilds"] == at[300],
          "after a restart at step 200: %d steps and %d rebuilds of this run (thermo.csv: %d at 200, %d at 300)"
          % (pb["steps"], pb["rebuilds"], at[200], at[300]))
    check(pb["traffic"]["halo"]["messages_sent"] == (pb["steps"] - pb["rebuilds"]) * sum(sides((2, 1, 1), (True, True, False))),
          "after a restart: the halo messages of this run's steps only")


def check_docs(check, docs, pb):
    text = open(docs).read()
    keys = set()

    def walk(d):
        for k, v in d.items():
            keys.add(k)
            if isinstance(v, dict):
                walk(v)
    walk({"parallel": pb})
    missing = sorted(k for k in keys if "`%s`" % k not in text)
    check(not missing, "docs/outputs.md names every key of the parallel block%s" % (": missing %s" % missing if missing else ""))
    check(all(re.fullmatch(r"[a-z][a-z0-9_]*", k) for k in keys), "the block's keys are lower_case_with_underscores")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--deck", required=True)
    ap.add_argument("--docs", required=True)
    args = ap.parse_args()
    check = harness.Checks()
    with tempfile.TemporaryDirectory() as tmp:
        still_runs(args, check, tmp)
        check_docs(check, args.docs, busy_runs(args, check, tmp)["parallel"])
        restart_run(args, check, tmp)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
