#!/usr/bin/python3
"""tools/screen.py on fixture output folders with known answers (tests/data/screen/).

  batch/       flow.csv of one undersize outflow whose class masses pass as
               M_i (1 - exp(-k_i t)) with k = 2, 1, 0.25, 0 1/s; a final.h5
               holding the run's options (size classes, discrete sizes) and the
               spheres left; summary.json, thermo.csv.  First-order k within
               1e-6, R^2 = 1, Gaudin's p against its closed form, the feed counts
               of removed + left, the class diameters from the options.
  partition/   undersize and oversize per class split by Whiten's curve with
               d50 = 3.4 mm, alpha = 5; flow_bins.csv and residence.csv with
               hand-made rows at two times.  d50 and alpha recovered, kappa
               against its closed form, the passage along the deck and the
               residence rows of the last time.
  split/       flow.csv alone with a hand-computed split: recoveries and
               Newton's efficiency at two cuts, by mass and by count; the
               files it lacks named, the rest given.

The fixtures are written by this script (--write DIR) and the committed ones
must equal what it writes, so the constants here are their known answers.

  tests/screen_tool.py [--tool tools/screen.py] [--data tests/data/screen] [--write DIR]"""
import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import harness

KS = [2.0, 1.0, 0.25, 0.0]           # batch: first-order rates [1/s]
MASS = [1.0, 2.0, 3.0, 4.0]          # batch: feed mass per class [kg]
COUNT = [400, 300, 200, 100]         # batch: feed count per class
RADII = [0.75e-3, 1.25e-3, 1.75e-3, 2.25e-3]
EDGES = [2e-3, 3e-3, 4e-3]
APERTURE, WIRE = 4e-3, 1e-3
D50, ALPHA = 3.4e-3, 5.0             # partition: Whiten's curve
PDIAM = [1.0e-3, 2.0e-3, 2.8e-3, 3.2e-3, 3.6e-3, 4.0e-3, 4.6e-3, 6.0e-3]
SPLIT_U = [3.0, 2.0, 0.5, 0.25]      # split: undersize and oversize mass per class
SPLIT_O = [1.0, 2.0, 4.5, 5.75]
SPLIT_UN = [30, 20, 1, 1]            # and counts
SPLIT_ON = [10, 20, 9, 23]
SPLIT_D = [1e-3, 2e-3, 5e-3, 6e-3]


def whiten_T(d):
    x = d / D50
    return (math.exp(ALPHA * x) - 1.0) / (math.exp(ALPHA * x) + math.exp(ALPHA) - 2.0)


def write_flow(path, times, outflows):
    """outflows: {N: (counts[rows][classes], masses[rows][classes])}."""
    nc = len(next(iter(outflows.values()))[0][0])
    head = ["step", "time"]
    for k in sorted(outflows):
        head += ["outflow%d_removed" % k, "outflow%d_mass" % k]
        for c in range(nc):
            head += ["outflow%d_removed_d%d" % (k, c), "outflow%d_mass_d%d" % (k, c)]
    lines = [",".join(head)]
    for i, t in enumerate(times):
        row = ["%d" % (1000 * i), "%.10e" % t]
        for k in sorted(outflows):
            n, m = outflows[k][0][i], outflows[k][1][i]
            row += ["%d" % sum(n), "%.17g" % math.fsum(m)]
            for c in range(nc):
                row += ["%d" % n[c], "%.17g" % m[c]]
        lines.append(",".join(row))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_batch(d):
    times = [0.05 * i for i in range(61)]
    n = [[round(COUNT[c] * -math.expm1(-KS[c] * t)) for c in range(4)] for t in times]
    m = [[MASS[c] * -math.expm1(-KS[c] * t) for c in range(4)] for t in times]
    write_flow(os.path.join(d, "flow.csv"), times, {0: (n, m)})
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump({"deck": "batch.yaml", "status": "completed", "simulated_time": 3.0, "particles": 0,
                   "inserted": 0, "removed": sum(n[-1])}, f, indent=1)
    with open(os.path.join(d, "thermo.csv"), "w") as f:
        f.write("step,time,bridges,liquid_total\n0,0,0,0\n60000,3,7,1.5e-9\n")
    import h5py
    left = [r for c in range(4) for r in [RADII[c]] * (COUNT[c] - n[-1][c])]
    opts = ("-end_time 3 -flow_size_classes %s -insert_count 1000 -insert_radius_distribution discrete "
            "-insert_radius_values %s -insert_radius_weights 4,3,2,1 -output_dir out"
            % (",".join("%g" % e for e in EDGES), ",".join("%g" % r for r in RADII)))
    with h5py.File(os.path.join(d, "final.h5"), "w", track_order=False) as f:
        f.attrs["options"] = opts.encode()
        f.create_dataset("/particles/radius", data=left, dtype="f8", track_times=False)


def write_partition(d):
    T = [whiten_T(x) for x in PDIAM]
    u = [[0] * 8, [round(1000 * (1 - t)) for t in T]]
    o = [[0] * 8, [round(1000 * t) for t in T]]
    write_flow(os.path.join(d, "flow.csv"), [0.0, 2.0],
               {0: (u, [[0.0] * 8, [1.0 - t for t in T]]), 1: (o, [[0.0] * 8, T])})
    lines = ["time,outflow,class,axis,bin,lo,hi,count,mass"]
    for t, scale in ((1.0, 0.5), (2.0, 1.0)):
        for c in range(8):
            for b in range(4):
                mass = scale * (1 - T[c]) * (4 - b) / 10.0
                lines.append("%g,0,%d,x,%d,%g,%g,%d,%.17g" % (t, c, b, 0.05 * b, 0.05 * (b + 1), 10 * (4 - b), mass))
    with open(os.path.join(d, "flow_bins.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = ["time,outflow,class,count,mean,q10,q50,q90"]
    for t in (1.0, 2.0):
        for k in (0, 1):
            for c in range(8):
                lines.append("%g,%d,%d,%d,%g,%g,%g,%g" % (t, k, c, 10 * t + c, t * (1 + k + 0.1 * c), 0.4 * t,
                                                          0.9 * t, 2.0 * t + c))
    with open(os.path.join(d, "residence.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def write_split(d):
    z = [[0] * 4]
    write_flow(os.path.join(d, "flow.csv"), [0.0, 1.0],
               {0: (z + [SPLIT_UN], [[0.0] * 4, SPLIT_U]), 1: (z + [SPLIT_ON], [[0.0] * 4, SPLIT_O])})


def write_all(root):
    for name, fn in (("batch", write_batch), ("partition", write_partition), ("split", write_split)):
        os.makedirs(os.path.join(root, name), exist_ok=True)
        fn(os.path.join(root, name))


def same_fixtures(check, data, fresh):
    for name in ("batch", "partition", "split"):
        for f in sorted(os.listdir(os.path.join(fresh, name))):
            a, b = os.path.join(data, name, f), os.path.join(fresh, name, f)
            if f.endswith(".h5"):
                import h5py
                with h5py.File(a, "r") as x, h5py.File(b, "r") as y:
                    ok = x.attrs["options"] == y.attrs["options"] and \
                        list(x["/particles/radius"][()]) == list(y["/particles/radius"][()])
            else:
                ok = os.path.isfile(a) and open(a, "rb").read() == open(b, "rb").read()
            check(ok, "fixture %s/%s is what this script writes" % (name, f))


def run_tool(tool, src, args):
    """Copy a fixture to a temporary folder, run screen.py on it, return (json, stderr)."""
    tmp = tempfile.mkdtemp(prefix="screen_tool_")
    out = os.path.join(tmp, "run")
    shutil.copytree(src, out)
    p = harness.run([sys.executable, tool, out] + args)
    with open(os.path.join(out, "screen.json")) as f:
        res = json.load(f)
    png = os.path.join(out, "screen.png")
    res["_png"] = os.path.isfile(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    shutil.rmtree(tmp)
    return res, p.stderr


def near(x, y, tol):
    return x is not None and abs(x - y) <= tol * max(1.0, abs(y))


def check_batch(check, tool, data):
    res, _ = run_tool(tool, os.path.join(data, "batch"), ["--aperture", "4e-3", "--wire", "1e-3",
                                                           "--feed-mass", ",".join(map(str, MASS))])
    check(res["_png"], "batch: screen.png is a PNG")
    kin = res["kinetics"]["classes"]
    for c in range(4):
        k, r2 = kin[c]["k"], kin[c]["r2"]
        if KS[c] > 0:
            check(near(k, KS[c], 1e-6) and r2 is not None and abs(r2 - 1) < 1e-10,
                  "batch: class %d k = %s (exact %g), R^2 = %s" % (c, k, KS[c], r2))
            check(near(kin[c]["R0"], 1.0, 1e-9), "batch: class %d R0 = %s (1)" % (c, kin[c]["R0"]))
        else:
            check(k == 0 and kin[c]["R0"] == 1 and r2 is None, "batch: class %d never passes: k = %s" % (c, k))
        d = 2 * RADII[c]
        p = ((APERTURE - d) / (APERTURE + WIRE)) ** 2 if d < APERTURE else 0.0
        check(near(kin[c]["gaudin_p"], p, 1e-12), "batch: class %d Gaudin p = %s (%g)" % (c, kin[c]["gaudin_p"], p))
    check(near(kin[0]["k_over_p"], KS[0] / 0.25, 1e-6), "batch: k/p of class 0 = %s (8)" % kin[0]["k_over_p"])
    check(res["kinetics"]["t0"] == 0.0, "batch: fit from t0 = %s (0)" % res["kinetics"]["t0"])
    cl = res["classes"]
    check([r["diameter"] for r in cl] == [2 * r for r in RADII],
          "batch: class diameters %s from the options' sizes" % [r["diameter"] for r in cl])
    check([r["lo"] for r in cl] == [None] + EDGES and [r["hi"] for r in cl] == EDGES + [None], "batch: class edges")
    check([r["feed_count"] for r in cl] == COUNT, "batch: feed counts removed + left = %s (%s)"
          % ([r["feed_count"] for r in cl], COUNT))
    eff = res["efficiency"]["mass"]
    under = sum(MASS[c] * -math.expm1(-KS[c] * 3.0) for c in range(3))
    check(eff["oversize_recovery"] is None and near(eff["undersize_fines"], under, 1e-12),
          "batch: no oversize outflow, undersize fines %s (%g)" % (eff["undersize_fines"], under))
    check(res["run"].get("thermo_bridges") == 7 and res["run"].get("status") == "completed",
          "batch: summary.json and thermo.csv read")
    res, _ = run_tool(tool, os.path.join(data, "batch"), ["--basis", "count", "--no-png"])
    kin = res["kinetics"]["classes"]
    check(all(near(kin[c]["k"], KS[c], 2e-2) for c in range(3)),
          "batch: by count k = %s within 2 %% (counts rounded)" % [r["k"] for r in kin])
    check(res["efficiency"] is None and any("--aperture" in n for n in res["notes"]),
          "batch: without --aperture or --cut no efficiency, and said")


def check_partition(check, tool, data):
    res, err = run_tool(tool, os.path.join(data, "partition"), ["--classes", ",".join("%g" % d for d in PDIAM)])
    part = res["partition"]
    check(all(near(t, whiten_T(d), 1e-15) for t, d in zip(part["T"], PDIAM)), "partition: T(d) per class")
    w = part.get("whiten", {})
    check(near(w.get("d50"), D50, 1e-7) and near(w.get("alpha"), ALPHA, 1e-6),
          "partition: Whiten d50 = %s (%g), alpha = %s (%g)" % (w.get("d50"), D50, w.get("alpha"), ALPHA))
    q = lambda p: math.log((1 + p * (math.exp(ALPHA) - 2)) / (1 - p)) / ALPHA * D50
    check(near(part.get("kappa"), q(0.25) / q(0.75), 1e-6) and near(part.get("d25"), q(0.25), 1e-7),
          "partition: kappa = %s (%g), d25 = %s" % (part.get("kappa"), q(0.25) / q(0.75), part.get("d25")))
    check(abs(whiten_T(part["d25"]) - 0.25) < 1e-6 and abs(whiten_T(part["d75"]) - 0.75) < 1e-6,
          "partition: T(d25) = 0.25 and T(d75) = 0.75")
    check(part["plitt"]["rss"] > w["rss"], "partition: Plitt fits Whiten's curve worse than Whiten")
    eff = res["efficiency"]
    check(eff is None, "partition: no --aperture, no --cut: no efficiencies")
    deck = res["along_deck"]
    s = [x for x in deck["series"] if x["class"] == 2][0]
    T2 = whiten_T(PDIAM[2])
    cum = [(1 - T2) * sum(4 - j for j in range(b + 1)) / 10.0 for b in range(4)]
    check(deck["time"] == 2.0 and deck["axis"] == "x" and len(deck["series"]) == 8,
          "along deck: the last time's 8 series along x")
    check(all(near(x, y, 1e-12) for x, y in zip(s["cumulative_fraction"], cum)) and s["lo"] == [0, 0.05, 0.1, 0.15],
          "along deck: class 2 cumulative fraction %s (%s)" % (s["cumulative_fraction"], cum))
    rt = res["residence"]
    r = [x for x in rt if x["outflow"] == 1 and x["class"] == 3][0]
    check(len(rt) == 16 and r["time"] == 2.0 and near(r["mean"], 2.0 * 2.3, 1e-12) and r["q90"] == 7.0
          and r["count"] == 23, "residence: the last time's 16 rows, outflow 1 class 3 %s" % r)
    res, _ = run_tool(tool, os.path.join(data, "partition"),
                      ["--classes", ",".join("%g" % d for d in PDIAM), "--model", "plitt", "--no-png"])
    p = res["partition"]
    check(p["d50"] == p["plitt"]["d50"] and near(p["kappa"], (math.log(4 / 3) / math.log(4)) ** (1 / p["plitt"]["m"]),
                                                    1e-12), "partition: --model plitt gives Plitt's d50 and kappa")


def check_plitt(check, tool):
    """Plitt's curve through the module: data built from it give back d50 and m."""
    spec = importlib.util.spec_from_file_location("screen", tool)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    d = [1e-3 * x for x in (1.0, 1.8, 2.2, 2.6, 3.0, 3.6, 5.0)]
    T = [1.0 - math.exp(-math.log(2.0) * (x / 2.5e-3) ** 3.2) for x in d]
    (d50, m), rss = mod.levenberg(mod.plitt, [2.0e-3, 2.0], mod.np.array(d), mod.np.array(T))
    check(near(d50, 2.5e-3, 1e-7) and near(m, 3.2, 1e-6) and rss < 1e-20,
          "Plitt's curve d50 = 2.5 mm, m = 3.2 recovered: %s, %s" % (d50, m))
    check(near(mod.quantile_size("plitt", 2.5e-3, 3.2, 0.25), 2.5e-3 * (math.log(4 / 3) / math.log(2)) ** (1 / 3.2),
               1e-12), "Plitt's d25 against its closed form")


def check_steep(check, tool):
    """Whiten's curve where it is steep (alpha 800: e^alpha overflows a double) stays finite and exact."""
    spec = importlib.util.spec_from_file_location("screen", tool)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    d = mod.np.array([2.0e-3, 2.49e-3, 2.5e-3, 2.51e-3, 3.0e-3])
    T = mod.whiten(d, 2.5e-3, 800.0)
    x = d / 2.5e-3
    ref = [math.exp(800.0 * (xi - max(xi, 1.0))) - math.exp(-800.0 * max(xi, 1.0)) for xi in x]
    ref = [r / (math.exp(800.0 * (xi - max(xi, 1.0))) + math.exp(800.0 * (1.0 - max(xi, 1.0)))
                - 2.0 * math.exp(-800.0 * max(xi, 1.0))) for r, xi in zip(ref, x)]
    check(all(mod.np.isfinite(T)) and near(T[2], 1.0 / (2.0 - 2.0 * math.exp(-800.0)), 1e-15) and T[0] < 1e-60
          and near(T[4], 1.0, 1e-15) and all(near(a, b, 1e-12) for a, b in zip(T, ref)),
          "Whiten's curve at alpha 800 is finite: T(d50) = 1/2, 0 below, 1 above (%s)" % list(T))
    (d50, al), rss = mod.levenberg(mod.whiten, [2.4e-3, 50.0], d, T)
    check(all(mod.np.isfinite([d50, al, rss])), "a fit to a step stays finite: d50 %s, alpha %s" % (d50, al))
    d = 2.5e-3 * mod.np.array([0.96, 0.98, 0.99, 1.0, 1.01, 1.02, 1.04])
    (d50, al), rss = mod.levenberg(mod.whiten, [2.45e-3, 30.0], d, mod.whiten(d, 2.5e-3, 100.0))
    check(near(d50, 2.5e-3, 1e-9) and near(al, 100.0, 1e-6), "a steep curve's d50 2.5 mm and alpha 100 recovered: "
          "%s, %s" % (d50, al))


def check_split(check, tool, data):
    res, err = run_tool(tool, os.path.join(data, "split"), ["--classes", ",".join("%g" % d for d in SPLIT_D),
                                                            "--aperture", "4e-3"])
    m, n = res["efficiency"]["mass"], res["efficiency"]["count"]
    check(near(m["undersize_recovery"], 5 / 8, 1e-15) and near(m["oversize_recovery"], 10.25 / 11, 1e-15),
          "split: recoveries by mass %s, %s (5/8, 10.25/11)" % (m["undersize_recovery"], m["oversize_recovery"]))
    check(near(m["newton"], 5 / 8 + 10.25 / 11 - 1, 1e-15), "split: Newton %s (%g)" % (m["newton"],
                                                                                       5 / 8 + 10.25 / 11 - 1))
    check(near(m["fines_in_feed"], 8 / 19, 1e-15), "split: fines in feed %s (8/19)" % m["fines_in_feed"])
    check(near(n["newton"], 50 / 80 + 32 / 34 - 1, 1e-15), "split: Newton by count %s (%g)"
          % (n["newton"], 50 / 80 + 32 / 34 - 1))
    for f in ("flow_bins.csv", "residence.csv", "summary.json"):
        check(any(f in x for x in res["notes"]) and f in err, "split: the missing %s is named" % f)
    check(res["along_deck"] is None and res["residence"] is None and res["_png"], "split: the rest given, PNG too")
    check(res["partition"]["T"] == [o / (u + o) for u, o in zip(SPLIT_U, SPLIT_O)] and "d50" in res["partition"],
          "split: partition numbers %s" % res["partition"]["T"])
    res, _ = run_tool(tool, os.path.join(data, "split"), ["--classes", ",".join("%g" % d for d in SPLIT_D),
                                                          "--aperture", "4e-3", "--cut", "1.5e-3", "--no-png"])
    m = res["efficiency"]["mass"]
    check(res["efficiency"]["cut"] == 1.5e-3 and near(m["newton"], 3 / 4 + 12.25 / 15 - 1, 1e-15),
          "split: --cut 1.5 mm: Newton %s (%g)" % (m["newton"], 3 / 4 + 12.25 / 15 - 1))
    p = subprocess.run([sys.executable, tool, os.path.join(data, "split"), "--classes", "1e-3", "--no-png",
                        "--json", os.devnull], capture_output=True, text=True)
    check(p.returncode != 0 and "--classes" in p.stderr, "split: --classes of the wrong length refused")
    p = subprocess.run([sys.executable, tool, os.path.join(data, "split"), "--aperture", "-1", "--no-png",
                        "--json", os.devnull], capture_output=True, text=True)
    check(p.returncode == 2 and "--aperture" in p.stderr, "split: a negative aperture refused naming the option")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=harness.here("..", "tools", "screen.py"))
    ap.add_argument("--data", default=harness.here("data", "screen"))
    ap.add_argument("--write", help="write the fixtures to this folder and stop")
    a = ap.parse_args()
    if a.write:
        write_all(a.write)
        return 0
    check = harness.Checks()
    fresh = tempfile.mkdtemp(prefix="screen_fixtures_")
    try:
        write_all(fresh)
        same_fixtures(check, a.data, fresh)
    finally:
        shutil.rmtree(fresh)
    check_batch(check, a.tool, a.data)
    check_partition(check, a.tool, a.data)
    check_split(check, a.tool, a.data)
    check_plitt(check, a.tool)
    check_steep(check, a.tool)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
