#!/usr/bin/python3
"""The outflows' statistics: flow_bins.csv (removals binned along an axis) and
residence.csv (residence times since insertion), and counters (outflowN_remove
false).

- Free fall: two streams insert spheres of two sizes at rest at one height
  (z = 0.125 m exactly) over the two ends of the box, an outflow takes them
  0.1 m lower, binned along x in 4 bins, and a counter counts them 0.05 m
  lower without removing them. Closed forms: every removal lies in the end
  bin under its stream (the middle bins stay empty), class 0 only at x < 0.01
  and class 1 only at x > 0.03, the two equal in number; each bin's mass is
  its count times the sphere's mass; residence times (mean, 10/50/90 %) are
  sqrt(2 h / g) within the residence bins' resolution (1.2 %); the counter's
  count is the removals plus the particles now between the two planes, and
  summary.json's removed leaves the counter out. At 1, 2 and 4 ranks (grids
  cutting x): flow.csv, flow_bins.csv and residence.csv the same bytes.
- A pour with collisions into a half-floor outflow binned along x over part
  of the box (the end bins take the rest), a counter above it, residence
  times: the same bytes at 1, 2 and 4 ranks; at every row the bins' counts and
  masses and the residence counts add up to flow.csv's totals by class; a
  checkpoint of a 2-rank run continued on 4 and on 1 rank into a copy of its
  output folder gives the uninterrupted run's files byte for byte.
- Bad keys (a bin axis not x|y|z, bin_count < 1, bin_lo >= bin_hi, bins
  without an axis, flow_residence without an outflow): non-zero exit naming
  the key, nothing written.
"""
import argparse
import csv
import io
import json
import math
import os
import shutil
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")

HEAD = """material:
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

# radii 2^-10 and 1.5 2^-10 m, boxes exactly two radii tall: every centre starts at z = 0.125
R0, R1, RHO, G, Z0, Z_OUT, Z_COUNT = 0.0009765625, 0.00146484375, 2500.0, 9.81, 0.125, 0.025, 0.075
FALL = HEAD + """domain:
  lo: [0, 0, 0]
  hi: [0.04, 0.04, 0.2]
gravity: [0, 0, -9.81]
stream0:
  region_lo: [0, 0, 0.1240234375]
  region_hi: [0.01, 0.04, 0.1259765625]
  rate: 300
  interval: 0.03
  radius: 0.0009765625
stream1:
  region_lo: [0.03, 0, 0.12353515625]
  region_hi: [0.04, 0.04, 0.12646484375]
  rate: 300
  interval: 0.03
  radius: 0.00146484375
outflow0:
  region_lo: [0, 0, 0]
  region_hi: [0.04, 0.04, 0.025]
  bin_axis: x
  bin_count: 4
outflow1:
  region_lo: [0, 0, 0.025]
  region_hi: [0.04, 0.04, 0.075]
  remove: false
flow:
  size_classes: [0.0025]
  residence: true
end_time: 0.3
"""

POUR = HEAD + """domain:
  lo: [0, 0, 0]
  hi: [0.02, 0.02, 0.06]
gravity: [0, 0, -9.81]
stream0:
  region_lo: [0.002, 0.002, 0.045]
  region_hi: [0.018, 0.018, 0.058]
  rate: 2000
  interval: 0.01
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  velocity: [0, 0, -0.5]
  velocity_random: 0.1
outflow0:
  region_lo: [0, 0, 0]
  region_hi: [0.02, 0.01, 0.004]
  bin_axis: x
  bin_lo: 0.005
  bin_hi: 0.015
  bin_count: 5
outflow1:
  region_lo: [0, 0, 0]
  region_hi: [0.02, 0.02, 0.02]
  remove: false
  bin_axis: y
  bin_count: 2
flow:
  size_classes: [1.2e-3]
  residence: true
end_time: 0.1
"""


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_flow_stats_")
    for name, text in (("fall", FALL), ("pour", POUR)):
        with open(os.path.join(work, name + ".yaml"), "w") as f:
            f.write(text)

    def run(np_, args, grid=None, expect=0):
        cmd = harness.mpi(a.mpiexec, np_) + [hdem] + args + (["-domain_grid", grid] if grid else [])
        return harness.run(cmd, expect=expect, cwd=work, timeout=500)

    files = ("flow.csv", "flow_bins.csv", "residence.csv")

    # ---- free fall: closed forms, and the same bytes on 1, 2, 4 ranks
    ref = None
    for np_, grid in ((1, "1,1,1"), (2, "2,1,1"), (4, "4,1,1")):
        out = os.path.join(work, "fall_%d" % np_)
        run(np_, ["run", "fall.yaml", "-output_dir", out], grid)
        got = [read_bytes(os.path.join(out, f)) for f in files]
        if ref is None:
            ref = got
            check_fall(out)
        else:
            check(got == ref, "free fall at %d ranks (grid %s): flow.csv, flow_bins.csv, residence.csv the 1-rank bytes"
                  % (np_, grid))

    # ---- a pour with collisions: bitwise on 1, 2, 4 ranks, totals, restarts
    ref = None
    for np_, grid in ((1, "1,1,1"), (2, "1,2,1"), (4, "2,2,1")):
        out = os.path.join(work, "pour_%d" % np_)
        run(np_, ["run", "pour.yaml", "-output_dir", out], grid)
        got = [read_bytes(os.path.join(out, f)) for f in files]
        if ref is None:
            ref = got
            check_totals(out)
        else:
            check(got == ref, "pour at %d ranks (grid %s): flow.csv, flow_bins.csv, residence.csv the 1-rank bytes"
                  % (np_, grid))
    steps = json.load(open(os.path.join(work, "pour_1", "summary.json")))["steps"]
    ck = os.path.join(work, "pour_ck")
    run(2, ["run", "pour.yaml", "-output_dir", ck, "-checkpoint_interval_steps", str(max(1, steps // 3)),
            "-checkpoint_keep", "5"], "1,2,1")
    whole = [read_bytes(os.path.join(ck, f)) for f in files]
    check(whole == ref, "pour with checkpoints at 2 ranks: the same bytes as without")
    cks = sorted(f for f in os.listdir(os.path.join(ck, "checkpoints")) if f.endswith(".h5"))
    for np_, grid, name in ((4, "2,2,1", cks[0]), (1, "1,1,1", cks[1] if len(cks) > 1 else cks[0])):
        cont = os.path.join(work, "pour_cont_%d" % np_)
        shutil.copytree(ck, cont)
        run(np_, ["run", "pour.yaml", "-output_dir", cont, "-restart", os.path.join(cont, "checkpoints", name)], grid)
        got = [read_bytes(os.path.join(cont, f)) for f in files]
        check(got == whole, "continued on %d ranks from %s: flow.csv, flow_bins.csv, residence.csv the uninterrupted "
              "run's bytes" % (np_, name))

    # ---- bad keys
    bad = [
        ("a bin axis w", ["-outflow0_bin_axis", "w"], "-outflow0_bin_axis"),
        ("bin_count 0", ["-outflow0_bin_count", "0"], "-outflow0_bin_count"),
        ("bin_lo above bin_hi", ["-outflow0_bin_lo", "0.02"], "-outflow0_bin_lo"),
        ("bins without an axis", ["-outflow0_bin_axis", "none"], "-outflow0_bin_axis"),
    ]
    for what, args, key in bad:
        out = os.path.join(work, "bad_" + what.replace(" ", "_"))
        p = run(1, ["run", "pour.yaml", "-output_dir", out] + args, expect=None)
        check(p.returncode not in (0, None) and key in p.stderr and not os.path.exists(out),
              "%s: exit %s, names %s, writes nothing (%s)" % (what, p.returncode, key, p.stderr.strip()[-200:]))
    with open(os.path.join(work, "nores.yaml"), "w") as f:
        f.write(POUR.split("outflow0:")[0] + "flow:\n  residence: true\nend_time: 0.01\n")
    out = os.path.join(work, "bad_nores")
    p = run(1, ["run", "nores.yaml", "-output_dir", out], expect=None)
    check(p.returncode not in (0, None) and "-flow_residence" in p.stderr and not os.path.exists(out),
          "flow_residence without an outflow: exit %s, named, writes nothing (%s)" % (p.returncode,
                                                                                      p.stderr.strip()[-200:]))
    return check.report()


def check_fall(out):
    bins, res, flow = (rows_of(os.path.join(out, f)) for f in ("flow_bins.csv", "residence.csv", "flow.csv"))
    check(list(bins[0].keys()) == "time,outflow,class,axis,bin,lo,hi,count,mass".split(",")
          and list(res[0].keys()) == "time,outflow,class,count,mean,q10,q50,q90".split(","),
          "flow_bins.csv and residence.csv headers")
    t = bins[-1]["time"]
    last = [r for r in bins if r["time"] == t]
    cnt = {(int(r["class"]), int(r["bin"])): int(r["count"]) for r in last}
    mass = {(int(r["class"]), int(r["bin"])): float(r["mass"]) for r in last}
    n = cnt[(0, 0)]
    empty = all(v == 0 for k, v in cnt.items() if k not in ((0, 0), (1, 3)))
    check(n > 20 and cnt[(1, 3)] == n and empty and len(last) == 8,
          "free fall: class 0 removed in bin 0 alone, class 1 in bin 3 alone, %d each (%s)" % (n, cnt))
    m0, m1 = 4.0 / 3.0 * math.pi * RHO * R0 ** 3, 4.0 / 3.0 * math.pi * RHO * R1 ** 3
    check(abs(mass[(0, 0)] - n * m0) <= 1e-12 * n * m0 and abs(mass[(1, 3)] - n * m1) <= 1e-12 * n * m1,
          "free fall: the bins' masses are count x sphere mass (%.12g, %.12g)" % (mass[(0, 0)], mass[(1, 3)]))
    fl = flow[-1]
    check(fl["time"] == t and int(fl["outflow0_removed"]) == 2 * n and int(fl["stream0_short"]) == 0
          and int(fl["stream1_short"]) == 0, "free fall: flow.csv's last row removed %s = the bins' %d, no shortfall"
          % (fl["outflow0_removed"], 2 * n))
    resolution = 10 ** (1 / 200) - 1
    for k, h in ((0, Z0 - Z_OUT), (1, Z0 - Z_COUNT)):
        exact = math.sqrt(2 * h / G)
        for c in (0, 1):
            r = [x for x in res if x["time"] == t and int(x["outflow"]) == k and int(x["class"]) == c][0]
            vals = [float(r[q]) for q in ("mean", "q10", "q50", "q90")]
            worst = max(abs(v - exact) / exact for v in vals)
            check(int(r["count"]) > 20 and worst <= resolution,
                  "free fall: outflow%d class %d residence mean, q10, q50, q90 %s = sqrt(2 h / g) = %.6g s within "
                  "%.2g (off %.2g), %s particles" % (k, c, vals, exact, resolution, worst, r["count"]))
    # the counter: what it counted was removed since or is between its plane and the outflow's
    with h5py.File(os.path.join(out, "final.h5"), "r") as f:
        z = f["particles/position"][:, 2]
    between = int(((z <= Z_COUNT) & (z > Z_OUT)).sum())
    counted = int(fl["outflow1_removed"])
    summ = json.load(open(os.path.join(out, "summary.json")))
    check(counted == 2 * n + between and counted > 2 * n,
          "free fall: the counter counted %d = %d removed + %d between the planes" % (counted, 2 * n, between))
    ins = int(fl["stream0_inserted"]) + int(fl["stream1_inserted"])
    check(summ["removed"] == 2 * n and summ["particles"] == ins - 2 * n,
          "free fall: summary.json removed %s, particles %s: the counter's particles stay"
          % (summ["removed"], summ["particles"]))


def check_totals(out):
    bins, res, flow = (rows_of(os.path.join(out, f)) for f in ("flow_bins.csv", "residence.csv", "flow.csv"))
    bad, nrow = [], 0
    for fr in flow:
        t = fr["time"]
        for k in (0, 1):
            for c in (0, 1):
                b = [r for r in bins if r["time"] == t and int(r["outflow"]) == k and int(r["class"]) == c]
                rr = [r for r in res if r["time"] == t and int(r["outflow"]) == k and int(r["class"]) == c]
                n, m = int(fr["outflow%d_removed_d%d" % (k, c)]), float(fr["outflow%d_mass_d%d" % (k, c)])
                bn, bm = sum(int(r["count"]) for r in b), sum(float(r["mass"]) for r in b)
                if len(b) != (5 if k == 0 else 2) or len(rr) != 1 or bn != n or int(rr[0]["count"]) != n \
                        or abs(bm - m) > 1e-12 * max(m, 1e-30):
                    bad.append((t, k, c, n, bn, m, bm))
        nrow += 1
    last = flow[-1]
    check(nrow > 5 and not bad and int(last["outflow0_removed"]) > 10 and int(last["outflow1_removed"]) > 10,
          "pour: at each of %d rows the bins' counts and masses and the residence counts add up to flow.csv's by "
          "outflow and class (removed %s, counted %s; off: %s)" % (nrow, last["outflow0_removed"],
                                                                   last["outflow1_removed"], bad[:3]))
    t = bins[-1]["time"]
    ends = [int(r["count"]) for r in bins if r["time"] == t and r["outflow"] == "0" and r["bin"] in ("0", "4")]
    check(sum(ends) > 0 and all(r["axis"] == "x" for r in bins if r["outflow"] == "0")
          and all(r["axis"] == "y" for r in bins if r["outflow"] == "1"),
          "pour: the end bins take what lies beyond bin_lo, bin_hi (%s); axes as given" % ends)
    q = [[float(r[x]) for x in ("q10", "q50", "q90")] for r in res if r["time"] == t and int(r["count"]) > 0]
    check(q and all(0 < a <= b <= c for a, b, c in q), "pour: residence quantiles positive and ordered %s" % q)


if __name__ == "__main__":
    sys.exit(main())
