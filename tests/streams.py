#!/usr/bin/python3
"""Streams pour particles in, outflows take them out, the same on any rank count.

- A box that starts empty, filled by a stream under gravity and emptied through an
  outflow in half of its floor, at 1, 2 and 3 ranks (grids that cut the stream's
  box): final.h5 the same particles bit for bit (sorted by id), flow.csv the same
  bytes; ids 1 .. inserted, unique; inserted = rate x time within a batch at every
  row of flow.csv; removals counted, their size classes adding up, and inserted mass
  - removed mass = the mass left; summary.json's inserted, removed and particles.
- A stream whose box holds a random fill at rest (no gravity) and is crossed by a
  plane wall: after its first batch no new particle overlaps any other (the overlap
  flags of every rank's particles count) or the wall, the new ones sit among the
  fill, bitwise the same at 1, 2 and 3 ranks.
- A stream far beyond what its box holds: the one-time "region too full" warning
  with the figures, a non-zero shortfall in flow.csv, still no overlaps.
- Bad decks (negative rate, rate and mass_rate, neither, a stream box outside the
  domain or thinner than a diameter, an outflow outside the domain) exit non-zero
  naming the key, and write nothing.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")
FAILS = check.failures


HEAD = """domain:
  lo: [0, 0, 0]
  hi: [0.02, 0.02, 0.06]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.5
  mu: 0.3
thermo_interval: 500
thermo_screen: false
snapshot:
  frames: 0
"""

RATE, INTERVAL, T_END, RHO = 2000.0, 0.01, 0.1, 2500.0
POUR = HEAD + """gravity: [0, 0, -9.81]
stream0:
  region_lo: [0.002, 0.002, 0.045]
  region_hi: [0.018, 0.018, 0.058]
  rate: %g
  interval: %g
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  velocity: [0, 0, -0.5]
  velocity_random: 0.1
outflow0:
  region_lo: [0, 0, 0]
  region_hi: [0.02, 0.01, 0.004]
flow:
  size_classes: [1.2e-3]
end_time: %g
""" % (RATE, INTERVAL, T_END)

# a random fill at rest, and a stream whose box takes in most of it
FILLED = HEAD + """gravity: [0, 0, 0]
insert:
  mode: random
  count: 300
  region_lo: [0, 0, 0]
  region_hi: [0.02, 0.02, 0.03]
  radius: 0.6e-3
stream0:
  region_lo: [0.001, 0.001, 0.001]
  region_hi: [0.019, 0.019, 0.035]
  rate: 5000
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
wall0:                       # a ceiling across the stream's box
  normal: [0, 0, -1]
  point: [0, 0, 0.033]
steps: 2
"""


def read_final(path):
    """{field: array} sorted by id."""
    with h5py.File(path, "r") as f:
        g = f["particles"]
        ids = g["id"][:]
        order = np.argsort(ids, kind="stable")
        out = {"id": ids[order]}
        for name in ("position", "velocity", "angular_velocity", "radius", "type"):
            if name in g:
                out[name] = g[name][:][order]
        return out


def bitwise_equal(a, b):
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = np.ascontiguousarray(a[k]), np.ascontiguousarray(b[k])
        if x.shape != y.shape or x.dtype != y.dtype or x.tobytes() != y.tobytes():
            return False
    return True


def max_overlap(st, new_from):
    """Largest overlap over the smaller radius of a pair with a particle of id >= new_from."""
    x, r, ids = st["position"], st["radius"], st["id"]
    worst = 0.0
    for i in np.nonzero(ids >= new_from)[0]:
        d = np.sqrt(((x - x[i]) ** 2).sum(axis=1))
        d[i] = np.inf
        ov = (r + r[i] - d) / np.minimum(r, r[i])
        worst = max(worst, float(ov.max()))
    return worst


def error_line(text):
    return next((l for l in text.splitlines() if "error" in l), text.strip()[-200:])


def read_flow(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_streams_")

    def run(np_, args, grid=None, timeout=300):
        cmd = [a.mpiexec, "--oversubscribe", "-np", str(np_)]
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        cmd += [hdem] + args + (["-domain_grid", grid] if grid else [])
        try:
            p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return None, "", "timed out after %d s" % timeout

    for name, text in (("pour", POUR), ("filled", FILLED)):
        with open(os.path.join(work, name + ".yaml"), "w") as f:
            f.write(text)

    # The pour at 1, 2 and 3 ranks.
    ref = None
    for np_, grid in ((1, "1,1,1"), (2, "1,2,1"), (3, "3,1,1"), (3, "1,1,3")):
        out = "pour_%d_%s" % (np_, grid.replace(",", ""))
        rc, so, se = run(np_, ["run", "pour.yaml", "-output_dir", out], grid)
        check(rc == 0, "pour at %d rank(s), grid %s: completes (%s)" % (np_, grid, error_line(se)))
        if rc != 0:
            continue
        st = read_final(os.path.join(work, out, "final.h5"))
        with open(os.path.join(work, out, "flow.csv"), "rb") as f:
            flow_bytes = f.read()
        with open(os.path.join(work, out, "summary.json")) as f:
            summ = json.load(f)
        if ref is None:
            ref = (st, flow_bytes)
            pour_steps = summ["steps"]
            rows = read_flow(os.path.join(work, out, "flow.csv"))
            last = rows[-1]
            ins, rem = int(last["stream0_inserted"]), int(last["outflow0_removed"])
            check(list(rows[0].keys()) == ["step", "time", "stream0_inserted", "stream0_mass", "stream0_short", "outflow0_removed", "outflow0_mass",
                                           "outflow0_removed_d0", "outflow0_mass_d0", "outflow0_removed_d1", "outflow0_mass_d1"],
                  "flow.csv names every column: %s" % ",".join(rows[0].keys()))
            bad = [(r["time"], r["stream0_inserted"]) for r in rows
                   if not (math.floor(RATE * (float(r["time"]) - 2 * INTERVAL)) <= int(r["stream0_inserted"]) <= math.floor(RATE * float(r["time"])))]
            check(len(rows) > 10 and not bad and ins >= RATE * (T_END - 2 * INTERVAL),
                  "inserted = rate x time within a batch at each of %d rows (%d at t = %s; off: %s)" % (len(rows), ins, last["time"], bad[:3]))
            check(all(int(r["stream0_short"]) == 0 for r in rows), "no shortfall where there is room")
            check(rem > 10 and rem == int(last["outflow0_removed_d0"]) + int(last["outflow0_removed_d1"]) and int(last["outflow0_removed_d0"]) > 0
                  and int(last["outflow0_removed_d1"]) > 0, "removals counted, in both size classes, adding up (%d = %s + %s)" % (
                      rem, last["outflow0_removed_d0"], last["outflow0_removed_d1"]))
            left = float((4.0 / 3.0 * math.pi * RHO * st["radius"] ** 3).sum())
            mass_in, mass_out = float(last["stream0_mass"]), float(last["outflow0_mass"])
            check(abs(mass_in - mass_out - left) < 1e-9 * mass_in and abs(mass_out - float(last["outflow0_mass_d0"]) - float(last["outflow0_mass_d1"])) < 1e-12 * mass_in,
                  "inserted mass %.9g - removed %.9g = the mass left %.9g; the classes' masses add up" % (mass_in, mass_out, left))
            ids = st["id"]
            check(len(ids) == ins - rem and len(np.unique(ids)) == len(ids) and ids.min() >= 1 and ids.max() <= ins,
                  "final.h5 holds inserted - removed = %d particles, unique ids in 1 .. %d" % (ins - rem, ins))
            check(summ["inserted"] == ins and summ["removed"] == rem and summ["particles"] == ins - rem and summ["lost_particles"] == 0,
                  "summary.json: inserted %s, removed %s, particles %s" % (summ.get("inserted"), summ.get("removed"), summ.get("particles")))
            # particle-steps integrate the particles present over the steps: between none and all ever inserted, and the closing line's
            said = re.search(r"\(([0-9.e+-]+) particle-steps/s", so)
            psteps = summ.get("particle_steps", -1)
            check(0 < psteps < ins * summ["steps"] and said and float(said.group(1)) == float("%.3g" % summ["particle_steps_per_second"]),
                  "particle-steps %s within (0, %d x %d), the closing line's rate %s the summary's %s"
                  % (psteps, ins, summ["steps"], said.group(1) if said else None, summ.get("particle_steps_per_second")))
        else:
            check(bitwise_equal(ref[0], st), "pour at %d rank(s), grid %s: final.h5 bitwise the 1-rank one (%d particles)" % (np_, grid, len(st["id"])))
            check(flow_bytes == ref[1], "pour at %d rank(s), grid %s: flow.csv the same bytes" % (np_, grid))

    # A checkpoint mid-pour continues bitwise on other rank counts: the streams'
    # and outflows' counters, flow.csv and the final state.
    pour_steps = locals().get("pour_steps", 300)
    rc, so, se = run(2, ["run", "pour.yaml", "-output_dir", "pour_ck", "-checkpoint_interval_steps", str(max(1, pour_steps // 3)), "-checkpoint_keep", "5"], "1,2,1")
    check(rc == 0, "pour with checkpoints at 2 ranks completes (%s)" % error_line(se))
    cks = sorted(f for f in os.listdir(os.path.join(work, "pour_ck", "checkpoints")) if f.endswith(".h5")) if rc == 0 else []
    for np_, grid, ck in ((3, "1,1,3", cks[0] if cks else ""), (1, "1,1,1", cks[1] if len(cks) > 1 else "")):
        out = "pour_cont_%d" % np_
        rc, so, se = run(np_, ["run", "pour.yaml", "-output_dir", out, "-restart", os.path.join(work, "pour_ck", "checkpoints", ck)], grid)
        ok = rc == 0
        if ok:
            st = read_final(os.path.join(work, out, "final.h5"))
            ref_st = read_final(os.path.join(work, "pour_ck", "final.h5"))
            rows, ref_rows = read_flow(os.path.join(work, out, "flow.csv")), read_flow(os.path.join(work, "pour_ck", "flow.csv"))
            after = [r for r in rows if int(r["step"]) > int(rows[0]["step"])]
            ok = bitwise_equal(ref_st, st) and after == [r for r in ref_rows if int(r["step"]) in set(int(x["step"]) for x in after)] and len(after) > 0
        check(ok, "continued on %d rank(s) from %s: final state and flow.csv rows bitwise the 2-rank run's (%s)" % (np_, ck, error_line(se)))

    # Insertion among particles at rest: no overlap, the same at any rank count.
    ref = None
    for np_, grid in ((1, "1,1,1"), (2, "2,1,1"), (3, "1,3,1"), (3, "1,1,3")):
        out = "filled_%d_%s" % (np_, grid.replace(",", ""))
        rc, so, se = run(np_, ["run", "filled.yaml", "-output_dir", out], grid)
        check(rc == 0, "filled at %d rank(s), grid %s: completes (%s)" % (np_, grid, error_line(se)))
        if rc != 0:
            continue
        st = read_final(os.path.join(work, out, "final.h5"))
        new = st["id"] > 300
        ov = max_overlap(st, 301)
        among = int((st["position"][new, 2] < 0.03).sum())
        top = float((st["position"][new, 2] + st["radius"][new]).max())
        check(new.sum() == 50 and ov <= 1e-9 and among > 10 and top <= 0.033,
              "filled at %d rank(s), grid %s: %d new particles after the first batch (50 due), %d among the fill, largest overlap with them %.3g of a radius, "
              "none through the ceiling wall (top %.6g <= 0.033)" % (np_, grid, int(new.sum()), among, ov, top))
        if ref is None:
            ref = st
        else:
            check(bitwise_equal(ref, st), "filled at %d rank(s), grid %s: bitwise the 1-rank state" % (np_, grid))

    # More than the box holds: warned once, with the figures; the shortfall in flow.csv.
    for np_, grid in ((1, "1,1,1"), (3, "3,1,1")):
        out = "full_%d" % np_
        rc, so, se = run(np_, ["run", "filled.yaml", "-stream0_rate", "1e6", "-output_dir", out], grid)
        check(rc == 0, "too full at %d rank(s): completes (%s)" % (np_, error_line(se)))
        if rc != 0:
            continue
        text = so + se
        rows = read_flow(os.path.join(work, out, "flow.csv"))
        short, ins = int(rows[-1]["stream0_short"]), int(rows[-1]["stream0_inserted"])
        st = read_final(os.path.join(work, out, "final.h5"))
        ov = max_overlap(st, 301)
        check(text.count("stream0: region too full") == 1 and ("%d particles short of the rate" % short) in text and short > 0 and ins + short == 10000,
              "too full at %d rank(s): warned once, %d placed, %d short (flow.csv): %s" % (
                  np_, ins, short, [l for l in text.splitlines() if "too full" in l][:1]))
        check(ov <= 1e-9, "too full at %d rank(s): the %d new particles overlap nothing (%.3g)" % (np_, ins, ov))

    # Bad decks: the key named, nothing written.
    bad = [
        ("a negative rate", ["-stream0_rate", "-5"], ["-stream0_rate"]),
        ("rate and mass_rate", ["-stream0_mass_rate", "0.1"], ["-stream0_rate", "-stream0_mass_rate", "not both"]),
        ("a stream box outside the domain", ["-stream0_region_hi", "0.018,0.018,0.07"], ["-stream0_region_lo/_hi", "domain"]),
        ("a stream box thinner than a diameter", ["-stream0_region_hi", "0.018,0.018,0.0455"], ["-stream0_region_lo/_hi", "largest diameter"]),
        ("an outflow outside the domain", ["-outflow0_region_lo", "0,0,-0.02", "-outflow0_region_hi", "0.02,0.02,-0.01"], ["-outflow0_region_lo/_hi", "domain"]),
        ("an outflow upside down", ["-outflow0_region_lo", "0,0,0.01"], ["-outflow0_region_lo", "-outflow0_region_hi"]),
    ]
    for what, args, words in bad:
        out = "bad_" + what.replace(" ", "_")
        rc, so, se = run(1, ["run", "pour.yaml", "-output_dir", out] + args)
        check(rc not in (0, None) and all(w in se for w in words) and not os.path.exists(os.path.join(work, out)),
              "%s: exit %s, names %s, writes nothing (%s)" % (what, rc, words, error_line(se)))
    with open(os.path.join(work, "neither.yaml"), "w") as f:
        f.write(POUR.replace("  rate: %g\n" % RATE, ""))
    rc, so, se = run(1, ["run", "neither.yaml", "-output_dir", "bad_neither"])
    check(rc not in (0, None) and "-stream0_rate" in se and "-stream0_mass_rate" in se and not os.path.exists(os.path.join(work, "bad_neither")),
          "neither rate nor mass_rate: exit %s, names both keys, writes nothing (%s)" % (rc, error_line(se)))

    print("%d failed" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
