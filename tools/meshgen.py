#!/usr/bin/env python3
"""STL surfaces for hdem's decks and tests: triangulated planes, boxes,
drums, hoppers and screens, written as ASCII or binary STL.

  tools/meshgen.py plane OUT.stl --size 0.1 0.1 --cells 10 10 [--binary]
  tools/meshgen.py drum OUT.stl --radius 0.1 --length 0.05 --segments 48
  tools/meshgen.py hopper OUT.stl --width 0.1 --height 0.2 --orifice 0.02 --depth 0.02
  tools/meshgen.py plug OUT.stl --orifice 0.02 --depth 0.02
  tools/meshgen.py screen OUT.stl --length 0.3 --width 0.06 --aperture 0.004 --bar 0.002
  tools/meshgen.py silo OUT.stl --radius 0.03 --height 0.1 --orifice 0.015 --segments 48
  tools/meshgen.py silo_plug OUT.stl --orifice 0.015 --segments 48
  tools/meshgen.py plate OUT.stl --length 0.3 --width 0.06 --aperture 0.004 --bar 0.002
                   [--thickness 0.002] [--slot 0.012] [--half-bars]
  tools/meshgen.py woven OUT.stl --length 0.3 --width 0.06 --aperture 0.004 --wire 0.001
                   [--weave plain|stacked] [--sides 8] [--steps 8]

Coordinates are in metres; every generator is a function of this module
(tests import it).

screen: a flat plate (no thickness) with square apertures and a plain strip of
one aperture's length at each end.

plate: a perforated plate with thickness, its top face at z = 0, from x = 0 to
--length and y = 0 to --width: apertures --aperture wide (along y) and --slot
long (along x; default square) between bars of --bar, in as many rows and
columns as fit, centred; at the borders a full bar, or with --half-bars half a
bar (so plates side by side make whole bars), plus what a whole number of
pitches leaves over.  With --thickness > 0 (default 0.002) a closed solid: the
top and bottom faces, the apertures' side faces and the border's, every edge
shared by two triangles, normals outward; --thickness 0 gives the top face alone.

woven: square-mesh wire cloth: round wires of diameter --wire with square
openings --aperture between them (pitch p = aperture + wire), floor(length/p)
wires along y and floor(width/p) along x, each a closed polygonal tube of
--sides sides (vertices on the wire's circle) and --steps segments per pitch.
--weave plain (default): every wire crosses alternately over and under the
wires across it, its axis rising and falling as (wire/2) cos(pi s/p), the axes
of two crossing wires a diameter apart; --weave stacked: straight wires in two
layers, those along x on top.  The cloth's top at z = 0.  Crossing wires touch
or overlap slightly: the STL holds one closed tube per wire, not their union.
"""
import argparse
import math
import struct
import sys


def quad(a, b, c, d):
    """Two triangles of the quadrilateral a b c d (counter-clockwise)."""
    return [(a, b, c), (a, c, d)]


def plane(sx, sy, nx, ny, z=0.0, x0=None, y0=None, diagonal="alternate"):
    """A flat rectangle centred on the origin (or starting at x0, y0) in nx x ny cells."""
    x0 = -0.5 * sx if x0 is None else x0
    y0 = -0.5 * sy if y0 is None else y0
    tris = []
    for i in range(nx):
        for j in range(ny):
            p = [(x0 + sx * (i + a) / nx, y0 + sy * (j + b) / ny, z) for a, b in ((0, 0), (1, 0), (1, 1), (0, 1))]
            if diagonal == "alternate" and (i + j) % 2:
                tris += [(p[0], p[1], p[3]), (p[1], p[2], p[3])]
            else:
                tris += quad(*p)
    return tris


def box(lo, hi, inward=True):
    """The six faces of an axis-aligned box, one quad (two triangles) each."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
         (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    faces = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (2, 3, 7, 6), (1, 2, 6, 5), (0, 4, 7, 3)]
    tris = []
    for f in faces:
        q = [v[k] for k in f]
        if inward:
            q = q[::-1]
        tris += quad(*q)
    return tris


def drum(radius, length, segments, caps=True):
    """A closed cylinder about the y axis, centred on the origin: its mantle in segments, and end caps."""
    tris = []
    ring = [(radius * math.cos(2 * math.pi * k / segments), radius * math.sin(2 * math.pi * k / segments))
            for k in range(segments)]
    y0, y1 = -0.5 * length, 0.5 * length
    for k in range(segments):
        (xa, za), (xb, zb) = ring[k], ring[(k + 1) % segments]
        tris += quad((xa, y0, za), (xb, y0, zb), (xb, y1, zb), (xa, y1, za))
        if caps:
            tris.append(((0.0, y0, 0.0), (xb, y0, zb), (xa, y0, za)))
            tris.append(((0.0, y1, 0.0), (xa, y1, za), (xb, y1, zb)))
    return tris


def hopper(width, height, orifice, depth):
    """A flat-bottomed quasi-2D hopper: a floor at z = 0 with a centred slot
    of width `orifice` along x, side walls at x = +-width/2 and y = 0, depth,
    open at the top; the slot's floor is the plug (plug())."""
    w, h, o, d = 0.5 * width, height, 0.5 * orifice, depth
    tris = []
    tris += quad((-w, 0, 0), (-o, 0, 0), (-o, d, 0), (-w, d, 0))  # floor left of the slot
    tris += quad((o, 0, 0), (w, 0, 0), (w, d, 0), (o, d, 0))  # floor right of it
    tris += quad((-w, 0, 0), (-w, d, 0), (-w, d, h), (-w, 0, h))  # end walls
    tris += quad((w, 0, 0), (w, 0, h), (w, d, h), (w, d, 0))
    tris += quad((-w, 0, 0), (-w, 0, h), (w, 0, h), (w, 0, 0))  # front and back
    tris += quad((-w, d, 0), (w, d, 0), (w, d, h), (-w, d, h))
    return tris


def silo(radius, height, orifice, segments=48, rings=4, wall_rows=4):
    """A flat-bottomed cylindrical silo about the z axis: its wall from z = 0 to
    height and a floor at z = 0 with a central circular orifice (the floor in
    rings growing geometrically from the orifice's rim to the wall).  Circles
    are polygons with their vertices on the circle; silo_plug() closes the
    orifice with the same rim vertices."""
    tris = []
    ang = [2 * math.pi * k / segments for k in range(segments)]
    ring = lambda r, z: [(r * math.cos(a), r * math.sin(a), z) for a in ang]
    for j in range(wall_rows):
        lo, hi = ring(radius, height * j / wall_rows), ring(radius, height * (j + 1) / wall_rows)
        for k in range(segments):
            tris += quad(lo[k], hi[k], hi[(k + 1) % segments], lo[(k + 1) % segments])
    q = (radius / orifice * 2) ** (1.0 / rings)
    radii = [0.5 * orifice * q ** j for j in range(rings)] + [radius]
    for j in range(rings):
        a, b = ring(radii[j], 0.0), ring(radii[j + 1], 0.0)
        for k in range(segments):
            tris += quad(a[k], a[(k + 1) % segments], b[(k + 1) % segments], b[k])
    return tris


def silo_plug(orifice, segments=48):
    """The disc that closes silo()'s orifice: a fan from the centre."""
    ang = [2 * math.pi * k / segments for k in range(segments)]
    r = 0.5 * orifice
    return [((0.0, 0.0, 0.0), (r * math.cos(ang[k]), r * math.sin(ang[k]), 0.0),
             (r * math.cos(ang[(k + 1) % segments]), r * math.sin(ang[(k + 1) % segments]), 0.0))
            for k in range(segments)]


def plug(orifice, depth):
    """The slot of hopper(): a rectangle at z = 0."""
    o = 0.5 * orifice
    return quad((-o, 0, 0), (o, 0, 0), (o, depth, 0), (-o, depth, 0))


def screen(length, width, aperture, bar):
    """A plate in z = 0 from x = 0 to length, y = 0 to width, with square
    apertures of side `aperture` between bars of width `bar` (a plain strip
    of one aperture's length at each end)."""
    pitch = aperture + bar
    nx = max(1, int((length - 2 * aperture) // pitch))
    ny = max(1, int((width - bar) // pitch))
    xs = [0.0, aperture]
    for i in range(nx):
        xs += [aperture + i * pitch + bar, aperture + (i + 1) * pitch]
    xs.append(length)
    ys = [0.0]
    for j in range(ny):
        ys += [bar + j * pitch, (j + 1) * pitch]
    ys.append(width)
    xs, ys = sorted(set(xs)), sorted(set(ys))
    holes = set()
    for i in range(nx):
        for j in range(ny):
            holes.add((aperture + i * pitch + bar, bar + j * pitch))
    tris = []
    for a in range(len(xs) - 1):
        for b in range(len(ys) - 1):
            if (xs[a], ys[b]) in holes:
                continue
            tris += quad((xs[a], ys[b], 0.0), (xs[a + 1], ys[b], 0.0), (xs[a + 1], ys[b + 1], 0.0),
                         (xs[a], ys[b + 1], 0.0))
    return tris


def openings(extent, opening, bar, half_bars):
    """Grid lines across one side of a perforated plate: n openings between bars, centred, with a border
    strip at each end of half a bar (half_bars; a full bar otherwise) plus what a whole number of pitches
    leaves over.  The intervals of odd index (1, 3, ...) are the openings."""
    pitch = opening + bar
    n = int(math.floor((extent - (0.0 if half_bars else bar)) / pitch + 1e-9))
    if n < 1 or opening <= 0 or bar < 0:
        raise ValueError("plate: no opening of %g m with bars of %g m fits in %g m" % (opening, bar, extent))
    border = 0.5 * (extent - n * opening - (n - 1) * bar)
    lines = [0.0]
    for i in range(n):
        lines += [border + i * pitch, border + i * pitch + opening]
    return lines + [extent], n


def plate(length, width, aperture, bar, thickness, slot=None, half_bars=False):
    """A perforated plate from x = 0 to length, y = 0 to width, its top face at z = 0: rectangular
    apertures `slot` long along x (default: square, `aperture`) and `aperture` wide along y, between bars of
    width `bar`, centred (openings()).  With thickness > 0 a closed solid down to z = -thickness: top and
    bottom faces, the aperture's side faces and the outer border's, every edge shared by two triangles,
    normals outward; with thickness 0 the top face alone.  Returns the triangles."""
    xs, nx = openings(length, aperture if slot is None else slot, bar, half_bars)
    ys, ny = openings(width, aperture, bar, half_bars)
    hole = lambda a, b: a % 2 == 1 and b % 2 == 1
    solid = lambda a, b: 0 <= a < len(xs) - 1 and 0 <= b < len(ys) - 1 and not hole(a, b)
    t = -thickness
    tris = []
    for a in range(len(xs) - 1):
        for b in range(len(ys) - 1):
            if not solid(a, b):
                continue
            x0, x1, y0, y1 = xs[a], xs[a + 1], ys[b], ys[b + 1]
            tris += quad((x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0))
            if thickness <= 0:
                continue
            tris += quad((x0, y1, t), (x1, y1, t), (x1, y0, t), (x0, y0, t))
            if not solid(a + 1, b):
                tris += quad((x1, y0, t), (x1, y1, t), (x1, y1, 0.0), (x1, y0, 0.0))
            if not solid(a - 1, b):
                tris += quad((x0, y1, t), (x0, y0, t), (x0, y0, 0.0), (x0, y1, 0.0))
            if not solid(a, b + 1):
                tris += quad((x1, y1, t), (x0, y1, t), (x0, y1, 0.0), (x1, y1, 0.0))
            if not solid(a, b - 1):
                tris += quad((x0, y0, t), (x1, y0, t), (x1, y0, 0.0), (x0, y0, 0.0))
    return tris


def tube(points, tangents, side, radius, sides):
    """A closed polygonal tube along a centreline: rings of `sides` vertices on the circle of `radius` in
    the planes normal to the tangents, joined by quads, and a fan closing each end; normals outward.
    `side` is a unit vector normal to every tangent."""
    def unit(v):
        n = math.sqrt(sum(c * c for c in v))
        return [c / n for c in v]
    rings = []
    for p, tg in zip(points, tangents):
        tg = unit(tg)
        up = unit([tg[1] * side[2] - tg[2] * side[1], tg[2] * side[0] - tg[0] * side[2],
                   tg[0] * side[1] - tg[1] * side[0]])
        ang = [2 * math.pi * m / sides for m in range(sides)]
        rings.append([tuple(p[k] + radius * (math.cos(q) * side[k] + math.sin(q) * up[k]) for k in range(3))
                      for q in ang])
    tris = []
    for r0, r1 in zip(rings, rings[1:]):
        for m in range(sides):
            tris += quad(r0[m], r0[(m + 1) % sides], r1[(m + 1) % sides], r1[m])
    for m in range(sides):
        tris.append((tuple(points[0]), rings[0][(m + 1) % sides], rings[0][m]))
        tris.append((tuple(points[-1]), rings[-1][m], rings[-1][(m + 1) % sides]))
    return tris


def woven(length, width, aperture, wire, weave="plain", sides=8, steps=8):
    """Square-mesh wire cloth of round wires of diameter `wire` with square openings `aperture` between
    them (pitch p = aperture + wire): floor(length/p) wires along y at x = (i + 1/2) p and floor(width/p)
    along x at y = (j + 1/2) p, each a closed polygonal tube (tube(), `sides` sides, `steps` segments per
    pitch) spanning the cloth, 0 to n p.  weave "plain": each wire's axis rises and falls as
    (wire/2) cos(pi s/p) so that it crosses alternately over and under the wires across it, the two axes
    a wire's diameter apart at every crossing; "stacked": straight wires in two layers, those along x on
    top.  The cloth's top at z = 0 (its axes' mid-plane at z = -wire).  Returns [triangles of each wire]."""
    p, r = aperture + wire, 0.5 * wire
    nx, ny = int(math.floor(length / p + 1e-9)), int(math.floor(width / p + 1e-9))
    if nx < 1 or ny < 1 or aperture <= 0 or wire <= 0 or steps < 2 or steps % 2 or sides < 3:
        raise ValueError("woven: needs a pitch within the cloth, aperture and wire > 0, an even steps, sides >= 3")
    zc = -wire
    wires = []
    for along, n, across in ((0, ny, nx), (1, nx, ny)):
        for j in range(n):
            sign = (-1) ** j * (1 if along == 0 else -1)
            pts, tgs = [], []
            for k in range(across * steps + 1):
                s = p * k / steps
                if weave == "plain":
                    z, dz = zc + sign * r * math.cos(math.pi * (s - 0.5 * p) / p), \
                        -sign * r * math.pi / p * math.sin(math.pi * (s - 0.5 * p) / p)
                else:
                    z, dz = zc + (r if along == 0 else -r), 0.0
                c = (j + 0.5) * p
                pts.append((s, c, z) if along == 0 else (c, s, z))
                tgs.append((1.0, 0.0, dz) if along == 0 else (0.0, 1.0, dz))
            side = (0.0, 1.0, 0.0) if along == 0 else (-1.0, 0.0, 0.0)
            wires.append(tube(pts, tgs, side, r, sides))
    return wires


def normal(t):
    a, b, c = t
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    l = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / l for x in n]


def write(path, tris, binary=False, name="hdem"):
    if binary:
        with open(path, "wb") as f:
            f.write(name.encode()[:80].ljust(80, b" "))
            f.write(struct.pack("<I", len(tris)))
            for t in tris:
                f.write(struct.pack("<3f", *normal(t)))
                for p in t:
                    f.write(struct.pack("<3f", *p))
                f.write(b"\0\0")
    else:
        with open(path, "w") as f:
            f.write(f"solid {name}\n")
            for t in tris:
                f.write("  facet normal %.9g %.9g %.9g\n    outer loop\n" % tuple(normal(t)))
                for p in t:
                    f.write("      vertex %.17g %.17g %.17g\n" % p)
                f.write("    endloop\n  endfacet\n")
            f.write(f"endsolid {name}\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["plane", "box", "drum", "hopper", "plug", "screen", "silo", "silo_plug", "plate",
                                     "woven"])
    ap.add_argument("out")
    ap.add_argument("--binary", action="store_true")
    ap.add_argument("--size", type=float, nargs=2, default=[0.1, 0.1])
    ap.add_argument("--cells", type=int, nargs=2, default=[10, 10])
    ap.add_argument("--lo", type=float, nargs=3, default=[0, 0, 0])
    ap.add_argument("--hi", type=float, nargs=3, default=[0.1, 0.1, 0.1])
    ap.add_argument("--radius", type=float, default=0.1)
    ap.add_argument("--length", type=float, default=0.05)
    ap.add_argument("--segments", type=int, default=48)
    ap.add_argument("--width", type=float, default=0.1)
    ap.add_argument("--height", type=float, default=0.2)
    ap.add_argument("--orifice", type=float, default=0.02)
    ap.add_argument("--depth", type=float, default=0.02)
    ap.add_argument("--aperture", type=float, default=0.004)
    ap.add_argument("--bar", type=float, default=0.002)
    ap.add_argument("--thickness", type=float, default=0.002, help="plate: thickness [m] (0: the top face alone)")
    ap.add_argument("--slot", type=float, default=None, help="plate: aperture length along x [m] (default square)")
    ap.add_argument("--half-bars", action="store_true", help="plate: half a bar at the borders")
    ap.add_argument("--wire", type=float, default=0.001, help="woven: wire diameter [m]")
    ap.add_argument("--weave", choices=["plain", "stacked"], default="plain")
    ap.add_argument("--sides", type=int, default=8, help="woven: sides of a wire's polygon")
    ap.add_argument("--steps", type=int, default=8, help="woven: segments per pitch along a wire (even)")
    a = ap.parse_args(argv)
    if a.kind == "plane":
        tris = plane(a.size[0], a.size[1], a.cells[0], a.cells[1])
    elif a.kind == "box":
        tris = box(a.lo, a.hi)
    elif a.kind == "drum":
        tris = drum(a.radius, a.length, a.segments)
    elif a.kind == "hopper":
        tris = hopper(a.width, a.height, a.orifice, a.depth)
    elif a.kind == "plug":
        tris = plug(a.orifice, a.depth)
    elif a.kind == "silo":
        tris = silo(a.radius, a.height, a.orifice, a.segments)
    elif a.kind == "silo_plug":
        tris = silo_plug(a.orifice, a.segments)
    elif a.kind in ("plate", "woven"):
        try:
            if a.kind == "plate":
                tris = plate(a.length, a.width, a.aperture, a.bar, a.thickness, a.slot, a.half_bars)
            else:
                tris = [t for w in woven(a.length, a.width, a.aperture, a.wire, a.weave, a.sides, a.steps) for t in w]
        except ValueError as e:
            ap.error(str(e))
    else:
        tris = screen(a.length, a.width, a.aperture, a.bar)
    write(a.out, tris, a.binary)
    print(f"{a.out}: {len(tris)} triangles")


if __name__ == "__main__":
    main(sys.argv[1:])
