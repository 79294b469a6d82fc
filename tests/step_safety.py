#!/usr/bin/python3
"""The adaptive step is safe from the first contact on, and energy that grows
without a source stops the run; at 1 and 2 ranks.

- A sphere at rest 0.3 mm above a floor falls (less than half the skin: the
  skin's bound alone lets it fall 0.5 mm in its first step) and lands: the overlap in the step
  of first touch is below a tenth of the largest overlap of a Hertz impact at its
  arrival speed sqrt(2 g h) (the approach bound allows one step of the contact's
  own bound, about 3.2/N of it at N steps per contact), and the energy never
  exceeds its source (thermo's dissipated never below zero by more than a
  thousandth of the energies).
- A bed at rest above a floor (tests/bad_input.py's deck, 50 spheres), soft and
  glass-stiff: no particle is thrown, the energy never exceeds its source, the
  run completes; before the approach bound, its first step drove the bottom layer
  8 % of a radius into the floor and gave 0.04 J (1.4 MJ with glass) from nothing.
- A pour: 200 spheres with random velocities falling onto each other and the floor.
- A fixed step too long for a linear spring: the energy grows without a source,
  the run fails (exit 3, failed.h5, summary.json "failed" with the reason), the
  same at 1 and 2 ranks; with -health_energy_action warn it warns and goes on.
  With no statistics for 100,000 steps (no thermo, -health_energy_interval
  100000) the step's own check (kinetic energy on the step's reduction) fails it
  by step 13 (measured: 12; kinetic energy alone is a lower bound of what the
  exact check at every step compares, which fails it at 11; before the step's
  check: step 838, by the tunnelling check).
- Blow-ups said as failures (exit 3, failed.h5): a sphere launched more than a box
  length along a periodic axis between two list builds (an internal error before),
  spheres a fixed step carries more than their radius (through a mesh floor, 31 of 50
  below it before); a state a fixed step cannot resolve is refused before any step.
- A glass dumbbell falling from rest onto a mesh floor: first touch no deeper than a
  tenth of its impact's largest overlap, energy never above its source.
"""
import argparse
import csv
import json
import math
import re
import os
import sys
import tempfile
import harness

check = harness.Checks("ok   ", "FAIL ")

BED = """domain:
  lo: [0, 0, 0]
  hi: [0.02, 0.02, 0.04]
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
insert:
  mode: lattice
  count: 50
  radius: 0.001
steps: 10
output_dir: out
snapshot:
  frames: 0
"""

DROP = """domain:
  lo: [0, 0, 0]
  hi: [0.05, 0.05, 0.05]
  walls: true
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
insert:
  mode: lammps
  file: drop.data
thermo_interval: 1
end_time: 0.012
snapshot:
  frames: 0
"""

R, RHO, GAP, G = 0.005, 2500.0, 3e-4, 9.81


def meshgen():
    """tools/meshgen.py as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("meshgen", harness.here("..", "tools", "meshgen.py"))
    mg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mg)
    return mg


def thermo(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def energy_within_source(rows, what):
    scale = max(max(r["ke_translational"] + r["ke_rotational"] + r["elastic"] + abs(r["dissipated"]) for r in rows), 1e-300)
    low = min(r["dissipated"] for r in rows)
    check(low >= -1e-3 * scale, "%s: the energy never exceeds its source (least dissipated %.3g J of %.3g J)" % (what, low, scale))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_step_safety_")

    def run(np_, args, expect=0):
        return harness.run(harness.mpi(a.mpiexec, np_) + [hdem, "run"] + args, expect=expect, cwd=work, timeout=300)

    with open(os.path.join(work, "drop.data"), "w") as f:
        f.write("drop\n\n1 atoms\n1 atom types\n\n0 0.05 xlo xhi\n0 0.05 ylo yhi\n0 0.05 zlo zhi\n\nAtoms # sphere\n\n")
        f.write("1 1 %.17g %.17g 0.025 0.025 %.17g\n" % (2 * R, RHO, R + GAP))
    for name, text in (("drop", DROP), ("bed", BED)):
        with open(os.path.join(work, name + ".yaml"), "w") as f:
            f.write(text)

    # Hertz against a wall of the same material: E* = E / (2 (1 - nu^2)), R* = R, m* = m.
    m = RHO * 4.0 / 3.0 * math.pi * R ** 3
    estar = 1.0e7 / (2.0 * (1.0 - 0.3 ** 2))
    v = math.sqrt(2.0 * G * GAP)
    dmax = (15.0 * m * v * v / (16.0 * estar * math.sqrt(R))) ** 0.4
    for np_ in (1, 2):
        out = "drop%d" % np_
        p = run(np_, ["drop.yaml", "-output_dir", out], expect=None)
        if not check(p.returncode == 0, "drop at %d rank(s): completes (%s)" % (np_, p.stderr.strip()[-300:])):
            continue
        rows = thermo(os.path.join(work, out, "thermo.csv"))
        first = next((r for r in rows if r["contacts"] > 0), None)
        check(first is not None, "drop at %d rank(s): the sphere lands" % np_)
        if first:
            d1 = first["max_overlap_ratio"] * R
            check(d1 <= 0.1 * dmax, "drop at %d rank(s): overlap at first touch %.3g m, at most 0.1 of the impact's largest %.3g m (%.3g)"
                  % (np_, d1, dmax, d1 / dmax))
        t_fall = math.sqrt(2.0 * (GAP + 0.1 * dmax) / G)
        check(rows[0]["dt"] <= t_fall, "drop at %d rank(s): the first step %.4g s is at most the fall to 0.1 of the overlap, %.4g s" % (np_, rows[0]["dt"], t_fall))
        energy_within_source(rows, "drop at %d rank(s)" % np_)

    for what, extra in (("soft bed", []), ("glass bed", ["-material_E", "6.3e10"]),
                        ("pour", ["-insert_count", "200", "-insert_velocity_random", "0.5"])):
        for np_ in (1, 2):
            out = "%s%d" % (what.replace(" ", "_"), np_)
            p = run(np_, ["bed.yaml", "-output_dir", out, "-steps", "600", "-thermo_interval", "1"] + extra, expect=None)
            if not check(p.returncode == 0 and "warning" not in p.stderr,
                         "%s at %d rank(s): completes without a warning (%s)" % (what, np_, p.stderr.strip()[-200:])):
                continue
            rows = thermo(os.path.join(work, out, "thermo.csv"))
            vmax = max(math.sqrt(2.0 * r["ke_translational"] / (50 * RHO * 4.0 / 3.0 * math.pi * 1e-9)) for r in rows) if what != "pour" else 0.0
            if what != "pour":
                check(vmax < 0.1, "%s at %d rank(s): nothing is thrown (rms speed at most %.3g m/s)" % (what, np_, vmax))
            check(max(r["max_overlap_ratio"] for r in rows) < 0.05, "%s at %d rank(s): no overlap beyond 5 %% of a radius" % (what, np_))
            energy_within_source(rows, "%s at %d rank(s)" % (what, np_))

    long_step = ["-contact_law", "linear", "-contact_k", "1000", "-contact_e", "0.9", "-timestep_mode", "fixed", "-timestep_dt", "2.2e-4",
                 "-steps", "3000", "-thermo_interval", "10"]
    reasons = []
    for np_ in (1, 2):
        out = "grow%d" % np_
        p = run(np_, ["bed.yaml", "-output_dir", out] + long_step, expect=None)
        d = os.path.join(work, out)
        check(p.returncode == 3 and "energy grew without a source" in p.stderr,
              "a step too long at %d rank(s): exit 3, the energy's growth said (%d: %s)" % (np_, p.returncode, p.stderr.strip()[-300:]))
        check(os.path.exists(os.path.join(d, "failed.h5")) and not os.path.exists(os.path.join(d, "final.h5")),
              "a step too long at %d rank(s): failed.h5 written, no final.h5" % np_)
        try:
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
        except (OSError, ValueError):
            s = {}
        check(s.get("status") == "failed" and "energy grew" in s.get("reason", ""), "a step too long at %d rank(s): summary.json says failed, why" % np_)
        reasons.append(s.get("reason"))
        p = run(np_, ["bed.yaml", "-output_dir", out + "w", "-health_energy_action", "warn"] + long_step, expect=None)
        check("warning" in p.stderr and "energy grew without a source" in p.stderr and p.stderr.count("energy grew") == 1,
              "-health_energy_action warn at %d rank(s): one warning (%s)" % (np_, p.stderr.strip()[-200:]))
    check(len(reasons) == 2 and reasons[0] == reasons[1], "a step too long: the same reason at 1 and 2 ranks")
    sparse = long_step[:-1] + ["100000", "-health_energy_interval", "100000"]
    for np_ in (1, 2):
        out = "sparse%d" % np_
        p = run(np_, ["bed.yaml", "-output_dir", out] + sparse, expect=None)
        at = re.search(r"failed at step (\d+),", p.stderr)
        check(p.returncode == 3 and at and int(at.group(1)) <= 13 and "energy grew without a source: kinetic " in p.stderr,
              "a step too long with no statistics for 100,000 steps at %d rank(s): the step's check fails it by step 13, "
              "the exact check at every step at 11 (%d: %s)" % (np_, p.returncode, p.stderr.strip()[-300:]))
    blowups(a, work, run)
    dumbbell(a, work, run)
    return check.report()


PERIODIC = """domain:
  lo: [0, 0, 0]
  hi: [0.1, 0.05, 0.05]
  periodic: [true, false, false]
  walls: true
gravity: [0, 0, 0]
material:
  E: 1.0e11
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
insert:
  mode: lammps
  file: {data}
  overlap_max: 0.5
timestep:
  mode: fixed
  dt: 1.0e-4
steps: 20
snapshot:
  frames: 0
"""

FLOOR = """domain:
  lo: [-0.05, -0.05, -0.05]
  hi: [0.05, 0.05, 0.1]
  walls: false
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  e: 0.5
insert:
  mode: lattice
  count: 50
  radius: 0.002
  region:
    lo: [-0.04, -0.04, 0.01]
    hi: [0.04, 0.04, 0.06]
mesh0:
  file: plane.stl
end_time: 0.3
snapshot:
  frames: 0
"""


def data2(path, atoms):
    """atoms: (x, y, z, vx); diameter 10 mm, density 2500, in PERIODIC's box."""
    with open(path, "w") as f:
        f.write("pair\n\n%d atoms\n1 atom types\n\n0 0.1 xlo xhi\n0 0.05 ylo yhi\n0 0.05 zlo zhi\n\nAtoms # sphere\n\n" % len(atoms))
        for n, at in enumerate(atoms, 1):
            f.write("%d 1 0.01 2500 %.17g %.17g %.17g\n" % (n, at[0], at[1], at[2]))
        f.write("\nVelocities\n\n")
        for n, at in enumerate(atoms, 1):
            f.write("%d %.17g 0 0 0 0 0\n" % (n, at[3]))


def blowups(a, work, run):
    """Blow-ups that went unsaid or said as an internal error: each exits 3 with
    failed.h5 and summary.json's reason, the same at 1 and 2 ranks; a state a
    fixed step cannot resolve is refused before the first step."""
    mg = meshgen()
    mg.write(os.path.join(work, "plane.stl"), mg.plane(0.1, 0.1, 10, 10))
    data2(os.path.join(work, "pair.data"), [(0.05, 0.025, 0.025, 0.0), (0.058, 0.025, 0.025, 0.0)])
    data2(os.path.join(work, "fast.data"), [(0.05, 0.025, 0.025, 200.0), (0.02, 0.025, 0.01, 0.0)])
    for name, text in (("pair", PERIODIC.format(data="pair.data")), ("fast", PERIODIC.format(data="fast.data")), ("floor", FLOOR)):
        with open(os.path.join(work, name + ".yaml"), "w") as f:
            f.write(text)
    cases = (("two spheres pressed 0.2 diameters into each other with glass's stiffness and a fixed step", "pair.yaml", [],
              "more than the box length"),
             ("spheres falling onto a mesh with a fixed step of 10 ms", "floor.yaml", ["-timestep_mode", "fixed", "-timestep_dt", "1e-2"],
              "more than its radius"))
    for what, deck, extra, said in cases:
        reasons = []
        for np_ in (1, 2):
            out = "%s_blow%d" % (deck[:-5], np_)
            p = run(np_, [deck, "-output_dir", out] + extra, expect=None)
            d = os.path.join(work, out)
            try:
                with open(os.path.join(d, "summary.json")) as f:
                    s = json.load(f)
            except (OSError, ValueError):
                s = {}
            reasons.append(s.get("reason"))
            check(p.returncode == 3 and said in p.stderr and os.path.exists(os.path.join(d, "failed.h5")) and s.get("status") == "failed",
                  "%s at %d rank(s): exit 3, failed.h5, '%s' (%d: %s)" % (what, np_, said, p.returncode, p.stderr.strip()[-300:]))
        check(reasons[0] is not None and reasons[0] == reasons[1], "%s: the same reason at 1 and 2 ranks" % what)
    for np_ in (1, 2):
        p = run(np_, ["fast.yaml", "-output_dir", "fast%d" % np_], expect=None)
        check(p.returncode == 1 and "the initial state" in p.stderr and "more than its radius" in p.stderr
              and not os.path.exists(os.path.join(work, "fast%d" % np_)),
              "a sphere at 200 m/s with a fixed step of 0.1 ms, at %d rank(s): refused before any step (%s)" % (np_, p.stderr.strip()[-200:]))


DUMBBELL = """domain:
  lo: [-0.01, -0.01, -0.005]
  hi: [0.01, 0.01, 0.02]
  walls: false
gravity: [0, 0, -9.81]
material:
  E: 6.3e10
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
clump0:
  spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]
insert:
  mode: lammps
  file: dumbbell.data
  body: clump0
mesh0:
  file: small.stl
end_time: 0.03
thermo_interval: 1
snapshot:
  frames: 0
"""


def dumbbell(a, work, run):
    """A glass dumbbell at rest 0.05 mm above a mesh floor (half the skin's bound
    alone would let it fall 0.1 mm in its first step) falls and lands: first touch no deeper than a tenth of its impact's largest
    overlap (the body's mass projected on the normal), energy never above its
    source."""
    mg = meshgen()
    mg.write(os.path.join(work, "small.stl"), mg.plane(0.02, 0.02, 4, 4))
    with open(os.path.join(work, "dumbbell.yaml"), "w") as f:
        f.write(DUMBBELL)
    with open(os.path.join(work, "dumbbell.data"), "w") as f:  # level, 0.05 mm above the floor
        f.write("dumbbell\n\n2 atoms\n1 atom types\n\n-0.01 0.01 xlo xhi\n-0.01 0.01 ylo yhi\n-0.005 0.02 zlo zhi\n\nAtoms # sphere\n\n"
                "1 1 0.002 2500 -0.0006 0 0.00105\n2 1 0.002 2500 0.0006 0 0.00105\n\nMolecules\n\n1 1\n2 1\n")
    for np_ in (1, 2):
        out = "dumbbell%d" % np_
        p = run(np_, ["dumbbell.yaml", "-output_dir", out], expect=None)
        if not check(p.returncode == 0 and "warning" not in p.stderr, "dumbbell on a mesh at %d rank(s): completes without a warning (%s)"
                     % (np_, p.stderr.strip()[-300:])):
            continue
        rows = thermo(os.path.join(work, out, "thermo.csv"))
        first = next((r for r in rows if r["contacts"] > 0), None)
        if not check(first is not None, "dumbbell on a mesh at %d rank(s): it lands" % np_):
            continue
        # level: both spheres land together, each with its own mass and the speed the fall gave them
        h = [r for r in rows if r["step"] < first["step"]]
        m1 = RHO * 4.0 / 3.0 * math.pi * 1e-9
        estar = 6.3e10 / (2.0 * (1.0 - 0.3 ** 2))
        v = math.sqrt(2.0 * max(h[-1]["ke_translational"], 1e-300) / (2 * m1))
        dmax = (15.0 * m1 * v * v / (16.0 * estar * math.sqrt(1e-3))) ** 0.4
        d1 = first["max_overlap_ratio"] * 1e-3
        check(d1 <= 0.1 * dmax, "dumbbell on a mesh at %d rank(s): overlap at first touch %.3g m, at most 0.1 of the impact's largest %.3g m"
              % (np_, d1, dmax))
        energy_within_source(rows, "dumbbell on a mesh at %d rank(s)" % np_)


if __name__ == "__main__":
    sys.exit(main())
