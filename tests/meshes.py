#!/usr/bin/python3
"""Mesh walls against the analytic plane, and bad mesh decks.

A sphere thrown obliquely (friction, rolling and sliding) onto a finely
triangulated plane mesh at a face, on an edge, at a vertex and on a diagonal
must end bitwise where the same sphere thrown at the plane wall z = 0 ends:
one contact wherever it touches, the plane's normal and overlap, the friction
history carried across triangle edges.  A plane with a surface velocity (a
belt) drags a sphere landing on it as the same belt as a mesh does (to
round-off: it rolls along a triangle edge).
Bad decks (missing STL, unknown motion, zero rotation axis, a file that is
not STL) exit 1 naming the key or file and write nothing.

    python3 tests/meshes.py --hdem build/hdem --meshgen tools/meshgen.py"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

DECK = """domain:
  lo: [-0.05, -0.05, -0.02]
  hi: [0.05, 0.05, 0.1]
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
  file: one.data
neighbor:
  skin: 0.001
end_time: 0.03
thermo_interval: 100000
snapshot:
  frames: 0
"""

DATA = """LAMMPS data

1 atoms
1 atom types

-0.05 0.05 xlo xhi
-0.05 0.05 ylo yhi
-0.02 0.1 zlo zhi

Atoms # sphere

1 1 0.01 2500 {x} {y} 0.0051

Velocities

1 {vx} {vy} -0.5 0 0 0
"""

check = harness.Checks("ok   ", "FAIL ")
FAILS = check.failures


def run(hdem, cwd, out, *extra):
    p = subprocess.run([hdem, "run", "deck.yaml", "-output_dir", out, *extra], cwd=cwd, capture_output=True, text=True)
    return p


def state(path):
    with h5py.File(path, "r") as f:
        return {k: np.array(f["particles/" + k]) for k in ("position", "velocity", "angular_velocity")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--meshgen", required=True)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("meshgen", a.meshgen)
    mg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mg)
    tmp = tempfile.mkdtemp(prefix="hdem_meshes_")
    with open(os.path.join(tmp, "deck.yaml"), "w") as f:
        f.write(DECK)
    mg.write(os.path.join(tmp, "plane.stl"), mg.plane(0.1, 0.1, 10, 10))
    mg.write(os.path.join(tmp, "plane_bin.stl"), mg.plane(0.1, 0.1, 20, 20, diagonal="same"), binary=True)
    # where the sphere lands: a face, an edge, a vertex, a diagonal; sliding across edges
    cases = [("face", 0.003, 0.0037, 0.1, 0.0), ("edge", 0.0, 0.003, 0.1, 0.0), ("vertex", 0.0, 0.0, 0.1, 0.05),
             ("diagonal", 0.005, 0.005, 0.3, 0.2), ("across", 0.0095, 0.0021, 0.4, 0.0)]
    for name, x, y, vx, vy in cases:
        with open(os.path.join(tmp, "one.data"), "w") as f:
            f.write(DATA.format(x=x, y=y, vx=vx, vy=vy))
        ref = run(a.hdem, tmp, "plane_" + name, "-wall0_normal", "0,0,1", "-wall0_point", "0,0,0")
        check(ref.returncode == 0, "%s: the plane wall's run (%s)" % (name, ref.stderr[-300:]))
        for stl in ("plane.stl", "plane_bin.stl"):
            p = run(a.hdem, tmp, "mesh_" + name, "-mesh0_file", stl)
            check(p.returncode == 0, "%s on %s: runs (%s)" % (name, stl, p.stderr[-300:]))
            if p.returncode or ref.returncode:
                continue
            s, r = state(os.path.join(tmp, "mesh_" + name, "final.h5")), state(os.path.join(tmp, "plane_" + name, "final.h5"))
            same = all(np.array_equal(s[k], r[k]) for k in s)
            moved = abs(s["position"][0][0] - x) > 1e-4
            check(same and moved, "%s on %s: bitwise the plane's end state (x %.6g -> %.6g, vx %.6g)" % (name, stl, x, s["position"][0][0], s["velocity"][0][0]))
    # walls.csv: the mesh feels the plane's force
    wm = np.genfromtxt(os.path.join(tmp, "mesh_across", "walls.csv"), delimiter=",", names=True)
    wp = np.genfromtxt(os.path.join(tmp, "plane_across", "walls.csv"), delimiter=",", names=True)
    check(np.array_equal(wm["mesh0_fz"], wp["wall0_fz"]) and np.array_equal(wm["mesh0_fx"], wp["wall0_fx"]), "walls.csv: the mesh's force is the plane's")
    # a belt: the same sphere at rest on a sliding surface, mesh and plane
    with open(os.path.join(tmp, "one.data"), "w") as f:
        f.write(DATA.format(x=0.0, y=0.0, vx=0.0, vy=0.0).replace("-0.5 0 0 0", "-0.05 0 0 0"))
    belt = ["-end_time", "0.05", "-mesh0_surface_velocity", "0.2,0,0"]
    p = run(a.hdem, tmp, "belt_mesh", "-mesh0_file", "plane.stl", *belt)
    q = run(a.hdem, tmp, "belt_plane", "-wall0_normal", "0,0,1", "-wall0_point", "0,0,0", "-wall0_surface_velocity", "0.2,0,0", "-end_time", "0.05")
    if p.returncode == 0 and q.returncode == 0:
        s, r = state(os.path.join(tmp, "belt_mesh", "final.h5")), state(os.path.join(tmp, "belt_plane", "final.h5"))
        # rolling along a triangle edge: the edge's normal is the plane's to round-off
        close = all(np.allclose(s[k], r[k], rtol=1e-12, atol=1e-15) for k in s)
        check(close and s["velocity"][0][0] > 0.01, "belt: dragged along +x (vx %.4g), the mesh as the plane to round-off" % s["velocity"][0][0])
    else:
        check(False, "belt runs: %s %s" % (p.stderr[-300:], q.stderr[-300:]))
    # bad decks: exit 1, the key or file named, nothing written
    with open(os.path.join(tmp, "bad.stl"), "w") as f:
        f.write("this is not an STL file\n")
    bad = [(["-mesh0_file", "missing.stl"], "missing.stl"), (["-mesh0_file", "plane.stl", "-mesh0_motion", "spin"], "mesh0_motion"),
           (["-mesh0_file", "plane.stl", "-mesh0_motion", "rotate", "-mesh0_axis", "0,0,0"], "mesh0_axis"),
           (["-mesh0_file", "bad.stl"], "bad.stl"), (["-mesh0_file", "plane.stl", "-mesh0_scale", "-1"], "mesh0_scale"),
           (["-mesh0_file", "plane.stl", "-mesh0_stop_time", "1", "-mesh0_start_time", "2"], "mesh0_stop_time"),
           (["-wall0_normal", "0,0,1", "-wall0_motion", "rotate", "-wall0_axis", "0,0,0"], "wall0_axis"),
           (["-mesh2_motion", "rotate"], "without -mesh2_file"), (["-wall3_frequency", "10"], "without -wall3_normal")]
    for k, (opts, word) in enumerate(bad):
        out = os.path.join(tmp, "bad%d" % k)
        p = run(a.hdem, tmp, out, *opts)
        check(p.returncode == 1 and word in p.stderr and not os.path.exists(out), "bad deck %s: exit %d, names %s" % (" ".join(opts), p.returncode, word))
    print("%d failed" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
