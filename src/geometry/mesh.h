/* Triangle-mesh walls (mesh0 .. mesh15): an STL surface (io/stl.h), placed
 * by scale, rotate and translate, moved rigidly by a WallMotion.  Meshes are
 * two-sided: a particle meets a triangle from whichever side it is on.
 *
 * Neighbouring triangles whose planes are within `curvature` degrees of each
 * other belong to one surface (a flat floor in many triangles is one); a
 * particle has one contact with each region of a surface it touches (the
 * four rims of a plate's aperture it is wedged in), so contact histories are
 * keyed by (particle, mesh, surface) and survive rolling across triangles,
 * or by a region's feature where a surface is touched in several
 * (MeshContactsSelect, trimesh.h).
 *
 * Contacts are found in the mesh's own frame (the deck's placement, X0):
 * the particle is taken there by the inverse of the mesh's pose, so the
 * triangles and their bins never move. */
#ifndef HDEM_MESH_H
#define HDEM_MESH_H

#include "geometry/trimesh.h"
#include "geometry/mesh_hold.h"

/* Keys mesh0_* .. mesh15_*: the files are read (collective) and checked;
 * on one rank whole, on more read by share and set up distributed, never
 * whole on any rank (io/stl_share.h, geometry/mesh_share.h). */
PETSC_EXTERN PetscErrorCode MeshesSetFromOptions(MPI_Comm, Meshes *);
/* A mesh that does not move and lies wholly outside the box [lo, hi] is an
 * error naming its key: it could never touch a particle.  Collective. */
PETSC_EXTERN PetscErrorCode MeshesCheckDomain(MPI_Comm, const Meshes *, const PetscReal lo[3], const PetscReal hi[3]);
/* Bins of the whole meshes for queries within reach of a point (the
 * largest radius plus the skin); distributed ones bin at each MeshesHold. */
PETSC_EXTERN PetscErrorCode MeshesSetUp(Meshes *, PetscReal reach);
PETSC_EXTERN PetscErrorCode MeshesDestroy(Meshes *);

#endif
