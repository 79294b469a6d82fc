#!/usr/bin/python3
"""Spheres wedged in the square apertures of a perforated plate (a mesh of one
flat surface, tools/meshgen.py plate): one contact per rim.

- frictionless, dropped off centre into one aperture: the sphere comes to rest
  on its four rims at the closed-form Hertz height (each rim's contact at the
  tilt theta of the geometry, 4 F(d) cos(theta) = m g with F = (4/3) E* sqrt(R)
  d^1.5, 1/E* = 2 (1 - nu^2)/E, the overlap d = R - |x - rim|) to a relative 1e-3
  of the overlap, and over the last 2,000 rows of walls.csv (one a step) the
  lateral force on the plate stays below 1e-3 of the sphere's weight (a surface
  that gave one contact held it by one rim at a time: the force flipped at
  about the weight every step) and its vertical force within 1e-3 of it;
- with friction, dropped off centre and turning: at rest the same bounds on the
  lateral force and the final force and torque on the sphere (1e-3 of m g, of
  m g R);
- four spheres pegged in a 2 x 2 plate with friction: the same final state and
  walls.csv bit for bit on 1, 2 and 4 ranks; the checkpoint taken at rest holds
  the rims' histories keyed by feature (MESH_KEY_REGION), and a restart from it
  on 4 ranks ends bitwise where the uninterrupted 2-rank run does; so does one
  on 1 rank from a checkpoint taken while they settle.

    python3 tests/rims.py --hdem build/hdem --mpiexec mpiexec --meshgen tools/meshgen.py"""
import argparse
import importlib.util
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

E, NU, RHO, R, G = 1.0e7, 0.3, 2500.0, 0.005, 9.81
APERTURE = 0.008
DECK = """domain:
  lo: [0, 0, -0.01]
  hi: [{side}, {side}, 0.02]
  walls: false
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.3
  mu: {mu}
  tangential_damping: 0.3  # the twist about the vertical rings on undamped springs
insert:
  mode: lammps
  file: spheres.data
mesh0:
  file: plate.stl
neighbor:
  skin: 0.0005
end_time: {end}
thermo_interval: 1
snapshot:
  frames: 0
"""
DATA = """LAMMPS data

{n} atoms
1 atom types

0 {side} xlo xhi
0 {side} ylo yhi
-0.01 0.02 zlo zhi

Atoms # sphere

{atoms}
Velocities

{velocities}
"""
REGION = 1 << 39  # trimesh.h's MESH_KEY_REGION
MESH_SHIFT = 40  # history.h's HISTORY_MESH_SHIFT

check = harness.Checks("PASS ", "FAIL ", flush=True)
A = None


def closed_form():
    """The four-rim rest height of the sphere's centre above the plate, and the overlap there."""
    estar = E / (2.0 * (1.0 - NU * NU))
    k = 4.0 / 3.0 * estar * math.sqrt(R)
    weight = 4.0 / 3.0 * math.pi * R ** 3 * RHO * G
    lo, hi = 0.0, 0.1 * R
    for _ in range(200):  # the overlap: the rims' vertical force grows with it
        d = 0.5 * (lo + hi)
        z = math.sqrt((R - d) ** 2 - (0.5 * APERTURE) ** 2)
        if 4.0 * k * d ** 1.5 * z / (R - d) < weight:
            lo = d
        else:
            hi = d
    d = 0.5 * (lo + hi)
    return math.sqrt((R - d) ** 2 - (0.5 * APERTURE) ** 2), d, weight


def setup(folder, side, bar, spheres, mu, end):
    """A deck in folder: a plate of side x side with square apertures between bars, the spheres
    (x, y, z, vx, vy, wz) above them."""
    os.makedirs(folder, exist_ok=True)
    spec = importlib.util.spec_from_file_location("meshgen", A.meshgen)
    mg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mg)
    mg.write(os.path.join(folder, "plate.stl"), mg.plate(side, side, APERTURE, bar, 0.0))
    atoms = "".join("%d 1 %.17g %g %.17g %.17g %.17g\n" % (k + 1, 2 * R, RHO, s[0], s[1], s[2])
                    for k, s in enumerate(spheres))
    vel = "".join("%d %g %g 0 0 0 %g\n" % (k + 1, s[3], s[4], s[5]) for k, s in enumerate(spheres))
    with open(os.path.join(folder, "spheres.data"), "w") as f:
        f.write(DATA.format(n=len(spheres), side=side, atoms=atoms, velocities=vel))
    with open(os.path.join(folder, "deck.yaml"), "w") as f:
        f.write(DECK.format(side=side, mu=mu, end=end))


def run(folder, out, np_=1, *extra):
    cmd = harness.mpi(A.mpiexec, np_) + [A.hdem, "run", "deck.yaml", "-output_dir", out, *extra]
    return harness.run(cmd, cwd=folder)


def final(out):
    """The particles of the run's last checkpoint (it holds the torque; final.h5 does not)."""
    last = sorted(f for f in os.listdir(os.path.join(out, "checkpoints")) if f.endswith(".h5"))[-1]
    with h5py.File(os.path.join(out, "checkpoints", last), "r") as f:
        return {k: np.array(f["particles/" + k]) for k in ("id", "position", "velocity", "force", "torque")}


def walls(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def identical(a, b):
    p = subprocess.run([A.hdem, "diff", a, b], capture_output=True, text=True)
    return p.returncode == 0 and json.loads(p.stdout)["identical"]


def single(tmp):
    """One sphere in one aperture, frictionless then with friction."""
    z0, d0, weight = closed_form()
    for mu, name in ((0.0, "frictionless"), (0.5, "friction")):
        folder = os.path.join(tmp, name)
        # off centre, moving sideways and (with friction) turning: the rims must centre it
        setup(folder, 0.02, 0.006, [(0.0103, 0.0098, 0.0036, 0.02, -0.01, 30.0)], mu, 0.4)
        run(folder, "out", 1, "-checkpoint_interval_steps", "1000000000")
        s, w = final(os.path.join(folder, "out")), walls(os.path.join(folder, "out", "walls.csv"))
        tail = w[-2000:]
        lateral = max(np.abs(tail["mesh0_fx"]).max(), np.abs(tail["mesh0_fy"]).max()) / weight
        vertical = np.abs(tail["mesh0_fz"] + weight).max() / weight
        x = s["position"][0]
        check(lateral < 1e-3 and vertical < 1e-3,
              "%s: over the last %d steps the lateral force on the plate %.2e of the weight, the vertical "
              "off it by %.2e (both below 1e-3)" % (name, len(tail), lateral, vertical))
        f, t = np.abs(s["force"][0]).max() / weight, np.abs(s["torque"][0]).max() / (weight * R)
        check(f < 1e-3 and t < 1e-3, "%s: at the end the force on the sphere %.2e of m g, its torque %.2e of "
              "m g R (below 1e-3)" % (name, f, t))
        if mu == 0.0:
            centred = math.hypot(x[0] - 0.01, x[1] - 0.01)
            d = R - math.sqrt(0.25 * APERTURE ** 2 + x[2] ** 2)  # each rim's overlap, the sphere centred
            check(centred < 1e-3 * d0 and abs(d - d0) < 1e-3 * d0,
                  "frictionless: rests centred (off by %.2e m) on four rims at the Hertz height: z %.9g m "
                  "(closed form %.9g), overlap %.6e m (closed form %.6e)" % (centred, x[2], z0, d, d0))


def pegged(tmp):
    """Four spheres with friction in a 2 x 2 plate: ranks and a restart across the pegged state."""
    folder = os.path.join(tmp, "pegged")
    spheres = [(0.0092, 0.0087, 0.0036, 0.01, 0.0, 20.0), (0.0211, 0.009, 0.0034, -0.01, 0.02, 0.0),
               (0.0088, 0.0213, 0.0038, 0.0, 0.0, -20.0), (0.021, 0.0208, 0.0035, 0.02, -0.02, 5.0)]
    setup(folder, 0.03, 0.004, spheres, 0.5, 0.3)
    for np_ in (1, 2, 4):
        run(folder, "np%d" % np_, np_, "-checkpoint_interval_steps", "4000", "-checkpoint_keep", "100")
    ref = os.path.join(folder, "np1")
    for np_ in (2, 4):
        out = os.path.join(folder, "np%d" % np_)
        same = identical(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5"))
        with open(os.path.join(ref, "walls.csv")) as a, open(os.path.join(out, "walls.csv")) as b:
            same_walls = a.read() == b.read()
        check(same and same_walls, "pegged: final.h5 and walls.csv on %d ranks bitwise those on 1" % np_)
    s = final(ref)
    weight = closed_form()[2]
    lateral = np.abs(walls(os.path.join(ref, "walls.csv"))[-2000:][["mesh0_fx", "mesh0_fy"]].tolist()).max()
    check(lateral < 4e-3 * weight and np.all(s["position"][:, 2] > 0.0),
          "pegged: the four held above the plate, the lateral force on it %.2e of one's weight" % (lateral / weight))
    ckpts = sorted(f for f in os.listdir(os.path.join(folder, "np2", "checkpoints")) if f.endswith(".h5"))
    late = [c for c in ckpts if int(c[5:14]) >= 12000]
    if not check(len(late) > 0, "pegged: a checkpoint at rest (%s)" % ckpts):
        return
    ck = os.path.join(folder, "np2", "checkpoints", late[0])
    with h5py.File(ck, "r") as f:
        kind, partner = np.array(f["history/kind"]), np.array(f["history/partner"])
    mesh = partner[kind == 2]
    rims = int(np.count_nonzero((mesh & ((1 << MESH_SHIFT) - 1)) >= REGION))
    check(rims == 16, "pegged: the checkpoint holds %d mesh histories keyed by a rim's feature (16: four a sphere)"
          % rims)
    run(folder, "restart", 4, "-restart", ck)
    check(identical(os.path.join(folder, "np2", "final.h5"), os.path.join(folder, "restart", "final.h5")),
          "pegged: restarted from %s on 4 ranks, bitwise the uninterrupted 2-rank run" % late[0])
    # while they settle, rims touched and left, histories handed between a surface's key and its rims'
    run(folder, "restart_early", 1, "-restart", os.path.join(folder, "np2", "checkpoints", ckpts[0]))
    check(identical(os.path.join(folder, "np2", "final.h5"), os.path.join(folder, "restart_early", "final.h5")),
          "pegged: restarted from %s (settling) on 1 rank, bitwise the uninterrupted 2-rank run" % ckpts[0])


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--meshgen", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the runs' folder")
    A = ap.parse_args()
    A.hdem = os.path.abspath(A.hdem)
    tmp = tempfile.mkdtemp(prefix="hdem_rims_")
    try:
        single(tmp)
        pegged(tmp)
    finally:
        if A.keep:
            print("runs in", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
