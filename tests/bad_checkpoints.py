#!/usr/bin/python3
"""Checkpoints are checked before they are used (src/engine/checkpoint.c):

- a real checkpoint (a short run on 2 ranks) restarts and completes, bitwise where the
  uninterrupted run ends, on 1 and 2 ranks; every dataset carries a checksum that this
  script recomputes from io/h5file.h's definition (file row order: any rank count);
- a checkpoint without checksums (written before they were kept) is accepted with a
  note on stdout;
- each corruption below, on 1 and 2 ranks: a non-zero exit, an error naming the file,
  the dataset (or attribute) and, for a row, the row and its id, and nothing new in
  the output directory (no final.h5, no new checkpoint, no thermo rows). Values are
  corrupted with the checksum recomputed (what a buggy writer would leave), so the
  value checks themselves are what refuses them; a flipped byte in a dataset's raw
  data, its checksum left as it was, is refused by the checksum;
- a checkpoint of clumps, wet, with a stream (BODY_DECK, written here): intact it
  continues bitwise on 1 and 2 ranks; refused alike are a body's mass or principal
  moments that no body has, an orientation off the unit quaternions, a non-finite
  /bodies row, a sphere whose body is not in /bodies/id or not its own, a body short of
  a sphere, two /bodies rows of one id, flags with bits a checkpoint never holds (and
  a member's flag without bodies), negative liquid on a particle or in a bridge, and a
  negative or NaN stream time or count (--part bodies runs these alone)."""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

A = None
failures = []
M64 = (1 << 64) - 1


def check(ok, msg):
    print(("PASS " if ok else "FAIL ") + msg, flush=True)
    if not ok:
        failures.append(msg)


def mpi(np_):
    # a refusal exits before anything is written: Open MPI need not give its other
    # ranks a second's grace before the kill (mpirun waited 2 s for each)
    cmd = [A.mpiexec, "-np", str(np_), "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "0"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


# ---- the checksum of io/h5file.h, in numpy ------------------------------------

def fmix(h):
    with np.errstate(over="ignore"):
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xff51afd7ed558ccd)
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xc4ceb9fe1a85ec53)
        h = h ^ (h >> np.uint64(33))
    return h


def checksum(data):
    a = np.asarray(data)
    n = a.shape[0]
    a = a.reshape(n, -1)
    k = a.shape[1]
    if a.dtype.kind == "f":
        e = a.astype("<f8").view("<u8").astype(np.uint64)
    elif a.dtype.itemsize == 8:
        e = a.astype("<i8").view("<u8").astype(np.uint64)
    else:
        e = a.astype("<i4").view("<u4").astype(np.uint64)
    with np.errstate(over="ignore"):
        h = fmix(np.arange(n, dtype=np.uint64) * np.uint64(0x9e3779b97f4a7c15) + np.uint64(k))
        for c in range(k):
            h = fmix(h ^ e[:, c])
    total = int(h.astype(object).sum()) if n else 0
    total += int(fmix(np.array([n], dtype=np.uint64) + np.uint64(0x5851f42d4c957f2d))[0])
    return total & M64


def datasets(f):
    out = []
    f.visititems(lambda name, o: out.append(name) if isinstance(o, h5py.Dataset) else None)
    return sorted(out)


def reseal(path, names=None):
    """Recompute the checksums of the named datasets (all by default)."""
    with h5py.File(path, "r+") as f:
        for name in names or datasets(f):
            f[name].attrs.modify("checksum", np.uint64(checksum(f[name][()])))


# ---- runs ---------------------------------------------------------------------

def run(np_, out, *extra, deck=None):
    cmd = mpi(np_) + [A.hdem, "run", deck or A.deck, "-output_dir", out, *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def listing(d):
    got = {}
    for root, _, files in os.walk(d):
        for name in files:
            p = os.path.join(root, name)
            st = os.stat(p)
            got[os.path.relpath(p, d)] = (st.st_size, st.st_mtime_ns)
    return got


def same(a, b):
    p = subprocess.run([A.hdem, "diff", a, b], capture_output=True, text=True)
    try:
        return json.loads(p.stdout)["identical"]
    except (ValueError, KeyError):
        return False



# ---- corruptions of a checkpoint ----------------------------------------------

def attr(name, value):
    def f_(f):
        f.attrs[name] = value
    return f_


def cell(name, idx, value):
    def f_(f):
        d = f[name]
        a = d[()]
        a[idx] = value
        d[...] = a
    return f_


def both(a, b):
    def f_(f):
        a(f)
        b(f)
    return f_


def shorter(name):
    def f_(f):
        a = f[name][()][:-1]
        del f[name]
        f.create_dataset(name, data=a)
    return f_


def flip(name, row):
    def f_(path):
        with h5py.File(path, "r") as f:
            d = f[name]
            off = d.id.get_offset()
            assert off is not None, "contiguous storage expected"
            at = off + row * d.dtype.itemsize * (d.shape[1] if d.ndim > 1 else 1)
        with open(path, "r+b") as g:
            g.seek(at)
            b = g.read(1)
            g.seek(at)
            g.write(bytes([b[0] ^ 0x01]))  # the lowest mantissa bit: a plausible value
    return f_


def restart(tmp, base, np_, ck, tag, deck=None):
    """A restart from ck in a copy of base: the run, its directory, what it held before."""
    out = os.path.join(tmp, "out_%s_np%d" % (tag, np_))
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(base, out)
    before = listing(out)
    p = run(np_, out, "-steps", "300", "-restart", ck, deck=deck)
    return p, out, before


def refused(tmp, src, base, cases, tag, deck=None):
    """Each case (what, how, reseal the checksums, strings the message must hold)
    applied to a copy of src, restarted on 1 and 2 ranks: refused, said once,
    nothing written.  The restarts run two at a time (each in its own copy of
    base): they stop before a step, so start-up's waits are most of their time."""
    jobs = []
    for k, (what, how, seal, needles) in enumerate(cases):
        ck = os.path.join(tmp, "%s%02d.h5" % (tag, k))
        shutil.copyfile(src, ck)
        if seal is None:
            how(ck)
        elif seal == "strip":
            with h5py.File(ck, "r+") as f:
                del f["particles/mass"].attrs["checksum"]
        else:
            with h5py.File(ck, "r+") as f:
                changed = datasets(f)
                how(f)
            if seal:
                reseal(ck, changed)
        jobs += [(what, needles, ck, np_, "%s%02d" % (tag, k)) for np_ in (1, 2)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        done = list(ex.map(lambda j: restart(tmp, base, j[3], j[2], j[4], deck), jobs))
    for (what, needles, ck, np_, _), (p, out, before) in zip(jobs, done):
        err = p.stderr.strip()
        after = listing(out)
        new = sorted(set(after) - set(before)) + sorted(n for n in before if n in after and after[n] != before[n])
        ok = p.returncode not in (0, 75) and ck in err and all(s in err for s in needles) and not new
        first = err.splitlines()[0] if err else "no message"
        check(ok, "%s, %d rank(s): exit %d, %s%s" % (what, np_, p.returncode, first[:400],
                                                     "" if not new else "; wrote %s" % new))
        if np_ == 2 and ok:
            check(err.count("hdem: error:") == 1, "  said once, not by every rank")


def reference(tmp, tag, deck=None):
    """A short run on 2 ranks: its checkpoint at step 200, and the directory a
    restart continues in (the run's, less its end)."""
    ref = os.path.join(tmp, tag)
    p = run(2, ref, "-steps", "300", "-checkpoint_interval_steps", "100", "-checkpoint_keep", "10", deck=deck)
    if p.returncode != 0:
        raise RuntimeError("the reference run failed: %s" % p.stderr[-1000:])
    src = os.path.join(ref, "checkpoints", "step_000000200.h5")
    base = os.path.join(tmp, tag + "_base")
    shutil.copytree(ref, base)
    os.remove(os.path.join(base, "final.h5"))
    os.remove(os.path.join(base, "checkpoints", "step_000000300.h5"))
    return ref, src, base


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--deck", required=True)
    ap.add_argument("--part", choices=("all", "spheres", "bodies"), default="all")
    A = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_badckpt_")
    try:
        if A.part != "bodies":
            body(tmp)
        if A.part != "spheres":
            bodies(tmp)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        check(False, str(e))
    print("%d failure(s)" % len(failures))
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


def body(tmp):
    ref, src, base = reference(tmp, "ref")

    # what a checkpoint holds, and the checksums' definition
    with h5py.File(src, "r") as f:
        names = datasets(f)
        N = int(f.attrs["particles"])
        M = f["history/owner"].shape[0]
        W = f["walls/normal"].shape[0] if "walls/normal" in f else 0
        ids = f["particles/id"][()]
        bad = [n for n in names if "checksum" not in f[n].attrs or int(f[n].attrs["checksum"]) != checksum(f[n][()])]
    check(not bad and len(names) >= 20, "every one of the %d datasets has the checksum io/h5file.h defines (wrong or missing: %s)" % (len(names), bad))
    check(N > 10 and M > 0 and W > 0, "the checkpoint has %d particles, %d history records, %d walls" % (N, M, W))

    # an intact checkpoint restarts and completes, bitwise
    for np_ in (1, 2):
        ck = os.path.join(tmp, "good.h5")
        shutil.copyfile(src, ck)
        p, out, _ = restart(tmp, base, np_, ck, "good")
        check(p.returncode == 0 and same(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")),
              "an intact checkpoint restarts on %d rank(s) and ends bitwise where the uninterrupted run does (exit %d %s)" % (np_, p.returncode, p.stderr.strip()[-300:]))
        check("no checksums" not in p.stdout, "  and says nothing of missing checksums")

    # one written before checksums: accepted, with a note
    old = os.path.join(tmp, "nochecksums.h5")
    shutil.copyfile(src, old)
    with h5py.File(old, "r+") as f:
        for n in names:
            del f[n].attrs["checksum"]
    for np_ in (1, 2):
        p, out, _ = restart(tmp, base, np_, old, "nochecksums")
        check(p.returncode == 0 and "no checksums" in p.stdout and old in p.stdout and same(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")),
              "a checkpoint without checksums restarts on %d rank(s), with a note on stdout (exit %d) %s" % (np_, p.returncode, p.stderr.strip()[-300:]))

    r = N - 3  # on the last rank when read on 2
    hr = M - 1

    # (what, how, reseal the checksums, strings the message must hold)
    cases = [
        ("NaN position", cell("particles/position", (r, 1), np.nan), True,
         ["/particles/position", "row %d" % r, "id %d" % ids[r], "nan"]),
        ("NaN position, its checksum left as it was", cell("particles/position", (r, 0), np.nan), False,
         ["/particles/position", "row %d" % r, "id %d" % ids[r], "checksum does not match"]),
        ("NaN velocity", cell("particles/velocity", (r, 2), np.nan), True, ["/particles/velocity", "row %d" % r, "id %d" % ids[r]]),
        ("inf angular velocity", cell("particles/angular_velocity", (2, 0), np.inf), True, ["/particles/angular_velocity", "row 2", "id %d" % ids[2]]),
        ("NaN torque", cell("particles/torque", (r, 0), np.nan), True, ["/particles/torque", "row %d" % r]),
        ("NaN time", attr("time", np.nan), False, ["attribute /time", "nan"]),
        ("inf time", attr("time", np.inf), False, ["attribute /time", "inf"]),
        ("negative time", attr("time", -1.0), False, ["attribute /time", ">= 0"]),
        ("NaN dt", attr("dt", np.nan), False, ["attribute /dt", "nan"]),
        ("zero dt", attr("dt", 0.0), False, ["attribute /dt", "> 0"]),
        ("duplicate id", cell("particles/id", N - 2, ids[1]), True, ["/particles/id", "row %d" % (N - 2), "id %d" % ids[1], "row 1", "unique"]),
        ("negative step", attr("step", np.int64(-5)), False, ["attribute /step", "-5"]),
        ("zero radius", cell("particles/radius", r, 0.0), True, ["/particles/radius", "row %d" % r, "id %d" % ids[r], "> 0"]),
        ("radius above rmax", cell("particles/radius", r, 1.0), True, ["/particles/radius", "row %d" % r, "rmax"]),
        ("negative mass", cell("particles/mass", r, -1e-6), True, ["/particles/mass", "row %d" % r, "id %d" % ids[r], "> 0"]),
        ("zero inertia", cell("particles/inertia", 4, 0.0), True, ["/particles/inertia", "row 4", "id %d" % ids[4], "> 0"]),
        ("negative skin", attr("skin", -1e-4), False, ["attribute /skin", "> 0"]),
        ("NaN rmax", attr("rmax", np.nan), False, ["attribute /rmax"]),
        ("particle count not the datasets'", both(attr("particles", np.int64(N + 1)), attr("particles_initial", np.int64(N + 1))), False,
         ["/particles/", "rows, expected %d" % (N + 1)]),
        ("counts that do not add up", attr("lost", np.int64(3)), False, ["/particles", "/lost", "/particles_initial"]),
        ("NaN wall normal", cell("walls/normal", (0, 2), np.nan), True, ["/walls/normal", "row 0", "nan"]),
        ("zero wall normal", cell("walls/normal", 1, [0.0, 0.0, 0.0]), True, ["/walls/normal", "row 1"]),
        ("NaN history spring", cell("history/spring", (hr, 0), np.nan), True, ["/history/spring", "row %d" % hr, "owner"]),
        ("history record of no particle", cell("history/owner", hr, 10 ** 9), True, ["/history/owner", "row %d" % hr, "id 1000000000"]),
        ("history kind unknown", cell("history/kind", 0, 7), True, ["/history/kind", "row 0", "kind 7"]),
        ("flags with an unknown bit", cell("particles/flags", r, 8), True, ["/particles/flags", "row %d" % r, "id %d" % ids[r], "flags 8", "bits beyond"]),
        ("a body's member flag without bodies", cell("particles/flags", r, 4), True, ["/particles/flags", "row %d" % r, "flags 4", "needs bodies"]),
        ("position where the lists were built outside the box", cell("particles/position_at_build", (r, 2), 1.0), True,
         ["/particles/position_at_build", "row %d" % r, "outside"]),
        ("a dataset shorter than the count attribute", shorter("particles/radius"), False, ["/particles/radius", "rows, expected %d" % N]),
        ("flipped byte in /particles/velocity", flip("particles/velocity", r), None, ["/particles/velocity", "checksum mismatch: the data was changed or corrupted"]),
        ("flipped byte in /particles/id", flip("particles/id", 0), None, ["/particles/id", "checksum mismatch"]),
        ("flipped byte in /history/touched", flip("history/touched", 0), None, ["/history/touched", "checksum mismatch"]),
        ("a dataset rewritten without its checksum", None, "strip", ["/particles/mass", "no checksum"]),
    ]
    refused(tmp, src, base, cases, "bad")

    # a dry run's checkpoint restarted by a wet deck: said by name, not as a missing dataset
    wet = os.path.join(tmp, "wet.yaml")
    with open(A.deck) as g, open(wet, "w") as h:
        h.write(g.read().replace("  nu: 0.3\n", "  nu: 0.3\n  liquid: 1.0e-12\n", 1))
    refused(tmp, src, base, [("a dry checkpoint by a wet deck", lambda path: None, None, ["a dry run's", "no liquid", "material liquid"])],
            "wetdeck", wet)


# clumps (and spheres) inserted and poured in by a stream, wet: every kind of body,
# liquid and flow state a checkpoint holds
BODY_DECK = """
domain: {lo: [0, 0, 0], hi: [0.012, 0.009, 0.05], periodic: [true, true, false], walls: true}
gravity: [0, 0, -9.81]
material: {E: 1.0e7, nu: 0.3, liquid: 1.0e-11}
contact:
  law: hertz
  damping: harmonic
  e: 0.5
  separation: force
  mu: 0.5
  liquid_surface_tension: 0.072
  liquid_contact_angle: 20
  liquid_viscosity: 0
  liquid_bridge_fraction: 0.05
  liquid_force: willett
clump0: {spheres: [-0.5e-3, 0, 0, 0.7e-3,   0.5e-3, 0, 0, 0.7e-3]}
clump1: {spheres: [0, 0, 0, 0.6e-3,   0.9e-3, 0, 0, 0.6e-3,   -0.45e-3, 0.75e-3, 0, 0.6e-3]}
insert:
  mode: lattice
  count: 40
  seed: 7
  region_lo: [0, 0, 0.001]
  region_hi: [0.012, 0.009, 0.03]
  spacing: 1.05
  radius: {distribution: uniform, min: 0.8e-3, max: 1.0e-3}
  velocity_random: 0.5
  body: [clump0, clump1, sphere]
  orientation: random
stream0:
  region_lo: [0, 0, 0.035]
  region_hi: [0.012, 0.009, 0.05]
  rate: 20000
  count: 40
  interval: 0.0005
  radius: {distribution: uniform, min: 0.8e-3, max: 0.9e-3}
  velocity: [0, 0, -0.5]
  seed: 5
  body: [clump0]
neighbor: {skin: 0.2e-3}
steps: 300
thermo_interval: 100
"""


def drop_row(row, lost):
    """Row `row` taken out of every /particles dataset, counted as lost."""
    def f_(f):
        for name in [n for n in datasets(f) if n.startswith("particles/")]:
            a = np.delete(f[name][()], row, axis=0)
            del f[name]
            f.create_dataset(name, data=a)
        f.attrs["particles"] = np.int64(f.attrs["particles"] - 1)
        f.attrs["lost"] = np.int64(lost + 1)
    return f_


def bodies(tmp):
    """A checkpoint of clumps, liquid and a stream: intact it continues bitwise;
    each corruption of its bodies, liquid or flow state is refused."""
    deck = os.path.join(tmp, "bodies.yaml")
    with open(deck, "w") as g:
        g.write(BODY_DECK)
    ref, src, base = reference(tmp, "bref", deck)
    with h5py.File(src, "r") as f:
        N, lost = int(f.attrs["particles"]), int(f.attrs["lost"])
        ids, flags, body, tmpl = (f["particles/" + n][()] for n in ("id", "flags", "body", "body_template"))
        inertia, q = f["particles/body_inertia"][()], f["particles/body_orientation"][()]
        bids, owners, partners = f["bodies/id"][()], f["history/owner"][()], f["history/partner"][()]
        bridge, times = f["history/bridge_liquid"][()], f["flow/times"][()]
    member = (flags & 4) != 0
    # a member that is not its body's first, on the last rank when read on 2, in no history record
    rm = [i for i in range(N // 2, N) if member[i] and body[i] != ids[i] and ids[i] not in owners and ids[i] not in partners][-1]
    other = [b for b in bids if b != body[rm] and tmpl[list(ids).index(b)] == tmpl[rm]][-1]
    jb = len(bids) - 1
    hr = len(owners) - 1
    check(member.sum() > 20 and len(bids) > 10 and bridge.max() > 0 and times[0] > 0,
          "the checkpoint has %d bodies (%d spheres of them), liquid bridges and a stream that inserted" % (len(bids), member.sum()))
    for np_ in (1, 2):
        ck = os.path.join(tmp, "bgood.h5")
        shutil.copyfile(src, ck)
        p, out, _ = restart(tmp, base, np_, ck, "bgood", deck)
        check(p.returncode == 0 and same(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5")),
              "an intact checkpoint of bodies restarts on %d rank(s), bitwise (exit %d %s)" % (np_, p.returncode, p.stderr.strip()[-300:]))
    sid = "id %d" % ids[rm]
    I = inertia[rm]
    cases = [
        ("zero body mass", cell("particles/body_mass", rm, 0.0), True, ["/particles/body_mass", "row %d" % rm, sid, "> 0"]),
        ("negative body inertia", cell("particles/body_inertia", (rm, 1), -I[1]), True, ["/particles/body_inertia", "row %d" % rm, sid, "> 0"]),
        ("body inertia that no body has", cell("particles/body_inertia", (rm, 2), 1.5 * (I[0] + I[1])), True,
         ["/particles/body_inertia", "row %d" % rm, sid, "triangle"]),
        ("body orientation not a unit quaternion", cell("particles/body_orientation", rm, 1.001 * q[rm]), True,
         ["/particles/body_orientation", "row %d" % rm, sid, "unit"]),
        ("NaN body velocity", cell("bodies/velocity", (jb, 1), np.nan), True, ["/bodies/velocity", "row %d" % jb, "body %d" % bids[jb], "nan"]),
        ("inf body position", cell("bodies/position", (jb, 0), np.inf), True, ["/bodies/position", "row %d" % jb, "body %d" % bids[jb], "inf"]),
        ("a sphere whose body is not in /bodies/id", cell("particles/body", rm, ids[rm]), True,
         ["/particles/body", "row %d" % rm, sid, "body %d is not in /bodies/id" % ids[rm]]),
        ("a sphere in another body", cell("particles/body", rm, other), True,
         ["/particles/body", "row %d" % rm, sid, "body %d" % other, "not one of its spheres"]),
        ("a body short of a sphere", drop_row(rm, lost), True, ["/particles/body", "body %d" % body[rm], "id %d is missing" % ids[rm]]),
        ("a member's flags with an unknown bit", cell("particles/flags", rm, int(flags[rm]) | 16), True,
         ["/particles/flags", "row %d" % rm, sid, "flags %d" % (int(flags[rm]) | 16), "bits beyond"]),
        ("two bodies with one id", cell("bodies/id", jb, bids[jb - 1]), True, ["/bodies/id", "row %d" % jb, "row %d" % (jb - 1), "body %d" % bids[jb - 1]]),
        ("negative liquid", cell("particles/liquid", N - 2, -1e-12), True, ["/particles/liquid", "row %d" % (N - 2), "id %d" % ids[N - 2], ">= 0"]),
        ("negative bridge liquid", cell("history/bridge_liquid", hr, -1e-13), True, ["/history/bridge_liquid", "row %d" % hr, "owner", ">= 0"]),
        ("negative stream time", cell("flow/times", 0, -1.0), True, ["/flow/times", "row 0", ">= 0"]),
        ("NaN stream time", cell("flow/times", 0, np.nan), True, ["/flow/times", "row 0", "nan"]),
        ("negative flow count", cell("flow/counts", 1, -3), True, ["/flow/counts", "row 1", "-3"]),
    ]
    refused(tmp, src, base, cases, "bbad", deck)

    # a wet run's checkpoint restarted by a dry deck: refused by name, not its liquid silently dropped
    dry = os.path.join(tmp, "bodies_dry.yaml")
    with open(dry, "w") as g:
        g.write("".join(ln for ln in BODY_DECK.replace(", liquid: 1.0e-11}", "}").splitlines(True) if "liquid_" not in ln))
    refused(tmp, src, base, [("a wet checkpoint by a dry deck", lambda path: None, None, ["a wet run's", "/particles/liquid", "no material with liquid"])],
            "drydeck", dry)


if __name__ == "__main__":
    main()
