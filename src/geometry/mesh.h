/* Triangle-mesh walls (mesh0 .. mesh15): an STL surface (io/stl.h), placed
 * by scale, rotate and translate, moved rigidly by a WallMotion.  Meshes are
 * two-sided: a particle meets a triangle from whichever side it is on.
 *
 * Neighbouring triangles whose planes are within `curvature` degrees of each
 * other belong to one surface (a flat floor in many triangles is one); a
 * particle has at most one contact with a surface, so contact histories are
 * keyed by (particle, mesh, surface) and survive rolling across triangles.
 *
 * Contacts are found in the mesh's own frame (the deck's placement, X0):
 * the particle is taken there by the inverse of the mesh's pose, so the
 * triangles and their bins never move. */
#ifndef HDEM_MESH_H
#define HDEM_MESH_H

#include "geometry/motion.h"

#define MESHES_MAX 16

typedef struct {
  char       name[16];  /* "mesh3" */
  PetscInt   deck;      /* its N in the deck (meshN): histories and checkpoints name it so */
  char       file[PETSC_MAX_PATH_LEN];
  PetscInt   nv, nt, nsurf;
  PetscReal *x;       /* 3 nv: vertices in the mesh frame [m] */
  PetscInt  *tri;     /* 3 nt: vertex indices */
  PetscReal *normal;  /* 3 nt: unit normals (corner order, right-handed) */
  PetscInt  *surface; /* nt: the surface of each triangle, 0 .. nsurf - 1 */
  PetscReal  curvature; /* [deg] */
  PetscReal  lo[3], hi[3], centroid[3];
  PetscReal  rext;      /* farthest vertex from the rotation axis (or the centroid) [m] */
  WallMotion motion;
  /* bins of the mesh frame: each cell lists the triangles within the reach
   * of some point of it; cells by key, sorted */
  PetscReal  reach, h, blo[3];
  PetscInt   bn[3];
  PetscInt   ncell;
  PetscInt64 *cellkey;  /* ncell, ascending */
  PetscInt   *cellstart; /* ncell + 1 into cellitem */
  PetscInt   *cellitem;  /* triangle indices, ascending within a cell */
} Mesh;

typedef struct {
  PetscInt n;
  Mesh     m[MESHES_MAX];
} Meshes;

/* Keys mesh0_* .. mesh15_*: the files are read (collective) and checked. */
PETSC_EXTERN PetscErrorCode MeshesSetFromOptions(MPI_Comm, Meshes *);
/* Bins for queries within reach of a point (the largest radius plus the skin). */
PETSC_EXTERN PetscErrorCode MeshesSetUp(Meshes *, PetscReal reach);
PETSC_EXTERN PetscErrorCode MeshesDestroy(Meshes *);
PETSC_EXTERN PetscErrorCode MeshSetUp(Mesh *, PetscReal reach);
PETSC_EXTERN PetscErrorCode MeshDestroy(Mesh *);
/* The triangles within reach of point x (mesh frame) are among those of its cell: *items, *n (none: n = 0). */
PETSC_EXTERN void MeshCellItems(const Mesh *, const PetscReal x[3], const PetscInt **items, PetscInt *n);

/* What part of a triangle is closest to a point. */
typedef enum {
  MESH_FEATURE_FACE,
  MESH_FEATURE_EDGE,
  MESH_FEATURE_VERTEX
} MeshFeatureKind;

typedef struct {
  MeshFeatureKind kind;
  PetscInt        v[2]; /* edge: its vertices, v[0] < v[1]; vertex: v[0]; face: the triangle in v[0] */
  PetscReal       c[3]; /* the closest point */
  PetscReal       dist; /* its distance from the point */
} MeshFeature;

/* The closest point of triangle k to x, and the feature it lies on; edge
 * and vertex points are computed from the feature alone (its vertices in
 * index order), so every triangle sharing it gives the same bits. */
PETSC_EXTERN void MeshClosest(const Mesh *, PetscInt k, const PetscReal x[3], MeshFeature *);
/* The contacts of a sphere (centre x in the mesh frame, radius r) with a
 * mesh, from its candidate triangles cand[0 .. nc) (ascending; every
 * triangle within r of x among them):
 *  1. each triangle's closest point lies on a feature (MeshClosest), f[k];
 *  2. an edge or vertex point is a contact only where the distance is
 *     locally least: every touching triangle that shares the feature has it
 *     as its own closest point too (the squared distance is convex on each
 *     triangle, so that is the local minimum over the mesh around it); the
 *     first triangle that names it carries it;
 *  3. a surface keeps only its nearest contact (ties: the first), so a flat
 *     surface in many triangles gives one contact.
 * So a convex edge or vertex gives one contact, a concave corner one per
 * face, a triangulated plane the analytic plane's.  Out: pick[0 .. npick),
 * the contacts' candidate positions in the order of their surfaces; near[0 .. nnear),
 * each surface's nearest candidate, touching or not.  f, pick and near
 * hold nc entries.  Decided from the candidates alone, in their order: the
 * same on every rank. */
PETSC_EXTERN void MeshContactsSelect(const Mesh *, const PetscInt *cand, PetscInt nc, const PetscReal x[3], PetscReal r, MeshFeature *f, PetscInt *pick,
                                     PetscInt *npick, PetscInt *near, PetscInt *nnear);
/* A mesh from arrays (copied): topology, surfaces and extent; name for messages. */
PETSC_EXTERN PetscErrorCode MeshCreateFromArrays(const char *name, PetscInt nv, const PetscReal *x, PetscInt nt, const PetscInt *tri, PetscReal curvature,
                                                 const WallMotion *, Mesh *);
/* Whether triangle k has vertex v / both vertices of an edge. */
static inline PetscBool MeshTriangleHas(const Mesh *m, PetscInt k, PetscInt v)
{
  return m->tri[3 * k] == v || m->tri[3 * k + 1] == v || m->tri[3 * k + 2] == v ? PETSC_TRUE : PETSC_FALSE;
}

#endif
