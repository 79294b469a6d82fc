#!/usr/bin/python3
"""tools/wear.py on a fixture with known answers and on a run's output.

Fixture (written here): a mesh of four triangles in the plane z = 0.5, two
unit squares split by a diagonal, with known friction work and wear depth:
`top` lists them largest first (a tie keeps the lower index first) with
their centroids and areas; --csv gives the same rows as numbers; `map`
writes a PNG in which the largest triangle's colour (viridis' top, yellow)
and the smallest's (its bottom, purple) both show; `list` gives the totals;
a missing mesh and a mesh without wear are named.  A run: a sphere sliding
along x on a floor (tests/wear.py's deck, shorter): the most-worn triangles
by friction work lie under its path.

    tests/wear_tool.py --tool tools/wear.py [--hdem build/hdem --meshgen tools/meshgen.py]"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

check = harness.Checks("ok   ", "FAIL ")

POINTS = np.array([[0, 0, 0.5], [1, 0, 0.5], [1, 1, 0.5], [0, 1, 0.5], [2, 0, 0.5], [2, 1, 0.5]], dtype=float)
TRI = np.array([[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]], dtype=np.int64)
FRICTION = np.array([1.0, 4.0, 4.0, 0.0])    # a tie: triangle 1 before triangle 2
DEPTH = np.array([2e-9, 1e-9, 8e-9, 0.0])


def fixture(path):
    with h5py.File(path, "w") as f:
        g = f.create_group("meshes/mesh0")
        g["points"], g["triangles"] = POINTS, TRI
        for k in ("normal_impulse", "mean_pressure", "sliding_load", "wear_volume", "impact_energy", "contacts"):
            g[k] = np.zeros(4)
        g["friction_work"], g["wear_depth"] = FRICTION, DEPTH
        h = f.create_group("meshes/mesh1")
        h["points"], h["triangles"] = POINTS, TRI
        f.attrs["time"] = 1.0


def tool(a, *args, expect=0):
    p = subprocess.run([sys.executable, a.tool, *args], capture_output=True, text=True)
    if p.returncode != expect:
        print(p.stdout, p.stderr)
    return p


def fixture_checks(a, d):
    path = os.path.join(d, "fix.h5")
    fixture(path)
    p = tool(a, "top", path, "--by", "friction_work", "-n", "3", "--csv")
    rows = [line.split(",") for line in p.stdout.split()[1:]]
    check(p.returncode == 0 and [r[0] for r in rows] == ["1", "2", "0"], "top 3 by friction work: 1, 2, 0 (a tie: "
          "the lower index first): %s" % [r[0] for r in rows])
    want = {"1": ((0 + 1 + 0) / 3, (0 + 1 + 1) / 3, 0.5, 0.5, 4.0), "2": ((1 + 2 + 2) / 3, (0 + 0 + 1) / 3, 0.5, 0.5, 4.0)}
    ok = all(np.allclose([float(x) for x in r[1:]], want[r[0]], rtol=1e-15, atol=0) for r in rows if r[0] in want)
    check(ok, "their centroids, areas (0.5) and values")
    p = tool(a, "top", path, "--by", "wear_depth", "-n", "1")
    check(p.returncode == 0 and p.stdout.split("\n")[1].split()[0] == "2" and "8e-09" in p.stdout,
          "top 1 by wear depth: triangle 2, 8e-09 m")
    png = os.path.join(d, "map.png")
    p = tool(a, "map", path, png, "--by", "wear_depth")
    ok = p.returncode == 0 and os.path.getsize(png) > 1000
    if ok:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        img = plt.imread(png)[:, :, :3]
        cmap = matplotlib.colormaps["viridis"]
        top, bottom = np.array(cmap(1.0)[:3]), np.array(cmap(0.0)[:3])
        near = lambda c: (np.abs(img - c).max(axis=2) < 0.02).sum()
        ok = near(top) > 500 and near(bottom) > 500
    check(ok, "map: a PNG where the most worn (viridis yellow) and the unworn (purple) triangles show")
    p = tool(a, "list", path)
    check(p.returncode == 0 and "mesh0: 4 triangles" in p.stdout and "friction_work 9" in p.stdout
          and "mesh1" not in p.stdout, "list: mesh0's totals, not the wearless mesh1")
    p = tool(a, "top", path, "--mesh", "mesh7", expect=1)
    check(p.returncode == 1 and "mesh7" in p.stderr, "a missing mesh is named")
    p = tool(a, "top", path, "--mesh", "mesh1", expect=1)
    check(p.returncode == 1 and "keeps no wear" in p.stderr, "a mesh without wear is named")


def run_checks(a, d):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import wear
    harness.run([sys.executable, a.meshgen, "plane", os.path.join(d, "floor.stl"), "--size", "0.2", "0.1",
                 "--cells", "40", "20"])
    open(os.path.join(d, "deck.yaml"), "w").write(wear.SLIDE.replace("end_time: 0.04", "end_time: 0.02"))
    open(os.path.join(d, "two.data"), "w").write(wear.TWO)
    harness.run([a.hdem, "run", "deck.yaml", "-output_dir", "out"], cwd=d)
    p = tool(a, "top", os.path.join(d, "out", "final.h5"), "--by", "friction_work", "-n", "4", "--csv")
    rows = [[float(x) for x in line.split(",")] for line in p.stdout.split()[1:]]
    check(p.returncode == 0 and len(rows) == 4 and all(abs(r[2] - wear.Y0) < 0.0025 and r[5] > 0 for r in rows)
          and all(rows[k][5] >= rows[k + 1][5] for k in range(3)),
          "a run: the four most-worn triangles by friction work lie under the slider's path, largest first")
    p = tool(a, "map", os.path.join(d, "out", "final.h5"), os.path.join(d, "run.png"), "--by", "friction_work", "--log")
    check(p.returncode == 0 and os.path.getsize(os.path.join(d, "run.png")) > 1000, "a run: its map (log colours)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--hdem")
    ap.add_argument("--meshgen")
    a = ap.parse_args()
    a.tool = os.path.abspath(a.tool)
    d = tempfile.mkdtemp(prefix="hdem_wear_tool_")
    try:
        fixture_checks(a, d)
        if a.hdem:
            a.hdem, a.meshgen = os.path.abspath(a.hdem), os.path.abspath(a.meshgen)
            run_checks(a, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
