#!/usr/bin/python3
"""The random fill (insert_mode random) in blocks, end to end:

1. a fill of several blocks (40,000 polydisperse spheres, four blocks along x)
   is the same state on 1, 2, 3 and 4 ranks (`hdem diff` of final.h5 after 20
   steps), with no overlap at step 0 (thermo.csv's contacts and largest
   overlap) and ids 1 .. N;
2. bodies of templates with different sphere counts (two- and three-sphere
   clumps) over several blocks: the same bodies and sphere ids on 1 and 3 ranks;
3. peak memory per rank (summary.json's peak_memory_bytes, the largest rank)
   stays within 10 % of one rank's from 1 to 8 ranks (oversubscribed) at a fixed
   share of particles per rank: each rank fills only the blocks that meet its
   subdomain (Open MPI's shared-memory segments set to 1 MiB, as in lammps_read);
4. a region too full for its particles is refused before any step, naming the
   particle, its block and the key, alike on 1 and 2 ranks, writing nothing."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import harness

check = harness.Checks()

DECK = """domain:
  lo: [0, 0, 0]
  hi: [%(X)g, %(Y)g, 0.05]
  periodic: [true, true, false]
  walls: true
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
particle:
  density: 2500
contact:
  law: hertz
  e: 0.5
  mu: 0.5
insert:
  mode: random
  count: %(N)d
  seed: 7
  radius:
    distribution: uniform
    min: 0.8e-3
    max: 1.2e-3
  velocity_random: 0.2
%(BODY)s
"""

CLUMPS = """  body: [clump0, clump1]
clump0:
  spheres: [-0.5e-3, 0, 0, 0.8e-3,   0.5e-3, 0, 0, 0.8e-3]
clump1:
  spheres: [-0.6e-3, 0, 0, 0.6e-3,   0, 0, 0, 0.6e-3,   0.6e-3, 0, 0, 0.6e-3]
"""


def deck(work, name, X, Y, N, body=""):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(DECK % {"X": X, "Y": Y, "N": N, "BODY": body})
    return path


def run(args, np_, path, out, *extra, expect=0):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", path, "-output_dir", out] + list(extra)
    return harness.run(cmd, expect=expect, timeout=1200)


def summary(out):
    p = os.path.join(out, "summary.json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def first_row(out):
    with open(os.path.join(out, "thermo.csv")) as f:
        head, row = f.readline().strip().split(","), f.readline().strip().split(",")
    return dict(zip(head, row))


def same(args, a, b):
    p = subprocess.run([args.hdem, "diff", os.path.join(a, "final.h5"), os.path.join(b, "final.h5")],
                       capture_output=True, text=True)
    d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
    return d.get("identical"), d


def ids(out):
    import h5py
    import numpy as np
    with h5py.File(os.path.join(out, "final.h5"), "r") as f:
        return np.sort(f["particles/id"][()])


def bitwise(args, work):
    n = 40000
    path = deck(work, "spheres", 0.336, 0.084, n)
    ref = None
    for np_ in (1, 2, 3, 4):
        out = os.path.join(work, "spheres_np%d" % np_)
        p = run(args, np_, path, out, "-steps", "20", expect=None)
        s = summary(out)
        if not check(p.returncode == 0 and s is not None and s["particles"] == n,
                     "%d spheres at %d ranks: runs (%s)" % (n, np_, p.stderr[-500:])):
            continue
        if ref is None:
            import numpy as np
            row = first_row(out)
            check(int(row["contacts"]) == 0 and float(row["max_overlap_ratio"]) == 0.0,
                  "no overlap at step 0 (contacts %s, largest overlap %s)" % (row["contacts"], row["max_overlap_ratio"]))
            check(np.array_equal(ids(out), np.arange(1, n + 1)), "ids are 1 .. %d" % n)
            ref = out
            continue
        ok, d = same(args, ref, out)
        check(ok, "%d ranks bitwise as 1 (%s)" % (np_, d))
    path = deck(work, "clumps", 0.336, 0.084, 20000, CLUMPS)
    outs = []
    for np_ in (1, 3):
        out = os.path.join(work, "clumps_np%d" % np_)
        p = run(args, np_, path, out, "-steps", "5", expect=None)
        s = summary(out)
        if check(p.returncode == 0 and s is not None, "20,000 two- and three-sphere bodies at %d ranks: runs (%s)"
                 % (np_, p.stderr[-500:])):
            outs.append(out)
    if len(outs) == 2:
        ok, d = same(args, outs[0], outs[1])
        check(ok, "bodies: 3 ranks bitwise as 1 (%s)" % d)
        i = ids(outs[0])
        check(len(i) > 40000 and i[0] == 1 and i[-1] == len(i), "sphere ids 1 .. %d without gaps" % len(i))


def memory(args, work):
    os.environ.setdefault("OMPI_MCA_btl_vader_segment_size", str(1 << 20))
    peak = {}
    for np_ in (1, 2, 4, 8):
        path = deck(work, "mem%d" % np_, 0.168 * np_, 0.168, args.share * np_)
        out = os.path.join(work, "mem_np%d" % np_)
        run(args, np_, path, out, "-steps", "2", "-balance_mode", "none", expect=None)
        s = summary(out)
        if not check(s is not None and len(s.get("peak_memory_bytes", [])) == np_,
                     "%d ranks x %d particles: runs, summary.json has each rank's peak memory" % (np_, args.share)):
            continue
        harness.note_peak(peak, np_, s)
    harness.peaks_flat(check, peak)


def too_full(args, work):
    path = deck(work, "full", 0.336, 0.084, 120000)
    msgs = []
    for np_ in (1, 2):
        out = os.path.join(work, "full_np%d" % np_)
        p = run(args, np_, path, out, "-steps", "1", expect=None)
        err = [ln for ln in p.stderr.splitlines() if "no room for particle" in ln]
        check(p.returncode != 0 and len(err) >= 1 and "-insert_mode random" in err[0] and "block" in err[0]
              and not os.path.exists(os.path.join(out, "final.h5")),
              "too full at %d rank(s): refused before any step, naming the particle and its block (%s)"
              % (np_, (err or [p.stderr[-300:]])[0]))
        msgs.append(err[0] if err else None)
    check(msgs[0] is not None and msgs[0] == msgs[1], "the same message on 1 and 2 ranks")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--share", type=int, default=50000, help="particles per rank of the memory runs")
    ap.add_argument("--only", choices=("bitwise", "memory", "errors"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hdem_random_") as work:
        if args.only in (None, "bitwise"):
            bitwise(args, work)
        if args.only in (None, "errors"):
            too_full(args, work)
        if args.only in (None, "memory"):
            memory(args, work)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
