#!/usr/bin/env python3
"""The steady discharge rate of a run, from its flow.csv, and Beverloo's prediction.

  tools/flowrate.py DIR [--outflow K] [--from T0] [--to T1]
                        [--orifice D --diameter d --bulk-density RHO_B [--C 0.58 --k 1.5] [--g 9.81]]

The discharged mass M(t) is outflow K's cumulative mass (outflowK_mass; all
outflows summed by default).  The rate W is the slope of a least-squares line
through M(t) over the fit window, by default from the first removal plus a
fifth of the span to the last row (the start-up transient left out), with its
standard error from the fit's residuals and, as a check of steadiness, the
spread of the slopes of four equal sub-windows.  Beverloo's correlation

    W = C rho_b sqrt(g) (D - k d)^(5/2)     (circular orifice of diameter D)

needs the orifice, the particle diameter and the bulk density: as options, or
from a line `# flowrate: --orifice 0.028 ...` in the run's deck (summary.json
names it), which the hopper deck carries.  Standard library only.
"""
import argparse
import csv
import json
import math
import os
import shlex
import sys


def fit(t, m):
    n = len(t)
    tm, mm = sum(t) / n, sum(m) / n
    sxx = sum((x - tm) ** 2 for x in t)
    if n < 3 or sxx == 0.0:
        return None, None
    w = sum((x - tm) * (y - mm) for x, y in zip(t, m)) / sxx
    res = sum((y - mm - w * (x - tm)) ** 2 for x, y in zip(t, m))
    return w, math.sqrt(res / (n - 2) / sxx)


def deck_defaults(run_dir):
    """The `# flowrate:` options of the deck the run was read from, if any."""
    try:
        deck = json.load(open(os.path.join(run_dir, "summary.json"))).get("deck", "")
    except (OSError, ValueError):
        return []
    if not deck or not os.path.isfile(deck):
        return []
    for line in open(deck, encoding="utf-8", errors="replace"):
        s = line.strip()
        if s.startswith("# flowrate:"):
            return shlex.split(s[len("# flowrate:"):])
    return []


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--outflow", type=int, default=None, help="one outflow (default: all summed)")
    ap.add_argument("--from", dest="t0", type=float, default=None, help="fit window start [s]")
    ap.add_argument("--to", dest="t1", type=float, default=None, help="fit window end [s]")
    ap.add_argument("--orifice", type=float, help="orifice diameter D [m]")
    ap.add_argument("--diameter", type=float, help="particle diameter d [m]")
    ap.add_argument("--bulk-density", type=float, help="bulk density rho_b [kg/m^3]")
    ap.add_argument("--C", type=float, default=0.58)
    ap.add_argument("--k", type=float, default=1.5)
    ap.add_argument("--g", type=float, default=9.81)
    a = ap.parse_args(deck_defaults(argv[0]) + argv if argv and not argv[0].startswith("-") else argv)
    path = os.path.join(a.dir, "flow.csv")
    rows = list(csv.DictReader(open(path)))
    if not rows:
        sys.exit("%s: no rows" % path)
    cols = [c for c in rows[0] if c.startswith("outflow") and c.endswith("_mass") and "_d" not in c]
    if a.outflow is not None:
        cols = ["outflow%d_mass" % a.outflow]
        if cols[0] not in rows[0]:
            sys.exit("%s has no column %s" % (path, cols[0]))
    if not cols:
        sys.exit("%s: no outflow columns (the deck has no outflow)" % path)
    t = [float(r["time"]) for r in rows]
    m = [sum(float(r[c]) for c in cols) for r in rows]
    started = [x for x, y in zip(t, m) if y > 0.0]
    if not started:
        sys.exit("%s: nothing was discharged" % path)
    t0 = a.t0 if a.t0 is not None else started[0] + 0.2 * (t[-1] - started[0])
    t1 = a.t1 if a.t1 is not None else t[-1]
    win = [(x, y) for x, y in zip(t, m) if t0 <= x <= t1]
    w, se = fit([x for x, _ in win], [y for _, y in win])
    if w is None:
        sys.exit("%s: fewer than 3 rows in the fit window %.4g-%.4g s" % (path, t0, t1))
    print("discharged mass from %s (%d rows)" % ("+".join(cols), len(rows)))
    print("fit window       %.4g - %.4g s (%d rows)" % (t0, t1, len(win)))
    print("discharge rate   W = %.5g +- %.2g kg/s (standard error of the fit)" % (w, se))
    q = len(win) // 4
    if q >= 3:
        subs = [fit([x for x, _ in win[k * q:(k + 1) * q]], [y for _, y in win[k * q:(k + 1) * q]])[0] for k in range(4)]
        mean = sum(subs) / 4
        sd = math.sqrt(sum((s - mean) ** 2 for s in subs) / 3)
        print("steadiness       four sub-window slopes %s kg/s (mean %.5g, s.e. %.2g)" % (", ".join("%.4g" % s for s in subs), mean, sd / 2))
    if a.orifice and a.diameter and a.bulk_density:
        b = a.C * a.bulk_density * math.sqrt(a.g) * max(a.orifice - a.k * a.diameter, 0.0) ** 2.5
        print("Beverloo         W = %.5g kg/s (C %.3g, k %.3g, D %.4g m, d %.4g m, rho_b %.5g kg/m^3): measured / Beverloo = %.3f"
              % (b, a.C, a.k, a.orifice, a.diameter, a.bulk_density, w / b))
    else:
        print("Beverloo         (give --orifice, --diameter and --bulk-density, or a '# flowrate:' line in the deck)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
