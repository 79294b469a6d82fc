#!/usr/bin/env python3
"""The angle of repose of a pile, from a run's final.h5 (or any snapshot).

  tools/repose.py DIR|FILE.h5 [--axis x] [--frozen-type T] [--bin D] [--band 0.2,0.8] [--json]

The free surface is the height profile h(s) of the pile along an axis (x by
default, the direction a quasi-2D column spreads in): in bins of width D
(default two largest diameters) the highest sphere top, max(z + r).  The slope
is the region of the profile between two fractions of the pile's height
(--band, default 0.2 to 0.8 of max h: the foot and the top plateau left out);
the angle is atan(|b|) of the least-squares line h = a + b s through it,
printed with the fit's window, its number of bins and the standard error of the
angle.  Particles of the frozen type (a rough floor, --frozen-type, default the
run's insert_frozen_type, from the options the file records, else none) are not part of
the pile.  Needs h5py and numpy.
"""
import argparse
import json
import math
import os
import sys


def load(path, axis, frozen):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        x = f["particles/position"][()]
        r = f["particles/radius"][()].ravel()
        t = f["particles/type"][()].ravel() if "particles/type" in f else np.zeros(len(r), dtype=int)
    keep = t != frozen if frozen is not None else np.ones(len(r), dtype=bool)
    a = "xyz".index(axis)
    return x[keep, a], x[keep, 2] + r[keep], r[keep]


def frozen_of(path):
    """The run's frozen type, from the options the state file records."""
    import h5py
    with h5py.File(path, "r") as f:
        opts = f.attrs.get("options", b"")
    words = (opts.decode() if isinstance(opts, bytes) else str(opts)).split()
    for k, w in enumerate(words[:-1]):
        if w == "-insert_frozen_type":
            try:
                return int(words[k + 1])
            except ValueError:
                return None
    return None


def angle(s, top, width, band):
    import numpy as np
    lo = s.min()
    nb = int(math.ceil((s.max() - lo) / width)) + 1
    idx = ((s - lo) / width).astype(int)
    h = np.full(nb, -np.inf)
    np.maximum.at(h, idx, top)
    centres = lo + (np.arange(nb) + 0.5) * width
    ok = np.isfinite(h)
    hmax = h[ok].max()
    sel = ok & (h >= band[0] * hmax) & (h <= band[1] * hmax)
    if sel.sum() < 3:
        raise SystemExit("repose: fewer than 3 bins of the profile lie between %g and %g of its height; give --bin or --band" % band)
    xs, hs = centres[sel], h[sel]
    A = np.vstack([np.ones_like(xs), xs]).T
    coef, res, _, _ = np.linalg.lstsq(A, hs, rcond=None)
    b = coef[1]
    n = len(xs)
    resid = hs - A @ coef
    sb = math.sqrt((resid @ resid) / max(n - 2, 1) / ((xs - xs.mean()) @ (xs - xs.mean())))
    deg = math.degrees(math.atan(abs(b)))
    err = math.degrees(sb / (1.0 + b * b))
    return deg, err, float(xs.min()), float(xs.max()), n, float(hmax)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="a run's folder (its final.h5) or an HDF5 state")
    ap.add_argument("--axis", default="x", choices=["x", "y"])
    ap.add_argument("--frozen-type", type=int, default=None)
    ap.add_argument("--bin", type=float, default=None, help="bin width [m] (default two largest diameters)")
    ap.add_argument("--band", default="0.2,0.8")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    path = os.path.join(a.path, "final.h5") if os.path.isdir(a.path) else a.path
    if not os.path.exists(path):
        sys.exit("repose: %s does not exist" % path)
    frozen = a.frozen_type if a.frozen_type is not None else frozen_of(path)
    s, top, r = load(path, a.axis, frozen)
    if len(s) < 10:
        sys.exit("repose: %s holds %d particles of the pile: too few" % (path, len(s)))
    band = tuple(float(v) for v in a.band.split(","))
    width = a.bin if a.bin else 4.0 * float(r.max())
    deg, err, s0, s1, n, hmax = angle(s, top, width, band)
    if a.json:
        print(json.dumps({"angle_deg": deg, "error_deg": err, "fit_from": s0, "fit_to": s1, "bins": n, "height": hmax, "particles": int(len(s))}))
    else:
        print("angle of repose %.2f +- %.2f deg (fit over %s in [%.4g, %.4g] m, %d bins of %.3g m; pile height %.4g m, %d particles)" %
              (deg, err, a.axis, s0, s1, n, width, hmax, len(s)))


if __name__ == "__main__":
    main()
