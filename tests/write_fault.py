#!/usr/bin/python3
"""A write that fails on one rank (a full disk, through the LD_PRELOAD shim
write_fault.c) of final.h5, a snapshot or a checkpoint, at 1 rank and on either
of 2 ranks: the run stops with exit != 0 and the error, within a timeout (it used
to hang the other rank inside the write's collectives), without a crash (at 1
rank it used to end in a segmentation fault at exit), and the unfinished file keeps
its .tmp name (no complete file is touched)."""
import argparse
import os
import subprocess
import sys
import tempfile
import harness


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--deck", required=True)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hdem_wfault_")
    failed = 0
    for np, rank in ((1, 0), (2, 0), (2, 1)):
        for pat, tmpname in (("final.h5", "final.h5.tmp"), ("snap_", "snapshots/snap_000000000.h5.tmp"), ("step_", "checkpoints/step_000000100.h5.tmp")):
            out = os.path.join(tmp, "np%d_rank%d_%s" % (np, rank, tmpname.split("/")[0].split(".")[0]))
            cmd = harness.mpi(a.mpiexec, np, serial_bare=False)
            cmd += ["-x", "LD_PRELOAD=" + a.shim, "-x", "HDEM_FAULT_RANK=%d" % rank, "-x", "HDEM_FAULT_FILE=" + pat]
            cmd += [a.hdem, "run", a.deck, "-steps", "300", "-snapshot_interval_steps", "100", "-checkpoint_interval_steps", "100", "-output_dir", out]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                # at 1 rank the abandoned temporary is removed before the run ends; on 2 the abort leaves it
                ok = p.returncode != 0 and "hdem: error" in p.stderr and (np == 1 or os.path.exists(os.path.join(out, tmpname))) and not os.path.exists(os.path.join(out, tmpname[:-4]))
                ok = ok and "Segmentation fault" not in p.stdout + p.stderr and "signal 11" not in p.stdout + p.stderr and p.returncode not in (139, -11)
                why = next((l for l in p.stderr.splitlines() if "hdem: error" in l), "no message")[:160]
            except subprocess.TimeoutExpired:
                ok, why = False, "hung (120 s)"
            print("%s write of %s fails on rank %d of %d: %s" % ("PASS" if ok else "FAIL", pat, rank, np, why), flush=True)
            failed += not ok
    print("%d failure(s)" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
