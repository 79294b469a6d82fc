#!/usr/bin/python3
"""A run's final.h5 as the initial state of another (insert_mode hdf5,
src/insert/insert_h5.c) end to end:

1. a deck run 200 steps on 2 ranks; its final.h5 the initial state of a
   second deck (`insert: {mode: hdf5, file: ...}`): read on 1 and 3 ranks
   and written at step 0, its ids, types, radii, positions, velocities and
   angular velocities are the file's bit for bit (by id);
2. the second deck run 200 steps on 1, 2, 3 and 4 ranks: final.h5 bitwise
   the same (`hdem diff`);
3. bad files refused before any step, once, naming the file (and the
   dataset, row and id where there is one): a missing dataset, a repeated
   id, a position outside the domain, a velocity not finite, a type below
   0, data changed behind its checksum, multi-sphere bodies, a checkpoint,
   a file that is not HDF5;
4. a wet run's state (tests/liquid.py's wet deck): the particles' liquid
   is the file's, so the new run's liquid_total at step 0 (particles and
   the bridges they form) is the file's sum, not the materials' fresh fill;
5. peak memory per rank (summary.json's peak_memory_bytes, the largest
   rank) within 10 % of one rank's on 1, 2 and 4 ranks (oversubscribed) at
   a fixed share of particles per rank (--share, 50,000), where every rank
   reading the whole file would grow with the rank count.  Open MPI's
   shared-memory segments are 1 MiB here, as in tests/lammps_read.py.
"""
import argparse
import csv
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
STATE = ("id", "type", "radius", "position", "velocity", "angular_velocity")
# tests/data/bitwise.yaml's physics, its particles from a state file
DECK_H5 = """domain:
  lo: [0, 0, 0]
  hi: [0.012, 0.009, 0.05]
  periodic: [true, true, false]
gravity: [0, 0, -9.81]
material: {E: 1.0e7, nu: 0.3}
contact: {law: hertz, e: 0.5, mu: 0.5}
insert:
  mode: hdf5
  file: %s
neighbor: {skin: 0.2e-3}
steps: 200
thermo_interval: 100
"""
DECK_MEM = """domain:
  lo: [0, 0, 0]
  hi: [%r, %r, %r]
material: {E: 1.0e7, nu: 0.3}
contact: {law: hertz, e: 0.5}
insert: {mode: hdf5, file: mem.h5}
steps: 1
snapshot: {frames: 0}
thermo_screen: false
progress_interval: 0
"""


def run(args, np_, deck, out, *extra):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", deck, "-output_dir", out] + list(extra)
    return harness.run(cmd, expect=None, timeout=600)


def by_id(path):
    with h5py.File(path, "r") as f:
        o = np.argsort(f["particles/id"][()], kind="stable")
        return {d: f["particles"][d][()][o] for d in STATE}


def same_state(a, b):
    return all(np.array_equal(a[d], b[d]) for d in STATE)


def continued(args, work):
    first = os.path.join(work, "first")
    p = run(args, 2, args.deck, first, "-steps", "200", "-checkpoint_interval_steps", "100")
    if not check(p.returncode == 0, "the first deck runs 200 steps on 2 ranks"):
        print(p.stderr[-2000:])
        return None
    src = os.path.join(work, "state.h5")
    shutil.copy(os.path.join(first, "final.h5"), src)
    deck = os.path.join(work, "second.yaml")
    with open(deck, "w") as f:
        f.write(DECK_H5 % "state.h5")  # relative: to the deck's folder
    want = by_id(src)
    for np_ in (1, 3):
        out = os.path.join(work, "zero_np%d" % np_)
        p = run(args, np_, deck, out, "-steps", "0")
        ok = p.returncode == 0 and same_state(want, by_id(os.path.join(out, "final.h5")))
        check(ok, "read on %d rank(s), written at step 0: ids, types, radii, positions, velocities, "
              "angular velocities are the file's bit for bit (%d particles)" % (np_, len(want["id"])))
    ref = None
    for np_ in (1, 2, 3, 4):
        out = os.path.join(work, "second_np%d" % np_)
        p = run(args, np_, deck, out)
        if not check(p.returncode == 0, "the second deck runs 200 steps on %d rank(s)" % np_):
            print(p.stderr[-2000:])
            continue
        if ref is None:
            ref = out
            continue
        d = subprocess.run([args.hdem, "diff", os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")],
                           capture_output=True, text=True)
        r = json.loads(d.stdout) if d.stdout.strip() else {"identical": False, "error": d.stderr}
        check(r.get("identical") and r.get("particles") == len(want["id"]),
              "%d ranks bitwise as 1 (%s)" % (np_, r))
    return src


def spoil(src, path, how):
    shutil.copy(src, path)
    with h5py.File(path, "r+") as f:
        how(f)


def set_row(name, row, value):
    def how(f):
        d = f["particles/" + name]
        d[row] = value
    return how


def bad_files(args, work, src):
    with h5py.File(src, "r") as f:
        ids = f["particles/id"][()]
    text = os.path.join(work, "notes.h5")
    with open(text, "w") as f:
        f.write("not an HDF5 file\n")
    cases = [  # name, how the file is spoiled (None: a file as it is), what the error must say
        ("missing", lambda f: f.__delitem__("particles/velocity"), ["/particles/velocity"]),
        ("duplicate", set_row("id", 7, ids[3]),
         ["/particles/id row 7", "id %d" % ids[3], "also at row 3", "unique"]),
        ("outside", set_row("position", 5, [0.006, 0.004, 0.5]),
         ["/particles/position row 5", "(id %d)" % ids[5], "outside the domain along z"]),
        ("nan", set_row("velocity", 9, [0.0, float("nan"), 0.0]),
         ["/particles/velocity row 9", "(id %d)" % ids[9], "finite"]),
        ("type", set_row("type", 11, -2), ["/particles/type row 11", "(id %d)" % ids[11], "negative"]),
        ("changed", set_row("radius", 4, 0.7e-3), ["/particles/radius", "checksum mismatch"]),
        ("bodies", lambda f: f.create_dataset("bodies/id", data=np.array([1], dtype=np.int64)),
         ["multi-sphere bodies", "checkpoint"]),
    ]
    for name, how, words in cases:
        path = os.path.join(work, "bad_%s.h5" % name)
        spoil(src, path, how)
        refused(args, work, name, path, [path] + words)
    ckpt = [os.path.join(r, n) for r, _, fs in os.walk(os.path.join(work, "first", "checkpoints"))
            for n in fs if n.endswith(".h5")]
    if check(len(ckpt) > 0, "the first run wrote a checkpoint"):
        refused(args, work, "checkpoint", ckpt[0], [ckpt[0], "is a checkpoint", "-restart"])
    refused(args, work, "not HDF5", text, [text, "HDF5"])


def refused(args, work, name, path, words):
    out = os.path.join(work, "refused_" + name.replace(" ", "_"))
    p = run(args, 2, os.path.join(work, "second.yaml"), out, "-insert_file", path)
    said = [w for w in words if w not in p.stderr]
    check(p.returncode != 0 and not said and p.stderr.count("hdem: error") == 1
          and not os.path.exists(os.path.join(out, "final.h5")),
          "%s: refused on 2 ranks before any step, said once, naming %s%s"
          % (name, ", ".join(words), "" if not said else " (missing %s in: %s)" % (said, p.stderr[-600:])))


def mem_state(path, n, pitch):
    """n spheres on a simple cubic lattice of pitch, 37 x 37 per layer along x, moving."""
    k = np.arange(n)
    x = np.stack([(k // (37 * 37) + 0.5) * pitch, (k % 37 + 0.5) * pitch, ((k // 37) % 37 + 0.5) * pitch], axis=1)
    rng = np.random.default_rng(5)
    with h5py.File(path, "w") as f:
        f["particles/id"] = (k + 1).astype(np.int64)
        f["particles/type"] = np.ones(n, dtype=np.int32)
        f["particles/radius"] = np.full(n, 0.4 * pitch)
        f["particles/position"] = x
        f["particles/velocity"] = rng.uniform(-0.01, 0.01, (n, 3))
        f["particles/angular_velocity"] = np.zeros((n, 3))
        f.attrs["particles"] = np.int64(n)
    return int(np.ceil(n / (37 * 37))) * pitch, 37 * pitch, 37 * pitch


WET = ["-material_liquid", "2e-11", "-contact_liquid_contact_angle", "15", "-contact_liquid_viscosity", "1e-3"]


def wet(args, work):
    first = os.path.join(work, "wet_first")
    p = run(args, 2, args.deck, first, "-steps", "200", *WET)
    if not check(p.returncode == 0, "a wet deck runs 200 steps on 2 ranks"):
        print(p.stderr[-2000:])
        return
    src = os.path.join(first, "final.h5")
    with h5py.File(src, "r") as f:
        liq = f["particles/liquid"][()]
    out = os.path.join(work, "wet_zero")
    p = run(args, 2, os.path.join(work, "second.yaml"), out, "-steps", "0", "-insert_file", src, *WET)
    if not check(p.returncode == 0, "its final.h5 read by the wet deck on 2 ranks"):
        print(p.stderr[-2000:])
        return
    with open(os.path.join(out, "thermo.csv")) as f:
        tot = float(next(r for r in csv.DictReader(f))["liquid_total"])
    fresh = 2e-11 * len(liq)
    check(sum(liq) < fresh * (1 - 1e-6) and abs(tot / sum(liq) - 1) < 1e-12,
          "liquid_total at step 0 %.17g is the file's particles' %.17g (bridges held some: a fresh fill is %.17g)"
          % (tot, sum(liq), fresh))


def memory(args, work):
    os.environ.setdefault("OMPI_MCA_btl_vader_segment_size", str(1 << 20))
    peak, pitch = {}, 1e-3
    for np_ in (1, 2, 4):
        d = os.path.join(work, "mem%d" % np_)
        os.makedirs(d)
        box = mem_state(os.path.join(d, "mem.h5"), args.share * np_, pitch)
        deck = os.path.join(d, "mem.yaml")
        with open(deck, "w") as f:
            f.write(DECK_MEM % box)
        p = run(args, np_, deck, os.path.join(d, "out"), "-domain_grid", "%d,1,1" % np_)
        s = {}
        if p.returncode == 0:
            with open(os.path.join(d, "out", "summary.json")) as f:
                s = json.load(f)
        else:
            print(p.stderr[-2000:])
        if not check(len(s.get("peak_memory_bytes", [])) == np_ and s.get("particles") == args.share * np_,
                     "%d rank(s) x %d particles: runs, summary.json has each rank's peak memory" % (np_, args.share)):
            continue
        harness.note_peak(peak, np_, s)
        shutil.rmtree(d)
    harness.peaks_flat(check, peak)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--deck", required=True, help="tests/data/bitwise.yaml")
    ap.add_argument("--share", type=int, default=50000, help="particles per rank of the memory runs")
    ap.add_argument("--only", choices=("continued", "memory"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hdem_h5insert_") as work:
        if args.only != "memory":
            src = continued(args, work)
            if src:
                bad_files(args, work, src)
                wet(args, work)
        if args.only != "continued":
            memory(args, work)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
