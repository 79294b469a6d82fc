#!/usr/bin/python3
"""What a new user meets first, run as a user would, from a working directory
outside the repository:

- the quick-start deck (inputs/column_collapse.yaml, shortened by options) at 2
  ranks prints a banner, thermo rows and the closing block, and every output the
  closing block names exists (final.h5 with final.xdmf, snapshots by default,
  thermo.csv, summary.json with status completed); tools/render.py draws it;
- every deck in inputs/ runs from another working directory (shortened);
- `hdem check DECK -format yaml` is a deck that reproduces the run bitwise;
- a misspelt key gets a suggestion, and is reported before another error;
- `thermo_screen: false` silences the table, not the banner and closing block.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import harness

check = harness.Checks("ok   ", "FAIL ")
FAILS = check.failures


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--root", required=True, help="the repository")
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    root = os.path.abspath(a.root)
    mpi = [a.mpiexec, "--oversubscribe", "-np", "2"]
    work = tempfile.mkdtemp(prefix="hdem_front_")

    # The quick start, shortened: 0.03 s of the collapse.
    deck = os.path.join(root, "inputs", "column_collapse.yaml")
    rc, out, err = run(mpi + [hdem, "run", deck, "-end_time", "0.03", "-output_dir", "qs"], work)
    check(rc == 0, "quick-start deck runs (exit %d; %s)" % (rc, err.strip()[-300:]))
    lines = out.splitlines()
    check(len(lines) > 0 and lines[0].startswith("hdem ") and " on 2 ranks " in lines[0], "banner names the version and the ranks")
    check(any(l.strip().startswith("contact ") and "zeta" in l for l in lines), "banner gives the contact model with zeta")
    check(any(l.strip().startswith("time step ") for l in lines), "banner gives the step mode and bound")
    check(any(l.split()[:2] == ["step", "time"] for l in lines), "thermo rows printed as a table")
    closing = [i for i, l in enumerate(lines) if l.startswith("hdem: completed:")]
    check(len(closing) == 1, "closing block says completed")
    if closing:
        block = "\n".join(lines[closing[0]:])
        check("particle-steps/s" in lines[closing[0]], "closing line gives particle-steps/s")
        qs = os.path.join(work, "qs")
        for name in ("final.h5", "final.xdmf", "snapshots.xdmf", "thermo.csv", "summary.json"):
            check(os.path.join("qs", name) in block and os.path.isfile(os.path.join(qs, name)), "closing block names %s and it exists" % name)
        with open(os.path.join(qs, "summary.json")) as f:
            check(json.load(f).get("status") == "completed", "summary.json status completed")
        render = os.path.join(root, "tools", "render.py")
        try:
            import matplotlib  # noqa: F401
            import h5py  # noqa: F401
            png = os.path.join(work, "qs.png")
            rc, _, err = run([sys.executable, render, os.path.join(qs, "final.h5"), png, "--bands", "8", "--frozen-type", "2"], work)
            check(rc == 0 and os.path.getsize(png) > 10000, "tools/render.py draws the final state (%s)" % err.strip()[-200:])
        except ImportError:
            print("skip tools/render.py: no matplotlib/h5py")

    # Every deck in inputs/, from another working directory, shortened.
    for deck in sorted(glob.glob(os.path.join(root, "inputs", "*.yaml"))):
        name = os.path.basename(deck)
        with open(deck) as f:
            text = f.read()
        if "\nimpact:" in text:
            cmd = [hdem, "impact", "-options_file_yaml", deck, "-impact_v0", "1"]
        else:
            cmd = mpi + [hdem, "run", deck, "-steps", "5", "-output_dir", "deck_" + name]
        rc, out, err = run(cmd, work)
        check(rc == 0, "inputs/%s runs from another directory (%s)" % (name, err.strip()[-300:]))
        if "\nsnapshot" not in text and "\nimpact:" not in text:  # the default: 20 frames a run, and the start
            nsnap = len(glob.glob(os.path.join(work, "deck_" + name, "snapshots", "*.h5")))
            check(nsnap == 6, "inputs/%s: snapshots on by default (%d frames of 5 steps)" % (name, nsnap))
        head = text.lstrip().splitlines()
        check(len(head) > 3 and all(l.startswith("#") for l in head[:4]) and ("cores" in text.split("\n\n")[0] or "s on 2" in text),
              "inputs/%s has a header saying what it shows and how long it takes" % name)

    # check -format yaml reproduces the run bitwise; written to another folder.
    os.makedirs(os.path.join(work, "elsewhere"))
    opts = ["-steps", "30", "-snapshot_frames", "0"]
    rc, yaml_text, err = run([hdem, "check", deck_cc(root)] + opts + ["-output_dir", os.path.join(work, "from_yaml"), "-format", "yaml"], work)
    check(rc == 0 and "insert:" in yaml_text, "check -format yaml writes a deck (%s)" % err.strip()[-200:])
    ydeck = os.path.join(work, "elsewhere", "effective.yaml")
    with open(ydeck, "w") as f:
        f.write(yaml_text)
    rc1, _, err1 = run(mpi + [hdem, "run", deck_cc(root)] + opts + ["-output_dir", "from_deck"], work)
    rc2, _, err2 = run(mpi + [hdem, "run", ydeck], os.path.join(work, "elsewhere"))
    check(rc1 == 0 and rc2 == 0, "the deck and its effective configuration run (%s %s)" % (err1.strip()[-200:], err2.strip()[-200:]))
    rc, out, err = run([hdem, "diff", os.path.join(work, "from_deck", "final.h5"), os.path.join(work, "from_yaml", "final.h5")], work)
    check(rc == 0, "check -format yaml reproduces the run bitwise (%s)" % (out + err).strip()[-300:])

    # Misspelt keys: a suggestion, reported before any other error.
    rc, out, err = run([hdem, "run", deck_cc(root), "-contact_e", "5", "-snapshot_interval_tme", "0.1"], work)
    check(rc != 0 and "snapshot_interval_tme" in err and "did you mean snapshot_interval_time?" in err, "misspelt key gets its suggestion")
    check("contact_e" not in err.replace("snapshot", ""), "the misspelt key is reported before the range error")
    check(out == "", "nothing on stdout when the deck is refused")
    rc, out, err = run([hdem, "impact", "-impact_v00", "1"], work)
    check(rc != 0 and "did you mean impact_v0?" in err, "impact: misspelt key gets its suggestion")

    # thermo_screen false
    rc, out, err = run([hdem, "run", deck_cc(root), "-steps", "20", "-thermo_interval", "5", "-thermo_screen", "false", "-output_dir", "quiet"], work)
    lines = out.splitlines()
    check(rc == 0 and not any(l.split()[:2] == ["step", "time"] for l in lines) and any(l.startswith("hdem: completed") for l in lines),
          "thermo_screen false: no table, closing block kept")
    with open(os.path.join(work, "quiet", "thermo.csv")) as f:
        check(len(f.read().splitlines()) >= 5, "thermo_screen false still writes thermo.csv")

    if FAILS:
        print("%d failed" % len(FAILS))
        return 1
    subprocess.run(["rm", "-rf", work])
    return 0


def deck_cc(root):
    return os.path.join(root, "inputs", "column_collapse.yaml")


if __name__ == "__main__":
    sys.exit(main())
