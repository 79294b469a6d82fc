/* The sphere-mesh interaction (sphere_mesh.c): owned particles against the
 * triangle-mesh walls (geometry/mesh.h). */
#ifndef HDEM_SPHERE_MESH_H
#define HDEM_SPHERE_MESH_H

#include "interact/interaction.h"
#include "interact/history.h"
#include "geometry/mesh.h"

/* A particle's contact with a mesh, as the last step left it. */
typedef struct {
  PetscInt64 key;  /* MeshContactsSelect's: its surface, or its region (MESH_KEY_REGION); -1: taken on */
  LocalInt   slot; /* its history in hs */
  PetscReal  d, U; /* overlap and elastic energy (stats) */
} MeshContact;

/* An owned particle near a mesh: its candidate triangles (ascending) and contacts. */
typedef struct {
  LocalInt    i;
  PetscInt    mesh;
  PetscInt    c0, nc; /* cand[c0 .. c0 + nc) */
  PetscInt    e0, ne; /* its contacts in the current contact array */
  PetscReal   gap0;   /* at the build: the nearest candidate's distance less the radius */
  PetscReal   xm0[3]; /* at the build: the particle's centre in the mesh's frame */
  ContactPair cp;     /* the particle against a wall (its radius, mass, inertia do not change) */
} MeshGroup;

typedef struct {
  const Meshes *meshes;
  PetscInt      ngroup, capgroup, ncand, capcand;
  MeshGroup    *group;
  PetscInt     *cand;
  MeshContact  *con[2]; /* the step's contacts and the last step's, by turns */
  PetscInt      ncon[2], capcon[2], cur;
  HistorySlots  hs;
  /* a step's per-particle work arrays */
  PetscInt     capwork;
  MeshFeature *feat;
  PetscInt    *pick, *near, *match;
  WallPose     pose[MESHES_MAX][2]; /* each mesh's at the step's start and end */
} SphereMesh;

PETSC_EXTERN PetscErrorCode SphereMeshCreate(const Meshes *, Interaction *);

#endif
