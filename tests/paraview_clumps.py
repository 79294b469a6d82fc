"""Multi-sphere bodies in hdem's snapshots, read by a real ParaView: the last
time of DIR/snapshots.xdmf has every sphere of every body (the count and the
body ids of the HDF5 file's /particles), and rendered as spheres coloured by
body the picture shows many colours.

  xvfb-run -a -s "-screen 0 1024x768x24" pvbatch tests/paraview_clumps.py DIR --png OUT.png

(tests/paraview_clumps.sh runs inputs/clumps.yaml and this; exit 77 when ParaView is missing.)
"""
import glob
import os
import sys

import h5py
import numpy as np
import paraview.simple as ps
from paraview import servermanager as sm
from vtkmodules.vtkIOImage import vtkPNGReader
from vtkmodules.util.numpy_support import vtk_to_numpy

FAILS = []


def check(cond, msg):
    print(("PASS  " if cond else "FAIL  ") + msg)
    if not cond:
        FAILS.append(msg)
    return cond


args = sys.argv[1:]
png = args[args.index("--png") + 1]
d = args[0]
last = sorted(glob.glob(os.path.join(d, "snapshots", "snap_*.h5")))[-1]
with h5py.File(last, "r") as f:
    ids, body = f["particles/id"][()], f["particles/body"][()]
    nbody = f["bodies/id"].shape[0]

reader = ps.Xdmf3ReaderS(FileName=[os.path.join(d, "snapshots.xdmf")])
times = list(reader.TimestepValues)
reader.UpdatePipeline(time=times[-1])
data = sm.Fetch(reader)
pieces = []


def walk(o):
    if o is None:
        return
    if o.IsA("vtkMultiBlockDataSet"):
        for k in range(o.GetNumberOfBlocks()):
            walk(o.GetBlock(k))
    elif o.IsA("vtkMultiPieceDataSet"):
        for k in range(o.GetNumberOfPieces()):
            walk(o.GetPiece(k))
    else:
        pieces.append(o)


walk(data)
p = pieces[0] if pieces else None
check(p is not None and p.GetNumberOfPoints() == len(ids), "every sphere of every body: %s points, the file's %d (%d bodies)"
      % (p.GetNumberOfPoints() if p else None, len(ids), nbody))
arr = p.GetPointData().GetArray("body") if p is not None else None
if check(arr is not None, "a point array 'body'"):
    pv_ids = vtk_to_numpy(p.GetPointData().GetArray("id")).astype(np.int64)
    pv_body = vtk_to_numpy(arr).astype(np.int64)
    check(np.array_equal(pv_body[np.argsort(pv_ids)], body[np.argsort(ids)]), "ParaView's body of each sphere is the file's")

view = ps.GetActiveViewOrCreate("RenderView")
view.ViewSize = [800, 600]
try:
    view.UseColorPaletteForBackground = 0
except AttributeError:
    pass
view.Background = [1.0, 1.0, 1.0]
view.OrientationAxesVisibility = 0
view.ViewTime = times[-1]
glyph = ps.Glyph(Input=reader, GlyphType="Sphere")
glyph.ScaleArray = ["POINTS", "radius"]
glyph.ScaleFactor = 2.0
glyph.GlyphMode = "All Points"
gd = ps.Show(glyph, view)
ps.ColorBy(gd, ("POINTS", "body"))
lut = ps.GetColorTransferFunction("body")
lut.ApplyPreset("Rainbow Uniform", True)
lut.RescaleTransferFunction(float(body.min()), float(body.max()))
view.CameraPosition = [0.015, -0.2, 0.02]
view.CameraFocalPoint = [0.015, 0.015, 0.02]
view.CameraViewUp = [0, 0, 1]
view.ResetCamera()
ps.Render(view)
if os.path.exists(png):
    os.remove(png)
ps.SaveScreenshot(png, view, ImageResolution=[800, 600])
if check(os.path.isfile(png), "wrote %s" % png):
    r = vtkPNGReader()
    r.SetFileName(png)
    r.Update()
    a = vtk_to_numpy(r.GetOutput().GetPointData().GetScalars()).astype(int)[:, :3]
    fg = a[np.any(a < 235, axis=1)]
    hues = {tuple(c // 32) for c in fg}
    check(len(fg) > 5000 and len(hues) >= 8, "coloured by body: %d sphere pixels in %d colour bins" % (len(fg), len(hues)))
print("%d failed" % len(FAILS))
sys.exit(1 if FAILS else 0)
