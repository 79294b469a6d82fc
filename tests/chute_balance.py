#!/usr/bin/python3
"""A steady chute flow's coarse-grained fields against the momentum balance of an
inclined layer and Bagnold's velocity profile.

    chute_balance.py --hdem build/hdem --mpiexec mpiexec --inputs inputs [--keep DIR]

inputs/chute.yaml starts from its steady flow (inputs/data/chute.data): 2,736
spheres down a 26 degree incline over a frozen rough base, periodic in x and y.
20,000 steps (about 3.5 time units sqrt(d/g)) averaged in depth bins of half a
diameter, every 10th step a sample:

- momentum balance: in a steady layer periodic along the flow, the total stress at
  height z carries the weight of the flow above it, stress zz = rho_w(z) |g| cos 26
  and stress xz = -rho_w(z) |g| sin 26 (compression positive), with rho_w(z) the
  mass per area above z from the fields' own mass density; within 4 % of the
  stress at the base over every bin above the base (a flow that is not steady, or
  a contact stress that misses or double counts a contact, is off by more: from
  the loose lattice of tools/make_chute.py, still collapsing, the same window is
  12 % off);
- the ratio -stress xz / stress zz is tan 26 = 0.488 within 4 % in the bulk (2.4 %
  measured; from the loose lattice 26 %);
- the velocity is Bagnold's profile, u = u_b + C (H^1.5 - (H - z)^1.5) above the
  base, R^2 above 0.98, its residual below 0.6 of a straight line's;
- the solid fraction in the bulk between 0.45 and 0.62 (a dense flow).
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
QUIET = ["-thermo_screen", "false", "-progress_interval", "0", "-snapshot_frames", "0"]
STEPS = 20000
THETA = np.radians(26.0)


def profiles(out):
    f = h5py.File(os.path.join(out, "fields.h5"), "r")
    fr = f["frames"][sorted(f["frames"])[-1]]
    z = f["grid/z"][()]
    return (z, fr["mass_density"][()][:, 0, 0], fr["solid_fraction"][()][:, 0, 0], fr["velocity"][()][:, 0, 0, 0],
            fr["stress"][()][:, 0, 0, :], int(fr.attrs["samples"]))


def balance(args, tmp):
    out = os.path.join(tmp, "chute")
    deck = os.path.join(args.inputs, "chute.yaml")
    harness.run(harness.mpi(args.mpiexec, 2) + [args.hdem, "run", deck, "-output_dir", out, "-steps", str(STEPS),
                                                 "-fields_interval", str(STEPS), "-fields_window", str(STEPS),
                                                 "-fields_sample", "10"] + QUIET)
    z, rho, phi, u, s, samples = profiles(out)
    zc, dz = 0.5 * (z[1:] + z[:-1]), z[1] - z[0]
    check(samples == STEPS // 10, "one frame of %d samples (%d)" % (STEPS // 10, samples))
    # the mass per area above each bin's centre: the bins above plus half the bin's own
    above = np.array([rho[k + 1:].sum() * dz + 0.5 * rho[k] * dz for k in range(len(rho))])
    wz, wx = above * np.cos(THETA), above * np.sin(THETA)
    flow = (zc > 1.0) & (above > 0)  # above the base's centres (frozen, held by the deck)
    base = wz[flow].max()
    dzz, dxz = np.abs(s[flow, 8] - wz[flow]).max(), np.abs(-s[flow, 2] - wx[flow]).max()
    check(dzz < 0.04 * base, "stress zz is the weight above times cos 26 within 4 %% of the base's %.3f "
          "(largest difference %.3f)" % (base, dzz))
    check(dxz < 0.04 * base * np.tan(THETA), "stress xz is minus the weight above times sin 26 within 4 %% of the "
          "base's %.3f (largest difference %.3f)" % (base * np.tan(THETA), dxz))
    bulk_phi = phi[(zc > 4) & (zc < 12)].mean()
    surface = zc[np.where(phi > 0.5 * bulk_phi)[0].max()] + 0.5 * dz
    bulk = (zc > 2.5) & (zc < surface - 2.5)
    mu = (-s[bulk, 2]).sum() / s[bulk, 8].sum()
    check(abs(mu / np.tan(THETA) - 1) < 0.04, "-stress xz / stress zz in the bulk %.4f, tan 26 = %.4f"
          % (mu, np.tan(THETA)))
    check(0.45 < bulk_phi < 0.62, "solid fraction in the bulk %.3f: a dense flow" % bulk_phi)
    zb = 1.0
    H, m = surface - zb, (zc > 2.0) & (zc < surface - 1.0)
    X = np.c_[np.ones(m.sum()), H ** 1.5 - (H - (zc[m] - zb)) ** 1.5]
    c = np.linalg.lstsq(X, u[m], rcond=None)[0]
    res = ((X @ c - u[m]) ** 2).sum()
    r2 = 1 - res / ((u[m] - u[m].mean()) ** 2).sum()
    L = np.c_[np.ones(m.sum()), zc[m]]
    lres = ((L @ np.linalg.lstsq(L, u[m], rcond=None)[0] - u[m]) ** 2).sum()
    check(r2 > 0.98 and res < 0.6 * lres, "velocity: Bagnold's profile, u_b %.2f, C %.4f, R^2 %.4f, residual %.3g "
          "against a straight line's %.3g" % (c[0], c[1], r2, res, lres))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--keep")
    args = ap.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="hdem_chute_")
    os.makedirs(tmp, exist_ok=True)
    try:
        balance(args, tmp)
    except (RuntimeError, subprocess.TimeoutExpired, KeyError, OSError) as err:
        check(False, "balance: %s" % err)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(check.report())


if __name__ == "__main__":
    main()
