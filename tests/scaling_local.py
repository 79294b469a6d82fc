#!/usr/bin/python3
"""The scaling drivers without SLURM and the report on their runs.

  scaling_local.py --hdem build/hdem --root SOURCE_DIR

weak-scaling.sh --check-only: the box grown by R's prime factors dealt over the axes
(--grow 3d: 12 -> 3x2x2, 16 -> 4x2x2, 27 -> 3x3x3; --axes xy: 8 -> 4x2x1; --axis z:
4 -> 1x1x4), each deck holding P*R particles; bad --axes refused. --local runs of a
small bed (weak, grown in 3-D, at 1 and 4 ranks; strong at 1 and 2) and scaling-report
on them: phases that sum to the step's total, bytes per rank per step and memory per
rank equal to the summaries' own numbers, no bytes on one rank, the markdown's two
tables and the PNG."""
import argparse
import csv
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

BED = ["-domain_hi", "0.03,0.03,0.03", "-insert_region_hi", "0.03,0.03,0.03", "-insert_spacing", "1.05",
       "-snapshot_interval_steps", "0", "-checkpoint_interval_walltime", "0"]


def box(path):
    """The box's upper corner from hdem check's 'box [lo, hi] x ...' line."""
    with open(path) as f:
        for line in f:
            if line.startswith("box"):
                return [float(v) for v in re.findall(r"\[[^,]+, ([^\]]+)\]", line)]
    return None


def particles(path):
    with open(path) as f:
        m = re.search(r"^particles\s+(\d+)", f.read(), re.M)
    return int(m.group(1)) if m else None


def check_only(check, weak, deck, work):
    cases = [(["--grow", "3d"], 12, [3, 2, 2]), (["--grow", "3d"], 16, [4, 2, 2]), (["--axes", "xyz"], 27, [3, 3, 3]),
             (["--axes", "xy"], 8, [4, 2, 1]), (["--axis", "z"], 4, [1, 1, 4])]
    for opts, r, scale in cases:
        out = os.path.join(work, "co_%s_%d" % (opts[1], r))
        harness.run([weak, "--check-only", "--force", "--out", out] + opts + [deck, "100", str(r)] + BED)
        hi = box(os.path.join(out, "np_%d" % r, "check.txt"))
        want = [0.03 * s for s in scale]
        check(hi is not None and all(abs(a - b) < 1e-12 for a, b in zip(hi, want)),
              "%s %s at %d ranks: box %s, want %s" % (opts[0], opts[1], r, hi, want))
        n = particles(os.path.join(out, "np_%d" % r, "check.txt"))
        check(n == 100 * r, "%d ranks hold %s particles, want %d" % (r, n, 100 * r))
        check(not os.path.exists(os.path.join(out, "np_%d" % r, "summary.json")), "--check-only ran nothing")
    for bad in ("xx", "w", "xyzx"):
        p = harness.run([weak, "--check-only", "--out", os.path.join(work, "bad"), "--axes", bad, deck, "100", "2"],
                        expect=None)
        check(p.returncode == 2 and "--axes" in p.stderr and bad in p.stderr,
              "--axes %s refused (exit %d): %s" % (bad, p.returncode, p.stderr.strip()[-120:]))


def check_report(check, report, work):
    png = os.path.join(work, "scaling.png")
    p = harness.run([report, os.path.join(work, "weak"), os.path.join(work, "strong"), "-o", png])
    check("per step (ms" in p.stdout, "the phase table is printed")
    with open(png, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "scaling.png is a PNG")
    with open(os.path.join(work, "scaling.md")) as f:
        md = [line for line in f if line.startswith("|")]
    check(len(md) == 2 * (2 + 4), "scaling.md: two tables of 4 rows (%d table lines)" % len(md))
    with open(os.path.join(work, "scaling.csv")) as f:
        rows = list(csv.DictReader(f))
    check(sorted((r["series"], int(r["ranks"])) for r in rows) ==
          [("strong", 1), ("strong", 2), ("weak", 1), ("weak", 4)], "rows: weak 1, 4 and strong 1, 2")
    phases = ["compute", "halo", "rebuild", "balance", "reduction", "output", "other"]
    for r in rows:
        with open(os.path.join(r["dir"], "summary.json")) as f:
            s = json.load(f)
        par, tag = s["parallel"], "%s np %s" % (r["series"], r["ranks"])
        steps = par["steps"]
        total = sum(float(r[p + "_ms"]) for p in phases)
        check(abs(total - float(r["step_ms"])) <= 1e-9 * max(1.0, total),
              "%s: phases sum to the step (%.6g ms)" % (tag, total))
        force, integ = par["time"]["force"]["mean"], par["time"]["integrate"]["mean"]
        check(abs(float(r["compute_ms"]) - 1e3 * (force + integ) / steps) < 1e-9,
              "%s: compute = force + integrate" % tag)
        halo = par["per_rank_per_step"]["halo_bytes_sent"]
        check(float(r["halo_bytes_mean"]) == float(halo["mean"]) and float(r["halo_bytes_max"]) == float(halo["max"]),
              "%s: halo bytes per rank per step %s as in summary.json" % (tag, r["halo_bytes_mean"]))
        check((float(r["sent_bytes_max"]) == 0) == (int(r["ranks"]) == 1),
              "%s: bytes sent only on more than one rank" % tag)
        mem = s["peak_memory_bytes"]
        check(abs(float(r["memory_max_mb"]) - max(mem) / 2**20) < 1e-9 and
              abs(float(r["memory_mean_mb"]) - sum(mem) / len(mem) / 2**20) < 1e-9 and max(mem) > 2**20,
              "%s: memory per rank max %.1f MB, mean as in summary.json" % (tag, float(r["memory_max_mb"])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    check = harness.Checks()
    weak = os.path.join(a.root, "slurm", "weak-scaling.sh")
    strong = os.path.join(a.root, "slurm", "strong-scaling.sh")
    deck = os.path.join(a.root, "inputs", "settle.yaml")
    os.environ["HDEM"] = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_scaling_")
    try:
        check_only(check, weak, deck, work)
        steps = BED + ["-steps", "30"]
        harness.run([weak, "--local", "--grow", "3d", "--out", os.path.join(work, "weak"), deck, "300", "1,4"] + steps)
        hi = box(os.path.join(work, "weak", "np_4", "check.txt"))
        check(hi == [0.06, 0.06, 0.03], "weak --local: the 4-rank box 2 x 2 x 1: %s" % hi)
        harness.run([strong, "--local", "--out", os.path.join(work, "strong"), deck, "1,2",
                     "-insert_count", "400"] + steps)
        for d, n, r in (("weak", 300, 1), ("weak", 1200, 4), ("strong", 400, 1), ("strong", 400, 2)):
            with open(os.path.join(work, d, "np_%d" % r, "summary.json")) as f:
                s = json.load(f)
            check(s["particles"] == n and s["ranks"] == r and s["status"] == "completed",
                  "%s np %d: %d particles, completed" % (d, r, n))
        check_report(check, os.path.join(a.root, "slurm", "scaling-report"), work)
    except RuntimeError as e:
        check(False, str(e))
    finally:
        if not check.failures:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("kept", work)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
