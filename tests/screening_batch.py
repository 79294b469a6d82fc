#!/usr/bin/python3
"""inputs/screening/batch.yaml shortened to 1.2 s at 1 rank: batch sieving of five
sphere sizes (2, 2.5, 3, 3.5 mm under a 4 mm square aperture, 5 mm over it), 200 of
each placed by five streams.

- Every stream placed its 200 spheres.
- Nothing at or above the aperture passes: the outflow under the plate removed no
  sphere of the class d >= 4 mm, and final.h5 still holds all 200 of them.
- The removals' class masses are count x the class's sphere mass (one size a class).
- The rates are ordered by size: the fraction of each class passed by the end
  falls strictly from 2 to 3.5 mm, and each of those passed some; tools/screen.py's
  first-order rates k (by count, from the first removal to the end) fall strictly
  with size, its Gaudin p too, and k of the 5 mm class is 0.
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")
RADII = [0.001, 0.00125, 0.0015, 0.00175, 0.0025]   # the classes' spheres, smallest first
EDGES = [0.00225, 0.00275, 0.00325, 0.004]          # the deck's flow_size_classes
END, PER_CLASS, RHO = 1.2, 200, 2500.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_screening_batch_")
    out = os.path.join(tmp, "batch")
    deck = os.path.join(a.root, "inputs", "screening", "batch.yaml")
    cmd = harness.mpi(a.mpiexec, 1) + [a.hdem, "run", deck, "-end_time", str(END), "-output_dir", out,
                                        "-snapshot_frames", "0", "-thermo_screen", "false"]
    p = harness.run(cmd, expect=None, timeout=600)
    if not check(p.returncode == 0, "the batch deck to %g s at 1 rank completes (%s)" % (END, p.stderr.strip()[-300:])):
        return check.report()
    last = list(csv.DictReader(open(os.path.join(out, "flow.csv"))))[-1]
    check(abs(float(last["time"]) - END) < 1e-4, "flow.csv's last row at %g s, within a step (%s)" % (END, last["time"]))
    placed = [int(last["stream%d_inserted" % k]) for k in range(5)]
    check(placed == [PER_CLASS] * 5, "each stream placed %d spheres (%s)" % (PER_CLASS, placed))
    # class C of the flow holds RADII[C]'s spheres
    n = [int(last["outflow0_removed_d%d" % c]) for c in range(5)]
    m = [float(last["outflow0_mass_d%d" % c]) for c in range(5)]
    check(n[4] == 0 and m[4] == 0.0, "no sphere at or above the 4 mm aperture passed (5 mm class: %d, %g kg)" % (n[4], m[4]))
    for c in range(4):
        mc = n[c] * RHO * 4.0 / 3.0 * math.pi * RADII[c] ** 3
        check(abs(m[c] - mc) <= 1e-9 * max(mc, 1e-30), "class %d: mass removed %.6g kg is %d spheres of d = %g mm (%.6g)"
              % (c, m[c], n[c], 2e3 * RADII[c], mc))
    with h5py.File(os.path.join(out, "final.h5"), "r") as f:
        r = np.asarray(f["/particles/radius"])
    big = int(np.sum(np.isclose(r, RADII[4])))
    check(big == PER_CLASS, "final.h5 holds all %d spheres of 5 mm (%d)" % (PER_CLASS, big))
    frac = [x / PER_CLASS for x in n]
    check(all(frac[c] > frac[c + 1] for c in range(3)) and frac[3] > 0,
          "the fraction passed falls with size, each below the aperture passing: %s" % ["%.3f" % x for x in frac])
    q = subprocess.run([sys.executable, os.path.join(a.root, "tools", "screen.py"), out, "--aperture", "0.004",
                        "--wire", "0.002", "--basis", "count", "--no-png", "--json", os.path.join(tmp, "screen.json")],
                       capture_output=True, text=True)
    if not check(q.returncode == 0, "tools/screen.py reads the run (%s)" % q.stderr.strip()[-300:]):
        return check.report()
    kin = json.load(open(os.path.join(tmp, "screen.json")))["kinetics"]["classes"]
    k = [c["k"] for c in kin]
    p = [c["gaudin_p"] for c in kin]
    check(all(k[c] > k[c + 1] for c in range(3)) and k[3] > 0 and k[4] == 0.0,
          "first-order rates k [1/s] fall with size, 0 above the aperture: %s" % ["%.3f" % x for x in k])
    check(all(p[c] > p[c + 1] for c in range(3)) and p[4] == 0.0, "Gaudin's p falls with size: %s" % ["%.4f" % x for x in p])
    r2 = [c["r2"] for c in kin[:4]]
    print("R^2 of the fits: %s" % ["%.3f" % x for x in r2])
    if not check.failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
