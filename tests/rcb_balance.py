#!/usr/bin/python3
"""The rcb load balance on two piles in opposite corners of a walled box at 4 ranks
(balance_mode rcb, balance_weight count): the slabs of the count mode stay at
twice the mean (one rank in two holds nothing), the tree of bisections made
before the first step evens the owned particles to within 1.10 of the mean and
keeps them there; final.h5 is bitwise the same as one rank's (hdem diff); a
restart on 4 ranks takes the tree back from the checkpoint (no new balance, the
same counts), one on 3 ranks makes a new tree, both bitwise the uninterrupted
run's; balance.csv (the ranks' owned particles at the thermo rows) is within 1.10
from step 0 on, its last row the summary's counts, and a restart writes the row
at its step again for its own ranks; an unknown balance_weight is refused naming
the key.  The balance runs at the default interval."""
import argparse
import csv
import json
import os
import random
import shutil
import sys
import tempfile
import harness

DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.04, 0.04, 0.02]
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.5
  mu: 0.5
insert:
  mode: lammps
  file: piles.data
neighbor:
  skin: 0.2e-3
thermo_interval: 50
"""


def write_piles(path):
    """Two jittered lattices of 10 x 10 x 8 spheres (1 mm) in opposite corners."""
    rnd = random.Random(3)
    pts = []
    for x0, y0 in [(0.0015, 0.0015), (0.0275, 0.0275)]:
        for i in range(10):
            for j in range(10):
                for k in range(8):
                    pts.append((x0 + i * 1.1e-3 + rnd.uniform(-5e-5, 5e-5), y0 + j * 1.1e-3 + rnd.uniform(-5e-5, 5e-5),
                                6e-4 + k * 1.1e-3 + rnd.uniform(0, 5e-5)))
    with open(path, "w") as f:
        f.write("two piles in opposite corners\n\n%d atoms\n1 atom types\n\n" % len(pts))
        f.write("0 0.04 xlo xhi\n0 0.04 ylo yhi\n0 0.02 zlo zhi\n\nAtoms # sphere\n\n")
        for n, (x, y, z) in enumerate(pts):
            f.write("%d 1 0.001 2500 %.9g %.9g %.9g\n" % (n + 1, x, y, z))
    return len(pts)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    args = ap.parse_args()
    check = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="hdem_rcb_")
    deck = os.path.join(tmp, "piles.yaml")
    with open(deck, "w") as f:
        f.write(DECK)
    n = write_piles(os.path.join(tmp, "piles.data"))
    rcb = ["-balance_mode", "rcb", "-balance_weight", "count", "-snapshot_frames", "0"]  # the default interval

    def run(np_, name, *opts):
        out = os.path.join(tmp, name)
        harness.run(harness.mpi(args.mpiexec, np_) + [args.hdem, "run", deck, "-output_dir", out, *opts])
        with open(os.path.join(out, "summary.json")) as f:
            return out, json.load(f)

    def ratio(s):
        o = s["owned_particles"]
        return max(o) * len(o) / sum(o)

    def rows(out):
        with open(os.path.join(out, "balance.csv")) as f:
            return [(int(r["step"]), int(r["particles"]), int(r["owned_min"]), int(r["owned_max"]),
                     float(r["imbalance"])) for r in csv.DictReader(f)]

    def same(a, b):
        p = harness.run([args.hdem, "diff", os.path.join(a, "final.h5"), os.path.join(b, "final.h5")], expect=None)
        try:
            return json.loads(p.stdout).get("identical", False)
        except ValueError:
            return False

    one, _ = run(1, "one", "-steps", "300", "-snapshot_frames", "0")
    slab_out, slabs = run(4, "slabs", "-steps", "100", "-balance_mode", "count", "-balance_interval", "50",
                   "-snapshot_frames", "0")
    check(ratio(slabs) >= 1.9, "4 ranks, count mode (slabs): owned %s, %.2f x the mean"
          % (slabs["owned_particles"], ratio(slabs)))
    full, s4 = run(4, "rcb4", "-steps", "300", "-checkpoint_interval_steps", "100", "-checkpoint_keep", "5", *rcb)
    check(s4["particles"] == n and s4["balance_tree"] == 1, "4 ranks, rcb: a tree (balance_tree %s), %d particles"
          % (s4["balance_tree"], s4["particles"]))
    check(s4["imbalance_first"] >= 1.9, "the first balance found the slabs at %.2f x the mean" % s4["imbalance_first"])
    check(ratio(s4) <= 1.10, "4 ranks, rcb: owned %s, %.3f x the mean (<= 1.10)" % (s4["owned_particles"], ratio(s4)))
    check(same(one, full), "4 ranks, rcb: final.h5 bitwise one rank's")
    b = rows(full)
    o = s4["owned_particles"]
    check(len(b) == 7 and [r[0] for r in b] == list(range(0, 301, 50)) and max(r[4] for r in b) <= 1.10
          and b[-1][1:4] == (sum(o), min(o), max(o)) and abs(b[-1][4] - ratio(s4)) < 1e-6,
          "4 ranks, rcb: balance.csv at every thermo row, within 1.10 from step 0 (%s), its last row the summary's"
          % ", ".join("%d: %.3f" % (r[0], r[4]) for r in b))
    b = rows(slab_out)
    check(b and b[-1][4] >= 1.9, "4 ranks, count mode (slabs): balance.csv says %.2f at step 100" % (b[-1][4] if b else 0))
    ck = os.path.join(full, "checkpoints", "step_000000100.h5")
    r4, s = run(4, "restart4", "-steps", "300", "-restart", ck, *rcb)
    check(s["balance_tree"] == 2 and s["imbalance_first"] == 1.0,
          "restart on 4 ranks: the tree restored (balance_tree %s, no first balance)" % s["balance_tree"])
    check(ratio(s) <= 1.10, "restart on 4 ranks: owned %s, %.3f x the mean" % (s["owned_particles"], ratio(s)))
    check(same(full, r4), "restart on 4 ranks: final.h5 bitwise the uninterrupted run's")
    r3, s = run(3, "restart3", "-steps", "300", "-restart", ck, *rcb)
    check(s["balance_tree"] == 1 and ratio(s) <= 1.10, "restart on 3 ranks: a new tree, owned %s, %.3f x the mean"
          % (s["owned_particles"], ratio(s)))
    check(same(full, r3), "restart on 3 ranks: final.h5 bitwise the uninterrupted run's")
    b = rows(r3)
    check(b and b[0][0] == 100 and b[0][1] == n and b[0][4] <= 1.10 and [r[0] for r in b] == list(range(100, 301, 50)),
          "restart on 3 ranks: balance.csv from the row at step 100 again (%s)" % (b[0] if b else None,))
    p = harness.run([args.hdem, "run", deck, "-output_dir", os.path.join(tmp, "bad"), "-steps", "10",
                     "-balance_weight", "mass"],
                    expect=None)
    check(p.returncode != 0 and "balance_weight" in p.stdout + p.stderr and "mass" in p.stdout + p.stderr,
          "-balance_weight mass refused naming the key and the value")
    if not check.failures:
        shutil.rmtree(tmp)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
