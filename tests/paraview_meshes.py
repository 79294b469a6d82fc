"""Meshes in hdem's snapshots, read by a real ParaView: DIR/snapshots.xdmf's last
time is a collection of the particles and every mesh (triangles), with the
counts of the HDF5 file; both are rendered into one PNG, which must show the
mesh's colour and the particles' colour.

  xvfb-run -a -s "-screen 0 1024x768x24" pvbatch tests/paraview_meshes.py DIR N_PARTICLES MESH:TRIANGLES... --png OUT.png

(tests/paraview_meshes.sh runs a drum and this; exit 77 when ParaView is missing.)
"""
import os
import sys

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
d, n_particles = args[0], int(args[1])
meshes = {a.split(":")[0]: int(a.split(":")[1]) for a in args[2:args.index("--png")]}

reader = ps.Xdmf3ReaderS(FileName=[os.path.join(d, "snapshots.xdmf")])
times = list(reader.TimestepValues)
tl = times[-1]
reader.UpdatePipeline(time=tl)
data = sm.Fetch(reader)
# Xdmf3ReaderS: the domain's grids (the particles, then each mesh present) as the
# pieces of one block, in the index's order
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
check(len(times) > 1, "%d time steps" % len(times))
check(len(pieces) == 1 + len(meshes), "%d grids at the last time: the particles and %d meshes" % (len(pieces), len(meshes)))
p = pieces[0] if pieces else None
check(p is not None and p.GetNumberOfPoints() == n_particles, "the particles: %s points, expected %d"
      % (p.GetNumberOfPoints() if p else None, n_particles))
for (name, nt), m in zip(meshes.items(), pieces[1:]):
    ok = m.GetNumberOfCells() == nt
    check(ok, "mesh %s: %d cells, expected %d triangles" % (name, m.GetNumberOfCells(), nt))
    if ok:
        check(all(m.GetCellType(k) == 5 for k in range(m.GetNumberOfCells())), "mesh %s: every cell a VTK_TRIANGLE" % name)

# render: the mesh in red (opaque surface, seen from outside the drum's open end), the particles in blue glyphs
view = ps.GetActiveViewOrCreate("RenderView")
view.ViewSize = [800, 600]
try:
    view.UseColorPaletteForBackground = 0
except AttributeError:
    pass
view.Background = [1.0, 1.0, 1.0]
view.OrientationAxesVisibility = 0
view.ViewTime = tl
md = ps.Show(reader, view)             # the meshes as red wireframe (the particles as points)
md.ColorArrayName = ["POINTS", ""]
md.DiffuseColor = md.AmbientColor = [0.9, 0.1, 0.1]
md.Representation = "Wireframe"
md.LineWidth = 3.0
# the particles alone: the grids that have a radius (a mesh has none)
parts = ps.Threshold(Input=reader, Scalars=["POINTS", "radius"])
try:
    parts.LowerThreshold, parts.UpperThreshold = 0.0, 1e30
except AttributeError:
    parts.ThresholdRange = [0.0, 1e30]
glyph = ps.Glyph(Input=parts, GlyphType="Sphere")   # spheres where the particles are (blue)
glyph.ScaleArray = ["POINTS", "radius"]
glyph.ScaleFactor = 2.0
glyph.GlyphMode = "All Points"
gd = ps.Show(glyph, view)
gd.ColorArrayName = ["POINTS", ""]
gd.DiffuseColor = gd.AmbientColor = [0.1, 0.2, 0.9]
view.CameraPosition = [0.0, -1.0, 0.0]
view.CameraFocalPoint = [0.0, 0.0, 0.0]
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
    img = r.GetOutput()
    a = vtk_to_numpy(img.GetPointData().GetScalars()).astype(int)
    red = np.sum((a[:, 0] > 180) & (a[:, 1] < 90) & (a[:, 2] < 90))
    blue = np.sum((a[:, 2] > 120) & (a[:, 0] < 90))
    check(red > 500, "the mesh shows: %d red pixels" % red)
    check(blue > 500, "the particles show: %d blue pixels" % blue)
print("%d failed" % len(FAILS))
sys.exit(1 if FAILS else 0)
