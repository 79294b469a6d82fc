#!/usr/bin/python3
"""Write the initial state of inputs/column_collapse.yaml as a LAMMPS data file.

    tools/make_column.py [OUT] [--nx 20] [--ny 3] [--nz 40] [--length 96] [--seed 1]

(default OUT: inputs/data/column_collapse.data, relative to the repository root)

A quasi-two-dimensional granular column at the x = 0 end of a long box that is
periodic in y, standing on a rough floor, in SI units (m, kg/m^3):

- type 1: nx x ny x nz glass spheres (diameter uniform in [1.6, 2.0] mm, density
  2500) on a lattice of pitch 2.1 mm, each displaced at random by up to
  0.045 mm per axis (as hdem's lattice fill); the column is nx pitches long
  and nz pitches high;
- type 2: the rough floor, one layer of `length` x ny spheres on the same
  pitch (diameter uniform in [1.8, 2.0] mm, centres at z = 1 mm + up to
  0.5 mm at random), frozen by the deck (insert: frozen_type: 2).

The box is length x ny pitches in x and y and 0.1 m high.  Deterministic: the same
arguments write the same file (Python's Mersenne Twister, seeded).
"""

import argparse
import os
import random

PITCH = 2.1e-3            # lattice pitch [m]
D_MIN, D_MAX = 1.6e-3, 2.0e-3   # flowing spheres' diameters [m]
DB_MIN, DB_MAX = 1.8e-3, 2.0e-3  # floor spheres' diameters [m]
DENSITY = 2500.0          # [kg/m^3]
HEIGHT = 0.1              # box height [m]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="Write the column-collapse initial state (LAMMPS atom_style sphere).")
    ap.add_argument("out", nargs="?", default=os.path.join(here, "..", "inputs", "data", "column_collapse.data"))
    ap.add_argument("--nx", type=int, default=20, help="column length in pitches (default 20)")
    ap.add_argument("--ny", type=int, default=3, help="slice thickness in pitches, periodic (default 3)")
    ap.add_argument("--nz", type=int, default=40, help="column height in pitches (default 40)")
    ap.add_argument("--length", type=int, default=96, help="box length in pitches (default 96)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if min(a.nx, a.ny, a.nz) < 1 or a.length < a.nx:
        ap.error("need nx, ny, nz >= 1 and length >= nx")
    z0 = 2.0 * PITCH   # lowest column centres, clear of the floor
    if z0 + a.nz * PITCH > HEIGHT:
        ap.error("--nz %d does not fit under the lid at %g m" % (a.nz, HEIGHT))

    rng = random.Random(a.seed)
    lx, ly = a.length * PITCH, a.ny * PITCH
    jit = 0.45 * (PITCH - D_MAX)
    atoms = []  # (type, diameter, x, y, z)
    for k in range(a.nz):            # column, layer by layer from the bottom, x fastest
        for j in range(a.ny):
            for i in range(a.nx):
                d = rng.uniform(D_MIN, D_MAX)
                x = (i + 0.5) * PITCH + jit * (2 * rng.random() - 1)
                y = (j + 0.5) * PITCH + jit * (2 * rng.random() - 1)
                z = z0 + (k + 0.5) * PITCH + jit * (2 * rng.random() - 1)
                atoms.append((1, d, x, y, z))
    for j in range(a.ny):            # rough floor
        for i in range(a.length):
            d = rng.uniform(DB_MIN, DB_MAX)
            atoms.append((2, d, (i + 0.5) * PITCH, (j + 0.5) * PITCH, 1.0e-3 + 0.5e-3 * rng.random()))

    out = os.path.normpath(a.out)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write("hdem column collapse: %d x %d x %d column on a rough floor of %d x %d frozen spheres "
                "(tools/make_column.py --nx %d --ny %d --nz %d --length %d --seed %d), SI units\n\n"
                % (a.nx, a.ny, a.nz, a.length, a.ny, a.nx, a.ny, a.nz, a.length, a.seed))
        f.write("%d atoms\n2 atom types\n\n" % len(atoms))
        f.write("0 %.7g xlo xhi\n0 %.7g ylo yhi\n0 %.7g zlo zhi\n\n" % (lx, ly, HEIGHT))
        f.write("Atoms # sphere\n\n")
        for n, (t, d, x, y, z) in enumerate(atoms, 1):
            f.write("%d %d %.6e %g %.6e %.6e %.6e\n" % (n, t, d, DENSITY, x, y, z))
    print("wrote %s: %d atoms (%d column, %d floor), box %.4g x %.4g x %.4g m"
          % (out, len(atoms), a.nx * a.ny * a.nz, a.length * a.ny, lx, ly, HEIGHT))


if __name__ == "__main__":
    main()
