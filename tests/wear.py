#!/usr/bin/python3
"""Wear and loads on meshes (docs/deck/wear.md), end to end through `hdem run`.

- A sphere sliding without spin on a triangulated floor (mu 0.5, gravity)
  until before it rolls: the friction work on the floor is the closed form
  (m/7)(u0^2 - u^2) (u the contact point's slip speed: during sliding the
  friction force moves the slip by -(7/2) Ft/m whatever the normal force
  does), strip by strip along the path mu m g (v0 t - 7/4 mu g t^2) at the
  times the centre crosses the strips, on the triangles under the path and
  exactly zero elsewhere; Archard's sliding load is m g times the slip
  distance, the wear volume K/H of it, the depth the volume over the area; one
  impact above the threshold with energy m v0^2/2; a sphere resting beside it
  deposits m g t of normal impulse on its triangle (momentum balance) and no
  friction work; walls.csv's totals are the sums of final.h5's cells.
- A rotating drum with 300 beads (wear on, impacts counted): final.h5's and
  the snapshots' mesh cell data and walls.csv's wear columns are the same bits
  on 1, 2 and 4 ranks; continued from a 2-rank checkpoint on 4 ranks and on 1,
  the same bits as the uninterrupted run.
- A deck without wear writes no wear data and no wear columns.
- Bad keys (a negative coefficient, a zero hardness, a coefficient without
  hardness, wear keys with wear off) exit 1 naming the key.
- A checkpoint whose /wear rows were changed is refused naming the dataset.

    python3 tests/wear.py --hdem build/hdem --mpiexec mpiexec --meshgen tools/meshgen.py"""
import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

SLIDE = """domain:
  lo: [-0.05, -0.05, -0.02]
  hi: [0.1, 0.05, 0.1]
  walls: false
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
  file: two.data
neighbor:
  skin: 0.001
mesh0:
  file: floor.stl
  translate: [0.025, 0, 0]
  wear_archard: 1.0e-4
  wear_hardness: 1.0e9
  wear_impact_speed: 0.1
end_time: 0.04
thermo_interval: 1
snapshot:
  frames: 0
"""

# slider at y = -0.0225 (the middle of a row of cells), a resting sphere at y = +0.0225, both at the
# static Hertz overlap under their weight (2.7e-5 m) so that the normal force is m g from the start
TWO = """LAMMPS data

2 atoms
1 atom types

-0.05 0.1 xlo xhi
-0.05 0.05 ylo yhi
-0.02 0.1 zlo zhi

Atoms # sphere

1 1 0.02 2500 -0.03 -0.0225 0.009973
2 1 0.02 2500 0.0 0.0225 0.009973

Velocities

1 1.0 0 0 0 0 0
2 0 0 0 0 0 0
"""

R, RHO, MU, G, V0, X0, Y0 = 0.01, 2500.0, 0.5, 9.81, 1.0, -0.03, -0.0225
M = RHO * 4.0 / 3.0 * math.pi * R ** 3
K_A, H = 1.0e-4, 1.0e9

check = harness.Checks("ok   ", "FAIL ")


def rel(a, b):
    return abs(a - b) / abs(b)


def cells(path, mesh="mesh0"):
    with h5py.File(path, "r") as f:
        g = f["meshes/" + mesh]
        return {k: np.array(g[k]) for k in g}, float(f.attrs["time"])


def geometry(c):
    p = c["points"][c["triangles"]]
    return p.mean(axis=1), 0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1)


def walls_last(path):
    with open(path) as f:
        head = f.readline().strip().split(",")
        last = None
        for line in f:
            last = line.strip().split(",")
    return dict(zip(head, last))


def slide(a, tmp):
    d = os.path.join(tmp, "slide")
    os.makedirs(d)
    harness.run([sys.executable, a.meshgen, "plane", os.path.join(d, "floor.stl"), "--size", "0.2", "0.1",
                 "--cells", "40", "20"])
    open(os.path.join(d, "deck.yaml"), "w").write(SLIDE)
    open(os.path.join(d, "two.data"), "w").write(TWO)
    harness.run([a.hdem, "run", "deck.yaml", "-output_dir", "out"], cwd=d)
    c, T = cells(os.path.join(d, "out", "final.h5"))
    with h5py.File(os.path.join(d, "out", "final.h5"), "r") as f:
        ids = np.array(f["particles/id"])
        v = np.array(f["particles/velocity"])[np.argsort(ids)]
        w = np.array(f["particles/angular_velocity"])[np.argsort(ids)]
        x = np.array(f["particles/position"])[np.argsort(ids)]
    u_end = v[0, 0] - R * w[0, 1]
    check(u_end > 0.1, "the slider still slides at the end (slip %.4g m/s)" % u_end)
    cen, area = geometry(c)
    fw, imp = c["friction_work"], c["normal_impulse"]
    want = M / 7.0 * (V0 ** 2 - u_end ** 2)
    check(rel(fw.sum(), want) < 5e-3, "friction work %.6g J, (m/7)(u0^2 - u^2) = %.6g J (within 0.5%%)" % (fw.sum(), want))
    path = (np.abs(cen[:, 1] - Y0) < 0.0025) & (cen[:, 0] > X0 - 0.005) & (cen[:, 0] < x[0, 0] + 0.005)
    check(np.all(fw[~path] == 0.0) and np.all(fw[path] >= 0.0) and (fw[path] > 0).sum() >= 6,
          "friction work only on the %d triangles under the path, exactly zero on the other %d"
          % (int((fw > 0).sum()), int((~path).sum())))
    # strips of two cells (10 mm) along x, the centre's times from x(t) = v0 t - mu g t^2 / 2
    def t_of(xr):
        return (V0 - math.sqrt(V0 ** 2 - 2 * MU * G * xr)) / (MU * G)

    def W(t):
        return MU * M * G * (V0 * t - 1.75 * MU * G * t * t)
    worst = 0.0
    for s in range(4):  # the last strip holds the path's end
        lo, hi = -0.035 + 0.010 * s, -0.025 + 0.010 * s  # floor cells are [-0.075 + 0.005 k, ...)
        sel = path & (cen[:, 0] >= lo) & (cen[:, 0] < hi)
        a0, a1 = t_of(max(lo - X0, 0.0)), min(t_of(hi - X0), T)
        worst = max(worst, rel(fw[sel].sum(), W(a1) - W(a0)))
    check(worst < 0.01, "strip by strip along the path: the closed form within 1%% (worst %.2g%%)" % (100 * worst))
    t = T
    slip = V0 * t - 1.75 * MU * G * t * t
    check(rel(c["sliding_load"][path].sum(), M * G * slip) < 5e-3,
          "sliding load %.6g N m, m g times the slip distance %.6g" % (c["sliding_load"][path].sum(), M * G * slip))
    check(np.array_equal(c["wear_volume"], K_A / H * c["sliding_load"]), "wear volume = K/H sliding load, bitwise")
    check(np.array_equal(c["wear_depth"], K_A / H * c["sliding_load"] / area), "wear depth = volume / area")
    check(np.allclose(c["mean_pressure"], imp / (T * area), rtol=1e-14, atol=0), "mean pressure = impulse / (t A)")
    rest = cen[:, 1] > 0.0
    check(rel(imp[rest].sum(), M * G * T) < 1e-4 and np.all(fw[rest] == 0.0),
          "resting sphere: normal impulse %.6g N s, m g t = %.6g; no friction work" % (imp[rest].sum(), M * G * T))
    imp_e = c["impact_energy"]
    check(rel(imp_e.sum(), 0.5 * M * V0 ** 2) < 1e-4 and (imp_e > 0).sum() == 1 and imp_e[rest].sum() == 0.0,
          "one impact above 0.1 m/s: %.8g J, m v0^2/2 = %.8g J" % (imp_e.sum(), 0.5 * M * V0 ** 2))
    check(c["contacts"].sum() == 2, "two contacts begun (%g)" % c["contacts"].sum())
    row = walls_last(os.path.join(d, "out", "walls.csv"))
    with h5py.File(os.path.join(d, "out", "final.h5"), "r") as f:
        ok = int(row["step"]) == int(f.attrs["step"])
    for k, v in (("normal_impulse", imp.sum()), ("friction_work", fw.sum()), ("wear_volume", c["wear_volume"].sum()),
                 ("impact_energy", imp_e.sum()), ("contacts", c["contacts"].sum())):
        ok = ok and rel(float(row["mesh0_" + k]), v) < 1e-12
    check(ok, "walls.csv's last row (step %s): the totals of final.h5's cells" % row["step"])
    return d


def drum_deck(a, d):
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(a.root, "inputs", "meshes", "drum.stl"), d)
    s = open(os.path.join(a.root, "inputs", "drum.yaml")).read()
    s = s.replace("meshes/drum.stl", "drum.stl").replace("count: 1000", "count: 300")
    s = s.replace("end_time: 1.0", "end_time: 0.1").replace("thermo_interval: 5000", "thermo_interval: 500")
    s = s.replace("  angular_velocity: 3.0\n", "  angular_velocity: 3.0\n  wear_archard: 1.0e-3\n"
                  "  wear_hardness: 1.0e8\n  wear_impact_speed: 0.05\n")
    s = s.replace("interval_time: 0.05", "interval_time: 0.04")
    open(os.path.join(d, "deck.yaml"), "w").write(s)


def same_cells(p, q):
    a, b = cells(p)[0], cells(q)[0]
    return [k for k in a if a[k].tobytes() != b[k].tobytes()]


def wear_columns(path):
    with open(path) as f:
        head = f.readline().strip().split(",")
        keep = [i for i, h in enumerate(head) if h.startswith("mesh0_") and not h[6:8] in ("fx", "fy", "fz", "tx", "ty", "tz")]
        return [head[i] for i in keep], [[line.strip().split(",")[i] for i in [0] + keep] for line in f]


def drum(a, tmp):
    d = os.path.join(tmp, "drum")
    drum_deck(a, d)

    def run(np_, out, *extra):
        harness.run(harness.mpi(a.mpiexec, np_) + [a.hdem, "run", "deck.yaml", "-output_dir", out, *extra], cwd=d)
    run(1, "o1")
    ref = os.path.join(d, "o1")
    c, _ = cells(os.path.join(ref, "final.h5"))
    check((c["friction_work"] > 0).sum() > 10 and c["impact_energy"].sum() > 0 and c["contacts"].sum() > 100,
          "the drum wears: %d triangles with friction work, %g contacts" % ((c["friction_work"] > 0).sum(),
                                                                            c["contacts"].sum()))
    head, rows = wear_columns(os.path.join(ref, "walls.csv"))
    check(len(head) == 5 and len(rows) > 3, "walls.csv: five wear columns for mesh0 (%s)" % ",".join(head))
    snaps = sorted(os.listdir(os.path.join(ref, "snapshots")))
    with open(os.path.join(ref, "snapshots.xdmf")) as f:
        x = f.read()
    check('Center="Cell"' in x and "meshes/mesh0/wear_depth" in x, "snapshots.xdmf: the wear as cell attributes")
    for np_ in (2, 4):
        out = "o%d" % np_
        run(np_, out, "-checkpoint_interval_steps", "2000", "-checkpoint_keep", "20") if np_ == 2 else run(np_, out)
        bad = same_cells(os.path.join(ref, "final.h5"), os.path.join(d, out, "final.h5"))
        bad += [s for s in snaps if same_cells(os.path.join(ref, "snapshots", s), os.path.join(d, out, "snapshots", s))]
        check(not bad, "%d ranks: final.h5's and the snapshots' wear cells the same bits as 1 rank's (differ: %s)"
              % (np_, bad))
        check(wear_columns(os.path.join(d, out, "walls.csv")) == (head, rows),
              "%d ranks: walls.csv's wear columns the same as 1 rank's" % np_)
    ck = os.path.join(d, "o2", "checkpoints", "step_000002000.h5")
    with h5py.File(ck, "r") as f:
        check("wear/mesh0" in f and f["wear/mesh0"].shape[1] == 14, "the checkpoint keeps /wear/mesh0")
    for np_ in (4, 1):
        out = "r%d" % np_
        run(np_, out, "-restart", ck)
        bad = same_cells(os.path.join(ref, "final.h5"), os.path.join(d, out, "final.h5"))
        check(not bad, "continued from a 2-rank checkpoint on %d rank(s): final.h5's wear the same bits (differ: %s)"
              % (np_, bad))
        h2, r2 = wear_columns(os.path.join(d, out, "walls.csv"))
        check(r2[-1] == rows[-1], "  and walls.csv's last wear row")
    # a changed /wear row is refused, naming it
    bad_ck = os.path.join(tmp, "bad.h5")
    shutil.copy(ck, bad_ck)
    with h5py.File(bad_ck, "r+") as f:
        ds = f["wear/mesh0"]
        row = ds[0]
        row[1] += 1
        ds[0] = row
    p = subprocess.run([a.hdem, "run", "deck.yaml", "-output_dir", "bad", "-restart", bad_ck], cwd=d,
                       capture_output=True, text=True)
    check(p.returncode != 0 and "wear/mesh0" in p.stdout + p.stderr,
          "a changed /wear/mesh0 row refused, naming it (exit %d)" % p.returncode)
    # without wear: nothing of it
    p = subprocess.run([a.hdem, "run", "deck.yaml", "-output_dir", "off", "-end_time", "0.005",
                        "-mesh0_wear_archard", "0", "-mesh0_wear", "false"], cwd=d, capture_output=True, text=True)
    check(p.returncode == 1 and "-mesh0_wear_archard" in p.stderr, "wear keys with -mesh0_wear false: exit 1 naming the key")


def off_and_bad(a, d):
    s = SLIDE
    for k in ("  wear_archard: 1.0e-4\n", "  wear_hardness: 1.0e9\n", "  wear_impact_speed: 0.1\n"):
        s = s.replace(k, "")
    open(os.path.join(d, "off.yaml"), "w").write(s.replace("end_time: 0.04", "end_time: 0.005"))
    harness.run([a.hdem, "run", "off.yaml", "-output_dir", "off"], cwd=d)
    c, _ = cells(os.path.join(d, "off", "final.h5"))
    head = open(os.path.join(d, "off", "walls.csv")).readline()
    check(sorted(c) == ["points", "triangles"] and "impulse" not in head and "wear" not in head,
          "without wear: no cell data, no wear columns")
    for extra, key in ((["-mesh0_wear_archard", "-1"], "-mesh0_wear_archard"),
                       (["-mesh0_wear_hardness", "0"], "-mesh0_wear_hardness"),
                       (["-mesh0_wear_impact_speed", "-0.5"], "-mesh0_wear_impact_speed"),
                       (["-mesh0_wear_archard", "1e-4"], "-mesh0_wear_hardness")):
        p = subprocess.run([a.hdem, "run", "off.yaml", "-output_dir", "bad", *extra], cwd=d, capture_output=True,
                           text=True)
        check(p.returncode == 1 and key in p.stderr and not os.path.exists(os.path.join(d, "bad", "final.h5")),
              "%s: exit 1 naming %s" % (" ".join(extra), key))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--meshgen", required=True)
    a = ap.parse_args()
    a.hdem = os.path.abspath(a.hdem)
    a.meshgen = os.path.abspath(a.meshgen)
    a.root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp(prefix="hdem_wear_")
    try:
        d = slide(a, tmp)
        off_and_bad(a, d)
        drum(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
