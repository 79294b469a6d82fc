#!/usr/bin/python3
"""A stream's batch too large for one block, placed by the ranks near each block:

1. 80,000 spheres due in one batch (nine blocks of a flat box) poured among a
   random fill of 20,000 at rest (no gravity, no velocities: nothing moves unless
   it overlaps), with a second stream of one block due at the same step in the
   middle of the first's box (its trials flagged by the owners of the first's
   particles): final.h5 bitwise the same on 1, 2, 3 and 4 ranks (`hdem diff`),
   ids 1 .. N without gaps, no pair overlapping (nor any contact in thermo.csv),
   flow.csv the same bytes; summary.json's stream_candidates the batches, and the
   candidates each rank drew: all of them at 1 rank, at 4 ranks (2 x 2) at most
   60 % of the large batch's (each rank draws only the blocks near it);
2. bodies (two- and three-sphere clumps) streamed over several blocks of a box
   periodic along x and y that touches its faces: the same bodies and sphere ids
   (1 .. N, no gaps) on 1 and 3 ranks, no two bodies' spheres overlapping;
3. memory at a fixed share: a batch of 25,000 spheres a rank into a box as long
   as the ranks (slabs along x) on 1, 2, 4 and 8 ranks: at least 90 % placed, and the
   largest rank's peak memory (summary.json) within 10 % of one rank's (every
   rank drawing every candidate, as one block would, grows it with the ranks)."""
import argparse
import csv
import json
import os
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks()

SPHERES = """domain:
  lo: [0, 0, 0]
  hi: [0.2, 0.2, 0.012]
gravity: [0, 0, 0]
material:
  E: 1.0e7
  nu: 0.3
particle:
  density: 2500
contact:
  law: hertz
  e: 0.5
  mu: 0.5
thermo_interval: 1
thermo_screen: false
snapshot:
  frames: 0
insert:
  mode: random
  count: 20000
  seed: 3
  region_lo: [0.005, 0.005, 0.002]
  region_hi: [0.195, 0.195, 0.0115]
  radius: 0.6e-3
stream0:                     # every candidate due at the first step: one batch of 80,000
  region_lo: [0.005, 0.005, 0.002]
  region_hi: [0.195, 0.195, 0.0115]
  rate: 1.0e12
  count: 80000
  interval: 0
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  seed: 5
stream1:                     # one block, due at the same step in the middle of stream0's box: it must miss them
  region_lo: [0.08, 0.08, 0.002]
  region_hi: [0.12, 0.12, 0.0115]
  rate: 1.0e12
  count: 3000
  interval: 0
  radius: 0.6e-3
  seed: 6
steps: 1
"""

BODIES = """domain:
  lo: [0, 0, 0]
  hi: [0.4, 0.1, 0.02]
  periodic: [true, true, false]
  walls: true
gravity: [0, 0, 0]
material:
  E: 1.0e7
  nu: 0.3
particle:
  density: 2500
contact:
  law: hertz
  e: 0.5
  mu: 0.5
thermo_interval: 1
thermo_screen: false
snapshot:
  frames: 0
clump0:
  spheres: [-0.5e-3, 0, 0, 0.8e-3,   0.5e-3, 0, 0, 0.8e-3]
clump1:
  spheres: [-0.6e-3, 0, 0, 0.6e-3,   0, 0, 0, 0.6e-3,   0.6e-3, 0, 0, 0.6e-3]
stream0:                     # the box's faces are the domain's: blocks meet across the periodic faces
  region_lo: [0, 0, 0.001]
  region_hi: [0.4, 0.1, 0.019]
  rate: 1.0e12
  count: 40000
  interval: 0
  radius: {distribution: uniform, min: 0.8e-3, max: 1.0e-3}
  body: [clump0, clump1]
  seed: 9
steps: 1
"""


def write(work, name, text):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(args, np_, path, out, grid):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", path, "-output_dir", out, "-domain_grid", grid]
    return harness.run(cmd, expect=None, timeout=1200)


def summary(out):
    p = os.path.join(out, "summary.json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def same(args, a, b):
    p = harness.run([args.hdem, "diff", os.path.join(a, "final.h5"), os.path.join(b, "final.h5")], expect=None)
    d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
    return d.get("identical"), {k: d[k] for k in d if k != "fields"}


def final(out):
    with h5py.File(os.path.join(out, "final.h5"), "r") as f:
        g = f["particles"]
        o = np.argsort(g["id"][()], kind="stable")
        st = {k: g[k][()][o] for k in ("id", "position", "radius")}
        st["body"] = g["body"][()][o] if "body" in g else st["id"]
        return st


def max_overlap(st):
    """Largest overlap of two spheres of different bodies over the smaller radius
    (cells of the largest diameter; every pair of neighbouring cells compared)."""
    x, r, body = st["position"], st["radius"], st["body"]
    w = 2.0 * r.max()
    c = np.floor((x - x.min(axis=0)) / w).astype(np.int64)
    dims = c.max(axis=0) + 3
    key = lambda q: ((q[:, 0] + 1) * dims[1] + (q[:, 1] + 1)) * dims[2] + (q[:, 2] + 1)
    order = np.argsort(key(c), kind="stable")
    skey = key(c)[order]
    worst = 0.0
    for off in np.array(np.meshgrid([-1, 0, 1], [-1, 0, 1], [-1, 0, 1])).T.reshape(-1, 3):
        nk = key(c + off)
        lo, hi = np.searchsorted(skey, nk, "left"), np.searchsorted(skey, nk, "right")
        for j in range(int((hi - lo).max())):
            i = np.nonzero(lo + j < hi)[0]
            m = order[lo[i] + j]
            keep = (m != i) & (body[m] != body[i])
            i, m = i[keep], m[keep]
            d = np.sqrt(((x[i] - x[m]) ** 2).sum(axis=1))
            if len(i):
                worst = max(worst, float(((r[i] + r[m] - d) / np.minimum(r[i], r[m])).max()))
    return worst


def thermo_contacts(out):
    with open(os.path.join(out, "thermo.csv")) as f:
        return max(int(row["contacts"]) for row in csv.DictReader(f))


def spheres(args, work):
    path = write(work, "spheres", SPHERES)
    ref = None
    for np_, grid in ((1, "1,1,1"), (2, "2,1,1"), (3, "1,3,1"), (4, "2,2,1")):
        out = os.path.join(work, "spheres_np%d" % np_)
        p = run(args, np_, path, out, grid)
        s = summary(out)
        if not check(p.returncode == 0 and s is not None, "spheres at %d rank(s), grid %s: runs (%s)"
                     % (np_, grid, p.stderr[-500:])):
            continue
        par = s["parallel"]
        total, drawn = par.get("stream_candidates"), par.get("stream_candidates_drawn", {})
        print("  %d rank(s): %d placed of %d candidates; drawn per rank min %s mean %s max %s"
              % (np_, s["inserted"], total or 0, drawn.get("min"), drawn.get("mean"), drawn.get("max")))
        check(total == 83000, "%d rank(s): summary.json's stream_candidates is the batches' 83,000 (%s)" % (np_, total))
        if np_ == 1:
            check(drawn.get("max") == 83000, "1 rank draws every candidate (%s)" % drawn.get("max"))
        if np_ == 4:
            check(drawn.get("max") is not None and drawn["max"] <= 3000 + 0.6 * 80000 and drawn["min"] > 3000,
                  "4 ranks: the largest share drawn by a rank %s is at most 60 %% of stream0's 80,000 (and "
                  "stream1's 3,000, one block every rank draws)" % drawn.get("max"))
        if ref is None:
            st = final(out)
            n = len(st["id"])
            check(20000 + s["inserted"] == n and s["inserted"] > 60000 and s["inserted"] < 83000,
                  "%d of the 83,000 placed among the fill (some find no room), %d particles" % (s["inserted"], n))
            check(np.array_equal(st["id"], np.arange(1, n + 1)), "ids are 1 .. %d without gaps" % n)
            with open(os.path.join(out, "flow.csv")) as f:
                last = list(csv.DictReader(f))[-1]
            check(int(last["stream1_inserted"]) > 100 and int(last["stream0_inserted"]) > 60000,
                  "both streams place particles (stream0 %s, stream1 %s)" % (last["stream0_inserted"],
                                                                         last["stream1_inserted"]))
            ov = max_overlap(st)
            check(ov <= 1e-9 and thermo_contacts(out) == 0,
                  "no pair overlaps (largest %.3g of a radius), no contact in thermo.csv" % ov)
            ref = out
            continue
        ok, d = same(args, ref, out)
        check(ok, "%d ranks, grid %s: final.h5 bitwise as 1 rank's (%s)" % (np_, grid, d))
        with open(os.path.join(ref, "flow.csv"), "rb") as a, open(os.path.join(out, "flow.csv"), "rb") as b:
            check(a.read() == b.read(), "%d ranks: flow.csv the same bytes" % np_)


def bodies(args, work):
    path = write(work, "bodies", BODIES)
    outs = []
    for np_, grid in ((1, "1,1,1"), (3, "3,1,1")):
        out = os.path.join(work, "bodies_np%d" % np_)
        p = run(args, np_, path, out, grid)
        s = summary(out)
        if check(p.returncode == 0 and s is not None, "bodies at %d rank(s): runs (%s)" % (np_, p.stderr[-500:])):
            print("  %d rank(s): %d bodies placed; drawn per rank %s" % (np_, s["inserted"],
                                                                      s["parallel"]["stream_candidates_drawn"]))
            outs.append(out)
    if len(outs) < 2:
        return
    ok, d = same(args, outs[0], outs[1])
    check(ok, "bodies: 3 ranks bitwise as 1 (%s)" % d)
    st = final(outs[0])
    n = len(st["id"])
    nb = len(np.unique(st["body"]))
    check(n > 40000 and nb == summary(outs[0])["inserted"] and np.array_equal(st["id"], np.arange(1, n + 1)),
          "%d bodies of %d spheres, sphere ids 1 .. %d without gaps" % (nb, n, n))
    ov = max_overlap(st)
    check(ov <= 1e-9, "no two bodies' spheres overlap (largest %.3g of a radius)" % ov)


SHARE = """domain:
  lo: [0, 0, 0]
  hi: [%(L)g, 0.05, 0.04]
gravity: [0, 0, 0]
material:
  E: 1.0e7
  nu: 0.3
particle:
  density: 2500
contact:
  law: hertz
  e: 0.5
  mu: 0.5
thermo_screen: false
snapshot:
  frames: 0
stream0:                     # 25,000 a rank due at the first step, 23 %% of the box's volume
  region_lo: [0, 0, 0]
  region_hi: [%(L)g, 0.05, 0.04]
  rate: 1.0e12
  count: %(n)d
  interval: 0
  radius: {distribution: uniform, min: 0.5e-3, max: 0.7e-3}
  seed: 7
steps: 1
"""


def share(args, work):
    peak = {}
    for np_ in (1, 2, 4, 8):
        path = write(work, "share%d" % np_, SHARE % {"L": 0.05 * np_, "n": 25000 * np_})
        out = os.path.join(work, "share_np%d" % np_)
        p = run(args, np_, path, out, "%d,1,1" % np_)
        s = summary(out)
        if not check(p.returncode == 0 and s is not None, "share at %d rank(s): runs (%s)" % (np_, p.stderr[-500:])):
            continue
        check(s["inserted"] >= 0.9 * 25000 * np_, "%d rank(s): %d of the %d placed (at least 90 %%)"
              % (np_, s["inserted"], 25000 * np_))
        print("  drawn per rank %s" % s["parallel"].get("stream_candidates_drawn"))
        harness.note_peak(peak, np_, s)
    harness.peaks_flat(check, peak)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    args = ap.parse_args()
    args.hdem = os.path.abspath(args.hdem)
    with tempfile.TemporaryDirectory(prefix="hdem_stream_blocks_") as work:
        spheres(args, work)
        bodies(args, work)
        share(args, work)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
