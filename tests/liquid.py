#!/usr/bin/python3
"""Liquid bridges against closed forms and across rank counts.

- Pull-apart: two touching wet spheres (no gravity, no damping) part at a given
  speed (Willett's S+ is half the gap times sqrt(R / V)).  The bridge they form takes liquid_bridge_fraction of each one's liquid;
  the kinetic energy it takes before it ruptures is the integral of the
  capillary force up to Lian's rupture distance, (1 + theta/2) V^(1/3):
  willett_simple in closed form (an arctangent), willett (the full fit)
  integrated here by quadrature from Willett et al.'s coefficients, both within
  0.5 %.  After the rupture the speed stays (no force beyond it) and each
  particle holds its liquid again.  A little slower than the escape speed, the
  bridge holds.  The same against a floor (R = 2 R_i, the particle's share only)
  and against a mesh floor,
  and on 2 ranks with the two particles on different ranks: bitwise the same.
- A wet deck (tests/data/bitwise.yaml with liquid) gives bitwise identical final
  states and identical liquid_total and bridges columns on 1-4 ranks; the total
  stays constant to round-off; a checkpoint written on 3 ranks continues bitwise
  on 2 and 4; final.h5 holds /particles/liquid.
"""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import harness

A = None
check = harness.Checks("PASS ", "FAIL ")
FAILS = check.failures
R, RHO, L0, FRAC, GAMMA = 1e-3, 2500.0, 1e-10, 0.05, 0.072


def run(np_, deck, out, *extra):
    cmd = harness.mpi(A.mpiexec, np_) + [A.hdem, "run", deck, "-output_dir", out, "-thermo_screen", "false", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-1500:]))


def thermo(out):
    rows = [r.split(",") for r in open(os.path.join(out, "thermo.csv")).read().splitlines()]
    head = rows[0]
    return [{k: float(v) for k, v in zip(head, r)} for r in rows[1:]]


def same(a, b):
    p = subprocess.run([A.hdem, "diff", a, b], capture_output=True, text=True)
    d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
    return d.get("identical", False), "" if d.get("identical") else json.dumps(d)[:300]


def pair_deck(tmp, name, v, wall, force):
    """Two spheres touching along x (or one on the floor: the box's, or
    wall == "mesh", tests/data/meshes/floor.stl at z = 1 mm) parting at v."""
    L, d0 = 0.01, 1e-9
    if wall:
        z0 = 0.001 if wall == "mesh" else 0.0
        atoms, vel = [(1, 1, 2 * R, RHO, L / 2, L / 2, z0 + R - d0)], [(1, 0, 0, v)]
    else:
        atoms = [(1, 1, 2 * R, RHO, L / 2 - R + d0 / 2, L / 2, L / 2), (2, 1, 2 * R, RHO, L / 2 + R - d0 / 2, L / 2, L / 2)]
        vel = [(1, -v / 2, 0, 0), (2, v / 2, 0, 0)]
    data = os.path.join(tmp, name + ".data")
    with open(data, "w") as f:
        f.write("pull-apart\n\n%d atoms\n1 atom types\n\n0 %g xlo xhi\n0 %g ylo yhi\n0 %g zlo zhi\n\nAtoms # sphere\n\n" % (len(atoms), L, L, L))
        for a in atoms:
            f.write("%d %d %.17g %g %.17g %.17g %.17g\n" % a)
        f.write("\nVelocities\n\n")
        for a in vel:
            f.write("%d %.17g %.17g %.17g 0 0 0\n" % a)
    deck = os.path.join(tmp, name + ".yaml")
    with open(deck, "w") as f:
        f.write("domain:\n  lo: [0, 0, 0]\n  hi: [%g, %g, %g]\n  periodic: [false, false, false]\n  walls: %s\n" % (L, L, L, "true" if wall is True else "false"))
        if wall == "mesh":
            f.write("mesh0:\n  file: %s\n" % os.path.join(os.path.dirname(os.path.abspath(A.deck)), "meshes", "floor.stl"))
        f.write("gravity: [0, 0, 0]\nmaterial:\n  E: 1.0e7\n  nu: 0.3\n  liquid: %g\n" % L0)
        f.write("contact:\n  law: hertz\n  damping: none\n  mu: 0\n  liquid_surface_tension: %g\n  liquid_bridge_fraction: %g\n  liquid_force: %s\n" % (GAMMA, FRAC, force))
        f.write("insert:\n  mode: lammps\n  file: %s\nend_time: 0.03\nthermo_interval: 20\n" % data)
    return deck


def willett_full(Rw, V, S, theta=0.0):
    """Willett et al. (2000), eq. 15, F = 2 pi R gamma F*."""
    lv, t = math.log(V / Rw ** 3), theta
    f1 = (-0.44507 + 0.050832 * t - 1.1466 * t * t) + (-0.1119 - 0.000411 * t - 0.1490 * t * t) * lv \
        + (-0.012101 - 0.0036456 * t - 0.01255 * t * t) * lv ** 2 + (-0.0005 - 0.0003505 * t - 0.00029076 * t * t) * lv ** 3
    f2 = (1.9222 - 0.57473 * t - 1.2918 * t * t) + (-0.0668 - 0.1201 * t - 0.22574 * t * t) * lv + (-0.0013375 - 0.0068988 * t - 0.01137 * t * t) * lv ** 2
    f3 = (1.268 - 0.01396 * t - 0.23566 * t * t) + (0.198 + 0.092 * t - 0.06418 * t * t) * lv \
        + (0.02232 + 0.02238 * t - 0.009853 * t * t) * lv ** 2 + (0.0008585 + 0.001318 * t - 0.00053 * t * t) * lv ** 3
    f4 = (-0.010703 + 0.073776 * t - 0.34742 * t * t) + (0.03345 + 0.04543 * t - 0.09056 * t * t) * lv + (0.0018574 + 0.004456 * t - 0.006257 * t * t) * lv ** 2
    x = math.log(max(0.5 * S * math.sqrt(Rw / V), 1e-8))  # their S+: half the gap
    return 2 * math.pi * Rw * GAMMA * math.exp(f1 - f2 * math.exp(f3 * x + f4 * x * x))


def bridge_work(Rw, V, force):
    """The capillary force's work from touching to Lian's rupture distance (theta = 0)."""
    q, sc = math.sqrt(V / Rw), V ** (1.0 / 3.0)
    if force == "willett_simple":  # F = F0 / (1 + 2.1 x + 10 x^2), x = s / (2 q): ds = 2 q dx
        D, X = math.sqrt(40.0 - 2.1 ** 2), sc / (2 * q)
        return 2 * math.pi * Rw * GAMMA * 2 * q * (2 / D) * (math.atan((20 * X + 2.1) / D) - math.atan(2.1 / D))
    n = 20000  # Simpson's rule
    h = sc / n
    s = willett_full(Rw, V, 0.0) + willett_full(Rw, V, sc)
    for k in range(1, n):
        s += (4 if k % 2 else 2) * willett_full(Rw, V, k * h)
    return s * h / 3


def test_pull_apart(tmp):
    m = 4.0 / 3.0 * math.pi * R ** 3 * RHO
    for wall, force in ((False, "willett_simple"), (False, "willett"), (True, "willett_simple"), ("mesh", "willett_simple")):
        Rw, V, mass = (2 * R, FRAC * L0, m) if wall else (R, 2 * FRAC * L0, m / 2)  # Willett's R; the bridge; the mass that parts
        W = bridge_work(Rw, V, force)
        v_esc = math.sqrt(2 * W / mass)
        what = "%s, %s" % ({True: "against the floor", "mesh": "against a mesh floor", False: "two spheres"}[wall], force)
        out = os.path.join(tmp, "pull_%s_%s" % (wall, force))
        run(1, pair_deck(tmp, "p%s%s" % (wall, force), 1.2 * v_esc, wall, force), out)
        th = thermo(out)
        ke0, ke1 = th[0]["ke_translational"], th[-1]["ke_translational"]
        check(abs((ke0 - ke1) / W - 1) < 5e-3, "%s: the bridge took %.6g J of kinetic energy, its force's work to Lian's distance %.6g J (%.2g %%)" % (
            what, ke0 - ke1, W, 100 * ((ke0 - ke1) / W - 1)))
        check(th[-1]["bridges"] == 0 and th[-2]["ke_translational"] == ke1, "%s: ruptured, no force beyond it (kinetic energy constant after)" % what)
        check(all(r["liquid_total"] == th[0]["liquid_total"] for r in th), "%s: liquid_total constant in every row" % what)
        import h5py
        with h5py.File(os.path.join(out, "final.h5"), "r") as f:
            liq = f["particles/liquid"][()]
        check(all(abs(x / L0 - 1) < 1e-15 for x in liq), "%s: each particle holds its liquid again after the rupture (%s)" % (what, list(liq)))
        if not wall and force == "willett_simple":
            two = out + "_np2"
            run(2, pair_deck(tmp, "p%s%s" % (wall, force), 1.2 * v_esc, wall, force), two, "-domain_grid", "2,1,1")
            ok, why = same(os.path.join(out, "final.h5"), os.path.join(two, "final.h5"))
            check(ok and thermo(two)[-1]["liquid_total"] == th[-1]["liquid_total"], "%s: the two on different ranks give the same bits %s" % (what, why))
        held = out + "_held"
        run(1, pair_deck(tmp, "h%s%s" % (wall, force), 0.95 * v_esc, wall, force), held)
        check(thermo(held)[-1]["bridges"] == 1, "%s: at 0.95 of the escape speed the bridge holds" % what)


WET = ["-material_liquid", "2e-11", "-contact_liquid_contact_angle", "15", "-contact_liquid_viscosity", "1e-3", "-steps", "2000"]


def test_ranks(tmp):
    deck = A.deck
    ref, rows0 = None, None
    for np_, grid in ((1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,2,1")):
        out = os.path.join(tmp, "wet_np%d" % np_)
        run(np_, deck, out, "-domain_grid", grid, *WET)
        th = thermo(out)
        cols = [(r["liquid_total"], r["bridges"]) for r in th]
        if ref is None:
            ref, rows0 = out, cols
            tot = [c[0] for c in cols]
            check(max(tot) > 0 and all(abs(t / tot[0] - 1) < 1e-12 for t in tot), "wet deck: liquid_total constant to round-off (%.17g .. %.17g)" % (min(tot), max(tot)))
            check(max(c[1] for c in cols) > 50, "wet deck: bridges form (%d at most)" % max(c[1] for c in cols))
            import h5py
            with h5py.File(os.path.join(out, "final.h5"), "r") as f:
                check("liquid" in f["particles"], "final.h5 holds /particles/liquid")
            continue
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(out, "final.h5"))
        check(ok, "wet deck on %d ranks (grid %s): final state bitwise identical to 1 rank %s" % (np_, grid, why))
        check(cols == rows0, "wet deck on %d ranks: liquid_total and bridges identical in every thermo row" % np_)


def test_restart(tmp):
    ref = os.path.join(tmp, "wet_ck")
    run(3, A.deck, ref, "-domain_grid", "3,1,1", *WET, "-checkpoint_interval_steps", "1000", "-checkpoint_keep", "5")
    for np_, grid in ((2, "1,2,1"), (4, "2,2,1")):
        d = os.path.join(tmp, "wet_cont%d" % np_)
        shutil.copytree(ref, d)
        os.remove(os.path.join(d, "final.h5"))
        run(np_, A.deck, d, "-domain_grid", grid, *WET, "-restart", os.path.join(d, "checkpoints", "step_000001000.h5"))
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))
        check(ok, "wet checkpoint written on 3 ranks at step 1000, continued on %d: bitwise identical %s" % (np_, why))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--deck", required=True)
    A = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_liquid_")
    try:
        test_pull_apart(tmp)
        test_ranks(tmp)
        test_restart(tmp)
    except RuntimeError as e:
        check(False, str(e))
    print("%d failed" % len(FAILS))
    if not FAILS:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
