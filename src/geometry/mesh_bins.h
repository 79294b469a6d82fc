/* A distributed mesh's triangles shared by space (geometry/mesh_bins.c),
 * so that a rank fetches its held triangles from the few ranks near them. */
#ifndef HDEM_MESH_BINS_H
#define HDEM_MESH_BINS_H

#include "geometry/trimesh.h"
#include "decomp/grid.h"

/* Collective, once the meshes are distributed (MeshDistribute) and before
 * the first MeshesHold: each distributed mesh's triangles shared by space
 * over comm's ranks (mesh_bins.c), every rank told every share's box. */
PETSC_EXTERN PetscErrorCode MeshesBin(MPI_Comm, Meshes *);
/* The ranks r with fetch[r] receive into *out (*nout records, ascending;
 * PetscFree it) every triangle whose bounding box meets their box
 * m->held + 6 r, each from the ranks whose share boxes meet it; only those
 * ranks take part (fetch and held: the same on every rank).  Other ranks
 * get no records. */
PETSC_EXTERN PetscErrorCode MeshBinsFetch(Mesh *, const Grid *, const PetscBool fetch[], PetscInt *nout,
                                          PetscReal **out);

#endif
