/* A mesh set up from an STL file read by share (io/stl_share.h), never
 * whole on any rank (geometry/mesh_share.c): the normals of a rank's
 * triangles; the edges on the ranks of their hash, where the triangles
 * across each are joined as MeshSetUpWhole joins them; the surfaces, the
 * connected components of the joins, found in each rank's block by a
 * union-find, then across the blocks by rounds of least-label propagation
 * with pointer jumping, and numbered by their lowest triangle;
 * the extent by reductions (the centroid by exact sums).  The result is
 * MeshDistribute's after MeshSetUpWhole, bit for bit. */
#ifndef HDEM_MESH_SHARE_H
#define HDEM_MESH_SHARE_H

#include "geometry/trimesh.h"
#include "io/stl_share.h"

/* Collective: m's name, file, curvature and motion set; s's arrays taken
 * (s->vx) or left to the caller.  m becomes a distributed mesh: its
 * blocks of vertices and triangle records, nothing held. */
PETSC_EXTERN PetscErrorCode MeshSetUpShare(MPI_Comm, Mesh *m, StlShare *s);

#endif
