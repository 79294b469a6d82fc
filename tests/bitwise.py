#!/usr/bin/python3
"""The same deck gives bitwise identical final states on 1, 2, 3 and 4 ranks, with
uneven process grids, periodic and walled axes, cuts moved by the load balance
(slabs, and a tree of bisections by time),
moving meshes, a stream with an outflow, liquid bridges, multi-sphere bodies (their
/bodies too), the Mindlin-Deresiewicz
spring's turning points (compared by id with `hdem diff`;
walls.csv, flow.csv and thermo.csv, with its energy ledger and without, less its
wall-clock column, compared byte for byte), and the particle count never
changes but by the streams and outflows."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import harness

# (name, extra options, [(ranks, -domain_grid), ...])
CONFIGS = [
    # without the ledger thermo.csv is bitwise too (dissipated: exact sums of per-particle work)
    ("periodic_xy", ["-thermo_ledger", "false"], [(1, "1,1,1"), (2, "2,1,1"), (3, "3,1,1"), (4, "2,2,1"), (4, "1,1,4")]),
    ("walled_x", ["-domain_periodic", "false,true,false"], [(1, "1,1,1"), (2, "1,2,1"), (3, "1,1,3"), (4, "2,1,2")]),
    ("random_fill", ["-insert_mode", "random", "-insert_count", "300", "-steps", "2000"], [(1, "1,1,1"), (3, "1,3,1"), (4, "1,2,2")]),
    # cuts across gravity, moved every few rebuilds: by particle count (the
    # bed settles into the lower slabs) and by time at every balance (4,1,1:
    # 3 mm slabs against a 2.2 mm ghost cutoff, so the shift's limit binds)
    ("balance_count", ["-balance_mode", "count", "-balance_interval", "20"], [(1, "1,1,1"), (2, "1,1,2"), (3, "1,1,3"), (4, "2,1,2")]),
    ("balance_time", ["-balance_mode", "time", "-balance_interval", "10", "-balance_threshold", "1"], [(1, "1,1,1"), (3, "3,1,1"), (4, "1,2,2"), (4, "4,1,1")]),
    # a tree of bisections, periodic images found among its boxes, remade at every balance
    ("balance_rcb", ["-balance_mode", "rcb", "-balance_interval", "10", "-balance_threshold", "1"], [(1, "1,1,1"), (2, "2,1,1"), (3, "3,1,1"), (4, "2,2,1")]),
]
# a vibrating floor mesh under a rotating cube mesh that is removed mid-run
# (tests/data/meshes; {meshes} is that folder)
MESH_OPTS = ["-steps", "8000", "-insert_count", "300", "-insert_region_lo", "0,0,0.012", "-insert_region_hi", "0.012,0.009,0.05",
             "-insert_velocity", "0,0,-1.5", "-thermo_interval", "500",
             "-mesh0_file", "{meshes}/floor.stl", "-mesh0_motion", "vibrate", "-mesh0_amplitude", "0,0,0.0003", "-mesh0_frequency", "40",
             "-mesh1_file", "{meshes}/obstacle.stl", "-mesh1_motion", "rotate", "-mesh1_axis_point", "0.006,0.0045,0", "-mesh1_axis", "0,0,1",
             "-mesh1_angular_velocity", "20", "-mesh1_remove_time", "0.004"]
CONFIGS.append(("meshes_moving", MESH_OPTS, [(1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# the same meshes under a stream pouring in from above, and an outflow in a
# corner above the floor (flow.csv compared byte for byte too)
FLOW_OPTS = [x for x in MESH_OPTS] + ["-stream0_region_lo", "0,0,0.03", "-stream0_region_hi", "0.012,0.009,0.048", "-stream0_rate", "60000",
                                      "-stream0_radius_min", "0.4e-3", "-stream0_radius_max", "1.0e-3", "-stream0_velocity", "0,0,-1",
                                      "-stream0_interval", "0.0005", "-outflow0_region_lo", "0,0,0.001", "-outflow0_region_hi", "0.004,0.009,0.006",
                                      "-flow_size_classes", "0.0015"]
FLOW_OPTS[FLOW_OPTS.index("-insert_count") + 1] = "100"
FLOW_OPTS[FLOW_OPTS.index("-insert_region_hi") + 1] = "0.012,0.009,0.025"
CONFIGS.append(("meshes_streams", FLOW_OPTS + ["-thermo_ledger", "false"], [(1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# three materials: the fill (type 1), the stream (type 2, denser, its own
# restitution and friction against the fill), a rigid floor mesh (type 3)
# and walls of the default material, so pairs of every kind meet
MAT_OPTS = [x for x in FLOW_OPTS] + ["-stream0_type", "2", "-mesh0_type", "3", "-material1_E", "5e7", "-material1_nu", "0.3", "-material2_E", "2e8",
                                     "-material2_density", "5000", "-material3_E", "inf", "-pair_1_2_e", "0.3", "-pair_1_2_mu", "0.2",
                                     "-pair_2_3_mu", "0.8", "-pair_3_1_e", "0.9"]
CONFIGS.append(("materials", MAT_OPTS, [(1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# rolling resistance (the fused lanes), a pair with its own
CONFIGS.append(("rolling", MAT_OPTS + ["-contact_mu_roll", "0.2", "-pair_1_2_mu_roll", "0.5", "-pair_1_2_roll_damping", "0.1"],
                [(1, "1,1,1"), (2, "2,1,1"), (4, "2,1,2")]))
# liquid bridges (the fused sphere path, a bridge held apart through the generic one; bridges with planes and the moving
# meshes, the one removed mid-run; wet particles streamed in and taken out)
CONFIGS.append(("wet", FLOW_OPTS + ["-material_liquid", "2e-11", "-contact_liquid_viscosity", "1e-3", "-contact_liquid_contact_angle", "10"],
                [(1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# multi-sphere bodies (dumbbells, trimers and spheres) filled and streamed in
# among the moving meshes, taken out by the outflow; the spheres' contacts on
# the fused path with each contact's projected masses
CLUMP_OPTS = ["-clump0_spheres", "-0.3e-3,0,0,0.5e-3,0.3e-3,0,0,0.5e-3", "-clump1_spheres", "0,0,0,0.45e-3,0.6e-3,0,0,0.4e-3,-0.2e-3,0.55e-3,0,0.4e-3",
              "-insert_body", "clump0,clump1,sphere", "-insert_body_weights", "2,2,1", "-insert_angular_velocity", "0,0,30",
              "-stream0_body", "clump1,clump0", "-stream0_orientation", "random"]
CLUMP_OPTS[:0] = [x for x in FLOW_OPTS]
CLUMP_OPTS[CLUMP_OPTS.index("-insert_count") + 1] = "18"  # the lattice holds 18 dumbbells' spheres around them
CONFIGS.append(("clumps", CLUMP_OPTS, [(1, "1,1,1"), (2, "2,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# the incremental tangential spring (the fused lanes)
CONFIGS.append(("incremental", ["-contact_tangential_model", "incremental"], [(1, "1,1,1"), (2, "2,1,1"), (4, "2,2,1")]))
# Mindlin-Deresiewicz: turning points beside the histories (the fused lanes), with the moving meshes
CONFIGS.append(("mindlin_deresiewicz", MESH_OPTS + ["-contact_tangential_model", "mindlin_deresiewicz"], [(1, "1,1,1"), (3, "1,1,3"), (4, "2,1,2")]))
# configurations whose multi-rank runs must have moved cuts
MUST_BALANCE = ("balance_count", "balance_time")


def run(args, np_, grid, out, extra):
    cmd = harness.mpi(args.mpiexec, np_, serial_bare=False)
    ledger = [] if "-thermo_ledger" in extra else ["-thermo_ledger", "true"]
    cmd += [args.hdem, "run", args.deck, "-domain_grid", grid, "-output_dir", out, *ledger, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return json.load(open(os.path.join(out, "summary.json")))


def thermo_rows(d):
    """thermo.csv's rows less the wall-clock column: every energy is an exact sum, the same on any rank count."""
    lines = open(os.path.join(d, "thermo.csv")).read().splitlines()
    w = lines[0].split(",").index("wall_seconds")
    return [[c for k, c in enumerate(r.split(",")) if k != w] for r in lines]


def mesh_differences(a, b):
    """The meshes of two final states (each rank writes its share): the same points and triangles."""
    import h5py
    import numpy as np
    problems = []
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        names = sorted(fa["meshes"].keys()) if "meshes" in fa else []
        if names != (sorted(fb["meshes"].keys()) if "meshes" in fb else []):
            return ["the meshes in final.h5 differ"]
        for m in names:
            for d in ("points", "triangles"):
                if not np.array_equal(fa["meshes"][m][d][()], fb["meshes"][m][d][()]):
                    problems.append("/meshes/%s/%s differs" % (m, d))
    return problems


def body_differences(a, b):
    """The rigid bodies of two final states, by id: the same bits."""
    import h5py
    import numpy as np
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        if ("bodies" in fa) != ("bodies" in fb):
            return ["one final.h5 has /bodies, the other not"]
        if "bodies" not in fa:
            return []
        ia, ib = np.argsort(fa["bodies/id"][()]), np.argsort(fb["bodies/id"][()])
        for d in ("id", "template", "position", "orientation", "velocity", "angular_velocity"):
            if not np.array_equal(fa["bodies"][d][()][ia], fb["bodies"][d][()][ib]):
                return ["/bodies/%s differs" % d]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--deck", required=True)
    args = ap.parse_args()
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="hdem_bitwise_")
    meshes = os.path.join(os.path.dirname(os.path.abspath(args.deck)), "meshes")
    for name, extra, runs in CONFIGS:
        extra = [x.replace("{meshes}", meshes) for x in extra]
        ref = None
        for np_, grid in runs:
            out = os.path.join(tmp, "%s_np%d_%s" % (name, np_, grid.replace(",", "x")))
            try:
                summ = run(args, np_, grid, out, extra)
            except RuntimeError as e:
                print("FAIL %s np=%d grid=%s: %s" % (name, np_, grid, e))
                failed += 1
                continue
            problems = []
            if summ["lost_particles"] != 0:
                problems.append("lost %d particles" % summ["lost_particles"])
            if name in MUST_BALANCE and np_ > 1 and summ.get("balance_moves", 0) < 1:
                problems.append("the cuts never moved (balance_moves %s)" % summ.get("balance_moves"))
            if ref is None:
                ref = (out, summ)
            else:
                p = subprocess.run([args.hdem, "diff", os.path.join(ref[0], "final.h5"), os.path.join(out, "final.h5")], capture_output=True, text=True)
                d = json.loads(p.stdout) if p.stdout.strip() else {"identical": False, "error": p.stderr}
                if not d.get("identical"):
                    problems.append("not bitwise identical to %s: %s" % (os.path.basename(ref[0]), d))
                if summ["particles"] != ref[1]["particles"] or summ["steps"] != ref[1]["steps"]:
                    problems.append("particles/steps differ")
                problems += mesh_differences(os.path.join(ref[0], "final.h5"), os.path.join(out, "final.h5"))
                problems += body_differences(os.path.join(ref[0], "final.h5"), os.path.join(out, "final.h5"))
                if thermo_rows(ref[0]) != thermo_rows(out):
                    problems.append("thermo.csv (less wall_seconds) differs from %s" % os.path.basename(ref[0]))
                for csvname in ("walls.csv", "flow.csv"):
                    wa, wb = os.path.join(ref[0], csvname), os.path.join(out, csvname)
                    if os.path.exists(wa) != os.path.exists(wb) or (os.path.exists(wa) and open(wa, "rb").read() != open(wb, "rb").read()):
                        problems.append("%s differs from %s" % (csvname, os.path.basename(ref[0])))
            status = "FAIL" if problems else "PASS"
            passed += not problems
            failed += bool(problems)
            print("%s %s np=%d grid=%s particles=%d steps=%d rebuilds=%d dt_mean=%.3e balance_moves=%d owned=%s %s" % (
                status, name, np_, grid, summ["particles"], summ["steps"], summ["rebuilds"], summ["dt_mean"],
                summ["balance_moves"], summ["owned_particles"], "; ".join(problems)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
