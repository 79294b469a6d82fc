#!/usr/bin/python3
"""Bad input to `hdem impact` is a clear error before any step: non-zero exit,
a message that names the key (or file) and, for ranges, the allowed range,
and nothing on stdout (no partial result)."""
import argparse
import subprocess
import sys

CASES = [
    (["-contact_e", "1.5"], ["-contact_e", "(0, 1]"]),
    (["-contact_e", "0"], ["-contact_e", "(0, 1]"]),
    (["-contact_e", "abc"], ["contact_e"]),
    (["-contact_ee", "0.5"], ["unknown key contact_ee", "did you mean contact_e?"]),
    (["-contact_law", "hooke"], ["-contact_law", "hooke"]),
    (["-contact_law", "linear"], ["-contact_k"]),
    (["-contact_law", "linear", "-contact_k", "-5"], ["-contact_k", "(0, inf)"]),
    (["-contact_law", "power", "-contact_k", "1e9", "-contact_p", "0.5"], ["-contact_p", "[1, 1000]"]),
    (["-contact_law", "poly", "-contact_poly_k", "1e5,1e9", "-contact_poly_p", "1"], ["-contact_poly_k", "-contact_poly_p"]),
    (["-contact_law", "table", "-contact_table_file", "/nonexistent/law.txt"], ["/nonexistent/law.txt"]),
    (["-contact_law", "table", "-contact_table_delta", "0,1e-6,2e-6", "-contact_table_force", "0,2,1"], ["increase"]),
    (["-contact_law", "poly", "-contact_poly_k", "1e5,1e9", "-contact_poly_p", "1,1.5", "-contact_damping", "tsuji"], ["tsuji", "power law"]),
    (["-contact_damping", "linear_dashpot"], ["linear_dashpot", "-contact_law linear"]),
    (["-contact_damping", "constant_damper", "-contact_separation", "overlap"], ["constant_damper", "force"]),
    (["-contact_e", "0.5", "-contact_damping_coeff", "0.2"], ["-contact_e", "-contact_damping_coeff"]),
    (["-contact_separation", "sticky"], ["-contact_separation", "sticky"]),
    (["-material_nu", "0.7"], ["-material_nu", "(-1, 0.5]"]),
    (["-material_E", "0"], ["-material_E"]),
    (["-impact_angle", "95"], ["-impact_angle", "[0, 90)"]),
    (["-impact_v0", "-1"], ["-impact_v0"]),
    (["-timestep_mode", "fixed"], ["-timestep_dt"]),
    (["-timestep_dt", "1e-7"], ["-timestep_mode fixed"]),
    (["-timestep_steps_per_contact", "0"], ["-timestep_steps_per_contact"]),
    (["-contact_mu", "-0.1"], ["-contact_mu"]),
    (["-contact_law", "hertz", "-contact_tangential_stiffness", "constant"], ["-contact_kt"]),
    (["-impact_v0", "nan"], ["-impact_v0", "not a finite number"]),
    (["-impact_omega", "0,1e300,0"], ["-impact_omega", "1e+300", "[-1e+08, 1e+08]"]),
]


# Three slabs of 6.6 mm / 3 along x against the 2.2 mm ghost cutoff of 1 mm spheres
# (skin 0.2 mm): one slab is 2.1999999999999997 mm by rounding.
NARROW_DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.0066, 0.02, 0.02]
  periodic: [false, false, false]
  walls: true
  grid: [3, 1, 1]
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
particle:
  density: 2500
contact:
  law: hertz
  damping: harmonic
  e: 0.5
insert:
  mode: lattice
  count: 20
  seed: 1
  spacing: 1.1
  radius:
    distribution: uniform
    min: 1.0e-3
    max: 1.0e-3
steps: 5
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", help="also the checks that need several ranks")
    args = ap.parse_args()
    passed = failed = 0
    for opts, needles in CASES:
        p = subprocess.run([args.hdem, "impact", *opts], capture_output=True, text=True)
        problems = []
        if p.returncode == 0:
            problems.append("exit code 0")
        if p.stdout.strip():
            problems.append("wrote to stdout: %r" % p.stdout[:80])
        for n in needles:
            if n not in p.stderr:
                problems.append("message lacks %r" % n)
        if len(p.stderr.strip().splitlines()) > 3:
            problems.append("message is not short: %d lines" % len(p.stderr.strip().splitlines()))
        status = "FAIL" if problems else "PASS"
        passed += not problems
        failed += bool(problems)
        print("%s %-70s %s" % (status, " ".join(opts), "; ".join(problems) or p.stderr.strip().splitlines()[0]))
    # hdem run: bad decks are errors before any step, and nothing is written
    import os, tempfile
    tmp = tempfile.mkdtemp(prefix="hdem_cli_")
    good = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "bitwise.yaml")
    bad_key = os.path.join(tmp, "badkey.yaml")
    open(bad_key, "w").write(open(good).read() + "insrt:\n  count: 5\n")
    bad_yaml = os.path.join(tmp, "bad.yaml")
    open(bad_yaml, "w").write("domain: {lo: [0, 0\n")
    def lammps_deck(name, atoms):
        data = os.path.join(tmp, name + ".data")
        open(data, "w").write("t\n\n%d atoms\n1 atom types\n\n0 0.01 xlo xhi\n0 0.01 ylo yhi\n0 0.03 zlo zhi\n\nAtoms # sphere\n\n%s\n"
                              % (len(atoms), "\n".join("%d 1 %s 2500 %s" % (k + 1, d, x) for k, (d, x) in enumerate(atoms))))
        deck = os.path.join(tmp, name + ".yaml")
        open(deck, "w").write("domain: {lo: [0, 0, 0], hi: [0.01, 0.01, 0.01], periodic: [false, false, false]}\n"
                              "material: {E: 1.0e7, nu: 0.3}\ncontact: {law: hertz, e: 0.5}\n"
                              "insert: {mode: lammps, file: %s}\nsteps: 5\n" % data)
        return deck
    outside = lammps_deck("outside", [("0.001", "0.005 0.005 0.005"), ("0.001", "0.005 0.005 0.02")])
    huge = lammps_deck("huge", [("1e300", "0.005 0.005 0.005")])
    same = lammps_deck("same", [("0.001", "0.005 0.005 0.005"), ("0.001", "0.005 0.005 0.005")])
    run_cases = [
        ([outside], ["atom 2 of", "outside.data", "outside the domain along z"]),
        ([huge], ["huge.data:", "atom 1 has diameter '1e300'", "allowed [2e-09, 2000]"]),
        ([same], ["particles 1 and 2 have the same centre"]),
        ([os.path.join(tmp, "missing.yaml")], ["cannot open deck", "missing.yaml"]),
        ([bad_key], ["unknown key insrt_count", "deck", "badkey.yaml", "did you mean insert_count?"]),
        ([bad_yaml], ["bad.yaml", "YAML"]),
        ([good, "-insert_count", "100000"], ["-insert_count", "does not fit"]),
        ([good, "-contact_e", "2"], ["-contact_e", "(0, 1]", "(command line)"]),
        ([good, "-domain_hi", "0,0,0"], ["-domain_hi"]),
        ([good, "-domain_grid", "3,1,1"], ["-domain_grid"]),
        ([good, "-balance_mode", "shift"], ["-balance_mode", "shift", "rcb"]),
        ([good, "-insert_type", "4294967298"], ["-insert_type", "[0, 2147483647]"]),
        ([good, "-balance_interval", "0"], ["-balance_interval", "(command line)"]),
        ([good, "-balance_threshold", "0.9"], ["-balance_threshold", "[1, inf)"]),
        ([good, "-gravity", "nan,0,0"], ["-gravity", "not a finite number"]),
        ([good, "-insert_velocity", "inf,0,0"], ["-insert_velocity", "not a finite number"]),
        ([good, "-neighbor_skin", "nan"], ["-neighbor_skin", "not a finite number"]),
        ([good, "-gravity", "-9.81"], ["-gravity", "takes 3 values", "got 1"]),
        ([good, "-domain_periodic", "1"], ["-domain_periodic", "takes 3 values"]),
        ([good, "-domain_lo", "0,0,0,5"], ["-domain_lo", "takes 3 values", "got 4"]),
        ([good, "-insert_radius_distribution", "discrete", "-insert_radius_values", ",".join(["1e-3"] * 17)], ["-insert_radius_values", "1 to 16", "got 17"]),
    ]
    for opts, needles in run_cases:
        out = os.path.join(tmp, "out%d" % (passed + failed))
        p = subprocess.run([args.hdem, "run", *opts, "-output_dir", out], capture_output=True, text=True)
        problems = []
        if p.returncode == 0:
            problems.append("exit code 0")
        if os.path.exists(out):
            problems.append("wrote %s" % out)
        for n in needles:
            if n not in p.stderr:
                problems.append("message lacks %r" % n)
        status = "FAIL" if problems else "PASS"
        passed += not problems
        failed += bool(problems)
        print("%s run %-60s %s" % (status, " ".join(os.path.basename(o) for o in opts), "; ".join(problems) or p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""))
    # several ranks: slabs equal but for rounding (6.6 mm over 3 against a 2.2 mm
    # cutoff) fail the cutoff check on every rank alike, not on one (which hung the rest)
    if args.mpiexec:
        narrow = os.path.join(tmp, "narrow.yaml")
        open(narrow, "w").write(NARROW_DECK)
        out = os.path.join(tmp, "out_narrow")
        cmd = [args.mpiexec, "-np", "3", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
        try:
            p = subprocess.run(cmd + [args.hdem, "run", narrow, "-output_dir", out], capture_output=True, text=True, timeout=120)
            ok = p.returncode != 0 and "ghost cutoff" in p.stderr and "along axis 0" in p.stderr and not os.path.exists(out)
            why = p.stderr.strip().splitlines()[0] if p.stderr.strip() else "no message"
        except subprocess.TimeoutExpired:
            ok, why = False, "hung (120 s)"
        print("%s run narrow.yaml on 3 ranks (cutoff vs the narrowest slab) %s" % ("PASS" if ok else "FAIL", why))
        passed += ok
        failed += not ok
        # an input error every rank finds alike: said once, a clean exit (no MPI_Abort)
        out = os.path.join(tmp, "out_outside2")
        p = subprocess.run(cmd[:2] + ["2"] + cmd[3:] + [args.hdem, "run", outside, "-output_dir", out], capture_output=True, text=True, timeout=120)
        ok = p.returncode == 1 and p.stderr.count("outside the domain") == 1 and "MPI_ABORT" not in p.stderr and not os.path.exists(out)
        print("%s run outside.yaml on 2 ranks: one message, a clean exit %s" % ("PASS" if ok else "FAIL", (p.stderr.strip().splitlines() or ["no message"])[0]))
        passed += ok
        failed += not ok
    # a tabulated law's file: two finite numbers a line, nothing after them but a comment
    for name, text in (("garbage", "0 0\n1e-5 1 garbage\n2e-5 3\n"), ("third", "0 0\n1e-5 1 7\n2e-5 3\n"), ("inf", "0 0\n1e-5 inf\n2e-5 3\n")):
        t = os.path.join(tmp, "law_%s.txt" % name)
        open(t, "w").write(text)
        p = subprocess.run([args.hdem, "impact", "-contact_law", "table", "-contact_table_file", t], capture_output=True, text=True)
        ok = p.returncode != 0 and not p.stdout.strip() and ("law_%s.txt:2" % name) in p.stderr and "two finite numbers" in p.stderr
        print("%s impact -contact_table_file law_%s.txt %s" % ("PASS" if ok else "FAIL", name, (p.stderr.strip().splitlines() or ["no message"])[0]))
        passed += ok
        failed += not ok
    # -help lists the options with units and exits 0 without running
    p = subprocess.run([args.hdem, "impact", "-help"], capture_output=True, text=True)
    ok = p.returncode == 0 and all(k in p.stdout for k in ("-contact_law", "-impact_v0", "[m/s]", "-contact_e", "-timestep_steps_per_contact")) and '"e":' not in p.stdout
    print("%s impact -help" % ("PASS" if ok else "FAIL"))
    passed += ok
    failed += not ok
    p = subprocess.run([args.hdem, "nosuchcommand"], capture_output=True, text=True)
    ok = p.returncode != 0 and "unknown command" in p.stderr
    print("%s unknown command" % ("PASS" if ok else "FAIL"))
    passed += ok
    failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
