#!/usr/bin/python3
"""Writes a LAMMPS atom_style sphere data file of N spheres on a jittered cubic
lattice, with a Velocities section and optionally a Molecules section (pairs of
overlapping spheres, dumbbells of the body clump0 in the deck this prints), for
tests and scaling runs of the data-file reader.  Standard library only; the
same arguments give the same bytes.

    gen_lammps_data.py OUT N [--seed S] [--molecules] [--deck DECK]

The box holds the lattice (pitch 1.25 d, d = 1 mm) as a cube of sites, walls on
every side; --deck writes a matching hdem deck (no gravity, a few steps)."""
import argparse
import math
import random

D, RHO = 1.0e-3, 2500.0


def lattice(n, pitch):
    """Sites per axis for n sites (a near cube, x fastest)."""
    m = max(1, int(math.ceil(n ** (1.0 / 3.0))))
    return m, m, max(1, -(-n // (m * m)))


def write(out, n, seed, molecules):
    rnd = random.Random(seed)
    pitch = 1.25 * D if not molecules else 2.5 * D  # a dumbbell site holds two spheres
    sites = n if not molecules else -(-n // 2)
    nx, ny, nz = lattice(sites, pitch)
    hi = [nx * pitch, ny * pitch, nz * pitch]
    with open(out, "w") as f:
        f.write("hdem reader test: %d spheres on a jittered lattice (seed %d)\n\n" % (n, seed))
        f.write("%d atoms\n1 atom types\n\n" % n)
        for a, name in enumerate("xyz"):
            f.write("0 %.6f %slo %shi\n" % (hi[a], name, name))
        f.write("\nAtoms # sphere\n\n")
        vel = []
        for k in range(n):
            s = k if not molecules else k // 2
            c = (s % nx, (s // nx) % ny, s // (nx * ny))
            if not molecules or k % 2 == 0:  # a molecule's atoms share the site's jitter
                jit = [0.1 * D * (2.0 * rnd.random() - 1.0) for a in range(3)]
            x = [(c[a] + 0.5) * pitch + jit[a] for a in range(3)]
            if molecules:  # the pair along x, centres 0.5 d apart, as clump0
                x[0] += (-0.25 if k % 2 == 0 else 0.25) * D
            f.write("%d 1 %g %g %.9f %.9f %.9f\n" % (k + 1, D, RHO, x[0], x[1], x[2]))
            v = [0.01 * (2.0 * rnd.random() - 1.0) for a in range(3)]
            vel.append(v if not molecules or k % 2 == 0 else vel[-1])
        f.write("\nVelocities\n\n")
        for k in range(n):
            v = vel[k]
            f.write("%d %.6f %.6f %.6f 0 0 0\n" % (k + 1, v[0], v[1], v[2]))
        if molecules:
            f.write("\nMolecules\n\n")
            for k in range(n):
                f.write("%d %d\n" % (k + 1, k // 2 + 1))
    return hi


def deck(path, data, hi, molecules):
    with open(path, "w") as f:
        f.write("domain:\n  lo: [0, 0, 0]\n  hi: [%.6f, %.6f, %.6f]\n" % tuple(hi))
        f.write("material: {E: 1.0e7, nu: 0.3}\ncontact: {law: hertz, e: 0.5, mu: 0.5}\n")
        if molecules:
            f.write("clump0:\n  spheres: [-0.25e-3, 0, 0, 0.5e-3,   0.25e-3, 0, 0, 0.5e-3]\n")
        f.write("insert:\n  mode: lammps\n  file: %s\n" % data)
        if molecules:
            f.write("  body: clump0\n")
        f.write("neighbor: {skin: 0.1e-3}\ntimestep: {mode: fixed, dt: 1.0e-6}\nsteps: 2\n"
                "thermo_interval: 1\nsnapshot: {frames: 0}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--molecules", action="store_true", help="pairs of atoms as molecules (n even)")
    ap.add_argument("--deck", help="also write a deck for this file")
    a = ap.parse_args()
    if a.molecules and a.n % 2:
        ap.error("--molecules needs an even n")
    hi = write(a.out, a.n, a.seed, a.molecules)
    if a.deck:
        deck(a.deck, a.out, hi, a.molecules)


if __name__ == "__main__":
    main()
