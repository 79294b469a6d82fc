#!/usr/bin/env python3
"""How well a run's screen screens: kinetics, efficiencies, partition curve,
passage along the deck and residence times, from the files hdem wrote.

  tools/screen.py OUTPUT_DIR [--aperture A] [--wire W] [--cut C]
                  [--classes d0,d1,...] [--feed-count n0,...] [--feed-mass m0,...]
                  [--under 0] [--over 1,...] [--basis mass|count] [--t0 T] [--t1 T]
                  [--model whiten|plitt] [--png PATH] [--json PATH] [--no-png]

Reads OUTPUT_DIR/flow.csv (removed count and mass per outflow and size class),
flow_bins.csv (the same binned along a deck axis), residence.csv (residence
times of the removed particles), summary.json, thermo.csv and the effective
options stored in final.h5 (or the newest snapshot or checkpoint; needs h5py).
A missing file removes only the figures that need it; each is named in the
JSON's "notes" and on stderr.  Writes OUTPUT_DIR/screen.json and screen.png.

Outflows --under (default 0) are the undersize product, --over (default every
other outflow) the oversize.  A class's diameter is --classes, else the sizes
the run's streams and insert block draw that fall in it (their weighted mean),
else the geometric mean of its edges.  docs/studies/screen_tool.md defines
every figure and every JSON key.
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import sys
import textwrap

try:
    import numpy as np
except ImportError as e:
    sys.exit("screen.py: %s (install python3-numpy and python3-matplotlib, or run it with /usr/bin/python3)" % e)

LN2 = math.log(2.0)


def note(notes, text):
    notes.append(text)
    print("screen.py: " + text, file=sys.stderr)


def read_csv(path):
    """(header, rows of strings) or None when the file is absent or empty."""
    if not os.path.isfile(path):
        return None
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    return (rows[0], rows[1:]) if rows else None


def flow_table(path):
    """flow.csv as {time, classes, outflows: {N: {count, mass}: rows x classes}}."""
    got = read_csv(path)
    if got is None or not got[1]:
        return None
    header, rows = got
    col = {h: i for i, h in enumerate(header)}
    time = np.array([float(r[col["time"]]) for r in rows])
    cls = {}
    for h in header:
        m = re.match(r"outflow(\d+)_(removed|mass)(?:_d(\d+))?$", h)
        if m:
            cls.setdefault(int(m.group(1)), set()).add(-1 if m.group(3) is None else int(m.group(3)))
    outflows, nc = {}, 1
    for k, cs in sorted(cls.items()):
        per = sorted(c for c in cs if c >= 0)
        names = ["_d%d" % c for c in per] if per else [""]
        nc = len(names)
        outflows[k] = {q: np.array([[float(r[col["outflow%d_%s%s" % (k, w, s)]]) for s in names] for r in rows])
                       for q, w in (("count", "removed"), ("mass", "mass"))}
    return {"time": time, "classes": nc, "outflows": outflows}


def parse_options(text):
    """hdem's effective options "-key value ..." as {key: value string} (a key without a value: "true")."""
    pairs = re.findall(r"(?:^|\s)-([A-Za-z]\w*)(?:\s+(?!-[A-Za-z])(\S+))?", text)
    return {k: (v if v else "true") for k, v in pairs}


def run_state(outdir, notes):
    """(options dict, final radii or None) from final.h5, else the newest snapshot or checkpoint."""
    try:
        import h5py
    except ImportError:
        note(notes, "h5py missing: the run's options and final state are not read")
        return {}, None
    files = [os.path.join(outdir, "final.h5")] + [f for d in ("snapshots/snap_*.h5", "checkpoints/step_*.h5")
                                                  for f in sorted(glob.glob(os.path.join(outdir, d)), reverse=True)]
    for path in (f for f in files if os.path.isfile(f)):
        try:
            with h5py.File(path, "r") as f:
                raw = f.attrs.get("options", b"")
                opts = parse_options(raw.decode() if isinstance(raw, bytes) else str(raw))
                final = os.path.basename(path) == "final.h5" and "/bodies" not in f and "/particles/radius" in f
                return opts, (np.array(f["/particles/radius"][()], dtype=float) if final else None)
        except OSError:
            continue
    note(notes, "no final.h5, snapshot or checkpoint: the run's options and final state are unknown")
    return {}, None


def floats(s):
    return [float(x) for x in s.split(",") if x.strip()]


def size_sources(opts):
    """Diameters the run draws: [(kind, diameters, weights)] with kind discrete or range."""
    out = []
    prefixes = sorted({k.split("_")[0] for k in opts if re.match(r"(stream\d+|insert)_", k)})
    for p in prefixes:
        if p + "_radius" in opts:
            out.append(("discrete", [2 * float(opts[p + "_radius"])], [1.0]))
            continue
        dist = opts.get(p + "_radius_distribution", "uniform")
        if dist == "discrete" and p + "_radius_values" in opts:
            d = [2 * v for v in floats(opts[p + "_radius_values"])]
            w = floats(opts[p + "_radius_weights"]) if p + "_radius_weights" in opts else [1.0] * len(d)
            out.append(("discrete", d, w))
        else:
            lo, hi = float(opts.get(p + "_radius_min", 0.001)), float(opts.get(p + "_radius_max", 0.001))
            out.append(("discrete", [2 * lo], [1.0]) if lo == hi else ("range", [2 * lo, 2 * hi], None))
    return out


def class_table(nc, opts, given, notes):
    """Per class: index, lo, hi edges [m] (None open), diameter [m] and its source."""
    edges = floats(opts["flow_size_classes"]) if "flow_size_classes" in opts else []
    if edges and len(edges) + 1 != nc:
        note(notes, "flow_size_classes has %d edges for %d classes in flow.csv: edges ignored" % (len(edges), nc))
        edges = []
    if given is not None and len(given) != nc:
        raise SystemExit("screen.py: --classes gives %d diameters, flow.csv has %d classes" % (len(given), nc))
    srcs = size_sources(opts)
    table = []
    for c in range(nc):
        lo = edges[c - 1] if edges and c > 0 else None
        hi = edges[c] if edges and c < len(edges) else None
        inside = lambda d: (lo is None or d >= lo) and (hi is None or d < hi)
        d, src = None, None
        if given is not None:
            d, src = given[c], "--classes"
        else:
            ds = [(x, w) for kind, xs, ws in srcs if kind == "discrete" for x, w in zip(xs, ws) if inside(x)]
            spans = [(max(xs[0], lo or xs[0]), min(xs[1], hi or xs[1])) for k, xs, _ in srcs if k == "range"]
            spans = [s for s in spans if s[0] < s[1] or (s[0] == s[1] and inside(s[0]))]
            if ds and not spans and sum(w for _, w in ds) > 0:
                one = len({x for x, _ in ds}) == 1
                d = ds[0][0] if one else sum(x * w for x, w in ds) / sum(w for _, w in ds)
                src = "run's sizes"
            elif spans and not ds and len(spans) == 1:
                d, src = 0.5 * (spans[0][0] + spans[0][1]), "run's size range"
            elif lo is not None and hi is not None:
                d, src = math.sqrt(lo * hi), "edges' geometric mean"
        table.append({"index": c, "lo": lo, "hi": hi, "diameter": d, "diameter_source": src})
    if any(r["diameter"] is None for r in table):
        note(notes, "classes %s have no diameter (give --classes): left out of the Gaudin and partition fits"
             % [r["index"] for r in table if r["diameter"] is None])
    return table


def feeds(flow, table, radii, a, notes):
    """Per class feed count and mass: the options, else removed + left in final.h5, else removed alone."""
    nc = len(table)
    removed_n = sum(o["count"][-1] for o in flow["outflows"].values())
    removed_m = sum(o["mass"][-1] for o in flow["outflows"].values())
    left = np.zeros(nc)
    src = "removed by the outflows (the deck assumed empty at the end)"
    if radii is not None:
        lows = np.array([r["lo"] for r in table[1:]], dtype=float)
        np.add.at(left, np.searchsorted(lows, 2 * radii, side="right"), 1)  # d >= an edge: the class above
        src = "removed by the outflows + left in final.h5"
    elif flow is not None:
        note(notes, "no final.h5 read: the feed is taken as what the outflows removed")
    count = removed_n + left
    per = np.where(removed_n > 0, removed_m / np.where(removed_n > 0, removed_n, 1), np.nan)
    mass = np.where(left > 0, removed_m + left * per, removed_m)
    srcs = [src] * nc
    if a.feed_count is not None:
        count, srcs = np.array(a.feed_count, dtype=float), ["--feed-count"] * nc
    if a.feed_mass is not None:
        mass = np.array(a.feed_mass, dtype=float)
        srcs = [s + ", --feed-mass" for s in srcs]
    for arr, name in ((count, "--feed-count"), (mass, "--feed-mass")):
        if len(arr) != nc:
            raise SystemExit("screen.py: %s gives %d values, flow.csv has %d classes" % (name, len(arr), nc))
    return count, mass, srcs


def first_order(t, r):
    """Least squares of ln R = ln R0 - k t over the points with R > 0: (k, R0, R^2, points)."""
    ok = np.isfinite(r) & (r > 0)
    t, y = t[ok], np.log(r[ok])
    if len(t) < 2 or np.ptp(t) == 0:
        return None, None, None, int(len(t))
    (c, k), *_ = np.linalg.lstsq(np.vstack([np.ones_like(t), -t]).T, y, rcond=None)
    res = y - (c - k * t)
    sst = float(np.sum((y - y.mean()) ** 2))
    r2 = 1.0 - float(np.sum(res ** 2)) / sst if sst > 0 else None
    return float(k), float(math.exp(c)), r2, int(len(t))


def gaudin(d, a, w):
    """Gaudin's probability that a sphere of diameter d passes a square aperture a between wires w in one attempt."""
    return None if d is None or a is None else ((a - d) / (a + w)) ** 2 if d < a else 0.0


def kinetics(flow, table, count, mass, a, notes):
    t = flow["time"]
    under = [k for k in a.under if k in flow["outflows"]]
    passed = sum(flow["outflows"][k][a.basis] for k in under)
    feed = mass if a.basis == "mass" else count
    rem = np.full_like(passed, np.nan)
    for c in range(len(table)):
        if feed[c] > 0 and np.isfinite(feed[c]):
            rem[:, c] = 1.0 - passed[:, c] / feed[c]
        elif feed[c] != 0 and not np.any(passed[:, c]):  # a class present, of unknown mass, that never passed
            rem[:, c] = 1.0
    t0 = a.t0
    if t0 is None:
        none = np.where(passed.sum(axis=1) == 0)[0]
        t0 = float(t[none[-1]]) if len(none) else float(t[0])
    t1 = a.t1 if a.t1 is not None else float(t[-1])
    win = (t >= t0) & (t <= t1)
    rows = []
    for c, r in enumerate(table):
        k, r0, r2, n = first_order(t[win] - t0, rem[win, c])
        p = gaudin(r["diameter"], a.aperture, a.wire)
        rows.append({"class": c, "diameter": r["diameter"], "k": k, "R0": r0, "r2": r2, "points": n,
                     "gaudin_p": p, "k_over_p": (k / p if k is not None and p else None)})
    if a.aperture is None:
        note(notes, "no --aperture: Gaudin's probabilities not given")
    series = {"time": t.tolist(), "remaining": rem.T.tolist()}
    return {"basis": a.basis, "t0": t0, "t1": t1, "classes": rows}, series


def product(flow, outflows, basis):
    """Per class, what the named outflows removed by the last row."""
    return sum((flow["outflows"][k][basis][-1] for k in outflows if k in flow["outflows"]), np.zeros(flow["classes"]))


def is_fine(r, cut):
    """A class below the cut by its diameter, else by its edges; None when it straddles the cut."""
    if r["diameter"] is not None:
        return r["diameter"] < cut
    return True if r["hi"] is not None and r["hi"] <= cut else False if r["lo"] is not None and r["lo"] >= cut else None


def efficiency(flow, table, a, notes):
    """Recoveries and Newton's efficiency of the products at the last row, by mass and by count."""
    cut = a.cut if a.cut is not None else a.aperture
    if cut is None:
        note(notes, "no --cut or --aperture: recoveries and Newton's efficiency not given")
        return None
    fine = [is_fine(r, cut) for r in table]
    if any(f is None for f in fine):
        note(notes, "a class straddles the cut %g m with no diameter: efficiencies not given" % cut)
        return None
    out = {"cut": cut}
    for basis in ("mass", "count"):
        u, o = product(flow, a.under, basis), product(flow, a.over, basis)
        f = np.array(fine)
        uf, of, uc, oc = float(np.sum(u[f])), float(np.sum(o[f])), float(np.sum(u[~f])), float(np.sum(o[~f]))
        ru = uf / (uf + of) if uf + of > 0 else None
        ro = oc / (uc + oc) if uc + oc > 0 else None
        feed = uf + of + uc + oc
        out[basis] = {"undersize_fines": uf, "undersize_coarse": uc, "oversize_fines": of, "oversize_coarse": oc,
                      "fines_in_feed": (uf + of) / feed if feed > 0 else None,
                      "undersize_recovery": ru, "oversize_recovery": ro,
                      "newton": ru + ro - 1.0 if ru is not None and ro is not None else None}
    return out


def whiten(d, d50, alpha):
    """Whiten's partition to the oversize (no fish hook): (e^(a x) - 1) / (e^(a x) + e^a - 2), x = d/d50."""
    ax = alpha * np.asarray(d, dtype=float) / d50
    m = np.maximum(ax, alpha)  # both terms over e^m: no overflow for a steep curve (a large alpha)
    with np.errstate(over="ignore", invalid="ignore"):  # a trial alpha of inf: NaN, which the fit rejects
        return (np.exp(ax - m) - np.exp(-m)) / (np.exp(ax - m) + np.exp(alpha - m) - 2.0 * np.exp(-m))


def plitt(d, d50, m):
    """Plitt's (Rosin-Rammler) partition to the oversize: 1 - exp(-ln 2 (d/d50)^m)."""
    return -np.expm1(-LN2 * (np.asarray(d, dtype=float) / d50) ** m)


def quantile_size(model, d50, s, p):
    """The size whose partition number is p."""
    if model == "whiten":
        return d50 * math.log((1.0 + p * math.expm1(s) - p) / (1.0 - p)) / s
    return d50 * (-math.log1p(-p) / LN2) ** (1.0 / s)


def levenberg(f, x, d, y, iters=200):
    """Least squares of f(d, *x) against y by Levenberg-Marquardt in log parameters (both positive)."""
    z, lam = np.log(np.asarray(x, dtype=float)), 1e-3
    res = lambda z: f(d, *np.exp(z)) - y
    r = res(z)
    for _ in range(iters):
        J = np.empty((len(y), len(z)))
        for j in range(len(z)):
            h = 1e-7 * max(1.0, abs(z[j]))
            e = np.zeros_like(z)
            e[j] = h
            J[:, j] = (res(z + e) - res(z - e)) / (2 * h)
        g, H = J.T @ r, J.T @ J
        try:
            step = np.linalg.solve(H + lam * np.diag(np.diag(H) + 1e-30), -g)
        except np.linalg.LinAlgError:  # a flat residual (a step-like curve): damp more
            step = np.full_like(z, np.nan)
        rn = res(z + step)
        if np.all(np.isfinite(rn)) and rn @ rn <= r @ r:
            z, r, lam = z + step, rn, lam * 0.3
            if np.max(np.abs(step)) < 1e-13:
                break
        else:
            lam *= 10.0
            if lam > 1e12:
                break
    return np.exp(z), float(r @ r)


def partition(flow, table, a, notes):
    """T(d) = oversize / (undersize + oversize) by mass per class, and the models fitted to it."""
    u, o = product(flow, a.under, "mass"), product(flow, a.over, "mass")
    if not a.over or not any(k in flow["outflows"] for k in a.over):
        note(notes, "no oversize outflow: the partition curve is not given")
        return None
    d = np.array([np.nan if r["diameter"] is None else r["diameter"] for r in table])
    tot = u + o
    ok = (tot > 0) & np.isfinite(d)
    T = np.where(tot > 0, o / np.where(tot > 0, tot, 1), np.nan)
    out = {"diameter": d.tolist(), "undersize_mass": u.tolist(), "oversize_mass": o.tolist(), "T": T.tolist(),
           "model": a.model}
    dd, tt = d[ok], T[ok]
    mid = (tt > 0) & (tt < 1)
    if mid.sum() < 2:
        note(notes, "partition: %d classes strictly between T = 0 and 1, two needed to fit d50 and sharpness"
             % mid.sum())
        return out
    lo_i, hi_i = np.where(tt < 0.5)[0], np.where(tt > 0.5)[0]
    guess = float(np.median(dd[mid]))
    if len(lo_i) and len(hi_i) and dd[lo_i].max() < dd[hi_i].min():
        guess = math.sqrt(dd[lo_i].max() * dd[hi_i].min())
    for name, f, s0 in (("whiten", whiten, 4.0), ("plitt", plitt, 3.0)):
        (d50, s), rss = levenberg(f, [guess, s0], dd, tt)
        key = "alpha" if name == "whiten" else "m"
        out[name] = {"d50": float(d50), key: float(s), "rss": rss}
    fit = out[a.model]
    s = fit["alpha" if a.model == "whiten" else "m"]
    out["d50"] = fit["d50"]
    out["d25"] = quantile_size(a.model, fit["d50"], s, 0.25)
    out["d75"] = quantile_size(a.model, fit["d50"], s, 0.75)
    out["kappa"] = out["d25"] / out["d75"]
    return out


def last_rows(path, need, what, notes):
    """The rows of a CSV at its last time, as dictionaries of strings, or None (with a note)."""
    got = read_csv(path)
    if got is None or not got[1] or any(h not in got[0] for h in need):
        note(notes, "no %s with columns %s: %s not given" % (os.path.basename(path), ",".join(need), what))
        return None
    rows = [dict(zip(got[0], r)) for r in got[1]]
    last = max(float(r["time"]) for r in rows)
    return [r for r in rows if float(r["time"]) == last]


def index(s):
    """outflow 2, class 1 from "2", "outflow2", "d1"."""
    return int(re.sub(r"\D", "", s))


def along_deck(path, table, mass, notes):
    """flow_bins.csv at its last time: per outflow and class the bins and the cumulative fraction of the feed."""
    rows = last_rows(path, ["time", "outflow", "class", "axis", "bin", "lo", "hi", "count", "mass"],
                     "passing along the deck", notes)
    if rows is None:
        return None
    groups = {}
    for r in rows:
        groups.setdefault((index(r["outflow"]), index(r["class"])), []).append(r)
    out = {"time": float(rows[0]["time"]), "axis": rows[0]["axis"], "series": []}
    for (k, c), rs in sorted(groups.items()):
        rs.sort(key=lambda r: int(r["bin"]))
        m = np.array([float(r["mass"]) for r in rs])
        feed = mass[c] if c < len(mass) and mass[c] > 0 else None
        out["series"].append({"outflow": k, "class": c, "diameter": table[c]["diameter"] if c < len(table) else None,
                              "lo": [float(r["lo"]) for r in rs], "hi": [float(r["hi"]) for r in rs],
                              "count": [float(r["count"]) for r in rs], "mass": m.tolist(),
                              "cumulative_fraction": (np.cumsum(m) / feed).tolist() if feed else None})
    return out


def residence(path, table, notes):
    """residence.csv at its last time: per outflow and class the count, mean and quantiles [s]."""
    rows = last_rows(path, ["time", "outflow", "class", "count", "mean", "q10", "q50", "q90"], "residence times", notes)
    if rows is None:
        return None
    out = []
    for r in rows:
        c = index(r["class"])
        rec = {"time": float(r["time"]), "outflow": index(r["outflow"]), "class": c,
               "diameter": table[c]["diameter"] if c < len(table) else None, "count": float(r["count"])}
        out.append(dict(rec, **{q: float(r[q]) if r[q].strip() else None for q in ("mean", "q10", "q50", "q90")}))
    return sorted(out, key=lambda x: (x["outflow"], x["class"]))


def run_info(outdir, notes):
    info = {}
    try:
        with open(os.path.join(outdir, "summary.json")) as f:
            s = json.load(f)
        info = {k: s.get(k) for k in ("status", "simulated_time", "particles", "inserted", "removed", "deck")}
    except (OSError, ValueError):
        note(notes, "no summary.json: the run's status is not given")
    th = read_csv(os.path.join(outdir, "thermo.csv"))
    if th is not None and th[1]:
        info.update({"thermo_" + k: float(th[1][-1][th[0].index(k)]) for k in ("time", "bridges", "liquid_total")
                     if k in th[0]})
    return info


def plot_kinetics(ax, res, empty):
    kin, ser = res["kinetics"], res.get("_series")
    if not kin:
        empty(ax[0], "no kinetics (flow.csv)")
        empty(ax[1], "no rates")
        return
    t = np.array(ser["time"])
    for c, row in enumerate(kin["classes"]):
        r = np.array([np.nan if x is None else x for x in ser["remaining"][c]], dtype=float)
        lab = "d%d" % c + ("" if row["diameter"] is None else " %.3g mm" % (1e3 * row["diameter"]))
        line, = ax[0].plot(t, r, ".", ms=3, label=lab)
        if row["k"] is not None:
            tt = t[t >= kin["t0"]]
            ax[0].plot(tt, row["R0"] * np.exp(-row["k"] * (tt - kin["t0"])), "-", color=line.get_color(), lw=0.8)
    ax[0].set(xlabel="time [s]", ylabel="remaining fraction (%s)" % kin["basis"], title="first-order kinetics",
              yscale="log", ylim=(1e-3, 1.5))
    ax[0].legend(fontsize=7)
    rows = [r for r in kin["classes"] if r["diameter"] is not None and r["k"] is not None]
    if rows:
        ax[1].plot([1e3 * r["diameter"] for r in rows], [r["k"] for r in rows], "o-", label="k fitted")
        ax[1].set(xlabel="class diameter [mm]", ylabel="k [1/s]", title="rates against Gaudin")
        if rows[0]["gaudin_p"] is not None:
            b = ax[1].twinx()
            b.plot([1e3 * r["diameter"] for r in rows], [r["gaudin_p"] for r in rows], "s--", color="C3")
            b.set_ylabel("Gaudin p per attempt", color="C3")
    else:
        empty(ax[1], "no rates with class diameters")


def plot(path, res):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 3, figsize=(15, 8.5))
    ax = ax.ravel()
    empty = lambda a, why: (a.text(0.5, 0.5, why, ha="center", va="center", transform=a.transAxes), a.set_axis_off())
    plot_kinetics(ax, res, empty)
    deck = res["along_deck"]
    if deck:
        for s in (s for s in deck["series"] if s["cumulative_fraction"] is not None):
            ax[2].plot(s["hi"], s["cumulative_fraction"], ".-", label="outflow%d d%d" % (s["outflow"], s["class"]))
        ax[2].set(xlabel="%s [m]" % deck["axis"], ylabel="cumulative fraction of class feed",
                  title="passing along the deck")
        ax[2].legend(fontsize=7)
    else:
        empty(ax[2], "no passage along the deck (flow_bins.csv)")
    part = res["partition"]
    if part and any(x is not None for x in part["T"]):
        pts = [(d, t) for d, t in zip(part["diameter"], part["T"]) if d is not None and t is not None]
        ax[3].plot([1e3 * d for d, _ in pts], [t for _, t in pts], "ko", label="classes")
        if "d50" in part:
            dd = np.linspace(0.05 * part["d50"], 2.5 * part["d50"], 200)
            ax[3].plot(1e3 * dd, whiten(dd, part["whiten"]["d50"], part["whiten"]["alpha"]), "-", label="Whiten")
            ax[3].plot(1e3 * dd, plitt(dd, part["plitt"]["d50"], part["plitt"]["m"]), "--", label="Plitt")
            ax[3].axvline(1e3 * part["d50"], color="grey", lw=0.5)
        ax[3].set(xlabel="diameter [mm]", ylabel="T(d) to oversize", title="partition curve", ylim=(-0.05, 1.05))
        ax[3].legend(fontsize=7)
    else:
        empty(ax[3], "no partition curve")
    rt = res["residence"]
    if rt:
        x = np.arange(len(rt))
        ax[4].errorbar(x, [r["q50"] or 0 for r in rt], fmt="o",
                       yerr=[[max(0, (r["q50"] or 0) - (r["q10"] or 0)) for r in rt],
                             [max(0, (r["q90"] or 0) - (r["q50"] or 0)) for r in rt]])
        ax[4].plot(x, [r["mean"] or 0 for r in rt], "x", label="mean")
        ax[4].set_xticks(x, ["o%d d%d" % (r["outflow"], r["class"]) for r in rt], rotation=45, fontsize=7)
        ax[4].set(ylabel="residence time [s]", title="residence: median, 10-90 %")
    else:
        empty(ax[4], "no residence times (residence.csv)")
    ax[5].set_axis_off()
    ax[5].text(0, 1, summary_text(res), va="top", family="monospace", fontsize=8, transform=ax[5].transAxes)
    fig.tight_layout(), fig.savefig(path, dpi=110), plt.close(fig)


def summary_text(res):
    lines, eff, fmt = [], res["efficiency"], lambda v: "-" if v is None else "%.4f" % v
    if eff:
        lines += ["cut %.4g mm (mass basis)" % (1e3 * eff["cut"])]
        lines += ["%-19s%s" % (k.replace("_", " "), fmt(eff["mass"][k])) for k in ("undersize_recovery",
                                                                                    "oversize_recovery", "newton")]
    part = res["partition"]
    if part and "d50" in part:
        lines += ["%s: d50 %.4g mm, kappa %.3f" % (part["model"], 1e3 * part["d50"], part["kappa"])]
    lines += ["", "not given:"] + [textwrap.fill(n, 60, initial_indent="- ", subsequent_indent="  ")
                                   for n in res["notes"]] if res["notes"] else []
    return "\n".join(lines)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="the run's output_dir")
    ap.add_argument("--aperture", type=float, help="square aperture a [m] (Gaudin; the default cut)")
    ap.add_argument("--wire", type=float, default=0.0, help="wire or bar width w [m] (Gaudin), default 0")
    ap.add_argument("--cut", type=float, help="cut size [m] of the efficiencies (default: the aperture)")
    ap.add_argument("--classes", type=floats, help="class diameters d0,d1,... [m], one per class of flow.csv")
    ap.add_argument("--feed-count", type=floats, help="feed count per class (default: removed + left)")
    ap.add_argument("--feed-mass", type=floats, help="feed mass per class [kg] (default: removed + left)")
    ap.add_argument("--under", type=lambda s: [int(x) for x in s.split(",")], default=[0],
                    help="undersize outflows, e.g. 0 or 0,2 (default 0)")
    ap.add_argument("--over", type=lambda s: [int(x) for x in s.split(",")], default=None,
                    help="oversize outflows (default: every other outflow)")
    ap.add_argument("--basis", choices=["mass", "count"], default="mass", help="of the remaining fraction")
    ap.add_argument("--t0", type=float, help="fit window start [s] (default: the last row before any passage)")
    ap.add_argument("--t1", type=float, help="fit window end [s] (default: the last row)")
    ap.add_argument("--model", choices=["whiten", "plitt"], default="whiten", help="gives d50 and kappa")
    ap.add_argument("--json", help="default OUTPUT_DIR/screen.json")
    ap.add_argument("--png", help="default OUTPUT_DIR/screen.png")
    ap.add_argument("--no-png", action="store_true")
    a = ap.parse_args(argv)
    for k, v in (("aperture", a.aperture), ("cut", a.cut), ("wire", a.wire or 1.0)):
        if v is not None and not (v > 0 and math.isfinite(v)):
            ap.error("--%s %g: must be a positive length in metres (--wire may be 0)" % (k, v))
    if not os.path.isdir(a.dir):
        ap.error("%s: not a directory" % a.dir)
    return a


def analyse(a):
    """Every figure the run's files allow, as the JSON's dictionary."""
    notes = []
    flow = flow_table(os.path.join(a.dir, "flow.csv"))
    opts, radii = run_state(a.dir, notes)
    res = {"output_dir": a.dir, "run": run_info(a.dir, notes), "classes": None, "kinetics": None,
           "efficiency": None, "partition": None, "along_deck": None, "residence": None}
    if flow is None or not flow["outflows"]:
        note(notes, "no flow.csv with outflows: classes, kinetics, efficiencies and the partition curve not given")
        nc = int(len(floats(opts["flow_size_classes"])) + 1) if "flow_size_classes" in opts else 1
        table, count, mass = class_table(nc, opts, a.classes, notes), np.zeros(nc), np.zeros(nc)
    else:
        if a.over is None:
            a.over = [k for k in flow["outflows"] if k not in a.under]
        table = class_table(flow["classes"], opts, a.classes, notes)
        count, mass, srcs = feeds(flow, table, radii, a, notes)
        for r, n, m, s in zip(table, count, mass, srcs):
            r.update({"feed_count": n, "feed_mass": m, "feed_source": s})
        if not any(k in flow["outflows"] for k in a.under):
            note(notes, "no undersize outflow %s in flow.csv: kinetics and efficiencies not given" % a.under)
        else:
            res["kinetics"], res["_series"] = kinetics(flow, table, count, mass, a, notes)
            res["efficiency"] = efficiency(flow, table, a, notes)
        res["partition"] = partition(flow, table, a, notes)
    res["classes"] = table
    res["along_deck"] = along_deck(os.path.join(a.dir, "flow_bins.csv"), table, mass, notes)
    res["residence"] = residence(os.path.join(a.dir, "residence.csv"), table, notes)
    res["inputs"] = {"aperture": a.aperture, "wire": a.wire, "cut": a.cut if a.cut is not None else a.aperture,
                     "basis": a.basis, "undersize_outflows": a.under, "oversize_outflows": a.over, "model": a.model}
    res["notes"] = notes
    return res


def clean(x):
    """JSON values: numpy numbers as Python's, NaN and infinities as null."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [clean(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    return int(x) if isinstance(x, np.integer) else x


def main(argv):
    a = parse_args(argv)
    res = analyse(a)
    jpath, ppath = a.json or os.path.join(a.dir, "screen.json"), a.png or os.path.join(a.dir, "screen.png")
    if not a.no_png:
        plot(ppath, res), print("screen.py: wrote " + ppath)
    res["kinetics_series"] = res.pop("_series", None)
    with open(jpath, "w") as f:
        json.dump(clean(res), f, indent=1, allow_nan=False)
        f.write("\n")
    print("screen.py: wrote " + jpath)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
