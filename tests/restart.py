#!/usr/bin/python3
"""Checkpoint/restart and snapshots, end to end through `hdem run`:

- a run continued from a checkpoint is bitwise identical to the uninterrupted run,
  written on 3 ranks and continued on 1, 2, 3 and 4 (uneven grids), and so are the
  snapshots it writes after the restart; snapshots.xdmf and thermo.csv carry on
  without gaps or repeats;
- a snapshot holds the in-memory state (the last snapshot equals final.h5);
- SIGUSR1 to one rank, or SIGTERM to all, makes the run write a checkpoint and exit 75;
  continuing with -restart latest on another rank count ends bitwise where the
  uninterrupted run does;
- a drifting bed continues bitwise too (the rebuild criterion's drift is kept);
- so do moving and removed meshes with their contact histories (the lists' build
  time is kept), walls.csv included;
- all of that with fixed steps too (the benchmark decks' mode): checkpoints by step
  count, by wall clock (each request taken once) and by signal, and restarts from them;
  steps taken ahead (a fixed step's next first half fused into its second, where
  nothing reads the state between) give the bits of steps taken apart, and snapshots
  by simulated time still land on whole steps;
- kill -9 at random moments while checkpoints are being written (every step) never
  leaves a corrupt checkpoint as the latest: -restart latest always continues, bitwise;
- truncated, empty, missing or foreign files given to -restart are clear errors naming
  the file, and nothing is written."""
import argparse
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import harness

A = None
check = harness.Checks("PASS ", "FAIL ", flush=True)
failures = check.failures
FIXED = ["-timestep_mode", "fixed", "-timestep_dt", "5e-7"]  # below the deck's smallest adaptive step


def mpi(np_):
    cmd = [A.mpiexec, "-np", str(np_), "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def run(np_, grid, out, *extra, expect=0):
    cmd = mpi(np_) + [A.hdem, "run", A.deck, "-domain_grid", grid, "-output_dir", out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect:
        raise RuntimeError("%s: exit %d, expected %d: %s" % (" ".join(cmd), p.returncode, expect, p.stderr[-1500:]))
    return p


def same(a, b):
    p = subprocess.run([A.hdem, "diff", a, b], capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return False, p.stderr.strip()[-300:]
    d = json.loads(p.stdout)
    return d["identical"], "" if d["identical"] else json.dumps(d)[:300]


def thermo_steps(d):
    with open(os.path.join(d, "thermo.csv")) as f:
        rows = f.read().splitlines()[1:]
    return [int(r.split(",")[0]) for r in rows], rows


def xdmf_grids(d):
    with open(os.path.join(d, "snapshots.xdmf")) as f:
        txt = f.read()
    return txt.count('GridType="Uniform"'), txt


def test_continue(tmp):
    ref = os.path.join(tmp, "ref")
    run(3, "3,1,1", ref, "-steps", "1500", "-checkpoint_interval_steps", "500", "-checkpoint_keep", "10", "-snapshot_interval_steps", "250")
    ok, why = same(os.path.join(ref, "final.h5"), os.path.join(ref, "snapshots", "snap_000001500.h5"))
    check(ok, "the last snapshot equals the final in-memory state (3 ranks) %s" % why)
    cks = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ref, "checkpoints", "*")))
    check(cks == ["step_000000500.h5", "step_000001000.h5", "step_000001500.h5"], "checkpoints every 500 steps, nothing else: %s" % cks)
    ref_steps, ref_rows = thermo_steps(ref)
    for np_, grid in [(3, "3,1,1"), (2, "1,2,1"), (4, "2,2,1"), (1, "1,1,1")]:
        d = os.path.join(tmp, "cont_np%d" % np_)
        shutil.copytree(ref, d)
        os.remove(os.path.join(d, "final.h5"))
        run(np_, grid, d, "-steps", "1500", "-snapshot_interval_steps", "250", "-restart", os.path.join(d, "checkpoints", "step_000000500.h5"))
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))
        check(ok, "written on 3 ranks at step 500, continued on %d (grid %s): final state bitwise identical %s" % (np_, grid, why))
        bad = [s for s in range(750, 1501, 250) if not same(os.path.join(ref, "snapshots", "snap_%09d.h5" % s), os.path.join(d, "snapshots", "snap_%09d.h5" % s))[0]]
        check(not bad, "  snapshots after the restart identical to the uninterrupted run's (differ: %s)" % bad)
        n, _ = xdmf_grids(d)
        check(n == 7, "  snapshots.xdmf lists the 7 snapshots 0..1500 once each (%d)" % n)
        steps, rows = thermo_steps(d)
        check(steps == ref_steps and [r.split(",")[:3] for r in rows] == [r.split(",")[:3] for r in ref_rows], "  thermo.csv continues without gaps or repeats (%d rows)" % len(steps))
        summ = json.load(open(os.path.join(d, "summary.json")))
        check(summ["steps"] == 1500 and summ["steps_this_run"] == 1000 and summ["status"] == "completed", "  summary: steps 1500, 1000 this run, completed")


def test_continue_fixed(tmp):
    """Fixed steps: checkpoints by step count land on their steps and continue bitwise
    on another rank count."""
    ref = os.path.join(tmp, "fixed_ref")
    run(2, "2,1,1", ref, "-steps", "1200", "-checkpoint_interval_steps", "400", "-checkpoint_keep", "10", *FIXED)
    cks = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ref, "checkpoints", "*")))
    check(cks == ["step_000000400.h5", "step_000000800.h5", "step_000001200.h5"], "fixed steps: checkpoints every 400 steps, nothing else: %s" % cks)
    one = os.path.join(tmp, "fixed_np1")
    run(1, "1,1,1", one, "-steps", "1200", *FIXED)
    ok, why = same(os.path.join(ref, "final.h5"), os.path.join(one, "final.h5"))
    check(ok, "  2 ranks and 1 rank bitwise identical %s" % why)
    d = os.path.join(tmp, "fixed_cont")
    shutil.copytree(ref, d)
    os.remove(os.path.join(d, "final.h5"))
    run(3, "1,3,1", d, "-steps", "1200", "-restart", os.path.join(d, "checkpoints", "step_000000400.h5"), *FIXED)
    ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))
    check(ok, "  written on 2 ranks at step 400, continued on 3: final state bitwise identical %s" % why)
    # Steps after which nothing is read are taken ahead (the next first half fused
    # into the second); snapshots by simulated time must still see whole steps.
    snap = ["-snapshot_interval_time", "1.3e-4"]
    apart, ahead = os.path.join(tmp, "fixed_apart"), os.path.join(tmp, "fixed_ahead")
    run(2, "2,1,1", apart, "-steps", "1200", "-thermo_interval", "1", *snap, *FIXED)
    run(2, "2,1,1", ahead, "-steps", "1200", *snap, *FIXED)
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(apart, "snapshots", "*.h5")))
    check(names == sorted(os.path.basename(p) for p in glob.glob(os.path.join(ahead, "snapshots", "*.h5"))) and len(names) == 5, "  steps taken ahead: the same snapshots by simulated time (%s)" % names)
    bad = [n for n in names + ["../final.h5"] if not same(os.path.join(apart, "snapshots", n), os.path.join(ahead, "snapshots", n))[0]]
    check(not bad, "  steps taken ahead and apart (thermo every step): snapshots and final state bitwise identical (differ: %s)" % bad)
    # -end_time ends on a whole step too (the run fails if its last step was taken ahead)
    et = os.path.join(tmp, "fixed_end_time")
    run(2, "2,1,1", et, "-steps", "100000000", "-end_time", "3.1e-4", *FIXED)
    steps = json.load(open(os.path.join(et, "summary.json")))["steps"]
    by_steps = os.path.join(tmp, "fixed_by_steps")
    run(1, "1,1,1", by_steps, "-steps", str(steps), "-thermo_interval", "1", *FIXED)
    ok, why = same(os.path.join(et, "final.h5"), os.path.join(by_steps, "final.h5"))
    check(ok and steps == 620, "  -end_time 3.1e-4 at 5e-7 a step: %d steps, the final state of -steps %d taken apart %s" % (steps, steps, why))


def test_continue_drift(tmp):
    """A bed with a bulk velocity: the rebuild criterion's drift, kept in the
    checkpoints, decides the continued run's rebuilds as it did the first's."""
    ref = os.path.join(tmp, "drift_ref")
    run(2, "2,1,1", ref, "-steps", "1500", "-insert_velocity", "2,1,0", "-checkpoint_interval_steps", "100", "-checkpoint_keep", "20")
    bad = []
    for s in (300, 700, 1100):
        d = os.path.join(tmp, "drift_cont_%d" % s)
        shutil.copytree(ref, d)
        os.remove(os.path.join(d, "final.h5"))
        run(3, "1,3,1", d, "-steps", "1500", "-insert_velocity", "2,1,0", "-restart", os.path.join(d, "checkpoints", "step_%09d.h5" % s))
        if not same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))[0]:
            bad.append(s)
    check(not bad, "a drifting bed written on 2 ranks, continued on 3 from steps 300, 700, 1100: final states bitwise identical (differ: %s)" % bad)


def continue_elsewhere(tmp, label, opts, points, csvs=()):
    """A run written on 2 ranks with checkpoints every 1000 steps, continued
    from each (step, ranks, grid) of points: what differs from the
    uninterrupted run's final state (and csvs, byte for byte)."""
    ref = os.path.join(tmp, label + "_ref")
    run(2, "2,1,1", ref, *opts, "-checkpoint_interval_steps", "1000", "-checkpoint_keep", "10")
    bad = []
    for s, np_, grid in points:
        d = os.path.join(tmp, "%s_cont_%d" % (label, s))
        shutil.copytree(ref, d)
        os.remove(os.path.join(d, "final.h5"))
        run(np_, grid, d, *opts, "-restart", os.path.join(d, "checkpoints", "step_%09d.h5" % s))
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))
        differ = [c for c in csvs if open(os.path.join(ref, c)).read() != open(os.path.join(d, c)).read()]
        if not ok or differ:
            bad.append("%d (%s%s)" % (s, why, "".join(" %s differs" % c for c in differ)))
    return bad


def test_continue_meshes(tmp):
    """A vibrating floor mesh and a rotating cube mesh removed mid-run (tests/data/meshes):
    written on 2 ranks, continued on 3 and 1 before and after the removal, bitwise,
    walls.csv too."""
    meshes = os.path.join(os.path.dirname(os.path.abspath(A.deck)), "meshes")
    opts = ["-steps", "6000", "-insert_count", "300", "-insert_region_lo", "0,0,0.012", "-insert_region_hi", "0.012,0.009,0.05",
            "-insert_velocity", "0,0,-3", "-thermo_interval", "250",
            "-mesh0_file", os.path.join(meshes, "floor.stl"), "-mesh0_motion", "vibrate", "-mesh0_amplitude", "0,0,0.0003", "-mesh0_frequency", "40",
            "-mesh1_file", os.path.join(meshes, "obstacle.stl"), "-mesh1_motion", "rotate", "-mesh1_axis_point", "0.006,0.0045,0",
            "-mesh1_axis", "0,0,1", "-mesh1_angular_velocity", "20", "-mesh1_remove_time", "0.003"]
    bad = continue_elsewhere(tmp, "mesh", opts, ((2000, 3, "1,1,3"), (4000, 1, "1,1,1")), ("walls.csv",))
    check(not bad, "moving meshes written on 2 ranks, continued on 3 from step 2000 and on 1 from step 4000: final states and walls.csv bitwise identical (differ: %s)" % bad)


def test_continue_rolling(tmp):
    """Rolling resistance (its springs in the checkpoint) with two materials and
    rigid walls: written on 2 ranks, continued on 3 and 1, bitwise."""
    opts = ["-steps", "3000", "-insert_count", "300", "-thermo_interval", "250", "-contact_mu_roll", "0.3", "-material1_E", "5e7",
            "-domain_walls_type", "2", "-material2_E", "inf", "-pair_1_2_mu_roll", "0.6"]
    bad = continue_elsewhere(tmp, "roll", opts, ((2000, 3, "1,1,3"), (1000, 1, "1,1,1")))
    check(not bad, "rolling resistance written on 2 ranks, continued on 3 from step 2000 and on 1 from step 1000: bitwise (differ: %s)" % bad)


def test_format1(tmp):
    """A checkpoint written by hdem before histories carried their kind
    (format 1, tests/data) continues bitwise to the state that hdem reached
    uninterrupted, on 1 and 3 ranks."""
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    for np_, grid in ((1, "1,1,1"), (3, "3,1,1")):
        out = os.path.join(tmp, "format1_np%d" % np_)
        run(np_, grid, out, "-steps", "300", "-restart", os.path.join(data, "checkpoint_format1_step200.h5"))
        ok, why = same(os.path.join(out, "final.h5"), os.path.join(data, "checkpoint_format1_final300.h5"))
        check(ok, "a format 1 checkpoint continued on %d ranks: bitwise the state of the run that wrote it %s" % (np_, why))


def test_format4(tmp):
    """A checkpoint written by hdem before gravity's work was kept per particle
    (format 4, tests/data: a vibrating mesh floor under a stream, by b61d7a2)
    continues on 1 and 3 ranks: bitwise the state that hdem reached
    uninterrupted, thermo.csv the same bits on both, and dissipated picks up
    where the old run left it (its one total less the flow's energy, which
    thermo now sums apart: a double count would add ~1e-4 J)."""
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    meshes = os.path.join(data, "meshes")
    opts = ["-steps", "3000", "-insert_count", "100", "-insert_region_lo", "0,0,0.012", "-insert_region_hi", "0.012,0.009,0.025", "-insert_velocity", "0,0,-1.5",
            "-thermo_interval", "100", "-mesh0_file", os.path.join(meshes, "floor.stl"), "-mesh0_motion", "vibrate", "-mesh0_amplitude", "0,0,0.0003",
            "-mesh0_frequency", "40", "-stream0_region_lo", "0,0,0.03", "-stream0_region_hi", "0.012,0.009,0.048", "-stream0_rate", "60000",
            "-stream0_radius_min", "0.4e-3", "-stream0_radius_max", "1.0e-3", "-stream0_velocity", "0,0,-1", "-stream0_interval", "0.0005",
            "-outflow0_region_lo", "0,0,0.001", "-outflow0_region_hi", "0.004,0.009,0.006", "-thermo_screen", "false",
            "-restart", os.path.join(data, "checkpoint_format4_step2000.h5")]
    rows = {}
    for np_, grid in ((1, "1,1,1"), (3, "3,1,1")):
        out = os.path.join(tmp, "format4_np%d" % np_)
        run(np_, grid, out, *opts)
        ok, why = same(os.path.join(out, "final.h5"), os.path.join(data, "checkpoint_format4_final3000.h5"))
        check(ok, "a format 4 checkpoint continued on %d ranks: bitwise the state of the run that wrote it %s" % (np_, why))
        lines = open(os.path.join(out, "thermo.csv")).read().splitlines()
        w = lines[0].split(",").index("wall_seconds")
        rows[np_] = [",".join(c for k, c in enumerate(r.split(",")) if k != w) for r in lines]
        k = lines[0].split(",").index("dissipated")
        d2100 = [float(r.split(",")[k]) for r in lines[1:] if r.startswith("2100,")]
        # the format-4 run's own row at step 2100 (its walls' work then negligible)
        check(d2100 and abs(d2100[0] - 7.9191371340e-05) <= 1e-6 * 7.9191371340e-05,
              "  dissipated at step 2100 %s J, the writing run's 7.9191371340e-05 J" % (d2100[0] if d2100 else None))
    check(rows[1] == rows[3], "  thermo.csv the same bits on 1 and 3 ranks")


def test_empty_ranks(tmp):
    """Ranks that own nothing still take part in the collective snapshot writes."""
    one = os.path.join(tmp, "snap_np1")
    run(1, "1,1,1", one, "-steps", "300", "-snapshot_interval_steps", "100", "-snapshot_fields", "all")
    four = os.path.join(tmp, "snap_np4")
    run(4, "1,1,4", four, "-steps", "300", "-snapshot_interval_steps", "100", "-domain_hi", "0.012,0.009,0.2")
    run(1, "1,1,1", one + "_tall", "-steps", "300", "-snapshot_interval_steps", "100", "-domain_hi", "0.012,0.009,0.2")
    owned = json.load(open(os.path.join(four, "summary.json")))["owned_particles"]
    check(0 in owned, "4 ranks along a tall box: some own no particle %s" % owned)
    ok, why = same(os.path.join(four, "final.h5"), os.path.join(four, "snapshots", "snap_000000300.h5"))
    check(ok, "  the last snapshot equals the in-memory final state %s" % why)
    bad = [s for s in (0, 100, 200, 300) if not same(os.path.join(one + "_tall", "snapshots", "snap_%09d.h5" % s), os.path.join(four, "snapshots", "snap_%09d.h5" % s))[0]]
    check(not bad, "  every snapshot equals the 1-rank run's (differ: %s)" % bad)
    ok, why = same(os.path.join(one, "final.h5"), os.path.join(one, "snapshots", "snap_000000300.h5"))
    check(ok, "1 rank: the last snapshot equals the in-memory final state %s" % why)


def test_walltime_cadence(tmp):
    d = os.path.join(tmp, "walltime")
    t0 = time.time()
    run(2, "2,1,1", d, "-steps", "20000", "-checkpoint_interval_walltime", "0.1", "-checkpoint_keep", "3", "-thermo_interval", "1000")
    wall = time.time() - t0
    steps = sorted(int(os.path.basename(p)[5:14]) for p in glob.glob(os.path.join(d, "checkpoints", "step_?????????.h5")))
    check(len(steps) == 3 and steps[-1] == 20000 and steps[0] > 0, "-checkpoint_interval_walltime 0.1 over %.1f s with -checkpoint_keep 3: the 3 newest kept, the last at the end %s" % (wall, steps))
    # fixed steps, every checkpoint kept: a request is taken once (the ranks' clocks
    # raise it until a checkpoint resets them), never on consecutive steps
    d = os.path.join(tmp, "walltime_fixed")
    run(2, "2,1,1", d, "-steps", "20000", "-checkpoint_interval_walltime", "0.1", "-checkpoint_keep", "1000", "-thermo_interval", "1000", *FIXED)
    steps = sorted(int(os.path.basename(p)[5:14]) for p in glob.glob(os.path.join(d, "checkpoints", "step_?????????.h5")))
    check(len(steps) >= 3 and steps[-1] == 20000 and all(b - a > 1 for a, b in zip(steps, steps[1:])), "fixed steps, -checkpoint_interval_walltime 0.1: checkpoints through the run, the last at the end, none on the step after another %s" % steps)


def hdem_pids(parent):
    out = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def wait_started(proc, d, min_rows=3, timeout=60):
    t0 = time.time()
    while time.time() - t0 < timeout and proc.poll() is None:
        try:
            if len(open(os.path.join(d, "thermo.csv")).read().splitlines()) > min_rows:
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


def latest_step(d):
    steps = sorted(int(os.path.basename(p)[5:14]) for p in glob.glob(os.path.join(d, "checkpoints", "step_?????????.h5")))
    return steps[-1] if steps else None


def test_signals(tmp, extra=(), label=""):
    for sig, to_all in [(signal.SIGUSR1, False), (signal.SIGTERM, True)]:
        name = signal.Signals(sig).name + label.replace(" ", "_")
        d = os.path.join(tmp, "sig_" + name)
        proc = subprocess.Popen(mpi(2) + [A.hdem, "run", A.deck, "-domain_grid", "2,1,1", "-output_dir", d, "-steps", "100000000", "-thermo_interval", "50", *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        started = wait_started(proc, d)
        pids = hdem_pids(proc.pid)
        for p in (pids if to_all else pids[-1:]):
            os.kill(p, sig)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        check(started and proc.returncode == 75, "%s to %s rank(s): exit code %s (75 expected)" % (name, "all" if to_all else "one", proc.returncode))
        s = latest_step(d)
        summ = json.load(open(os.path.join(d, "summary.json"))) if os.path.exists(os.path.join(d, "summary.json")) else {}
        check(s is not None and summ.get("status") == "stopped_by_signal" and summ.get("steps") == s and not os.path.exists(os.path.join(d, "final.h5")),
              "  checkpoint at the stopping step %s, summary says stopped_by_signal, no final.h5" % s)
        if s is None:
            continue
        end = s + 300
        run(3, "1,3,1", d, "-steps", str(end), "-restart", "latest", *extra)
        ref = os.path.join(tmp, "sigref_" + name)
        run(1, "1,1,1", ref, "-steps", str(end), *extra)
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5"))
        check(ok, "  continued with -restart latest on 3 ranks to step %d: identical to the uninterrupted 1-rank run %s" % (end, why))


def test_kill9(tmp, trials):
    rng = random.Random(12345)
    end = 1200
    ref = os.path.join(tmp, "kill_ref")
    run(1, "1,1,1", ref, "-steps", str(end))
    d = os.path.join(tmp, "kill")
    for k in range(trials):
        shutil.rmtree(d, ignore_errors=True)
        proc = subprocess.Popen(mpi(2) + [A.hdem, "run", A.deck, "-domain_grid", "1,2,1", "-output_dir", d, "-steps", str(end), "-checkpoint_interval_steps", "1", "-checkpoint_keep", "3"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_started(proc, d, min_rows=1)
        time.sleep(rng.uniform(0.0, 1.5))
        pids = hdem_pids(proc.pid)
        victims = pids if k % 2 else pids[:1]
        for p in victims:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()
        s = latest_step(d)
        tmps = glob.glob(os.path.join(d, "checkpoints", "*.tmp"))
        if s is None or s >= end:
            check(True, "kill -9 trial %d: killed before the first checkpoint or after the end (latest %s), nothing to continue" % (k, s))
            continue
        p = subprocess.run(mpi(2) + [A.hdem, "run", A.deck, "-domain_grid", "2,1,1", "-output_dir", d, "-steps", str(end), "-restart", "latest"], capture_output=True, text=True)
        ok, why = same(os.path.join(ref, "final.h5"), os.path.join(d, "final.h5")) if p.returncode == 0 else (False, p.stderr[-500:])
        check(ok, "kill -9 trial %d (%s, latest step %d, %d stale .tmp): -restart latest continues, bitwise identical %s" % (k, "all ranks" if k % 2 else "one rank", s, len(tmps), why))
        check(not glob.glob(os.path.join(d, "checkpoints", "*.tmp")), "  the stale temporaries were removed")


def test_bad_files(tmp):
    src = os.path.join(tmp, "ref", "checkpoints", "step_000001000.h5")
    size = os.path.getsize(src)
    cases = []
    t = os.path.join(tmp, "truncated.h5")
    with open(src, "rb") as f, open(t, "wb") as g:
        g.write(f.read(size // 2))
    cases.append(("truncated checkpoint", t, t))
    z = os.path.join(tmp, "empty.h5")
    open(z, "wb").close()
    cases.append(("empty file", z, z))
    m = os.path.join(tmp, "missing.h5")
    cases.append(("missing file", m, m))
    snap = os.path.join(tmp, "ref", "snapshots", "snap_000000500.h5")
    cases.append(("a snapshot, not a checkpoint", snap, snap))
    empty_dir = os.path.join(tmp, "no_checkpoints")
    cases.append(("-restart latest with no checkpoint", "latest", "no checkpoint in " + empty_dir))
    # one rank's rows fail while the others route theirs: an abort, not a hang
    import h5py
    o = os.path.join(tmp, "outside.h5")
    shutil.copyfile(src, o)
    with h5py.File(o, "r+") as f:
        f["particles/position_at_build"][0, 0] = 1e3
    cases.append(("a particle outside the box on one rank", o, "outside"))
    cases.append(("a deck with y no longer periodic", src, "axis y was periodic", "-domain_periodic", "1,0,0"))
    # a fresh start replaces the directory's run, checkpoints too: its own are then
    # the ones kept, and -restart latest finds its newest, not the earlier run's
    fresh = os.path.join(tmp, "fresh")
    shutil.copytree(os.path.join(tmp, "ref"), fresh)
    p = subprocess.run(mpi(2) + [A.hdem, "run", A.deck, "-output_dir", fresh, "-steps", "200", "-insert_seed", "99", "-checkpoint_interval_steps", "100"], capture_output=True, text=True, timeout=120)
    kept = sorted(os.path.basename(f) for f in glob.glob(os.path.join(fresh, "checkpoints", "step_*.h5")))
    check(p.returncode == 0 and "removed" in p.stdout and kept == ["step_000000100.h5", "step_000000200.h5"], "a fresh start into a directory with checkpoints: exit %d, keeps its own %s" % (p.returncode, kept))
    for what, arg, needle, *extra in cases:
        out = empty_dir if arg == "latest" else os.path.join(tmp, "bad_" + os.path.basename(arg) + ("_" + extra[-1] if extra else ""))
        try:
            p = subprocess.run(mpi(2) + [A.hdem, "run", A.deck, "-output_dir", out, "-steps", "2000", "-restart", arg, *extra], capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            check(False, "%s: hung (120 s)" % what)
            continue
        wrote = os.path.exists(os.path.join(out, "thermo.csv")) or os.path.exists(os.path.join(out, "final.h5"))
        check(p.returncode not in (0, 75) and needle in p.stderr and not wrote, "%s: exit %d, error names it, nothing written (%s)" % (what, p.returncode, p.stderr.strip().splitlines()[0] if p.stderr.strip() else "no message"))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--deck", required=True)
    ap.add_argument("--kill-trials", type=int, default=6)
    A = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_restart_")
    try:
        test_continue(tmp)
        test_format1(tmp)
        test_format4(tmp)
        test_empty_ranks(tmp)
        test_continue_fixed(tmp)
        test_continue_drift(tmp)
        test_continue_meshes(tmp)
        test_continue_rolling(tmp)
        test_walltime_cadence(tmp)
        test_signals(tmp)
        test_signals(tmp, FIXED, " fixed steps")
        test_kill9(tmp, A.kill_trials)
        test_bad_files(tmp)
    except RuntimeError as e:
        check(False, str(e))
    print("%d failure(s)" % len(failures))
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
