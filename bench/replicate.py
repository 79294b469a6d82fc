#!/usr/bin/env python3
"""Tile a LAMMPS data file (atom_style sphere, with its Velocities and Molecules)
NX x NY times along its periodic x and y axes: the same state, more particles, for
measuring memory per particle as a slope (bench/run.sh).  Copy k gets the ids +
k * max id (molecule ids + k * max molecule id), positions shifted by whole box
lengths, velocities unchanged.

    python3 bench/replicate.py IN OUT NX NY
"""
import sys


def main():
    src, dst, nx, ny = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if nx < 1 or ny < 1:
        sys.exit("replicate.py: NX and NY must be >= 1")
    lines = open(src).read().splitlines()
    head, section = [], None
    rows = {"Atoms": [], "Velocities": [], "Molecules": []}
    for line in lines:
        key = line.split("#")[0].strip()
        if key in rows:
            section = key
            continue
        words = key.split()
        if section is None:
            head.append(line)
        elif words:
            rows[section].append(words)
    atoms, vels, mols = rows["Atoms"], rows["Velocities"], rows["Molecules"]
    box = {}
    for line in head:
        w = line.split()
        if len(w) >= 4 and w[2] in ("xlo", "ylo", "zlo"):
            box[w[2][0]] = (float(w[0]), float(w[1]))
    lx, ly = box["x"][1] - box["x"][0], box["y"][1] - box["y"][0]
    maxid = max(int(a[0]) for a in atoms)
    ncopy = nx * ny
    out = []
    for line in head:
        w = line.split()
        if len(w) == 2 and w[1] == "atoms":
            line = "%d atoms" % (int(w[0]) * ncopy)
        elif len(w) >= 4 and w[2] == "xlo":
            line = "%r %r xlo xhi" % (box["x"][0], box["x"][0] + nx * lx)
        elif len(w) >= 4 and w[2] == "ylo":
            line = "%r %r ylo yhi" % (box["y"][0], box["y"][0] + ny * ly)
        out.append(line)
    out += ["Atoms # sphere", ""]
    for k in range(ncopy):
        dx, dy = (k % nx) * lx, (k // nx) * ly
        for a in atoms:
            b = list(a)
            b[0] = str(int(a[0]) + k * maxid)
            b[4] = repr(float(a[4]) + dx)
            b[5] = repr(float(a[5]) + dy)
            out.append(" ".join(b))
    if vels:
        out += ["", "Velocities", ""]
        for k in range(ncopy):
            for v in vels:
                out.append(" ".join([str(int(v[0]) + k * maxid)] + v[1:]))
    if mols:
        maxmol = max(int(m[1]) for m in mols)
        out += ["", "Molecules", ""]
        for k in range(ncopy):
            for m in mols:
                out.append("%d %d" % (int(m[0]) + k * maxid, int(m[1]) + k * maxmol))
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
