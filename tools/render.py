#!/usr/bin/python3
"""Draw a particle state written by `hdem run` as a PNG.

    tools/render.py STATE.h5 OUT.png [--view xz|xy|yz] [--color id|z|speed|type|body]
                    [--bands N] [--frozen-type T] [--cmap NAME] [--width INCHES]

STATE.h5 is a run's final.h5 or one of its snapshots/snap_*.h5.  Each sphere is
drawn as a disc of its true radius, in metres, projected on the chosen plane
(default xz: a side view, looking along +y; the nearest spheres are drawn last,
on top).  Walls whose plane is seen edge-on are drawn as grey lines.  Colours:

    id     particle id (default); a lattice fill numbers particles layer by layer
           from the bottom, so this shows where each initial layer went
           (--bands N: N alternating stripes of equal id ranges instead)
    z      height
    speed  |velocity| (needs the velocity field)
    type   particle type (a LAMMPS file's atom types, e.g. a frozen base)

--frozen-type T draws the particles of type T (a deck's insert: frozen_type, such
as a rough base) in grey, outside the colour scale.

The title gives the file, the simulated time and step, and the particle count.
Needs python3 with h5py, numpy and matplotlib (Debian: python3-h5py
python3-numpy python3-matplotlib); draws without a display.

Example:
    tools/render.py output/column_collapse/final.h5 /tmp/column_collapse.png --bands 8 --frozen-type 2
    tools/render.py output/chute/final.h5 /tmp/chute.png --color speed --frozen-type 2
"""

import argparse
import os
import sys

AXES = {"x": 0, "y": 1, "z": 2}


def fail(msg):
    sys.stderr.write("render.py: error: %s\n" % msg)
    sys.exit(2)


def read_state(path, need):
    """Arrays by name from /particles, plus the file's attributes and walls."""
    try:
        import h5py
        import numpy as np
    except ImportError as e:
        fail("%s (install python3-h5py, python3-numpy and python3-matplotlib)" % e)
    if not os.path.exists(path):
        fail("%s: no such file" % path)
    if os.path.isdir(path):
        fail("%s is a directory, not a state file (give final.h5 or snapshots/snap_*.h5)" % path)
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        fail("%s: not a readable HDF5 file (%s)" % (path, e))
    with f:
        if "particles" not in f or "position" not in f["particles"]:
            have = []
            f.visit(have.append)
            fail("%s holds no particle positions (/particles/position); it has: %s"
                 % (path, ", ".join(have) if have else "nothing"))
        g = f["particles"]
        pos = np.asarray(g["position"][...], dtype=float)
        if pos.ndim != 2 or pos.shape[1] != 3:
            fail("%s: /particles/position has shape %s, expected N x 3" % (path, pos.shape))
        n = pos.shape[0]
        out = {"position": pos}
        for name in ("radius", "id", "type", "velocity", "body"):
            if name in g:
                a = np.asarray(g[name][...])
                if a.shape[0] != n:
                    fail("%s: /particles/%s has %d rows for %d positions" % (path, name, a.shape[0], n))
                out[name] = a
        for name in need:
            if name not in out:
                fail("%s has no /particles/%s (written with snapshot: fields that leave it out); "
                     "choose another --color" % (path, name))
        attrs = {k: f.attrs[k] for k in ("time", "step", "particles") if k in f.attrs}
        walls = None
        if "walls" in f and "normal" in f["walls"] and "point" in f["walls"]:
            walls = (np.asarray(f["walls/normal"][...], dtype=float).reshape(-1, 3),
                     np.asarray(f["walls/point"][...], dtype=float).reshape(-1, 3))
    return out, attrs, walls


def main():
    ap = argparse.ArgumentParser(
        description="Draw an hdem particle state (final.h5 or a snapshot) as a PNG: "
                    "spheres as discs of their true radius.")
    ap.add_argument("state", help="final.h5 or snapshots/snap_*.h5 of a run")
    ap.add_argument("out", help="PNG file to write")
    ap.add_argument("--view", choices=("xz", "xy", "yz"), default="xz",
                    help="projection plane, horizontal then vertical axis (default xz)")
    ap.add_argument("--color", choices=("id", "z", "speed", "type", "body"), default="id",
                    help="what the colour shows (default id)")
    ap.add_argument("--bands", type=int, default=0,
                    help="with --color id: N alternating stripes of equal id ranges")
    ap.add_argument("--frozen-type", type=int, default=None, metavar="T",
                    help="draw particles of type T (a frozen base) in grey, outside the colour scale")
    ap.add_argument("--cmap", default=None, help="matplotlib colormap (default by --color)")
    ap.add_argument("--radius", type=float, default=None,
                    help="radius [m] to draw when the file has no /particles/radius")
    ap.add_argument("--width", type=float, default=10.0, help="figure width [in] (default 10)")
    ap.add_argument("--dpi", type=int, default=150, help="resolution (default 150)")
    args = ap.parse_args()
    if args.bands < 0:
        fail("--bands must be >= 0")

    need = {"id": ["id"], "speed": ["velocity"], "type": ["type"], "z": [], "body": ["body"]}[args.color]
    if args.frozen_type is not None and "type" not in need:
        need = need + ["type"]
    if args.radius is None:
        need = need + ["radius"]
    st, attrs, walls = read_state(args.state, need)

    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import EllipseCollection
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap, Normalize

    pos = st["position"]
    n = pos.shape[0]
    if n == 0:
        fail("%s holds no particles" % args.state)
    rad = st["radius"].astype(float) if "radius" in st else np.full(n, args.radius)
    h, v = AXES[args.view[0]], AXES[args.view[1]]
    depth = 3 - h - v
    # look along +depth (xz: from y = -inf): the nearest spheres go last, on top
    order = np.argsort(-pos[:, depth], kind="stable")
    if args.view == "xy":
        order = np.argsort(pos[:, depth], kind="stable")  # from above: the highest on top

    frozen = np.zeros(n, dtype=bool)
    if args.frozen_type is not None:
        frozen = st["type"] == args.frozen_type
    live = ~frozen
    if not live.any():
        live = np.ones(n, dtype=bool)   # only frozen particles: colour them anyway
        frozen[:] = False

    def span(a):
        lo, hi = float(a[live].min()), float(a[live].max())
        return (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)

    ticks, colorbar = None, True
    if args.color == "id":
        c = st["id"].astype(float)
        label = "particle id"
        cmap = plt.get_cmap(args.cmap or "viridis")
        norm = Normalize(*span(c))
        if args.bands > 0:
            lo, hi = c[live].min(), c[live].max() + 1
            c = np.clip(np.floor((c - lo) / (hi - lo) * args.bands), 0, args.bands - 1)
            label = "particle id, %d equal ranges" % args.bands
            if args.cmap is None:   # alternating stripes, like coloured sand layers
                c, colorbar = np.mod(c, 2), False
                cmap = ListedColormap(["#2b6cb0", "#f2c14e"])
                norm = Normalize(0, 1)
            else:
                norm = BoundaryNorm(np.arange(args.bands + 1) - 0.5, cmap.N)
    elif args.color == "body":   # a run with multi-sphere bodies: each body one of 20 colours, neighbours apart
        c = np.mod(st["body"].astype(np.int64) * 7919, 20).astype(float)
        label, colorbar = "body", False
        cmap = plt.get_cmap(args.cmap or "tab20")
        norm = Normalize(0, 19)
    elif args.color == "z":
        c = pos[:, 2]
        label = "z [m]"
        cmap = plt.get_cmap(args.cmap or "viridis")
        norm = Normalize(*span(c))
    elif args.color == "speed":
        c = np.linalg.norm(st["velocity"].astype(float), axis=1)
        label = "speed [m/s]"
        cmap = plt.get_cmap(args.cmap or "inferno")
        norm = Normalize(0.0, span(c)[1])
    else:
        c = st["type"].astype(float)
        ticks = np.unique(c[live])
        label = "type"
        cmap = plt.get_cmap(args.cmap or "tab10")
        norm = BoundaryNorm(np.concatenate([ticks - 0.5, [ticks[-1] + 0.5]]), cmap.N)
    sm = ScalarMappable(norm=norm, cmap=cmap)
    face = sm.to_rgba(c)
    face[frozen] = (0.72, 0.72, 0.72, 1.0)

    rmax = float(rad.max())
    xmin, xmax = pos[:, h].min() - 2 * rmax, pos[:, h].max() + 2 * rmax
    ymin, ymax = pos[:, v].min() - 2 * rmax, pos[:, v].max() + 2 * rmax
    # walls seen edge-on that touch the particles' extent belong in the picture
    lines = []
    if walls is not None:
        for nrm, pt in zip(*walls):
            nn = np.linalg.norm(nrm)
            if nn == 0 or abs(nrm[depth]) > 1e-9 * nn:
                continue
            a, b = nrm[h] / nn, nrm[v] / nn
            d0 = a * pt[h] + b * pt[v]
            lines.append((a, b, d0))
            if abs(b) < 1e-12 and xmin - 4 * rmax <= d0 / a <= xmax + 4 * rmax:
                xmin, xmax = min(xmin, d0 / a - rmax), max(xmax, d0 / a + rmax)
            if abs(a) < 1e-12 and ymin - 4 * rmax <= d0 / b <= ymax + 4 * rmax:
                ymin, ymax = min(ymin, d0 / b - rmax), max(ymax, d0 / b + rmax)

    aspect = (ymax - ymin) / (xmax - xmin)
    fig_w = args.width
    ax_h = fig_w * (0.82 if colorbar else 0.95) * aspect
    fig_h = min(max(ax_h + 1.3, 2.5), 3 * fig_w)
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    coll = EllipseCollection(2 * rad[order], 2 * rad[order], np.zeros(n), units="xy",
                             offsets=np.column_stack([pos[order, h], pos[order, v]]),
                             offset_transform=ax.transData, facecolors=face[order],
                             linewidths=0.15, edgecolors=(0, 0, 0, 0.35))
    ax.add_collection(coll)
    for a, b, d0 in lines:
        if abs(b) > abs(a):
            xs = np.array([xmin, xmax])
            ax.plot(xs, (d0 - a * xs) / b, color="0.45", lw=1.5)
        else:
            ys = np.array([ymin, ymax])
            ax.plot((d0 - b * ys) / a, ys, color="0.45", lw=1.5)
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    ax.set_aspect("equal")
    ax.set_xlabel("%s [m]" % args.view[0])
    ax.set_ylabel("%s [m]" % args.view[1])
    if colorbar:
        cb = fig.colorbar(sm, ax=ax, shrink=0.9, pad=0.02)
        cb.set_label(label)
        if ticks is not None:
            cb.set_ticks(ticks)
    title = os.path.basename(os.path.dirname(os.path.abspath(args.state)))
    title = "%s/%s" % (title, os.path.basename(args.state)) if title else os.path.basename(args.state)
    parts = [title]
    if "time" in attrs:
        parts.append("t = %.4g s" % float(attrs["time"]))
    if "step" in attrs:
        parts.append("step %d" % int(attrs["step"]))
    parts.append("%d particles" % n + (" (%d frozen, grey)" % frozen.sum() if frozen.any() else ""))
    parts.append("view %s, colour %s" % (args.view, args.color))
    ax.set_title(",  ".join(parts), fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(args.out, dpi=args.dpi)
    except OSError as e:
        fail("cannot write %s: %s" % (args.out, e))
    print("wrote %s (%d particles, view %s, colour %s)" % (args.out, n, args.view, args.color))


if __name__ == "__main__":
    main()
