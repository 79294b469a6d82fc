#!/usr/bin/python3
"""Streams fed by a sieve curve, and size classes by sieve size.

- Two streams given the same sieve curve by mass rate (1-2-3-4 mm, 20/50/30 % by
  mass), one of spheres, one of dumbbells of two touching spheres (a dumbbell's
  sieve size is its spheres' diameter): the mass fraction in each sieve interval,
  the number fraction (the curve's mass converted to number probabilities) and the
  mass-weighted mean size within each interval (the midpoint: mass uniform in size)
  within 4 standard deviations of the curve's, from the few thousand particles in
  final.h5; the mass inserted is mass_rate x the last batch's time within a particle.
- Counters over each stream's box with flow_size_measure sieve: their class masses
  (flow.csv) are final.h5's by sieve size; with volume, the dumbbells' classes
  follow their volume-equivalent diameters, 2^(1/3) their sieve size.
- The same deck at 1 and 2 ranks: final.h5 the same particles bit for bit.
- Bad curves (decreasing, not reaching 1, not starting at 0, sizes not increasing,
  a size <= 0, counts that differ, with the radius keys): an error naming the key
  before any step, nothing written.
"""
import argparse
import csv
import math
import os
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")
SIZES = [1.0e-3, 2.0e-3, 3.0e-3, 4.0e-3]
PASSING = [0.0, 0.2, 0.7, 1.0]
MASS_RATE, INTERVAL, T_END, STOP1 = 0.8, 0.01, 0.07, 0.06
DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.2, 0.1, 0.1]
gravity: [0, 0, 0]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.5
neighbor_skin: 2.0e-5        # rebuilds often: the counters count every particle soon after it came
thermo_interval: 1000
thermo_screen: false
snapshot:
  frames: 0
clump0:                      # a dumbbell: sieve size 2, volume-equivalent diameter 2^(4/3)
  spheres: [-1, 0, 0, 1, 1, 0, 0, 1]
stream0:
  region_lo: [0.0, 0.0, 0.0]
  region_hi: [0.095, 0.1, 0.1]
  mass_rate: %(rate)g
  interval: %(interval)g
  sieve_sizes: %(sizes)s
  sieve_passing: %(passing)s
  velocity_random: 0.02
  seed: 11
stream1:
  region_lo: [0.105, 0.0, 0.0]
  region_hi: [0.2, 0.1, 0.1]
  mass_rate: %(rate)g
  interval: %(interval)g
  sieve_sizes: %(sizes)s
  sieve_passing: %(passing)s
  velocity_random: 0.02
  body: clump0
  type: 2
  seed: 12
  stop_time: %(stop1)g
outflow0:
  region_lo: [-0.01, -0.01, -0.01]
  region_hi: [0.1, 0.11, 0.11]
  remove: false
outflow1:
  region_lo: [0.1, -0.01, -0.01]
  region_hi: [0.21, 0.11, 0.11]
  remove: false
flow:
  size_classes: [2.0e-3, 3.0e-3]
  size_measure: sieve
end_time: %(end)g
""" % {"rate": MASS_RATE, "interval": INTERVAL, "sizes": SIZES, "passing": PASSING, "stop1": STOP1, "end": T_END}


def read_final(path):
    with h5py.File(path, "r") as f:
        g = f["particles"]
        ids = g["id"][:]
        order = np.argsort(ids, kind="stable")
        return {k: g[k][:][order] for k in ("id", "body", "type", "radius", "position", "velocity", "angular_velocity")}


def expected_number_fractions():
    n = []
    for i in range(1, len(SIZES)):
        a, b, w = SIZES[i - 1], SIZES[i], PASSING[i] - PASSING[i - 1]
        n.append(w * (a + b) / (2 * a * a * b * b))
    return np.array(n) / sum(n)


def curve_checks(what, d, m):
    """d: sieve sizes, m: masses of one stream's particles."""
    n, M = len(d), m.sum()
    w = np.diff(PASSING)
    nexp = expected_number_fractions()
    for i in range(len(w)):
        a, b = SIZES[i], SIZES[i + 1]
        inside = (d >= a * (1 - 1e-12)) & (d <= b * (1 + 1e-12))
        F = m[inside].sum() / M
        # the ratio estimator's spread: var(m (1_i - F)) / (n mean(m)^2)
        sd = math.sqrt(np.var(m * (inside - F)) / n) / m.mean()
        check(abs(F - w[i]) <= 4 * sd, "%s: mass fraction in [%g, %g] mm %.4f, the curve's %.4f (4 sd %.4f)"
              % (what, a * 1e3, b * 1e3, F, w[i], 4 * sd))
        p = inside.mean()
        sdn = math.sqrt(nexp[i] * (1 - nexp[i]) / n)
        check(abs(p - nexp[i]) <= 4 * sdn, "%s: number fraction in [%g, %g] mm %.4f, from the curve %.4f (4 sd %.4f)"
              % (what, a * 1e3, b * 1e3, p, nexp[i], 4 * sdn))
        mi, di = m[inside], d[inside]
        mean = (mi * di).sum() / mi.sum()
        sdm = math.sqrt(np.var(mi * (di - mean)) / len(di)) / mi.mean()
        check(abs(mean - 0.5 * (a + b)) <= 4 * sdm, "%s: mass-weighted mean size in [%g, %g] mm %.5g mm, the midpoint "
              "(mass uniform in size) within 4 sd %.3g mm" % (what, a * 1e3, b * 1e3, mean * 1e3, 4 * sdm * 1e3))
    return n


def class_masses(d, m, edges):
    c = np.searchsorted(edges, d, side="right")
    return [float(m[c == k].sum()) for k in range(len(edges) + 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_sieve_feed_")
    with open(os.path.join(work, "feed.yaml"), "w") as f:
        f.write(DECK)

    def run(np_, args, grid=None):
        cmd = harness.mpi(a.mpiexec, np_) + [hdem] + args + (["-domain_grid", grid] if grid else [])
        return harness.run(cmd, expect=None, cwd=work, timeout=500)

    p1 = run(1, ["run", "feed.yaml", "-output_dir", "one"])
    check(p1.returncode == 0, "the sieve feed at 1 rank completes (%s)" % p1.stderr.strip()[-300:])
    p2 = run(2, ["run", "feed.yaml", "-output_dir", "two", "-flow_size_measure", "volume"], "1,2,1")
    check(p2.returncode == 0, "the sieve feed at 2 ranks (flow_size_measure volume) completes (%s)" % p2.stderr.strip()[-300:])
    if p1.returncode or p2.returncode:
        return check.report()
    check("sieve size 2 m" in p1.stdout, "run's banner gives clump0's sieve size, 2 m (%s)"
          % [l for l in p1.stdout.splitlines() if "clump0" in l])
    s1, s2 = read_final(os.path.join(work, "one", "final.h5")), read_final(os.path.join(work, "two", "final.h5"))
    same = s1.keys() == s2.keys() and all(s1[k].tobytes() == s2[k].tobytes() and s1[k].dtype == s2[k].dtype for k in s1)
    check(same, "final.h5 at 1 and 2 ranks: the same %d particles bit for bit (%s)" % (len(s1["id"]), sorted(s1.keys())))
    rows = list(csv.DictReader(open(os.path.join(work, "one", "flow.csv"))))
    rows2 = list(csv.DictReader(open(os.path.join(work, "two", "flow.csv"))))
    last, last2 = rows[-1], rows2[-1]
    rho, t = 2500.0, s1["type"]
    # spheres: size the diameter; dumbbells: the body's spheres' diameter, its mass two spheres'
    sph = t == 1
    d0, m0 = 2 * s1["radius"][sph], rho * 4 / 3 * math.pi * s1["radius"][sph] ** 3
    db = (t == 2) & (s1["id"] == s1["body"])
    rb = s1["radius"][db]
    d1, m1 = 2 * rb, 2 * rho * 4 / 3 * math.pi * rb ** 3
    n0 = curve_checks("stream0 (spheres)", d0, m0)
    n1 = curve_checks("stream1 (dumbbells)", d1, m1)
    check(n0 > 3000 and n1 > 1500 and n0 == int(last["stream0_inserted"]) and n1 == int(last["stream1_inserted"]),
          "a few thousand particles: %d spheres, %d dumbbells, flow.csv's counts" % (n0, n1))
    # the last batch an interval or less before the end (stream1's stop)
    for k, (n, m, tb) in enumerate(((n0, m0, T_END), (n1, m1, STOP1))):
        got = float(last["stream%d_mass" % k])
        lo, hi = MASS_RATE * (tb - INTERVAL) - m.max(), MASS_RATE * tb
        check(abs(got - m.sum()) <= 1e-9 * got and lo <= got <= hi,
              "stream%d: %.6g kg placed (final.h5 %.6g), within mass_rate x [%g, %g] s less a particle" % (k, got, m.sum(), tb - INTERVAL, tb))
    edges = [2.0e-3, 3.0e-3]
    for k, (d, m) in enumerate(((d0, m0), (d1, m1))):
        want = class_masses(d, m, edges)
        got = [float(last["outflow%d_mass_d%d" % (k, c)]) for c in range(3)]
        check(all(abs(g - w) <= 1e-9 * sum(want) for g, w in zip(got, want)),
              "outflow%d counts by sieve size: class masses %s kg, final.h5's %s" % (k, ["%.6g" % x for x in got], ["%.6g" % x for x in want]))
    want = class_masses(2 ** (1 / 3) * d1, m1, edges)
    got = [float(last2["outflow1_mass_d%d" % c]) for c in range(3)]
    check(all(abs(g - w) <= 1e-9 * sum(want) for g, w in zip(got, want)) and abs(got[0] - class_masses(d1, m1, edges)[0]) > 1e-3 * sum(want),
          "flow_size_measure volume: the dumbbells' classes by 2^(1/3) their sieve size %s kg, final.h5's %s"
          % (["%.6g" % x for x in got], ["%.6g" % x for x in want]))

    bad = [
        ("a decreasing curve", ["-stream0_sieve_passing", "0,0.5,0.4,1"], ["-stream0_sieve_passing", "must not decrease"]),
        ("a curve short of 1", ["-stream0_sieve_passing", "0,0.2,0.7,0.9"], ["-stream0_sieve_passing", "must reach 1"]),
        ("a curve not starting at 0", ["-stream0_sieve_passing", "0.1,0.2,0.7,1"], ["-stream0_sieve_passing", "must start at 0"]),
        ("sizes not increasing", ["-stream0_sieve_sizes", "1e-3,3e-3,2e-3,4e-3"], ["-stream0_sieve_sizes", "must increase"]),
        ("a size of 0", ["-stream0_sieve_sizes", "0,2e-3,3e-3,4e-3"], ["-stream0_sieve_sizes", "allowed (0,"]),
        ("a negative size", ["-stream0_sieve_sizes", "-1e-3,2e-3,3e-3,4e-3"], ["-stream0_sieve_sizes"]),
        ("counts that differ", ["-stream0_sieve_sizes", "1e-3,2e-3,4e-3"], ["-stream0_sieve_sizes", "-stream0_sieve_passing"]),
        ("with the radius keys", ["-stream0_radius", "1e-3"], ["-stream0_radius", "not both"]),
    ]
    for what, args, words in bad:
        out = "bad_" + what.replace(" ", "_")
        p = run(1, ["run", "feed.yaml", "-output_dir", out] + args)
        err = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr.strip()[-200:])
        check(p.returncode != 0 and all(w in p.stderr for w in words) and not os.path.exists(os.path.join(work, out)),
              "%s: exit %d, names %s, writes nothing (%s)" % (what, p.returncode, words, err))
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
