#!/usr/bin/python3
"""tools/meshgen.py's screens against closed forms.

  plate   thick perforated plates (square apertures between full bars, slots
          between half bars): every edge in exactly two triangles, once each
          way (closed, consistently wound); volume > 0 (normals outward); the
          genus from V - E + F equal to the aperture count of the closed-form
          layout; volume, top and side areas against their closed forms; every
          face's outside point outside the plate's solid; thickness 0: the top
          face alone.
  woven   wire cloth: one closed tube per wire, as many as fit; straight
          wires' volume the polygon's area times the length; in the plain
          weave the axes of two crossing wires a diameter apart, the upper
          alternating along each wire; the cloth between z = -2 wire and 0.
  pinned  the generators the decks already use write the same bytes as before
          (SHA-256 of their default output; those without trigonometry, whose
          bits do not depend on the C library).

  tests/meshgen_screens.py [--meshgen tools/meshgen.py]"""
import argparse
import hashlib
import importlib.util
import math
import os
import subprocess
import sys
import tempfile

import harness

PINNED = {  # kind: SHA-256 of `meshgen.py KIND OUT.stl [--binary]` with the defaults
    ("plane", False): "2a7c44884c9bc6e44cf48f86606379a9e339354df476a18ea57c4efe98a50884",
    ("box", False): "b8ad89a1989d090bbf3467053ab3a3a1516df7da8ac3bf7e12cc978349203a2d",
    ("hopper", False): "aaa93a5916110f7c802727999eba41c4c0d7147b918d62f169a663d732a671b3",
    ("plug", False): "5238121eaabd6a9df88059b2b0429326b4d2c8629280ecde1de07d42b9ded5ec",
    ("screen", False): "8e94ace335039b7069feffb0f8ff0d7592b4d6ed68fcccce8e15a047afd3ad1a",
    ("screen", True): "95e0fad799d02460968ef29bfad4b2d458dc958b74f26297044c28e525e8a55c",
}


def load(path):
    spec = importlib.util.spec_from_file_location("meshgen", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def edges(tris):
    """{directed edge: count} over the triangles."""
    out = {}
    for t in tris:
        for k in range(3):
            e = (t[k], t[(k + 1) % 3])
            out[e] = out.get(e, 0) + 1
    return out


def closed(tris):
    """Every undirected edge in exactly two triangles, traversed once each way."""
    d = edges(tris)
    return all(n == 1 and d.get((b, a)) == 1 for (a, b), n in d.items())


def volume(tris):
    return sum(a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]) for a, b, c in tris) / 6.0


def cross(t):
    a, b, c = t
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]


def area(t):
    return 0.5 * math.sqrt(sum(x * x for x in cross(t)))


def euler(tris):
    v = {p for t in tris for p in t}
    e = {frozenset(x) for x in edges(tris)}
    return len(v) - len(e) + len(tris)


def layout(extent, opening, bar, half):
    """The openings along one side, independently of meshgen: [(lo, hi)]."""
    n = int((extent - (0 if half else bar)) // (opening + bar) + 1e-9)
    border = (extent - n * opening - (n - 1) * bar) / 2
    return [(border + i * (opening + bar), border + i * (opening + bar) + opening) for i in range(n)]


def check_plate(check, mg, name, L, W, a, b, t, slot=None, half=False):
    s = a if slot is None else slot
    tris = mg.plate(L, W, a, b, t, slot, half)
    hx, hy = layout(L, s, b, half), layout(W, a, b, half)
    n = len(hx) * len(hy)
    open_area = n * s * a
    check(closed(tris), "%s: closed, every edge in two triangles once each way (%d triangles)" % (name, len(tris)))
    check(not closed(tris[1:]), "%s: one triangle fewer is not closed (the check can fail)" % name)
    check(euler(tris) == 2 - 2 * n, "%s: V - E + F = %d, genus %d apertures (%d x %d)"
          % (name, euler(tris), n, len(hx), len(hy)))
    vol = (L * W - open_area) * t
    check(abs(volume(tris) - vol) < 1e-12 * L * W * t * 10, "%s: volume %.12g (%.12g), positive: normals outward"
          % (name, volume(tris), vol))
    top = sum(area(x) for x in tris if all(p[2] == 0 for p in x))
    side = sum(area(x) for x in tris if abs(cross(x)[2]) < 1e-30)
    check(abs(top - (L * W - open_area)) < 1e-12 * L * W, "%s: top area %.12g (%.12g)" % (name, top, L * W - open_area))
    ps = 2 * (L + W) * t + n * 2 * (s + a) * t
    check(abs(side - ps) < 1e-12 * ps, "%s: side area %.12g (%.12g)" % (name, side, ps))
    inside = lambda p: (0 < p[0] < L and 0 < p[1] < W and -t < p[2] < 0 and
                        not (any(lo < p[0] < hi for lo, hi in hx) and any(lo < p[1] < hi for lo, hi in hy)))
    bad = 0
    for x in tris:
        c = [sum(p[k] for p in x) / 3 for k in range(3)]
        nv = cross(x)
        ln = math.sqrt(sum(q * q for q in nv))
        eps = 1e-3 * min(b, t)
        out = [c[k] + eps * nv[k] / ln for k in range(3)]
        inn = [c[k] - eps * nv[k] / ln for k in range(3)]
        bad += inside(out) or not inside(inn)
    check(bad == 0, "%s: every face's normal points out of the solid (%d wrong)" % (name, bad))
    if half and abs(L / (s + b) - round(L / (s + b))) < 1e-12:
        check(abs(hx[0][0] - b / 2) < 1e-15 and abs(L - hx[-1][1] - b / 2) < 1e-15,
              "%s: half bars at the x borders" % name)
        xs = sorted({p[0] for x in tris for p in x})
        check(abs(xs[1] - b / 2) < 1e-15, "%s: the mesh's first aperture edge at x = %g (bar/2)" % (name, xs[1]))


def check_woven(check, mg):
    L, W, a, w, sides = 0.021, 0.016, 0.004, 0.001, 8
    p, r = a + w, w / 2
    nx, ny = int(L // p), int(W // p)
    for weave in ("stacked", "plain"):
        wires = mg.woven(L, W, a, w, weave, sides, 8)
        check(len(wires) == nx + ny, "woven %s: %d wires (%d along x, %d along y)" % (weave, len(wires), ny, nx))
        check(all(closed(x) for x in wires), "woven %s: each wire a closed tube" % weave)
        check(all(volume(x) > 0 for x in wires), "woven %s: each wire's volume positive: normals outward" % weave)
        zs = [q[2] for x in wires for t in x for q in t]
        check(abs(max(zs)) < 1e-15 and abs(min(zs) + 2 * w) < 1e-15,
              "woven %s: between z = %g and %g (-2 wire, 0)" % (weave, min(zs), max(zs)))
        poly = sides / 2 * r * r * math.sin(2 * math.pi / sides)
        if weave == "stacked":
            ok = all(abs(volume(x) - poly * (nx * p if j < ny else ny * p)) < 1e-12 * poly * L
                     for j, x in enumerate(wires))
            check(ok, "woven stacked: each wire's volume the polygon's area times its length")
        else:
            axis = lambda x, k, c: sum(q[2] for t in x for q in t if abs(q[k] - c) < 1e-15) / \
                max(1, sum(1 for t in x for q in t if abs(q[k] - c) < 1e-15))
            ok, alt = True, True
            for i in range(nx):
                for j in range(ny):
                    zx = axis(wires[j], 0, (i + 0.5) * p)         # along x, its ring at x_i
                    zy = axis(wires[ny + i], 1, (j + 0.5) * p)    # along y, its ring at y_j
                    ok &= abs(abs(zx - zy) - w) < 1e-12
                    alt &= (zx > zy) == ((i + j) % 2 == 0)
            check(ok, "woven plain: crossing axes a wire's diameter apart")
            check(alt, "woven plain: over and under alternately along every wire")
            arc = sum(math.hypot(p / 8, r * (math.cos(math.pi * (k + 1) / 8) - math.cos(math.pi * k / 8)))
                      for k in range(8 * nx))
            check(abs(volume(wires[0]) - poly * arc) < 0.01 * poly * arc,
                  "woven plain: a wire's volume %.6g within 1 %% of area x arc length %.6g" % (volume(wires[0]),
                                                                                            poly * arc))


def check_cli(check, path):
    tmp = tempfile.mkdtemp(prefix="meshgen_")
    try:
        for (kind, binary), sha in PINNED.items():
            out = os.path.join(tmp, "%s.stl" % kind)
            harness.run([sys.executable, path, kind, out] + (["--binary"] if binary else []))
            got = hashlib.sha256(open(out, "rb").read()).hexdigest()
            check(got == sha, "%s%s: the same bytes as before" % (kind, " --binary" if binary else ""))
        out = os.path.join(tmp, "p.stl")
        q = harness.run([sys.executable, path, "plate", out, "--length", "0.05", "--width", "0.03", "--slot", "0.01",
                         "--half-bars", "--thickness", "0.001"])
        check(q.stdout.strip().endswith("triangles") and open(out).read().startswith("solid"),
              "plate from the command line: %s" % q.stdout.strip())
        q = harness.run([sys.executable, path, "plate", out, "--length", "0.003"], expect=None)
        check(q.returncode == 2 and "plate" in q.stderr, "a plate too short for one aperture refused")
        q = harness.run([sys.executable, path, "woven", out, "--steps", "7"], expect=None)
        check(q.returncode == 2 and "steps" in q.stderr, "woven with odd steps refused")
    finally:
        subprocess.run(["rm", "-rf", tmp])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meshgen", default=harness.here("..", "tools", "meshgen.py"))
    a = ap.parse_args()
    mg = load(a.meshgen)
    check = harness.Checks()
    check_plate(check, mg, "square plate", 0.1, 0.05, 0.004, 0.002, 0.002)
    check_plate(check, mg, "slotted plate, half bars", 0.075, 0.045, 0.003, 0.003, 0.0015, slot=0.012, half=True)
    check_plate(check, mg, "slotted plate, half bars, a remainder", 0.08, 0.05, 0.004, 0.002, 0.003, slot=0.01,
                half=True)
    top = mg.plate(0.1, 0.05, 0.004, 0.002, 0.0)
    n = len(layout(0.1, 0.004, 0.002, False)) * len(layout(0.05, 0.004, 0.002, False))
    check(all(p[2] == 0 for t in top for p in t) and
          abs(sum(area(t) for t in top) - (0.1 * 0.05 - n * 0.004 ** 2)) < 1e-15 and
          all(cross(t)[2] > 0 for t in top), "plate of thickness 0: the top face alone, facing +z")
    check_woven(check, mg)
    check_cli(check, a.meshgen)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
