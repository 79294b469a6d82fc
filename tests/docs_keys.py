#!/usr/bin/python3
"""The reference in docs/ documents every key the binary knows, with its default.

    python3 tests/docs_keys.py HDEM DOCS_DIR

Runs `HDEM run -help`, `HDEM check -help` and `HDEM impact -help` (one process,
no MPI launcher) and parses every key line of the form

      -key                               default TEXT [units], allowed RANGE

(the units and the allowed part are optional; TEXT may hold spaces and commas).
Parses every markdown table whose header is exactly

    | key | default | units | allowed | description |

in DOCS_DIR/**/*.md (each deck page's `## Keys`, and the command pages'), whose
first cell is the key in backticks without its dash (`contact_e`) and whose
second cell is the default exactly as the help prints it.

Repeated keys: the help shows each key of the numbered sections once, for
number 0 (wall0_normal, mesh0_file, ...); such a key stands for every number
of its section (REPEATS: wall0 .. wall7, mesh0 .. mesh15, clump0 .. clump15, stream0 .. stream7,
outflow0 .. outflow7).  In the docs a row `wallN_normal` stands for
wall0_normal .. wall7_normal, likewise `meshN_`, `streamN_`, `outflowN_`.
Both sides are expanded before they are compared.

Checks:
  - every key of the help is documented exactly once, and every documented key
    is one the help lists;
  - the documented default is textually equal to the help's;
  - a key listed by several commands has the same default in each;
  - no default printed in the help is a number with 0 < |x| < 1e-300, or NaN
    (uninitialised memory);
  - `hdem`, `hdem -h`, `hdem --help` and `hdem help` exit 0 and each name the
    commands run, check, impact, diff and version; the -help of run, check and
    impact exit 0.

Exit 0 when everything holds; 1 with every mismatch listed."""
import glob
import math
import os
import re
import subprocess
import sys

COMMANDS = ("run", "check", "impact", "diff", "version")
HEADER = ["key", "default", "units", "allowed", "description"]
REPEATS = {"wall": range(8), "mesh": range(16), "stream": range(8), "outflow": range(8), "material": range(16), "clump": range(16)}
# pair_I_J_*: the help shows pair_0_1's keys, a table documents pair_I_J_*; every I, J of 0 .. 15
PAIRS = ["pair_%d_%d" % (i, j) for i in range(16) for j in range(16)]
KEY_LINE = re.compile(r"^  -(\S+)\s+default (.*)$")
# the shortest TEXT after which an optional " [units]" and an optional
# ", allowed ..." reach the end of the line
DEFAULT_SPLIT = re.compile(r"^(.*?)(?: \[([^\] ]*)\])?(?:, allowed (.*))?$")

ERRORS = []
WARNINGS = []


def error(msg):
    ERRORS.append(msg)


def run(hdem, args):
    env = dict(os.environ)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    try:
        p = subprocess.run([hdem] + args, capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        error("`hdem %s` could not run: %s" % (" ".join(args), exc))
        return None, "", ""
    return p.returncode, p.stdout, p.stderr


def parse_help(text, command):
    """{key: (default, units, allowed, section)} of one command's -help."""
    keys = {}
    lines = text.splitlines()
    section = "?"
    for i, line in enumerate(lines):
        if line and not line.startswith(" ") and line.endswith(":"):
            section = line[:-1]
            continue
        m = KEY_LINE.match(line)
        if not m:
            continue
        key, rest = m.group(1), m.group(2)
        d = DEFAULT_SPLIT.match(rest)
        default, units, allowed = d.group(1), d.group(2) or "", d.group(3) or ""
        if allowed.rstrip().endswith(","):
            WARNINGS.append("hdem %s -help: the allowed list of -%s ends with a comma (truncated?): %s" % (command, key, allowed))
        desc = lines[i + 1].strip() if i + 1 < len(lines) else ""
        names = [key]
        r = re.match(r"^(%s)0_(.*)$" % "|".join(REPEATS), key)
        if r:
            names = ["%s%d_%s" % (r.group(1), n, r.group(2)) for n in REPEATS[r.group(1)]]
        r = re.match(r"^pair_0_1_(.*)$", key)
        if r:
            names = ["%s_%s" % (p, r.group(1)) for p in PAIRS]
        for name in names:
            if name in keys:
                error("hdem %s -help lists -%s twice" % (command, name))
            keys[name] = (default, units, allowed, section)
    if not keys:
        error("hdem %s -help: no key lines found (format changed?)" % command)
    return keys


def suspicious_number(default):
    """A number in the default that is denormal-small or NaN."""
    for tok in re.split(r"[,\s;:()\[\]]+", default):
        try:
            x = float(tok)
        except ValueError:
            continue
        if math.isnan(x) or (0.0 < abs(x) < 1e-300):
            return tok
    return None


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip())
    if cells and cells[0] == "":
        cells = cells[1:]
    if cells and cells[-1] == "":
        cells = cells[:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def parse_docs(docs):
    """[(key, default, where)] of every key table under docs."""
    rows = []
    files = sorted(glob.glob(os.path.join(docs, "**", "*.md"), recursive=True))
    if not files:
        error("no markdown files under %s" % docs)
    for path in files:
        rel = os.path.relpath(path, docs)
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        i = 0
        while i < len(lines):
            if lines[i].lstrip().startswith("|") and [c.lower() for c in split_row(lines[i])] == HEADER:
                i += 2  # header and the |---| line
                while i < len(lines) and lines[i].lstrip().startswith("|"):
                    cells = split_row(lines[i])
                    where = "%s:%d" % (rel, i + 1)
                    if len(cells) != len(HEADER):
                        error("%s: a key row needs %d cells, has %d" % (where, len(HEADER), len(cells)))
                    else:
                        m = re.match(r"^`([A-Za-z0-9_]+)`$", cells[0])
                        if not m:
                            error("%s: the key cell must be the key in backticks without the dash, got %r" % (where, cells[0]))
                        else:
                            key = m.group(1)
                            r = re.match(r"^(%s)N_(.*)$" % "|".join(REPEATS), key)
                            rp = re.match(r"^pair_I_J_(.*)$", key)
                            if r:
                                for n in REPEATS[r.group(1)]:
                                    rows.append(("%s%d_%s" % (r.group(1), n, r.group(2)), cells[1], where))
                            elif rp:
                                for pn in PAIRS:
                                    rows.append(("%s_%s" % (pn, rp.group(1)), cells[1], where))
                            else:
                                rows.append((key, cells[1], where))
                    i += 1
                continue
            i += 1
    if not rows:
        error("no key table (header %s) found under %s" % ("| " + " | ".join(HEADER) + " |", docs))
    return rows


def main():
    if len(sys.argv) != 3:
        print("usage: docs_keys.py HDEM DOCS_DIR", file=sys.stderr)
        return 2
    hdem, docs = sys.argv[1], sys.argv[2]

    # the top-level usage
    for args in ([], ["-h"], ["--help"], ["help"]):
        rc, out, err = run(hdem, args)
        what = "`hdem%s`" % ("" if not args else " " + args[0])
        if rc is None:
            continue
        if rc != 0:
            error("%s exits %d, not 0" % (what, rc))
        for c in COMMANDS:
            if not re.search(r"\bhdem %s\b" % c, out):
                error("%s does not list the command %s" % (what, c))

    # every command's keys
    helpkeys = {}  # key -> {command: (default, units, allowed, section)}
    for command in ("run", "check", "impact"):
        rc, out, err = run(hdem, [command, "-help"])
        if rc is None:
            continue
        if rc != 0:
            error("`hdem %s -help` exits %d, not 0: %s" % (command, rc, err.strip()))
        for key, val in parse_help(out, command).items():
            helpkeys.setdefault(key, {})[command] = val

    for key, per in sorted(helpkeys.items()):
        defaults = {v[0] for v in per.values()}
        if len(defaults) > 1:
            error("-%s has different defaults in the commands' help: %s" % (key, "; ".join("%s: %r" % (c, v[0]) for c, v in sorted(per.items()))))
        for c, v in sorted(per.items()):
            tok = suspicious_number(v[0])
            if tok is not None:
                error("hdem %s -help: the default of -%s is %r (%s: uninitialised memory?)" % (c, key, v[0], tok))

    # the docs against the help
    rows = parse_docs(docs)
    seen = {}
    for key, default, where in rows:
        seen.setdefault(key, []).append((default, where))
    for key, per in sorted(helpkeys.items()):
        cmds = ", ".join(sorted(per))
        if key not in seen:
            error("-%s (hdem %s -help, section %s) is not documented in any key table" % (key, cmds, next(iter(per.values()))[3]))
            continue
        if len(seen[key]) > 1:
            error("-%s is documented %d times: %s" % (key, len(seen[key]), ", ".join(w for _, w in seen[key])))
        want = next(iter(per.values()))[0]
        for default, where in seen[key]:
            if default != want:
                error("%s: `%s` default %r, but hdem %s -help prints %r" % (where, key, default, cmds, want))
    for key, docs_rows in sorted(seen.items()):
        if key not in helpkeys:
            error("%s: `%s` is documented but no command's -help lists it" % (", ".join(w for _, w in docs_rows), key))

    for w in WARNINGS:
        print("warning: " + w)
    if ERRORS:
        print("docs_keys: FAIL, %d mismatch(es):" % len(ERRORS))
        for e in ERRORS:
            print("  " + e)
        return 1
    print("docs_keys: ok: %d keys of hdem run/check/impact documented once each with the help's defaults; top-level help lists %s"
          % (len(helpkeys), ", ".join(COMMANDS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
