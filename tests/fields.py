#!/usr/bin/python3
"""Coarse-grained fields (docs/deck/fields.md, fields.h5) against closed forms, the
same bits on any rank count and across a restart, bad keys refused, and
tools/fields.py on a run's output.

    fields.py --hdem build/hdem --mpiexec mpiexec --tools tools [--keep DIR]

- a cubic lattice (a LAMMPS data file, periodic box): bins of two pitches hold
  8 particles each, so the number density is 1 / a^3 and the solid fraction
  (4/3) pi r^3 / a^3 to rounding; the Lucy kernel gives the lattice sum an
  independent evaluation here computes, and 1 / a^3 within 1 %;
- a rigid-body rotation about z: bins that each hold one column of the lattice
  (one velocity) give zero granular temperature; the Lucy kernel gives the
  spread of the velocities within its reach, the closed form evaluated here;
- a bed on a floor: in bins along z the contact stress is the momentum balance
  of the particles above each height, sum (F_i + m_i g) (clip(z_i) - z1) / (A h)
  with F_i their total force, to rounding (every contact and the floor's, in
  zz, xz, yz); settled, the total stress is the weight above (W(z) / A) within
  2 % of the bed's weight;
- tests/data/bitwise.yaml: fields.h5 the same bits on 1, 2 and 4 ranks (a
  Gaussian kernel on a 3-D grid periodic in x and y), the run's final state the
  same bits with fields as without (a sampled step takes the generic sphere
  path, the others the fused one: dry, and wet with liquid bridges), and a run
  continued on 2 ranks from a
  checkpoint in mid-window the same bits as the run on 1 rank;
- a grid of zero cells, a width <= 0, a region outside the domain, a window
  longer than the interval: errors naming the key, before any step.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

check = harness.Checks()
HERE = os.path.dirname(os.path.abspath(__file__))
QUIET = ["-thermo_screen", "false", "-progress_interval", "0", "-snapshot_frames", "0"]


def lammps(path, pos, radius, density, vel=None, lo=(0, 0, 0), hi=(1, 1, 1)):
    with open(path, "w") as f:
        f.write("LAMMPS data file\n\n%d atoms\n1 atom types\n\n" % len(pos))
        for a, n in enumerate("xyz"):
            f.write("%.17g %.17g %slo %shi\n" % (lo[a], hi[a], n, n))
        f.write("\nAtoms # sphere\n\n")
        for i, x in enumerate(pos):
            f.write("%d 1 %.17g %.17g %.17g %.17g %.17g\n" % (i + 1, 2 * radius, density, x[0], x[1], x[2]))
        if vel is not None:
            f.write("\nVelocities\n\n")
            for i, v in enumerate(vel):
                f.write("%d %.17g %.17g %.17g 0 0 0\n" % (i + 1, v[0], v[1], v[2]))


def run(args, deck, out, extra=(), np_=1, expect=0):
    cmd = harness.mpi(args.mpiexec, np_) + [args.hdem, "run", deck, "-output_dir", out] + QUIET + list(extra)
    return harness.run(cmd, expect=expect)


def last(out):
    f = h5py.File(os.path.join(out, "fields.h5"), "r")
    return f, f["frames"][sorted(f["frames"])[-1]]


def lucy(r, c):
    u = np.minimum(r / c, 1.0)
    return (1 + 3 * u) * (1 - u) ** 3


LATTICE_DECK = """domain:
  lo: [0, 0, 0]
  hi: [%(L).17g, %(L).17g, %(L).17g]
  periodic: [true, true, true]
gravity: [0, 0, 0]
material: {E: 1.0e7, nu: 0.3}
contact: {law: hertz, e: 0.5}
insert: {mode: lammps, file: %(data)s}
steps: 1
"""


def lattice(args, tmp):
    a, r, m = 2.0e-3, 0.5e-3, 8
    g = (np.arange(m) + 0.5) * a
    pos = np.array([(x, y, z) for z in g for y in g for x in g])
    data = os.path.join(tmp, "lattice.data")
    lammps(data, pos, r, 2500.0, hi=(m * a,) * 3)
    deck = os.path.join(tmp, "lattice.yaml")
    with open(deck, "w") as f:
        f.write(LATTICE_DECK % {"L": m * a, "data": data})
    out = os.path.join(tmp, "lattice_bins")
    run(args, deck, out, ["-fields_interval", "1", "-fields_kernel", "bins", "-fields_grid", "4,4,4"])
    f, fr = last(out)
    n, phi = fr["number_density"][()], fr["solid_fraction"][()]
    check(np.allclose(n, 1 / a ** 3, rtol=1e-13, atol=0), "lattice, bins: number density 1/a^3 in every bin "
          "(%.15g, %.15g)" % (n.min() * a ** 3, n.max() * a ** 3))
    vp = 4.0 / 3.0 * np.pi * r ** 3
    check(np.allclose(phi, vp / a ** 3, rtol=1e-13, atol=0), "lattice, bins: solid fraction (4/3) pi r^3 / a^3 = %.6f "
          "(%.15g .. %.15g)" % (vp / a ** 3, phi.min(), phi.max()))
    check(np.allclose(fr["mass_density"][()], 2500.0 * vp / a ** 3, rtol=1e-13, atol=0),
          "lattice, bins: mass density rho_p phi")
    out = os.path.join(tmp, "lattice_lucy")
    c = 3.0 * a
    run(args, deck, out, ["-fields_interval", "1", "-fields_grid", "8,8,8", "-fields_width", str(c)])
    f, fr = last(out)
    n = fr["number_density"][()]
    # the periodic lattice sum at a cell centre (a lattice site): every image within c
    k = np.arange(-3, 4) * a
    d = np.sqrt(k[:, None, None] ** 2 + k[None, :, None] ** 2 + k[None, None, :] ** 2)
    expect = (105.0 / (16 * np.pi * c ** 3)) * lucy(d, c)[d < c].sum()
    check(np.allclose(n, expect, rtol=1e-12, atol=0), "lattice, Lucy c = 3a: the lattice sum %.12g (%.12g .. %.12g)"
          % (expect * a ** 3, n.min() * a ** 3, n.max() * a ** 3))
    check(abs(n.mean() * a ** 3 - 1) < 0.01, "lattice, Lucy: number density 1/a^3 within 1 %% (%.5f)"
          % (n.mean() * a ** 3))


ROTATION_DECK = """domain:
  lo: [0, 0, 0]
  hi: [%(L).17g, %(L).17g, %(H).17g]
gravity: [0, 0, 0]
material: {E: 1.0e7, nu: 0.3}
contact: {law: hertz, e: 0.5}
insert: {mode: lammps, file: %(data)s}
steps: 1
"""


def rotation(args, tmp):
    a, r, m, w = 2.0e-3, 0.5e-3, 8, 10.0
    L = m * a
    g = (np.arange(m) + 0.5) * a
    pos = np.array([(x, y, z) for z in g[:2] for y in g for x in g])
    vel = np.array([(-w * (p[1] - L / 2), w * (p[0] - L / 2), 0.0) for p in pos])
    data = os.path.join(tmp, "rotation.data")
    lammps(data, pos, r, 2500.0, vel, hi=(L, L, 2 * a))
    deck = os.path.join(tmp, "rotation.yaml")
    with open(deck, "w") as f:
        f.write(ROTATION_DECK % {"L": L, "H": 2 * a, "data": data})
    out = os.path.join(tmp, "rotation_bins")
    run(args, deck, out, ["-fields_interval", "1", "-fields_kernel", "bins", "-fields_grid", "8,8,1"])
    f, fr = last(out)
    T, V = fr["granular_temperature"][()], fr["velocity"][()]
    scale = (w * L) ** 2
    check(np.abs(T).max() < 1e-12 * scale, "rotation, bins of one column each: granular temperature 0 "
          "(largest %.3g m^2/s^2, (omega L)^2 = %.3g)" % (np.abs(T).max(), scale))
    st = h5py.File(os.path.join(out, "final.h5"), "r")
    x, v = st["particles/position"][()], st["particles/velocity"][()]
    cell = np.floor(x[:, 0] / a).astype(int) + m * np.floor(x[:, 1] / a).astype(int)
    mean = np.array([v[cell == k].mean(axis=0) for k in range(m * m)])
    check(np.allclose(V.reshape(m * m, 3), mean, rtol=1e-12, atol=1e-15 * w * L),
          "rotation, bins: the mean velocity is each column's")
    out = os.path.join(tmp, "rotation_lucy")
    c = 3.0 * a
    run(args, deck, out, ["-fields_interval", "1", "-fields_grid", "8,8,1", "-fields_width", str(c)])
    f, fr = last(out)
    T = fr["granular_temperature"][()][0]
    st = h5py.File(os.path.join(out, "final.h5"), "r")
    x, v = st["particles/position"][()], st["particles/velocity"][()]
    expect = np.zeros((m, m))
    for j in range(m):
        for i in range(m):
            cc = np.array([(i + 0.5) * a, (j + 0.5) * a])
            wt = lucy(np.hypot(x[:, 0] - cc[0], x[:, 1] - cc[1]), c)
            V = (wt[:, None] * v).sum(axis=0) / wt.sum()
            expect[j, i] = (wt * ((v - V) ** 2).sum(axis=1)).sum() / (3 * wt.sum())
    check(np.allclose(T, expect, rtol=1e-9, atol=1e-15 * scale), "rotation, Lucy c = 3a: the temperature of the "
          "velocities' spread within the kernel, the closed form here (%.4g .. %.4g m^2/s^2; omega^2 c^2 = %.3g)"
          % (expect.min(), expect.max(), (w * c) ** 2))


BED_DECK = """domain:
  lo: [0, 0, 0]
  hi: [0.008, 0.008, 0.02]
  periodic: [true, true, false]
  walls: true
gravity: [0, 0, -9.81]
material: {E: 1.0e6, nu: 0.3}
particle: {density: 2500}
contact: {law: hertz, e: 0.1, mu: 0.5}
insert:
  mode: lattice
  count: 200
  seed: 3
  spacing: 1.05
  radius: {distribution: uniform, min: 0.4e-3, max: 0.6e-3}
neighbor: {skin: 0.2e-3}
steps: 40000
thermo_interval: 4000
"""


def bed(args, tmp):
    deck = os.path.join(tmp, "bed.yaml")
    with open(deck, "w") as f:
        f.write(BED_DECK)
    out = os.path.join(tmp, "bed")
    run(args, deck, out, ["-fields_interval", "40000", "-fields_sample", "1", "-fields_window", "1",
                          "-fields_kernel", "bins", "-fields_grid", "1,1,16"])
    f, fr = last(out)
    z = f["grid/z"][()]
    st = h5py.File(os.path.join(out, "final.h5"), "r")
    x, r, F = st["particles/position"][()], st["particles/radius"][()], st["particles/force"][()]
    m, g, A = 2500 * 4 / 3 * np.pi * r ** 3, 9.81, 0.008 * 0.008
    sc, s = fr["contact_stress"][()][:, 0, 0, :], fr["stress"][()][:, 0, 0, :]
    top = m.sum() * g / A
    for comp, name, load in ((8, "zz", F[:, 2] + m * g), (2, "xz", F[:, 0]), (5, "yz", F[:, 1])):
        ex = np.array([(load * (np.clip(x[:, 2], z1, z2) - z1)).sum() / (A * (z2 - z1))
                       for z1, z2 in zip(z[:-1], z[1:])])
        check(np.abs(sc[:, comp] - ex).max() <= 1e-12 * top, "bed, bins: contact stress %s is the momentum balance "
              "of the particles above, floor contacts included (largest difference %.3g Pa of %.3g)"
              % (name, np.abs(sc[:, comp] - ex).max(), top))
    W = np.array([(m * g * (np.clip(x[:, 2], z1, z2) - z1)).sum() / (A * (z2 - z1)) for z1, z2 in zip(z[:-1], z[1:])])
    check(np.abs(s[:, 8] - W).max() < 0.02 * top, "bed, settled: stress zz is the weight above within 2 %% of the "
          "bed's (%s Pa against %s)" % (np.round(s[:4, 8], 2), np.round(W[:4], 2)))


BITWISE = ["-steps", "1000", "-fields_interval", "200", "-fields_sample", "20"]


def same(a, b):
    fa, fb = h5py.File(a, "r"), h5py.File(b, "r")
    names = []
    fa.visit(lambda n: names.append(n) if isinstance(fa[n], h5py.Dataset) else None)
    diff = [n for n in names if n not in fb or fa[n][()].tobytes() != fb[n][()].tobytes()]
    return len(names) > 0 and not diff, diff


def bitwise(args, tmp):
    deck = os.path.join(HERE, "data", "bitwise.yaml")
    gauss = BITWISE + ["-fields_kernel", "gaussian", "-fields_grid", "3,2,8", "-fields_width", "1e-3"]
    for np_ in (1, 2, 4):
        run(args, deck, os.path.join(tmp, "bw%d" % np_), gauss, np_)
    for np_ in (2, 4):
        ok, diff = same(os.path.join(tmp, "bw1", "fields.h5"), os.path.join(tmp, "bw%d" % np_, "fields.h5"))
        check(ok, "bitwise.yaml, Gaussian 3x2x8: fields.h5 on %d ranks the same bits as on 1 %s" % (np_, diff or ""))
    run(args, deck, os.path.join(tmp, "bw_off"), ["-steps", "1000"])
    ok, diff = same(os.path.join(tmp, "bw_off", "final.h5"), os.path.join(tmp, "bw1", "final.h5"))
    check(ok, "bitwise.yaml: the final state the same bits with fields as without %s" % (diff or ""))
    # a step whose contacts a frame samples takes the generic sphere path; the others the fused one, wet or dry
    # (with rolling resistance and the ledger: the rolling power's sums in pair order, in the checkpoints)
    wet = ["-material_liquid", "2e-11", "-contact_liquid_viscosity", "1e-3", "-contact_liquid_contact_angle", "10",
           "-contact_mu_roll", "0.3", "-thermo_ledger", "true", "-checkpoint_interval_steps", "500"]
    run(args, deck, os.path.join(tmp, "wet_on"), BITWISE + ["-fields_grid", "1,1,10"] + wet)
    run(args, deck, os.path.join(tmp, "wet_off"), ["-steps", "1000"] + wet)
    ok, diff = same(os.path.join(tmp, "wet_off", "final.h5"), os.path.join(tmp, "wet_on", "final.h5"))
    for step in ("000000500", "000001000"):
        ck = [os.path.join(tmp, d, "checkpoints", "step_%s.h5" % step) for d in ("wet_off", "wet_on")]
        ok_ck, diff_ck = same(*ck)
        ok, diff = ok and ok_ck, (diff or []) + diff_ck
    rows = [open(os.path.join(tmp, d, "thermo.csv")).read().splitlines() for d in ("wet_off", "wet_on")]
    col = rows[0][0].split(",").index("bridges")
    bridges = int(float(rows[0][-1].split(",")[col]))
    same_liquid = [r.split(",")[:-1] for r in rows[0]] == [r.split(",")[:-1] for r in rows[1]]
    check(ok and same_liquid and bridges > 0, "bitwise.yaml with liquid bridges (%d at the end) and rolling resistance: "
          "the final state, the checkpoints (the ledger too) and thermo.csv the same bits with fields (the generic "
          "path every 20 steps) as without %s" % (bridges, diff or ""))
    lucy_ = BITWISE + ["-fields_grid", "1,1,10", "-fields_window", "150", "-checkpoint_interval_steps", "300",
                       "-checkpoint_keep", "5"]
    one, two = os.path.join(tmp, "rs1"), os.path.join(tmp, "rs2")
    run(args, deck, one, lucy_)
    shutil.copytree(one, two)
    ck = os.path.join(two, "checkpoints", "step_000000300.h5")
    run(args, deck, two, lucy_ + ["-restart", ck], 2)
    ok, diff = same(os.path.join(one, "fields.h5"), os.path.join(two, "fields.h5"))
    f = h5py.File(os.path.join(two, "fields.h5"), "r")
    check(ok and len(f["frames"]) == 5, "restart at step 300 (mid-window) on 2 ranks: fields.h5 the same bits as "
          "the run on 1 rank, 5 frames %s" % (diff or ""))


def errors(args, tmp):
    deck = os.path.join(HERE, "data", "bitwise.yaml")
    cases = [(["-fields_grid", "4,0,4"], "-fields_grid"), (["-fields_width", "0"], "-fields_width"),
             (["-fields_width", "-1e-3"], "-fields_width"), (["-fields_lo", "-0.001,0,0"], "-fields_lo"),
             (["-fields_hi", "0.012,0.009,0.06"], "-fields_hi"), (["-fields_window", "300"], "-fields_window"),
             (["-fields_kernel", "tophat"], "-fields_kernel")]
    for extra, key in cases:
        out = os.path.join(tmp, "err")
        p = run(args, deck, out, ["-steps", "10", "-fields_interval", "200"] + extra, expect=None)
        msg = p.stdout + p.stderr
        check(p.returncode != 0 and key in msg and not os.path.exists(os.path.join(out, "thermo.csv")),
              "%s: refused naming %s before any step" % (" ".join(extra), key))


def tools(args, tmp):
    tool = os.path.join(args.tools, "fields.py")
    h5 = os.path.join(tmp, "rs1", "fields.h5")
    p = harness.run([sys.executable, tool, "profile", h5, "--axis", "z", "--field", "solid_fraction",
                     "--field", "stress:zz", "--field", "velocity:norm"])
    rows = [line.split(",") for line in p.stdout.splitlines()[2:]]
    f, fr = last(os.path.join(tmp, "rs1"))
    z = f["grid/z"][()]
    phi, szz = fr["solid_fraction"][()][:, 0, 0], fr["stress"][()][:, 0, 0, 8]
    vn = np.sqrt((fr["velocity"][()][:, 0, 0, :] ** 2).sum(axis=1))
    got = np.array([[float(v) for v in r] for r in rows])
    check(got.shape == (10, 4) and np.allclose(got[:, 0], 0.5 * (z[1:] + z[:-1]), rtol=1e-9)
          and np.allclose(got[:, 1], phi, rtol=1e-9) and np.allclose(got[:, 2], szz, rtol=1e-9, atol=1e-9)
          and np.allclose(got[:, 3], vn, rtol=1e-9, atol=1e-12),
          "tools/fields.py profile: the frame's cells along z")
    bw = os.path.join(tmp, "bw1", "fields.h5")
    p = harness.run([sys.executable, tool, "profile", bw, "--axis", "x", "--field", "mass_density", "--step", "400"])
    got = np.array([float(r.split(",")[1]) for r in p.stdout.splitlines()[2:]])
    rho = h5py.File(bw, "r")["frames/000000000400/mass_density"][()]
    check(np.allclose(got, rho.mean(axis=(0, 1)), rtol=1e-9), "tools/fields.py profile --step: the average over "
          "the other axes of a 3-D grid")
    png = os.path.join(tmp, "map.png")
    harness.run([sys.executable, tool, "map", bw, png, "--plane", "xz", "--field", "stress:zz"])
    with open(png, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "tools/fields.py map: a PNG")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--keep")
    args = ap.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="hdem_fields_")
    os.makedirs(tmp, exist_ok=True)
    try:
        for case in (lattice, rotation, bed, bitwise, errors, tools):
            try:
                case(args, tmp)
            except (RuntimeError, subprocess.TimeoutExpired, KeyError, OSError) as err:
                check(False, "%s: %s" % (case.__name__, err))
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
