#!/usr/bin/python3
"""The most-worn triangles of a mesh, and a PNG map of its wear, from a run's
state file (final.h5 or a snapshot) of a mesh that keeps wear
(docs/deck/wear.md).

    tools/wear.py top STATE.h5 [--mesh mesh0] [--by wear_volume] [-n 10] [--csv]
    tools/wear.py map STATE.h5 OUT.png [--mesh mesh0] [--by wear_depth] [--view z]
                  [--cmap viridis] [--log]
    tools/wear.py list STATE.h5

top: the n triangles with the largest value of a cell field, largest first:
triangle index, centroid (where the mesh is at the state's time), area, and
the field (a text table, or CSV with --csv).  Ties keep the lower index first.
map: every triangle of the mesh drawn projected along an axis (--view x, y or
z: looking down that axis; the triangles nearest the viewer on top), coloured
by the field; --log colours by log10 (zeros in the colour of the smallest
positive value).
list: the meshes of the file that have wear data, their triangles and the
field totals.

Fields (cell data per triangle): normal_impulse [N s], mean_pressure [Pa],
friction_work [J], sliding_load [N m], wear_volume [m^3], wear_depth [m],
impact_energy [J], contacts.  A Rocky-style shear-work wear volume is
C * friction_work for a calibrated C [1/Pa].

Needs python3 with h5py and numpy, and matplotlib for maps (Debian:
python3-h5py python3-numpy python3-matplotlib).

Example:
    tools/wear.py top output/screen/final.h5 --mesh mesh0 --by wear_depth -n 5
    tools/wear.py map output/screen/final.h5 /tmp/plate.png --by friction_work --view z
"""
import argparse
import sys

import h5py
import numpy as np

FIELDS = ["normal_impulse", "mean_pressure", "friction_work", "sliding_load", "wear_volume", "wear_depth",
          "impact_energy", "contacts"]


def load(path, mesh):
    """points [V][3], triangles [T][3], the cell fields {name: [T]} of mesh in path."""
    with h5py.File(path, "r") as f:
        key = "meshes/%s" % mesh
        if key not in f:
            sys.exit("%s has no mesh %s (it has: %s)" % (path, mesh, ", ".join(sorted(f.get("meshes", {})))))
        g = f[key]
        cells = {k: np.array(g[k]) for k in FIELDS if k in g}
        if not cells:
            sys.exit("%s: %s keeps no wear (meshN_wear, docs/deck/wear.md)" % (path, mesh))
        return np.array(g["points"]), np.array(g["triangles"]), cells


def geometry(points, tri):
    """Centroids [T][3] and areas [T]."""
    p = points[tri]
    c = p.mean(axis=1)
    area = 0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1)
    return c, area


def top(points, tri, cells, by, n):
    """Rows (index, centroid, area, value) of the n largest values of by, largest first (ties: lower index)."""
    if by not in cells:
        sys.exit("no field %s (fields: %s)" % (by, ", ".join(cells)))
    v = cells[by]
    order = np.lexsort((np.arange(len(v)), -v))[:n]
    c, area = geometry(points, tri)
    return [(int(k), c[k], float(area[k]), float(v[k])) for k in order]


def draw(points, tri, values, out, view, cmap, log, title):
    """The map: triangles projected along view, coloured by values."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    ax_view = "xyz".index(view)
    keep = [a for a in range(3) if a != ax_view]
    p = points[tri]
    depth = p[:, :, ax_view].mean(axis=1)
    order = np.argsort(depth, kind="stable")  # nearest the viewer (largest coordinate) drawn last
    v = np.asarray(values, dtype=float)
    if log:
        pos = v[v > 0]
        floor = pos.min() if pos.size else 1.0
        v = np.log10(np.where(v > 0, v, floor))
    fig, ax = plt.subplots(figsize=(8, 6), dpi=100)
    pc = PolyCollection(p[order][:, :, keep], array=v[order], cmap=cmap, edgecolors="face", linewidths=0.2)
    ax.add_collection(pc)
    lo, hi = p[:, :, keep].reshape(-1, 2).min(axis=0), p[:, :, keep].reshape(-1, 2).max(axis=0)
    pad = 0.02 * max(hi - lo)
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("%s [m]" % "xyz"[keep[0]])
    ax.set_ylabel("%s [m]" % "xyz"[keep[1]])
    ax.set_title(title)
    fig.colorbar(pc, ax=ax, label=("log10 " if log else "") + title.split(":")[-1].strip())
    fig.savefig(out)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("top", help="the most-worn triangles")
    t.add_argument("state")
    t.add_argument("--mesh", default="mesh0")
    t.add_argument("--by", default="wear_volume", choices=FIELDS)
    t.add_argument("-n", type=int, default=10)
    t.add_argument("--csv", action="store_true")
    m = sub.add_parser("map", help="a PNG map of a mesh's wear")
    m.add_argument("state")
    m.add_argument("out")
    m.add_argument("--mesh", default="mesh0")
    m.add_argument("--by", default="wear_depth", choices=FIELDS)
    m.add_argument("--view", default="z", choices=list("xyz"))
    m.add_argument("--cmap", default="viridis")
    m.add_argument("--log", action="store_true")
    ls = sub.add_parser("list", help="the meshes with wear data")
    ls.add_argument("state")
    a = ap.parse_args(argv)
    if a.cmd == "list":
        with h5py.File(a.state, "r") as f:
            for name in sorted(f.get("meshes", {})):
                g = f["meshes"][name]
                if "friction_work" not in g:
                    continue
                print("%s: %d triangles; %s" % (name, g["triangles"].shape[0],
                                                ", ".join("%s %.6g" % (k, np.sum(g[k])) for k in FIELDS if k in g)))
        return 0
    points, tri, cells = load(a.state, a.mesh)
    if a.cmd == "top":
        if a.n < 1:
            sys.exit("-n must be at least 1")
        rows = top(points, tri, cells, a.by, a.n)
        if a.csv:
            print("triangle,x,y,z,area,%s" % a.by)
            for k, c, area, v in rows:
                print("%d,%.17g,%.17g,%.17g,%.17g,%.17g" % (k, c[0], c[1], c[2], area, v))
        else:
            print("%10s %12s %12s %12s %12s %14s" % ("triangle", "x [m]", "y [m]", "z [m]", "area [m2]", a.by))
            for k, c, area, v in rows:
                print("%10d %12.6g %12.6g %12.6g %12.6g %14.6g" % (k, c[0], c[1], c[2], area, v))
        return 0
    draw(points, tri, cells[a.by], a.out, a.view, a.cmap, a.log, "%s %s: %s" % (a.state.split("/")[-1], a.mesh, a.by))
    print("wrote %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
