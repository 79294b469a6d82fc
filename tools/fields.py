#!/usr/bin/python3
"""Profiles and maps of the coarse-grained fields a run wrote (fields.h5).

    tools/fields.py profile FIELDS.h5 --axis z [--field NAME[:COMPONENT] ...]
                    [--step STEP] [--out FILE.csv]
    tools/fields.py map FIELDS.h5 OUT.png --plane xz --field NAME[:COMPONENT]
                    [--step STEP] [--cmap NAME]
    tools/fields.py list FIELDS.h5

FIELDS.h5 is a run's fields.h5 (docs/deck/fields.md): frames of cell data on a
rectilinear grid.  A frame is chosen with --step (default: the last one).

profile: the fields along one axis, averaged over the cells of the other two
axes (each cell counts by its volume), as CSV on standard output or in --out:
the cell centres, then one column per field component.
map: a 2-D map over a plane (xy, xz or yz), averaged along the third axis, as a
PNG.

A field is a dataset name (number_density, mass_density, solid_fraction,
velocity, granular_temperature, kinetic_stress, contact_stress, stress) with,
for vectors and tensors, a component: velocity:x, stress:zz (or stress:xz, a
tensor's row and column), or a vector's norm, velocity:norm.  Default fields of
a profile: solid_fraction, velocity:x, velocity:z, granular_temperature,
stress:zz.

Needs python3 with h5py and numpy, and matplotlib for maps (Debian:
python3-h5py python3-numpy python3-matplotlib).

Example:
    tools/fields.py profile output/chute/fields.h5 --axis z --field velocity:x --field stress:xz
    tools/fields.py map output/drum/fields.h5 /tmp/drum.png --plane xz --field solid_fraction
"""
import argparse
import sys

import h5py
import numpy as np

AXES = "xyz"
DEFAULT_PROFILE = ["solid_fraction", "velocity:x", "velocity:z", "granular_temperature", "stress:zz"]


def frame_group(f, step):
    """The frame of step (None: the last), and its step."""
    names = sorted(f["frames"])
    if not names:
        sys.exit("%s has no frames" % f.filename)
    if step is None:
        return f["frames"][names[-1]], int(names[-1])
    key = "%012d" % step
    if key not in f["frames"]:
        sys.exit("%s has no frame at step %d (it has %s)" % (f.filename, step, ", ".join(str(int(n)) for n in names)))
    return f["frames"][key], step


def component(data, spec):
    """Cell values [nz][ny][nx] of a field spec NAME[:COMPONENT]."""
    name, _, comp = spec.partition(":")
    if name not in data:
        sys.exit("no field %s (the frame has %s)" % (name, ", ".join(sorted(data))))
    a = data[name][()]
    if a.ndim == 3:
        if comp:
            sys.exit("%s is a scalar: no component %s" % (name, comp))
        return a
    if comp == "norm" and a.shape[3] == 3:
        return np.sqrt((a * a).sum(axis=3))
    if a.shape[3] == 3 and len(comp) == 1 and comp in AXES:
        return a[..., AXES.index(comp)]
    if a.shape[3] == 9 and len(comp) == 2 and comp[0] in AXES and comp[1] in AXES:
        return a[..., 3 * AXES.index(comp[0]) + AXES.index(comp[1])]
    sys.exit("%s needs a component (%s)" % (name, "x, y, z or norm" if a.shape[3] == 3 else "xx, xy, ... zz"))


def grid(f):
    """The faces and centres along x, y, z."""
    faces = [f["grid"][a][()] for a in AXES]
    return faces, [0.5 * (x[1:] + x[:-1]) for x in faces]


def average(values, faces, keep):
    """Volume-weighted average over every axis but those in keep (array axes: z, y, x)."""
    widths = [np.diff(x) for x in faces]
    w = widths[2][:, None, None] * widths[1][None, :, None] * widths[0][None, None, :]
    drop = tuple(2 - a for a in range(3) if a not in keep)
    return (values * w).sum(axis=drop) / w.sum(axis=drop)


def profile(args):
    with h5py.File(args.file, "r") as f:
        g, step = frame_group(f, args.step)
        faces, centres = grid(f)
        a = AXES.index(args.axis)
        specs = args.field or DEFAULT_PROFILE
        cols = [average(component(g, s), faces, (a,)) for s in specs]
    out = open(args.out, "w") if args.out else sys.stdout
    out.write("# step %d\n%s,%s\n" % (step, args.axis, ",".join(specs)))
    for k, c in enumerate(centres[a]):
        out.write("%.10g,%s\n" % (c, ",".join("%.10g" % col[k] for col in cols)))
    if args.out:
        out.close()


def draw(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if len(args.field) != 1:
        sys.exit("map: give one --field")
    h, v = AXES.index(args.plane[0]), AXES.index(args.plane[1])
    with h5py.File(args.file, "r") as f:
        g, step = frame_group(f, args.step)
        faces, _ = grid(f)
        m = average(component(g, args.field[0]), faces, (h, v))
        t = g.attrs["time"]
    fig, ax = plt.subplots(figsize=(7, 5))
    # the kept axes in array order (z, y, x): rows along v, columns along h
    pc = ax.pcolormesh(faces[h], faces[v], m, cmap=args.cmap, shading="flat")
    fig.colorbar(pc, ax=ax, label=args.field[0])
    ax.set_xlabel(args.plane[0] + " [m]")
    ax.set_ylabel(args.plane[1] + " [m]")
    ax.set_aspect("equal")
    ax.set_title("%s, step %d, t = %.6g s" % (args.file, step, t), fontsize=9)
    fig.savefig(args.png, dpi=120)


def listing(args):
    with h5py.File(args.file, "r") as f:
        faces, _ = grid(f)
        print("grid %s cells, region %s to %s" % ("x".join(str(len(x) - 1) for x in faces),
                                                  [x[0] for x in faces], [x[-1] for x in faces]))
        for k, v in f.attrs.items():
            print("%s: %s" % (k, v.decode() if isinstance(v, bytes) else v))
        for n in sorted(f["frames"]):
            g = f["frames"][n]
            print("step %d t %.10g samples %d from step %d: %s" % (
                g.attrs["step"], g.attrs["time"], g.attrs["samples"], g.attrs["first_sample"], ", ".join(sorted(g))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("profile", help="fields along an axis, as CSV")
    p.add_argument("file")
    p.add_argument("--axis", choices=list(AXES), default="z")
    p.add_argument("--field", action="append")
    p.add_argument("--step", type=int)
    p.add_argument("--out")
    p.set_defaults(fn=profile)
    m = sub.add_parser("map", help="a 2-D map as a PNG")
    m.add_argument("file")
    m.add_argument("png")
    m.add_argument("--plane", choices=["xy", "xz", "yz"], default="xz")
    m.add_argument("--field", action="append", required=True)
    m.add_argument("--step", type=int)
    m.add_argument("--cmap", default="viridis")
    m.set_defaults(fn=draw)
    ls = sub.add_parser("list", help="the grid and the frames")
    ls.add_argument("file")
    ls.set_defaults(fn=listing)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
