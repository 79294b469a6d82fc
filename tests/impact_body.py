#!/usr/bin/python3
"""hdem impact -impact_body: a multi-sphere body striking a wall.

A frictionless dumbbell (two 1 mm spheres 1.2 mm apart) tilted by 30 deg,
harmonic damping e 0.7: the first contact point's normal restitution within
0.5 % of the target and the velocity and spin after within 1 % of the
impulse solution; a list of speeds on 2 ranks prints what 1 rank prints;
a body that is not a template is an error naming the key."""
import argparse
import json
import subprocess
import sys
import harness

OPTS = ["-impact_body", "clump0", "-clump0_spheres", "-0.6e-3,0,0,1e-3,0.6e-3,0,0,1e-3", "-impact_orientation", "0.9659258263,0,0.2588190451,0",
        "-impact_angle", "16.69924423", "-impact_type", "1", "-impact_type2", "2", "-material1_E", "7e10", "-material1_nu", "0.3", "-material1_density", "2500",
        "-material2_E", "inf", "-contact_damping", "harmonic", "-contact_e", "0.7", "-contact_mu", "0", "-timestep_steps_per_contact", "400"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    a = ap.parse_args()
    fails = []
    p = subprocess.run([a.hdem, "impact", *OPTS, "-impact_v0", "1.0440307"], capture_output=True, text=True)
    r = json.loads(p.stdout) if p.returncode == 0 else None
    if r is None:
        fails.append("exit %d: %s" % (p.returncode, p.stderr[-500:]))
    else:
        vref, wref = r["velocity_impulse"], r["angular_velocity_impulse"]
        wn = max(abs(x) for x in wref)
        ok = abs(r["e"] - 0.7) <= 0.005 * 0.7 and all(abs(x - y) <= 0.01 for x, y in zip(r["velocity_out"], vref)) and \
            all(abs(x - y) <= 0.01 * wn for x, y in zip(r["angular_velocity_out"], wref)) and r["spheres_touching"] == 1
        print("%s e %.6f, velocity %s (impulse %s), spin %s (impulse %s)" % ("PASS" if ok else "FAIL", r["e"], r["velocity_out"], vref, r["angular_velocity_out"], wref))
        if not ok:
            fails.append("restitution or impulse")
    speeds = ["-impact_v0", "0.3,1,3"]
    one = subprocess.run([a.hdem, "impact", *OPTS, *speeds], capture_output=True, text=True)
    mpi = harness.mpi(a.mpiexec, 2)
    two = subprocess.run(mpi + [a.hdem, "impact", *OPTS, *speeds], capture_output=True, text=True)
    ok = one.returncode == 0 and two.returncode == 0 and one.stdout == two.stdout and len(json.loads(one.stdout)) == 3
    print("%s three speeds on 1 and on 2 ranks: the same output" % ("PASS" if ok else "FAIL"))
    if not ok:
        fails.append("ranks")
    bad = subprocess.run([a.hdem, "impact", "-impact_body", "clump4"], capture_output=True, text=True)
    ok = bad.returncode != 0 and "-impact_body clump4" in bad.stderr and not bad.stdout
    print("%s an undefined template is an error naming the key" % ("PASS" if ok else "FAIL"))
    if not ok:
        fails.append("error")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
