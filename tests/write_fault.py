#!/usr/bin/python3
"""A full disk. A write that fails on one rank (through the LD_PRELOAD shim
write_fault.c) of final.h5, a snapshot or a checkpoint, at 1 rank, on either of
2 ranks and on the last of 3, of fields.h5, thermo.csv and walls.csv (rank
0's) at 2 ranks, and only at
final.h5's flush at 1 rank: the run stops within a timeout (it used to hang the
other ranks inside the write's collectives) with exit 1 at any number of ranks,
without a crash (at 1 rank it used to end in a segmentation fault at exit) and
without MPI_Abort's banner (at 2 ranks it used to end in MPI_ABORT), the error
"cannot write FILE: no space left on device" naming the file; summary.json says
status failed with that reason; the unfinished file keeps its .tmp name or is
removed (no complete file is touched), and the files written before it are
intact: the same, by hdem diff, as those of a run whose write failed later. As
root, the same on a real full file system (a tmpfs of 2 MB: rank 0's stdio files
fail, which the shim cannot reach inside the C library) at 1 and 2 ranks."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import harness


def summary_failed(out):
    """The reason of a summary.json with status failed, else None."""
    try:
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
    except (OSError, ValueError):
        return None
    return s.get("reason", "") if s.get("status") == "failed" else None


def run_case(check, cmd, out, np, what, pat=None, tmpname=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        check(False, "%s: hung (120 s)" % what)
        return
    err = p.stdout + p.stderr
    line = next((l for l in p.stderr.splitlines() if "hdem: error" in l), "no message")
    check(p.returncode not in (0, 139, -11) and "Segmentation fault" not in err and "signal 11" not in err,
          "%s: exit %d, no crash" % (what, p.returncode))
    named = "no space left on device" in line and (pat is None or os.path.join(out, "") in line and pat in line)
    check(named, "%s: says %s" % (what, line[:160]))
    reason = summary_failed(out)
    check(reason is not None and "no space left on device" in reason,
          "%s: summary.json status failed, reason %s" % (what, reason))
    check(p.returncode == 1, "%s: exit %d, as at 1 rank (1)" % (what, p.returncode))
    banner = [b for b in ("MPI_ABORT", "has exited due to process rank", "exiting improperly", "Segmentation")
              if b in err]
    check(not banner, "%s: no MPI_Abort banner, no crash (%s)" % (what, ", ".join(banner) or "none"))
    if tmpname:
        check(not os.path.exists(os.path.join(out, tmpname[:-4])), "%s: no complete %s" % (what, tmpname[:-4]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--deck", required=True)
    a = ap.parse_args()
    check = harness.Checks(flush=True)
    tmp = tempfile.mkdtemp(prefix="hdem_wfault_")
    cases = (("final.h5", "final.h5.tmp"), ("snap_", "snapshots/snap_000000000.h5.tmp"),
             ("step_", "checkpoints/step_000000100.h5.tmp"))
    def faulty(np, rank, pat, name, extra=(), env=()):
        out = os.path.join(tmp, "np%d_rank%d_%s" % (np, rank, name))
        cmd = harness.mpi(a.mpiexec, np, serial_bare=False)
        cmd += ["-x", "LD_PRELOAD=" + a.shim, "-x", "HDEM_FAULT_RANK=%d" % rank, "-x", "HDEM_FAULT_FILE=" + pat]
        for kv in env:
            cmd += ["-x", kv]
        cmd += [a.hdem, "run", a.deck, "-steps", "300", "-snapshot_interval_steps", "100",
                "-checkpoint_interval_steps", "100", "-output_dir", out] + list(extra)
        return cmd, out

    for np, rank in ((1, 0), (2, 0), (2, 1), (3, 2)):
        for pat, tmpname in cases:
            cmd, out = faulty(np, rank, pat, tmpname.split("/")[0].split(".")[0])
            run_case(check, cmd, out, np, "write of %s fails on rank %d of %d" % (pat, rank, np), pat, tmpname)
    # only the flush at the file's close fails (its superblock): HDF5 1.10
    # cannot close such a file (it used to crash at exit); one rank only, as
    # one of several would leave the others inside HDF5's collective flush
    cmd, out = faulty(1, 0, "final.h5", "flush", env=("HDEM_FAULT_OFFSET=0",))
    run_case(check, cmd, out, 1, "the flush of final.h5 fails at 1 rank", "final.h5", "final.h5.tmp")
    # fields.h5, written by rank 0 alone (serial HDF5)
    cmd, out = faulty(2, 0, "fields.h5", "fields", ("-fields_interval", "100"))
    run_case(check, cmd, out, 2, "write of fields.h5 fails on rank 0 of 2", "fields.h5", "fields.h5.tmp")
    # rank 0's logs (stdio) at 2 ranks: their failure is every rank's
    for pat in ("thermo.csv", "walls.csv"):
        cmd, out = faulty(2, 0, pat, pat.split(".")[0], ("-thermo_interval", "50"))
        run_case(check, cmd, out, 2, "write of %s fails on rank 0 of 2" % pat, pat)
    # a later write fails on one rank: the earlier files stay whole, the same
    # as those of the 1-rank run whose final.h5 failed (results are the same
    # on any number of ranks)
    ref = os.path.join(tmp, "np1_rank0_final")
    later = (("snapshots/snap_000000200.h5", "snapshots/snap_000000100.h5"),
             ("checkpoints/step_000000300.h5", "checkpoints/step_000000200.h5"))
    for np, rank in ((2, 1), (3, 1)):
        for failing, before in later:
            pat = os.path.basename(failing)
            cmd, out = faulty(np, rank, pat, "later_" + pat.split("_")[0])
            what = "write of %s fails on rank %d of %d" % (pat, rank, np)
            run_case(check, cmd, out, np, what, pat, failing + ".tmp")
            d = subprocess.run([a.hdem, "diff", os.path.join(out, before), os.path.join(ref, before)],
                               capture_output=True, text=True)
            check(d.returncode == 0, "%s: %s written before is whole and the same as at 1 rank (diff exit %d %s)"
                  % (what, before, d.returncode, d.stderr.strip()[-200:]))
    # a real full disk: every rank's writes fail once the 2 MB are used
    if os.geteuid() == 0:
        mnt = os.path.join(tmp, "full")
        os.mkdir(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt]).returncode == 0:
            try:
                for np in (1, 2):
                    out = os.path.join(mnt, "np%d" % np)
                    cmd = harness.mpi(a.mpiexec, np) + [a.hdem, "run", a.deck, "-steps", "3000",
                                                        "-snapshot_interval_steps", "20", "-output_dir", out]
                    run_case(check, cmd, out, np, "a 2 MB file system filled at %d rank(s)" % np)
                    subprocess.run(["rm", "-rf", out])
            finally:
                subprocess.run(["umount", mnt])
        else:
            print("NOTE no tmpfs could be mounted: the full file system is not tried")
    return check.report("%d failure(s)")


if __name__ == "__main__":
    sys.exit(main())
