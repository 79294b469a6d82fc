#!/usr/bin/python3
"""Multi-sphere bodies in the time loop (hdem run with insert_body / streamN_body).

- A frictionless dumbbell tilted by 30 deg falling on a rigid floor (no gravity)
  leaves it as `hdem impact -impact_body` says, which the impulse solution
  confirms (tests/impact_body.py): the time loop's contact masses are the
  projected ones, so the contact point's restitution is the target.
- Bodies stay rigid: at the end every body's spheres sit, in its frame, where
  they were inserted.
- A gas of clumps in a periodic box (no gravity, no walls) dissipates with
  damping and friction, and without them keeps its energy to the
  integrator's error.
- A template of one sphere is a sphere: a deck of them gives the sphere
  deck's bits.
- inputs/clumps.yaml, shortened: a checkpoint written on 3 ranks continues
  bitwise on 2 and 4 to what 1 rank gives uninterrupted (final.h5, /bodies
  included); with a deck that makes no bodies it is refused, saying why.
- A fixed step taken ahead (the bodies' close and next turn in one pass) gives
  the bits of steps that are not.
- A pile of bodies under two sets of models: the fused scan gives the generic
  path's bits.
- A body wider than the subdomains allow is an error naming the template and
  the size, before any step, writing nothing.
- inputs/hopper.yaml with dumbbells in its stream (the deck's clump0) runs on
  1 and 3 ranks to the same bits.
(tests/bitwise.py runs a clump deck with moving meshes, a stream and an outflow
on 1-4 ranks.)"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import harness

A = None
check = harness.Checks("PASS ", "FAIL ")
FAILS = check.failures


def mpi(np_):
    return harness.mpi(A.mpiexec, np_)


def run(np_, deck, out, *extra, ok=True):
    cmd = mpi(np_) + [A.hdem, "run", deck, "-output_dir", out, "-thermo_screen", "false", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(deck)))
    if ok and p.returncode:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-1500:]))
    return p


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def bodies(path):
    with h5py.File(path, "r") as f:
        b = {k: f["bodies"][k][()] for k in f["bodies"]}
        pb = {k: f["particles"][k][()] for k in ("id", "body", "position", "radius")}
    o = np.argsort(b["id"])
    return {k: v[o] for k, v in b.items()}, pb


def same_state(a, b):
    """final.h5 of two runs: particles by id (hdem diff) and /bodies by id, the same bits."""
    p = subprocess.run([A.hdem, "diff", a, b], capture_output=True, text=True)
    d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
    if not d.get("identical"):
        return False, "particles differ: %s" % d
    ba, _ = bodies(a)
    bb, _ = bodies(b)
    for k in ba:
        if not np.array_equal(ba[k], bb[k]):
            return False, "/bodies/%s differs" % k
    return True, ""


def rotate(q, v):
    w, x, y, z = q
    R = np.array([[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
                  [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
                  [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]])
    return R @ v


DUMBBELL_DECK = """domain:
  lo: [-0.01, -0.01, 0]
  hi: [0.01, 0.01, 0.02]
  walls: true
  walls_type: 2
gravity: [0, 0, 0]
material1: {E: 7.0e10, nu: 0.3, density: 2500}
material2: {E: inf, nu: 0.3}
contact:
  law: hertz
  damping: harmonic
  e: 0.7
  mu: 0
timestep:
  steps_per_contact: 400
clump0:
  spheres: [%s]
insert:
  mode: lattice
  count: 1
  type: 1
  spacing: 1
  region_lo: [%r, %r, %r]
  region_hi: [%r, %r, %r]
  radius: %r
  velocity: [%r, 0, %r]
  body: clump0
  orientation: fixed
end_time: 0.0025
"""


def test_dumbbell(tmp):
    """The 30 deg dumbbell of tests/impact_body.py, its centre 2.5 mm above the floor, through the time loop."""
    r, d, v0, al = 1.0e-3, 1.2e-3, 1.0440307, math.radians(16.69924423)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    sph = [-0.5 * d * c, 0, 0.5 * d * s, r, 0.5 * d * c, 0, -0.5 * d * s, r]
    vol = 2 * 4 / 3 * math.pi * r ** 3 - math.pi * (4 * r + d) * (2 * r - d) ** 2 / 12  # two spheres less their lens
    req = (3 * vol / (4 * math.pi)) ** (1 / 3)
    bound = 0.5 * d + r
    lo = [-bound, -bound, 0.0025 - bound]
    hi = [bound * 1.0001, bound * 1.0001, 0.0025 + bound * 1.0001]
    deck = write(os.path.join(tmp, "dumbbell.yaml"), DUMBBELL_DECK % (", ".join("%r" % x for x in sph), *lo, *hi, req, v0 * math.sin(al), -v0 * math.cos(al)))
    out = os.path.join(tmp, "dumbbell")
    run(1, deck, out)
    b, _ = bodies(os.path.join(out, "final.h5"))
    imp = subprocess.run([A.hdem, "impact", "-impact_body", "clump0", "-clump0_spheres", "-0.6e-3,0,0,1e-3,0.6e-3,0,0,1e-3", "-impact_orientation",
                          "0.9659258263,0,0.2588190451,0", "-impact_angle", "16.69924423", "-impact_type", "1", "-impact_type2", "2", "-material1_E", "7e10",
                          "-material1_nu", "0.3", "-material1_density", "2500", "-material2_E", "inf", "-contact_damping", "harmonic", "-contact_e", "0.7",
                          "-contact_mu", "0", "-timestep_steps_per_contact", "400", "-impact_v0", "1.0440307"], capture_output=True, text=True)
    ri = json.loads(imp.stdout)
    V, W = b["velocity"][0], b["angular_velocity"][0]
    vi, wi = np.array(ri["velocity_out"]), np.array(ri["angular_velocity_out"])
    vr, wr = np.array(ri["velocity_impulse"]), np.array(ri["angular_velocity_impulse"])
    dv, dw = np.max(np.abs(V - vi)) / v0, np.max(np.abs(W - wi)) / np.max(np.abs(wi))
    check(dv < 2e-3 and dw < 2e-3, "dumbbell on the floor in the time loop: velocity %s, spin %s; hdem impact %s, %s (within %.1e, %.1e of 2e-3)"
          % (V, W, vi, wi, dv, dw))
    check(np.max(np.abs(V - vr)) < 0.01 * v0 and np.max(np.abs(W - wr)) < 0.01 * np.max(np.abs(wr)),
          "and the impulse solution for e = 0.7 at the contact point within 1 %%: %s, %s" % (vr, wr))


def body_frame_offsets(path):
    """Each body's spheres in its frame, R^T (x - X), by sphere id."""
    b, pb = bodies(path)
    at = {bid: k for k, bid in enumerate(b["id"])}
    off = {}
    for i, bid, x in zip(pb["id"], pb["body"], pb["position"]):
        if bid in at:
            k = at[bid]
            q = b["orientation"][k]
            off[int(i)] = rotate(np.array([q[0], -q[1], -q[2], -q[3]]), x - b["position"][k])
    return off


def test_rigid_and_conserved(tmp):
    """A periodic gas of dumbbells, trimers, tetrahedra and spheres, no gravity and no walls."""
    deck = os.path.join(A.root, "inputs", "clumps.yaml")
    common = ["-domain_hi", "0.03,0.03,0.03", "-domain_periodic", "true,true,true", "-domain_walls", "false", "-gravity", "0,0,0",
              "-insert_count", "400", "-insert_region_hi", "0.03,0.03,0.03", "-insert_velocity_random", "1.0", "-insert_angular_velocity", "200,-100,50",
              "-insert_body", "clump0,clump1,clump2,sphere", "-insert_body_weights", "3,3,3,1", "-end_time", "0.01", "-snapshot_interval_time", "0.01",
              "-thermo_interval_time", "0", "-thermo_interval", "200"]
    out = os.path.join(tmp, "gas")
    run(1, deck, out, *common)
    o0 = body_frame_offsets(os.path.join(out, "snapshots", "snap_000000000.h5"))
    o1 = body_frame_offsets(os.path.join(out, "final.h5"))
    worst = max(float(np.max(np.abs(o1[i] - o0[i]))) for i in o0)
    check(len(o0) > 900 and worst < 1e-14, "rigid: each of %d spheres of the bodies where it was in its body's frame (worst %.1e m)" % (len(o0), worst))
    lines = open(os.path.join(out, "thermo.csv")).read().splitlines()
    head = lines[0].split(",")
    e0 = dict(zip(head, map(float, lines[1].split(","))))
    e1 = dict(zip(head, map(float, lines[-1].split(","))))
    check(e1["dissipated"] > 0.01 * (e0["ke_translational"] + e0["ke_rotational"]),
          "damped, frictional gas: it dissipates (%.3e J of %.3e J)" % (e1["dissipated"], e0["ke_translational"] + e0["ke_rotational"]))
    out2 = os.path.join(tmp, "gas_elastic")
    run(1, deck, out2, *common, "-contact_e", "1", "-contact_mu", "0")
    lines = open(os.path.join(out2, "thermo.csv")).read().splitlines()
    rows = [dict(zip(head, map(float, l.split(",")))) for l in lines[1:]]
    etot = [r["ke_translational"] + r["ke_rotational"] + r["elastic"] for r in rows]
    drift = max(abs(e - etot[0]) for e in etot) / etot[0]
    check(drift < 1e-4 and max(abs(r["dissipated"]) for r in rows) < 1e-4 * etot[0],
          "elastic, frictionless gas: energy kept to %.1e of %.3e J (%d contacts at the end)" % (drift, etot[0], rows[-1]["contacts"]))


def test_one_sphere(tmp):
    deck = os.path.join(A.root, "tests", "data", "bitwise.yaml")
    a, c = os.path.join(tmp, "spheres"), os.path.join(tmp, "one_sphere_clumps")
    run(1, deck, a, "-steps", "2000")
    run(1, deck, c, "-steps", "2000", "-clump3_spheres", "1e-3,2e-3,-1e-3,0.7e-3", "-insert_body", "clump3", "-insert_orientation", "random")
    p = subprocess.run([A.hdem, "diff", os.path.join(a, "final.h5"), os.path.join(c, "final.h5")], capture_output=True, text=True)
    d = json.loads(p.stdout)
    check(d.get("identical") is True, "a template of one sphere (off its frame's origin) is a sphere: the sphere deck's bits (%s)" % d.get("values_differing"))


def test_restart(tmp):
    deck = os.path.join(A.root, "inputs", "clumps.yaml")
    common = ["-domain_hi", "0.03,0.03,0.06", "-insert_count", "300", "-insert_region_hi", "0.03,0.03,0.06", "-snapshot_interval_time", "0",
              "-thermo_interval_time", "0", "-thermo_interval", "500", "-steps", "6000", "-end_time", "1", "-balance_interval", "20", "-balance_threshold", "1"]
    ref = os.path.join(tmp, "ref")
    run(1, deck, ref, *common)
    c3 = os.path.join(tmp, "c3")
    run(3, deck, c3, *common, "-domain_grid", "3,1,1", "-checkpoint_interval_steps", "3000", "-checkpoint_keep", "5")
    ok, why = same_state(os.path.join(ref, "final.h5"), os.path.join(c3, "final.h5"))
    check(ok, "inputs/clumps.yaml (300 bodies) on 3 ranks, cuts moved by time: 1 rank's bits %s" % why)
    with h5py.File(os.path.join(c3, "checkpoints", "step_000003000.h5"), "r") as f:
        check("bodies" in f and f["bodies/id"].shape[0] == 300, "the checkpoint holds /bodies (%s rows)" % (f["bodies/id"].shape if "bodies" in f else None))
    for np_, grid in ((2, "2,1,1"), (4, "2,2,1")):
        out = os.path.join(tmp, "r%d" % np_)
        run(np_, deck, out, *common, "-domain_grid", grid, "-restart", os.path.join(c3, "checkpoints", "step_000003000.h5"))
        ok, why = same_state(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5"))
        check(ok, "its checkpoint at step 3000 from 3 ranks continued on %d ranks (%s): the uninterrupted run's bits %s" % (np_, grid, why))
    out = os.path.join(tmp, "r_spheres")
    p = run(1, deck, out, *common, "-insert_body", "sphere", "-insert_body_weights", "1", "-restart", os.path.join(c3, "checkpoints", "step_000003000.h5"),
            ok=False)
    check(p.returncode != 0 and "multi-sphere bodies" in p.stderr and "insert_body" in p.stderr and not os.path.exists(out),
          "the checkpoint with a deck that makes no bodies: an error saying so, nothing written (%s)"
          % " ".join(l for l in p.stderr.splitlines() if "hdem: error" in l)[:300])


def test_taken_ahead(tmp):
    """A fixed step taken ahead (nothing reads the state after it: the bodies' close and their next kick, drift and
    rotation in one pass, the members placed after the spheres' pass) against steps that are not (a thermo row after
    each): the same bits.  Dumbbells, trimers, tetrahedra and spheres, counts not multiples of four."""
    deck = os.path.join(A.root, "inputs", "clumps.yaml")
    common = ["-domain_hi", "0.03,0.03,0.06", "-insert_count", "301", "-insert_region_hi", "0.03,0.03,0.06", "-insert_body",
              "clump0,clump1,clump2,sphere", "-insert_body_weights", "3,3,3,1", "-snapshot_interval_time", "0", "-thermo_interval_time",
              "0", "-timestep_mode", "fixed", "-timestep_dt", "2e-6", "-steps", "1500", "-end_time", "1", "-contact_mu_roll", "0.1"]
    ahead, each = os.path.join(tmp, "ahead"), os.path.join(tmp, "each")
    run(1, deck, ahead, *common, "-thermo_interval", "500")
    run(1, deck, each, *common, "-thermo_interval", "1")
    ok, why = same_state(os.path.join(ahead, "final.h5"), os.path.join(each, "final.h5"))
    rows_a = open(os.path.join(ahead, "thermo.csv")).read().splitlines()
    rows_e = {l.split(",")[0]: l for l in open(os.path.join(each, "thermo.csv")).read().splitlines()}
    same_rows = all(",".join(l.split(",")[:-1]) == ",".join(rows_e.get(l.split(",")[0], "").split(",")[:-1]) for l in rows_a[1:])
    check(ok and same_rows and len(rows_a) == 5,
          "a fixed step taken ahead (bodies turned in the close's pass) and steps with a thermo row after each: the same bits "
          "(final.h5 %s, thermo rows %s)" % (why or "identical", "identical" if same_rows else "differ"))


def test_fused_generic(tmp):
    """A pile of dumbbells, trimers, tetrahedra and spheres under two sets of models: the fused scan (each body
    contact's projected masses a row of constants of its own, the contacts in the kernel's lanes) gives the bits of
    the generic path (ContactEvaluate contact by contact, which the force pass takes at every step sampled for
    fields), and the bodies' passes four bodies to a vector (BodiesCloseTurn, BodiesPlaceTurned) the bits of the
    body-by-body ones (BodiesClose, BodiesOpen), which a step that the fields read takes."""
    deck = os.path.join(A.root, "inputs", "clumps.yaml")
    common = ["-domain_hi", "0.02,0.02,0.06", "-insert_count", "360", "-insert_region_hi", "0.02,0.02,0.06", "-insert_velocity_random",
              "0.5", "-gravity", "0,0,-30", "-snapshot_interval_time", "0", "-thermo_interval_time", "0", "-thermo_interval", "1000",
              "-timestep_mode", "fixed", "-timestep_dt", "1e-5", "-steps", "7000", "-end_time", "1"]
    generic = ["-fields_interval", "7000", "-fields_sample", "1", "-fields_grid", "1,1,1", "-fields_kernel", "bins"]
    models = {"calibrated constant damper, rolling resistance, tangential dashpot":
              ["-contact_damping", "constant_damper", "-contact_mu_roll", "0.1", "-contact_tangential_damping", "0.3"],
              "tsuji_marshall, Mindlin-Deresiewicz": ["-contact_damping", "tsuji_marshall", "-contact_e", "0.5", "-contact_separation",
                                                      "overlap", "-contact_tangential_model", "mindlin_deresiewicz"]}
    for k, (name, opts) in enumerate(models.items()):
        fused, gen = os.path.join(tmp, "fused%d" % k), os.path.join(tmp, "generic%d" % k)
        run(1, deck, fused, *common, *opts)
        run(1, deck, gen, *common, *opts, *generic)
        ok, why = same_state(os.path.join(fused, "final.h5"), os.path.join(gen, "final.h5"))
        rows = open(os.path.join(fused, "thermo.csv")).read().splitlines()
        contacts = int(float(dict(zip(rows[0].split(","), rows[-1].split(",")))["contacts"]))
        check(ok and contacts > 500, "a pile of bodies, %s: the fused scan gives the generic path's bits (%d contacts at the end) %s"
              % (name, contacts, why))


def test_too_wide(tmp):
    deck = os.path.join(A.root, "inputs", "clumps.yaml")
    out = os.path.join(tmp, "wide")
    p = run(2, deck, out, "-domain_grid", "2,1,1", "-domain_hi", "0.012,0.06,0.12", "-insert_region_hi", "0.012,0.06,0.12", "-insert_count", "10", "-clump0_spheres",
            "-3e-3,0,0,0.8e-3,3e-3,0,0,0.8e-3", "-insert_body", "clump0", "-insert_body_weights", "1", ok=False)
    check(p.returncode != 0 and "clump0" in p.stderr and "wider than a subdomain" in p.stderr and not os.path.exists(out),
          "a body wider than a subdomain: an error naming clump0 and its reach, nothing written (%s)"
          % " ".join(l for l in p.stderr.splitlines() if "hdem: error" in l)[:400])


def test_hopper(tmp):
    deck = os.path.join(A.root, "inputs", "hopper.yaml")
    common = ["-stream0_body", "clump0", "-stream0_count", "300", "-end_time", "0.06", "-snapshot_interval_time", "0", "-thermo_interval_time", "0",
              "-thermo_interval", "1000"]
    a, b = os.path.join(tmp, "hopper1"), os.path.join(tmp, "hopper3")
    run(1, deck, a, *common)
    run(3, deck, b, *common)
    ok, why = same_state(os.path.join(a, "final.h5"), os.path.join(b, "final.h5"))
    n = bodies(os.path.join(a, "final.h5"))[0]["id"].shape[0]
    check(ok and n > 100, "inputs/hopper.yaml with -stream0_body clump0: %d dumbbells poured, the same bits on 1 and 3 ranks %s" % (n, why))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--root", required=True)
    A = ap.parse_args()
    A.hdem, A.root = os.path.abspath(A.hdem), os.path.abspath(A.root)
    tmp = tempfile.mkdtemp(prefix="hdem_clumps_")
    for t in (test_dumbbell, test_rigid_and_conserved, test_one_sphere, test_restart, test_taken_ahead, test_fused_generic, test_too_wide,
              test_hopper):
        try:
            t(tmp)
        except (RuntimeError, KeyError, OSError) as e:
            check(False, "%s: %s" % (t.__name__, e))
    print("%d failed" % len(FAILS))
    if not FAILS:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
