#!/usr/bin/python3
"""Moisture contents: a material's liquid by mass fraction, converted to each particle's liquid.

- A random fill of spheres and dumbbells (two touching spheres) of two sizes at
  moisture w = 0.02, liquid density 1000 kg/m^3: after one step (nothing touches)
  final.h5's liquid is w m / ((1 - w) rho_l) for each sphere, and for each dumbbell
  that of its mass shared evenly by its two spheres; hdem check's largest bridge is
  2 liquid_bridge_fraction times the largest sphere's liquid.
- The fill settled under gravity: bridges form, liquid_total in thermo.csv stays the
  start's at every row (the sum of the stated liquids).
- Bad keys (a moisture below 0, at 1, both a liquid volume and a moisture content, a
  type's moisture out of range) are errors naming the key before any step.
"""
import argparse
import csv
import math
import os
import re
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")
W, RHO, RHO_L, FRAC = 0.02, 2500.0, 1000.0, 0.1
DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.01, 0.01, 0.02]
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
  liquid_bridge_fraction: %g
insert:
  mode: random
  count: 200
  radius: {distribution: discrete, values: [0.4e-3, 0.6e-3], weights: [1, 1]}
  body: [sphere, clump0]
  body_weights: [1, 1]
clump0:
  spheres: [-1, 0, 0, 1, 1, 0, 0, 1]
thermo_interval: 200
thermo_screen: false
snapshot:
  frames: 0
end_time: 0.03
""" % (RHO, W, RHO_L, FRAC)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_moisture_")
    with open(os.path.join(work, "wet.yaml"), "w") as f:
        f.write(DECK)

    def run(args):
        return harness.run([hdem] + args, expect=None, cwd=work, timeout=500)

    p = run(["run", "wet.yaml", "-output_dir", "one", "-steps", "1"])
    check(p.returncode == 0, "one step completes (%s)" % p.stderr.strip()[-300:])
    if p.returncode:
        return check.report()
    with h5py.File(os.path.join(work, "one", "final.h5"), "r") as f:
        g = f["particles"]
        r, L, body, ids = g["radius"][:], g["liquid"][:], g["body"][:], g["id"][:]
    k = W / ((1 - W) * RHO_L)
    sph = np.array([(body == b).sum() == 1 for b in body])
    want = k * RHO * 4 / 3 * math.pi * r ** 3          # a sphere's; a dumbbell row's: half its body's
    err = np.abs(L - want) / want
    check(sph.sum() > 50 and (~sph).sum() > 100 and err.max() < 1e-12,
          "liquid per particle w m / ((1 - w) rho_l): %d spheres and %d dumbbell rows, largest error %.2g"
          % (sph.sum(), (~sph).sum(), err.max()))
    lb = {b: L[body == b].sum() for b in np.unique(body[~sph])}
    mb = {b: 2 * RHO * 4 / 3 * math.pi * r[body == b][0] ** 3 for b in lb}
    e2 = max(abs(lb[b] - k * mb[b]) / (k * mb[b]) for b in lb)
    check(e2 < 1e-12, "each dumbbell holds w m_body / ((1 - w) rho_l) (largest error %.2g)" % e2)
    p = run(["check", "wet.yaml"])
    m = re.search(r"at most ([0-9.e+-]+) m\^3", p.stdout)
    vmax = 2 * FRAC * k * RHO * 4 / 3 * math.pi * 0.6e-3 ** 3
    check(p.returncode == 0 and m and abs(float(m.group(1)) - vmax) <= 1e-5 * vmax,
          "hdem check: the largest bridge %s m^3, 2 f times the largest sphere's liquid %.6g" % (m.group(1) if m else None, vmax))

    p = run(["run", "wet.yaml", "-output_dir", "settle"])
    check(p.returncode == 0, "the wet fill settles (%s)" % p.stderr.strip()[-300:])
    if p.returncode == 0:
        rows = list(csv.DictReader(open(os.path.join(work, "settle", "thermo.csv"))))
        tot = [float(x["liquid_total"]) for x in rows]
        check(len(rows) > 5 and int(rows[-1]["bridges"]) > 20 and max(abs(t - L.sum()) for t in tot) <= 1e-12 * L.sum(),
              "liquid conserved: liquid_total %.10g at each of %d rows, the stated liquids' sum %.10g; %s bridges at the end"
              % (tot[-1], len(rows), L.sum(), rows[-1]["bridges"]))

    bad = [
        ("a moisture below 0", ["-material_moisture", "-0.01"], ["-material_moisture"]),
        ("a moisture of 1", ["-material_moisture", "1"], ["-material_moisture"]),
        ("a type's moisture above 1", ["-material2_moisture", "1.5"], ["-material2_moisture"]),
        ("a liquid and a moisture", ["-material_liquid", "1e-12"], ["-material_liquid", "-material_moisture", "not both"]),
        ("a type's liquid and moisture", ["-material1_liquid", "1e-12", "-material1_moisture", "0.1"],
         ["-material1_liquid", "-material1_moisture", "not both"]),
        ("a liquid density of 0", ["-contact_liquid_density", "0"], ["-contact_liquid_density"]),
    ]
    for what, args, words in bad:
        out = "bad_" + what.replace(" ", "_").replace("'", "")
        p = run(["run", "wet.yaml", "-output_dir", out] + args)
        err = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr.strip()[-200:])
        check(p.returncode != 0 and all(w in p.stderr for w in words) and not os.path.exists(os.path.join(work, out)),
              "%s: exit %d, names %s, writes nothing (%s)" % (what, p.returncode, words, err))
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
