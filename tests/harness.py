"""Helpers the Python tests share: a check that prints and counts, the MPI launcher
prefix, and running a command with its output captured.

    import harness
    check = harness.Checks()            # prints "PASS what" / "FAIL what"
    check(x == 1, "x is one")
    cmd = harness.mpi(mpiexec, 2) + [hdem, "run", deck]
    p = harness.run(cmd)                # raises RuntimeError on an unexpected exit
    sys.exit(check.report())            # "N failed", exit status 1 on any failure

The scripts keep their own words (each Checks gives its tags and summary), so
their output reads as before and a log stays greppable."""
import os
import subprocess
import sys


class Checks:
    """A callable check: prints pass_tag or fail_tag followed by what, collects the
    failures in .failures (a list of the what strings), returns the condition."""

    def __init__(self, pass_tag="PASS ", fail_tag="FAIL ", flush=False):
        self.pass_tag, self.fail_tag, self.flush = pass_tag, fail_tag, flush
        self.failures = []

    def __call__(self, cond, what):
        print((self.pass_tag if cond else self.fail_tag) + what, flush=self.flush)
        if not cond:
            self.failures.append(what)
        return cond

    def report(self, fmt="%d failed"):
        """Print the summary line (fmt takes the number of failures); 1 if any failed."""
        print(fmt % len(self.failures))
        return 1 if self.failures else 0


def mpi(mpiexec, np_, serial_bare=True):
    """The launcher prefix for np_ ranks: nothing for one rank when serial_bare,
    oversubscribed (CI machines have fewer cores than some tests' ranks) and
    allowed to run as root (containers)."""
    if np_ == 1 and serial_bare:
        return []
    cmd = [mpiexec, "-np", str(np_), "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def run(cmd, expect=0, cwd=None, timeout=None):
    """Run cmd with stdout and stderr captured as text. With expect an exit status,
    any other raises RuntimeError naming the command and the end of its stderr;
    with expect None every status is returned to the caller."""
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    if expect is not None and p.returncode != expect:
        raise RuntimeError("%s exited %d (expected %d): %s"
                           % (" ".join(map(str, cmd)), p.returncode, expect, p.stderr[-1500:]))
    return p


def here(*parts):
    """A path under tests/, wherever the script runs from."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), *parts)


def note_peak(peak, np_, summary):
    """Keep the largest rank's peak memory of a run on np_ ranks (summary.json's
    peak_memory_bytes) in peak[np_], and print it."""
    peak[np_] = max(summary["peak_memory_bytes"])
    print("  peak memory per rank at %d rank(s): %.1f MB (largest rank)" % (np_, peak[np_] / 1e6))


def peaks_flat(check, peak, tol=0.10):
    """Check every rank count's peak per rank within tol of one rank's (peak: {np: bytes})."""
    if 1 not in peak:
        return
    for np_, m in sorted(peak.items()):
        check(m <= (1.0 + tol) * peak[1], "peak per rank at %d rank(s) %.1f MB within %g %% of 1 rank's %.1f MB"
              % (np_, m / 1e6, 100 * tol, peak[1] / 1e6))


if __name__ == "__main__":
    sys.exit("harness.py is a module for the tests, not a test")
