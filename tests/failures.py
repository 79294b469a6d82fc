#!/usr/bin/python3
"""Runs that must not fail, and runs that must fail loudly, at 1 and 2 ranks.

- The adaptive step must not stall: a sphere rolling along a wall, one sliding on a
  frictionless wall, and a bed of spheres sliding along a frictionless floor (each
  at 0.5 m/s, resting on the wall under gravity) reach their end time within a
  bounded number of steps and have travelled 0.5 m/s x t.
- A particle launched at 1e300 m/s is refused before the first step (its step
  bound is below the floor), naming it, and nothing is written.
- A blow-up is a failure: a fixed step far above the contact bound (particles
  through the walls), and a contact so soft that two spheres overlap by more than
  half a radius (caught in the step it happens, not at a thermo row), exit with 3, names the particle and the quantity on stderr
  and in summary.json ("status": "failed", "reason"), writes failed.h5 and
  failed.xdmf and no final.h5 and no checkpoint of the failing step; the reason is
  the same at 1 and 2 ranks.
- A data file whose particles overlap is refused before any step (exit 1, nothing
  written) unless insert_overlap_max allows it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import harness

check = harness.Checks("ok   ", "FAIL ")
FAILS = check.failures


HEAD = """domain:
  lo: [0, 0, 0]
  hi: [{lx}, 0.05, 0.05]
  periodic: [{px}, false, false]
  walls: true
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
  mu: {mu}
thermo_interval: 1
snapshot:
  frames: 0
"""


def data_file(path, atoms, lx=0.2):
    """atoms: (x, y, z, vx, vy, vz, wx, wy, wz), diameter 10 mm, density 2500."""
    with open(path, "w") as f:
        f.write("test\n\n%d atoms\n1 atom types\n\n0 %g xlo xhi\n0 0.05 ylo yhi\n0 0.05 zlo zhi\n\nAtoms # sphere\n\n" % (len(atoms), lx))
        for n, a in enumerate(atoms, 1):
            f.write("%d 1 0.01 2500 %.17g %.17g %.17g\n" % (n, a[0], a[1], a[2]))
        f.write("\nVelocities\n\n")
        for n, a in enumerate(atoms, 1):
            f.write("%d %.17g %.17g %.17g %.17g %.17g %.17g\n" % ((n,) + tuple(a[3:])))


def h5_positions(path):
    import h5py
    with h5py.File(path, "r") as f:
        ids = f["particles/id"][:]
        x = f["particles/position"][:]
        v = f["particles/velocity"][:]
        return dict(zip(ids.tolist(), x.tolist())), dict(zip(ids.tolist(), v.tolist())), float(f.attrs["time"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    work = tempfile.mkdtemp(prefix="hdem_failures_")

    def run(np, args, timeout=120):
        cmd = [a.mpiexec, "--oversubscribe", "-np", str(np), hdem] + args
        try:
            p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return None, "", "timed out after %d s" % timeout

    # Rest on the floor: centre at z = r less the static overlap (the run finds it).
    r, T = 0.005, 0.2
    cases = {
        "rolling": (HEAD.format(lx=0.2, px="false", mu=0.5), [(0.02, 0.025, r, 0.5, 0, 0, 0, 0.5 / r, 0)]),
        "sliding": (HEAD.format(lx=0.2, px="false", mu=0.0), [(0.02, 0.025, r, 0.5, 0, 0, 0, 0, 0)]),
        "bed": (HEAD.format(lx=0.1, px="true", mu=0.0),
                [(0.005 + 0.0101 * i, 0.005 + 0.0101 * j, r, 0.5, 0, 0, 0, 0, 0) for i in range(9) for j in range(4)]),
    }
    for name, (deck, atoms) in cases.items():
        data_file(os.path.join(work, name + ".data"), atoms, 0.1 if name == "bed" else 0.2)
        with open(os.path.join(work, name + ".yaml"), "w") as f:
            f.write(deck + "insert:\n  mode: lammps\n  file: %s.data\nend_time: %g\n" % (name, T))
        for np in (1, 2):
            out = "%s_np%d" % (name, np)
            rc, so, se = run(np, ["run", name + ".yaml", "-output_dir", out], timeout=120)
            check(rc == 0, "%s at %d rank(s): completes (%s)" % (name, np, se.strip()[-300:]))
            if rc != 0:
                continue
            with open(os.path.join(work, out, "summary.json")) as f:
                s = json.load(f)
            check(s["simulated_time"] >= T and s["steps"] < 200000, "%s at %d rank(s): reaches t = %g in %d steps (dt_min %g)" % (name, np, T, s["steps"], s["dt_min"]))
            check(s["dt_min"] > 1e-7, "%s at %d rank(s): the step never collapses (dt_min %g s)" % (name, np, s["dt_min"]))
            x, v, t = h5_positions(os.path.join(work, out, "final.h5"))
            if name == "bed":
                vx = sum(v[k][0] for k in v) / len(v)
                check(abs(vx - 0.5) < 1e-9 and len(x) == len(atoms), "bed at %d rank(s): all %d slide on at 0.5 m/s (mean vx %.12g)" % (np, len(x), vx))
            else:
                dx = x[1][0] - atoms[0][0]
                check(abs(dx - 0.5 * t) < 1e-6, "%s at %d rank(s): travelled 0.5 m/s x t = %.6g m (%.9g)" % (name, np, 0.5 * t, dx))

    # Blow-ups.
    reasons = {}
    data_file(os.path.join(work, "fast.data"), [(0.05, 0.025, 0.025, 1e300, 0, 0, 0, 0, 0), (0.1, 0.025, 0.025, 0, 0, 0, 0, 0, 0)])
    with open(os.path.join(work, "fast.yaml"), "w") as f:
        f.write(HEAD.format(lx=0.2, px="false", mu=0.5) + "insert:\n  mode: lammps\n  file: fast.data\nend_time: 0.1\ncheckpoint:\n  interval_steps: 1\n")
    stiff = ["-domain_hi", "0.02,0.02,0.04", "-gravity", "0,0,-9.81", "-insert_mode", "lattice", "-insert_count", "200", "-insert_radius", "0.001",
             "-insert_velocity_random", "0.5", "-material_E", "1e9", "-timestep_mode", "fixed", "-timestep_dt", "2e-4", "-steps", "3000",
             "-checkpoint_interval_steps", "1000"]
    with open(os.path.join(work, "box.yaml"), "w") as f:
        f.write("domain:\n  lo: [0, 0, 0]\n  hi: [0.02, 0.02, 0.04]\nthermo_interval: 10\n")
    # A state that cannot be stepped is refused before the first step, naming the particle.
    for np in (1, 2):
        rc, so, se = run(np, ["run", "fast.yaml", "-output_dir", "fast%d" % np])
        check(rc == 1 and "the initial state" in se and "particle 1" in se and "1e+300 m/s" in se and not os.path.exists(os.path.join(work, "fast%d" % np)),
              "a particle at 1e300 m/s refused at %d rank(s) before any step, nothing written (%s)" % (np, se.strip()[-300:]))
    data_file(os.path.join(work, "soft.data"), [(0.05, 0.025, 0.025, 5, 0, 0, 0, 0, 0), (0.1, 0.025, 0.025, 0, 0, 0, 0, 0, 0)])
    with open(os.path.join(work, "soft.yaml"), "w") as f:
        f.write(HEAD.format(lx=0.2, px="false", mu=0.5) + "insert:\n  mode: lammps\n  file: soft.data\nend_time: 0.1\n")
    for name, args, want in (("stiff", ["run", "box.yaml"] + stiff, "particle"),
                             ("soft", ["run", "soft.yaml", "-material_E", "1e3", "-gravity", "0,0,0", "-thermo_interval", "1000"], "particles 1 and 2 overlap by")):
        for np in (1, 2):
            out = "%s_np%d" % (name, np)
            rc, so, se = run(np, args + ["-output_dir", out])
            d = os.path.join(work, out)
            check(rc == 3, "%s at %d rank(s): exit code 3 (got %s)" % (name, np, rc))
            check("hdem: FAILED:" in so and want in se and "the run failed" in se, "%s at %d rank(s): says why, naming the %s (%s)" % (name, np, want, se.strip()[-300:]))
            check(os.path.isfile(os.path.join(d, "failed.h5")) and os.path.isfile(os.path.join(d, "failed.xdmf")), "%s at %d rank(s): failed.h5 and failed.xdmf" % (name, np))
            check(not os.path.exists(os.path.join(d, "final.h5")), "%s at %d rank(s): no final.h5" % (name, np))
            try:
                with open(os.path.join(d, "summary.json")) as f:
                    s = json.load(f)
            except (OSError, ValueError):
                s = {}
            check(s.get("status") == "failed" and s.get("reason"), "%s at %d rank(s): summary.json status failed with the reason" % (name, np))
            ck = os.path.join(d, "checkpoints")
            steps = sorted(int(n[5:14]) for n in os.listdir(ck) if n.startswith("step_") and n.endswith(".h5")) if os.path.isdir(ck) else []
            check(all(st < s.get("steps", 0) for st in steps), "%s at %d rank(s): no checkpoint of the failing step (%s, failed at %s)" % (name, np, steps, s.get("steps")))
            reasons.setdefault(name, []).append(s.get("reason"))
        check(len(set(reasons[name])) == 1, "%s: the same failure at 1 and 2 ranks" % name)

    # Overlapping particles in a data file.
    data_file(os.path.join(work, "ov.data"), [(0.05, 0.025, 0.025, 0, 0, 0, 0, 0, 0), (0.0595, 0.025, 0.025, 0, 0, 0, 0, 0, 0)])
    with open(os.path.join(work, "ov.yaml"), "w") as f:
        f.write(HEAD.format(lx=0.2, px="false", mu=0.5) + "insert:\n  mode: lammps\n  file: ov.data\nend_time: 0.001\n")
    for np in (1, 2):
        rc, so, se = run(np, ["run", "ov.yaml", "-output_dir", "ov%d" % np])
        check(rc == 1 and "particles 1 and 2" in se and "insert_overlap_max" in se and not os.path.exists(os.path.join(work, "ov%d" % np)),
              "overlapping data file refused at %d rank(s), nothing written (%s)" % (np, se.strip()[-200:]))
    rc, so, se = run(1, ["run", "ov.yaml", "-output_dir", "ov_ok", "-insert_overlap_max", "0.2"])
    check(rc == 0, "accepted with insert_overlap_max 0.2 (%s)" % se.strip()[-200:])

    # A mesh file rank 0 cannot read, at 2 ranks: one error, said once, no rank aborting (a race without the fix: run it thrice).
    for n in range(3):
        rc, so, se = run(2, ["check", "box.yaml", "-steps", "1", "-mesh0_file", "nothing.stl"])
        check(rc == 1 and se.count("hdem: error") == 1 and "-mesh0_file nothing.stl" in se and "MPI_ABORT" not in se,
              "an unreadable mesh at 2 ranks (try %d): exit 1, one message, no MPI_ABORT (%s)" % (n + 1, se.strip()[-300:]))

    # A full disk (tests/write_fault.c's shim, built beside hdem): said as such, naming the file.
    shim = os.path.join(os.path.dirname(hdem), "tests", "libhdem_write_fault.so")
    if os.path.exists(shim):
        for np in (1, 2):
            cmd = [a.mpiexec, "--oversubscribe", "-np", str(np), "-x", "LD_PRELOAD=" + shim, "-x", "HDEM_FAULT_RANK=%d" % (np - 1),
                   "-x", "HDEM_FAULT_FILE=final.h5", hdem, "run", "box.yaml"] + stiff[:-8] + ["-steps", "20", "-output_dir", "full%d" % np]
            try:
                p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120)
                rc, se = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, se = None, "timed out after 120 s"
            check(rc not in (0, None) and "no space left on device" in se and "full%d/final.h5" % np in se,
                  "a full disk at %d rank(s): exit non-zero, says no space left on device, names final.h5 (%s)" % (np, se.strip()[:300]))
    else:
        print("skip a full disk: %s not built" % shim)

    if FAILS:
        print("%d failed (outputs in %s)" % (len(FAILS), work))
        return 1
    subprocess.run(["rm", "-rf", work])
    return 0


if __name__ == "__main__":
    sys.exit(main())
