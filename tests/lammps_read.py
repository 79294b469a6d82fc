#!/usr/bin/python3
"""The parallel LAMMPS data-file reader (io/lammps_data.c) end to end:

1. the same file gives bitwise the same final state on 1, 2, 3 and 4 ranks
   (`hdem diff` and the bodies by id): spheres with velocities, and dumbbell
   molecules made bodies (insert_body) with their atoms' mean velocities;
2. peak memory per rank (summary.json's peak_memory_bytes, the largest rank)
   stays within 10 % of one rank's from 1 to 8 ranks (oversubscribed) at a
   fixed share of atoms per rank, where reading the whole file on every rank
   grows with the rank count (--share atoms per rank, 100,000 by default).
   Open MPI's shared-memory transport gives each process a segment (4 MiB by
   default) that any large exchange touches and ru_maxrss counts: a fixed
   cost of the transport on one node, whatever the share, so these runs use
   1 MiB segments (OMPI_MCA_btl_vader_segment_size, unless set).

Files from tools/gen_lammps_data.py."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import harness

check = harness.Checks()


def gen(tool, work, name, n, molecules):
    data, deck = os.path.join(work, name + ".data"), os.path.join(work, name + ".yaml")
    cmd = [sys.executable, tool, data, str(n), "--deck", deck] + (["--molecules"] if molecules else [])
    harness.run(cmd)
    return deck


def run(args, np_, deck, out, *extra):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", deck, "-output_dir", out] + list(extra)
    p = harness.run(cmd, expect=None, timeout=1200)
    if p.returncode != 0:
        print(p.stderr[-2000:])
        return None
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def bodies_same(a, b):
    import h5py
    import numpy as np
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        if ("bodies" in fa) != ("bodies" in fb):
            return False
        if "bodies" not in fa:
            return True
        ia, ib = np.argsort(fa["bodies/id"][()]), np.argsort(fb["bodies/id"][()])
        return all(np.array_equal(fa["bodies"][d][()][ia], fb["bodies"][d][()][ib])
                   for d in ("id", "template", "position", "orientation", "velocity", "angular_velocity"))


def bitwise(args, work):
    for name, n, mol in (("spheres", 3000, False), ("dumbbells", 3000, True)):
        deck = gen(args.tool, work, name, n, mol)
        ref = None
        for np_ in (1, 2, 3, 4):
            out = os.path.join(work, "%s_np%d" % (name, np_))
            s = run(args, np_, deck, out, "-steps", "50")
            if not check(s is not None and s["particles"] == n, "%s at %d ranks: runs, %d particles" % (name, np_, n)):
                continue
            if ref is None:
                ref = out
                continue
            p = subprocess.run([args.hdem, "diff", os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")],
                               capture_output=True, text=True)
            d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
            check(d.get("identical") and bodies_same(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")),
                  "%s: %d ranks bitwise as 1 (%s)" % (name, np_, d))


def memory(args, work):
    os.environ.setdefault("OMPI_MCA_btl_vader_segment_size", str(1 << 20))
    peak = {}
    for np_ in (1, 2, 4, 8):
        deck = gen(args.tool, work, "mem%d" % np_, args.share * np_, False)
        s = run(args, np_, deck, os.path.join(work, "mem_np%d" % np_))
        if not check(s is not None and len(s.get("peak_memory_bytes", [])) == np_,
                     "%d ranks x %d atoms: runs, summary.json has each rank's peak memory" % (np_, args.share)):
            continue
        harness.note_peak(peak, np_, s)
        os.remove(os.path.join(work, "mem%d.data" % np_))
    harness.peaks_flat(check, peak)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--tool", required=True, help="tools/gen_lammps_data.py")
    ap.add_argument("--share", type=int, default=100000, help="atoms per rank of the memory runs")
    ap.add_argument("--only", choices=("bitwise", "memory"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hdem_lmpread_") as work:
        if args.only != "memory":
            bitwise(args, work)
        if args.only != "bitwise":
            memory(args, work)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
