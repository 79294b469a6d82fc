#!/usr/bin/python3
"""Liquid brought by a stream and taken by an outflow: the balance closes exactly.

A wet pour (moisture 0.02) on a floor: a random fill above the floor, a stream
from above, an outflow over the floor's left half (x < 15 mm, z < 2.5 mm) that
removes the particles whose centres sink into it, most of them held by liquid
bridges to their neighbours.

- At every thermo row, thermo.csv's liquid_total (on the particles and in the
  bridges) equals the start's plus flow.csv's stream0_liquid less
  outflow0_liquid to TOL relative (exact sums: the only rounding is that of the
  halves of the removed particles' bridges added to the partners' films).  A
  removal that lost its bridges' liquid (their share of it vanishing with the
  records) misses by about 1e-4 of the total and fails this check; on 2 ranks
  (grid 2 x 1 x 1, equal slabs: the cut along the outflow's right face) a
  partner on the other rank than the removed particle must get its half too.
- stream0_liquid is the inserted particles' liquid, w m / ((1 - w) rho_l) of
  stream0_mass; summary.json's flow_liquid has flow.csv's last row.
- flow.csv and thermo.csv (but its wall clock) are the same bits on 1, 2 and 3
  ranks, and continued from a checkpoint written on 3 ranks on 2 ranks.
- The same deck dry writes no liquid columns.
"""
import argparse
import csv
import json
import os
import shutil
import sys
import tempfile

import harness

check = harness.Checks("ok   ", "FAIL ")
TOL = 1e-12
W, RHO, RHO_L = 0.02, 2500.0, 1000.0
DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.03, 0.012, 0.02]
gravity: [0, 0, -9.81]
particle_density: %g
material:
  E: 1.0e7
  nu: 0.3
  moisture: %g
contact:
  law: hertz
  e: 0.5
  mu: 0.3
  liquid_density: %g
  liquid_bridge_fraction: 0.1
insert:
  mode: random
  count: 120
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  region_lo: [0, 0, 0.004]
  region_hi: [0.03, 0.012, 0.01]
stream0:
  region_lo: [0.008, 0.001, 0.013]
  region_hi: [0.022, 0.011, 0.019]
  rate: 2000
  interval: 0.01
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  velocity: [0, 0, -0.3]
outflow0:
  region_lo: [0, 0, 0]
  region_hi: [0.015, 0.012, 0.0025]
balance:
  mode: none
thermo_interval: 200
thermo_screen: false
snapshot:
  frames: 0
end_time: 0.08
""" % (RHO, W, RHO_L)


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def text(path, drop_last=False):
    with open(path) as f:
        lines = f.read().splitlines()
    return [ln.rsplit(",", 1)[0] for ln in lines] if drop_last else lines


def balance(out):
    """The largest relative miss of liquid_total against start + in - out over the thermo rows."""
    th, fl = rows(os.path.join(out, "thermo.csv")), {r["step"]: r for r in rows(os.path.join(out, "flow.csv"))}
    f0 = fl[th[0]["step"]]
    check(float(f0["outflow0_liquid"]) == 0.0, "%s: nothing removed at the start" % out)
    start, worst, through = float(th[0]["liquid_total"]), 0.0, 0
    for k, r in enumerate(th):
        f = fl[r["step"]]
        lin, lout = float(f["stream0_liquid"]), float(f["outflow0_liquid"])
        worst = max(worst, abs(float(r["liquid_total"]) - (start + lin - lout)) / (start + lin))
        # removals between two rows while bridges stood
        if k and float(f["outflow0_liquid"]) > float(fl[th[k - 1]["step"]]["outflow0_liquid"]) and float(r["bridges"]) > 0:
            through += 1
    return worst, through, len(th)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_liquid_flow_")
    with open(os.path.join(work, "pour.yaml"), "w") as f:
        f.write(DECK)

    def run(np_, out, *extra, deck="pour.yaml"):
        p = harness.run(harness.mpi(a.mpiexec, np_) + [hdem, "run", deck, "-output_dir", out] + list(extra),
                        expect=None, cwd=work, timeout=900)
        check(p.returncode == 0, "%s on %d rank(s) completes (%s)" % (out, np_, p.stderr.strip()[-300:]))
        return p.returncode == 0

    outs = {}
    for np_ in (1, 2, 3):
        out = os.path.join(work, "np%d" % np_)
        if not run(np_, out, "-domain_grid", "%d,1,1" % np_):
            return check.report()
        outs[np_] = out
    ref = outs[1]
    for np_, out in outs.items():
        worst, through, n = balance(out)
        check(worst <= TOL, "%d rank(s): liquid_total = start + stream0_liquid - outflow0_liquid at all %d rows "
              "to %.2g relative (tolerance %g)" % (np_, n, worst, TOL))
        check(through >= 5, "%d rank(s): %d rows follow removals while bridges stood" % (np_, through))
    fl = rows(os.path.join(ref, "flow.csv"))
    last = fl[-1]
    removed, mass = int(last["outflow0_removed"]), float(last["stream0_mass"])
    check(removed >= 20, "the outflow took %d particles" % removed)
    want = W * mass / ((1 - W) * RHO_L)
    got = float(last["stream0_liquid"])
    check(abs(got / want - 1) < 1e-12, "stream0_liquid %.17g = w m / ((1 - w) rho_l) of stream0_mass %.17g" % (got, want))
    with open(os.path.join(ref, "summary.json")) as f:
        fj = json.load(f).get("flow_liquid", {})
    check(fj.get("stream0") == float(last["stream0_liquid"]) and fj.get("outflow0") == float(last["outflow0_liquid"]),
          "summary.json's flow_liquid %s is flow.csv's last row" % fj)
    for np_ in (2, 3):
        check(text(os.path.join(ref, "flow.csv")) == text(os.path.join(outs[np_], "flow.csv")),
              "flow.csv on %d ranks: the same bits as on 1" % np_)
        check(text(os.path.join(ref, "thermo.csv"), True) == text(os.path.join(outs[np_], "thermo.csv"), True),
              "thermo.csv on %d ranks (but wall_seconds): the same bits as on 1" % np_)
    ck = os.path.join(work, "ck")
    if run(3, ck, "-domain_grid", "3,1,1", "-checkpoint_interval_steps", "20000", "-checkpoint_keep", "5"):
        d = os.path.join(work, "cont")
        shutil.copytree(ck, d)
        if run(2, d, "-domain_grid", "2,1,1", "-restart", os.path.join(d, "checkpoints", "step_000020000.h5")):
            check(text(os.path.join(ref, "flow.csv")) == text(os.path.join(d, "flow.csv")),
                  "checkpoint at step 20000 on 3 ranks, continued on 2: flow.csv the same bits")
            check(text(os.path.join(ref, "thermo.csv"), True) == text(os.path.join(d, "thermo.csv"), True),
                  "and thermo.csv (but wall_seconds)")
    with open(os.path.join(work, "dry.yaml"), "w") as f:
        f.write("".join(ln + "\n" for ln in DECK.splitlines() if "moisture" not in ln and "liquid_" not in ln))
    dry = os.path.join(work, "dry")
    if run(1, dry, "-end_time", "0.01", deck="dry.yaml"):
        head = text(os.path.join(dry, "flow.csv"))[0]
        check("liquid" not in head, "dry: flow.csv has no liquid columns (%s)" % head)
    if not check.failures:
        shutil.rmtree(work, ignore_errors=True)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
