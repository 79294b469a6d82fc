#!/usr/bin/python3
"""Write the initial state of inputs/chute.yaml as a LAMMPS data file.

    tools/make_chute.py [OUT] [--lx 20] [--ly 10] [--layers 16] [--seed 1]
    tools/make_chute.py [OUT] --from FINAL.h5

(default OUT: inputs/data/chute.data, relative to the repository root)

A chute in LAMMPS's reduced units (sphere diameter 1, density 1), after LAMMPS's
bench/in.chute, in a box lx x ly, periodic in x and y, gravity tilted by the deck:

- type 2: the rough base, lx x ly spheres of diameter 1 on a square grid of pitch
  1, centres at z = 0.5 + up to 0.3 at random, frozen by the deck
  (insert: frozen_type: 2);
- type 1: `layers` layers of (lx - 1) x (ly - 1) spheres of diameter 1 on a loose
  lattice (pitches lx/(lx - 1), ly/(ly - 1), 1.06; displaced by up to 0.01 per
  axis), from z = 1.9 up, moving downhill (+x) with a Bagnold profile
  u = 2 + 0.16 (H^1.5 - (H - h)^1.5), h the height above the base of the layer
  once packed (0.96 per layer), H that of the top layer (plus up to 0.15 per
  component at random): about the steady flow's profile at 26 degrees, so that
  the flow starts near its steady state.

With `--from`, the state is a run's final.h5 (or a snapshot) instead: positions,
velocities, angular velocities, diameters and types as the run left them (density
1), in the run's box: inputs/data/chute.data is the flow of the lattice above after
12 time units of inputs/chute.yaml, when its mean velocity and depth have become
steady (their changes below 2 % of gravity's pull per time unit):

    tools/make_chute.py /tmp/loose.data
    build/hdem run inputs/chute.yaml -insert_file /tmp/loose.data -end_time 12 -output_dir /tmp/c
    tools/make_chute.py --from /tmp/c/final.h5

Atoms and Velocities sections of atom_style sphere (id type diameter density x y z;
id vx vy vz wx wy wz).  Deterministic: the same arguments write the same file
(Python's Mersenne Twister, seeded).
"""

import argparse
import os
import random
import re


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="Write the chute initial state (LAMMPS atom_style sphere, reduced units).")
    ap.add_argument("out", nargs="?", default=os.path.join(here, "..", "inputs", "data", "chute.data"))
    ap.add_argument("--lx", type=int, default=20, help="box length along the flow, in diameters (default 20)")
    ap.add_argument("--ly", type=int, default=10, help="box width, in diameters (default 10)")
    ap.add_argument("--layers", type=int, default=16, help="layers of flowing spheres (default 16)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--from", dest="src", metavar="FINAL.h5", help="write the state of an hdem output instead")
    a = ap.parse_args()
    if a.src:
        return from_h5(a.src, a.out)
    if a.lx < 3 or a.ly < 3 or a.layers < 1:
        ap.error("need lx, ly >= 3 and layers >= 1")

    rng = random.Random(a.seed)
    atoms = []  # (type, x, y, z, vx, vy, vz)
    for j in range(a.ly):            # rough base
        for i in range(a.lx):
            atoms.append((2, i + 0.5, j + 0.5, 0.5 + 0.3 * rng.random(), 0.0, 0.0, 0.0))
    nx, ny, dz, z0 = a.lx - 1, a.ly - 1, 1.06, 1.9
    sx, sy = a.lx / nx, a.ly / ny
    top = z0 + (a.layers - 1) * dz
    hh = 0.96 * a.layers
    for k in range(a.layers):        # flowing layer, layer by layer from the bottom, x fastest
        z = z0 + k * dz
        for j in range(ny):
            for i in range(nx):
                x = (i + 0.5) * sx + 0.01 * (2 * rng.random() - 1)
                y = (j + 0.5) * sy + 0.01 * (2 * rng.random() - 1)
                vx = 2.0 + 0.16 * (hh ** 1.5 - (hh - 0.96 * (k + 0.5)) ** 1.5) + 0.15 * (2 * rng.random() - 1)
                vy = 0.15 * (2 * rng.random() - 1)
                vz = 0.15 * (2 * rng.random() - 1)
                atoms.append((1, x, y, z, vx, vy, vz))

    zhi = top + 2.0
    out = os.path.normpath(a.out)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write("hdem chute: %d flowing spheres over a rough base of %d frozen ones "
                "(tools/make_chute.py --lx %d --ly %d --layers %d --seed %d), reduced units\n\n"
                % (len(atoms) - a.lx * a.ly, a.lx * a.ly, a.lx, a.ly, a.layers, a.seed))
        f.write("%d atoms\n2 atom types\n\n" % len(atoms))
        f.write("0 %d xlo xhi\n0 %d ylo yhi\n0 %.4f zlo zhi\n\n" % (a.lx, a.ly, zhi))
        f.write("Atoms # sphere\n\n")
        for n, t in enumerate(atoms, 1):
            f.write("%d %d 1 1 %.6f %.6f %.6f\n" % (n, t[0], t[1], t[2], t[3]))
        f.write("\nVelocities\n\n")
        for n, t in enumerate(atoms, 1):
            f.write("%d %.6f %.6f %.6f 0 0 0\n" % (n, t[4], t[5], t[6]))
    print("wrote %s: %d atoms (%d base), box %d x %d x %.4g" % (out, len(atoms), a.lx * a.ly, a.lx, a.ly, zhi))


def from_h5(src, out):
    import h5py  # only here: the lattice needs no more than the standard library
    import numpy as np

    with h5py.File(src, "r") as f:
        p = f["particles"]
        ids, typ, r = p["id"][()], p["type"][()], p["radius"][()]
        x, v, w = p["position"][()], p["velocity"][()], p["angular_velocity"][()]
        raw = f.attrs["options"]
        opts = dict(re.findall(r"(?:^|\s)-(domain_lo|domain_hi|domain_periodic)\s+(\S+)", raw.decode() if isinstance(raw, bytes)
                               else str(raw)))
        t = float(f.attrs["time"])
    lo = [float(c) for c in opts["domain_lo"].split(",")]
    hi = [float(c) for c in opts["domain_hi"].split(",")]
    periodic = [c == "true" for c in opts.get("domain_periodic", "false,false,false").split(",")]
    for a in range(3):  # a periodic coordinate may lie up to the skin past the box until the next rebuild
        if periodic[a]:
            x[:, a] = lo[a] + np.mod(x[:, a] - lo[a], hi[a] - lo[a])
            x[np.array([float("%.9g" % c) >= hi[a] for c in x[:, a]]), a] = lo[a]
    order = np.argsort(ids, kind="stable")
    out = os.path.normpath(out)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write("hdem chute: %d flowing spheres over a rough base of %d frozen ones, the state at t = %.6g of %s "
                "(tools/make_chute.py --from), reduced units\n\n" % ((typ != 2).sum(), (typ == 2).sum(), t,
                                                                      os.path.basename(src)))
        f.write("%d atoms\n%d atom types\n\n" % (len(ids), max(2, int(typ.max()))))
        for a, n in enumerate("xyz"):
            f.write("%.17g %.17g %slo %shi\n" % (lo[a], hi[a], n, n))
        f.write("\nAtoms # sphere\n\n")
        for n, i in enumerate(order, 1):
            f.write("%d %d %.9g 1 %.9g %.9g %.9g\n" % (n, typ[i], 2 * r[i], x[i, 0], x[i, 1], x[i, 2]))
        f.write("\nVelocities\n\n")
        for n, i in enumerate(order, 1):
            f.write("%d %.9g %.9g %.9g %.9g %.9g %.9g\n" % (n, *v[i], *w[i]))
    print("wrote %s: %d atoms from %s at t = %.6g" % (out, len(ids), src, t))


if __name__ == "__main__":
    main()
