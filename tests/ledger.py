#!/usr/bin/python3
"""The energy ledger in thermo.csv (tests/data/bitwise.yaml, thermo_ledger: true).

- It closes: on an elastic gas (restitution 1, no friction) nothing is
  dissipated and the residual is the integrator's error; on the damped
  frictional deck the residual is below 1e-4 of what damping and friction
  took; both residuals fall by at least 3x (second order: 4x) each time the
  fixed step is halved (three steps).
- thermo.csv is the same bits (every column but wall_seconds) on 1, 2, 3 and 4
  ranks, with rolling resistance and moving walls too, and after a restart on
  another rank count.
- Without the ledger, dissipated counts the moving walls' work all the same:
  the same bits as with it.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import harness

A = None
check = harness.Checks("PASS ", "FAIL ")
FAILS = check.failures
LEDGER = ["diss_normal", "diss_tangential", "diss_rolling", "diss_liquid", "work_gravity", "work_walls", "energy_flow", "elastic_normal",
          "elastic_tangential", "elastic_rolling", "energy_bridges", "residual", "liquid_total"]


def run(np_, out, *extra):
    cmd = harness.mpi(A.mpiexec, np_) + [A.hdem, "run", A.deck, "-output_dir", out, "-thermo_screen", "false", "-thermo_ledger", "true", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-1500:]))


def rows(out):
    """thermo.csv's rows without wall_seconds, as text, and the last row by column."""
    lines = open(os.path.join(out, "thermo.csv")).read().splitlines()
    head = lines[0].split(",")
    w = head.index("wall_seconds")
    text = [",".join(c for k, c in enumerate(r.split(",")) if k != w) for r in lines]
    return head, text, {k: float(v) for k, v in zip(head, lines[-1].split(","))}


def test_columns(tmp):
    head, _, _ = rows_of(tmp)
    missing = [c for c in LEDGER if c not in head]
    check(not missing, "thermo_ledger true: thermo.csv has the ledger's columns (missing: %s)" % missing)
    out = os.path.join(tmp, "plain")
    run(1, out, "-steps", "200", "-thermo_ledger", "false")
    head, _, _ = rows(out)
    check("residual" not in head and "liquid_total" in head, "thermo_ledger false: the plain columns")


def rows_of(tmp):
    out = os.path.join(tmp, "cols")
    run(1, out, "-steps", "200")
    return rows(out)


def test_order(tmp):
    fixed = ["-timestep_mode", "fixed", "-end_time", "0.004", "-steps", "100000000", "-thermo_interval", "0", "-thermo_interval_time", "0.001"]
    for label, extra in (("elastic gas", ["-contact_e", "1", "-contact_mu", "0"]), ("damped frictional", [])):
        res, last = [], None
        for dt in (2e-6, 1e-6, 5e-7):
            out = os.path.join(tmp, "order_%s_%g" % (label.replace(" ", "_"), dt))
            run(1, out, "-timestep_dt", str(dt), *fixed, *extra)
            _, _, last = rows(out)
            res.append(abs(last["residual"]))
        diss = last["diss_normal"] + last["diss_tangential"]
        if label == "elastic gas":
            check(last["diss_normal"] == 0.0 and last["diss_tangential"] == 0.0, "%s: nothing dissipated" % label)
        else:
            check(last["diss_normal"] > 0 and last["diss_tangential"] > 0 and res[-1] < 1e-4 * diss,
                  "%s: normal %.4g J and tangential %.4g J dissipated, residual %.3g J" % (label, last["diss_normal"], last["diss_tangential"], res[-1]))
        ratios = [res[k] / res[k + 1] for k in range(2)]
        check(all(r >= 3.0 for r in ratios), "%s: the residual %s J falls %s-fold as the step halves" % (label, ["%.3g" % r for r in res],
                                                                                                         ["%.2f" % r for r in ratios]))


def test_ranks(tmp):
    moving = ["-wall0_normal", "0,0,1", "-wall0_point", "0,0,0", "-wall0_motion", "vibrate", "-wall0_amplitude", "0,0,0.0002", "-wall0_frequency", "50"]
    for label, extra in (("default", []), ("rolling resistance, a vibrating floor", ["-contact_mu_roll", "0.2"] + moving)):
        ref = None
        for np_, grid in ((1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,2,1")):
            out = os.path.join(tmp, "ranks_%d_%d" % (len(extra), np_))
            run(np_, out, "-domain_grid", grid, "-steps", "2000", *extra)
            head, text, last = rows(out)
            if ref is None:
                ref = text
                if extra:
                    check(last["work_walls"] != 0.0 and last["diss_rolling"] != 0.0, "%s: the walls' work %.4g J, rolling %.4g J" % (label, last["work_walls"],
                                                                                                                               last["diss_rolling"]))
                continue
            bad = [k for k, (a, b) in enumerate(zip(ref, text)) if a != b]
            check(len(ref) == len(text) and not bad, "%s: thermo.csv on %d ranks the same bits as on 1 (rows differing: %s)" % (label, np_, bad[:3]))


def test_walls_without_ledger(tmp):
    """Without the ledger, dissipated still counts the moving walls' work: the same bits as the ledger's."""
    moving = ["-wall0_normal", "0,0,1", "-wall0_point", "0,0,0", "-wall0_motion", "vibrate", "-wall0_amplitude", "0,0,0.0002", "-wall0_frequency", "50"]
    cols = {}
    for label, flag in (("ledger", "true"), ("plain", "false")):
        out = os.path.join(tmp, "walls_%s" % label)
        run(1, out, "-steps", "2000", "-contact_mu_roll", "0.2", *moving, "-thermo_ledger", flag)
        lines = open(os.path.join(out, "thermo.csv")).read().splitlines()
        k = lines[0].split(",").index("dissipated")
        cols[label] = [r.split(",")[k] for r in lines[1:]]
    check(cols["ledger"] == cols["plain"] and len(cols["plain"]) > 2,
          "a vibrating floor: dissipated without the ledger the same bits as with it (last %s J)" % cols["plain"][-1])


def test_restart(tmp):
    ref = os.path.join(tmp, "ck")
    run(3, ref, "-domain_grid", "3,1,1", "-steps", "2000", "-checkpoint_interval_steps", "1000", "-checkpoint_keep", "5")
    _, want, _ = rows(ref)
    d = os.path.join(tmp, "ck_cont")
    shutil.copytree(ref, d)
    os.remove(os.path.join(d, "final.h5"))
    run(2, d, "-domain_grid", "1,2,1", "-steps", "2000", "-restart", os.path.join(d, "checkpoints", "step_000001000.h5"))
    _, got, _ = rows(d)
    check(got == want, "written on 3 ranks at step 1000, continued on 2: thermo.csv the same bits")


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--deck", required=True)
    A = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_ledger_")
    try:
        test_columns(tmp)
        test_order(tmp)
        test_ranks(tmp)
        test_walls_without_ledger(tmp)
        test_restart(tmp)
    except RuntimeError as e:
        check(False, str(e))
    print("%d failed" % len(FAILS))
    if not FAILS:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
