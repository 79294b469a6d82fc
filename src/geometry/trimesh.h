/* One triangle mesh (the type of geometry/mesh.h's walls): its vertices and
 * triangles, its surfaces, the closest features and contacts of a sphere,
 * the bins of the triangles it holds (geometry/trimesh.c; the contacts:
 * geometry/mesh_select.c). */
#ifndef HDEM_TRIMESH_H
#define HDEM_TRIMESH_H

#include "geometry/motion.h"

#define MESHES_MAX 16

struct MeshWear_; /* geometry/wear.h */

typedef struct {
  char       name[16]; /* "mesh3" */
  PetscInt   deck;     /* its N in the deck (meshN): histories and checkpoints name it so */
  char       file[PETSC_MAX_PATH_LEN];
  PetscInt   nv_total, nt_total, nsurf; /* the whole mesh */
  PetscReal  curvature;                 /* [deg] */
  PetscInt   type;                      /* its material type */
  PetscReal  lo[3], hi[3], centroid[3]; /* the whole mesh's, in its frame */
  PetscReal  rext;                      /* farthest vertex from the rotation axis (or the centroid) [m] */
  WallMotion motion;
  /* The triangles this rank holds: the whole mesh (whole), or those within
   * reach of its subdomain (mesh_hold.c).  Local indices; tvid and tid give
   * each corner's vertex and each triangle in the whole mesh, tid ascending, so
   * every decision taken in local indices is taken in global order. */
  PetscBool  whole;
  PetscInt   nv, nt;
  PetscReal *x;       /* 3 nv: vertices in the mesh frame [m] */
  PetscInt  *tri;     /* 3 nt: local vertex indices */
  PetscInt  *tvid;    /* 3 nt: their whole-mesh indices */
  PetscInt  *tid;     /* nt */
  PetscReal *normal;  /* 3 nt: unit normals (corner order, right-handed) */
  PetscInt  *surface; /* nt: the surface of each triangle, 0 .. nsurf - 1 */
  /* A distributed mesh's share of the whole, kept for the run: vertices
   * [hv0, hv0 + hnv) and triangles [ht0, ht0 + hnt), each triangle as a
   * record (MESH_RECORD_WIDTH reals) that the ranks which need it receive;
   * held: every rank's held box in the mesh frame (lo[3], hi[3]; empty
   * while lo > hi), the same on every rank */
  PetscInt   hv0, hnv, ht0, hnt, nrank;
  PetscReal *hx;      /* 3 hnv */
  PetscReal *hrec;    /* MESH_RECORD_WIDTH hnt */
  PetscReal *held;    /* 6 nrank */
  PetscInt   fetches; /* how often this rank's held set was replaced */
  /* The same triangles shared by space for the fetches (mesh_bins.c):
   * this rank's snt records, ascending, and every rank's share box (6 nrank,
   * the same on every rank; empty while lo > hi); fetch_peers: the other
   * ranks the last fetch of this rank's held set received from */
  PetscInt   snt, fetch_peers;
  PetscReal *srec; /* MESH_RECORD_WIDTH snt */
  PetscReal *sbox; /* 6 nrank */
  /* bins of the mesh frame over the held triangles: each cell lists the
   * triangles within the reach of some point of it; cells by key, sorted */
  PetscReal   reach, h, blo[3];
  PetscInt    bn[3];
  PetscInt    ncell;
  PetscInt64 *cellkey;   /* ncell, ascending */
  PetscInt   *cellstart; /* ncell + 1 into cellitem */
  PetscInt   *cellitem;  /* triangle indices, ascending within a cell */
  PetscReal  *tbox;      /* 6 nt: each held triangle's bounding box, lo[3] then hi[3] */

  struct MeshWear_ *wear; /* its wear and loads per triangle (geometry/wear.h); NULL: not kept */
} Mesh;

typedef struct {
  PetscInt n;
  /* the wall index of m[0]: planes are numbered first, then meshes (a contact's partner -1 - wall) */
  PetscInt wall0;
  Mesh     m[MESHES_MAX];
} Meshes;

/* A triangle as a distributed mesh sends it: its index, its vertices'
 * indices, its corners (9), its normal (3) and its surface. */
#define MESH_RECORD_WIDTH 17

/* Triangle (a, b, c)'s unit normal (b - a) x (c - a) / |...|, and the length it was divided by. */
static inline PetscReal MeshTriangleNormal(const PetscReal *a, const PetscReal *b, const PetscReal *c, PetscReal n[3])
{
  PetscReal ab[3], ac[3], len;
  for (int q = 0; q < 3; q++) ab[q] = b[q] - a[q], ac[q] = c[q] - a[q];
  n[0] = ab[1] * ac[2] - ab[2] * ac[1];
  n[1] = ab[2] * ac[0] - ab[0] * ac[2];
  n[2] = ab[0] * ac[1] - ab[1] * ac[0];
  len  = PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int q = 0; q < 3; q++) n[q] = n[q] / len;
  return len;
}
/* Triangle (a, b, c)'s area, and its area times its centroid: the terms of a mesh's area-weighted centroid. */
static inline PetscReal MeshTriangleMoment(const PetscReal *a, const PetscReal *b, const PetscReal *c, PetscReal mom[3])
{
  PetscReal n[3], A = 0.5 * MeshTriangleNormal(a, b, c, n);
  for (int q = 0; q < 3; q++) mom[q] = A * (a[q] + b[q] + c[q]) / 3.0;
  return A;
}
/* How far vertex x is from the rotation axis of a mesh that turns, else from its centroid: rext's terms. */
static inline PetscReal MeshVertexRadius(const Mesh *m, const PetscReal *x)
{
  PetscReal r[3], l = 0.0;
  if (m->motion.kind == MOTION_ROTATE) {
    for (int q = 0; q < 3; q++) r[q] = x[q] - m->motion.axis_point[q];
    l = r[0] * m->motion.axis[0] + r[1] * m->motion.axis[1] + r[2] * m->motion.axis[2];
    for (int q = 0; q < 3; q++) r[q] -= l * m->motion.axis[q];
  } else
    for (int q = 0; q < 3; q++) r[q] = x[q] - m->centroid[q];
  return PetscSqrtReal(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}
/* Whether two triangles across an edge are one surface: their normals within the curvature (cmin its
 * cosine), orientation taken from how each runs the edge (consistent windings run it in opposite
 * directions), so an STL with inconsistent windings is handled. */
static inline PetscBool MeshJoined(const PetscReal *ni, PetscBool fi, const PetscReal *nj, PetscBool fj, PetscReal cmin)
{
  PetscReal dot = ni[0] * nj[0] + ni[1] * nj[1] + ni[2] * nj[2];
  if (fi == fj) dot = -dot;
  return dot >= cmin ? PETSC_TRUE : PETSC_FALSE;
}

/* A mesh whose vertices and triangles are set (x, tri, nv, nt, curvature,
 * motion): its normals, surfaces and extent, held whole. */
PETSC_EXTERN PetscErrorCode MeshSetUpWhole(Mesh *);
PETSC_EXTERN PetscErrorCode MeshSetUp(Mesh *, PetscReal reach);
PETSC_EXTERN PetscErrorCode MeshDestroy(Mesh *);
/* Whether triangle t's bounding box, and so t, lies beyond reach of point x
 * (mesh frame), with a margin over the rounding of either distance: a
 * cell's items far from x are dropped without their closest point. */
static inline PetscBool MeshBoxBeyond(const Mesh *m, PetscInt t, const PetscReal x[3], PetscReal reach)
{
  const PetscReal *b  = m->tbox + 6 * t;
  PetscReal        d2 = 0.0;
  for (int a = 0; a < 3; a++) {
    PetscReal g = PetscMax(b[a] - x[a], x[a] - b[3 + a]);
    if (g > 0.0) d2 += g * g;
  }
  return d2 > reach * reach * (1.0 + 1e-9) ? PETSC_TRUE : PETSC_FALSE;
}

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
  /* edge: its vertices (whole-mesh indices), v[0] < v[1]; vertex: v[0]; face: the (local) triangle in v[0] */
  PetscInt  v[2];
  PetscReal c[3]; /* the closest point */
  PetscReal dist; /* its distance from the point */
  /* on a contact MeshContactsSelect picks: its key (below), and its region's feature key even where the
   * surface's key is the surface; up: the selection's scratch */
  PetscInt64 key, fkey;
  PetscInt   up;
} MeshFeature;

/* A contact's key within its mesh, what its history is kept by: its surface where the sphere touches the
 * surface in one region; where in several, MESH_KEY_REGION | the region's feature key: the whole-mesh index
 * of the triangle carrying its first feature (the least key) << 3 | the feature's place in it (0 the face,
 * 1 + c corner c, 4 + c the edge from corner c to the next).  Below 2^40 (interact/history.h's
 * HISTORY_MESH_SHIFT) with fewer than MESH_TRIANGLES_MAX triangles. */
#define MESH_KEY_REGION    ((PetscInt64)1 << 39)
#define MESH_TRIANGLES_MAX ((PetscInt64)1 << 36)

/* The closest point of triangle k to x, and the feature it lies on; edge
 * and vertex points are computed from the feature alone (its vertices in
 * index order), so every triangle sharing it gives the same bits. */
PETSC_EXTERN void MeshClosest(const Mesh *, PetscInt k, const PetscReal x[3], MeshFeature *);
/* The closest point to x of the edge between vertices iu and iw (whole-mesh indices, at pu and pw), taken
 * from the lower index; of the vertex iv at p. */
PETSC_EXTERN void MeshEdgeClosest(const PetscReal *pu, PetscInt iu, const PetscReal *pw, PetscInt iw,
                                  const PetscReal x[3], MeshFeature *);
PETSC_EXTERN void MeshVertexClosest(const PetscReal *p, PetscInt iv, const PetscReal x[3], MeshFeature *);
/* The contacts of a sphere (centre x in the mesh frame, radius r) with a
 * mesh, from its candidate triangles cand[0 .. nc) (ascending; every
 * triangle within r of x among them):
 *  1. each triangle's closest point lies on a feature (MeshClosest), f[k];
 *  2. an edge or vertex point is a contact only where the distance is
 *     locally least: every touching triangle that shares the feature has it
 *     as its own closest point too (the squared distance is convex on each
 *     triangle, so that is the local minimum over the mesh around it); the
 *     first triangle that names it carries it;
 *  3. a surface keeps one contact per region it is touched in (its nearest;
 *     ties: the first): the sphere's overlaps with the surface's triangles
 *     are convex, so they form one region where they meet (two triangles'
 *     shared edge or vertex within r), and so do contacts whose normals are
 *     within the curvature (a plane broken by T-junctions).
 * So a convex edge or vertex gives one contact, a concave corner one per
 * face, a triangulated plane the analytic plane's, a sphere wedged in a
 * square aperture of a plate one per rim.  Out: pick[0 .. npick), the
 * contacts' candidate positions in the order of their keys (f[pick[q]].key);
 * near[0 .. nnear), each surface's nearest candidate, touching or not.  f,
 * pick and near hold nc entries.  Decided from the candidates alone, in
 * their order: the same on every rank. */
PETSC_EXTERN void MeshContactsSelect(const Mesh *, const PetscInt *cand, PetscInt nc, const PetscReal x[3], PetscReal r,
                                     MeshFeature *f, PetscInt *pick, PetscInt *npick, PetscInt *near, PetscInt *nnear);
/* A mesh from arrays (copied): topology, surfaces and extent; name for messages. */
PETSC_EXTERN PetscErrorCode MeshCreateFromArrays(const char *name, PetscInt nv, const PetscReal *x, PetscInt nt,
                                                 const PetscInt *tri, PetscReal curvature, const WallMotion *, Mesh *);
/* Whether candidate k's feature f[k] (MeshClosest of cand[k]) is within r and locally nearest: a face's, or
 * an edge's or vertex's that every triangle within r sharing it has as its own closest point, carried by
 * the first candidate naming it (r = PETSC_MAX_REAL: a local minimum at any distance). */
PETSC_EXTERN PetscBool MeshFeatureMinimum(const Mesh *, const PetscInt *cand, PetscInt nc, const MeshFeature *f,
                                          PetscInt k, PetscReal r);
/* Whether key names a surface or a feature of the mesh (MESH_KEY_REGION). */
PETSC_EXTERN PetscBool MeshKeyValid(const Mesh *, PetscInt64 key);
/* The feature a region's key names (MESH_KEY_REGION), its closest point to x (a face: its triangle's), if
 * its triangle is among the candidates cand[0 .. nc). */
PETSC_EXTERN PetscBool MeshKeyFeature(const Mesh *, const PetscInt *cand, PetscInt nc, PetscInt64 key,
                                      const PetscReal x[3], MeshFeature *);
/* The unit normal of a contact at feature f, pointing to x: a face's plane normal, else from its point. */
PETSC_EXTERN void MeshFeatureNormal(const Mesh *, const MeshFeature *, const PetscReal x[3], PetscReal n[3]);
/* Whether held triangle k has vertex v (a whole-mesh index). */
static inline PetscBool MeshTriangleHas(const Mesh *m, PetscInt k, PetscInt v)
{
  return m->tvid[3 * k] == v || m->tvid[3 * k + 1] == v || m->tvid[3 * k + 2] == v ? PETSC_TRUE : PETSC_FALSE;
}
/* The held triangles' arrays freed: none held. */
PETSC_EXTERN PetscErrorCode MeshHeldFree(Mesh *);

#endif
