#!/usr/bin/python3
"""Writes the seeds of fuzz_checkpoint into corpus/checkpoint/ (or DIR):

    tests/fuzz/checkpoint_seeds.py BUILD/tests/fuzz/fuzz_checkpoint [DIR]

An input names datasets and attributes by their index in the template's
lists, which the harness prints (HDEM_FUZZ_VERBOSE); when the writer adds or
renames one, the indices move and the old seeds decode to other edits: run
this again.  valid_* decode to checkpoints the reader accepts, bad_* to ones
refused by one check each (the harness's encoding is in its first comment)."""
import os
import struct
import subprocess
import sys

(SET, SPECIAL, FILL, COPY, DROP_PARTICLE, DUP_PARTICLE, DROP_RECORD, DUP_RECORD, RESIZE, RETYPE, DELETE, ATTR, ATTR_RETYPE, ATTR_DELETE, FORMAT,
 FORMAT1, SUM) = range(17)
# indices into the harness's SpecialReal and SpecialInt
NAN, RMAX_UP, HI_UP, MIDDLE = 4, 12, 16, 20
ONE, OWN_OWNER = 1, 15


def lists(harness):
    env = dict(os.environ, HDEM_FUZZ_VERBOSE="1", ASAN_OPTIONS="detect_leaks=0")
    empty = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "checkpoint", "valid_as_written")
    out = subprocess.run([harness, "-runs=0", "-detect_leaks=0", empty], env=env, capture_output=True, text=True).stderr
    d, a = {}, {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 3 and w[0] in ("dataset", "attribute"):
            (d if w[0] == "dataset" else a)[w[2]] = int(w[1])
    if not d or not a:
        sys.exit("no dataset list from %s:\n%s" % (harness, out[-2000:]))
    return d, a


def main():
    harness = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "checkpoint")
    D, A = lists(harness)
    row = lambda r: struct.pack("<H", r)
    f64 = lambda x: struct.pack("<d", x)
    i64 = lambda x: struct.pack("<q", x)

    def seed(name, flags, *parts):
        b = bytes([flags]) + b"".join(p if isinstance(p, bytes) else bytes([p]) for p in parts)
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)

    seed("valid_as_written", 0)
    seed("valid_format1", 0, FORMAT1)
    seed("valid_time_changed", 0, ATTR, A["time"], 0, f64(0.5))
    # a 17th particle (a copy of row 3, given its own id) in the middle of the box
    seed("valid_new_particle", 0, DUP_PARTICLE, row(3), SET, D["particles/id"], row(16), 0, i64(1000),
         *[bytes([SPECIAL, D[n]]) + row(16) + bytes([c, MIDDLE]) for n in ("particles/position", "particles/position_at_build") for c in range(3)])
    seed("valid_record_dropped", 0, DROP_RECORD, row(0))
    seed("valid_no_checksums", 0, *[bytes([SUM, d, 2]) + i64(0) for d in sorted(D.values())])
    seed("valid_sums_recomputed", 0, *[bytes([SUM, d, 0]) + i64(0) for d in sorted(D.values())])
    seed("bad_nan_position", 0, SPECIAL, D["particles/position"], row(2), 1, NAN)
    seed("bad_radius_over_rmax", 0, SPECIAL, D["particles/radius"], row(0), 0, RMAX_UP)
    seed("bad_duplicate_id", 0, COPY, D["particles/id"], row(1), row(2))
    seed("bad_kind", 0, SET, D["history/kind"], row(0), 0, i64(7))
    seed("bad_partner_self", 0, SPECIAL, D["history/partner"], row(0), 0, OWN_OWNER)
    seed("bad_built_outside_box", 0, SPECIAL, D["particles/position_at_build"], row(0), 2, HI_UP)
    seed("bad_stale_checksum", 3, SET, D["particles/velocity"], row(0), 0, f64(1.0))
    seed("bad_rows", 0, RESIZE, D["particles/mass"], 7)
    seed("bad_missing_dataset", 0, DELETE, D["particles/torque"])
    seed("bad_one_without_checksum", 0, SUM, D["walls/point"], 2, i64(0))
    seed("bad_negative_step", 0, ATTR, A["step"], 0, i64(-5))
    seed("bad_counts", 0, ATTR, A["lost"], 2, i64(1))
    seed("bad_no_format", 0, ATTR_DELETE, A["format"])
    seed("bad_dt_a_string", 0, ATTR_RETYPE, A["dt"], 2)
    seed("bad_other_domain", 0, ATTR, A["domain_hi_x"], 2, i64(1))
    seed("bad_owner_missing", 0, SET, D["history/owner"], row(0), 0, i64(999))
    seed("bad_wall_partner", 0, FILL, D["history/kind"], 0, ONE)
    seed("bad_id_a_real", 0, RETYPE, D["particles/id"], 2)
    seed("bad_walls_normal", 0, SPECIAL, D["walls/normal"], row(1), 0, 2)
    seed("dup_record", 0, DUP_RECORD, row(1))


if __name__ == "__main__":
    main()
