#!/usr/bin/python3
"""tests/README.md against the registered tests: every test CTest lists
(`ctest --show-only=json-v1`, what `ctest -N` lists) has its row in one of the
README's tables, and every row names a registered test. Every test also carries
one of the labels tests/README.md describes (LABELS below).

Only tables whose first column is headed `test` list tests. A row's first cell starts with the test's name in backticks. In a table with a
`ranks` column the row stands for one test per rank count: NAME for 1 rank,
NAME_npN for N ranks. A name ending in `*` (`sanitize_*`) covers the tests that
start with it and only exist in some configurations; it is never stale.

  tests/readme_tests.py --ctest CTEST --build BUILD_DIR --readme tests/README.md"""
import argparse
import json
import re
import sys

import harness


LABELS = {"unit", "physics", "parallel", "restart", "outputs", "paraview", "slurm", "fuzz", "tools", "house"}


def registered(ctest, build):
    """{test name: its labels}, in CTest's order."""
    p = harness.run([ctest, "--test-dir", build, "--show-only=json-v1"])
    tests = {}
    for t in json.loads(p.stdout)["tests"]:
        props = {q["name"]: q["value"] for q in t.get("properties", [])}
        tests.setdefault(t["name"], []).append(props.get("LABELS", []))
    if not tests:
        raise RuntimeError("ctest lists no test in " + build)
    return tests


def documented(path):
    """{name: README line} of every table row, expanded over its ranks."""
    rows, header = {}, None
    for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if set(line.strip()) <= set("|-: ") or header[0] != "test":
            continue
        m = re.match(r"`([A-Za-z0-9_*]+)`", cells[0])
        if not m:
            continue
        name = m.group(1)
        ranks = [1]
        if "ranks" in header and not name.endswith("*"):
            ranks = [int(r) for r in re.findall(r"\d+", cells[header.index("ranks")])] or [1]
        for r in ranks:
            full = name if r == 1 else "%s_np%d" % (name, r)
            if full in rows:
                raise RuntimeError("%s:%d: %s is listed twice (also line %d)" % (path, lineno, full, rows[full]))
            rows[full] = lineno
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ctest", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--readme", default=harness.here("README.md"))
    a = ap.parse_args()
    check = harness.Checks("ok   ", "FAIL ")
    tests = registered(a.ctest, a.build)
    rows = documented(a.readme)
    globs = [n[:-1] for n in rows if n.endswith("*")]
    for t, labels in tests.items():
        check(len(labels) == 1, "%s is registered once" % t)
        check(t in rows or any(t.startswith(g) for g in globs),
              "%s is in %s" % (t, a.readme))
        check(bool(LABELS & set(labels[0])), "%s has a label of %s (%s)" % (t, sorted(LABELS), ";".join(labels[0])))
    for name, line in sorted(rows.items(), key=lambda r: r[1]):
        if not name.endswith("*"):
            check(name in tests, "%s (line %d of %s) is a registered test" % (name, line, a.readme))
    return check.report("%d failed (" + "%d tests, %d README rows)" % (len(tests), len(rows)))


if __name__ == "__main__":
    sys.exit(main())
