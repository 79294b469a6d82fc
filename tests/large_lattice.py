#!/usr/bin/python3
"""A large lattice fill set up on 2 ranks and stepped once, within the
set-up memory docs/deck/insert.md states (450 bytes a particle at most,
360 measured).

    large_lattice.py --hdem build/hdem --mpiexec mpiexec [--count N] [--keep DIR]

4,000,000 spheres (the count a 64-bit build takes up to 2^63; each rank
generates only the sites of its own slab): the run ends, summary.json counts
every particle once (particles and the ranks' owned particles), the peak
resident memory of each rank over its owned particles is within the bound,
and final.h5 holds the ids 1 .. N, each once, at positions inside the box.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

check = harness.Checks()
BYTES_MAX = 450
DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.4, 0.4, 0.1]
gravity: [0, 0, -9.81]
material: {E: 1.0e7, nu: 0.3}
contact: {law: hertz, e: 0.5}
insert: {mode: lattice, count: %d, radius: 0.0004, spacing: 1.05}
steps: 1
snapshot: {frames: 0}
thermo_screen: false
progress_interval: 0
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--count", type=int, default=4000000)
    ap.add_argument("--keep")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="hdem_large_")
    os.makedirs(tmp, exist_ok=True)
    try:
        deck, out = os.path.join(tmp, "large.yaml"), os.path.join(tmp, "out")
        with open(deck, "w") as f:
            f.write(DECK % a.count)
        harness.run(harness.mpi(a.mpiexec, 2) + [a.hdem, "run", deck, "-output_dir", out], timeout=600)
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        owned, mem = s["owned_particles"], s["peak_memory_bytes"]
        check(s["particles"] == a.count and sum(owned) == a.count and len(owned) == 2,
              "%d particles, owned %s" % (s["particles"], owned))
        per = [m / max(o, 1) for m, o in zip(mem, owned)]
        check(max(per) <= BYTES_MAX, "peak memory per owned particle %s bytes, at most %d"
              % ([round(p) for p in per], BYTES_MAX))
        with h5py.File(os.path.join(out, "final.h5"), "r") as f:
            ids, x = f["particles/id"][()], f["particles/position"][()]
        ids = np.sort(ids)
        check(len(ids) == a.count and ids[0] == 1 and ids[-1] == a.count and np.all(np.diff(ids) == 1),
              "final.h5: ids 1 .. %d, each once" % a.count)
        inside = np.all((x >= 0) & (x <= np.array([0.4, 0.4, 0.1])))
        check(bool(inside), "final.h5: every position inside the box")
    except (RuntimeError, subprocess.TimeoutExpired, KeyError, OSError, ValueError) as err:
        check(False, "large lattice: %s" % err)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
