"""Check hdem's particle snapshots (DIR/snapshots/snap_*.h5 + DIR/snapshots.xdmf) with a real
ParaView: read them with Xdmf3ReaderS, compare with the HDF5 data, glyph and render the last
time step to a PNG.

  xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch tests/paraview_check.py DIR [--png OUT.png]
  (tests/paraview_check.sh DIR [OUT.png] does exactly this, or exits 77 if ParaView is missing)

Prints PASS/FAIL lines; exit status 0 only if every check passed. Serial pvbatch only (under
mpirun every rank reads the whole grid and sys.exit() misbehaves).

The HDF5 side is read by this same file run as a plain Python helper
(`/usr/bin/python3 paraview_check.py --h5-helper DIR OUT.npz`), not inside pvbatch: h5py
links Debian's libhdf5_serial while ParaView links libhdf5_openmpi, and loading both into
one process is asking for trouble. The helper writes the per-snapshot metadata and the last
snapshot's arrays to an .npz that pvbatch loads with numpy only. Set HDEM_H5_PYTHON to use
another interpreter with h5py (the default /usr/bin/python3 is Debian's, which has it).
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

PARTICLE_FIELDS = ["id", "type", "radius", "velocity", "angular_velocity", "force", "body"]  # body: runs with multi-sphere bodies
SNAP_RE = re.compile(r"^snap_(\d{9})\.h5$")


# ---------------------------------------------------------------------------------------
# helper mode: plain python with h5py, no ParaView
# ---------------------------------------------------------------------------------------
def h5_helper(d, out_npz):
    import h5py
    meta, last = [], {}
    files = sorted(f for f in os.listdir(os.path.join(d, "snapshots")) if SNAP_RE.match(f))
    for k, fn in enumerate(files):
        with h5py.File(os.path.join(d, "snapshots", fn), "r") as f:
            a = f.attrs
            ds = sorted(f["particles"].keys()) if "particles" in f else []
            pos = f["particles/position"] if "particles/position" in f else None
            m = {"file": fn, "name_step": int(SNAP_RE.match(fn).group(1)),
                 "time": float(a["time"]) if "time" in a else None,
                 "step": int(a["step"]) if "step" in a else None,
                 "dt": float(a["dt"]) if "dt" in a else None,
                 "particles": int(a["particles"]) if "particles" in a else None,
                 "attrs": sorted(a.keys()),
                 "datasets": ds,
                 "shapes": {n: list(f["particles"][n].shape) for n in ds},
                 "dtypes": {n: f["particles"][n].dtype.str for n in ds},
                 "walls": [list(f[w].shape) if w in f else None for w in ("walls/normal", "walls/point")],
                 "pos_shape": list(pos.shape) if pos is not None else None}
            meta.append(m)
            if k == len(files) - 1:
                for n in ds:
                    last[n] = f["particles"][n][...]
    np.savez(out_npz, meta=json.dumps(meta), **last)


if len(sys.argv) >= 4 and sys.argv[1] == "--h5-helper":
    h5_helper(sys.argv[2], sys.argv[3])
    sys.exit(0)

# ---------------------------------------------------------------------------------------
# pvbatch mode
# ---------------------------------------------------------------------------------------
t_start = time.time()
args = sys.argv[1:]
png = None
if "--png" in args:
    i = args.index("--png")
    png = args[i + 1] if i + 1 < len(args) else None
    del args[i:i + 2]
if len(args) != 1 or (png is None and "--png" in sys.argv):
    print("usage: pvbatch paraview_check.py DIR [--png OUT.png]")
    sys.exit(2)
d = os.path.abspath(args[0])
xdmf = os.path.join(d, "snapshots.xdmf")
png = os.path.abspath(png) if png else os.path.join(d, "snapshots_last.png")
failures = []


def check(cond, msg):
    print(("PASS  " if cond else "FAIL  ") + msg)
    sys.stdout.flush()
    if not cond:
        failures.append(msg)
    return cond


def finish(ps=None):
    print("---- %s: %d failure(s), %.1f s inside pvbatch"
          % ("FAIL" if failures else "PASS", len(failures), time.time() - t_start))
    sys.stdout.flush()
    if ps is not None:
        # pvbatch 5.11 under Xvfb: sys.exit() without Disconnect() exits 1 (GLXBadContext)
        ps.Disconnect()
    sys.exit(1 if failures else 0)


# --- 1. the HDF5 files (separate process, see the docstring) ---------------------------
check(os.path.isfile(xdmf), "%s exists" % xdmf)
snaps = sorted(glob.glob(os.path.join(d, "snapshots", "snap_*.h5")))
if not check(len(snaps) > 0, "%d snapshot file(s) in %s/snapshots" % (len(snaps), d)) or failures:
    finish()
h5py_python = os.environ.get("HDEM_H5_PYTHON", "/usr/bin/python3")
tmpdir = tempfile.mkdtemp(prefix="hdem_pvcheck_")
npz_path = os.path.join(tmpdir, "h5.npz")
r = subprocess.run([h5py_python, os.path.abspath(__file__), "--h5-helper", d, npz_path],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
if not check(r.returncode == 0, "h5py helper (%s) read the snapshots" % h5py_python):
    print(r.stdout)
    finish()
with np.load(npz_path) as z:
    meta = json.loads(str(z["meta"]))
    H = {k: z[k] for k in z.files if k != "meta"}
for f in os.listdir(tmpdir):
    os.remove(os.path.join(tmpdir, f))
os.rmdir(tmpdir)

for m in meta:
    print("  %s  step %s  time %r  N %s  walls %s" % (m["file"], m["step"], m["time"], m["particles"],
                                                   m["walls"][0][0] if m["walls"][0] else "-"))
bad = []
for m in meta:
    n = m["particles"]
    problems = [a for a in ("time", "step", "dt", "particles", "hdem_version", "options") if a not in m["attrs"]]
    problems += [x for x in ("position", "connectivity") if x not in m["datasets"]]
    problems += [x for x in m["datasets"] if x not in PARTICLE_FIELDS + ["position", "connectivity"]]
    if m["step"] != m["name_step"]:
        problems.append("step attr %s != file name" % m["step"])
    want = {"position": [n, 3], "connectivity": [n]}
    want.update({x: [n] for x in ("id", "type", "radius", "body")})
    want.update({x: [n, 3] for x in ("velocity", "angular_velocity", "force")})
    want_dt = {"position": "<f8", "connectivity": "<i8", "id": "<i8", "type": "<i4", "radius": "<f8",
               "velocity": "<f8", "angular_velocity": "<f8", "force": "<f8", "body": "<i8"}
    for x in m["datasets"]:
        if x in want and m["shapes"][x] != want[x]:
            problems.append("%s shape %s != %s" % (x, m["shapes"][x], want[x]))
        if x in want_dt and m["dtypes"][x] != want_dt[x]:
            problems.append("%s dtype %s != %s" % (x, m["dtypes"][x], want_dt[x]))
    for w in m["walls"]:
        if w is None or len(w) != 2 or w[1] != 3 or w != m["walls"][0]:
            problems.append("walls/normal, walls/point not both Wx3: %s" % m["walls"])
            break
    if problems:
        bad.append("%s: %s" % (m["file"], "; ".join(problems)))
check(not bad, "snapshot files follow the format" + ("" if not bad else ": " + " | ".join(bad)))
h5_steps = [m["step"] for m in meta]
h5_times = [m["time"] for m in meta]
check(all(a < b for a, b in zip(h5_steps, h5_steps[1:])) and all(a < b for a, b in zip(h5_times, h5_times[1:])),
      "snapshot steps and times strictly increase")
last = meta[-1]
N = last["particles"]
conn = H.get("connectivity")
check(conn is not None and np.array_equal(conn, np.arange(N)), "last snapshot: connectivity is 0..N-1")

# --- the XDMF text itself (no HDF5 needed): one grid per snapshot, matching N and files ----
try:
    root = ET.parse(xdmf).getroot()
    coll = root.find("Domain/Grid")
    grids = coll.findall("Grid") if coll is not None else []
    ok = (coll is not None and coll.get("GridType") == "Collection" and coll.get("CollectionType") == "Temporal")
    check(ok, "XDMF: Domain/Grid is a temporal collection")
    rows = []
    for g in grids:
        top = g.find("Topology")
        items = g.findall(".//DataItem")
        rows.append((g.find("Time").get("Value") if g.find("Time") is not None else None,
                     top.get("NumberOfElements") if top is not None else None,
                     sorted(set(it.text.strip().split(":")[0] for it in items)),
                     [it.get("Precision") for it in items]))
    check(len(grids) == len(meta), "XDMF has %d grids for %d snapshot files" % (len(grids), len(meta)))
    mism = ["%s (N %s vs %s, files %s)" % (m["file"], r_[1], m["particles"], r_[2])
            for m, r_ in zip(meta, rows)
            if r_[1] != str(m["particles"]) or r_[2] != ["snapshots/" + m["file"]]]
    check(not mism, "XDMF grid k references snapshots/<file k> with NumberOfElements == N"
          + ("" if not mism else ": " + ", ".join(mism[:5])))
    noprec = sum(p is None for r_ in rows for p in r_[3])
    check(noprec == 0, "XDMF: every DataItem has a Precision (%d without)" % noprec)
except (ET.ParseError, AttributeError) as e:
    check(False, "XDMF parses: %s" % e)

# --- 2. ParaView: Xdmf3ReaderS --------------------------------------------------------
from paraview import servermanager as sm          # noqa: E402
import paraview.simple as ps                       # noqa: E402
from vtkmodules.vtkIOImage import vtkPNGReader     # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402


def first_block(o):
    while o is not None and o.IsA("vtkMultiBlockDataSet"):
        o = o.GetBlock(0)
    return o


reader = ps.Xdmf3ReaderS(FileName=[xdmf])
times = [float(t) for t in reader.TimestepValues]
same = len(times) == len(h5_times) and all(a == b for a, b in zip(times, h5_times))
check(same, "time steps: reader %d %s, HDF5 %d%s" % (
    len(times), times if len(times) <= 6 else times[:3] + ["..."] + times[-2:], len(h5_times),
    "" if same or len(times) != len(h5_times)
    else ", max |diff| %.3g" % max(abs(a - b) for a, b in zip(times, h5_times))))
tl = times[-1] if times else 0.0
scene = ps.GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
scene.AnimationTime = tl
reader.UpdatePipeline(time=tl)
info = reader.GetDataInformation()
ok_n = check(info.GetNumberOfPoints() == N, "t=%r (last): %d points, HDF5 N = %d"
             % (tl, info.GetNumberOfPoints(), N))
check(info.GetNumberOfCells() == N, "t=%r (last): %d cells (Polyvertex), N = %d" % (tl, info.GetNumberOfCells(), N))
names = sorted(reader.PointData.keys())
want_names = sorted(x for x in last["datasets"] if x in PARTICLE_FIELDS)
ok_a = check(set(want_names) <= set(names), "point arrays %s include the written fields %s" % (names, want_names))
if not (ok_n and ok_a):       # the value comparisons below need the right shapes and arrays
    finish(ps)

o = first_block(sm.Fetch(reader))
pd = o.GetPointData()
pos = vtk_to_numpy(o.GetPoints().GetData())
check(pos.dtype == np.float64 and np.array_equal(pos, H["position"]),
      "positions (%s) equal HDF5 bit for bit" % pos.dtype)
for x in want_names:
    arr = pd.GetArray(x)
    v = vtk_to_numpy(arr)
    h = H[x]
    size_ok = arr.GetDataTypeSize() == h.dtype.itemsize
    check(size_ok and v.shape == h.shape and np.array_equal(v, h),
          "%s: %s (%d-byte, %d comp) equals HDF5 %s" % (x, arr.GetClassName(), arr.GetDataTypeSize(),
                                                       arr.GetNumberOfComponents(), h.dtype))

# --- 3. glyph spheres scaled by radius, colour by |velocity|, render -------------------
glyph = ps.Glyph(Input=reader, GlyphType="Sphere")
has_r = "radius" in want_names
if has_r:
    glyph.ScaleArray = ["POINTS", "radius"]
    glyph.ScaleFactor = 2.0               # the Sphere glyph has radius 0.5
else:
    glyph.ScaleArray = ["POINTS", "No scale array"]
    b = info.GetBounds()
    glyph.ScaleFactor = 0.02 * max(b[1] - b[0], b[3] - b[2], b[5] - b[4], 1e-30)
glyph.OrientationArray = ["POINTS", "No orientation array"]
glyph.GlyphMode = "All Points"            # default samples only a subset
# vtkSphereSource: theta step 360/Theta, phi step 180/(Phi-1) from pole to pole, so 8 and 9
# put vertices exactly on +-x, +-y (equator) and +-z (poles): the extent is then exact.
# 58 points per sphere; 16/17 (242) made 50 000 particles take 65 s in Glyph alone.
glyph.GlyphType.ThetaResolution = 8
glyph.GlyphType.PhiResolution = 9
glyph.UpdatePipeline(time=tl)
gi = glyph.GetDataInformation()
check(gi.GetNumberOfPoints() >= 50 * N, "glyph output: %d points for %d spheres" % (gi.GetNumberOfPoints(), N))
if has_r:
    p, r = H["position"], H["radius"]
    expect = [v for a in range(3) for v in (float(np.min(p[:, a] - r)), float(np.max(p[:, a] + r)))]
    bg = gi.GetBounds()
    tol = 1e-3 * float(np.max(r)) + 1e-6 * max(abs(v) for v in expect)   # float32 glyph points
    err = max(abs(a - b) for a, b in zip(bg, expect))
    check(err <= tol, "glyph extent %s matches min(x-r)..max(x+r) %s (max err %.3g, tol %.3g)"
          % (["%.6g" % v for v in bg], ["%.6g" % v for v in expect], err, tol))
else:
    print("NOTE  no radius field: glyphs have a fixed size, extent check skipped")

view = ps.GetActiveViewOrCreate("RenderView")
view.ViewSize = [1024, 768]
try:
    view.UseColorPaletteForBackground = 0    # else Background is ignored (5.10+)
except AttributeError:
    pass
view.Background = [1.0, 1.0, 1.0]
view.OrientationAxesVisibility = 0
view.ViewTime = tl
disp = ps.Show(glyph, view)
has_v = "velocity" in want_names
if has_v:
    ps.ColorBy(disp, ("POINTS", "velocity", "Magnitude"))
    disp.RescaleTransferFunctionToDataRange(True, False)
    disp.SetScalarBarVisibility(view, True)
    bar = ps.GetScalarBar(ps.GetColorTransferFunction("velocity"), view)
    bar.ComponentTitle = "magnitude"
    bar.TitleColor = bar.LabelColor = [0.0, 0.0, 0.0]   # default white text
else:
    ps.ColorBy(disp, None)
    disp.DiffuseColor = [0.2, 0.3, 0.8]
    print("NOTE  no velocity field: solid colour")
view.CameraPosition = [1.0, -1.6, 0.9]
view.CameraFocalPoint = [0.0, 0.0, 0.0]
view.CameraViewUp = [0, 0, 1]
view.ResetCamera()
ps.Render(view)
if os.path.dirname(png):
    os.makedirs(os.path.dirname(png), exist_ok=True)
if os.path.exists(png):
    os.remove(png)
ps.SaveScreenshot(png, view, ImageResolution=[1024, 768])
if check(os.path.isfile(png), "wrote %s" % png):
    rd = vtkPNGReader()
    rd.SetFileName(png)
    rd.Update()
    img = rd.GetOutput()
    px = vtk_to_numpy(img.GetPointData().GetScalars())[:, :3].astype(int)
    frac = float(np.count_nonzero(np.any(px < 250, axis=1))) / len(px)
    w, h = img.GetDimensions()[:2]
    check((w, h) == (1024, 768) and frac > 0.02,
          "PNG %dx%d, %d bytes, %.1f%% non-background pixels" % (w, h, os.path.getsize(png), 100 * frac))
    if has_v:   # the colour map (cool to warm) gives non-grey pixels; shaded grey would not
        coloured = float(np.count_nonzero(px.max(axis=1) - px.min(axis=1) > 40)) / len(px)
        check(coloured > 0.01, "PNG: %.1f%% coloured pixels (|velocity| colour map)" % (100 * coloured))

finish(ps)
