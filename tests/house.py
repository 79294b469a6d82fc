#!/usr/bin/python3
"""The house rules, checked on every C source and header of the repository:

  file_lines      no file over 600 lines;
  function_lines  no function over 80 lines: the lines strictly between its
                  opening `{` in column 0 and its closing `}` in column 0;
  line_width      no line over 120 characters;
  format          `clang-format --dry-run -Werror` clean with the repository's
                  .clang-format (skipped, saying so, when no clang-format is
                  installed: .ci/run installs it);
  include_circle  no include circle between units (below);
  doc_symbol      every name docs/architecture.md gives in backticks in
                  CamelCase (a function or a type: `EngineStep`,
                  `FieldStoreAdd(...)`, `Options*` for a prefix) occurs in the
                  code of some source (comments and strings do not count).

Units and circles.  A unit is a .c file and the .h file of the same path
without extension (src/geometry/mesh.c and src/geometry/mesh.h), or either
alone.  Unit A uses unit B (A != B) when
  - a file of A has `#include "..."` naming a file of B (looked up beside
    the including file, then from the repository's root, include/ and src/,
    as the build's include path does), or
  - a .c file of A names, in its code, a function that a .c file of B defines
    with external linkage and A does not define: a header that declares
    another unit's functions takes its includers to that unit.
An include circle is a set of two or more units each of which reaches every
other through uses (a strongly connected component).  Each member is
reported with its uses inside the circle (file:line, what it includes or
calls).

The files: `git ls-files` (tracked, and new files not ignored) in a git
checkout; otherwise every *.c and *.h under the root, outside hidden folders
and CMake build folders (those holding CMakeCache.txt).

Known exceptions: KNOWN lists (path, rule) pairs, the path a file's (a
unit's path without extension for include_circle).  Their violations are
printed as "known" and do not fail the test; an entry that no longer
matches any violation fails it, so the list can only shrink.  Every other
violation fails it, each printed as `path:line: rule: what`.

    tests/house.py [--root DIR] [--clang-format PROGRAM]"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import harness

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
MAX_LINE_WIDTH = 120

# (path, rule): what is known to break a rule today, each to be fixed by the
# work named beside it (issue 32); remove an entry when it is fixed (the test
# fails until then).
KNOWN = [
]

RULES = ["file_lines", "function_lines", "line_width", "format", "include_circle", "doc_symbol"]


class Violation:
    def __init__(self, path, line, rule, what):
        self.path, self.line, self.rule, self.what = path, line, rule, what

    def __str__(self):
        return "%s:%d: %s: %s" % (self.path, self.line, self.rule, self.what)


def build_folder(root, rel):
    """Whether rel lies in a CMake build folder or a hidden one under root."""
    parts = rel.split("/")[:-1]
    for k in range(len(parts)):
        if parts[k].startswith(".") or os.path.exists(os.path.join(root, *parts[:k + 1], "CMakeCache.txt")):
            return True
    return False


def sources(root):
    """The C sources and headers (paths relative to root, sorted) and how they were found."""
    files, how = [], None
    try:
        p = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "--", "*.c", "*.h"],
                           capture_output=True, text=True)
        if p.returncode == 0:
            files, how = p.stdout.split(), "git ls-files"
    except OSError:
        pass
    if not files:
        how = "a walk of the folders"
        for d, sub, names in os.walk(root):
            sub[:] = [s for s in sub if not s.startswith(".")
                      and not os.path.exists(os.path.join(d, s, "CMakeCache.txt"))]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith((".c", ".h"))]
    files = [f for f in files if os.path.isfile(os.path.join(root, f)) and not build_folder(root, f)]
    return sorted(set(f.replace(os.sep, "/") for f in files)), how


TOKENS = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_only(text):
    """text with comments, strings and characters blanked; newlines kept, so lines keep their numbers."""
    def blank(m):
        s = m.group(0)
        if s.startswith(("/", )):
            return re.sub(r"[^\n]", " ", s)
        return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
    return TOKENS.sub(blank, text)


def functions(lines):
    """(name, line of the head, line of `{`, lines between the braces, static) of each function:
    a `{` in column 0 after a head with a parenthesis, up to the next `}` in column 0."""
    out, start = [], None
    for k, line in enumerate(lines):
        if line.startswith("{"):
            start = k
        elif line.startswith("}") and start is not None:
            head, h = [], start - 1
            while h >= 0 and lines[h].strip() and not lines[h].startswith(("#", "}")) \
                    and not lines[h].rstrip().endswith((";", "*/", "}")):
                head.insert(0, lines[h])
                h -= 1
            text = " ".join(head)
            m = re.search(r"START_TEST\s*\(\s*(\w+)", text) or re.search(r"([A-Za-z_]\w*)\s*\(", text)
            if m:
                out.append((m.group(1), h + 2, start + 1, k - start - 1, bool(re.match(r"\s*static\b", text))))
            start = None
    return out


def check_sizes(root, files, texts):
    v = []
    for f in files:
        lines = texts[f].split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > MAX_FILE_LINES:
            v.append(Violation(f, 1, "file_lines", "%d lines (at most %d)" % (len(lines), MAX_FILE_LINES)))
        for name, head, brace, n, _ in functions(lines):
            if n > MAX_FUNCTION_LINES:
                v.append(Violation(f, head, "function_lines",
                                   "%s has %d lines (at most %d)" % (name, n, MAX_FUNCTION_LINES)))
        for k, line in enumerate(lines):
            if len(line) > MAX_LINE_WIDTH:
                v.append(Violation(f, k + 1, "line_width", "%d characters (at most %d)" % (len(line), MAX_LINE_WIDTH)))
    return v


def clang_format_program(given):
    if given:
        return given if shutil.which(given) else None
    for name in ("clang-format-14", "clang-format"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def check_format(root, files, program):
    v = []
    for k in range(0, len(files), 40):
        p = subprocess.run([program, "--dry-run", "-Werror", "--style=file"] + files[k:k + 40],
                           capture_output=True, text=True, cwd=root)
        seen = set()
        for m in re.finditer(r"^(.+?):(\d+):\d+: (?:error|warning): code should be clang-formatted", p.stderr, re.M):
            path = os.path.relpath(os.path.join(root, m.group(1)), root).replace(os.sep, "/")
            if path not in seen:
                seen.add(path)
                v.append(Violation(path, int(m.group(2)), "format",
                                   "not clang-format clean (first difference; clang-format -i %s)" % path))
        if p.returncode != 0 and not seen:
            raise RuntimeError("%s failed: %s" % (program, p.stderr[-1500:]))
    return v


def unit(path):
    return os.path.splitext(path)[0]


def include_target(root, f, name, known):
    for base in (os.path.dirname(f), "", "include", "src"):
        cand = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
        if cand in known:
            return cand
    return None


def uses(root, files, texts, codes):
    """{unit: {used unit: [(file, line, what)]}}"""
    known = set(files)
    defined, own = {}, {}
    for f in files:
        if not f.endswith(".c"):
            continue
        names = functions(codes[f].split("\n"))
        own[f] = set(n[0] for n in names)
        for name, head, _, _, static in names:
            if not static:
                defined.setdefault(name, set()).add(unit(f))
    callee = {name: next(iter(us)) for name, us in defined.items() if len(us) == 1}
    graph = {unit(f): {} for f in files}
    for f in files:
        u = unit(f)
        for k, line in enumerate(texts[f].split("\n")):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                t = include_target(root, f, m.group(1), known)
                if t and unit(t) != u:
                    graph[u].setdefault(unit(t), []).append((f, k + 1, "includes " + t))
        if not f.endswith(".c"):
            continue
        for k, line in enumerate(codes[f].split("\n")):
            for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", line):
                t = callee.get(name)
                if t and t != u and name not in own[f]:
                    uses_ = graph[u].setdefault(t, [])
                    if not any(w[2] == "calls " + name for w in uses_):
                        uses_.append((f, k + 1, "calls " + name))
    return graph


def circles(graph):
    """The strongly connected components of more than one unit (Tarjan's, iterative)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], 0
    for s in sorted(graph):
        if s in index:
            continue
        work = [(s, iter(sorted(graph[s])))]
        index[s] = low[s] = n
        n += 1
        stack.append(s)
        on.add(s)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def check_circles(root, files, texts, codes):
    graph, v = uses(root, files, texts, codes), []
    for comp in circles(graph):
        for u in comp:
            inside = [w for t in sorted(graph[u]) if t in comp for w in graph[u][t][:1]]
            f, line = inside[0][0], inside[0][1]
            what = "; ".join("%s:%d %s" % w for w in inside)
            v.append(Violation(u, line, "include_circle",
                               "in the circle %s: %s" % (" <-> ".join(comp), what)))
    return v


def check_doc_symbols(root, files, codes):
    doc = os.path.join("docs", "architecture.md")
    if not os.path.isfile(os.path.join(root, doc)):
        return [Violation(doc, 1, "doc_symbol", "missing")]
    words = set()
    for f in files:
        words.update(re.findall(r"[A-Za-z_]\w*", codes[f]))
    v, seen = [], set()
    for k, line in enumerate(open(os.path.join(root, doc), encoding="utf-8")):
        for span in re.findall(r"`([^`]+)`", line):
            m = re.fullmatch(r"([A-Z][A-Za-z0-9]*)(\*|\(.*\))?", span)
            if not m or not re.search(r"[a-z]", m.group(1)) or (m.group(1), m.group(2) == "*") in seen:
                continue
            name, prefix = m.group(1), m.group(2) == "*"
            seen.add((name, prefix))
            found = any(w.startswith(name) for w in words) if prefix else name in words
            if not found:
                v.append(Violation(doc, k + 1, "doc_symbol",
                                   "`%s` is named but %s" % (span, "no name in the code starts with it" if prefix
                                                             else "the code has no such name")))
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=harness.here(".."))
    ap.add_argument("--clang-format", dest="clang_format", default=None)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    files, how = sources(root)
    check = harness.Checks("ok   ", "FAIL ")
    if not check(len(files) > 0, "C sources found under %s" % root):
        return check.report()
    print("%d C sources and headers, from %s" % (len(files), how))
    texts = {f: open(os.path.join(root, f), encoding="utf-8", errors="replace").read() for f in files}
    codes = {f: code_only(texts[f]) for f in files}

    found = check_sizes(root, files, texts)
    program = clang_format_program(a.clang_format)
    if program:
        version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()
        print("format: %s (%s)" % (program, version))
        found += check_format(root, files, program)
    else:
        print("SKIP format: no clang-format found (apt-get install clang-format); the other rules are checked")
    found += check_circles(root, files, texts, codes)
    found += check_doc_symbols(root, files, codes)

    known, used = set(KNOWN), set()
    for rule in RULES:
        new = 0
        for x in (x for x in found if x.rule == rule):
            if (x.path, x.rule) in known:
                used.add((x.path, x.rule))
                print("known " + str(x))
            else:
                check(False, str(x))
                new += 1
        if rule == "format" and not program:
            continue
        if not new:
            check(True, "%s: no violation beyond the known ones" % rule)
    for path, rule in KNOWN:
        check((path, rule) in used,
              "%s: %s is a known exception (KNOWN in tests/house.py)" % (path, rule)
              + ("" if (path, rule) in used else " that no longer applies: remove it"))
    return check.report("%d failed")


if __name__ == "__main__":
    sys.exit(main())
