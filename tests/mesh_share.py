#!/usr/bin/python3
"""Meshes read by share (io/stl_share.h, geometry/mesh_share.h) end to end:

1. a deck with a large binary STL, a flat plate of --share triangles per rank
   beyond the domain (it moves, so it is allowed there, and it never comes
   near the particles: no rank holds any of it after the set-up), at 1, 2, 4
   and 8 ranks (oversubscribed): the report's triangle and surface counts are the plate's,
   and the peak memory per rank (summary.json's peak_memory_bytes, the
   largest rank) stays within 10 % of one rank's and of two ranks', where a
   set-up that gives every rank the whole mesh grows with the rank count
   (one rank also bins the whole plate, which costs more than the set-up:
   two ranks are the reference that such a set-up fails). Open MPI's
   shared-memory segments are 1 MiB here (as in lammps_read.py): a fixed
   cost of the transport that ru_maxrss counts;
2. the same deck with an ASCII plate (read by ranges of its bytes) of a
   few thousand triangles: bitwise the same final state at 1 and 3
   ranks, the same counts;
3. bad files on 2 ranks: a truncated binary file, a bad number on a facet
   in the second half of an ASCII file: exit 1, the serial run's message."""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import harness

check = harness.Checks()

DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.02, 0.02, 0.02]
insert:
  mode: lattice
  count: 8
  radius: 0.001
  region_lo: [0.006, 0.006, 0.006]
  region_hi: [0.014, 0.014, 0.014]
gravity: [0, 0, -9.81]
mesh0:
  file: plate.stl
  motion: translate     # far below, sinking slowly: never near the particles
  velocity: [0, 0, -1.0e-6]
steps: 20
thermo_interval: 10
progress_interval: 0
"""


def plate(nt, binary):
    """A plate of nt triangles (nt even) in z = -1 m, strips of 100 quads along y."""
    ny = 100
    nx = max(1, nt // (2 * ny))
    tris = []
    if binary:
        import numpy as np
        i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
        i, j = i.ravel().astype(np.float32), j.ravel().astype(np.float32)
        h = np.float32(0.02 / ny)
        z = np.full(i.shape, -1.0, np.float32)
        a = np.stack([i * h, j * h, z], 1)
        b = np.stack([(i + 1) * h, j * h, z], 1)
        c = np.stack([(i + 1) * h, (j + 1) * h, z], 1)
        d = np.stack([i * h, (j + 1) * h, z], 1)
        rec = np.zeros((2 * nx * ny, 25), np.uint16)
        f = np.zeros((2 * nx * ny, 12), np.float32)
        f[:, 2] = 1.0
        f[0::2, 3:6], f[0::2, 6:9], f[0::2, 9:12] = a, b, c
        f[1::2, 3:6], f[1::2, 6:9], f[1::2, 9:12] = a, c, d
        rec = rec.view(np.uint8).reshape(-1, 50)
        rec[:, :48] = f.astype("<f4").view(np.uint8).reshape(-1, 48)
        return b"plate".ljust(80, b" ") + struct.pack("<I", 2 * nx * ny) + rec.tobytes(), 2 * nx * ny
    lines = ["solid plate"]
    h = 0.02 / ny
    for i in range(nx):
        for j in range(ny):
            a, b, c, d = ((i * h, j * h), ((i + 1) * h, j * h), ((i + 1) * h, (j + 1) * h), (i * h, (j + 1) * h))
            for t in ((a, b, c), (a, c, d)):
                lines.append("facet normal 0 0 1\nouter loop")
                lines += ["vertex %.17g %.17g -1" % p for p in t]
                lines.append("endloop\nendfacet")
    lines.append("endsolid plate\n")
    return "\n".join(lines).encode(), 2 * nx * ny


def run(args, np_, work, out, *extra):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", "deck.yaml", "-output_dir", out] + list(extra)
    return harness.run(cmd, expect=None, cwd=work, timeout=1800)


def summary(work, out):
    with open(os.path.join(work, out, "summary.json")) as f:
        return json.load(f)


def counts(p, nt):
    """Whether the report names the plate's triangles, in one surface."""
    return ("%d triangles" % nt) in p.stdout and "1 surfaces" in p.stdout


def memory(args, work):
    os.environ.setdefault("OMPI_MCA_btl_vader_segment_size", str(1 << 20))
    peak = {}
    for np_ in (1, 2, 4, 8):
        data, nt = plate(args.share * np_, True)
        with open(os.path.join(work, "plate.stl"), "wb") as f:
            f.write(data)
        del data
        p = run(args, np_, work, "mem%d" % np_)
        ok = p.returncode == 0 and counts(p, nt)
        if not check(ok, "%d ranks x %d triangles: runs, %d triangles in 1 surface (%s)"
                     % (np_, args.share, nt, p.stderr[-300:])):
            continue
        harness.note_peak(peak, np_, summary(work, "mem%d" % np_))
    harness.peaks_flat(check, peak)
    # one rank holds the plate whole and bins it, which the others never do: the read by share is flat from 2
    if 2 in peak:
        for np_ in (4, 8):
            if np_ in peak:
                check(peak[np_] <= 1.1 * peak[2], "peak per rank at %d ranks %.1f MB within 10 %% of 2 ranks' %.1f MB"
                      % (np_, peak[np_] / 1e6, peak[2] / 1e6))


def same_state(hdem, a, b):
    p = subprocess.run([hdem, "diff", a, b], capture_output=True, text=True)
    d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
    return d.get("identical", False), d


def ascii_bitwise(args, work):
    data, nt = plate(4000, False)
    with open(os.path.join(work, "plate.stl"), "wb") as f:
        f.write(data)
    outs = []
    for np_ in (1, 3):
        p = run(args, np_, work, "ascii%d" % np_)
        if check(p.returncode == 0 and counts(p, nt), "ASCII plate at %d ranks: runs, %d triangles in 1 surface (%s)"
                 % (np_, nt, p.stderr[-300:])):
            outs.append(os.path.join(work, "ascii%d" % np_, "final.h5"))
    if len(outs) == 2:
        same, d = same_state(args.hdem, outs[0], outs[1])
        check(same, "ASCII plate: 3 ranks bitwise as 1 (%s)" % d)


def errors(args, work):
    data, nt = plate(4000, True)
    cases = [("truncated", data[:-20], "neither an ASCII nor a binary STL")]
    text, _ = plate(4000, False)
    at = text.index(b"vertex ", len(text) * 3 // 4)
    cases.append(("bad number", text[:at + 7] + b"1.2.3" + text[at + 8:], "is not a number"))
    for name, body, word in cases:
        with open(os.path.join(work, "plate.stl"), "wb") as f:
            f.write(body)
        p1, p2 = run(args, 1, work, "bad1"), run(args, 2, work, "bad2")
        said = [line for line in p1.stderr.splitlines() if word in line]
        msg = said[0].strip() if said else p2.stderr[-300:]
        check(p1.returncode == 1 and p2.returncode == 1 and said and said[0].strip() in p2.stderr,
              "%s file: exit 1 on 1 and 2 ranks, the same message (%s)" % (name, msg))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--share", type=int, default=150000, help="triangles per rank of the memory runs")
    ap.add_argument("--only", choices=("memory", "ascii", "errors"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hdem_meshshare_") as work:
        with open(os.path.join(work, "deck.yaml"), "w") as f:
            f.write(DECK)
        if args.only in (None, "errors"):
            errors(args, work)
        if args.only in (None, "ascii"):
            ascii_bitwise(args, work)
        if args.only in (None, "memory"):
            memory(args, work)
    return check.report()


if __name__ == "__main__":
    sys.exit(main())
