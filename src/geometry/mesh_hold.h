/* Distributed meshes (geometry/mesh_hold.c): each rank's share of a mesh,
 * and the triangles it holds near its subdomain. */
#ifndef HDEM_MESH_HOLD_H
#define HDEM_MESH_HOLD_H

#include "geometry/trimesh.h"
#include "decomp/grid.h"

/* Collective: a whole mesh becomes distributed over comm's ranks, each
 * keeping its share and, until MeshesHold, no triangles (one rank: kept whole). */
PETSC_EXTERN PetscErrorCode MeshDistribute(MPI_Comm, Mesh *);
/* Collective, before the lists are built at tb (and after MeshesBin,
 * mesh_bins.h): each rank holds (at least) every triangle within reach of
 * its subdomain then (mesh_hold.c). */
PETSC_EXTERN PetscErrorCode MeshesHold(Meshes *, const Grid *, PetscReal tb);
/* Replaces the held triangles by n records (MESH_RECORD_WIDTH reals,
 * ascending triangle index) and bins them for reach. */
PETSC_EXTERN PetscErrorCode MeshHoldRecords(Mesh *, PetscInt n, const PetscReal *rec, PetscReal reach);

#endif
